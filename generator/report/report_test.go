package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/route"
)

func TestCountLine(t *testing.T) {
	e := analysis.TriageEntry{}
	rollup := analysis.TriageEntry{Rollup: true}
	tests := []struct {
		r    analysis.TriageReport
		want string
	}{
		{analysis.TriageReport{}, "0 Regressions, 0 Improvements, 0 Mixed; 0 of them in rollups"},
		{analysis.TriageReport{Regressions: []analysis.TriageEntry{rollup}, Improvements: []analysis.TriageEntry{e}, Mixed: []analysis.TriageEntry{e}},
			"1 Regression, 1 Improvement, 1 Mixed; 1 of them in rollups"},
		{analysis.TriageReport{Regressions: []analysis.TriageEntry{e, rollup}, Improvements: []analysis.TriageEntry{e, e}, Mixed: []analysis.TriageEntry{rollup, e}},
			"2 Regressions, 2 Improvements, 2 Mixed; 2 of them in rollups"},
	}
	for _, tt := range tests {
		if got := CountLine(&tt.r); got != tt.want {
			t.Errorf("CountLine = %q, want %q", got, tt.want)
		}
	}
}

// TestLinks: a comparison links the page that shows it when the site
// pre-renders the pair (route.Shown), else the compare form; a PR links
// the repository's page, else its page on the site when it has one.
func TestLinks(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	day := time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC)
	res := []model.Result{{Case: model.TestCase{Benchmark: "x"}, Metric: "m", Samples: []float64{1}}}
	prev := ""
	for i := range 4 {
		id := strings.Repeat(string(rune('a'+i)), 40)
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: day.AddDate(0, 0, 3*i), Branch: "main", PR: 10 + i}
		if prev != "" {
			a.Parents = []string{prev}
		}
		prev = id
		b.Add("t", model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: res})
	}
	b.Add("t", model.Run{Artifact: model.Artifact{ID: "v1.2.0", Kind: model.KindTag, Date: day.AddDate(0, 0, 12)}, Machine: model.Machine{Name: "m"}, Results: res})
	b.Add("t", model.Run{Artifact: model.Artifact{ID: strings.Repeat("f", 40), Kind: model.KindTry, Date: day.AddDate(0, 0, 13), PR: 20, Baseline: strings.Repeat("b", 40)},
		Machine: model.Machine{Name: "m"}, Results: res})
	d := b.Dataset()
	idx := func(id string) int {
		i, ok := d.Index(id)
		if !ok {
			t.Fatalf("no artifact %s", id)
		}
		return i
	}
	// a, b, c in the week of 2026-09-07 (its range a...c), dd in the next.
	a, bb, c, dd, tag, try := idx(strings.Repeat("a", 40)), idx(strings.Repeat("b", 40)), idx(strings.Repeat("c", 40)), idx(strings.Repeat("d", 40)), idx("v1.2.0"), idx(strings.Repeat("f", 40))
	routes := route.New(route.ForDataset(d))
	site := Links{Site: "https://x.github.io/bench/", Routes: routes, Shown: routes.Shown(d)}
	form := "https://x.github.io/bench/compare/?base=" + strings.Repeat("a", 40) + "&head="
	for _, tt := range []struct {
		name       string
		links      Links
		base, head int
		want       string
		rendered   bool
	}{
		{"consecutive commits: the commit's page", site, a, bb, "https://x.github.io/bench/commit/" + strings.Repeat("b", 40) + "/", true},
		{"a try run and its baseline: the PR's page", site, bb, try, "https://x.github.io/bench/pr/20/", true},
		{"a week's range: its own page", site, a, c, "https://x.github.io/bench/compare/" + strings.Repeat("a", 40) + "..." + strings.Repeat("c", 40) + "/", true},
		{"non-adjacent commits: the form", site, a, dd, form + strings.Repeat("d", 40), false},
		{"a tag: the form", site, a, tag, form + "v1.2.0", false},
		{"without Shown, consecutive commits", Links{Site: "/"}, bb, c, "/commit/" + strings.Repeat("c", 40) + "/", true},
		{"without Shown, a try run: the form", Links{Site: "/"}, bb, try, "/compare/?base=" + strings.Repeat("b", 40) + "&head=" + strings.Repeat("f", 40), false},
	} {
		got, rendered := tt.links.ComparePage(d, tt.base, tt.head)
		if got != tt.want || rendered != tt.rendered {
			t.Errorf("%s: ComparePage = %q, %v; want %q, %v", tt.name, got, rendered, tt.want, tt.rendered)
		}
		if got := tt.links.Compare(d, tt.base, tt.head); got != tt.want {
			t.Errorf("%s: Compare = %q", tt.name, got)
		}
	}
	if got := (Links{Site: "https://x.github.io/bench/", Repository: "https://github.com/o/p/"}).PR(7); got != "https://github.com/o/p/pull/7" {
		t.Errorf("PR = %q", got)
	}
	for pr, want := range map[int]string{11: "https://x.github.io/bench/pr/11/", 20: "https://x.github.io/bench/pr/20/", 7: ""} {
		if got := site.PR(pr); got != want {
			t.Errorf("PR(%d) without repository = %q, want %q", pr, got, want)
		}
	}
	if got := (Links{Site: "/bench/"}).PR(11); got != "" {
		t.Errorf("PR without repository or Shown = %q, want none", got)
	}
	if got := (Links{}).Commit(d, a); got != "/commit/"+strings.Repeat("a", 40)+"/" {
		t.Errorf("Commit = %q", got)
	}
}

