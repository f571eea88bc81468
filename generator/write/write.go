// Package write is the write stage of a site build: it puts the files the
// renderer makes into the output folder, atomically. It builds the new
// site in a temporary folder beside the output, or in the spare site an
// earlier build kept there (spare.go); carries over the previous site's
// files whose bytes have not changed (keep.go); and swaps the new site in
// only when the build succeeds ([Writer.Commit]).
//
// It is the last stage of the build (see the architecture section of the
// README) and knows nothing of pages: it writes bytes at slash paths. What
// may be replaced, the lock and the swap's system calls are package
// outdir's.
package write

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/perfpages/perfpages/generator/outdir"
)

// Writer writes a site into a temporary folder next to its target and
// swaps it in only when Commit is called, so a failed build leaves the
// previous site untouched and a reader never sees a half-written one.
//
// It never replaces a folder that is not empty and not a perfpages site:
// every site it writes carries the marker file [outdir.Marker], written
// first so that even the temporary folder of a killed build carries it.
//
// The swap: the output stays a real folder — not a symbolic link to a
// versioned folder, which deploy tools would copy as a link or not at all —
// and the new site takes its place with one renameat2(RENAME_EXCHANGE) on
// Linux, so a concurrent reader always finds a complete site at the output
// path; elsewhere it is two renames with a brief gap ([outdir.Swap]).
// Builds into one folder are serialised by a lock file beside it
// ([outdir.Lock]), which the caller takes before it reads anything and
// holds until the writer is done; a second build fails at once. Under the
// lock a Writer removes what killed builds left beside the target
// ([outdir.CleanLeftovers]), and after the swap the previous site. Failing
// to remove an old copy (a read-only tree) is a warning (see Warnings),
// never a failed build: the new site is live by then.
type Writer struct {
	target string
	tmp    string
	opts   Options
	bytes  int64 // of the files claimed, under mu
	// spare is the previous-but-one site the new one is made from, nil
	// when it is made from nothing (see spare.go).
	spare *spare

	mu       sync.Mutex
	files    map[string]bool
	dirs     map[string]bool
	warnings []error

	// prev are the files of the site being replaced that may be reused
	// (see SetPrevious); manifest records every file written.
	prev     map[string]FileRecord
	manifest map[string]FileRecord

	// links are the Keep calls in flight (see Keep); wait ends them.
	links    chan func() error
	linkWG   sync.WaitGroup
	linkErr  error
	linkOnce sync.Once
	waitOnce sync.Once
	sendMu   sync.RWMutex // held to send on links; waited under it
	waited   bool
}

// linkers is how many goroutines carry files of the previous site over.
// Carrying a file over is two system calls that wait on the file system
// (mkdir, link), not on a core: a nightly build carries thousands.
const linkers = 8

// async runs f on the writer's link goroutines; after wait, at once.
func (w *Writer) async(f func() error) {
	w.sendMu.RLock()
	defer w.sendMu.RUnlock()
	if w.waited {
		if err := f(); err != nil {
			w.mu.Lock()
			w.linkErr = cmp.Or(w.linkErr, err)
			w.mu.Unlock()
		}
		return
	}
	w.linkOnce.Do(func() {
		w.links = make(chan func() error, 256)
		for range linkers {
			w.linkWG.Go(func() {
				for f := range w.links {
					if err := f(); err != nil {
						w.mu.Lock()
						w.linkErr = cmp.Or(w.linkErr, err)
						w.mu.Unlock()
					}
				}
			})
		}
	})
	w.links <- f
}

