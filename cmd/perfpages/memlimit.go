package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"strconv"
	"strings"
)

// The memory limit. A build holds its whole dataset while it writes the
// site (docs/internals.md, "Builds that scale"), and with GOGC 50 its peak
// is about one and a half times what it holds: at L a nightly build holds
// about 6 GB and peaks at 7.7 GB, more than a private repository's GitHub
// runner has (7 GB). Go's soft memory limit makes the collector work
// harder as the heap nears it instead: at L under GOMEMLIMIT=6GiB the
// nightly peaked at 6.3 GB for 12 % more CPU. So unless GOMEMLIMIT is set,
// the limit is memoryShare of the memory the machine or its control group
// gives the process; where the dataset holds more than that, the build is
// slower but is not killed (the runtime caps the collector's share of the
// CPU), and where it holds less (every build on a machine as large as the
// data) nothing changes.

// memoryShare is the share of the memory available that the limit is:
// the rest is for the system, the runner and the file cache.
const memoryShare = 0.85

// memoryLimit is the limit for a machine whose files are sys (the root of
// /proc and /sys): memoryShare of the smaller of its memory (MemTotal of
// /proc/meminfo) and its control group's limit (cgroup v2 memory.max, or
// v1 memory.limit_in_bytes), 0 when it knows neither.
func memoryLimit(sys fs.FS) int64 {
	total := memTotal(sys)
	for _, name := range []string{"sys/fs/cgroup/memory.max", "sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := fs.ReadFile(sys, name)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || n <= 0 {
			continue // "max": none
		}
		if total == 0 || n < total {
			total = n
		}
	}
	return int64(float64(total) * memoryShare)
}

// memTotal is MemTotal of /proc/meminfo in bytes, 0 when it cannot tell.
func memTotal(sys fs.FS) int64 {
	b, err := fs.ReadFile(sys, "proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil && n > 0 {
				return n << 10
			}
		}
	}
	return 0
}
