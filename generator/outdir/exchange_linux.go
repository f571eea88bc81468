//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package outdir

import (
	"syscall"
	"unsafe"
)

// renameExchange is RENAME_EXCHANGE of renameat2(2): swap two paths
// atomically (Linux 3.15; ext4, xfs, btrfs, tmpfs, overlayfs…).
const renameExchange = 1 << 1

// atFDCWD is AT_FDCWD: paths relative to the current folder.
const atFDCWD = -100

// exchange swaps the paths a and b in one step. The file system may not
// support it (EINVAL); the caller then falls back to two renames.
func exchange(a, b string) error {
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	cwd := atFDCWD
	_, _, errno := syscall.Syscall6(sysRenameat2, uintptr(cwd), uintptr(unsafe.Pointer(pa)),
		uintptr(cwd), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
