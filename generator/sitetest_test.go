package generator

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/generator/shard"
	"html"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/inert"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// builder is a whole-site test in the spirit of Hugo's hugolib.Test: the
// files of a txtar archive (perfpages.toml, results, content, themes) are
// written into a temporary folder and built; assertions read the output.
type builder struct {
	t      *testing.T
	dir    string
	out    string
	report *Report
	err    error
}

// siteTest builds the site described by files (txtar) and fails on error.
func siteTest(t *testing.T, files string) *builder {
	t.Helper()
	b := siteRun(t, files, false)
	if b.err != nil {
		t.Fatalf("build: %v", b.err)
	}
	return b
}

// siteRun builds the site described by files and keeps the error.
func siteRun(t *testing.T, files string, strict bool) *builder {
	t.Helper()
	dir := t.TempDir()
	writeTxtar(t, dir, files)
	b := &builder{t: t, dir: dir, out: filepath.Join(dir, "public")}
	b.build(strict)
	return b
}

func writeTxtar(t *testing.T, dir, files string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(files)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func (b *builder) build(strict bool) {
	b.t.Helper()
	cfg, err := config.Load(filepath.Join(b.dir, "perfpages.toml"))
	if err != nil {
		b.err = err
		return
	}
	s, err := FromConfig(cfg)
	if err != nil {
		b.err = err
		return
	}
	b.report, b.err = s.Build(context.Background(), BuildOptions{Strict: strict})
}

// File returns an output file's content, inflated when it is a .gz.
func (b *builder) File(name string) string {
	b.t.Helper()
	data, err := os.ReadFile(filepath.Join(b.out, filepath.FromSlash(name)))
	if err != nil {
		b.t.Fatalf("output: %v", err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			b.t.Fatalf("output %s: %v", name, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			b.t.Fatalf("output %s: %v", name, err)
		}
	}
	return string(data)
}

// AssertFileContent checks that an output file contains every string.
func (b *builder) AssertFileContent(name string, want ...string) {
	b.t.Helper()
	got := b.File(name)
	for _, w := range want {
		if !strings.Contains(got, w) {
			b.t.Errorf("%s does not contain %q", name, w)
		}
	}
}

// AssertNoFileContent checks that an output file contains none of the strings.
func (b *builder) AssertNoFileContent(name string, unwanted ...string) {
	b.t.Helper()
	got := b.File(name)
	for _, w := range unwanted {
		if strings.Contains(got, w) {
			b.t.Errorf("%s contains %q", name, w)
		}
	}
}

// Files lists the output files (slash paths) with their content.
func (b *builder) Files() map[string][]byte {
	b.t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(b.out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(b.out, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		b.t.Fatal(err)
	}
	return out
}

func (b *builder) golden(name, got string) {
	b.t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			b.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		b.t.Fatalf("%v (run go test ./generator -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		b.t.Errorf("%s differs from the golden file (-want +got); run go test ./generator -update if intended:\n%s", path, d)
	}
}

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
	sha3 = "3333333333333333333333333333333333333333"
	shaT = "7777777777777777777777777777777777777777"
)

// basicSite: three main-line commits, one try run, content pages in both
// front-matter dialects, a maintainers' triage note.
var basicSite = `
-- perfpages.toml --
[site]
title = "Test benchmarks"
repository = "https://github.com/example/project"

[analysis]
value = "best"   # the round numbers below are the best values

[[sources]]
dir = "results"
-- results/c1.json --
{"schema": "perfpages.run.v1",
 "artifact": {"id": "` + sha1 + `", "kind": "commit", "date": "2026-09-07T10:00:00Z", "branch": "main", "pr": 11, "title": "Add the parser (#11)"},
 "machine": {"name": "linux-x64", "os": "linux", "arch": "amd64"},
 "results": [
  {"benchmark": "json-decode", "params": {"size": "large"}, "metric": "wall-time", "unit": "ns", "samples": [1000, 1010, 1020]},
  {"benchmark": "json-decode", "params": {"size": "small"}, "metric": "wall-time", "unit": "ns", "samples": [100, 101]},
  {"benchmark": "stress", "category": "secondary", "metric": "max-rss", "unit": "bytes", "samples": [4096000]}
 ]}
-- results/c2.yaml --
schema: perfpages.run.v1
artifact: {id: "` + sha2 + `", kind: commit, date: "2026-09-08T10:00:00Z", parents: ["` + sha1 + `"], branch: main, pr: 12, title: "Speed up decoding (#12)"}
machine: {name: linux-x64, os: linux, arch: amd64}
results:
  - {benchmark: json-decode, params: {size: large}, metric: wall-time, unit: ns, samples: [900, 905]}
  - {benchmark: json-decode, params: {size: small}, metric: wall-time, unit: ns, samples: [110, 111]}
  - {benchmark: stress, category: secondary, metric: max-rss, unit: bytes, samples: [4096000]}
-- results/c3.toml --
schema = "perfpages.run.v1"
[artifact]
id = "` + sha3 + `"
kind = "commit"
date = 2026-09-15T10:00:00Z
parents = ["` + sha2 + `"]
branch = "main"
pr = 13
title = "Break the small case (#13)"
[machine]
name = "linux-x64"
[[results]]
benchmark = "json-decode"
params = {size = "large"}
metric = "wall-time"
unit = "ns"
samples = [901.0, 903.0]
[[results]]
benchmark = "json-decode"
params = {size = "small"}
metric = "wall-time"
unit = "ns"
error = "exit status 2"
-- results/try.json --
{"schema": "perfpages.run.v1",
 "artifact": {"id": "` + shaT + `", "kind": "try", "date": "2026-09-16T10:00:00Z", "pr": 14, "title": "Try a new allocator", "baseline": "` + sha3 + `", "branch": "feature/alloc"},
 "machine": {"name": "linux-x64"},
 "results": [{"benchmark": "json-decode", "params": {"size": "large"}, "metric": "wall-time", "unit": "ns", "samples": [850]}]}
-- content/about.md --
---
title: About these benchmarks
menu: true
weight: 1
---
# About

See the [latest commit](/commit/` + sha3 + `/).
-- content/guide/setup.md --
+++
title = "Setup"
+++
Set it up.
-- content/_index.md --
Welcome to the **test** dashboard.
-- content/triage/2026-09-07.md --
The decoding speed-up was expected.
`

// rustcPerfSite is basicSite under model rustc-perf, which judges its
// three commits' pairs at once: the pages' verdicts (a mixed PR, a triage
// entry) need it. Under model perfpages three commits are too few for a
// noise model: TestSiteGolden shows what that site looks like.
var rustcPerfSite = strings.Replace(basicSite, "[analysis]\n", "[analysis]\nmodel = \"rustc-perf\"\n", 1)

func TestSiteRoutes(t *testing.T) {
	b := siteTest(t, rustcPerfSite)
	if len(b.report.Warnings) != 0 {
		t.Errorf("warnings: %v", b.report.Warnings)
	}
	b.AssertFileContent("index.html", "Test benchmarks", "Welcome to the <strong>test</strong> dashboard", "linux-x64", "Recent relevant comparisons", "Week of 2026-09-14", "Latest commits")
	// The commit page compares with the parent, with before, after and change.
	b.AssertFileContent("commit/"+sha2+"/index.html",
		"Speed up decoding (#12)", "#11", "1 µs", "900 ns", "-10.00%", "&#43;10.00%", "row-json-decode-size-large-wall-time-linux-x64",
		`href="https://github.com/example/project/commit/`+sha2+`"`,
		`href="/compare/`+sha1+`...`+sha2+`/"`, "1 more test cases without a relevant change")
	b.AssertFileContent("commit/"+sha3+"/index.html", "Failed benchmarks", "exit status 2")
	b.AssertFileContent("commit/"+sha1+"/index.html", "first benchmarked commit")
	// The commit page shows this pair: its /compare/ URL redirects there.
	b.AssertFileContent("compare/"+sha1+"..."+sha2+"/index.html", `<meta http-equiv="refresh" content="0; url=/commit/`+sha2+`/">`, `<link rel="canonical" href="/commit/`+sha2+`/">`)
	b.AssertNoFileContent("sitemap.xml", "compare/"+sha1)
	// PR pages: merged PRs compare with the predecessor; open ones show try runs.
	// A merged PR's page gives the verdicts and links to its commit's page,
	// which shows the comparison.
	b.AssertFileContent("pr/12/index.html", "PR #12: Speed up decoding (#12)", "wall-time: mixed", `href="/commit/`+sha2+`/"`, `href="https://github.com/example/project/pull/12"`)
	b.AssertNoFileContent("pr/12/index.html", "-10.00%", `<table class="rows">`)
	b.AssertFileContent("pr/14/index.html", "Try runs", "Not merged", "-5.66%", `href="/compare/`+sha3+`...`+shaT+`/"`)
	b.AssertFileContent("compare/"+sha3+"..."+shaT+"/index.html", `url=/pr/14/`)
	// Benchmark history.
	// Benchmark pages name their series; values are in the data files.
	b.AssertFileContent("bench/json-decode/index.html", "size", "large", "<summary>History table</summary>", `data-bench="json-decode"`)
	// json-decode has one series: its values are in its pack's files.
	b.AssertFileContent(route.PackData(shard.Pack("json-decode"), 0), `"v":[100,110,null,1000,900,901]`, "exit status 2")
	b.AssertFileContent(route.SeriesIndex("json-decode"), `"anchor":"row-json-decode-size-large-wall-time-linux-x64-`, fmt.Sprintf(`"pack":%d`, shard.Pack("json-decode")))
	b.AssertFileContent("bench/index.html", `href="/bench/json-decode/"`, `href="/bench/stress/"`)
	// Triage weeks (Mondays) with the maintainers' notes merged in.
	b.AssertFileContent("triage/index.html", `<a href="/triage/2026-09-14/">2026-09-14</a>`, `<a href="/triage/2026-09-07/">2026-09-07</a>`, "0 Regressions, 0 Improvements, 1 Mixed")
	b.AssertFileContent("triage/2026-09-07/index.html", "The decoding speed-up was expected", "1 artifact comparisons made in total")
	// A +0.1 % change under the default 0.2 % threshold is not triaged.
	b.AssertFileContent("triage/2026-09-14/index.html", "0 Regressions, 0 Improvements, 0 Mixed; 0 of them in rollups", "1 artifact comparisons made in total")
	b.AssertFileContent("triage/2026-09-07/index.html", "0 Regressions, 0 Improvements, 1 Mixed", "Speed up decoding (#12)", `href="https://github.com/example/project/pull/12"`)
	b.AssertFileContent("triage/2026-09-07.md", "# 2026-09-07 Triage Log", "The decoding speed-up was expected.", "| (wall-time)")
	b.AssertFileContent("triage/index.xml", "<title>Triage report for the week of 2026-09-14</title>", "0 Regressions, 0 Improvements, 1 Mixed")
	// Every comparison's JSON comes from perfpages compare, which the page
	// names; the site does not publish one per comparison.
	b.AssertFileContent("commit/"+sha2+"/index.html", "perfpages compare -format json "+sha1+" "+sha2)
	// Content pages from YAML and TOML front matter; site-absolute links in Markdown.
	b.AssertFileContent("about/index.html", "<h1 id=\"about\">About</h1>", `href="/commit/`+sha3+`/"`, "<title>About these benchmarks · Test benchmarks</title>")
	b.AssertFileContent("guide/setup/index.html", "Set it up.", "<title>Setup · Test benchmarks</title>")
	b.AssertFileContent("index.html", `<a href="/about/">About these benchmarks</a>`)
	b.AssertFileContent("404.html", "Page not found")
	b.AssertFileContent("sitemap.xml", "<loc>/commit/"+sha2+"/</loc>", "<loc>/about/</loc>")
	b.AssertNoFileContent("sitemap.xml", "404")
	b.AssertFileContent("assets/css/site.css", "prefers-color-scheme: dark")
	_ = b.File(".nojekyll")
}

// TestSiteGolden pins one whole rendered commit page.
func TestSiteGolden(t *testing.T) {
	b := siteTest(t, basicSite)
	b.golden("commit-page.golden.html", b.File("commit/"+sha2+"/index.html"))
}

func TestSiteDeterministic(t *testing.T) {
	a := siteTest(t, basicSite).Files()
	b := siteTest(t, basicSite).Files()
	if len(a) != len(b) {
		t.Fatalf("%d files vs %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds of the same input", name)
		}
	}
}

var hrefRe = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

func TestSiteBasePath(t *testing.T) {
	site := strings.Replace(basicSite, `title = "Test benchmarks"`, `title = "Test benchmarks"`+"\nbase_url = \"https://example.github.io/bench/\"", 1)
	b := siteTest(t, site)
	for name, data := range b.Files() {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, m := range hrefRe.FindAllStringSubmatch(string(data), -1) {
			link := m[1]
			if strings.HasPrefix(link, "#") || strings.HasPrefix(link, "https://") || link == "data:," {
				continue
			}
			if !strings.HasPrefix(link, "/bench/") {
				t.Errorf("%s: link %q is not under the base path /bench/", name, link)
			}
		}
	}
	b.AssertFileContent("about/index.html", `href="/bench/commit/`+sha3+`/"`)
	b.AssertFileContent("sitemap.xml", "<loc>https://example.github.io/bench/commit/"+sha2+"/</loc>")
	b.AssertFileContent("404.html", `href="/bench/assets/css/site.css"`)
}

func TestSiteHostileNames(t *testing.T) {
	long := strings.Repeat("ベンチマーク", 60)
	site := `
-- perfpages.toml --
[[sources]]
dir = "results"
-- results/a.json --
` + hostileRun(sha1, "2026-09-07T10:00:00Z", "", long) + `
-- results/b.json --
` + hostileRun(sha2, "2026-09-08T10:00:00Z", sha1, long)
	b := siteTest(t, site)
	files := b.Files()
	for name, data := range files {
		if !filepath.IsLocal(name) || slices.Contains(strings.Split(name, "/"), "..") || strings.ContainsAny(name, "<>\"'\x00\\") {
			t.Errorf("unsafe output path %q", name)
		}
		if len(filepath.Base(name)) > 120 {
			t.Errorf("output name too long: %q", name)
		}
		if (strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".xml")) && (strings.Contains(string(data), "<script>alert") || strings.Contains(string(data), `"><img`)) {
			t.Errorf("%s: data injected markup", name)
		}
		// No name reorders a page or what its script shows: the
		// bidirectional characters are shown as escapes everywhere.
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if i := strings.IndexFunc(string(data), inert.IsBidi); i >= 0 {
			t.Errorf("%s: bidirectional character at byte %d: %q", name, i, data[max(0, i-40):min(len(data), i+40)])
		}
	}
	// Nothing was written outside the output folder.
	entries, _ := os.ReadDir(b.dir)
	for _, e := range entries {
		switch e.Name() {
		case "perfpages.toml", "results", "public", ".perfpages-cache":
		default:
			t.Errorf("unexpected entry %q next to the output", e.Name())
		}
	}
	page := b.File("bench/index.html")
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the script name is not shown escaped")
	}
	if !strings.Contains(page, "../../etc/passwd") {
		t.Errorf("the path-like benchmark name is not shown")
	}
	if !strings.Contains(page, `evil\u202etxt.exe\u2066`) {
		t.Errorf("the benchmark with bidirectional characters is not shown with them escaped")
	}
}

