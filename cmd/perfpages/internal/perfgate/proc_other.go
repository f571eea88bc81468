//go:build !unix

package perfgate

import (
	"os"
	"syscall"
	"time"
)

// procAttr: without process groups the command runs as a plain child.
func procAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the command; its own children are not reachable here.
func killGroup(p *os.Process) { p.Kill() }

// waitSample waits for the command; children it left behind are not
// reachable without process groups.
func waitSample(p *os.Process) (*os.ProcessState, time.Time, error) {
	state, err := p.Wait()
	return state, time.Now(), err
}

// maxRSSKB is unknown where rusage is not available.
func maxRSSKB(*os.ProcessState) *uint64 { return nil }
