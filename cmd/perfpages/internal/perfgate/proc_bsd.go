//go:build unix && !linux

package perfgate

import (
	"os"
	"time"
)

// waitSample waits for the command to exit, reaps it, then kills what is
// left of its process group (children it started in the background and
// did not wait for); exitedAt is when the command exited. The group id
// cannot be reused while any member is left; once the group is empty the
// kill finds nothing (or, if the pid was recycled in the meantime as a new
// group's leader, that group: a race of microseconds that Linux's
// waitid(WNOWAIT) closes, see proc_linux.go).
func waitSample(p *os.Process) (state *os.ProcessState, exitedAt time.Time, err error) {
	state, err = p.Wait()
	exitedAt = time.Now()
	killLeftovers(p.Pid)
	return state, exitedAt, err
}
