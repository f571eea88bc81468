package perfgate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/generator/receipt"
)

func writeReceipt(t *testing.T, path string, v any) string {
	t.Helper()
	if err := WriteJSON(path, v); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	base := writeReceipt(t, filepath.Join(dir, "base.json"), fixtureBaseline())
	cur := writeReceipt(t, filepath.Join(dir, "cur.json"), fixtureWarn())
	out := filepath.Join(dir, "out")
	res, err := Check(CheckOptions{BaselinePath: base, CurrentPath: cur, OutDir: out, Tool: receipt.Tool{Name: "perfpages", Version: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := []string{filepath.Join(out, "compare.json"), filepath.Join(out, "report.json"), filepath.Join(out, "comment.md")}
	if diff := cmp.Diff(wantFiles, res.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if res.Compare.Verdict.Status != budget.Warn || res.ExitCode(false) != ExitPass || res.ExitCode(true) != ExitWarnAsFail {
		t.Errorf("verdict %v, exit codes %d/%d", res.Compare.Verdict, res.ExitCode(false), res.ExitCode(true))
	}
	md, _ := os.ReadFile(filepath.Join(out, "comment.md"))
	if string(md) != res.Markdown || !strings.HasPrefix(res.Markdown, "⚠️ perfgate: warn") {
		t.Errorf("comment.md = %q", md)
	}
	data, _ := os.ReadFile(filepath.Join(out, "compare.json"))
	c, err := receipt.ReadCompare("compare.json", data)
	if err != nil || c.BaselineRef.Path != base || c.CurrentRef.RunID != "warn" {
		t.Errorf("compare.json = %+v, %v", c, err)
	}
	rep, _ := os.ReadFile(filepath.Join(out, "report.json"))
	if !strings.Contains(string(rep), `"message": "wall_ms regression: 19.00% (change: +19.00%, threshold: 20.0%)"`) {
		t.Errorf("report.json:\n%s", rep)
	}

	// Then the baseline disappears: no-baseline handling, and the stale
	// compare.json goes.
	os.Remove(base)
	res, err = Check(CheckOptions{BaselinePath: base, CurrentPath: cur, OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoBaseline || res.Compare != nil || res.ExitCode(true) != ExitPass || res.Report.Verdict.Reasons[0] != "no_baseline" {
		t.Errorf("no baseline: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(out, "compare.json")); !os.IsNotExist(err) {
		t.Errorf("stale compare.json kept: %v", err)
	}
	want := []string{"no baseline found for bench 'fixture-bench' at " + base + ", skipping comparison"}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(res.Markdown, "## perfgate: no baseline") {
		t.Errorf("comment = %q", res.Markdown)
	}
	_, err = Check(CheckOptions{BaselinePath: base, CurrentPath: cur, RequireBaseline: true})
	if err == nil || err.Error() != base+": no baseline for bench 'fixture-bench' (-require-baseline)" {
		t.Errorf("require baseline: %v", err)
	}
}

// TestCheckDefaultBaseline: without -baseline a receipt's baseline is
// baselines/<bench>.json, perfgate's default.
func TestCheckDefaultBaseline(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeReceipt(t, filepath.Join("baselines", "fixture-bench.json"), fixtureBaseline())
	cur := writeReceipt(t, "cur.json", fixtureFail())
	res, err := Check(CheckOptions{CurrentPath: cur})
	if err != nil {
		t.Fatal(err)
	}
	if res.Compare.BaselineRef.Path != filepath.Join("baselines", "fixture-bench.json") || res.ExitCode(false) != ExitFail || len(res.Files) != 0 {
		t.Errorf("result = %+v", res)
	}
}

func TestCheckErrors(t *testing.T) {
	dir := t.TempDir()
	base := writeReceipt(t, filepath.Join(dir, "base.json"), fixtureBaseline())
	mac := fixturePass()
	mac.Run.Host.OS = "macos"
	other := writeReceipt(t, filepath.Join(dir, "mac.json"), mac)
	arch := filepath.Join(dir, "a.json")
	os.WriteFile(arch, []byte(`{"schema": "perfpages.run.v1", "artifact": {"id": "abc", "kind": "commit"}, "machine": {"name": "m"}, "results": []}`), 0o644)
	tests := []struct {
		name string
		opts CheckOptions
		want string
	}{
		{"no current", CheckOptions{BaselinePath: base}, "no current run given"},
		{"missing current", CheckOptions{BaselinePath: base, CurrentPath: filepath.Join(dir, "nope.json")}, "nope.json: no such file or directory"},
		{"mixed kinds", CheckOptions{BaselinePath: arch, CurrentPath: base}, "is a perfpages archive but current " + base + " is a perfgate run receipt"},
		{"archive without baseline", CheckOptions{CurrentPath: arch}, "is a perfpages archive: name its baseline with -baseline"},
		{"host mismatch error", CheckOptions{BaselinePath: base, CurrentPath: other, HostMismatch: "error"}, "host mismatch (-host-mismatch error): OS mismatch: baseline=linux, current=macos"},
		{"bad policy", CheckOptions{BaselinePath: base, CurrentPath: other, HostMismatch: "loud"}, `host mismatch policy "loud"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Check(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	res, err := Check(CheckOptions{BaselinePath: base, CurrentPath: other, HostMismatch: "ignore"})
	if err != nil || len(res.Warnings) != 0 {
		t.Errorf("ignore: %v %v", res.Warnings, err)
	}
	res, _ = Check(CheckOptions{BaselinePath: base, CurrentPath: other})
	if diff := cmp.Diff([]string{"host mismatch: OS mismatch: baseline=linux, current=macos"}, res.Warnings); diff != "" {
		t.Errorf("warn (-want +got):\n%s", diff)
	}
}

func TestCheckHighNoise(t *testing.T) {
	dir := t.TempDir()
	base := writeReceipt(t, filepath.Join(dir, "base.json"), fixtureBaseline())
	noisy := fixture("noisy", []uint64{20, 100, 180}, nil)
	noisy.Stats, _ = receipt.ComputeStats(noisy.Samples, nil)
	cur := writeReceipt(t, filepath.Join(dir, "cur.json"), noisy)
	res, err := Check(CheckOptions{BaselinePath: base, CurrentPath: cur})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "high noise detected (wall_ms CV 80.0% > 30%)") {
		t.Errorf("warnings = %v", res.Warnings)
	}
}

// A receipt whose stats block hides a regression its samples show is
// judged by the samples, with a warning naming the file.
func TestCheckForgedStats(t *testing.T) {
	dir := t.TempDir()
	base := writeReceipt(t, filepath.Join(dir, "base.json"), fixtureBaseline())
	forged := fixture("forged", []uint64{200, 202, 198, 201, 199}, []uint64{1024, 1028, 1020, 1026, 1022})
	forged.Stats.WallMs = receipt.U64Summary{Median: 100, Min: 98, Max: 102}
	cur := writeReceipt(t, filepath.Join(dir, "cur.json"), forged)
	res, err := Check(CheckOptions{BaselinePath: base, CurrentPath: cur})
	if err != nil {
		t.Fatal(err)
	}
	if res.Compare.Verdict.Status != budget.Fail || res.Compare.Deltas["wall_ms"].Current != 200 {
		t.Errorf("verdict %v, wall_ms %+v; want fail at the samples' median 200", res.Compare.Verdict, res.Compare.Deltas["wall_ms"])
	}
	want := cur + ": the stats block disagrees with the samples (wall_ms median 100 vs 200 from the samples); the statistics of the samples are used"
	if !slices.Contains(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}
