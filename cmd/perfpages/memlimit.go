package main

import (
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// The memory limit. A build holds its whole dataset while it writes the
// site (docs/internals.md, "Builds that scale"), and with GOGC 50 (40
// since 2026-11-28, main.go) its peak was about one and a half times what
// it holds: at L a nightly build held
// about 6 GB and peaked at 7.7 GB on 2b548a6 (about 3 and 4.3 GB on
// da4abfa), a cold one peaks at 8.2 GB, more than a private repository's
// GitHub runner has (7 GB). Go's soft memory limit makes the collector
// work harder as the heap nears it instead: at L under GOMEMLIMIT=6GiB
// the 2b548a6 nightly peaked at 6.3 GB for 12 % more CPU. So unless
// GOMEMLIMIT is set, the limit is memoryShare of the memory the machine
// or its control group gives the process; where the dataset holds more
// than that, the build is slower but is not killed (the runtime caps the
// collector's share of the CPU), and where it holds less (every build on
// a machine as large as the data) nothing changes.

// memoryShare is the share of the memory available that the limit is:
// the rest is for the system, the runner and the file cache.
const memoryShare = 0.85

// memoryLimit is the limit for a machine whose files are sys (the root of
// /proc and /sys): memoryShare of the smallest of its memory (MemTotal of
// /proc/meminfo) and the limits of its control groups (cgroup v2
// memory.max, or v1 memory.limit_in_bytes), 0 when it knows none.
func memoryLimit(sys fs.FS) int64 {
	total := memTotal(sys)
	for _, name := range cgroupLimitFiles(sys) {
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

// cgroupLimitFiles are the files that may hold a memory limit of the
// process: those at the top of the cgroup file system (what a container
// with its own cgroup namespace sees as its group), and those of the
// groups /proc/self/cgroup names and of each group above them up to the
// top (a systemd unit's MemoryMax=, a container without its own
// namespace, a limit set on a parent slice).
func cgroupLimitFiles(sys fs.FS) []string {
	names := []string{"sys/fs/cgroup/memory.max", "sys/fs/cgroup/memory/memory.limit_in_bytes"}
	b, err := fs.ReadFile(sys, "proc/self/cgroup")
	if err != nil {
		return names
	}
	for line := range strings.Lines(string(b)) {
		// hierarchy-ID:controllers:path; v2's controllers are empty.
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		var base, file string
		switch {
		case f[1] == "":
			base, file = "sys/fs/cgroup", "memory.max"
		case slices.Contains(strings.Split(f[1], ","), "memory"):
			base, file = "sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for dir, depth := path.Clean("/"+f[2]), 0; dir != "/" && depth < 64; dir, depth = path.Dir(dir), depth+1 {
			names = append(names, path.Join(base, dir, file))
		}
	}
	return names
}

// memTotal is MemTotal of /proc/meminfo in bytes, 0 when it cannot tell.
func memTotal(sys fs.FS) int64 {
	b, err := fs.ReadFile(sys, "proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil && n > 0 {
				return n << 10
			}
		}
	}
	return 0
}