func hostileRun(sha, date, parent, long string) string {
	parents := ""
	if parent != "" {
		parents = `"parents": ["` + parent + `"],`
	}
	return `{"schema": "perfpages.run.v1",
 "artifact": {"id": "` + sha + `", "date": "` + date + `", ` + parents + ` "title": "<script>alert(1)</script> \"quoted\" \u202ereversed"},
 "machine": {"name": "../m<b>\u2067"},
 "results": [
  {"benchmark": "../../etc/passwd", "metric": "wall-time", "unit": "ns", "samples": [1]},
  {"benchmark": "<script>alert(1)</script>", "params": {"\"><img src=x>": "../x"}, "metric": "m\"", "unit": "ns", "samples": [2]},
  {"benchmark": "nul\u0000byte/slash\\back", "metric": "wall-time", "unit": "ns", "samples": [3]},
  {"benchmark": ".", "metric": "wall-time", "unit": "ns", "samples": [4]},
  {"benchmark": "..", "metric": "wall-time", "unit": "ns", "samples": [5]},
  {"benchmark": "` + long + `", "metric": "wall-time", "unit": "ns", "samples": [6]},
  {"benchmark": "evil\u202etxt.exe\u2066", "params": {"k\u200f": "v\u061c\u001b[31m"}, "metric": "wall-time", "unit": "ns", "samples": [7]}
 ],
 "context": {"toolchain": "go\u202e1.26"}}`
}

