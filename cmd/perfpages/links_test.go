package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// linkSite is a site whose documents link every kind of comparison: ids of
// its artifacts and the files of its configuration.
type linkSite struct {
	dir, config, out string
	commits          []string // main line, oldest first
	ids              map[string]bool
}

// siteBase is the site's URL: a project site under a sub-path, where a
// link that forgets the base path leaves the site.
const siteBase = "https://example.github.io/bench/"

// newLinkSite writes sixteen daily main-line commits over three weeks
// (Monday 2026-09-07 on) with a little noise and two steps that stay (a
// regression of one case on the 9th commit, an improvement of another on
// the 12th), a tag, a try run with a baseline that has results and one
// whose baseline has none (a PR opened on a commit the benchmarks have not
// run yet), and builds the site into out.
func newLinkSite(t *testing.T) *linkSite {
	t.Helper()
	dir := t.TempDir()
	s := &linkSite{dir: dir, config: filepath.Join(dir, "perfpages.toml"), out: filepath.Join(dir, "public"), ids: map[string]bool{}}
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("perfpages.toml", "[site]\ntitle = \"Links\"\nbase_url = \""+siteBase+"\"\n\n[[sources]]\ndir = \"results\"\n")
	type result struct {
		Benchmark string            `json:"benchmark"`
		Params    map[string]string `json:"params,omitempty"`
		Metric    string            `json:"metric"`
		Unit      string            `json:"unit"`
		Samples   []float64         `json:"samples"`
	}
	results := func(i int) []result {
		noise := func(k float64) float64 { return 1 + 0.002*math.Sin(float64(i)*2.3+k) }
		decode, encode, parse := 1000.0, 52000.0, 3.2e6
		if i >= 8 {
			decode *= 1.2 // the regression
		}
		if i >= 11 {
			encode *= 0.85 // the improvement
		}
		return []result{
			{"json-decode", map[string]string{"size": "large"}, "wall-time", "ns", []float64{decode * noise(0)}},
			{"json-encode", map[string]string{"size": "small"}, "wall-time", "ns", []float64{encode * noise(1)}},
			{"parse", nil, "cpu-ns", "cpu-ns/op", []float64{parse * noise(2)}},
		}
	}
	archive := func(name string, artifact map[string]any, res []result) {
		t.Helper()
		s.ids[artifact["id"].(string)] = true
		data, err := json.Marshal(map[string]any{"schema": "perfpages.run.v1", "artifact": artifact, "machine": map[string]string{"name": "linux-x64"}, "results": res})
		if err != nil {
			t.Fatal(err)
		}
		write(filepath.Join("results", name), string(data))
	}
	day := time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)
	for i := range 16 {
		sha := fmt.Sprintf("%040x", 0xc0ffee00+i)
		a := map[string]any{"id": sha, "kind": "commit", "date": day.AddDate(0, 0, i), "branch": "main", "pr": 100 + i, "title": fmt.Sprintf("Change %d (#%d)", i, 100+i)}
		if i > 0 {
			a["parents"] = []string{s.commits[i-1]}
		}
		s.commits = append(s.commits, sha)
		archive(fmt.Sprintf("c%02d.json", i), a, results(i))
	}
	archive("tag.json", map[string]any{"id": "v1.0", "kind": "tag", "date": day.AddDate(0, 0, 5).Add(time.Hour)}, results(5))
	try := results(15)
	try[0].Samples = []float64{1500}
	archive("try.json", map[string]any{"id": fmt.Sprintf("%040x", 0x7e57), "kind": "try", "date": day.AddDate(0, 0, 15).Add(time.Hour),
		"pr": 200, "title": "Try a new allocator", "baseline": s.commits[14]}, try)
	archive("orphan.json", map[string]any{"id": fmt.Sprintf("%040x", 0x0bad), "kind": "try", "date": day.AddDate(0, 0, 15).Add(2 * time.Hour),
		"pr": 201, "title": "Opened on a commit without results", "baseline": fmt.Sprintf("%040x", 0xdead)}, try)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"build", "-config", s.config, "-out", s.out}, &stdout, &stderr); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr.String())
	}
	return s
}

