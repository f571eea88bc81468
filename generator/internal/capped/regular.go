package capped

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular is returned (wrapped in an *fs.PathError) by [OpenRegular]
// and [ReadRegular] for anything but a regular file: a symbolic link, a
// named pipe, a device, a socket, a folder.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens name for reading only when it is a regular file
// itself: a symbolic link is not followed, and a named pipe or device is
// never opened in a way that could block (the open is non-blocking and
// the file checked again through the descriptor, so one swapped in after
// the check is refused too). The files perfpages keeps between builds
// are read through it: a FIFO put where a store file was must not hang a
// build, nor a link to /dev/zero fill its memory.
func OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	li, err := os.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !li.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, modeKind(li.Mode()))}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || !os.SameFile(li, fi) {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (it changed while being opened)", ErrNotRegular)}
	}
	return f, fi, nil
}

// ReadRegular reads the regular file name whole ([OpenRegular]), refusing
// it by its size before reading when it is over limit (limit ≤ 0:
// [Default]); a file that grows while it is read is cut off at limit+1
// bytes, as [Read] does.
func ReadRegular(name string, limit int64) ([]byte, error) {
	f, _, err := OpenRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := Read(f, limit)
	if err != nil {
		var tl *TooLargeError
		if !errors.As(err, &tl) {
			err = &fs.PathError{Op: "read", Path: name, Err: err}
		}
		return nil, err
	}
	return data, nil
}

func modeKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
