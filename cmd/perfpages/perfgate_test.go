package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/cmd/perfpages/internal/perfgate"
	"github.com/perfpages/perfpages/generator/receipt"
)

// perfgateCLI runs the command line in testdata/perfgate, where the
// fixture receipts are, and returns the exit status main would use.
func perfgateCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(filepath.Join(testdataDir, "perfgate"))
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), exitCode(err)
}

// TestCheckFixtures is perfgate's CLI fixtures
// (crates/perfgate-cli/tests/fixtures/*.json) with their exit codes.
func TestCheckFixtures(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantHeader string
		wantStderr string
	}{
		{"pass", []string{"-current", "current_pass.json"}, 0, "✅ perfgate: pass", ""},
		{"warn", []string{"-current", "current_warn.json"}, 0, "⚠️ perfgate: warn", ""},
		{"warn with -fail-on-warn", []string{"-current", "current_warn.json", "-fail-on-warn"}, 3, "⚠️ perfgate: warn",
			"perfpages: check: budget verdict warn with -fail-on-warn (wall_ms_warn)\n"},
		{"fail", []string{"-current", "current_fail.json"}, 2, "❌ perfgate: fail",
			"perfpages: check: budget verdict fail (max_rss_kb_fail, wall_ms_fail)\n"},
		{"fail under 0.60 budgets", []string{"-current", "current_fail.json", "-config", "budgets-060.toml"}, 0, "✅ perfgate: pass", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"check", "-baseline", "baseline.json", "-out-dir", out}, tt.args...)
			stdout, stderr, code := perfgateCLI(t, args...)
			if code != tt.wantCode {
				t.Errorf("exit status %d, want %d\nstderr: %s", code, tt.wantCode, stderr)
			}
			if !strings.HasPrefix(stdout, tt.wantHeader+"\n") {
				t.Errorf("stdout = %q, want the %q comment", stdout, tt.wantHeader)
			}
			if stderr != tt.wantStderr {
				t.Errorf("stderr = %q, want %q", stderr, tt.wantStderr)
			}
			comment, err := os.ReadFile(filepath.Join(out, "comment.md"))
			if err != nil || string(comment) != stdout {
				t.Errorf("comment.md differs from stdout (%v)", err)
			}
			for _, f := range []string{"compare.json", "report.json"} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestCheckGolden pins what check writes for the warn fixture: the
// comment (stdout), compare.json and report.json.
func TestCheckGolden(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, code := perfgateCLI(t, "check", "-baseline", "baseline.json", "-current", "current_warn.json", "-out-dir", out)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	golden(t, "perfgate/check-warn-comment.md", stdout)
	for _, f := range []string{"compare.json", "report.json"} {
		data, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "perfgate/check-warn-"+f, string(data))
	}
}

// TestCheckReportSnapshot is perfgate's report_warn snapshot through the
// command: wall_ms 1000 → 1190 under the default budget is a warn with one
// perf.budget finding. check words it as perfgate's check does
// (regression × 100); the report command's wording is pinned in
// cmd/perfpages/internal/perfgate.
func TestCheckReportSnapshot(t *testing.T) {
	out := t.TempDir()
	_, stderr, code := perfgateCLI(t, "check", "-baseline", "report_baseline.json", "-current", "report_current.json", "-out-dir", out)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "perfgate/report-warn.json", string(data))
	var r perfgate.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	want := []perfgate.Finding{{
		CheckID: "perf.budget", Code: "metric_warn", Severity: "warn",
		Message: "wall_ms regression: 19.00% (change: +19.00%, threshold: 20.0%)",
		Data:    &perfgate.FindingData{MetricName: "wall_ms", Baseline: 1000, Current: 1190, RegressionPct: 19, Threshold: 0.2, Direction: "lower"},
	}}
	if diff := cmp.Diff(want, r.Findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if r.Summary != (perfgate.Summary{WarnCount: 1, TotalCount: 1}) || r.Verdict.Reasons[0] != "wall_ms_warn" {
		t.Errorf("summary %+v verdict %+v", r.Summary, r.Verdict)
	}
}

