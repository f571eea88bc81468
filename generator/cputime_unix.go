//go:build unix

package generator

import "syscall"

// cpuTime is the process's user and system CPU time in nanoseconds, 0
// when unknown: on a shared machine a stage's CPU time says more than
// its wall time.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
