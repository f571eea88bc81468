//go:build unix

package outdir

import (
	"errors"
	"os"
	"syscall"
)

// lock takes an exclusive flock on path, creating the file. The previous
// holder removes the file before it lets go, so a lock taken on a file
// that is no longer at path (or a new file there) is dropped and taken
// again on the current one.
func lock(path string) (func(), error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, ErrBusy
			}
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return func() {
				os.Remove(path)
				f.Close()
			}, nil
		}
		f.Close()
	}
}
