//go:build !unix

package generator

// cpuTime: not known here (see cputime_unix.go).
func cpuTime() int64 { return 0 }
