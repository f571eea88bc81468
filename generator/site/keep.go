package site

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
)

// Keep carries the file p (slash-separated, relative to the site root) of
// the site being replaced into the new one unchanged: a hard link, so its
// bytes and its modification time stay (a copy with the old time where
// the file system has no hard links). An incremental build keeps every
// file whose inputs did not change this way.
func (w *Writer) Keep(p string) error {
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
	old := filepath.Join(w.target, filepath.FromSlash(p))
	full := filepath.Join(w.tmp, filepath.FromSlash(p))
	if needDir {
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		w.mu.Lock()
		w.dirs[dir] = true
		w.mu.Unlock()
	}
	if err := os.Link(old, full); err == nil {
		return nil
	} else if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("keeping %s: the previous site has no such file", p)
	}
	return copyFile(old, full)
}

// copyFile copies src to dst with src's modification time.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}
