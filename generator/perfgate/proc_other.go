//go:build !unix

package perfgate

import (
	"os"
	"syscall"
)

// procAttr: without process groups the command runs as a plain child.
func procAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the command; its own children are not reachable here.
func killGroup(p *os.Process) { p.Kill() }

// maxRSSKB is unknown where rusage is not available.
func maxRSSKB(*os.ProcessState) *uint64 { return nil }
