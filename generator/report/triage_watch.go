package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/internal/mdtext"
)

// NeedsLookTitle is the heading of a weekly report's section of what the
// filter did not keep but a maintainer must see (analysis.NeedsLook).
const NeedsLookTitle = "Needs a look"

// RowAnchor is the id of a series' row on a comparison page: the site's
// pages give their rows this id and the triage report links to it.
func RowAnchor(k model.SeriesKey) string {
	return "row-" + slug.Name(strings.Join([]string{k.Benchmark, k.Params, k.Metric, k.Machine, k.Context}, " "))
}

// NeedsLookLine counts a week's section in a few words: "4 new failures,
// 4 fixed, 1 large change", or "" when it is empty.
func NeedsLookLine(n *analysis.NeedsLook) string { return WatchLine(n.Count()) }

// WatchLine is NeedsLookLine from the counts.
func WatchLine(failures, fixed, large int) string {
	var parts []string
	if failures > 0 {
		parts = append(parts, plural(failures, "new failure"))
	}
	if fixed > 0 {
		parts = append(parts, fmt.Sprintf("%d fixed", fixed))
	}
	if large > 0 {
		parts = append(parts, plural(large, "large change"))
	}
	return strings.Join(parts, ", ")
}

// watchedCase is a watched row's test case, with its context when the
// dataset has a series that differs from it only by context (as
// ContextLabel shows rows apart; a week's rows come from many
// comparisons, so the whole context is shown rather than the keys that
// differ).
func watchedCase(d *model.Dataset, k model.SeriesKey) string {
	s := k.Benchmark
	if k.Params != "" {
		s += " " + k.Params
	}
	if k.Context != "" && hasContextSibling(d, k) {
		s += " [" + k.Context + "]"
	}
	return s
}

// hasContextSibling reports whether d has another series of k's test
// case, metric and machine: series are sorted by key, context last, so
// such a series is next to k's.
func hasContextSibling(d *model.Dataset, k model.SeriesKey) bool {
	i, ok := slices.BinarySearchFunc(d.Series, k, func(s *model.Series, k model.SeriesKey) int { return s.Key.Compare(k) })
	if !ok {
		return false
	}
	same := func(j int) bool {
		if j < 0 || j >= len(d.Series) {
			return false
		}
		o := d.Series[j].Key
		return o.Benchmark == k.Benchmark && o.Params == k.Params && o.Metric == k.Metric && o.Machine == k.Machine
	}
	return same(i-1) || same(i+1)
}

// entryTitle is a comparison's head as rustc-perf's entries name it: its
// title and PR link, then a link to its page.
func entryTitle(d *model.Dataset, base, head int, links Links) string {
	h := d.Artifacts[head]
	title := h.Title
	if mdtext.Line(title) == "" {
		title = "<Unknown Change>"
	}
	pr := ""
	if h.PR > 0 {
		pr = " " + links.prRef(h.PR)
	}
	return fmt.Sprintf("%s%s [(Comparison Link)](%s)", mdtext.Text(title), pr, mdtext.URL(headPage(d, base, head, links)))
}

// headPage is the page of a week's comparison: its head's commit page
// (the head is on the main line and its base its predecessor), where the
// failures and every relevant row are listed with their anchors.
func headPage(d *model.Dataset, base, head int, links Links) string {
	if p, ok := d.Previous(head); ok && p == base {
		return links.Commit(d, head)
	}
	return links.Compare(d, base, head)
}

// headLabel names a comparison's head in a short list: "#PR" or its short
// id.
func headLabel(a model.Artifact) string {
	if a.PR > 0 {
		return fmt.Sprintf("#%d", a.PR)
	}
	return mdtext.Text(a.Short())
}

