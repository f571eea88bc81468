//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package write

import (
	"io/fs"
	"os"
)

// fileIdent is what the spare site keeps of each of its files to tell
// whether it is the live site's file itself: without a device and inode
// at hand, its fs.FileInfo, which os.SameFile compares.
type fileIdent struct{ fi fs.FileInfo }

func identOf(fi fs.FileInfo) fileIdent { return fileIdent{fi} }

// same reports whether fi is the file id was taken of.
func (id fileIdent) same(fi fs.FileInfo) bool { return os.SameFile(id.fi, fi) }