func TestSiteBadArchiveSkipped(t *testing.T) {
	site := basicSite + `
-- results/broken.json --
{"schema": "perfpages.run.v1", "artifact": {
-- results/unknown.json --
{"schema": "perfpages.run.v1", "colour": "red",
 "artifact": {"id": "4444444444444444444444444444444444444444", "date": "2026-09-17T10:00:00Z", "parents": ["` + sha3 + `"], "branch": "main"},
 "machine": {"name": "linux-x64"},
 "results": [{"benchmark": "json-decode", "params": {"size": "large"}, "metric": "wall-time", "unit": "ns", "samples": [903]}]}
`
	b := siteTest(t, site)
	var msgs []string
	for _, w := range b.report.Warnings {
		msgs = append(msgs, w.Error())
	}
	joined := strings.Join(msgs, "\n")
	if !strings.Contains(joined, "broken.json") || !strings.Contains(joined, `unknown.json`) || !strings.Contains(joined, "colour") {
		t.Errorf("warnings do not name the files and field:\n%s", joined)
	}
	// The rest is built, including the file with only an unknown field.
	b.AssertFileContent("commit/4444444444444444444444444444444444444444/index.html", "Commit 4444444")
	b.AssertFileContent(route.PackData(shard.Pack("json-decode"), 0), ",903]")
	b.AssertFileContent("index.html", "problems in the input were skipped", "broken.json")

	// Strict: the same input fails and leaves the previous site untouched.
	before := b.Files()
	b.build(true)
	if b.err == nil {
		t.Fatal("strict build succeeded despite warnings")
	}
	if d := cmp.Diff(before, b.Files()); d != "" {
		t.Errorf("a failed strict build changed the site:\n%s", d)
	}
}

