package generator

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
)

// writeRunnerHistory writes a history of commits as a CI service with
// throwaway runners leaves it: each run on a runner of its own, named
// fv-az<n>, which runs the commit and its parent (as a pull request's
// benchmark job runs base and head), so that every commit but the first
// is run twice, on two runners.
func writeRunnerHistory(t *testing.T, dir string, commits int) {
	t.Helper()
	day0 := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	id := func(i int) string { return fmt.Sprintf("%040x", 0xc0ffee00+i) }
	for i := 1; i < commits; i++ {
		runner := fmt.Sprintf("fv-az%d-%d", 100+7*i, 3*i)
		for _, c := range []int{i - 1, i} {
			a := model.Artifact{ID: id(c), Kind: model.KindCommit, Branch: "main", Date: day0.Add(time.Duration(c) * time.Hour)}
			if c > 0 {
				a.Parents = []string{id(c - 1)}
			}
			v := 100.0 + float64(i%3) // the runner's level, not the commit's
			if c >= commits/2 {
				v *= 1.5 // a real regression half-way
			}
			run := model.Run{Artifact: a, Machine: model.Machine{Name: runner, CPU: "runner cpu " + runner[len(runner)-1:]},
				Results: []model.Result{{Case: model.TestCase{Benchmark: "solve"}, Metric: "wall-time", Unit: "ns", Samples: []float64{v}}}}
			var buf bytes.Buffer
			if err := archive.Encode(&buf, run, "json", false); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, "results", runner, id(c)[32:]+".json")
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestRunnersPooled: a history of throwaway CI runners is one short
// series per runner, and the build's note says so and what to write; with
// that [[machines]] table the runners are one machine whose series holds
// every commit, its description the pattern, the second run of each
// commit a note, and no warning.
func TestRunnersPooled(t *testing.T) {
	dir := t.TempDir()
	const commits = 24
	writeRunnerHistory(t, dir, commits)
	cfg := "[[sources]]\ndir = \"results\"\n"
	path := filepath.Join(dir, "perfpages.toml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d, warnings := loadConfig(t, path)
	if len(d.Machines) != commits-1 {
		t.Fatalf("%d machines, want %d", len(d.Machines), commits-1)
	}
	var hint string
	for _, n := range d.Notes {
		if strings.Contains(n, "[[machines]]") {
			hint = n
		}
	}
	for _, part := range []string{"23 of 23 machines ran each benchmark at most 3 times", `match = "fv-az*"`} {
		if !strings.Contains(hint, part) {
			t.Errorf("note %q lacks %q (notes %q)", hint, part, d.Notes)
		}
	}
	// Machines that differ in their description: not a warning once pooled.
	if len(warnings) != 0 {
		t.Errorf("warnings %v", warnings)
	}

	cfg += "\n[[machines]]\nmatch = \"fv-az*\"\nname = \"github-hosted\"\n"
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d, warnings = loadConfig(t, path)
	if len(warnings) != 0 {
		t.Errorf("pooled: warnings %v", warnings)
	}
	if len(d.Machines) != 1 || d.Machines[0].Name != "github-hosted" || d.Machines[0].CPU != "" ||
		len(d.Machines[0].Labels) != 1 || d.Machines[0].Labels[0] != (model.Param{Key: "runners", Value: "fv-az*"}) {
		t.Fatalf("pooled machines: %+v", d.Machines)
	}
	if len(d.Series) != 1 || len(d.Series[0].Points) != commits {
		t.Fatalf("pooled: %d series, the first with %d points; want 1 with %d", len(d.Series), len(d.Series[0].Points), commits)
	}
	want := fmt.Sprintf("machine github-hosted pools the runners fv-az*: %d results are of commits another of its runners had run already", commits-2)
	if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.HasPrefix(n, want) }) {
		t.Errorf("pooled: notes %q, want one beginning %q", d.Notes, want)
	}
	// The runners' levels are noise the headline learns; the regression
	// half-way is the one change it counts.
	res := siteOf(t, path).Analyze(d)
	var flagged []int
	for p := 1; p < len(d.MainLine); p++ {
		for _, r := range res.Summary(d.MainLine[p-1], d.MainLine[p]).Rows {
			if r.Relevant {
				flagged = append(flagged, p)
			}
		}
	}
	if !slices.Equal(flagged, []int{commits / 2}) {
		t.Errorf("pooled: commits flagged %v, want [%d]", flagged, commits/2)
	}
}