// perfpages runs the command in-process and returns its output.
func (s *linkSite) perfpages(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args = append([]string{args[0], "-config", s.config}, args[1:]...)
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("perfpages %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

var (
	mdLinkRe   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	hrefLinkRe = regexp.MustCompile(`href="([^"]+)"`)
	bareURLRe  = regexp.MustCompile(`(?m)^(https?://\S+)$`)
	idAttrRe   = regexp.MustCompile(`\sid="([^"]+)"`)
)

// links returns the URLs a document contains: Markdown link destinations,
// href attributes (the feed), lines that are a URL (compare's text
// format) and, in JSON, every string value that is a URL.
func links(t *testing.T, doc string) []string {
	t.Helper()
	var out []string
	if strings.HasPrefix(strings.TrimSpace(doc), "{") {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for _, x := range v {
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			case string:
				if strings.HasPrefix(v, "http") || strings.HasPrefix(v, "/") {
					out = append(out, v)
				}
			}
		}
		walk(v)
		return out
	}
	for _, re := range []*regexp.Regexp{mdLinkRe, hrefLinkRe, bareURLRe} {
		for _, m := range re.FindAllStringSubmatch(doc, -1) {
			out = append(out, html.UnescapeString(m[1]))
		}
	}
	return out
}

// resolve checks that link, found in doc, goes to a file of the site (its
// #fragment to an id on that page), or to the compare form with two of the
// site's artifacts filled in. It returns the site-relative file, "" for a
// link out of the site.
func (s *linkSite) resolve(t *testing.T, doc, link string) string {
	t.Helper()
	if !strings.HasPrefix(link, "http") {
		t.Errorf("%s: link %q is relative: on a site under %s it leaves the site", doc, link, siteBase)
		return ""
	}
	rest, ok := strings.CutPrefix(link, siteBase)
	if !ok {
		if u, err := url.Parse(link); err != nil || u.Host == "example.github.io" {
			t.Errorf("%s: link %q is on the site's host but outside its base %s", doc, link, siteBase)
		}
		return ""
	}
	path, frag, _ := strings.Cut(rest, "#")
	path, query, hasQuery := strings.Cut(path, "?")
	file := path
	if file == "" || strings.HasSuffix(file, "/") {
		file += "index.html"
	}
	data, err := os.ReadFile(filepath.Join(s.out, filepath.FromSlash(file)))
	if err != nil {
		t.Errorf("%s: link %q: the site has no %s", doc, link, file)
		return ""
	}
	if hasQuery {
		q, err := url.ParseQuery(query)
		if path != "compare/" || err != nil || !s.ids[q.Get("base")] || !s.ids[q.Get("head")] {
			t.Errorf("%s: link %q: a query is only for the compare form, with two of the site's artifacts", doc, link)
		}
	}
	if frag != "" {
		found := false
		for _, m := range idAttrRe.FindAllStringSubmatch(string(data), -1) {
			if html.UnescapeString(m[1]) == frag {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: link %q: %s has no id %q", doc, link, file, frag)
		}
	}
	return file
}

// TestDocumentLinksResolve: every link perfpages writes — the
// PR comment and compare's other formats, the triage report in Markdown
// and JSON, the site's Markdown reports and feed — goes to a file of the
// site it describes, an anchor to an id on that page, or to the compare
// form when the site does not pre-render the pair (a PR whose base has no
// results compared with an ancestor, a tag, commits that are not
// neighbours).
func TestDocumentLinksResolve(t *testing.T) {
	s := newLinkSite(t)
	c := s.commits
	try, orphan := fmt.Sprintf("%040x", 0x7e57), fmt.Sprintf("%040x", 0x0bad)
	docs := map[string]string{
		// The PR comments: a try run against its baseline, and (as the
		// action does when the base has no results) against an ancestor.
		"comment on pr/200":              s.perfpages(t, "compare", "-format", "markdown", "pr/200"),
		"comment on pr/201, an ancestor": s.perfpages(t, "compare", "-format", "markdown", c[13], orphan),
		"comment on pr/200, an ancestor": s.perfpages(t, "compare", "-format", "markdown", c[12], try),
		"compare, neighbours":            s.perfpages(t, "compare", "-format", "markdown", c[7], c[8]),
		"compare, far apart":             s.perfpages(t, "compare", "-format", "markdown", c[2], c[12]),
		"compare, a tag":                 s.perfpages(t, "compare", "-format", "markdown", "v1.0", c[12]),
		"compare text, far apart":        s.perfpages(t, "compare", c[2], c[12]),
		"compare json":                   s.perfpages(t, "compare", "-format", "json", c[7], c[8]),
		"feed":                           readFile(t, filepath.Join(s.out, "triage", "index.xml")),
	}
	for _, week := range []string{"2026-09-07", "2026-09-14", "2026-09-21"} {
		docs["triage "+week] = s.perfpages(t, "triage", "-week", week)
		docs["triage json "+week] = s.perfpages(t, "triage", "-week", week, "-format", "json")
		docs["triage "+week+" on the site"] = readFile(t, filepath.Join(s.out, "triage", week+".md"))
	}
	checked := map[string]int{}
	var files []string
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		for _, l := range links(t, docs[name]) {
			if f := s.resolve(t, name, l); f != "" {
				checked[name]++
				files = append(files, f)
			}
		}
		if checked[name] == 0 && name != "compare json" {
			t.Errorf("%s links nothing on the site:\n%s", name, docs[name])
		}
	}
	// The documents link what they are about: the pairs the site shows
	// to their pages, the others to the form.
	for _, tt := range []struct{ doc, want string }{
		{"comment on pr/200", "(" + siteBase + "pr/200/)"},
		{"comment on pr/201, an ancestor", "(" + siteBase + "compare/?base=" + c[13] + "&head=" + orphan + ")"},
		{"comment on pr/200, an ancestor", "(" + siteBase + "compare/?base=" + c[12] + "&head=" + try + ")"},
		{"compare, neighbours", "(" + siteBase + "commit/" + c[8] + "/)"},
		{"compare, a tag", "(" + siteBase + "compare/?base=v1.0&head=" + c[12] + ")"},
		{"compare text, far apart", siteBase + "compare/?base=" + c[2] + "&head=" + c[12] + "\n"},
		// A week's entry names its benchmark, linked to its row.
		{"triage 2026-09-14", "[`json-decode size=large`](" + siteBase + "commit/" + c[8] + "/#row-"},
		{"triage json 2026-09-14", `"url": "` + siteBase + "commit/" + c[8] + "/#row-"},
		{"feed", `href="` + siteBase + `triage/2026-09-14/"`},
	} {
		if !strings.Contains(docs[tt.doc], tt.want) {
			t.Errorf("%s lacks %q:\n%s", tt.doc, tt.want, docs[tt.doc])
		}
	}
	slices.Sort(files)
	t.Logf("%d links checked, to %d files: %v", len(files), len(slices.Compact(files)), checked)
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
