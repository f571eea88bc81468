package capped

import (
	"io/fs"
	"os"
)

// OpenRegular opens name for reading only when it is a regular file (or,
// with followLinks, a symbolic link to one): anything else — a named
// pipe, whose open would block until a writer comes; /dev/zero or
// /dev/urandom, which never end; a socket, a folder — is a
// [NotRegularError] inside an *fs.PathError, and is never opened. The
// path is looked at before it is opened (opening some devices acts on
// them), and the open file again, opened non-blocking (and, without
// followLinks, not following a link), so that a file swapped for a pipe
// or a link in between cannot hang the caller or lead it elsewhere.
//
// Inputs the user names (a receipt, a result file) may be links; the
// files perfpages keeps between builds (its store) never are: a link
// there was put by someone else.
func OpenRegular(name string, followLinks bool) (*os.File, fs.FileInfo, error) {
	notRegular := func(m fs.FileMode, link bool) error {
		return &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{Mode: m, Link: link}}
	}
	li, err := os.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	link := li.Mode()&fs.ModeSymlink != 0
	st := li
	switch {
	case link && !followLinks:
		return nil, nil, notRegular(li.Mode(), false)
	case link:
		if st, err = os.Stat(name); err != nil {
			return nil, nil, err
		}
	}
	if !st.Mode().IsRegular() {
		return nil, nil, notRegular(st.Mode(), link)
	}
	flags := os.O_RDONLY | openNonBlocking
	if !followLinks {
		flags |= openNoFollow
	}
	f, err := os.OpenFile(name, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	got, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !got.Mode().IsRegular() || !os.SameFile(st, got) {
		f.Close()
		return nil, nil, notRegular(got.Mode(), link)
	}
	return f, got, nil
}

// ReadRegular is [ReadFile] for a path that must be a regular file, or a
// symbolic link to one ([OpenRegular]). Reading never blocks and stops at
// limit+1 bytes (limit ≤ 0: [Default]) whatever the size on disk says.
func ReadRegular(name string, limit int64) ([]byte, error) {
	return readOpen(name, limit, true)
}

// ReadOwn is [ReadRegular] for a file perfpages wrote and keeps (its
// store): a symbolic link is not followed but refused.
func ReadOwn(name string, limit int64) ([]byte, error) {
	return readOpen(name, limit, false)
}

func readOpen(name string, limit int64, followLinks bool) ([]byte, error) {
	f, _, err := OpenRegular(name, followLinks)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readNamed(f, name, limit)
}
