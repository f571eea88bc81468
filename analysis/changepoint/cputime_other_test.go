//go:build !unix

package changepoint

// cpuTime is not measured here: benchmarks report 0 CPU time.
func cpuTime() int64 { return 0 }
