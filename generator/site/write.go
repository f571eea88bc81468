package site

import (
	"bytes"
	"crypto/sha256"
	"fmt"
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
// The swap (decided in issue 10): the output stays a real folder — not a
// symbolic link to a versioned folder, which deploy tools would copy as
// a link or not at all — and the new site takes its place with one
// renameat2(RENAME_EXCHANGE) on Linux, so a concurrent reader always
// finds a complete site at the output path; elsewhere it is two renames
// with a brief gap ([outdir.Swap]). Builds into one folder are serialised
// by a lock file beside it ([outdir.Lock]); a second build fails at once.
// Under the lock a Writer removes what killed builds left beside the
// target ([outdir.CleanLeftovers]), and after the swap the previous site.
// Failing to remove an old copy (a read-only tree) is a warning (see
// Warnings), never a failed build: the new site is live by then.
type Writer struct {
	target string
	tmp    string
	unlock func()

	mu       sync.Mutex
	files    map[string]bool
	dirs     map[string]bool
	warnings []error

	// prev are the files of the site being replaced that may be reused
	// (see SetPrevious); manifest records every file written.
	prev     map[string]FileRecord
	manifest map[string]FileRecord
}

// NewWriter prepares a temporary folder beside target. It refuses, before
// touching anything, a target that [outdir.Replaceable] rejects: a plain
// file, a git work tree, a non-empty folder without the marker. A
// symbolic link at target is followed: the site replaces the folder it
// points to.
func NewWriter(target string) (*Writer, error) {
	target, err := outdir.Resolve(target)
	if err != nil {
		return nil, err
	}
	if err := outdir.Replaceable(target); err != nil {
		return nil, err
	}
	parent := filepath.Dir(target)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	unlock, err := outdir.Lock(target)
	if err != nil {
		return nil, err
	}
	w := &Writer{target: target, unlock: unlock, files: map[string]bool{}, dirs: map[string]bool{}, manifest: map[string]FileRecord{}}
	// Under the lock: the folder may have changed since the check.
	if err := outdir.StillReplaceable(target); err != nil {
		w.release()
		return nil, err
	}
	w.warnings = outdir.CleanLeftovers(target)
	tmp, err := os.MkdirTemp(parent, outdir.TempPrefix(target))
	if err != nil {
		w.release()
		return nil, fmt.Errorf("creating the temporary output folder: %w", err)
	}
	w.tmp = tmp
	if err := os.Chmod(tmp, 0o755); err != nil {
		w.Abort()
		return nil, err
	}
	// The marker first; the previous site's, with its time, when it is
	// the same (a rebuild rewrites no file it need not).
	marker := filepath.Join(tmp, outdir.Marker)
	if old, err := os.ReadFile(filepath.Join(target, outdir.Marker)); err != nil || !bytes.Equal(old, outdir.MarkerContent) || os.Link(filepath.Join(target, outdir.Marker), marker) != nil {
		if err := os.WriteFile(marker, outdir.MarkerContent, 0o644); err != nil {
			w.Abort()
			return nil, err
		}
	}
	return w, nil
}

// release lets go of the output's lock, once.
func (w *Writer) release() {
	if w.unlock != nil {
		w.unlock()
		w.unlock = nil
	}
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
	full, err := w.claim(p)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	w.mu.Lock()
	old, ok := w.prev[p]
	w.mu.Unlock()
	if ok && old.Sum == sum && old.Size == int64(len(data)) {
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
func (w *Writer) claim(p string) (string, error) {
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
	w.files[p] = true
	dir := path.Dir(p)
	needDir := dir != "." && !w.dirs[dir]
	w.mu.Unlock()
	full := filepath.Join(w.tmp, filepath.FromSlash(p))
	if needDir {
		// Two goroutines may both create the folder; MkdirAll is fine
		// with that. It is marked only once it exists.
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", err
		}
		w.mu.Lock()
		w.dirs[dir] = true
		w.mu.Unlock()
	}
	return full, nil
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

// Count is the number of files written so far.
func (w *Writer) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.files)
}

// Commit swaps the new site in place of the old one and removes the old
// one; a failure to remove it is a warning, not an error.
func (w *Writer) Commit() error {
	defer w.release()
	if err := outdir.StillReplaceable(w.target); err != nil {
		return err
	}
	old, err := outdir.Swap(w.tmp, w.target)
	if err != nil {
		return err
	}
	w.tmp = ""
	if old != "" {
		if err := removeOld(old); err != nil {
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
	defer w.release()
	if w.tmp == "" {
		return nil
	}
	err := outdir.RemoveSite(w.tmp)
	w.tmp = ""
	return err
}