// wait ends the Keep calls in flight and returns the first error.
func (w *Writer) wait() error {
	w.waitOnce.Do(func() {
		w.sendMu.Lock()
		w.waited = true
		w.sendMu.Unlock()
		w.linkOnce.Do(func() {}) // no goroutines were started: none to wait for
		if w.links != nil {
			close(w.links)
			w.linkWG.Wait()
		}
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.linkErr
}

// Options control a [Writer].
type Options struct {
	// Fresh makes the new site from an empty folder: the spare site an
	// earlier build kept is not used (a cold build reads nothing kept).
	Fresh bool
	// MaxFiles and MaxBytes bound the site (0: no bound): a file that
	// would pass either is a *LimitError, and the build fails with the
	// previous site in place.
	MaxFiles int
	MaxBytes int64
	// Searched says the caller has just searched target for git work
	// trees ([outdir.CheckSite], before taking its lock): New then
	// checks only what [outdir.StillReplaceable] checks, as the swap
	// does, instead of reading every folder of the site again (a site
	// is thousands of folders: at the asv layout's M the second search
	// was a tenth of a nightly build's CPU).
	Searched bool
}

// LimitError reports a site that grew past a bound of [Options].
type LimitError struct {
	What  string // "files" or "bytes"
	Limit int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the site would have more than %d %s", e.Limit, e.What)
}

// New prepares a temporary folder beside target. It refuses, before
// touching anything, a target that [outdir.Replaceable] rejects: a plain
// file, a git work tree, a non-empty folder without the marker. A
// symbolic link at target is followed: the site replaces the folder it
// points to. The caller holds the target's lock ([outdir.Lock]) until the
// writer is committed or aborted.
func New(target string, o Options) (*Writer, error) {
	target, err := outdir.Resolve(target)
	if err != nil {
		return nil, err
	}
	check := outdir.Replaceable
	if o.Searched {
		check = outdir.StillReplaceable
	}
	if err := check(target); err != nil {
		return nil, err
	}
	parent := filepath.Dir(target)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	w := &Writer{target: target, opts: o, files: map[string]bool{}, dirs: map[string]bool{}, manifest: map[string]FileRecord{}}
	w.warnings = outdir.CleanLeftovers(target)
	tmp := filepath.Join(parent, outdir.TempPrefix(target)+"spare")
	if !o.Fresh {
		w.spare = openSpare(target, tmp)
	}
	if w.spare != nil {
		for d := range w.spare.dirs {
			w.dirs[d] = true
		}
	} else {
		tmp, err = os.MkdirTemp(parent, outdir.TempPrefix(target))
		if err != nil {
			return nil, fmt.Errorf("creating the temporary output folder: %w", err)
		}
	}
	w.tmp = tmp
	if err := os.Chmod(tmp, 0o755); err != nil {
		w.Abort()
		return nil, err
	}
	// The marker first; the previous site's, with its time, when it is
	// the same (a rebuild rewrites no file it need not). A spare site has
	// one already.
	marker := filepath.Join(tmp, outdir.Marker)
	if w.spare != nil {
		return w, nil
	}
	if !outdir.IsOwnSite(target) || os.Link(filepath.Join(target, outdir.Marker), marker) != nil {
		if err := os.WriteFile(marker, outdir.MarkerContent, 0o644); err != nil {
			w.Abort()
			return nil, err
		}
	}
	return w, nil
}

// Warnings are the problems that did not stop the build: leftovers of
// killed builds or the previous site that could not be removed.
func (w *Writer) Warnings() []error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.warnings)
}

// checkPath rejects any output path that could leave the output folder:
// absolute paths, "..", backslashes, NUL and empty segments. Paths are
// built from slugs already; this is the last line of defence.
func checkPath(p string) error {
	if p == "" || strings.ContainsAny(p, "\\\x00") || p != path.Clean(p) || !filepath.IsLocal(p) {
		return fmt.Errorf("refusing to write unsafe output path %q", p)
	}
	return nil
}

// WriteFile writes one file; p is slash-separated and relative to the site
// root. Writing the same path twice is an error (two pages claiming one URL),
// and so is writing the marker file. See Put.
func (w *Writer) WriteFile(p string, data []byte) error { return w.Put(p, "", data) }

// Put writes one file, recording key (the key of the inputs it was made
// from, "" for none) in the manifest. When the site being replaced has the
// same bytes at p (see SetPrevious), that file is carried over instead,
// with its modification time: a rebuild rewrites only what changed.
func (w *Writer) Put(p, key string, data []byte) error {
	full, err := w.claim(p, int64(len(data)))
	if err == nil {
		full, err = w.place(p, full)
	}
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	w.mu.Lock()
	old, ok := w.prev[p]
	w.mu.Unlock()
	same := ok && old.Sum == sum && old.Size == int64(len(data))
	if kept, err := w.fromSpare(p, full, old, same); err != nil {
		return err
	} else if kept {
		w.keptRecord(p, key, old)
		return nil
	}
	if same {
		if err := w.link(p, full, key, old); err == nil {
			return nil
		}
	}
	if err := os.WriteFile(full, data, 0o644); err != nil {
		return err
	}
	return w.record(p, full, key, sum)
}