// writeNeedsLook writes the "Needs a look" section of a weekly report.
// Names and errors go through mdtext as in the rest of the report: a test
// case and an error are code spans, a metric and a machine text.
func writeNeedsLook(w io.Writer, d *model.Dataset, r *analysis.TriageReport, links Links) {
	n := r.NeedsLook
	if n == nil {
		return
	}
	what := "benchmarks that started failing or were fixed in any comparison of the week"
	if n.Options.LargeChange > 0 {
		what += fmt.Sprintf(", and significant or unconfirmed changes of %s or more on any machine (`triage.large_change`) in the metrics the filter did not keep", FormatPercent1(n.Options.LargeChange))
	}
	if n.Empty() {
		// An empty section has no heading; one line says it was looked at.
		none := "no benchmark started failing or was fixed"
		if n.Options.LargeChange > 0 {
			none += fmt.Sprintf(", and the filter left out no change of %s or more", FormatPercent1(n.Options.LargeChange))
		}
		fmt.Fprintf(w, "\nNothing needs a look this week: %s.\n", none)
		return
	}
	fmt.Fprintf(w, "\n#### %s\n\n", NeedsLookTitle)
	fmt.Fprintf(w, "What the summaries above can hide: %s.\n", what)
	for _, g := range []struct {
		title, verb, error string
		entries            []analysis.WatchEntry
	}{{"New failures", "started failing", "%s", n.Failures}, {"Fixed", "pass again", "failed with %s", n.Fixed}} {
		if len(g.entries) == 0 {
			continue
		}
		total := 0
		for _, e := range g.entries {
			total += e.Total
		}
		fmt.Fprintf(w, "\n**%s** (%d):\n\n", g.title, total)
		for _, e := range g.entries {
			fmt.Fprintf(w, "- %s: %d %s\n", entryTitle(d, e.Base, e.Head, links), e.Total, g.verb)
			for _, row := range e.Rows {
				fmt.Fprintf(w, "  - %s %s on %s: %s\n", mdtext.Code(watchedCase(d, row.Key)), mdtext.Text(row.Key.Metric), mdtext.Text(row.Key.Machine), fmt.Sprintf(g.error, mdtext.Code(row.Error)))
			}
			if more := e.Total - len(e.Rows); more > 0 {
				fmt.Fprintf(w, "  - and %d more on [its page](%s)\n", more, mdtext.URL(headPage(d, e.Base, e.Head, links)))
			}
		}
	}
	if len(n.Large) == 0 {
		return
	}
	fmt.Fprintf(w, "\n**Large changes** (%d):\n\n", n.LargeTotal)
	fmt.Fprint(w, "| change | test case | metric | machine | commit |\n|---:|:---|:---|:---|:---|\n")
	for _, c := range n.Large {
		page := headPage(d, c.Base, c.Head, links)
		change := FormatChange(c.Change)
		if c.State == analysis.StateUnconfirmed {
			change += " (unconfirmed)"
		}
		fmt.Fprintf(w, "| %s | [%s](%s) | %s | %s | %s |\n", change, mdtext.CodeCell(watchedCase(d, c.Key)), mdtext.URL(page+"#"+RowAnchor(c.Key)),
			mdtext.Text(c.Key.Metric), mdtext.Text(c.Key.Machine), entryTitle(d, c.Base, c.Head, links))
	}
	if len(n.More) > 0 {
		var parts []string
		more := 0
		for _, m := range n.More {
			more += m.Count
			parts = append(parts, fmt.Sprintf("%d on [%s](%s)", m.Count, headLabel(d.Artifacts[m.Head]), mdtext.URL(headPage(d, m.Base, m.Head, links))))
		}
		fmt.Fprintf(w, "\nAnd %d more: %s.\n", more, strings.Join(parts, ", "))
	}
}

// NeedsLookJSON is the "Needs a look" section of `perfpages triage
// -format json`.
type NeedsLookJSON struct {
	// LargeChange is triage.large_change (0: no large changes listed);
	// Limit caps each list.
	LargeChange float64 `json:"large_change"`
	Limit       int     `json:"limit"`
	// NewFailures and Fixed are per comparison, in main-line order.
	NewFailures []WatchEntryJSON `json:"new_failures"`
	Fixed       []WatchEntryJSON `json:"fixed"`
	// LargeChanges are the week's largest, at most Limit; LargeTotal
	// counts them all and More says where the others are.
	LargeChanges []WatchChangeJSON `json:"large_changes"`
	LargeTotal   int               `json:"large_total"`
	More         []WatchMoreJSON   `json:"more"`
}

// WatchEntryJSON is one comparison's new failures or fixed series: the
// first Limit of them, and their total.
type WatchEntryJSON struct {
	Base    ArtifactJSON      `json:"base"`
	Head    ArtifactJSON      `json:"head"`
	URL     string            `json:"url"`
	PRURL   string            `json:"pr_url,omitempty"`
	Total   int               `json:"total"`
	Results []WatchResultJSON `json:"results"`
}

