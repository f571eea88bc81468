//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package write

import (
	"io/fs"
	"syscall"
)

// fileIdent is what the spare site keeps of each of its files to tell
// whether it is the live site's file itself (os.SameFile's test): its
// device and inode, 16 bytes, where the fs.FileInfo of its Lstat held
// over 200 until the build's end (at L, 63,000 of them: 23 MB of an L
// nightly build's heap). Inode 0 is no file's: the zero fileIdent is an
// unknown identity.
type fileIdent struct{ dev, ino uint64 }

func identOf(fi fs.FileInfo) fileIdent {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileIdent{}
	}
	return fileIdent{uint64(st.Dev), uint64(st.Ino)}
}

// same reports whether fi is the file id was taken of (false when
// either's identity is unknown).
func (id fileIdent) same(fi fs.FileInfo) bool {
	return id.ino != 0 && id == identOf(fi)
}