// claim reserves path p of the new site and makes its folder; it returns
// the file's path on disk.
func (w *Writer) claim(p string, size int64) (string, error) {
	if err := checkPath(p); err != nil {
		return "", err
	}
	if p == outdir.Marker {
		return "", fmt.Errorf("refusing to overwrite the site marker %s", p)
	}
	w.mu.Lock()
	if w.files[p] {
		w.mu.Unlock()
		return "", fmt.Errorf("two pages write %s", p)
	}
	if w.opts.MaxFiles > 0 && len(w.files) >= w.opts.MaxFiles {
		w.mu.Unlock()
		return "", &LimitError{What: "files", Limit: int64(w.opts.MaxFiles)}
	}
	if w.opts.MaxBytes > 0 && w.bytes+size > w.opts.MaxBytes {
		w.mu.Unlock()
		return "", &LimitError{What: "bytes", Limit: w.opts.MaxBytes}
	}
	w.files[p] = true
	w.bytes += size
	w.mu.Unlock()
	return filepath.Join(w.tmp, filepath.FromSlash(p)), nil
}

// place makes the folder of p, claimed as full.
func (w *Writer) place(p, full string) (string, error) {
	if err := w.mkdirs(path.Dir(p)); err != nil {
		return "", err
	}
	return full, nil
}

// mkdirs makes folder dir of the new site and its parents. Folders made
// are remembered, so each costs one mkdir call (MkdirAll would look at
// every parent first: a site has thousands of page folders). Two
// goroutines may both make a folder; the second finds it there.
func (w *Writer) mkdirs(dir string) error {
	if dir == "." {
		return nil
	}
	w.mu.Lock()
	done := w.dirs[dir]
	w.mu.Unlock()
	if done {
		return nil
	}
	if err := w.mkdirs(path.Dir(dir)); err != nil {
		return err
	}
	full := filepath.Join(w.tmp, filepath.FromSlash(dir))
	err := os.Mkdir(full, 0o755)
	if errors.Is(err, fs.ErrExist) && w.spareFileAt(dir) {
		err = os.Mkdir(full, 0o755)
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	w.mu.Lock()
	w.dirs[dir] = true
	w.mu.Unlock()
	return nil
}

// record adds the file just written at full to the manifest.
func (w *Writer) record(p, full, key string, sum [32]byte) error {
	fi, err := os.Stat(full)
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.manifest[p] = FileRecord{Key: key, Size: fi.Size(), Time: fi.ModTime(), Sum: sum}
	w.mu.Unlock()
	return nil
}

// Bytes is the size of the files written so far.
func (w *Writer) Bytes() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bytes
}

// Count is the number of files written so far.
func (w *Writer) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.files)
}

// Commit swaps the new site in place of the old one, which it keeps as
// the next build's spare site (or removes when it cannot); a failure to
// remove it is a warning, not an error.
func (w *Writer) Commit() error {
	if err := w.wait(); err != nil {
		return err
	}
	if err := w.pruneSpare(); err != nil {
		return err
	}
	if err := outdir.StillReplaceable(w.target); err != nil {
		return err
	}
	old, err := outdir.Swap(w.tmp, w.target)
	if err != nil {
		return err
	}
	w.tmp = ""
	if old != "" {
		if err := w.keepSpare(old); err != nil {
			w.mu.Lock()
			w.warnings = append(w.warnings, fmt.Errorf("the new site is in place, but the previous one could not be removed from %s: %v; remove it by hand", old, err))
			w.mu.Unlock()
		}
	}
	return nil
}

// removeOld removes the previous site after the swap; tests replace it.
var removeOld = outdir.RemoveSite

// Abort removes the temporary folder; the previous site stays. It may be
// called after Commit (it then does nothing).
func (w *Writer) Abort() error {
	w.wait()
	if w.tmp == "" {
		return nil
	}
	err := outdir.RemoveSite(w.tmp)
	w.tmp = ""
	return err
}
