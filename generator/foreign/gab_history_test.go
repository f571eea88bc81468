package foreign

import (
	"os"
	"path/filepath"
	"strconv"
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

// TestGabHistoryCases: how entries' commits become artifacts, case by case.
func TestGabHistoryCases(t *testing.T) {
	entry := func(id, url string, date int64, extra string) string {
		e := `{"commit": {"id": "` + id + `", "message": "m ` + id + `", "timestamp": "2025-01-0` + id[1:2] + `T00:00:00Z", "url": "` + url + `"` + extra + `}, "tool": "cargo"`
		if date != 0 {
			e += `, "date": ` + strconvI(date)
		}
		return e + `, "benches": [{"name": "a", "value": 1, "unit": "ns/iter"}]}`
	}
	push := func(id string, date int64) string { return entry(id, "https://x/commit/"+id, date, "") }
	pr := func(id string, n int, date int64) string {
		return entry(id, "https://x/pull/"+strconvI(int64(n))+"/commits/"+id, date, "")
	}
	file := func(suites ...string) string {
		return `{"entries": {` + strings.Join(suites, ", ") + `}}`
	}
	suite := func(name string, entries ...string) string {
		return `"` + name + `": [` + strings.Join(entries, ",\n") + `]`
	}
	type art struct {
		id, parent, baseline string
		kind                 model.ArtifactKind
		pr                   int
	}
	tests := []struct {
		name  string
		data  string
		want  []art // by first appearance
		probs []string
	}{
		{
			name: "a PR run before any push run has no baseline",
			data: file(suite("s", pr("p1", 5, 1000), push("c1", 2000), push("c2", 3000))),
			want: []art{{id: "p1", kind: model.KindTry, pr: 5}, {id: "c1", kind: model.KindCommit}, {id: "c2", parent: "c1", kind: model.KindCommit}},
		},
		{
			name: "a commit that ran in a PR and on a push is the push's, with the PR's number",
			data: file(suite("s", push("c1", 1000), pr("c2", 7, 2000), push("c2", 3000))),
			want: []art{{id: "c1", kind: model.KindCommit}, {id: "c2", parent: "c1", kind: model.KindCommit, pr: 7}},
		},
		{
			name: "suites that skip commits merge by when they ran",
			data: file(suite("a", push("c1", 1000), push("c2", 2000), push("c4", 4000)), suite("b", push("c1", 1100), push("c3", 3000), push("c4", 4100))),
			want: []art{{id: "c1", kind: model.KindCommit}, {id: "c2", parent: "c1", kind: model.KindCommit}, {id: "c4", parent: "c3", kind: model.KindCommit}, {id: "c3", parent: "c2", kind: model.KindCommit}},
		},
		{
			name:  "suites that contradict each other",
			data:  file(suite("a", push("c1", 1000), push("c2", 2000)), suite("b", push("c2", 2100), push("c1", 1100))),
			want:  []art{{id: "c1", kind: model.KindCommit}, {id: "c2", parent: "c1", kind: model.KindCommit}},
			probs: []string{"x.js: the suites list 2 commits in contradicting orders (e.g. c1); they are placed last, in the order they first appear"},
		},
		{
			name: "a re-run of an older commit keeps its place",
			data: file(suite("s", push("c1", 1000), push("c2", 2000), push("c1", 3000), push("c3", 4000))),
			want: []art{{id: "c1", kind: model.KindCommit}, {id: "c2", parent: "c1", kind: model.KindCommit}, {id: "c3", parent: "c2", kind: model.KindCommit}},
		},
		{
			name: "runs on another branch make a line of their own; PRs compare with the main branch",
			data: file(suite("s", push("c1", 1000),
				entry("c2", "https://x/commit/c2", 2000, `, "branch": "dev"`),
				pr("p3", 9, 2500),
				entry("c4", "https://x/commit/c4", 3000, `, "branch": "dev"`),
				push("c5", 4000))),
			want: []art{{id: "c1", kind: model.KindCommit}, {id: "c2", kind: model.KindCommit}, {id: "p3", kind: model.KindTry, pr: 9, baseline: "c1"},
				{id: "c4", parent: "c2", kind: model.KindCommit}, {id: "c5", parent: "c1", kind: model.KindCommit}},
		},
		{
			name: "three PRs: the lowest keeps the commit, one warning per other PR",
			data: file(suite("s", push("c1", 1000), pr("p1", 12, 2000), pr("p1", 11, 2100), pr("p1", 13, 2200), pr("p1", 12, 2300))),
			want: []art{{id: "c1", kind: model.KindCommit}, {id: "p1", kind: model.KindTry, pr: 11, baseline: "c1"}},
			probs: []string{
				`x.js:2: suite "s": commit p1 is listed under PR #11 and PR #12; its runs under #12 are skipped (the lowest PR number keeps the commit)`,
				`x.js:4: suite "s": commit p1 is listed under PR #11 and PR #13; its runs under #13 are skipped (the lowest PR number keeps the commit)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, probs := bmfRead(t, "gab", "x.js", []byte(tt.data), Defaults{Machine: model.Machine{Name: "m"}})
			var got []art
			seen := map[string]bool{}
			for _, r := range runs {
				a := r.Artifact
				if seen[a.ID] {
					continue
				}
				seen[a.ID] = true
				g := art{id: a.ID, baseline: a.Baseline, kind: a.Kind, pr: a.PR}
				if len(a.Parents) > 0 {
					g.parent = a.Parents[0]
				}
				got = append(got, g)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(art{})); diff != "" {
				t.Errorf("artifacts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.probs, bmfProblems(probs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func strconvI(n int64) string { return strconv.FormatInt(n, 10) }