// WatchResultJSON is a series of the section, named as ResultJSON names
// it; error is the head's failure (new failures) or the base's (fixed).
type WatchResultJSON struct {
	Benchmark string            `json:"benchmark"`
	Category  string            `json:"category"`
	Params    map[string]string `json:"params"`
	Metric    string            `json:"metric"`
	Unit      string            `json:"unit"`
	Machine   string            `json:"machine"`
	Context   map[string]string `json:"context,omitempty"`
	Error     string            `json:"error,omitempty"`
}

// WatchChangeJSON is one large change: change is null for a change from 0
// (from_zero), as in ResultJSON.
type WatchChangeJSON struct {
	WatchResultJSON
	Base              ArtifactJSON `json:"base"`
	Head              ArtifactJSON `json:"head"`
	URL               string       `json:"url"` // the row on the comparison's page
	Change            *float64     `json:"change"`
	FromZero          bool         `json:"from_zero,omitempty"`
	Direction         string       `json:"direction"` // regression | improvement
	Magnitude         string       `json:"magnitude"`
	SignificanceBasis string       `json:"significance_basis"`
	State             string       `json:"state,omitempty"` // model perfpages: "unconfirmed" until later values decide
}

// WatchMoreJSON counts one comparison's large changes not listed.
type WatchMoreJSON struct {
	Head  ArtifactJSON `json:"head"`
	URL   string       `json:"url"`
	Count int          `json:"count"`
}

func watchResultJSON(d *model.Dataset, row analysis.WatchRow) WatchResultJSON {
	k := row.Key
	j := WatchResultJSON{Benchmark: k.Benchmark, Category: string(model.Primary), Params: map[string]string{}, Metric: k.Metric, Machine: k.Machine, Error: row.Error}
	if s, ok := d.SeriesByKey(k); ok {
		j.Category, j.Params, j.Unit = string(s.Case.Category), paramsMap(s.Case.Params), s.Metric.Unit
		if j.Category == "" {
			j.Category = string(model.Primary)
		}
		if len(s.Context) > 0 {
			j.Context = paramsMap(s.Context)
		}
	}
	return j
}

// newNeedsLookJSON is the section of r as data; nil when r has none.
func newNeedsLookJSON(d *model.Dataset, r *analysis.TriageReport, links Links) *NeedsLookJSON {
	n := r.NeedsLook
	if n == nil {
		return nil
	}
	doc := &NeedsLookJSON{LargeChange: n.Options.LargeChange, Limit: n.Options.Limit, LargeTotal: n.LargeTotal,
		NewFailures: []WatchEntryJSON{}, Fixed: []WatchEntryJSON{}, LargeChanges: []WatchChangeJSON{}, More: []WatchMoreJSON{}}
	entries := func(es []analysis.WatchEntry) []WatchEntryJSON {
		out := []WatchEntryJSON{}
		for _, e := range es {
			head := d.Artifacts[e.Head]
			j := WatchEntryJSON{Base: artifactJSON(d.Artifacts[e.Base]), Head: artifactJSON(head), URL: headPage(d, e.Base, e.Head, links), Total: e.Total, Results: []WatchResultJSON{}}
			if head.PR > 0 {
				j.PRURL = links.PR(head.PR)
			}
			for _, row := range e.Rows {
				j.Results = append(j.Results, watchResultJSON(d, row))
			}
			out = append(out, j)
		}
		return out
	}
	doc.NewFailures, doc.Fixed = entries(n.Failures), entries(n.Fixed)
	for _, c := range n.Large {
		j := WatchChangeJSON{WatchResultJSON: watchResultJSON(d, c.WatchRow), Base: artifactJSON(d.Artifacts[c.Base]), Head: artifactJSON(d.Artifacts[c.Head]),
			URL: headPage(d, c.Base, c.Head, links) + "#" + RowAnchor(c.Key), Change: finite(c.Change), FromZero: c.FromZero,
			Direction: "improvement", Magnitude: c.Magnitude.String(), SignificanceBasis: string(c.Basis), State: string(c.State)}
		if c.Regression {
			j.Direction = "regression"
		}
		doc.LargeChanges = append(doc.LargeChanges, j)
	}
	for _, m := range n.More {
		doc.More = append(doc.More, WatchMoreJSON{Head: artifactJSON(d.Artifacts[m.Head]), URL: headPage(d, m.Base, m.Head, links), Count: m.Count})
	}
	return doc
}
