package store

import (
	"context"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/fileid"
	"github.com/perfpages/perfpages/generator/internal/par"
)

// Output is what the store remembers of a file of the site.
type Output struct {
	// Key is the key of the inputs the file was made from (the plan's
	// output key), "" when it has none.
	Key string
	// Size, Time and Sum describe the file as written: a file that no
	// longer matches them was changed by someone else and is not reused.
	Size int64
	Time time.Time
	Sum  [32]byte
	// Ident is the file's identity on disk (fileid.Key) when the build
	// that wrote the manifest ended, "" when it was not recorded: the file
	// then is checked by its bytes.
	Ident string

	// live is the file as Check found it (not stored).
	live fs.FileInfo
}

// Live is the file as [Outputs.Check] found it matching e (its Lstat),
// nil for an entry Check did not return or one changed within the
// clock's tick before the check: a writer that reuses the file tells it
// by this, without looking it up again.
func (e Output) Live() fs.FileInfo { return e.live }

// WithLive is e with Live fi: a file that no one has changed since the
// build checked it (Check), whose identity [Outputs.Identify] then takes
// from fi rather than from the file. A file changed since the check (a
// write, a link, a rename onto its path) then does not have the identity
// recorded, and the next build checks its bytes.
func (e Output) WithLive(fi fs.FileInfo) Output {
	e.live = fi
	return e
}

// Outputs is the manifest of the last build's site, by path (slash
// separated, relative to the site's root).
type Outputs map[string]Output

// outputsVersion is the manifest's version: of no tool (see the package
// doc).
var outputsVersion = version("", "outputs", "")

// Outputs returns the manifest of the last build, nil when there is none.
func (s *Store) Outputs() Outputs {
	var o Outputs
	if !s.loadGobs("outputs", outputsVersion, decodeInto(&o)) {
		return nil
	}
	return o
}

// SaveOutputs records the manifest of the site just built.
func (s *Store) SaveOutputs(o Outputs) error {
	return s.saveGobs("outputs", outputsVersion, encodeOne(o))
}

// Check keeps the entries whose file under root is still the file the
// build wrote: a regular file (not a link to one) of the recorded size
// whose SHA-256 is the recorded one. It reports whether every file was.
// The bytes are checked, not the modification time, which rsync -a, cp -p,
// tar or a hand edit with touch -r restore: a site must never keep a file
// that differs from what a build from nothing would write. A file whose
// identity is the one [Outputs.Identify] recorded is that file without
// reading it (see Identify); any other file is hashed, on every core (at
// M, 70 MB when nothing was recorded).
func (o Outputs) Check(root string) (Outputs, bool) {
	paths := make([]string, 0, len(o))
	for p := range o {
		paths = append(paths, p)
	}
	good := make([]fs.FileInfo, len(paths))
	at := time.Now()
	par.Each(context.Background(), len(paths), func(i int) error {
		good[i] = o[paths[i]].matches(filepath.Join(root, filepath.FromSlash(paths[i])))
		return nil
	})
	out := make(Outputs, len(o))
	all := true
	for i, p := range paths {
		if good[i] == nil {
			all = false
			continue
		}
		e := o[p]
		// Live only when the file was settled at the check: a file
		// changed within the clock's tick before it could change again
		// unseen by its identity, which Identify takes from live.
		if _, changed, ok := fileid.Identity(good[i]); ok && !fileid.Racy(at, good[i].ModTime(), changed) {
			e.live = good[i]
		}
		out[p] = e
	}
	return out, all
}

// Only reports whether the folder root holds nothing but the files of o,
// the folders they lie in and the site's marker (marker): a file someone
// added to a site (which a build from nothing would not write) makes a
// site that is not up to date.
func (o Outputs) Only(root, marker string) bool {
	only := true
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			only = false
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return nil
		case rel == marker:
			return nil
		}
		if _, ok := o[rel]; !ok {
			only = false
			return fs.SkipAll
		}
		return nil
	})
	return only
}

