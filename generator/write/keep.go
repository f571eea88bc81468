package write

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// FileRecord is what a build remembers of a file it wrote: the key of the
// inputs it was made from ("" for none), its size, modification time and
// SHA-256. A later build reuses the file only while it still has that
// size and time.
type FileRecord struct {
	Key  string
	Size int64
	Time time.Time
	Sum  [32]byte
	// Live is the previous site's file as the build checked it against
	// the record (its Lstat, store.Output.Live), nil when unknown: the
	// writer tells a spare's file that is this very file by it.
	Live fs.FileInfo
}

// SetPrevious tells the writer which files of the site being replaced it
// may carry over (by path, as written last time and checked since): Keep
// needs them, and Put carries a file over when its bytes are the same.
func (w *Writer) SetPrevious(prev map[string]FileRecord) {
	w.mu.Lock()
	w.prev = prev
	w.mu.Unlock()
}

// Manifest is what the writer wrote, by path (not the marker), once the
// files being kept (see Keep) are in place.
func (w *Writer) Manifest() map[string]FileRecord {
	w.wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]FileRecord, len(w.manifest))
	for p, r := range w.manifest {
		out[p] = r
	}
	return out
}

// Keep carries the file p of the site being replaced into the new one
// unchanged, with its modification time: the plan decided its inputs have
// not changed (key is theirs). It must be one of the files SetPrevious
// named.
//
// The path is claimed at once (two outputs at one path are an error
// here); the file is carried over in the background, and a failure to do
// so is returned by Manifest's, Commit's or Abort's wait: the build fails,
// as it would have.
func (w *Writer) Keep(p, key string) error {
	w.mu.Lock()
	old, ok := w.prev[p]
	w.mu.Unlock()
	if !ok {
		return fmt.Errorf("keeping %s: the previous site has no such file", p)
	}
	full, err := w.claim(p, old.Size)
	if err != nil {
		return err
	}
	w.async(func() error {
		if kept, err := w.fromSpare(p, full, old, true); err != nil || kept {
			if kept {
				w.keptRecord(p, key, old)
			}
			return err
		}
		if _, err := w.place(p, full); err != nil {
			return err
		}
		return w.link(p, full, key, old)
	})
	return nil
}

// link makes full the file p of the previous site: a hard link, so its
// bytes and its modification time stay (a copy with the old time where
// the file system has no hard links). The previous site's files were
// checked against their records when the build started (store.Outputs
// Check); a file edited by hand since is carried over as it is now, and
// the next build, finding its time changed, writes it again.
func (w *Writer) link(p, full, key string, old FileRecord) error {
	src := filepath.Join(w.target, filepath.FromSlash(p))
	if err := os.Link(src, full); err != nil {
		if errors.Is(err, os.ErrExist) {
			return err
		}
		if err := copyFile(src, full); err != nil {
			return err
		}
	}
	old.Live = nil // a link changes the file's status-change time
	w.keptRecord(p, key, old)
	return nil
}

// keptRecord records the file p, the spare site's and the live site's
// (old), as kept. A file the writer left as it was (the spare's file is
// the live one, isLive) keeps old.Live, the file as the build checked
// it, which the manifest's identity is then taken from (store.Output.
// WithLive) without looking the file up again after the swap: at the
// asv layout's M, a nightly build leaves about 11,700 of its 11,900
// files as they were.
func (w *Writer) keptRecord(p, key string, old FileRecord) {
	w.mu.Lock()
	w.manifest[p] = FileRecord{Key: key, Size: old.Size, Time: old.Time, Sum: old.Sum, Live: old.Live}
	w.mu.Unlock()
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
