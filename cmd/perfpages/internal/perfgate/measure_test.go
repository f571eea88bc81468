package perfgate

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/receipt"
)

func needShell(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on this system")
	}
}

var fixedClock = func() time.Time { return time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC) }

func fixedHost() receipt.Host { return receipt.Host{OS: "linux", Arch: "x86_64"} }

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestRunShape runs a real command and checks the receipt's shape; it
// never asserts timings.
func TestRunShape(t *testing.T) {
	needShell(t)
	out, err := Run(context.Background(), RunOptions{
		Name: "shell/true", Command: []string{"sh", "-c", "exit 0"}, Repeat: 3, Warmup: 1, WorkUnits: u64p(10),
		Timeout: time.Minute, Tool: receipt.Tool{Name: "perfpages", Version: "test"}, Now: fixedClock, Host: fixedHost,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Receipt
	if len(out.Failures) != 0 {
		t.Errorf("failures: %v", out.Failures)
	}
	if !uuidV4.MatchString(r.Run.ID) {
		t.Errorf("run id %q is not a v4 UUID", r.Run.ID)
	}
	wantMeta := receipt.RunMeta{ID: r.Run.ID, StartedAt: "2026-11-20T03:00:00Z", EndedAt: "2026-11-20T03:00:00Z", Host: fixedHost()}
	if diff := cmp.Diff(wantMeta, r.Run); diff != "" {
		t.Errorf("run (-want +got):\n%s", diff)
	}
	wantBench := receipt.Bench{Name: "shell/true", Command: []string{"sh", "-c", "exit 0"}, Repeat: 3, Warmup: 1, WorkUnits: u64p(10), TimeoutMs: u64p(60000)}
	if diff := cmp.Diff(wantBench, r.Bench); diff != "" {
		t.Errorf("bench (-want +got):\n%s", diff)
	}
	if r.Schema != receipt.RunSchema || r.Tool.Name != "perfpages" || len(r.Samples) != 4 {
		t.Fatalf("receipt = %+v", r)
	}
	for i, s := range r.Samples {
		if s.Warmup != (i == 0) || s.ExitCode != 0 || s.TimedOut || s.CPUMs == nil || s.Stdout != nil || s.Stderr != nil {
			t.Errorf("sample %d = %+v", i, s)
		}
		if runtime.GOOS == "linux" && (s.MaxRSSKB == nil || *s.MaxRSSKB == 0) {
			t.Errorf("sample %d has no max RSS", i)
		}
	}
	if r.Stats.ThroughputPerS == nil || r.Stats.CPUMs == nil || r.Stats.WallMs.Mean == nil {
		t.Errorf("stats = %+v", r.Stats)
	}
	measured := r.Samples[1:]
	want, _ := receipt.ComputeStats(measured, r.Bench.WorkUnits)
	if diff := cmp.Diff(want, r.Stats); diff != "" {
		t.Errorf("stats are not those of the measured samples (-want +got):\n%s", diff)
	}
	// The receipt reads back.
	data, _ := marshal(r)
	if _, err := receipt.ReadRun("r.json", data); err != nil {
		t.Error(err)
	}
}

func TestRunSleep(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	out, err := Run(context.Background(), RunOptions{Name: "sleep", Command: []string{"sleep", "0.01"}, Repeat: 2, Now: fixedClock, Host: fixedHost})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Receipt.Samples) != 2 || len(out.Failures) != 0 || out.Receipt.Bench.TimeoutMs != nil {
		t.Errorf("outcome = %+v", out)
	}
}

// TestRunFailingCommand: a non-zero exit is recorded, with the output; a
// failing warm-up is recorded but not listed.
func TestRunFailingCommand(t *testing.T) {
	needShell(t)
	out, err := Run(context.Background(), RunOptions{
		Name: "fails", Command: []string{"sh", "-c", "echo out; echo err >&2; exit 3"}, Repeat: 2, Warmup: 1, Now: fixedClock, Host: fixedHost,
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"iteration 2 exit code 3", "iteration 3 exit code 3"}, out.Failures); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	for _, s := range out.Receipt.Samples {
		if s.ExitCode != 3 || s.Stdout == nil || *s.Stdout != "out\n" || s.Stderr == nil || *s.Stderr != "err\n" {
			t.Errorf("sample = %+v", s)
		}
	}
}

// TestRunTimeout: a sample that runs out of time is killed with its whole
// process group (the shell's background child too) and recorded as timed
// out; the run goes on.
func TestRunTimeout(t *testing.T) {
	needShell(t)
	if runtime.GOOS != "linux" {
		t.Skip("checks /proc")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	out, err := Run(context.Background(), RunOptions{
		Name:    "hangs",
		Command: []string{"sh", "-c", `sleep 30 & echo $! > "$0"; wait`, pidFile},
		Repeat:  1, Timeout: 200 * time.Millisecond, Now: fixedClock, Host: fixedHost,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := out.Receipt.Samples[0]
	if !s.TimedOut || s.ExitCode != -1 || out.Receipt.Bench.TimeoutMs == nil || *out.Receipt.Bench.TimeoutMs != 200 {
		t.Errorf("sample = %+v", s)
	}
	if diff := cmp.Diff([]string{"iteration 1 timed out"}, out.Failures); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	waitGone(t, readPid(t, pidFile))
}

// TestRunKillsLeftovers: a sample that exits normally but leaves a child
// running in the background does not leave it behind, and the sample ends
// without waiting for the child's hold on its stdout.
func TestRunKillsLeftovers(t *testing.T) {
	needShell(t)
	if runtime.GOOS != "linux" {
		t.Skip("checks /proc")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	out, err := Run(context.Background(), RunOptions{
		Name:    "leaves-a-child",
		Command: []string{"sh", "-c", `sleep 300 & echo $! > "$0"; echo done`, pidFile},
		Repeat:  1, Now: fixedClock, Host: fixedHost,
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := out.Receipt.Samples[0]; s.ExitCode != 0 || s.TimedOut || s.Stdout == nil || *s.Stdout != "done\n" || len(out.Failures) != 0 {
		t.Errorf("sample = %+v, failures %v", s, out.Failures)
	}
	waitGone(t, readPid(t, pidFile))
}

// TestRunCancelled: cancelling the context mid-sample kills the sample's
// process group and fails the run with the cause.
func TestRunCancelled(t *testing.T) {
	needShell(t)
	if runtime.GOOS != "linux" {
		t.Skip("checks /proc")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() {
		_, err := Run(ctx, RunOptions{
			Name:    "cancelled",
			Command: []string{"sh", "-c", `sleep 300 & echo $! > "$0.tmp"; mv "$0.tmp" "$0"; wait`, pidFile},
			Repeat:  3, Now: fixedClock, Host: fixedHost,
		})
		done <- err
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(pidFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sample did not start")
		}
	}
	cancel(errors.New("test cancels"))
	err := <-done
	if want := "iteration 1 of 3 interrupted: test cancels (everything the command started was killed)"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	waitGone(t, readPid(t, pidFile))
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitGone waits (up to a generous 30 s) until process pid is gone or a
// zombie waiting for a reaper.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
	}
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
	t.Errorf("process %d started by a sample is still running", pid)
}

func TestRunOutputCap(t *testing.T) {
	needShell(t)
	out, err := Run(context.Background(), RunOptions{
		Name: "chatty", Command: []string{"sh", "-c", `printf 0123456789; printf '\377abc' >&2`}, Repeat: 1, OutputCap: 5, Now: fixedClock, Host: fixedHost,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := out.Receipt.Samples[0]
	if *s.Stdout != "01234" || *s.Stderr != "\uFFFDabc" {
		t.Errorf("stdout %q stderr %q", *s.Stdout, *s.Stderr)
	}
}

// TestRunCwd: the command runs in Cwd, and a relative command path is
// resolved there.
func TestRunCwd(t *testing.T) {
	needShell(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bench.sh"), []byte("#!/bin/sh\npwd\n"), 0o755)
	out, err := Run(context.Background(), RunOptions{Name: "cwd", Command: []string{"./bench.sh"}, Cwd: dir, Repeat: 1, Now: fixedClock, Host: fixedHost})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := filepath.EvalSymlinks(strings.TrimSpace(*out.Receipt.Samples[0].Stdout))
	want, _ := filepath.EvalSymlinks(dir)
	if got != want || out.Receipt.Bench.Cwd != dir {
		t.Errorf("ran in %q (bench.cwd %q), want %q", got, out.Receipt.Bench.Cwd, want)
	}
}

func TestRunErrors(t *testing.T) {
	needShell(t)
	ok := RunOptions{Name: "x", Command: []string{"sh", "-c", "exit 0"}, Repeat: 1, Now: fixedClock, Host: fixedHost}
	tests := []struct {
		name string
		edit func(*RunOptions)
		want string
	}{
		{"bad name", func(o *RunOptions) { o.Name = "Has Space" }, `bench name "Has Space" contains invalid characters`},
		{"no command", func(o *RunOptions) { o.Command = nil }, "no command to run"},
		{"zero repeat", func(o *RunOptions) { o.Repeat = 0 }, "repeat 0: want at least 1"},
		{"negative warmup", func(o *RunOptions) { o.Warmup = -1 }, "warmup -1"},
		{"not found", func(o *RunOptions) { o.Command = []string{"perfpages-no-such-command"} }, `"perfpages-no-such-command": executable file not found`},
		{"not executable", func(o *RunOptions) { o.Command = []string{"/etc/hostname-does-not-exist/x"} }, "iteration 1: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ok
			tt.edit(&o)
			_, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, ok); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestValidateBenchName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"my-bench", true},
		{"bench_v2", true},
		{"path/to/bench", true},
		{"bench.v1", true},
		{"", false},
		{"MyBench", false},
		{"has space", false},
		{"a|b", false},
		{"a@b", false},
		{"../bench", false},
		{"a/./b", false},
		{"bench/", false},
		{"/bench", false},
		{"a//b", false},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
	}
	for _, tt := range tests {
		if err := validateBenchName(tt.name); (err == nil) != tt.ok {
			t.Errorf("validateBenchName(%q) = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

// The output cap has a ceiling: a receipt must stay readable by check.
// Over it, Run refuses before anything runs.
func TestRunOutputCapCeiling(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	for _, n := range []int{-1, maxOutputCap + 1, 1 << 40} {
		_, err := Run(context.Background(), RunOptions{Name: "x", Command: []string{"touch", marker}, Repeat: 1, OutputCap: n, Now: fixedClock, Host: fixedHost})
		if err == nil || !strings.Contains(err.Error(), "want 1 to 1048576 (1 MiB)") {
			t.Errorf("OutputCap %d: %v, want the ceiling named", n, err)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran")
	}
	if err := CheckOutputCap(maxOutputCap); err != nil {
		t.Errorf("the ceiling itself: %v", err)
	}
}