// Identify records the identity of each file of o under root as it is
// now: call it when the site is in place and the build will not touch it
// again. A file changed within the clock's tick before now (fileid.Racy:
// the files the build just wrote or linked) gets none, nor does one that
// is not the recorded size, nor any where the system keeps no
// status-change time; those are checked by their bytes. An entry with a
// Live file ([Output.WithLive]: one the build checked and left as it
// was) gets that file's identity, not looked up again.
//
// Why a file with the recorded identity (fileid.Key) holds the bytes the
// build wrote (the argument of generator/filesums.go for archives, applied
// to the site): every write to a file, and every copy or rename onto its
// path, sets its status-change time to the clock's time or gives the path
// another inode, and no tool can set it back (scripts/hostile.sh's
// live-mtime-restored case edits the live site and restores the
// modification time). The identity is recorded after the build's last
// operation on the site (the swap), and only for files not changed within
// the clock's tick before that, so a later change moves it. The build's
// own later work moves it too, which only costs a read: the next build
// links a kept file into its new site (a link sets the inode's
// status-change time) after checking it, and records the identity again
// after its swap.
func (o Outputs) Identify(root string, now time.Time) {
	paths := make([]string, 0, len(o))
	for p := range o {
		paths = append(paths, p)
	}
	ids := make([]string, len(paths))
	par.Each(context.Background(), len(paths), func(i int) error {
		e := o[paths[i]]
		if e.live != nil {
			ids[i] = settledIdentityOf(e.live, e.Size, now)
			return nil
		}
		ids[i] = settledIdentity(filepath.Join(root, filepath.FromSlash(paths[i])), e.Size, now)
		return nil
	})
	for i, p := range paths {
		e := o[p]
		e.Ident = ids[i]
		o[p] = e
	}
}

// settledIdentity is the identity on disk (fileid.Key) of the regular
// file at path when it is size bytes long and was not changed within the
// clock's tick before now (fileid.Racy: it could still change unseen),
// else "". The site's manifest (Identify) and the store's index
// (Store.identify) record it.
func settledIdentity(path string, size int64, now time.Time) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	return settledIdentityOf(fi, size, now)
}

// settledIdentityOf is settledIdentity of the file fi.
func settledIdentityOf(fi fs.FileInfo, size int64, now time.Time) string {
	if !fi.Mode().IsRegular() || fi.Size() != size {
		return ""
	}
	key, changed, ok := fileid.Key(fi)
	if !ok || fileid.Racy(now, fi.ModTime(), changed) {
		return ""
	}
	return key
}

// matches returns the file at path (its Lstat, or its Stat as opened, a
// regular file) when it is the one e records, else nil.
func (e Output) matches(path string) fs.FileInfo {
	if e.Ident != "" {
		if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
			if key, _, ok := fileid.Key(fi); ok && key == e.Ident {
				return fi
			}
		}
	}
	f, fi, err := capped.OpenRegular(path, false)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi.Size() != e.Size {
		return nil
	}
	h := sha256.New()
	if n, err := io.Copy(h, io.LimitReader(f, e.Size+1)); err != nil || n != e.Size {
		return nil
	}
	var sum [32]byte
	h.Sum(sum[:0])
	if sum != e.Sum {
		return nil
	}
	return fi
}

// State is what a build leaves for the next one to decide it has nothing
// to do: the fingerprint of its inputs and what it reported.
type State struct {
	Fingerprint [32]byte
	// Out is the output folder the state is about.
	Out string
	// Warnings and Notes are what the build printed, to print again.
	Warnings, Notes []string
	// Pages and Files are its counts, Artifacts and Series its dataset's.
	Pages, Files, Artifacts, Series int
}

// State returns the state of the last successful build, if any.
func (s *Store) State() (State, bool) {
	var st State
	ok := s.Load("state", "", &st)
	return st, ok
}

// SaveState records the state of a successful build.
func (s *Store) SaveState(st State) error { return s.Save("state", "", st) }

// ClearState forgets the last build's state (a build is under way: if it
// fails, the next one must not believe nothing changed).
func (s *Store) ClearState() {
	os.Remove(filepath.Join(s.dir, "state.gob"))
	s.recorded("state.gob", -1, [32]byte{})
}