// TestCompareJSONFields pins the field names of the compare JSON: a
// contract other tools read (the README's Analysis section lists them).
func TestCompareJSONFields(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	day := time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC)
	for i, v := range []float64{100, 110} {
		b.Add("t", model.Run{
			Artifact: model.Artifact{ID: strings.Repeat(string(rune('a'+i)), 40), Kind: model.KindCommit, Date: day.AddDate(0, 0, i), PR: 10 + i, Title: "t"},
			Machine:  model.Machine{Name: "m"},
			Results: []model.Result{
				{Case: model.TestCase{Benchmark: "x", Params: model.Params{{Key: "n", Value: "1"}}}, Metric: "wall-time", Unit: "ns", Samples: []float64{v}},
				{Case: model.TestCase{Benchmark: "y"}, Metric: "wall-time", Unit: "ns", Error: "exit status 2"},
			}})
	}
	d := b.Dataset()
	doc := NewCompareJSON(d, analysis.Compare(d, 0, 1, analysis.DefaultOptions), "")
	var buf bytes.Buffer
	if err := WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	keys := func(v any) []string {
		var k []string
		for key := range v.(map[string]any) {
			k = append(k, key)
		}
		slices.Sort(k)
		return k
	}
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s keys = %v, want %v", what, got, want)
		}
	}
	check("top", keys(m), []string{"base", "head", "results", "summary"})
	check("base", keys(m["base"]), []string{"date", "id", "pr", "title"})
	results := m["results"].([]any)
	check("result", keys(results[0]), []string{"base", "benchmark", "budget", "category", "change", "direction", "head", "machine", "magnitude", "metric", "p_value", "p_value_note", "params", "relevant", "significance_basis", "significance_factor", "significance_threshold", "significant", "state", "unit", "z_score", "z_score_note"})
	check("failed result", keys(results[1]), []string{"base", "benchmark", "budget", "category", "change", "direction", "error", "head", "machine", "magnitude", "metric", "p_value", "p_value_note", "params", "relevant", "significance_basis", "significance_factor", "significance_threshold", "significant", "unit", "z_score", "z_score_note"})
	check("summary", keys(m["summary"]), []string{"confidence", "deserves_attention", "direction", "primary", "relevance", "secondary"})
	check("category", keys(m["summary"].(map[string]any)["primary"]), []string{"all", "improvements", "regressions"})
	check("stats", keys(m["summary"].(map[string]any)["primary"].(map[string]any)["all"]), []string{"count", "max", "mean", "min"})
	// One sample each and no history: no noise model, no verdict (and no
	// evidence to show).
	if r := results[0].(map[string]any); r["change"].(float64) != 0.1 || r["relevant"] != false || r["significance_basis"] != "not-enough-history" || r["state"] != "not-enough-history" {
		t.Errorf("result = %v", r)
	}
	if r := results[1].(map[string]any); r["change"] != nil || r["error"] != "exit status 2" || r["significance_basis"] != nil {
		t.Errorf("failed result = %v", r)
	}
}

