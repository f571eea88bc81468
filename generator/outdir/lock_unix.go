//go:build unix

package outdir

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// lock takes an exclusive flock on path, creating the file. The previous
// holder removes the file before it lets go, so a lock taken on a file
// that is no longer at path (or a new file there) is dropped and taken
// again on the current one.
//
// The lock file is ours only when it is a regular file (never a link:
// opening one is refused, so a link cannot make us create or truncate
// its target) that is empty or says it is a perfpages lock; anything
// else at the path is refused and left alone.
func lock(path string) (func(), error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link, not a lock file perfpages made; remove it", path)
		}
		if err != nil {
			return nil, err
		}
		held, err := f.Stat()
		if err != nil || !held.Mode().IsRegular() {
			f.Close()
			return nil, fmt.Errorf("%s is not a regular file, so not a lock file perfpages made; remove it", path)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, ErrBusy
			}
			return nil, err
		}
		now, err := os.Lstat(path)
		if err != nil || !os.SameFile(held, now) {
			f.Close()
			continue
		}
		content, err := io.ReadAll(io.LimitReader(f, int64(len(lockContent))+1))
		if err != nil || len(content) > 0 && !bytes.Equal(content, lockContent) {
			f.Close()
			return nil, fmt.Errorf("%s is not a lock file perfpages made (it has other content); remove it or choose another output folder", path)
		}
		if len(content) == 0 {
			f.Write(lockContent)
		}
		return func() {
			if now, err := os.Lstat(path); err == nil && os.SameFile(held, now) {
				os.Remove(path)
			}
			f.Close()
		}, nil
	}
}
