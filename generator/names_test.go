package generator

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConfigNameTraps: names in perfpages.toml and annotations.yaml that
// select a metric, machine or benchmark the results do not have are
// warnings naming the nearest one, once per build, and fail -strict
// ([budgets.walltime] and [metrics."cpu-ns"] were once accepted without a
// word).
func TestConfigNameTraps(t *testing.T) {
	site := strings.Replace(basicSite, "[[sources]]", `[budgets.walltime]
threshold = "10%"

[budgets.wall-time]
threshold = 0.10

[budgets.wall_ms]   # a receipt metric, for perfpages check
threshold = 0.10

[metrics."cpu-ns"]
unit = "ns"

[metrics.max-rss]
noise = "reliable"

[metrics.max-rss.units.byte]   # a unit of the metric it does not have
direction = "lower"

[[sources]]`, 1) + `
-- annotations.yaml --
acknowledged:
  - artifact: ` + sha2 + `
    benchmark: json-decod
    note: "typo in the benchmark"
  - artifact: ` + sha2 + `
    machine: linux-x64
    metric: energy
    note: "no such metric, nothing near"
  - artifact: ` + sha2 + `
    machine: linux-x64
    benchmark: json-decode
    metric: wall-time
    note: "all there"
`
	b := siteTest(t, site)
	var got []string
	for _, w := range b.report.Warnings {
		got = append(got, strings.TrimPrefix(w.Error(), b.dir+"/"))
	}
	want := []string{
		`annotations.yaml:2: no benchmark json-decod; did you mean json-decode?`,
		`annotations.yaml:5: no metric energy (the results have max-rss, wall-time)`,
		`perfpages.toml: [metrics.cpu-ns]: no metric cpu-ns (the results have max-rss, wall-time)`,
		`perfpages.toml: [metrics.max-rss.units.byte]: no unit byte; did you mean bytes?`,
		`perfpages.toml: [budgets.walltime]: no metric walltime; did you mean wall-time?`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	b.AssertFileContent("index.html", "no metric walltime; did you mean wall-time?")
	// The README quotes this warning.
	if readme, err := os.ReadFile(filepath.Join("..", "README.md")); err != nil || !strings.Contains(string(readme), "`"+want[4]+"`") {
		t.Errorf("the README does not quote the warning %q (%v)", want[4], err)
	}

	// -strict fails on them, and the up-to-date path says them again.
	b.build(true)
	if !errors.Is(b.err, ErrStrict) {
		t.Errorf("strict build: %v, want ErrStrict", b.err)
	}
	if n := len(b.report.Warnings); n != len(want) {
		t.Errorf("strict build: %d warnings, want %d", n, len(want))
	}

	// Names that all match give none.
	b = siteTest(t, strings.Replace(basicSite, "[[sources]]", "[budgets.wall-time]\nthreshold = 0.1\n[metrics.max-rss]\nnoise = \"reliable\"\n\n[[sources]]", 1))
	if len(b.report.Warnings) != 0 {
		t.Errorf("matching names: warnings %v", b.report.Warnings)
	}
	if slices.ContainsFunc(b.report.Warnings, func(err error) bool { return strings.Contains(err.Error(), "did you mean") }) {
		t.Error("a suggestion for a name that matches")
	}
}

// TestMetricInSeveralUnits: asv's track_ benchmarks are all metric track,
// each in the unit it declares; [metrics.track.units."…"] sets a unit's
// direction, and a page's heading of the metric names no single unit or
// direction for them (each row says its own): "(gflopss, lower is
// better)" above a runtime row was wrong twice.
func TestMetricInSeveralUnits(t *testing.T) {
	run := func(id, parent, date string, gflops, runtime float64) string {
		parents := ""
		if parent != "" {
			parents = `, "parents": ["` + parent + `"]`
		}
		return `{"schema": "perfpages.run.v1",
 "artifact": {"id": "` + id + `", "kind": "commit", "date": "` + date + `", "branch": "main"` + parents + `},
 "machine": {"name": "gpu"},
 "results": [
  {"benchmark": "solve.track_gflopss", "metric": "track", "unit": "gflopss", "samples": [` + fmt.Sprint(gflops) + `]},
  {"benchmark": "solve.track_runtime", "metric": "track", "unit": "runtime (s)", "samples": [` + fmt.Sprint(runtime) + `]}
 ]}`
	}
	b := siteTest(t, `
-- perfpages.toml --
[site]
title = "Units"

[metrics.track.units.gflopss]
direction = "higher"

[metrics.track.units."runtime (s)"]
direction = "lower"

[[sources]]
dir = "results"
-- results/c1.json --
`+run(sha1, "", "2026-09-07T10:00:00Z", 100, 2)+`
-- results/c2.json --
`+run(sha2, sha1, "2026-09-08T10:00:00Z", 101, 2.01)+`
`)
	if len(b.report.Warnings) != 0 {
		t.Errorf("warnings: %v", b.report.Warnings)
	}
	page := "commit/" + sha2 + "/index.html"
	b.AssertFileContent(page, "track <small>(several units)</small>")
	b.AssertNoFileContent(page, "track <small>(gflopss", "track <small>(runtime")
	b.AssertFileContent("compare/index.html", "several units")
	// The compare form's script classifies a change by the series' own
	// direction there: the series index carries it.
	b.AssertFileContent("data/index/solve.track_gflopss.json.gz", `"unit":"gflopss","better":"higher"`)
	b.AssertFileContent("data/index/solve.track_runtime.json.gz", `"unit":"runtime (s)","better":"lower"`)
}
