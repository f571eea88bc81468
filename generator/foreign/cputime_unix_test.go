//go:build unix

package foreign

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used: a
// benchmark's throughput per CPU-second does not depend on what else the
// machine runs, as its wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
