package generator

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/config"
)

// steppedSite is 24 main-line commits on one machine: "parse" wall-time
// rises 10 % at commit 12 (PR #112), "steady" never moves. The values carry
// a little exact noise.
func steppedSite(extraConfig string) string {
	var b strings.Builder
	b.WriteString("-- perfpages.toml --\n[site]\ntitle = \"Steps\"\nrepository = \"https://github.com/example/project\"\n\n" +
		extraConfig + "\n[[sources]]\ndir = \"results\"\n")
	for i := range 24 {
		parse := 1000 * (1 + 0.001*float64((i*7)%5-2))
		if i >= 12 {
			parse *= 1.10
		}
		steady := 300 * (1 + 0.001*float64((i*7+3)%5-2))
		parents := ""
		if i > 0 {
			parents = fmt.Sprintf(`, "parents": ["%s"]`, steppedSHA(i-1))
		}
		fmt.Fprintf(&b, `-- results/c%02d.json --
{"schema": "perfpages.run.v1",
 "artifact": {"id": "%s", "kind": "commit", "date": "2026-09-%02dT10:00:00Z", "branch": "main", "pr": %d, "title": "Change %d"%s},
 "machine": {"name": "linux-x64"},
 "results": [
  {"benchmark": "parse", "metric": "wall-time", "unit": "ns", "samples": [%v]},
  {"benchmark": "steady", "metric": "wall-time", "unit": "ns", "samples": [%v]}
 ]}
`, i, steppedSHA(i), i+1, 100+i, i, parents, parse, steady)
	}
	return b.String()
}

func steppedSHA(i int) string { return strings.Repeat(fmt.Sprintf("%02x", 0xc0+i), 20) }

var snippetRe = regexp.MustCompile(`(?s)<details class="step-snippet"><summary>[^<]*</summary><pre>(.*?)</pre>`)

// The step of a site is an open regression on /regressions/, with its
// range, its comparison, its series and the annotations.yaml entry that
// accepts it. Pasted into annotations.yaml, that entry acknowledges it:
// the next build lists the step as an accepted distribution change and no
// longer as open, and its feed no longer carries it.
func TestRegressionsSnippetRoundTrip(t *testing.T) {
	b := siteTest(t, steppedSite("[analysis]\nannotations = \"annotations.yaml\"\n"))
	page := b.File("regressions/index.html")
	want := steppedSHA(12)
	b.AssertFileContent("regressions/index.html",
		`id="regression-`+want+`-`+steppedSHA(11)+`"`, `href="/commit/`+want+`/">Compare #111 … #112</a>`,
		`href="https://github.com/example/project/compare/`+steppedSHA(11)+`...`+want+`"`,
		`<a href="/bench/parse/#series-wall-time-linux-x64-`, "&#43;10.00%", `<svg class="sparkline"`, "Open improvements <small>0 in 0 ranges")
	b.AssertNoFileContent("regressions/index.html", ">steady<")
	b.AssertFileContent("regressions/feed.xml", "<title>Steps: regressions</title>", "#112 Change 12: parse wall-time on linux-x64 +10.00%")
	// The bench page lists and marks it.
	b.AssertFileContent("bench/parse/index.html", `Steps: <a class="regression" href="/commit/`+want+`/">&#43;10.00% at #112</a>`, `&#34;steps&#34;:[{&#34;pos&#34;:12`)
	// The week's triage report lists it, though no comparison is kept.
	b.AssertFileContent("triage/2026-09-07.md", "#### Steps\n\n1 step change begins in this week", "| +10.00% regression | `parse` | wall-time | linux-x64 | [\\#112](/commit/"+want+"/) |")

	m := snippetRe.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no annotations.yaml snippet on the regressions page")
	}
	snippet := html.UnescapeString(m[1])
	if _, err := ParseAnnotations("snippet", []byte(snippet)); err != nil {
		t.Fatalf("the snippet does not parse: %v\n%s", err, snippet)
	}
	if err := os.WriteFile(filepath.Join(b.dir, "annotations.yaml"), []byte(snippet), 0o644); err != nil {
		t.Fatal(err)
	}
	b.build(true)
	if b.err != nil {
		t.Fatalf("build with the snippet: %v (warnings %v)", b.err, b.report.Warnings)
	}
	b.AssertFileContent("regressions/index.html", "Open regressions <small>0 in 0 ranges", "Acknowledged: 0 steps, 1 accepted distribution changes",
		"benchmark parse, metric wall-time, machine linux-x64: <a href=\"/bench/parse/#series-wall-time-linux-x64-")
	b.AssertNoFileContent("regressions/feed.xml", "<entry>")
	b.AssertNoFileContent("bench/parse/index.html", "Steps: ")

	// An "acknowledged" entry keeps the step, under Acknowledged with its
	// note, and no longer open.
	ack := "acknowledged:\n  - artifact: " + want[:10] + "\n    benchmark: parse\n    note: \"worth it\"\n"
	if err := os.WriteFile(filepath.Join(b.dir, "annotations.yaml"), []byte(ack), 0o644); err != nil {
		t.Fatal(err)
	}
	b.build(true)
	if b.err != nil {
		t.Fatal(b.err)
	}
	b.AssertFileContent("regressions/index.html", "Open regressions <small>0 in 0 ranges", "Acknowledged: 1 steps, 0 accepted",
		`<span class="badge ack">acknowledged</span> worth it`)
	b.AssertFileContent("bench/parse/index.html", `<span class="badge ack">acknowledged</span>`)
	b.AssertFileContent("triage/2026-09-07.md", "1 acknowledged in annotations.yaml", "| worth it |")
}

