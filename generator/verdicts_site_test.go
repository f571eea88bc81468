package generator

import (
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
