package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// TempPrefix is the name prefix of a build's temporary folder beside the
// output folder out: ".<name>.tmp-". A killed build leaves such folders
// behind; [CleanLeftovers] removes them.
func TempPrefix(out string) string { return "." + filepath.Base(out) + ".tmp-" }

// lockContent is what a lock file says, so that a build can tell its own
// lock files (a killed build leaves one) from a file of the same name.
var lockContent = []byte("perfpages build lock: a build of the folder beside this file is running, or was killed\n")

// lockPath is the lock file beside out.
func lockPath(out string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".lock")
}

// ErrBusy is returned (wrapped) by [Lock] when another build holds the lock.
var ErrBusy = errors.New("another perfpages build is writing this folder")

// Lock takes the lock of the output folder out (resolved): the file
// ".<name>.lock" beside it, locked with flock(2) and removed again by
// unlock. Builds into one folder are serialised by it, so a build never
// sweeps up the temporary folder of a build that is still running. It
// does not wait: a second build fails at once with [ErrBusy] (a nightly
// job that overlaps the previous one should not queue up behind it). The
// lock dies with its process, so a killed build never leaves a stale one.
// Where flock is not available (Windows) Lock does nothing.
//
// A build takes it before it reads anything (its store belongs to the
// output, so the lock guards both) and holds it to its very end.
func Lock(out string) (unlock func(), err error) {
	unlock, err = lock(lockPath(out))
	if errors.Is(err, ErrBusy) {
		return nil, fmt.Errorf("%s: %w (it holds %s); wait for it to finish", out, ErrBusy, lockPath(out))
	}
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", out, err)
	}
	return unlock, nil
}

// Swap puts the folder tmp (the new site) at out, both in one parent
// folder, and returns where the previous site now is ("" when there was
// none) for the caller to remove.
//
// The output path is a real folder, not a symbolic link to a versioned
// folder: GitHub's upload-pages-artifact, Netlify, rsync and "cp -r"
// users all take the folder path, and a link would change what they copy
// (or be copied as a link). On Linux the swap is one renameat2(2) call
// with RENAME_EXCHANGE, so a concurrent reader (a web server, an upload)
// always finds either the old or the new site at out, never nothing.
// Elsewhere, or on a file system without RENAME_EXCHANGE, the old site is
// renamed aside and the new one renamed in: two renames, so out is
// missing for the moment between them. Builds into one folder never
// overlap ([Lock]).
func Swap(tmp, out string) (old string, err error) {
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return "", fmt.Errorf("moving the new site in place: %w", err)
		}
		return "", nil
	}
	if err := atomicExchange(tmp, out); err == nil {
		return tmp, nil
	}
	old = tmp + ".old"
	if err := os.Rename(out, old); err != nil {
		return "", fmt.Errorf("moving the previous site aside: %w", err)
	}
	if err := os.Rename(tmp, out); err != nil {
		if rerr := os.Rename(old, out); rerr != nil {
			return "", fmt.Errorf("moving the new site in place: %w (the previous site is at %s)", err, old)
		}
		return "", fmt.Errorf("moving the new site in place: %w", err)
	}
	return old, nil
}

// atomicExchange is exchange, replaced in tests to exercise the fallback.
var atomicExchange = exchange

// RemoveSite removes the folder dir, a site perfpages wrote (or one of its
// temporary folders), deleting its [Marker] last: a removal cut short
// leaves a folder that still carries the marker, which the next build's
// [CleanLeftovers] recognises and finishes. Read-only folders inside it
// (chmod -R a-w) are made writable and the removal tried again; what
// still fails is returned, for the caller to report as a warning — the
// new site is live by then.
//
// dir itself must be a real folder: a symbolic link is refused, never
// followed (inside, os.RemoveAll removes links, not what they point to).
func RemoveSite(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("refusing to remove %s: it is not a folder (a symbolic link or a file), so not a site perfpages wrote", dir)
	}
	err = removeMarkerLast(dir)
	if err == nil {
		return nil
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			if info, err := d.Info(); err == nil && info.Mode().Perm()&0o700 != 0o700 {
				os.Chmod(p, info.Mode().Perm()|0o700)
			}
		}
		return nil
	})
	if err := removeMarkerLast(dir); err != nil {
		return err
	}
	return nil
}

// removers is how many goroutines remove a site's folders at once.
const removers = 8

func removeMarkerLast(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// A site is thousands of small folders (one per page); removing them
	// one after the other waits on the file system for each, so the
	// second level (commit/<sha>, data/series …) is removed by several
	// goroutines at once, which is much faster on the M data set
	// (scripts/scale.sh M measures whole builds).
	var paths []string
	for _, e := range entries {
		if e.Name() == Marker {
			continue
		}
		if e.IsDir() {
			p := filepath.Join(dir, e.Name())
			if kids, err := os.ReadDir(p); err == nil {
				for _, k := range kids {
					paths = append(paths, filepath.Join(p, k.Name()))
				}
			}
		}
	}
	errs := make([]error, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range removers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(paths) {
					return
				}
				errs[i] = os.RemoveAll(paths[i])
			}
		})
	}
	wg.Wait()
	// The top-level folders, now empty (or holding what could not be
	// removed, which RemoveAll reports).
	for _, e := range entries {
		if e.Name() != Marker {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	if err := os.Remove(filepath.Join(dir, Marker)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// CleanLeftovers removes what killed builds into out (resolved) left
// beside it: folders named ".<name>.tmp-*" (temporary sites, and previous
// sites moved aside) that are perfpages' ([IsOwnSite]) or are empty.
// Anything else with such a name — a file, a link, a folder without the
// marker or with a marker of other content — is not perfpages' and stays. The caller holds the [Lock], so no running
// build's folder is touched. Folders that cannot be removed are returned
// as warnings.
func CleanLeftovers(out string) []error {
	parent, prefix := filepath.Dir(out), TempPrefix(out)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var warnings []error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) || !e.IsDir() {
			continue
		}
		p := filepath.Join(parent, e.Name())
		if !IsOwnSite(p) && !isEmptyDir(p) {
			continue
		}
		if err := RemoveSite(p); err != nil {
			warnings = append(warnings, fmt.Errorf("could not remove %s, left by an earlier build: %v; remove it by hand", p, err))
		}
	}
	return warnings
}

// OwnerOf returns the name of the output folder whose spare site or
// temporary folder a folder named name is by its name (".public.spare",
// ".public.tmp-123" → "public", see [SparePath] and [TempPrefix]), and
// false for any other name.
func OwnerOf(name string) (string, bool) {
	if !strings.HasPrefix(name, ".") {
		return "", false
	}
	if out, ok := strings.CutSuffix(name[1:], ".spare"); ok && out != "" {
		return out, true
	}
	if i := strings.LastIndex(name, ".tmp-"); i > 1 {
		return name[1:i], true
	}
	return "", false
}

// SparePath is where a build keeps the site it replaced, for the next
// build to start from: ".<name>.spare" beside out. Like the temporary
// folders it carries the [Marker]; unlike them it survives the build.
func SparePath(out string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".spare")
}
