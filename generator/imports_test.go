package generator

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Whole-site tests of real histories of other tools: a
// github-action-benchmark gh-pages folder and an asv results folder, read
// by sources without an artifact pattern.

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

// asvResult is an asv result file (format version 2) of one commit in one
// environment: time_parse with samples, time_read failed (null) when
// failRead.
func asvResult(commit, python string, date int64, parse float64, failRead bool) string {
	read := `[0.002], [], "1", 1700000000000, 0.5`
	if failRead {
		read = `null, [], "1", 1700000000000, 0.5`
	}
	p := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	return `{"commit_hash": "` + commit + `", "env_name": "virtualenv-py` + python + `", "date": ` + strconv.FormatInt(date, 10) + `,
 "params": {"arch": "x86_64", "cpu": "AMD EPYC 7B13", "machine": "cheetah", "num_cpu": "2", "os": "Linux 6.1.0-28-amd64", "ram": "16318900", "python": "` + python + `"},
 "python": "` + python + `", "requirements": {}, "env_vars": {},
 "result_columns": ["result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b", "stats_q_25", "stats_q_75", "stats_number", "stats_repeat", "samples", "profile"],
 "results": {"bench.time_parse": [[` + p(parse) + `], [], "1", 1700000000000, 0.4, null, null, null, null, [10], [5], [[` + p(parse) + `, ` + p(parse*1.01) + `, ` + p(parse*0.99) + `, ` + p(parse*1.02) + `, ` + p(parse*0.98) + `]]],
  "bench.time_read": [` + read + `]},
 "durations": {}, "version": 2}
`
}

// TestSiteASVResults: a source of asv's standard results folder, without
// an artifact pattern: results/benchmarks.json, and per machine
// machine.json and <commit[:8]>-<env>.json. The two Python versions are
// two series of each benchmark; a failed benchmark says so once.
func TestSiteASVResults(t *testing.T) {
	const (
		c1 = "a1b2c3d4e5f60718293a4b5c6d7e8f9001122334"
		c2 = "b2c3d4e5f60718293a4b5c6d7e8f900112233445"
	)
	b := siteTest(t, `
-- perfpages.toml --
[[sources]]
dir = "results"
format = "asv"
-- results/benchmarks.json --
{"bench.time_parse": {"name": "bench.time_parse", "param_names": [], "params": [], "type": "time", "unit": "seconds", "version": "1"},
 "bench.time_read": {"name": "bench.time_read", "param_names": [], "params": [], "type": "time", "unit": "seconds", "version": "1"},
 "version": 2}
-- results/cheetah/machine.json --
{"arch": "x86_64", "cpu": "AMD EPYC 7B13", "machine": "cheetah", "num_cpu": "2", "os": "Linux 6.1.0-28-amd64", "ram": "16318900", "version": 1}
-- results/cheetah/a1b2c3d4-virtualenv-py2.7.json --
`+asvResult(c1, "2.7", 1763600000000, 0.010, false)+`
-- results/cheetah/a1b2c3d4-virtualenv-py3.4.json --
`+asvResult(c1, "3.4", 1763600000000, 0.008, false)+`
-- results/cheetah/b2c3d4e5-virtualenv-py2.7.json --
`+asvResult(c2, "2.7", 1763700000000, 0.010, false)+`
-- results/cheetah/b2c3d4e5-virtualenv-py3.4.json --
`+asvResult(c2, "3.4", 1763700000000, 0.012, true)+`
-- results/README.md --
Not read: a source without a pattern reads asv's .json files.
`)
	if len(b.report.Warnings) != 0 {
		t.Errorf("warnings: %v", b.report.Warnings)
	}
	// asv records no commit subjects: a note points to [project].
	if !slices.ContainsFunc(b.report.Notes, func(n string) bool {
		return strings.HasPrefix(n, "2 of 2 main-line commits have no title") && strings.Contains(n, "set [project] git")
	}) {
		t.Errorf("no note pointing to [project]: %q", b.report.Notes)
	}
	page := b.File("commit/" + c2 + "/index.html")
	// The changed time_parse row and the time_read failure (both in
	// py3.4) say which environment they are: the context keys that tell
	// them from their py2.7 twins.
	ctx := func(py string) string {
		return `<span class="param context" title="context"><span class="param-key">env</span>=<span class="param-value">virtualenv-py` + py +
			`</span></span> <span class="param context" title="context"><span class="param-key">python</span>=<span class="param-value">` + py + `</span></span>`
	}
	for _, want := range []string{"&#43;50.00%", "failed: asv recorded no result", ctx("3.4")} {
		if !strings.Contains(page, want) {
			t.Errorf("commit page of c2 does not contain %q", want)
		}
	}
	if strings.Contains(page, "failed: failed") {
		t.Error("commit page says failed: failed")
	}

	d, _ := loadConfig(t, filepath.Join(b.dir, "perfpages.toml"))
	if len(d.Machines) != 1 || d.Machines[0].MemoryBytes != 16318900<<10 {
		t.Errorf("machines = %+v, want cheetah with 16318900 kB of memory", d.Machines)
	}
	var keys []string
	for _, s := range d.Series {
		keys = append(keys, s.Key.String())
	}
	want := []string{
		"bench.time_parse wall-time on cheetah [env=virtualenv-py2.7 python=2.7]",
		"bench.time_parse wall-time on cheetah [env=virtualenv-py3.4 python=3.4]",
		"bench.time_read wall-time on cheetah [env=virtualenv-py2.7 python=2.7]",
		"bench.time_read wall-time on cheetah [env=virtualenv-py3.4 python=3.4]",
	}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("series (-want +got):\n%s", diff)
	}
}
