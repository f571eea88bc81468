//go:build unix

package perfgate

import (
	"os"
	"runtime"
	"syscall"
)

// procAttr starts the command in a process group of its own, so that a
// timeout, an interrupt or the end of the sample can kill everything it
// started, not only the direct child. A descendant that moves to another
// group or session (setsid, a daemon) is out of reach.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the running command's process group, and the process
// itself in case it left the group. It must not be called once the
// command has been reaped (its pid could be reused).
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
	p.Kill()
}

// killLeftovers kills the rest of the process group whose leader pid has
// exited (see waitSample); a group with no member left is not an error.
func killLeftovers(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }

// maxRSSKB is the peak resident set size of the command (and of the
// descendants it waited for) in KB, from wait4's rusage. macOS reports
// bytes, the other systems KB.
func maxRSSKB(state *os.ProcessState) *uint64 {
	ru, ok := state.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil || ru.Maxrss <= 0 {
		return nil
	}
	kb := uint64(ru.Maxrss)
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		kb /= 1024
	}
	return &kb
}
