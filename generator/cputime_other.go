//go:build !unix

package generator

// cpuTime is unknown here (see cputime_unix.go).
func cpuTime() int64 { return 0 }