func TestSiteFailedBuildKeepsPreviousSite(t *testing.T) {
	b := siteTest(t, basicSite+"\n-- themes/broken/layouts/commit.html --\n{{define \"main\"}}{{.NoSuchField}}{{end}}\n")
	before := b.Files()
	cfg := filepath.Join(b.dir, "perfpages.toml")
	data, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(data, []byte("[site]\n"), []byte("[site]\ntheme = \"broken\"\n"), 1), 0o644)
	b.build(false)
	if b.err == nil || !strings.Contains(b.err.Error(), "NoSuchField") {
		t.Fatalf("err = %v, want a template error naming the field", b.err)
	}
	if d := cmp.Diff(before, b.Files()); d != "" {
		t.Errorf("a failed build changed the site:\n%s", d)
	}
	matches, _ := filepath.Glob(filepath.Join(b.dir, ".public.tmp-*"))
	if len(matches) > 0 {
		t.Errorf("temporary folders left behind: %v", matches)
	}
}

func TestSiteThemeOverride(t *testing.T) {
	site := strings.Replace(basicSite, "[site]\n", "[site]\ntheme = \"mine\"\n", 1) + `
-- themes/mine/layouts/_partials/artifact.html --
{{define "artifact-link"}}<b class="mine">{{.Label}}</b>{{end}}
{{define "artifact-card"}}<div class="mine-card">{{.Title}}</div>{{end}}
{{define "params"}}{{range .}}{{.Key}}:{{.Value}} {{end}}{{end}}
-- themes/mine/static/css/site.css --
body { color: hotpink; }
-- themes/mine/static/extra.txt --
extra
`
	b := siteTest(t, site)
	b.AssertFileContent("commit/"+sha2+"/index.html", `<div class="mine-card">Speed up decoding (#12)</div>`)
	b.AssertFileContent("assets/css/site.css", "hotpink")
	b.AssertFileContent("assets/extra.txt", "extra")
	b.AssertFileContent("assets/js/site.js", "progressive enhancement")
}

func TestDemoBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the demo site")
	}
	s, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	rep, err := s.Build(context.Background(), BuildOptions{Out: out, Strict: true})
	if err != nil {
		t.Fatalf("demo build: %v (warnings: %v)", err, rep.Warnings)
	}
	if rep.Pages < 300 {
		t.Errorf("demo has only %d pages", rep.Pages)
	}
	for _, p := range []string{"index.html", "triage/index.html", "bench/index.html", "guide/index.html", "about/index.html", "404.html"} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Error(err)
		}
	}
	// A week's revision range has no other page: its comparison is a full page.
	week := filepath.Join(out, "triage", "2026-09-28", "index.html")
	data, err := os.ReadFile(week)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Revision range: <a href="/(compare/[^"]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no revision range link in the week of 2026-09-28")
	}
	rng := &builder{t: t, out: out}
	rng.AssertFileContent(string(m[1])+"index.html", "Comparing #", "sort", "-7.0")

	// Every internal link of every page resolves to a file of the site,
	// and every #fragment to an id on the page it points to.
	b := &builder{t: t, out: out}
	files := b.Files()
	idRe := regexp.MustCompile(`\sid="([^"]+)"`)
	ids := map[string]map[string]bool{} // page file → its ids
	idsOf := func(name string) map[string]bool {
		if m, ok := ids[name]; ok {
			return m
		}
		m := map[string]bool{}
		for _, x := range idRe.FindAllStringSubmatch(string(files[name]), -1) {
			m[html.UnescapeString(x[1])] = true
		}
		ids[name] = m
		return m
	}
	links, anchors := 0, 0
	for name, data := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		for _, m := range hrefRe.FindAllStringSubmatch(string(data), -1) {
			link := html.UnescapeString(m[1])
			page := name
			path, frag, hasFrag := strings.Cut(link, "#")
			// A query fills in a form (the compare form's pair): the
			// page is the path without it.
			path, _, _ = strings.Cut(path, "?")
			switch {
			case path == "" && hasFrag:
				// Same page.
			case strings.HasPrefix(path, "/"):
				links++
				target := strings.TrimPrefix(path, "/")
				if target == "" || strings.HasSuffix(target, "/") {
					target += "index.html"
				}
				if _, ok := files[target]; !ok {
					t.Errorf("%s links to %s, which does not exist", name, m[1])
					continue
				}
				page = target
			default:
				continue
			}
			if hasFrag && frag != "" {
				anchors++
				if !idsOf(page)[frag] {
					t.Errorf("%s links to %s, but %s has no id %q", name, m[1], page, frag)
				}
			}
		}
	}
	t.Logf("%d internal links and %d anchors checked", links, anchors)
	checkDemoRegressions(t, b)
}

