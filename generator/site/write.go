package site

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Writer writes a site into a temporary folder next to its target and
// swaps it in only when Commit is called, so a failed build leaves the
// previous site untouched and a reader never sees a half-written one.
type Writer struct {
	target string
	tmp    string

	mu    sync.Mutex
	files map[string]bool
	dirs  map[string]bool
}

// NewWriter prepares a temporary folder beside target.
func NewWriter(target string) (*Writer, error) {
	target = filepath.Clean(target)
	parent := filepath.Dir(target)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(target)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("creating the temporary output folder: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &Writer{target: target, tmp: tmp, files: map[string]bool{}, dirs: map[string]bool{}}, nil
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
// root. Writing the same path twice is an error (two pages claiming one URL).
func (w *Writer) WriteFile(p string, data []byte) error {
	if err := checkPath(p); err != nil {
		return err
	}
	w.mu.Lock()
	if w.files[p] {
		w.mu.Unlock()
		return fmt.Errorf("two pages write %s", p)
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
			return err
		}
		w.mu.Lock()
		w.dirs[dir] = true
		w.mu.Unlock()
	}
	return os.WriteFile(full, data, 0o644)
}

// Count is the number of files written so far.
func (w *Writer) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.files)
}

// Commit swaps the new site in place of the old one.
func (w *Writer) Commit() error {
	var old string
	if _, err := os.Lstat(w.target); err == nil {
		old = w.tmp + ".old"
		if err := os.Rename(w.target, old); err != nil {
			return fmt.Errorf("moving the previous site aside: %w", err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(w.tmp, w.target); err != nil {
		if old != "" {
			os.Rename(old, w.target)
		}
		return fmt.Errorf("moving the new site in place: %w", err)
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// Abort removes the temporary folder; the previous site stays.
func (w *Writer) Abort() error { return os.RemoveAll(w.tmp) }
