package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/internal/mdtext"
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
// rustc-perf's (what its /perf/triage endpoint, handle_triage, writes):
// title, revision range, the maintainers' notes where rustc-perf leaves
// "TODO: Summary", the week's summary tables, the count lines, then the
// kept comparisons grouped Regressions / Improvements / Mixed, each with
// its PR title, PR link, comparison link, a summary table per metric that
// passed the filter and the benchmarks that changed most under it. This
// Markdown is the report's source of truth: the site renders its HTML page
// from it.
//
// The week's summary is that of its entries (analysis.TriageReport.Summary):
// their counted changes together, per metric, so it never says what the
// entries below it do not. A group without entries has no heading; a week
// without kept entries says so in one line.
//
// Titles, artifact ids and metric names go through mdtext (as in
// WriteMarkdown); the maintainers' notes are their own Markdown and are
// copied as written.
func WriteTriageMarkdown(w io.Writer, d *model.Dataset, r *analysis.TriageReport, links Links, notes string) error {
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
	kept := len(r.Regressions) + len(r.Improvements) + len(r.Mixed)
	if kept == 0 {
		fmt.Fprint(w, "**Summary**: no relevant changes this week.\n\n")
	} else {
		what := "the entry below: its counted changes"
		if kept > 1 {
			what = fmt.Sprintf("the %d entries below: their counted changes together", kept)
		}
		fmt.Fprintf(w, "**Summary** of %s, per metric.\n\n", what)
		for _, m := range r.Summary() {
			fmt.Fprint(w, SummaryTable(m.Primary, m.Secondary, mdtext.Text(m.Metric))+"\n")
		}
	}
	fmt.Fprintf(w, "%s\n\n", CountLine(r))
	fmt.Fprintf(w, "%d artifact comparisons made in total\n", r.Compared)
	multi := len(d.Machines) > 1
	for _, g := range []struct {
		title   string
		entries []analysis.TriageEntry
	}{{"Regressions", r.Regressions}, {"Improvements", r.Improvements}, {"Mixed", r.Mixed}} {
		if len(g.entries) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n#### %s\n", g.title)
		for _, e := range g.entries {
			fmt.Fprintln(w)
			writeEntry(w, d, e, links, r.End, multi)
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
// Link)](…)", a blank line, then per metric its table and the largest
// changes it counts (writeTop).
func writeEntry(w io.Writer, d *model.Dataset, e analysis.TriageEntry, links Links, end time.Time, multi bool) {
	head := d.Artifacts[e.Comparison.Head]
	title := head.Title
	if mdtext.Line(title) == "" {
		title = "<Unknown Change>"
	}
	pr := ""
	if head.PR > 0 {
		pr = " " + links.prRef(head.PR)
	}
	page, rendered := links.ComparePage(d, e.Comparison.Base, e.Comparison.Head)
	fmt.Fprintf(w, "%s%s [(Comparison Link)](%s)", mdtext.Text(title), pr, mdtext.URL(page))
	if by, ok := confirmedAfter(d, e.Metrics, end); ok {
		fmt.Fprintf(w, " — confirmed after the week, by %s (%s)", mdtext.Text(by.Label()), by.Date.Format("2006-01-02"))
	}
	fmt.Fprint(w, "\n\n")
	for i, m := range e.Metrics {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, SummaryTable(m.Primary, m.Secondary, mdtext.Text(m.Metric)))
		writeTop(w, d, m, page, rendered, multi)
	}
}

// writeTop lists the largest changes a metric's summary counts
// (analysis.MetricSummary.Top), each linked to its row on the
// comparison's page, and how many more there are: "- ❌ +17.00%
// `json-decode size=large` (1.204 ms → 1.409 ms) on linux-x64-epyc". The
// machine is named when the dataset has more than one.
func writeTop(w io.Writer, d *model.Dataset, m analysis.MetricSummary, page string, rendered, multi bool) {
	if len(m.Top) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, c := range m.Top {
		name := mdtext.Code(watchedCase(d, c.Key))
		if rendered {
			name = fmt.Sprintf("[%s](%s)", name, mdtext.URL(page+"#"+RowAnchor(c.Key)))
		}
		mark := "✅"
		if c.Regression {
			mark = "❌"
		}
		unit := ""
		if s, ok := d.SeriesByKey(c.Key); ok {
			unit = s.Metric.Unit
		}
		fmt.Fprintf(w, "- %s %s %s (%s → %s)", mark, FormatChange(c.Change), name, mdValue(c.Before, unit), mdValue(c.After, unit))
		if multi {
			fmt.Fprintf(w, " on %s", mdtext.Text(c.Key.Machine))
		}
		if c.Unconfirmed {
			fmt.Fprint(w, ", unconfirmed: counted at once for its size, before any later value")
		}
		fmt.Fprintln(w)
	}
	if more := m.Primary.All.Count + m.Secondary.All.Count - len(m.Top); more > 0 {
		where := page
		if rendered {
			where += "#" + slug.Metric(m.Metric)
		}
		fmt.Fprintf(w, "- and %d more on [the comparison's page](%s)\n", more, mdtext.URL(where))
	}
}

// confirmedAfter returns the main-line artifact whose value confirmed the
// newest counted change of the metrics (model perfpages' headline), when
// it landed at or after end: the report of a past week gained the change
// in a later build.
func confirmedAfter(d *model.Dataset, metrics []analysis.MetricSummary, end time.Time) (model.Artifact, bool) {
	at := -1
	for _, m := range metrics {
		at = max(at, m.ConfirmedAt)
	}
	if at < 0 || at >= len(d.MainLine) {
		return model.Artifact{}, false
	}
	a := d.Artifacts[d.MainLine[at]]
	return a, !a.Date.Before(end)
}

// TriageJSON is `perfpages triage -format json`: the same content as the
// Markdown, as data.
type TriageJSON struct {
	Week   string        `json:"week"` // the Monday, yyyy-mm-dd
	Start  time.Time     `json:"start"`
	End    time.Time     `json:"end"`
	Filter string        `json:"filter"`
	First  *ArtifactJSON `json:"first"` // revision range; null when nothing was compared
	Last   *ArtifactJSON `json:"last"`
	// URL is where the site shows the revision range (First against
	// Last); "" when nothing was compared.
	URL         string `json:"url,omitempty"`
	Comparisons int    `json:"comparisons"`
	Rollups     int    `json:"rollups"`
	// Summary is the week's summary: the kept entries' counted changes
	// together, per metric (analysis.TriageReport.Summary); empty when
	// nothing was kept.
	Summary      []WeekMetricJSON  `json:"summary"`
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

// MetricJSON is one metric's summary in a kept entry, with its largest
// counted changes (at most analysis.TopChanges) and how many more it
// counts.
type MetricJSON struct {
	Metric string `json:"metric"`
	SummaryJSON
	Changes []ChangeJSON `json:"changes"`
	More    int          `json:"more"`
}

// ChangeJSON is one counted change an entry names: its series, the values
// either side (base, head), the change (null for a change from 0,
// from_zero, as in ResultJSON), whether it is a regression, its magnitude
// and its row on the comparison's page (url; the page itself when the
// site does not pre-render the pair).
type ChangeJSON struct {
	SeriesJSON
	Base       *float64 `json:"base"`
	Head       *float64 `json:"head"`
	Change     *float64 `json:"change"`
	FromZero   bool     `json:"from_zero,omitempty"`
	Regression bool     `json:"regression"`
	Magnitude  string   `json:"magnitude"`
	// Unconfirmed: counted before any later value, for its size; a
	// later build may withdraw it.
	Unconfirmed bool   `json:"unconfirmed,omitempty"`
	URL         string `json:"url"`
}

// WeekMetricJSON is one metric of the week's summary: how many kept
// entries show it, their joined direction and the statistics of their
// counted changes together.
type WeekMetricJSON struct {
	Metric    string       `json:"metric"`
	Entries   int          `json:"entries"`
	Direction string       `json:"direction"`
	Primary   CategoryJSON `json:"primary"`
	Secondary CategoryJSON `json:"secondary"`
}

// NewTriageJSON builds the JSON document of a report.
func NewTriageJSON(d *model.Dataset, r *analysis.TriageReport, links Links) TriageJSON {
	doc := TriageJSON{
		Week: r.Week.Format("2006-01-02"), Start: r.Week, End: r.End, Filter: string(r.Filter),
		Comparisons: r.Compared, Rollups: r.Rollups(),
		Summary: []WeekMetricJSON{}, Regressions: []TriageEntryJSON{}, Improvements: []TriageEntryJSON{}, Mixed: []TriageEntryJSON{},
	}
	if r.First >= 0 {
		f, l := artifactJSON(d.Artifacts[r.First]), artifactJSON(d.Artifacts[r.Last])
		doc.First, doc.Last = &f, &l
		doc.URL = links.Compare(d, r.First, r.Last)
	}
	for _, m := range r.Summary() {
		doc.Summary = append(doc.Summary, WeekMetricJSON{Metric: m.Metric, Entries: m.Entries, Direction: m.Direction.String(),
			Primary: categoryJSON(m.Primary), Secondary: categoryJSON(m.Secondary)})
	}
	entries := func(es []analysis.TriageEntry) []TriageEntryJSON {
		out := []TriageEntryJSON{}
		for _, e := range es {
			head := d.Artifacts[e.Comparison.Head]
			page, rendered := links.ComparePage(d, e.Comparison.Base, e.Comparison.Head)
			j := TriageEntryJSON{
				Base: artifactJSON(d.Artifacts[e.Comparison.Base]), Head: artifactJSON(head),
				URL: page, Rollup: e.Rollup, Direction: e.Direction.String(),
			}
			if head.PR > 0 {
				j.PRURL = links.PR(head.PR)
			}
			for _, m := range e.Metrics {
				mj := MetricJSON{Metric: m.Metric, SummaryJSON: summaryJSON(m), Changes: []ChangeJSON{}, More: m.Primary.All.Count + m.Secondary.All.Count - len(m.Top)}
				for _, c := range m.Top {
					mj.Changes = append(mj.Changes, changeJSON(d, c, page, rendered))
				}
				j.Metrics = append(j.Metrics, mj)
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

// changeJSON describes a counted change of an entry whose comparison is on
// page (rendered: with its rows' anchors).
func changeJSON(d *model.Dataset, c analysis.SeriesChange, page string, rendered bool) ChangeJSON {
	j := ChangeJSON{Base: finite(c.Before), Head: finite(c.After), Change: finite(c.Change), FromZero: c.FromZero,
		Regression: c.Regression, Magnitude: c.Magnitude.String(), Unconfirmed: c.Unconfirmed, URL: page}
	if s, ok := d.SeriesByKey(c.Key); ok {
		j.SeriesJSON = seriesJSON(s)
	} else {
		j.SeriesJSON = SeriesJSON{Benchmark: c.Key.Benchmark, Category: string(model.Primary), Params: map[string]string{}, Metric: c.Key.Metric, Machine: c.Key.Machine}
	}
	if rendered {
		j.URL += "#" + RowAnchor(c.Key)
	}
	return j
}
