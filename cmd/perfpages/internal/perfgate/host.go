package perfgate

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/generator/receipt"
)

// probeHost describes this machine: operating system and architecture in
// perfgate's (Rust's) spelling, so that receipts from perfgate and from
// perfpages compare without a spurious host mismatch; the number of
// logical CPUs; total memory from /proc/meminfo when the system has it;
// and the SHA-256 of the host name.
func probeHost() receipt.Host {
	h := receipt.Host{OS: rustOS(runtime.GOOS), Arch: rustArch(runtime.GOARCH)}
	n := uint32(runtime.NumCPU())
	h.CPUCount = &n
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		if m, ok := memTotal(data); ok {
			h.MemoryBytes = &m
		}
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		sum := sha256.Sum256([]byte(name))
		h.HostnameHash = hex.EncodeToString(sum[:])
	}
	return h
}

// memTotal reads the MemTotal line of /proc/meminfo ("MemTotal: 16314516
// kB") in bytes.
func memTotal(meminfo []byte) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		if len(f) > 1 && strings.EqualFold(f[1], "kB") {
			if v > math.MaxUint64/1024 {
				return 0, false
			}
			v *= 1024
		}
		return v, true
	}
	return 0, false
}

// rustOS is Rust's std::env::consts::OS for a GOOS.
func rustOS(goos string) string {
	if goos == "darwin" {
		return "macos"
	}
	return goos
}

// rustArch is Rust's std::env::consts::ARCH for a GOARCH.
func rustArch(goarch string) string {
	switch goarch {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	case "386":
		return "x86"
	case "ppc64":
		return "powerpc64"
	case "ppc64le":
		return "powerpc64"
	case "loong64":
		return "loongarch64"
	case "mips64le":
		return "mips64"
	case "mipsle":
		return "mips"
	}
	return goarch
}

// hostMismatch lists how two hosts differ enough to make a comparison of
// their timings doubtful (perfgate's rules): another OS or architecture,
// or a CPU count or memory size more than twice or less than half the
// other. Host names are not compared: hosted CI runners get a new name
// for every job, so a differing hostname_hash alone would flag every
// comparison.
func hostMismatch(base, cur receipt.Host) []string {
	var reasons []string
	if base.OS != cur.OS {
		reasons = append(reasons, fmt.Sprintf("OS mismatch: baseline=%s, current=%s", base.OS, cur.OS))
	}
	if base.Arch != cur.Arch {
		reasons = append(reasons, fmt.Sprintf("architecture mismatch: baseline=%s, current=%s", base.Arch, cur.Arch))
	}
	if base.CPUCount != nil && cur.CPUCount != nil {
		if r := ratio(float64(*base.CPUCount), float64(*cur.CPUCount)); r > 2 {
			reasons = append(reasons, fmt.Sprintf("CPU count differs significantly: baseline=%d, current=%d (%.1fx)", *base.CPUCount, *cur.CPUCount, r))
		}
	}
	if base.MemoryBytes != nil && cur.MemoryBytes != nil {
		if r := ratio(float64(*base.MemoryBytes), float64(*cur.MemoryBytes)); r > 2 {
			const gb = 1 << 30
			reasons = append(reasons, fmt.Sprintf("memory differs significantly: baseline=%.1fGB, current=%.1fGB (%.1fx)",
				float64(*base.MemoryBytes)/gb, float64(*cur.MemoryBytes)/gb, r))
		}
	}
	return reasons
}

// ratio is max(a/b, b/a), or 1 when either is not positive.
func ratio(a, b float64) float64 {
	if a <= 0 || b <= 0 {
		return 1
	}
	return max(a/b, b/a)
}
