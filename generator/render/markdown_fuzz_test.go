package render

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/internal/mdtext"
)

// siteTags are the elements goldmark writes with the site's extensions
// (GFM, footnotes): nothing else may reach a page from Markdown.
var siteTags = map[string]bool{
	"a": true, "blockquote": true, "br": true, "code": true, "del": true, "div": true, "em": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "hr": true, "img": true,
	"input": true, "li": true, "ol": true, "p": true, "pre": true, "section": true, "strong": true,
	"sup": true, "table": true, "tbody": true, "td": true, "th": true, "thead": true, "tr": true, "ul": true,
}

var siteAttrs = map[string]bool{
	"href": true, "src": true, "alt": true, "title": true, "id": true, "class": true, "role": true,
	"style": true, "checked": true, "disabled": true, "type": true, "start": true,
}

var (
	tagRe  = regexp.MustCompile(`^<(/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-]+(?:="[^"<>]*")?)*)\s*/?>`)
	attrRe = regexp.MustCompile(`([a-zA-Z-]+)(?:="([^"]*)")?`)
)

// htmlTags lists the tags of goldmark's output, or a problem: a '<' that
// starts no tag the site allows, or an attribute it does not, or a
// script URL.
func htmlTags(out string) ([]string, string) {
	var tags []string
	for i := 0; i < len(out); i++ {
		if out[i] != '<' {
			continue
		}
		rest := out[i:]
		if strings.HasPrefix(rest, "<!-- raw HTML omitted -->") {
			tags = append(tags, "omitted")
			continue
		}
		m := tagRe.FindStringSubmatch(rest)
		if m == nil || !siteTags[strings.ToLower(m[2])] {
			return nil, "unexpected markup at " + strings.SplitN(rest, "\n", 2)[0]
		}
		for _, a := range attrRe.FindAllStringSubmatch(m[3], -1) {
			if !siteAttrs[strings.ToLower(a[1])] {
				return nil, "unexpected attribute " + a[0]
			}
			v := strings.ToLower(strings.TrimSpace(a[2]))
			if strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") {
				return nil, "script URL " + a[0]
			}
		}
		tags = append(tags, m[1]+strings.ToLower(m[2]))
	}
	return tags, ""
}

