package main

import (
	"testing"
	"testing/fstest"
)

func share(n int64) int64 { return int64(float64(n) * memoryShare) }

// TestMemoryLimit: the limit is a share of the smaller of the machine's
// memory and its control group's limit; none where neither is known.
func TestMemoryLimit(t *testing.T) {
	meminfo := &fstest.MapFile{Data: []byte("MemTotal:        7110244 kB\nMemFree:         5000000 kB\n")}
	for _, tt := range []struct {
		name  string
		files fstest.MapFS
		want  int64
	}{
		{"machine", fstest.MapFS{"proc/meminfo": meminfo}, share(7110244 << 10)},
		{"cgroup v2 below", fstest.MapFS{"proc/meminfo": meminfo, "sys/fs/cgroup/memory.max": {Data: []byte("2147483648\n")}}, share(2 << 30)},
		{"cgroup v2 none", fstest.MapFS{"proc/meminfo": meminfo, "sys/fs/cgroup/memory.max": {Data: []byte("max\n")}}, share(7110244 << 10)},
		{"cgroup v1 above", fstest.MapFS{"proc/meminfo": meminfo, "sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("9223372036854771712\n")}}, share(7110244 << 10)},
		{"cgroup alone", fstest.MapFS{"sys/fs/cgroup/memory.max": {Data: []byte("1073741824")}}, share(1 << 30)},
		{"cgroup v2 nested, limit on a parent", fstest.MapFS{"proc/meminfo": meminfo,
			"proc/self/cgroup":                                     {Data: []byte("0::/system.slice/runner.service\n")},
			"sys/fs/cgroup/memory.max":                             {Data: []byte("max\n")},
			"sys/fs/cgroup/system.slice/memory.max":                {Data: []byte("3221225472\n")},
			"sys/fs/cgroup/system.slice/runner.service/memory.max": {Data: []byte("max\n")},
		}, share(3 << 30)},
		{"cgroup v2 nested, the group's own", fstest.MapFS{"proc/meminfo": meminfo,
			"proc/self/cgroup":             {Data: []byte("0::/a/b\n")},
			"sys/fs/cgroup/a/b/memory.max": {Data: []byte("1073741824\n")},
		}, share(1 << 30)},
		{"cgroup v1 nested", fstest.MapFS{"proc/meminfo": meminfo,
			"proc/self/cgroup": {Data: []byte("5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n")},
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes":      {Data: []byte("2147483648\n")},
			"sys/fs/cgroup/cpu,cpuacct/docker/abc/memory.limit_in_bytes": {Data: []byte("1\n")},
		}, share(2 << 30)},
		{"cgroup path that climbs out", fstest.MapFS{"proc/meminfo": meminfo,
			"proc/self/cgroup":           {Data: []byte("0::/../../x\n")},
			"sys/fs/cgroup/x/memory.max": {Data: []byte("1073741824\n")},
		}, share(1 << 30)},
		{"nothing", fstest.MapFS{}, 0},
		{"garbage", fstest.MapFS{"proc/meminfo": {Data: []byte("MemTotal: lots\n")}, "sys/fs/cgroup/memory.max": {Data: []byte("-1")}}, 0},
	} {
		if got := memoryLimit(tt.files); got != tt.want {
			t.Errorf("%s: limit %d, want %d", tt.name, got, tt.want)
		}
	}
}
