//go:build unix

package generator

import "syscall"

// cpuTime is the process's user and system CPU time so far, in
// nanoseconds (build -timings prints it per stage: on a shared machine it
// says more than the wall clock); 0 where it is not known.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