// The dashboard lists what fails at the latest commit, new failures marked,
// and each machine's latest result.
func TestSiteDashboardFailing(t *testing.T) {
	b := siteTest(t, basicSite)
	b.AssertFileContent("index.html",
		"<h2>Failing benchmarks</h2>", `<span class="badge new">new</span>`, "<code>exit status 2</code>",
		`href="/commit/`+sha3+`/" class="verdict-`)
}

// A source of another tool's files: the artifact pattern gives each file
// its commit, date and machine; files it does not match are ignored.
func TestSiteForeignSource(t *testing.T) {
	bench := func(ns string) string {
		return "goos: linux\ngoarch: amd64\npkg: example.com/x\nBenchmarkParse/size=small-8 \t1000\t" + ns + " ns/op\t64 B/op\t2 allocs/op\n" +
			"BenchmarkParse/size=small-8 \t1000\t" + ns + " ns/op\t64 B/op\t2 allocs/op\nPASS\n"
	}
	b := siteTest(t, `
-- perfpages.toml --
[[sources]]
dir = "results"
format = "gobench"
artifact = "{date}/{sha}/{machine}.txt"
-- results/README.md --
Not a result file.
-- results/2026-11-19/`+sha1+`/linux-ci.txt --
`+bench("1000")+`
-- results/2026-11-20/`+sha2+`/linux-ci.txt --
`+bench("1300")+`
`)
	if len(b.report.Warnings) != 0 {
		t.Errorf("warnings: %v", b.report.Warnings)
	}
	b.AssertFileContent("commit/"+sha2+"/index.html", "Parse", "size", "linux-ci", "&#43;30.00%")
}

