package perfgate

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// waitSample waits for the command to exit, kills what is left of its
// process group (children it started in the background and did not wait
// for) and reaps it; exitedAt is when the command exited.
//
// It first waits with waitid(WNOWAIT), which leaves the exited command a
// zombie: while the zombie exists its pid, which is also the group's id,
// cannot be reused, so the group kill can only reach the command's own
// group. Only then does os.Process.Wait reap it.
func waitSample(p *os.Process) (state *os.ProcessState, exitedAt time.Time, err error) {
	if waitNoReap(p.Pid) == nil {
		exitedAt = time.Now()
		killLeftovers(p.Pid)
		state, err = p.Wait()
		return state, exitedAt, err
	}
	// waitid is unavailable (seccomp, an old kernel): reap, then kill the
	// group, which is still safe while any member is left (a group id is
	// not reused while the group exists).
	state, err = p.Wait()
	exitedAt = time.Now()
	killLeftovers(p.Pid)
	return state, exitedAt, err
}

// waitNoReap blocks until the process pid has exited, without reaping it.
func waitNoReap(pid int) error {
	const pPID = 1     // P_PID
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return errno
		}
		return nil
	}
}
