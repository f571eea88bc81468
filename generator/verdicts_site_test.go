package generator

import (
	"fmt"
	"strings"
	"testing"
)

// A regression from zero (0 → 1 allocs/op, 0 → 8192 B/op) builds a site:
// the commit page shows "+∞%" and counts it in the summary, the data
// files and the bar chart hold numbers (JSON has no infinity), and the
// reverse change is the −100 % improvement it always was. (Model
// rustc-perf, which judges a pair of two commits; model perfpages shows
// the change without a verdict until the series has a noise model.)
func TestSiteChangeFromZero(t *testing.T) {
	b := siteTest(t, `
-- perfpages.toml --
[analysis]
model = "rustc-perf"

[[sources]]
dir = "results"
-- results/c1.json --
{"schema": "perfpages.run.v1",
 "artifact": {"id": "`+sha1+`", "kind": "commit", "date": "2026-09-07T10:00:00Z", "branch": "main", "title": "Before"},
 "machine": {"name": "m"},
 "results": [
  {"benchmark": "sort", "metric": "allocs", "unit": "allocs/op", "samples": [0, 0, 0, 0, 0]},
  {"benchmark": "sort", "metric": "alloc-bytes", "unit": "B/op", "samples": [0, 0, 0, 0, 0]},
  {"benchmark": "copy", "metric": "alloc-bytes", "unit": "B/op", "samples": [64, 64, 64, 64, 64]}
 ]}
-- results/c2.json --
{"schema": "perfpages.run.v1",
 "artifact": {"id": "`+sha2+`", "kind": "commit", "date": "2026-09-08T10:00:00Z", "parents": ["`+sha1+`"], "branch": "main", "title": "Allocate"},
 "machine": {"name": "m"},
 "results": [
  {"benchmark": "sort", "metric": "allocs", "unit": "allocs/op", "samples": [1, 1, 1, 1, 1]},
  {"benchmark": "sort", "metric": "alloc-bytes", "unit": "B/op", "samples": [8192, 8192, 8192, 8192, 8192]},
  {"benchmark": "copy", "metric": "alloc-bytes", "unit": "B/op", "samples": [0, 0, 0, 0, 0]}
 ]}
`)
	if len(b.report.Warnings) != 0 {
		t.Errorf("warnings: %v", b.report.Warnings)
	}
	b.AssertFileContent("commit/"+sha2+"/index.html", "+∞%", "-100.00%", "1 from 0")
	b.AssertNoFileContent("commit/"+sha2+"/index.html", ">n/a<")
}

// TestSiteUnconfirmed: a change at the newest commit, far out of a steady
// series' noise but with no values after it yet, is shown as unconfirmed
// — on its commit page with the badge, in the lists of commits and on the
// dashboard — and counted nowhere; a spike that came back is labelled a
// spike.
func TestSiteUnconfirmed(t *testing.T) {
	var files strings.Builder
	files.WriteString("-- perfpages.toml --\n[[sources]]\ndir = \"results\"\n")
	const n = 20
	id := func(i int) string { return fmt.Sprintf("%040x", i+1) }
	for i := range n {
		v := 1000 * (1 + 0.01*float64(i%3))
		spike := 500 * (1 + 0.01*float64(i%2))
		switch {
		case i == n-1:
			v *= 1.12
		case i == 10:
			spike *= 1.5
		}
		parents := ""
		if i > 0 {
			parents = fmt.Sprintf(`, "parents": ["%s"]`, id(i-1))
		}
		fmt.Fprintf(&files, `-- results/c%02d.json --
{"schema": "perfpages.run.v1",
 "artifact": {"id": "%s", "kind": "commit", "date": "2026-09-%02dT10:00:00Z", "branch": "main", "title": "Change %d"%s},
 "machine": {"name": "m"},
 "results": [
  {"benchmark": "parse", "metric": "wall-time", "unit": "ns", "samples": [%g]},
  {"benchmark": "render", "metric": "wall-time", "unit": "ns", "samples": [%g]}
 ]}
`, i, id(i), i+1, i, parents, v, spike)
	}
	b := siteTest(t, files.String())
	last := "commit/" + id(n-1) + "/index.html"
	b.AssertFileContent(last, `title="Out of the series&#39; noise, but too few later values yet to say whether it stays`, ">unconfirmed</span>", "1 unconfirmed", "&#43;13.12%")
	b.AssertNoFileContent(last, `data-relevant>`)
	b.AssertFileContent("index.html", "1 unconfirmed")
	b.AssertFileContent("commits/index.html", "1 unconfirmed")
	b.AssertFileContent("commit/"+id(10)+"/index.html", ">spike</span>", "1 spike", "&#43;48.51%")
	b.AssertNoFileContent("commit/"+id(10)+"/index.html", "▲ worse")
}
