package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/internal/mdtext"
)

// plural is rustc-perf's count wording: the "s" is dropped only for
// exactly one.
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// CountLine is "2 Regressions, 1 Improvement, 1 Mixed; 1 of them in
// rollups", as rustc-perf writes it.
func CountLine(r *analysis.TriageReport) string {
	return fmt.Sprintf("%s, %s, %d Mixed; %d of them in rollups",
		plural(len(r.Regressions), "Regression"), plural(len(r.Improvements), "Improvement"), len(r.Mixed), r.Rollups())
}

// WriteTriageMarkdown writes a weekly triage report in the shape of
// rustc-perf's (reference/rustc-perf.md §4.2): title, revision range,
// the maintainers' notes where rustc-perf leaves "TODO: Summary", the
// overall summary tables, the count lines, then the kept comparisons
// grouped Regressions / Improvements / Mixed, each with its PR title, PR
// link, comparison link and a summary table per metric that passed the
// filter. This Markdown is the report's source of truth: the site renders
// its HTML page from it.
//
// Titles, artifact ids and metric names go through mdtext (as in
// WriteMarkdown); the maintainers' notes are their own Markdown and are
// copied as written.
func WriteTriageMarkdown(w io.Writer, d *analysis.Dataset, r *analysis.TriageReport, links Links, notes string) error {
	week := r.Week.Format("2006-01-02")
	fmt.Fprintf(w, "# %s Triage Log\n\n", week)
	fmt.Fprintf(w, "Week of %s to %s (UTC); filter: %s.\n\n", week, r.End.AddDate(0, 0, -1).Format("2006-01-02"), r.Filter)
	if notes = strings.TrimSpace(notes); notes != "" {
		fmt.Fprintf(w, "%s\n\n", notes)
	}
	if r.First < 0 {
		fmt.Fprint(w, "No main-line artifacts were benchmarked this week.\n")
		return nil
	}
	first, last := d.Artifacts[r.First], d.Artifacts[r.Last]
	fmt.Fprintf(w, "Revision range: [%s..%s](%s)\n\n", mdtext.Text(short8(first.ID)), mdtext.Text(short8(last.ID)), mdtext.URL(links.Compare(d, r.First, r.Last)))
	fmt.Fprint(w, "**Summary**:\n\n")
	any := false
	for _, m := range r.Overall.Metrics {
		if m.Primary.All.Count+m.Secondary.All.Count == 0 {
			continue
		}
		any = true
		fmt.Fprint(w, SummaryTable(m.Primary, m.Secondary, mdtext.Text(m.Metric))+"\n")
	}
	if !any {
		fmt.Fprint(w, "No relevant changes between the first and the last artifact of the week.\n\n")
	}
	fmt.Fprintf(w, "%s\n\n", CountLine(r))
	fmt.Fprintf(w, "%d artifact comparisons made in total\n", r.Compared)
	for _, g := range []struct {
		title   string
		entries []analysis.TriageEntry
	}{{"Regressions", r.Regressions}, {"Improvements", r.Improvements}, {"Mixed", r.Mixed}} {
		fmt.Fprintf(w, "\n#### %s\n", g.title)
		for _, e := range g.entries {
			fmt.Fprintln(w)
			writeEntry(w, d, e, links, r.End)
		}
	}
	writeNeedsLook(w, d, r, links)
	WriteTriageSteps(w, d, r.Steps, links)
	return nil
}

// short8 is the first 8 characters of an id (rustc-perf's revision
// range), cut at a character boundary.
func short8(id string) string {
	n := 0
	for i := range id {
		if n == 8 {
			return id[:i]
		}
		n++
	}
	return id
}

// writeEntry is rustc-perf's entry: "<title> [#N](PR) [(Comparison
// Link)](…)", a blank line, then the tables.
func writeEntry(w io.Writer, d *analysis.Dataset, e analysis.TriageEntry, links Links, end time.Time) {
	head := d.Artifacts[e.Comparison.Head]
	title := head.Title
	if mdtext.Line(title) == "" {
		title = "<Unknown Change>"
	}
	pr := ""
	if head.PR > 0 {
		pr = fmt.Sprintf(" [#%d](%s)", head.PR, mdtext.URL(links.PR(head.PR)))
	}
	fmt.Fprintf(w, "%s%s [(Comparison Link)](%s)", mdtext.Text(title), pr, mdtext.URL(links.Compare(d, e.Comparison.Base, e.Comparison.Head)))
	if by, ok := confirmedAfter(d, e.Metrics, end); ok {
		fmt.Fprintf(w, " — confirmed after the week, by %s (%s)", mdtext.Text(by.Label()), by.Date.Format("2006-01-02"))
	}
	fmt.Fprint(w, "\n\n")
	for i, m := range e.Metrics {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, SummaryTable(m.Primary, m.Secondary, mdtext.Text(m.Metric)))
	}
}

