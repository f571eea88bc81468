//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fileid

import (
	"fmt"
	"io/fs"
	"syscall"
	"time"
)

// Identity is what the kernel keeps of a file besides its size, mode and
// modification time: its inode, device and status-change time (which no
// tool can set), and that time; ok is false when info has none of it.
func Identity(info fs.FileInfo) (id string, changed time.Time, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", time.Time{}, false
	}
	sec, nsec := ctime(st)
	changed = time.Unix(int64(sec), int64(nsec))
	return fmt.Sprintf("ino=%d dev=%d ctime=%d", st.Ino, st.Dev, changed.UnixNano()), changed, true
}