// FuzzSiteMarkdown feeds any Markdown to the site's goldmark (content
// pages and triage reports are rendered with it), seeded with the demo's
// pages (content/) among others: it must not panic, and raw HTML never
// gets through — only the elements goldmark writes itself, "<br />"
// (summary tables) and the "raw HTML omitted" comment.
func FuzzSiteMarkdown(f *testing.F) {
	for _, s := range []string{
		"# Title\n\n| a | b |\n|---|---|\n| x <br /> y | <script>alert(1)</script> |\n",
		"[c](/commit/x/) <img src=x onerror=alert(1)> <a href=\"javascript:alert(1)\">x</a>",
		"[x](javascript:alert(1)) ![i](vbscript:x) <http://a.b> www.evil.com a@b.cd",
		"<details>\n<summary>s</summary>\n\n- [ ] task\n\n</details>\n",
		"text[^1]\n\n[^1]: note <b>bold</b>\n",
		"```html\n<script>\n```\n\n    <iframe>\n\n~~del~~ *em* **strong** `code`",
		"<!-- comment --> <?php ?> <![CDATA[x]]> <!DOCTYPE html>",
		"+++\ntitle = \"G\"\nweight = -3\n+++\n# x\n<script>alert(1)</script>\n",
	} {
		f.Add(s)
	}
	err := filepath.WalkDir(filepath.Join("..", "..", "content"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		f.Add(string(data))
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	md := markdown("/sub/")
	f.Fuzz(func(t *testing.T, src string) {
		out, err := renderMarkdown(md, []byte(src))
		if err != nil {
			t.Fatalf("render: %v", err)
		}
		if _, p := htmlTags(string(out)); p != "" {
			t.Errorf("%s\nMarkdown %q\nHTML:\n%s", p, src, out)
		}
	})
}

// triageHTML renders the triage report of two commits, the head titled
// title, measured in metric on machine, through the site's goldmark.
func triageHTML(t testing.TB, title, metric, baseID string) string {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{})
	day := time.Date(2026, 9, 8, 3, 0, 0, 0, time.UTC)
	head := strings.Repeat("b", 40)
	for i, v := range []float64{100, 150} {
		a := model.Artifact{ID: baseID, Kind: model.KindCommit, Date: day, Branch: "main"}
		if i == 1 {
			a = model.Artifact{ID: head, Kind: model.KindCommit, Date: day.Add(time.Hour), Branch: "main", Parents: []string{baseID}, PR: 7, Title: title}
		}
		b.Add("t", model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: []model.Result{
			{Case: model.TestCase{Benchmark: "x"}, Metric: metric, Unit: "ns", Direction: model.LowerIsBetter, Samples: []float64{v}},
		}})
	}
	d := b.Dataset()
	i, _ := d.Index(head)
	// Model rustc-perf decides the pair at once: the report has an entry
	// (model perfpages waits for values after it).
	opts := analysis.DefaultOptions
	opts.Model = analysis.ModelRustcPerf
	r := analysis.TriageWatch(d, analysis.NewComparer(d, opts), analysis.WeekOf(d, analysis.WeekStart(d.Artifacts[i].Date)), analysis.DefinitelyRelevantFilter, "", analysis.DefaultWatchOptions)
	var src bytes.Buffer
	if err := report.WriteTriageMarkdown(&src, d, r, report.Links{Site: "/sub/"}, ""); err != nil {
		t.Fatal(err)
	}
	out, err := renderMarkdown(markdown("/sub/"), src.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// FuzzSiteTriage renders a triage report whose title, metric and base id
// come from the fuzzer through the site's goldmark: the page has exactly
// the elements it has with plain names, none of them from the data.
func FuzzSiteTriage(f *testing.F) {
	f.Add("Speed up the parser (#12)", "wall-time", "aaaaaaaa")
	f.Add("# Pwned [x](https://evil) ![i](https://evil/i.png) @admin <img src=x onerror=alert(1)>", "<script>|", "v1 <b>")
	f.Add("[^1]\n\n[^1]: x", "`", "[x]: /y")
	clean, _ := htmlTags(triageHTML(f, "QTITLEQ", "QMETRICQ", "QBASEQ"))
	f.Fuzz(func(t *testing.T, title, metric, baseID string) {
		if mdtext.Line(metric) == "" || mdtext.Line(baseID) == "" || baseID == strings.Repeat("b", 40) {
			t.Skip()
		}
		out := triageHTML(t, title, metric, baseID)
		tags, p := htmlTags(out)
		if p != "" || !slices.Equal(tags, clean) {
			t.Errorf("%s\ntags %v\nwant %v\nHTML:\n%s", p, tags, clean, out)
		}
	})
}

// TestHTMLTags checks the checker of the fuzz tests above.
func TestHTMLTags(t *testing.T) {
	for in, bad := range map[string]bool{
		`<p><a href="/sub/x/">c</a> x <br /> <!-- raw HTML omitted --></p>`: false,
		`<table>\n<thead>\n<tr>\n<th style="text-align:center">a</th>`:      false,
		`<script>alert(1)</script>`:                                         true,
		`<img src="x" onerror="alert(1)" />`:                                true,
		`<a href="javascript:alert(1)">x</a>`:                               true,
		`<details>`:                                                         true,
	} {
		if _, p := htmlTags(in); (p != "") != bad {
			t.Errorf("htmlTags(%q): problem %q, want one: %v", in, p, bad)
		}
	}
	if tags, _ := htmlTags(triageHTML(t, "QTITLEQ", "QMETRICQ", "QBASEQ")); len(tags) < 20 || !slices.Contains(tags, "br") || !slices.Contains(tags, "a") {
		t.Errorf("triage page tags = %v", tags)
	}
}
