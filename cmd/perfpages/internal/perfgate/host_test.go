package perfgate

import (
	"runtime"
	"testing"
)

func TestMemTotal(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"MemTotal:       16314516 kB\nMemFree:  1 kB\n", 16314516 * 1024, true},
		{"MemFree: 1 kB\nMemTotal: 2048 kB\n", 2048 * 1024, true},
		{"MemTotal: 12345\n", 12345, true},
		{"MemTotal: lots kB\n", 0, false},
		{"MemFree: 1 kB\n", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := memTotal([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("memTotal(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRustNames(t *testing.T) {
	for goarch, want := range map[string]string{"amd64": "x86_64", "arm64": "aarch64", "386": "x86", "riscv64": "riscv64"} {
		if got := rustArch(goarch); got != want {
			t.Errorf("rustArch(%s) = %s, want %s", goarch, got, want)
		}
	}
	if rustOS("darwin") != "macos" || rustOS("linux") != "linux" || rustOS("windows") != "windows" {
		t.Error("rustOS")
	}
}

func TestProbeHost(t *testing.T) {
	h := probeHost()
	if h.OS != rustOS(runtime.GOOS) || h.Arch != rustArch(runtime.GOARCH) || h.CPUCount == nil || *h.CPUCount < 1 {
		t.Errorf("probeHost = %+v", h)
	}
	if h.HostnameHash != "" && len(h.HostnameHash) != 64 {
		t.Errorf("hostname hash %q is not a hex SHA-256", h.HostnameHash)
	}
	if runtime.GOOS == "linux" && h.MemoryBytes == nil {
		t.Error("no memory size on Linux")
	}
}
