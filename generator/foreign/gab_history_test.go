package foreign

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

// The commits of testdata/gab/history.js (see its README): pushed in the
// order c1 c2 c3 c4, with author dates c2 < c1 < c4 < c3; p1 and p2 are
// pull_request runs, p2 listed under two PRs.
const (
	gabC1 = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
	gabC2 = "2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e"
	gabC3 = "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"
	gabC4 = "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"
	gabP1 = "5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081"
	gabP2 = "6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192"
)

func readGabHistory(t *testing.T) ([]model.Run, []string) {
	t.Helper()
	name := filepath.Join("testdata", "gab", "history.js")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	def := Defaults{Machine: model.Machine{Name: "ci"}}
	runs, probs := bmfRead(t, "gab", name, data, def)
	return runs, bmfProblems(probs)
}

// TestGabHistory: a data file's history is imported as the action wrote
// it: the main line in push order (each commit's parent is the run before
// it), pull_request runs as try runs against the latest push run before
// them, dated when they ran, and a commit listed under two PRs kept under
// the lowest with a warning naming both.
func TestGabHistory(t *testing.T) {
	runs, probs := readGabHistory(t)
	utc := func(s string) time.Time {
		d, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return d.UTC()
	}
	arts := map[string]model.Artifact{
		gabC1: {ID: gabC1, Kind: model.KindCommit, Date: utc("2025-12-01T09:00:00Z"), PR: 48, Title: "Add a B-tree index (#48)", Author: "Grace Hopper"},
		gabP1: {ID: gabP1, Kind: model.KindTry, Date: utc("2025-12-01T15:00:00Z"), PR: 51, Title: "Cache decoded pages", Author: "octo", Baseline: gabC1},
		gabC2: {ID: gabC2, Kind: model.KindCommit, Date: utc("2025-11-28T09:00:00Z"), Parents: []string{gabC1}, PR: 50, Title: "Write-ahead log", Author: "Ada Lovelace"},
		gabC3: {ID: gabC3, Kind: model.KindCommit, Date: utc("2025-12-02T11:30:00Z"), Parents: []string{gabC2}, PR: 51, Title: "Cache decoded pages (#51)", Author: "Grace Hopper"},
		gabP2: {ID: gabP2, Kind: model.KindTry, Date: utc("2025-12-03T09:00:00Z"), PR: 53, Title: "Batch fsync calls", Author: "octo", Baseline: gabC3},
		gabC4: {ID: gabC4, Kind: model.KindCommit, Date: utc("2025-12-02T10:00:00Z"), Parents: []string{gabC3}, PR: 53, Title: "Batch fsync calls (#53)", Author: "Ada Lovelace"},
	}
	type runKey struct{ suite, id string }
	var got []runKey
	for _, r := range runs {
		suite, _ := r.Context.Get("suite")
		got = append(got, runKey{suite, r.Artifact.ID})
		if diff := cmp.Diff(arts[r.Artifact.ID], r.Artifact); diff != "" {
			t.Errorf("suite %s, artifact %s (-want +got):\n%s", suite, r.Artifact.ID, diff)
		}
	}
	want := []runKey{
		{"Rust Benchmark", gabC1}, {"Rust Benchmark", gabP1}, {"Rust Benchmark", gabC2}, {"Rust Benchmark", gabC3},
		{"Rust Benchmark", gabP2}, {"Rust Benchmark", gabC4},
		{"Memory", gabC1}, {"Memory", gabC3}, {"Memory", gabC4},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(runKey{})); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	wantProbs := []string{
		`testdata/gab/history.js:178: suite "Rust Benchmark": commit ` + gabP2 + ` is listed under PR #53 and PR #54; its runs under #54 are skipped (the lowest PR number keeps the commit)`,
	}
	if diff := cmp.Diff(wantProbs, probs); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	// The re-run of c3 adds samples; the Memory suite's units name their
	// quantities.
	for _, r := range runs {
		suite, _ := r.Context.Get("suite")
		switch {
		case suite == "Rust Benchmark" && r.Artifact.ID == gabC3:
			if diff := cmp.Diff([]model.Result{
				withRange(gabRes("insert", nil, "wall-time", "ns", model.LowerIsBetter, 6380, 6350), "± 127"),
				withRange(gabRes("lookup", nil, "wall-time", "ns", model.LowerIsBetter, 600, 601), "± 12"),
			}, r.Results); diff != "" {
				t.Errorf("c3 re-run (-want +got):\n%s", diff)
			}
		case suite == "Memory" && r.Artifact.ID == gabC4:
			if diff := cmp.Diff([]model.Result{
				gabRes("peak RSS", nil, "size", "MB", model.LowerIsBetter, 238),
				gabRes("page cache misses", nil, "percent", "%", model.LowerIsBetter, 3.5),
			}, r.Results); diff != "" {
				t.Errorf("Memory c4 (-want +got):\n%s", diff)
			}
		}
	}
}

// TestGabHistoryDataset: the runs of history.js built into a dataset
// without project history: the main line is the push order, not the
// author dates' (c2 c1 c4 c3), and each PR page has a baseline.
func TestGabHistoryDataset(t *testing.T) {
	runs, _ := readGabHistory(t)
	b := model.NewBuilder(model.BuildOptions{})
	for _, r := range runs {
		b.Add("history.js", r)
	}
	d := b.Dataset()
	if len(d.Warnings) != 0 {
		t.Errorf("warnings: %v", d.Warnings)
	}
	var line []string
	for _, a := range d.MainLine {
		line = append(line, d.Artifacts[a].ID[:1])
	}
	if got := strings.Join(line, " "); got != "1 2 3 4" {
		t.Errorf("main line = %s, want 1 2 3 4 (c1 c2 c3 c4, the push order)", got)
	}
	for pr, want := range map[int][2]string{51: {gabC3, gabC2}, 53: {gabC4, gabC3}} {
		head, ok := d.PRHead(pr)
		if !ok || d.Artifacts[head].ID != want[0] {
			t.Errorf("PRHead(%d) = %v", pr, head)
			continue
		}
		if base, ok := d.PRBase(head); !ok || d.Artifacts[base].ID != want[1] {
			t.Errorf("PRBase of #%d = %v, %v; want %s", pr, base, ok, want[1])
		}
	}
	for id, base := range map[string]string{gabP1: gabC1, gabP2: gabC3} {
		i, _ := d.Index(id)
		if b, ok := d.PRBase(i); !ok || d.Artifacts[b].ID != base {
			t.Errorf("baseline of try run %s = %v, %v; want %s", id, b, ok, base)
		}
	}
	if _, ok := d.Index(gabP2); !ok {
		t.Error("p2 is missing")
	}
	for _, pr := range d.PRs() {
		if pr == 54 {
			t.Error("PR 54 has an artifact: p2 was merged into it")
		}
	}
}