func TestLinksPatterns(t *testing.T) {
	gh := Links{Repository: "https://github.com/o/p/"}
	gl := Links{Repository: "https://gitlab.com/o/p", CommitPattern: "https://gitlab.com/o/p/-/commit/{sha}",
		PRPattern: "https://gitlab.com/o/p/-/merge_requests/{pr}", ComparePattern: "https://gitlab.com/o/p/-/compare/{base}...{head}"}
	for _, tt := range []struct{ got, want string }{
		{gh.RepoCommit("abc"), "https://github.com/o/p/commit/abc"},
		{gh.RepoPR(7), "https://github.com/o/p/pull/7"},
		{gh.RepoCompare("a", "b"), "https://github.com/o/p/compare/a...b"},
		{gl.RepoCommit("abc"), "https://gitlab.com/o/p/-/commit/abc"},
		{gl.RepoPR(7), "https://gitlab.com/o/p/-/merge_requests/7"},
		{gl.PR(7), "https://gitlab.com/o/p/-/merge_requests/7"},
		{gl.RepoCompare("a", "b"), "https://gitlab.com/o/p/-/compare/a...b"},
		{Links{}.RepoCommit("abc"), ""},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestWriteTextHugeAndHostile: a change from 1 to 1e308 prints in
// exponent form (not 310 digits, not "++Inf%"), and names and errors from
// the data are one line each with their control and bidirectional
// characters shown as escapes.
func TestWriteTextHugeAndHostile(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	day := time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC)
	for i, v := range []float64{1, 1e308} {
		res := []model.Result{
			{Case: model.TestCase{Benchmark: "huge"}, Metric: "wall-time", Unit: "ns", Samples: []float64{v}},
			{Case: model.TestCase{Benchmark: "bad\x1b[31m\u202e"}, Metric: "wall-time", Unit: "ns", Samples: []float64{1}},
		}
		if i == 1 {
			res[1] = model.Result{Case: res[1].Case, Metric: "wall-time", Unit: "ns", Error: "line one\nline two\x07"}
		}
		b.Add("t", model.Run{
			Artifact: model.Artifact{ID: strings.Repeat(string(rune('a'+i)), 40), Kind: model.KindCommit, Date: day.AddDate(0, 0, i), Title: "t\x1b]0;pwned\x07"},
			Machine:  model.Machine{Name: "m\r\nfake: line"}, Results: res})
	}
	d := b.Dataset()
	var buf bytes.Buffer
	if err := WriteText(&buf, d, analysis.Compare(d, 0, 1, rustcPerf), "", Links{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"+1.00e+310%", `head: bbbbbbb (2026-09-08) t\x1b]0;pwned\x07`, `m\r\nfake: line`, "  bad\\x1b[31m\\u202e wall-time on m\\r\\nfake: line: line one\\nline two\\x07\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07\r\u202e") || strings.Contains(out, "Inf") || strings.Contains(out, "0000000000") {
		t.Errorf("raw control characters or unbounded numbers in\n%s", out)
	}
	buf.Reset()
	if err := WriteMarkdown(&buf, d, analysis.Compare(d, 0, 1, rustcPerf), "", Links{}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{"| 1.0e+310% | [1.0e+310%, 1.0e+310%] |", "> - `bad\\x1b[31m\\u202e` wall-time on m\\\\r\\\\nfake: line: `line one\\nline two\\x07`\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	if strings.ContainsAny(md, "\x1b\x07\r\u202e") {
		t.Errorf("raw control or bidirectional characters in\n%s", md)
	}
}

// A regression from zero (0 → 8192 B/op with p = 0.008) is a change in
// every document: "+∞%" in text, from_zero with a null change in JSON,
// counted in the summary table, never "n/a" or a JSON error.
func TestChangeFromZeroDocuments(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{Value: model.Auto})
	day := time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC)
	for i, v := range []float64{0, 8192} {
		b.Add("t", model.Run{
			Artifact: model.Artifact{ID: strings.Repeat(string(rune('a'+i)), 40), Kind: model.KindCommit, Date: day.AddDate(0, 0, i), Title: "t"},
			Machine:  model.Machine{Name: "m"},
			Results:  []model.Result{{Case: model.TestCase{Benchmark: "sort"}, Metric: "alloc-bytes", Unit: "B/op", Samples: []float64{v, v, v, v, v}}},
		})
	}
	d := b.Dataset()
	c := analysis.Compare(d, 0, 1, rustcPerf)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, NewCompareJSON(d, c, "")); err != nil {
		t.Fatal(err)
	}
	var doc CompareJSON
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Results[0]
	if r.Change != nil || !r.FromZero || !r.Significant || !r.Relevant || *r.Magnitude != "very-large" || *r.SignificanceBasis != "short-history" || *r.PValue > 0.01 {
		t.Errorf("result %+v", r)
	}
	if st := doc.Summary.Primary.Regressions; st.Count != 1 || st.FromZero != 1 || st.Mean != 0 || doc.Summary.Direction != "regression" || doc.Summary.Relevance != "high" {
		t.Errorf("summary %+v", doc.Summary)
	}
	buf.Reset()
	if err := WriteText(&buf, d, c, "", Links{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "+∞%") || !strings.Contains(buf.String(), "short-history") {
		t.Errorf("text:\n%s", buf.String())
	}
	buf.Reset()
	if err := WriteMarkdown(&buf, d, c, "", Links{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| 1 from 0 |") || strings.Contains(buf.String(), "n/a") {
		t.Errorf("markdown:\n%s", buf.String())
	}
}

// rustcPerf is rustc-perf's model: it decides a pair of two commits on its
// own (model perfpages has no noise model for them), which the tests of
// how a relevant change is written need.
var rustcPerf = func() analysis.Options {
	o := analysis.DefaultOptions
	o.Model = analysis.ModelRustcPerf
	return o
}()