// atomFeed is what a feed reader needs of an Atom feed.
type atomFeed struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string   `xml:"title"`
	ID      string   `xml:"id"`
	Updated string   `xml:"updated"`
	Author  string   `xml:"author>name"`
	Links   []struct {
		Rel  string `xml:"rel,attr"`
		Href string `xml:"href,attr"`
	} `xml:"link"`
	Entries []struct {
		Title   string `xml:"title"`
		ID      string `xml:"id"`
		Updated string `xml:"updated"`
		Summary string `xml:"summary"`
		Link    struct {
			Href string `xml:"href,attr"`
		} `xml:"link"`
	} `xml:"entry"`
}

// checkFeed decodes an Atom feed and checks what readers rely on: a
// title, id and date on the feed and on each entry, unique entry ids, a
// link on each entry, an author.
func checkFeed(t *testing.T, name string, data []byte) atomFeed {
	t.Helper()
	var f atomFeed
	if err := xml.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if f.Title == "" || f.ID == "" || f.Updated == "" || f.Author == "" {
		t.Errorf("%s: feed without title, id, updated or author: %+v", name, f)
	}
	seen := map[string]bool{}
	for _, e := range f.Entries {
		if e.Title == "" || e.ID == "" || e.Updated == "" || e.Link.Href == "" {
			t.Errorf("%s: incomplete entry %+v", name, e)
		}
		if seen[e.ID] {
			t.Errorf("%s: two entries with id %s", name, e.ID)
		}
		seen[e.ID] = true
	}
	return f
}

// checkDemoRegressions checks the demo site's regressions page against the
// changes the demo plants (content/about.md): every planted step of a
// benchmark shows in its list, the spike does not, the acknowledged
// json-decode cost and the accepted router slowdown are filed apart, and
// the feed is valid Atom. (TestDemoBuilds checks that every link of the
// page resolves.)
func checkDemoRegressions(t *testing.T, b *builder) {
	page := b.File("regressions/index.html")
	section := func(id string) string {
		i := strings.Index(page, `id="`+id+`"`)
		if i < 0 {
			t.Fatalf("no section %s on /regressions/", id)
		}
		end := len(page)
		for _, next := range []string{`<section class="steps"`, `<details class="steps`} {
			if j := strings.Index(page[i+1:], next); j >= 0 && i+1+j < end {
				end = i + 1 + j
			}
		}
		return page[i:end]
	}
	groupRe := regexp.MustCompile(`(?s)<div class="step-group" id="[^"]+">\s*<h3><a [^>]*>(#\d+)</a>(.*?)</table>`)
	benchRe := regexp.MustCompile(`<td><a href="/bench/([^/]+)/#series-`)
	lists := map[string]map[string]map[string]bool{} // section → PR → benchmarks
	for _, id := range []string{"open-regressions", "open-improvements", "acknowledged"} {
		lists[id] = map[string]map[string]bool{}
		for _, g := range groupRe.FindAllStringSubmatch(section(id), -1) {
			if lists[id][g[1]] == nil {
				lists[id][g[1]] = map[string]bool{}
			}
			for _, m := range benchRe.FindAllStringSubmatch(g[2], -1) {
				lists[id][g[1]][m[1]] = true
			}
		}
	}
	for _, p := range []struct{ list, pr, bench string }{
		{"open-regressions", "#1540", "regex-compile"}, // hidden in a rollup
		{"open-regressions", "#1481", "deep-nesting"},  // secondary benchmarks only
		{"open-regressions", "#1384", "sort"},          // mixed: small inputs slower…
		{"open-improvements", "#1384", "sort"},         // … large ones faster
		{"open-improvements", "#1331", "compile"},      // -3 % instructions
		{"open-improvements", "#1456", "compile"},      // -20 % max-rss
		{"open-improvements", "#1556", "json-encode"},  // -10 % wall time, +11 % throughput
		{"open-improvements", "#1596", "gzip"},         // ARM only
		{"acknowledged", "#1318", "json-decode"},       // acknowledged in annotations.yaml
	} {
		if !lists[p.list][p.pr][p.bench] {
			t.Errorf("%s: no %s step of %s; the list has %v", p.list, p.pr, p.bench, lists[p.list])
		}
	}
	for id, l := range lists {
		if l["#1471"] != nil {
			t.Errorf("%s lists #1471's one-commit spike as a step", id)
		}
	}
	// PR #1347's slowdown is an accepted distribution change: no step.
	acc := section("acknowledged")
	if !strings.Contains(acc, "benchmark http-router, params {routes=1000}, metric wall-time, machine linux-arm64-graviton") || !strings.Contains(acc, ">#1347</a>") {
		t.Error("the accepted distribution change of #1347 is not listed")
	}
	f := checkFeed(t, "regressions/feed.xml", []byte(b.File("regressions/feed.xml")))
	if len(f.Entries) == 0 || !strings.HasPrefix(f.Entries[0].Title, "#1540 Rollup of 6 pull requests:") {
		t.Errorf("the feed's newest entry is not #1540's rollup regression: %+v", f.Entries)
	}
	checkFeed(t, "triage/index.xml", []byte(b.File("triage/index.xml")))
	t.Logf("/regressions/: %d bytes; feed %d entries", len(page), len(f.Entries))
}