func TestCheckNoBaseline(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, code := perfgateCLI(t, "check", "-baseline", "missing.json", "-current", "current_warn.json", "-out-dir", out)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	if want := "perfpages: warning: no baseline found for bench 'fixture-bench' at missing.json, skipping comparison\n"; stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
	golden(t, "perfgate/check-no-baseline-comment.md", stdout)
	report, _ := os.ReadFile(filepath.Join(out, "report.json"))
	golden(t, "perfgate/report-no-baseline.json", string(report))
	if _, err := os.Stat(filepath.Join(out, "compare.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("compare.json written without a baseline: %v", err)
	}

	// The default baseline is baselines/<bench>.json, here missing too.
	_, stderr, code = perfgateCLI(t, "check", "-current", "current_warn.json", "-out-dir", out, "-require-baseline")
	if want := "perfpages: " + filepath.Join("baselines", "fixture-bench.json") + ": no baseline for bench 'fixture-bench' (-require-baseline)\n"; code != 1 || stderr != want {
		t.Errorf("-require-baseline: exit %d, stderr %q, want 1, %q", code, stderr, want)
	}
}

// TestCheckArchives: perfpages archives as inputs, result by result.
func TestCheckArchives(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, code := perfgateCLI(t, "check", "-baseline", "archive-base.json", "-current", "archive-head.json", "-out-dir", out)
	if code != 2 {
		t.Fatalf("exit status %d, want 2 (throughput fails): %s", code, stderr)
	}
	if want := "perfpages: check: budget verdict fail (json-decode{size=small}/wall-time_warn, regex-compile/throughput_fail)\n"; stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
	golden(t, "perfgate/check-archives-comment.md", stdout)
	data, _ := os.ReadFile(filepath.Join(out, "compare.json"))
	golden(t, "perfgate/check-archives-compare.json", string(data))
}

func needSh(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
}

// TestRunCommand measures real commands and checks the receipt's shape,
// never its timings.
func TestRunCommand(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"run", "-name", "true", "-repeat", "3", "-warmup", "1", "-work-units", "10", "--", "sh", "-c", "exit 0"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "wrote perfgate.json: true, 3 samples (1 warm-up), wall_ms median ") {
		t.Errorf("stdout = %q", stdout.String())
	}
	data, err := os.ReadFile("perfgate.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := receipt.ReadRun("perfgate.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Tool.Name != "perfpages" || r.Bench.Name != "true" || len(r.Samples) != 4 || !r.Samples[0].Warmup || r.Samples[1].Warmup ||
		r.Stats.ThroughputPerS == nil || r.Bench.WorkUnits == nil || *r.Bench.WorkUnits != 10 || r.Run.Host.OS == "" {
		t.Errorf("receipt = %+v", r)
	}

	stdout.Reset()
	if err := run(context.Background(), []string{"run", "-name", "sleep", "-repeat", "2", "-out", "out/sleep.json", "--", "sleep", "0.01"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if data, err := os.ReadFile(filepath.Join("out", "sleep.json")); err != nil || !bytes.Contains(data, []byte(`"sleep",`)) {
		t.Errorf("out/sleep.json: %v", err)
	}
}

// TestRunFailures: a failing or timed-out sample is recorded; run writes
// the receipt and then exits 1 (perfgate's behaviour), unless
// -allow-nonzero.
func TestRunFailures(t *testing.T) {
	needSh(t)
	t.Chdir(t.TempDir())
	tests := []struct {
		name       string
		args       []string
		wantErr    string
		wantSample receipt.Sample
	}{
		{"non-zero exit", []string{"-name", "exits", "-repeat", "2", "--", "sh", "-c", "exit 3"},
			"perfpages: run: benchmark command failed: iteration 1 exit code 3, iteration 2 exit code 3 (the receipt records it; -allow-nonzero accepts this)\n",
			receipt.Sample{ExitCode: 3}},
		{"timeout", []string{"-name", "hangs", "-repeat", "1", "-timeout", "100ms", "--", "sh", "-c", "sleep 30"},
			"perfpages: run: benchmark command failed: iteration 1 timed out (the receipt records it; -allow-nonzero accepts this)\n",
			receipt.Sample{ExitCode: -1, TimedOut: true}},
		{"allowed", []string{"-name", "exits", "-repeat", "1", "-allow-nonzero", "--", "sh", "-c", "exit 3"}, "", receipt.Sample{ExitCode: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove("perfgate.json")
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"run"}, tt.args...), &stdout, &stderr)
			if stderr.String() != tt.wantErr || (err != nil) != (tt.wantErr != "") {
				t.Errorf("err %v, stderr %q; want %q", err, stderr.String(), tt.wantErr)
			}
			if tt.wantErr != "" && exitCode(err) != 1 {
				t.Errorf("exit status %d, want 1", exitCode(err))
			}
			data, err := os.ReadFile("perfgate.json")
			if err != nil {
				t.Fatal("no receipt written: ", err)
			}
			r, err := receipt.ReadRun("perfgate.json", data)
			if err != nil {
				t.Fatal(err)
			}
			s := r.Samples[0]
			if s.ExitCode != tt.wantSample.ExitCode || s.TimedOut != tt.wantSample.TimedOut {
				t.Errorf("sample = %+v", s)
			}
		})
	}
}