// confirmedAfter returns the main-line artifact whose value confirmed the
// newest counted change of the metrics (model perfpages' headline), when
// it landed at or after end: the report of a past week gained the change
// in a later build.
func confirmedAfter(d *analysis.Dataset, metrics []analysis.MetricSummary, end time.Time) (analysis.Artifact, bool) {
	at := -1
	for _, m := range metrics {
		at = max(at, m.ConfirmedAt)
	}
	if at < 0 || at >= len(d.MainLine) {
		return analysis.Artifact{}, false
	}
	a := d.Artifacts[d.MainLine[at]]
	return a, !a.Date.Before(end)
}

// TriageJSON is `perfpages triage -format json`: the same content as the
// Markdown, as data.
type TriageJSON struct {
	Week         string            `json:"week"` // the Monday, yyyy-mm-dd
	Start        time.Time         `json:"start"`
	End          time.Time         `json:"end"`
	Filter       string            `json:"filter"`
	First        *ArtifactJSON     `json:"first"` // revision range; null when nothing was compared
	Last         *ArtifactJSON     `json:"last"`
	Comparisons  int               `json:"comparisons"`
	Rollups      int               `json:"rollups"`
	Overall      []MetricJSON      `json:"overall"`
	Regressions  []TriageEntryJSON `json:"regressions"`
	Improvements []TriageEntryJSON `json:"improvements"`
	Mixed        []TriageEntryJSON `json:"mixed"`
	// NeedsLook is what the filter did not keep but a maintainer must
	// see (new failures, large changes); null when not computed.
	NeedsLook *NeedsLookJSON `json:"needs_look"`
	// Steps are the step changes whose culprit landed in the week.
	Steps []StepJSON `json:"steps"`
}

// TriageEntryJSON is one kept comparison.
type TriageEntryJSON struct {
	Base      ArtifactJSON `json:"base"`
	Head      ArtifactJSON `json:"head"`
	URL       string       `json:"url"`
	PRURL     string       `json:"pr_url,omitempty"`
	Rollup    bool         `json:"rollup"`
	Direction string       `json:"direction"`
	Metrics   []MetricJSON `json:"metrics"`
	// ConfirmedAfter is the commit whose value confirmed the entry's
	// newest counted change, when it landed after the week (model
	// perfpages): the report gained the entry in a later build.
	ConfirmedAfter *ArtifactJSON `json:"confirmed_after,omitempty"`
}

// MetricJSON is one metric's summary.
type MetricJSON struct {
	Metric string `json:"metric"`
	SummaryJSON
}

// NewTriageJSON builds the JSON document of a report.
func NewTriageJSON(d *analysis.Dataset, r *analysis.TriageReport, links Links) TriageJSON {
	doc := TriageJSON{
		Week: r.Week.Format("2006-01-02"), Start: r.Week, End: r.End, Filter: string(r.Filter),
		Comparisons: r.Compared, Rollups: r.Rollups(),
		Overall: []MetricJSON{}, Regressions: []TriageEntryJSON{}, Improvements: []TriageEntryJSON{}, Mixed: []TriageEntryJSON{},
	}
	if r.First >= 0 {
		f, l := artifactJSON(d.Artifacts[r.First]), artifactJSON(d.Artifacts[r.Last])
		doc.First, doc.Last = &f, &l
		for _, m := range r.Overall.Metrics {
			doc.Overall = append(doc.Overall, MetricJSON{m.Metric, summaryJSON(m)})
		}
	}
	entries := func(es []analysis.TriageEntry) []TriageEntryJSON {
		out := []TriageEntryJSON{}
		for _, e := range es {
			head := d.Artifacts[e.Comparison.Head]
			j := TriageEntryJSON{
				Base: artifactJSON(d.Artifacts[e.Comparison.Base]), Head: artifactJSON(head),
				URL: links.Compare(d, e.Comparison.Base, e.Comparison.Head), Rollup: e.Rollup, Direction: e.Direction.String(),
			}
			if head.PR > 0 {
				j.PRURL = links.PR(head.PR)
			}
			for _, m := range e.Metrics {
				j.Metrics = append(j.Metrics, MetricJSON{m.Metric, summaryJSON(m)})
			}
			if by, ok := confirmedAfter(d, e.Metrics, r.End); ok {
				a := artifactJSON(by)
				j.ConfirmedAfter = &a
			}
			out = append(out, j)
		}
		return out
	}
	doc.Regressions, doc.Improvements, doc.Mixed = entries(r.Regressions), entries(r.Improvements), entries(r.Mixed)
	doc.NeedsLook = newNeedsLookJSON(d, r, links)
	doc.Steps = triageStepsJSON(d, r, links)
	return doc
}