// Names that would share a path never fail a build: the route table gives
// them distinct paths, or skips a content page, and warns naming the
// input.
func TestSiteCollidingNames(t *testing.T) {
	run := func(id, date, parent, kind string, benches ...string) string {
		var rs []string
		for i, b := range benches {
			rs = append(rs, fmt.Sprintf(`{"benchmark": %q, "metric": "wall-time", "unit": "ns", "samples": [%d]}`, b, 100+i))
		}
		parents := ""
		if parent != "" {
			parents = `"parents": ["` + parent + `"],`
		}
		return `{"schema": "perfpages.run.v1", "artifact": {"id": "` + id + `", "kind": "` + kind + `", "date": "` + date + `", ` + parents + ` "branch": "main"},
 "machine": {"name": "m"}, "results": [` + strings.Join(rs, ",") + `]}`
	}
	benches := []string{"http router", "http-router-4b0e9a36", "index.html", "json-decode"}
	site := `
-- perfpages.toml --
[[sources]]
dir = "results"
-- results/a.json --
` + run(sha1, "2026-09-07T10:00:00Z", "", "commit", benches...) + `
-- results/b.json --
` + run(sha2, "2026-09-08T10:00:00Z", sha1, "commit", benches...) + `
-- results/tag1.json --
` + run("V1.0", "2026-09-09T10:00:00Z", "", "tag", "json-decode") + `
-- results/tag2.json --
` + run("v1.0-35a6fd96", "2026-09-10T10:00:00Z", "", "tag", "json-decode") + `
-- content/about.md --
# About
-- content/about/index.md --
# About again
-- content/404.html.md --
# Not the 404 page
`
	b := siteTest(t, site)
	var msgs []string
	for _, w := range b.report.Warnings {
		msgs = append(msgs, w.Error())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"results/a.json", "about/index.md", "404.html.md"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning names %s:\n%s", want, joined)
		}
	}
	b.AssertFileContent("bench/http-router-4b0e9a36/index.html", "http-router-4b0e9a36")
	b.AssertFileContent("bench/index.html", "http router", "index.html")
	b.AssertFileContent("about/index.html", "About")
	b.AssertNoFileContent("about/index.html", "About again")
	b.AssertFileContent("404.html", "Page not found")
	if strings.Contains(b.File("bench/index.html"), `href="/bench/index.html/"`) {
		t.Error("a benchmark named index.html took /bench/index.html/")
	}
}

// firstRunSite is a first run: one archive, one commit.
var firstRunSite = `
-- perfpages.toml --
[site]
title = "First run"

[[sources]]
dir = "results"
-- results/run.json --
{"schema": "perfpages.run.v1",
 "artifact": {"id": "` + sha1 + `", "kind": "commit", "date": "2026-10-05T03:00:00Z", "branch": "main", "title": "First commit"},
 "machine": {"name": "linux-x64", "os": "linux", "arch": "amd64"},
 "results": [
  {"benchmark": "parse", "params": {"size": "small"}, "metric": "wall-time", "unit": "ns", "samples": [1000, 1010, 990]},
  {"benchmark": "parse", "params": {"size": "large"}, "metric": "wall-time", "unit": "ns", "samples": [3000, 3010, 2990]},
  {"benchmark": "decode", "metric": "allocs", "unit": "count", "samples": [5]}
 ]}
`

var (
	// emptyBody is a table body without rows; templates (filled by the
	// script) are left out before looking.
	emptyBody = regexp.MustCompile(`<tbody>\s*</tbody>`)
	templates = regexp.MustCompile(`(?s)<template.*?</template>`)
	// historyTable is a benchmark page's history table, which the script
	// fills from the data files (its noscript note says so).
	historyTable = regexp.MustCompile(`(?s)<table class="history[^"]*">.*?</table>`)
)

// A first run with one archive reads sensibly on every page: no table
// with headers and no rows, no promise of rows that are not there; the
// regressions page says why it is empty, with the number of results a
// step needs on each side from the step detection options.
func TestSiteFirstRun(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		need         int
	}{
		{"defaults", "", changepoint.DefaultOptions.MinSegment},
		{"min_segment set", "\n[analysis.steps]\nmin_segment = 5\n", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := siteTest(t, strings.Replace(firstRunSite, "dir = \"results\"\n", "dir = \"results\"\n"+tc.config, 1))
			pages := 0
			for name, data := range b.Files() {
				if !strings.HasSuffix(name, ".html") {
					continue
				}
				pages++
				page := historyTable.ReplaceAllString(templates.ReplaceAllString(string(data), ""), "")
				if emptyBody.MatchString(page) {
					t.Errorf("%s has a table without rows", name)
				}
				for _, promise := range []string{"in the tables below", "0 steps found", "relevance <strong></strong>"} {
					if strings.Contains(page, promise) {
						t.Errorf("%s says %q", name, promise)
					}
				}
			}
			if pages < 8 {
				t.Errorf("%d pages built", pages)
			}
			b.AssertFileContent("regressions/index.html", fmt.Sprintf("a step needs at least %d main-line results on each side", tc.need), "the main line has 1 benchmarked commit so far")
			b.AssertNoFileContent("regressions/index.html", "Open regressions")
			b.AssertFileContent("index.html", "Latest commits", "first commit: nothing to compare with yet", "1 main-line commit,")
			b.AssertFileContent("commit/"+sha1+"/index.html", "Its results are listed below", `<details class="other-rows" open`)
			b.AssertFileContent("prs/index.html", "No pull request has results yet")
			b.AssertFileContent("triage/index.html", "No report yet")
		})
	}
}
