//go:build linux && (arm64 || riscv64 || loong64)

package outdir

import "syscall"

const sysRenameat2 = syscall.SYS_RENAMEAT2
