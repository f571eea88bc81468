//go:build unix

package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestRunLeavesNoProcess runs the built perfpages binary and checks that
// nothing a sample started survives it: a background child of a sample
// that ends normally, the process group of a timed-out sample, and the
// running sample when perfpages gets SIGTERM or SIGINT. The processes are
// found with pgrep -f on a marker argument unique to the test (sleep
// 300.<random>); the only timings are generous deadlines.
func TestRunLeavesNoProcess(t *testing.T) {
	needSh(t)
	for _, tool := range []string{"pgrep", "sleep"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "perfpages")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	tests := []struct {
		name     string
		args     []string // before "--"; marker replaces M in script
		script   string
		signal   syscall.Signal // sent once the marker runs; 0: none
		wantCode int
		wantErr  string
	}{
		{name: "background child of a finished sample", args: []string{"-repeat", "2"}, script: "sleep M & echo started", wantCode: 0},
		{name: "timeout", args: []string{"-timeout", "300ms"}, script: "sleep M & sleep M", wantCode: 1, wantErr: "iteration 1 timed out"},
		{name: "SIGTERM", script: "sleep M & sleep M", signal: syscall.SIGTERM, wantCode: 1,
			wantErr: "perfpages: run: iteration 1 of 1 interrupted: terminated signal received (everything the command started was killed); no receipt written"},
		{name: "SIGINT", script: "sleep M & sleep M", signal: syscall.SIGINT, wantCode: 1,
			wantErr: "perfpages: run: iteration 1 of 1 interrupted: interrupt signal received (everything the command started was killed); no receipt written"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			marker := newMarker(t)
			t.Cleanup(func() { killMarked(marker) })
			dir := t.TempDir()
			args := append([]string{"run", "-name", "x", "-repeat", "1", "-out", filepath.Join(dir, "r.json")}, tt.args...)
			args = append(args, "--", "sh", "-c", strings.ReplaceAll(tt.script, "M", marker))
			cmd := exec.Command(bin, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if tt.signal != 0 {
				waitFor(t, "the sample to start", func() bool { return len(marked(marker)) > 0 })
				cmd.Process.Signal(tt.signal)
			}
			err := cmd.Wait()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.wantCode || !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("exit status %d, stderr %q; want %d, %q", code, stderr.String(), tt.wantCode, tt.wantErr)
			}
			if _, err := os.Stat(filepath.Join(dir, "r.json")); (err == nil) != (tt.signal == 0) {
				t.Errorf("receipt written: %v, want %v", err == nil, tt.signal == 0)
			}
			waitFor(t, "no process of the sample to be left", func() bool { return len(marked(marker)) == 0 })
		})
	}
}

// newMarker is a sleep duration no other process uses: 300.<random>.
func newMarker(t *testing.T) string {
	n, err := rand.Int(rand.Reader, big.NewInt(1e12))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("300.%012d", n)
}

// marked lists the pids of the sample's processes: those whose command
// line starts with "sleep <marker>" or "sh -c sleep <marker>" (perfpages'
// own command line has the marker too, further in).
func marked(marker string) []int {
	out, _ := exec.Command("pgrep", "-f", `^(sh -c )?sleep `+strings.ReplaceAll(marker, ".", `\.`)).Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killMarked kills, by pid, what a failed test left behind.
func killMarked(marker string) {
	for _, pid := range marked(marker) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