// TestExportGolden: CSV and JSON Lines of run receipts (the eight columns
// of perfgate's docs/DESIGN.md) and of a compare receipt.
func TestExportGolden(t *testing.T) {
	out := t.TempDir()
	if _, stderr, code := perfgateCLI(t, "check", "-baseline", "baseline.json", "-current", "current_fail.json", "-out-dir", out); code != 2 {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	compare := filepath.Join(out, "compare.json")
	tests := []struct {
		name string
		args []string
	}{
		{"export-runs.csv", []string{"-format", "csv", "baseline.json", "current_warn.json", "current_fail.json"}},
		{"export-runs.jsonl", []string{"-format", "jsonl", "baseline.json", "current_warn.json", "current_fail.json"}},
		{"export-compare.csv", []string{"-format", "csv", compare}},
		{"export-compare.jsonl", []string{"-format", "jsonl", compare}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := perfgateCLI(t, append([]string{"export"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden(t, "perfgate/"+tt.name, stdout)
		})
	}
}

func TestPromoteCommand(t *testing.T) {
	dest := t.TempDir()
	stdout, stderr, code := perfgateCLI(t, "promote", "-normalize", "current_warn.json", filepath.Join(dest, "baselines", "fixture-bench.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasSuffix(stdout, "(normalized)\n") {
		t.Errorf("stdout = %q", stdout)
	}
	got, _ := os.ReadFile(filepath.Join(dest, "baselines", "fixture-bench.json"))
	orig, _ := os.ReadFile("current_warn.json")
	want := strings.NewReplacer(`"id": "current-warn"`, `"id": "baseline"`,
		`"started_at": "2024-01-03T00:00:00Z"`, `"started_at": "1970-01-01T00:00:00Z"`,
		`"ended_at": "2024-01-03T00:00:01Z"`, `"ended_at": "1970-01-01T00:00:00Z"`).Replace(string(orig))
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("normalized baseline (-want +got):\n%s", diff)
	}

	// The promoted baseline is a baseline for check.
	_, stderr, code = perfgateCLI(t, "check", "-baseline", filepath.Join(dest, "baselines", "fixture-bench.json"), "-current", "current_fail.json", "-out-dir", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "budget verdict fail") {
		t.Errorf("check against the promoted baseline: exit %d, %s", code, stderr)
	}

	plain := filepath.Join(dest, "plain.json")
	if _, stderr, code := perfgateCLI(t, "promote", "baseline.json", plain); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile("baseline.json")
	if !bytes.Equal(a, b) {
		t.Error("promote without -normalize changed the receipt")
	}
}

// TestPerfgateBadInputs: bad inputs exit 1 with "perfpages: <file>: …".
func TestPerfgateBadInputs(t *testing.T) {
	tmp := t.TempDir()
	notJSON := filepath.Join(tmp, "notjson.json")
	os.WriteFile(notJSON, []byte("{\n  \"schema\": perfgate\n}\n"), 0o644)
	wrong := filepath.Join(tmp, "wrong.json")
	os.WriteFile(wrong, []byte(`{"schema": "perfgate.run.v2"}`), 0o644)
	incomplete := filepath.Join(tmp, "incomplete.json")
	os.WriteFile(incomplete, []byte(`{"schema": "perfgate.run.v1", "tool": {"name": "x", "version": "1"}}`), 0o644)
	// Inputs that are not receipts: none hangs or fills memory, each is
	// named with what it is.
	fifo := filepath.Join(tmp, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	zero := filepath.Join(tmp, "zero.json")
	os.Symlink("/dev/zero", zero)
	lfs := filepath.Join(tmp, "lfs.json")
	os.WriteFile(lfs, []byte("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1234\n"), 0o644)
	utf16 := filepath.Join(tmp, "utf16.json")
	os.WriteFile(utf16, []byte("\xff\xfe{\x00}\x00"), 0o644)
	out := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"check: current a named pipe", []string{"check", "-baseline", "baseline.json", "-current", fifo, "-out-dir", out}, "perfpages: " + fifo + ": a named pipe, not a regular file\n"},
		{"check: baseline a link to /dev/zero", []string{"check", "-baseline", zero, "-current", "current_pass.json", "-out-dir", out}, "perfpages: " + zero + ": a symbolic link to a device, not a regular file\n"},
		{"check: a Git LFS pointer", []string{"check", "-baseline", "baseline.json", "-current", lfs, "-out-dir", out}, "perfpages: " + lfs + ": is a Git LFS pointer, not the results: run `git lfs pull` (or check out with lfs: true)\n"},
		{"check: UTF-16", []string{"check", "-baseline", utf16, "-current", "current_pass.json", "-out-dir", out}, "perfpages: " + utf16 + ": is UTF-16 encoded: save it as UTF-8 (PowerShell's > writes UTF-16; use Out-File -Encoding utf8)\n"},
		{"export: a named pipe", []string{"export", "-format", "csv", fifo}, "perfpages: " + fifo + ": a named pipe, not a regular file\n"},
		{"promote: a named pipe", []string{"promote", fifo, filepath.Join(out, "x.json")}, "perfpages: " + fifo + ": a named pipe, not a regular file\n"},
		{"promote: a link to /dev/zero", []string{"promote", zero, filepath.Join(out, "x.json")}, "perfpages: " + zero + ": a symbolic link to a device, not a regular file\n"},
		{"run: output cap 0", []string{"run", "-name", "x", "-output-cap", "0", "--", "true"}, "perfpages: run: -output-cap 0 bytes: want 1 to 1048576 (1 MiB), the most a receipt keeps of each stream of a sample\n"},
		{"run: output cap over 1 MiB", []string{"run", "-name", "x", "-output-cap", "1048577", "--", "true"}, "perfpages: run: -output-cap 1048577 bytes: want 1 to 1048576 (1 MiB)"},
		{"run: output cap of a terabyte", []string{"run", "-name", "x", "-output-cap", "1099511627776", "--", "true"}, "perfpages: run: -output-cap 1099511627776 bytes: want 1 to 1048576 (1 MiB)"},
		{"check: missing current", []string{"check", "-baseline", "baseline.json", "-current", "nope.json", "-out-dir", out}, "perfpages: nope.json: no such file or directory\n"},
		{"check: not JSON", []string{"check", "-baseline", "baseline.json", "-current", notJSON, "-out-dir", out}, "perfpages: " + notJSON + ":2: invalid JSON: invalid character 'p' looking for beginning of value\n"},
		{"check: wrong schema", []string{"check", "-baseline", wrong, "-current", "current_pass.json", "-out-dir", out}, "perfpages: " + wrong + `: schema "perfgate.run.v2": want perfgate.run.v1 or perfpages.run.v1` + "\n"},
		{"check: incomplete receipt", []string{"check", "-baseline", incomplete, "-current", "current_pass.json", "-out-dir", out}, "perfpages: " + incomplete + `: missing field "run"` + "\n"},
		{"check: mixed kinds", []string{"check", "-baseline", "archive-base.json", "-current", "current_pass.json", "-out-dir", out},
			"perfpages: baseline archive-base.json is a perfpages archive but current current_pass.json is a perfgate run receipt: compare like with like\n"},
		{"check: no current", []string{"check", "-baseline", "baseline.json"}, "perfpages: check: -current is required\n"},
		{"check: bad config", []string{"check", "-current", "current_pass.json", "-config", "nope.toml"}, "perfpages: config nope.toml: no such file\n"},
		{"export: missing", []string{"export", "-format", "csv", "nope.json"}, "perfpages: nope.json: no such file or directory\n"},
		{"export: wrong schema", []string{"export", "-format", "csv", wrong}, "perfpages: " + wrong + `: schema "perfgate.run.v2"`},
		{"export: archive", []string{"export", "-format", "csv", "archive-base.json"}, "perfpages: archive-base.json: is a perfpages archive; export takes perfgate run or compare receipts\n"},
		{"export: bad format", []string{"export", "-format", "xml", "baseline.json"}, `perfpages: export: -format "xml": want csv or jsonl`},
		{"promote: missing", []string{"promote", "nope.json", filepath.Join(out, "x.json")}, "perfpages: nope.json: no such file or directory\n"},
		{"promote: not JSON", []string{"promote", notJSON, filepath.Join(out, "x.json")}, "perfpages: " + notJSON + ":2: invalid JSON"},
		{"promote: one argument", []string{"promote", "baseline.json"}, "perfpages: promote: want a run receipt and a destination\n"},
		{"run: no name", []string{"run", "--", "true"}, "perfpages: run: -name is required\n"},
		{"run: no command", []string{"run", "-name", "x"}, "perfpages: run: no command given: put it after --\n"},
		{"run: bad name", []string{"run", "-name", "../up", "--", "true"}, `perfpages: run: bench name "../up" contains a ".." path segment (path traversal is forbidden)` + "\n"},
		{"run: bad work units", []string{"run", "-name", "x", "-work-units", "-5", "--", "true"}, "want a non-negative integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			timer := time.AfterFunc(10*time.Second, func() {
				select {
				case <-done:
				default:
					panic(tt.name + ": perfpages " + strings.Join(tt.args, " ") + " hangs")
				}
			})
			defer timer.Stop()
			_, stderr, code := perfgateCLI(t, tt.args...)
			close(done)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr = %q\nwant it to contain %q", stderr, tt.want)
			}
		})
	}
	// Mixed kinds in one export.
	if _, stderr, code := perfgateCLI(t, "export", "-format", "csv", "baseline.json", filepath.Join("..", "perfgate", "current_pass.json")); code != 0 {
		t.Errorf("two runs: exit %d %s", code, stderr)
	}
}
