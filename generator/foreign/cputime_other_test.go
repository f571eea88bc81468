//go:build !unix

package foreign

import "time"

// cpuTime is unknown here: the benchmarks report wall-time throughput alone.
func cpuTime() time.Duration { return 0 }