// A corrupt store of step detection states is a warning; the steps are
// detected again and the site is the same.
func TestCorruptStepsStore(t *testing.T) {
	b := siteTest(t, steppedSite(""))
	want := b.Files()
	path := filepath.Join(testStoreDir(t, b.dir, b.out), "steps.gob")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the build saved no step states: %v", err)
	}
	os.WriteFile(path, []byte("perfpages steps v1\ngarbage"), 0o644)
	os.WriteFile(filepath.Join(b.out, "note.txt"), []byte("x"), 0o644) // not up to date
	b.build(false)
	if b.err != nil {
		t.Fatal(b.err)
	}
	var msgs []string
	for _, w := range b.report.Warnings {
		msgs = append(msgs, w.Error())
	}
	if joined := strings.Join(msgs, "\n"); !strings.Contains(joined, "steps.gob") {
		t.Errorf("no warning about the corrupt step states:\n%s", joined)
	}
	for p, w := range b.Files() {
		if p != ".perfpages-site" && !bytes.Equal(want[p], w) {
			t.Errorf("%s differs after recomputing the steps", p)
		}
	}
}

// The store keeps a state per series for the next build, which resumes
// from them and finds the same steps; states of other options are not
// used.
func TestStepStates(t *testing.T) {
	b := siteTest(t, steppedSite(""))
	cfg, err := config.Load(filepath.Join(b.dir, "perfpages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	st := openTestStore(t, b.dir, b.out)
	site := &Site{Config: cfg}
	repos := site.gitRepos()
	defer repos.close()
	l, _, err := site.load(t.Context(), st, repos, nil)
	if err != nil {
		t.Fatal(err)
	}
	var saved []analysis.CachedSteps
	o := stepOptions{cfg}
	if !st.Load(stepsValue, o.key(), &saved) || len(saved) != len(l.d.Series) {
		t.Errorf("%d saved states for %d series", len(saved), len(l.d.Series))
	}
	// loadSteps loads them only for the options they were made with.
	other := *cfg
	other.Analysis.Steps.Window = 40
	if (stepOptions{&other}).key() == o.key() {
		t.Errorf("the states of other options have the same key %q", o.key())
	}
	var none []analysis.CachedSteps
	if st.Load(stepsValue, stepOptions{&other}.key(), &none) {
		t.Error("the states of other options were read")
	}
	cold := analysis.StepsBy(l.d, o.of, nil)
	steps, _ := detectSteps(st, l.d, o)
	if fmt.Sprint(steps) != fmt.Sprint(cold) || len(steps) != 1 {
		t.Errorf("steps from the saved states %v, cold %v", steps, cold)
	}
	if w := st.Warnings(); len(w) != 0 {
		t.Errorf("store warnings: %v", w)
	}
}

// A hostile benchmark name is escaped on the regressions page and in its
// feed, and its annotations.yaml entry still selects exactly its series.
func TestRegressionsHostileName(t *testing.T) {
	name := `<script>alert(1)</script> "q" 'a' ../x: {y}`
	quoted := strings.ReplaceAll(name, `"`, `\"`)
	b := siteTest(t, strings.ReplaceAll(steppedSite("[analysis]\nannotations = \"annotations.yaml\"\n"), `"benchmark": "parse"`, `"benchmark": "`+quoted+`"`))
	for _, f := range []string{"regressions/index.html", "regressions/feed.xml"} {
		b.AssertNoFileContent(f, "<script>alert")
		b.AssertFileContent(f, "&lt;script&gt;alert(1)")
	}
	m := snippetRe.FindStringSubmatch(b.File("regressions/index.html"))
	if m == nil {
		t.Fatal("no snippet")
	}
	snippet := html.UnescapeString(m[1])
	list, err := ParseAnnotations("snippet", []byte(snippet))
	if err != nil || len(list) != 1 || list[0].Benchmark != name {
		t.Fatalf("the snippet reads back as %+v, %v:\n%s", list, err, snippet)
	}
	os.WriteFile(filepath.Join(b.dir, "annotations.yaml"), []byte(snippet), 0o644)
	b.build(true)
	if b.err != nil {
		t.Fatal(b.err)
	}
	b.AssertFileContent("regressions/index.html", "Open regressions <small>0 in 0 ranges", "1 accepted distribution changes")
}
