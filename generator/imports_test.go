package generator

import (
	"os"
	"path/filepath"
	"testing"
)

// Whole-site tests of real histories of other tools (issue 13, point 4):
// a github-action-benchmark gh-pages folder and an asv results folder,
// read by sources without an artifact pattern.

// The commits of foreign/testdata/gab/history.js: pushed c1 c2 c3 c4,
// authored c2 c1 c4 c3; p1 is PR 51's run, p2 PR 53's (also listed under
// PR 54).
const (
	gabC1 = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
	gabC2 = "2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e"
	gabC3 = "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"
	gabC4 = "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"
	gabP1 = "5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081"
	gabP2 = "6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192"
)

// gabIndexHTML is the start of the chart page the action writes beside
// data.js (src/default_index_html.ts).
const gabIndexHTML = `<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>Benchmarks</title>
  </head>
  <body>
    <script src="https://cdnjs.cloudflare.com/ajax/libs/Chart.js/2.9.2/Chart.min.js"></script>
    <script src="data.js"></script>
  </body>
</html>
`

func TestSiteGabHistory(t *testing.T) {
	history, err := os.ReadFile(filepath.Join("foreign", "testdata", "gab", "history.js"))
	if err != nil {
		t.Fatal(err)
	}
	b := siteTest(t, `
-- perfpages.toml --
[site]
repository = "https://github.com/example/tinydb"

[[sources]]
dir = "gh-pages/dev/bench"
format = "gab"
-- gh-pages/dev/bench/index.html --
`+gabIndexHTML+`
-- gh-pages/dev/bench/data.js --
`+string(history))
	var warnings []string
	for _, w := range b.report.Warnings {
		warnings = append(warnings, w.Error())
	}
	want := filepath.Join(b.dir, "gh-pages", "dev", "bench", "data.js") + `:178: suite "Rust Benchmark": commit ` + gabP2 + ` is listed under PR #53 and PR #54; its runs under #54 are skipped (the lowest PR number keeps the commit)`
	if len(warnings) != 1 || warnings[0] != want {
		t.Errorf("warnings = %q, want only %q", warnings, want)
	}
	// Each commit is compared with the one pushed before it, whatever the
	// author dates say.
	for _, c := range [][2]string{{gabC1, gabC2}, {gabC2, gabC3}, {gabC3, gabC4}} {
		b.AssertFileContent("commit/"+c[1]+"/index.html", `href="/compare/`+c[0]+`...`+c[1]+`/"`)
	}
	// insert: 5120 → 6400 ns is c2's regression, not c1's.
	b.AssertFileContent("commit/"+gabC2+"/index.html", "5.12 µs", "6.4 µs", "&#43;25.00%")
	// The PR runs have their baselines: the push run before them.
	for _, c := range [][2]string{{gabC1, gabP1}, {gabC3, gabP2}} {
		if _, ok := b.Files()["compare/"+c[0]+"..."+c[1]+"/index.html"]; !ok {
			t.Errorf("no comparison page of try run %s against %s", c[1], c[0])
		}
	}
	b.AssertFileContent("pr/53/index.html", gabP2[:7])
	if _, ok := b.Files()["pr/54/index.html"]; ok {
		t.Error("PR 54 has a page: the run listed under it was merged into PR 53's")
	}
}
