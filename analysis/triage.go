package analysis

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// TriageFilter decides which comparisons a triage report keeps.
type TriageFilter string

// Triage filters (configuration key triage.filter).
const (
	// DefinitelyRelevantFilter keeps comparisons with a metric whose
	// confidence is "definitely relevant" (relevance high under model
	// rustc-perf; more than 6 significant changes under rustc-perf-2021):
	// the triage rule of rustc-perf's docs/comparison-analysis.md, in its
	// 2021 and current versions.
	DefinitelyRelevantFilter TriageFilter = "definitely-relevant"
	// ProbablyRelevantFilter also keeps "probably relevant" ones, what
	// rustc-perf's 2021 comparison analysis reports on try runs.
	ProbablyRelevantFilter TriageFilter = "probably-relevant"
	// DeservesAttentionFilter is rustc-perf's current triage rule
	// ([DeservesAttention]).
	DeservesAttentionFilter TriageFilter = "deserves-attention"
)

// Valid reports whether f is a known filter.
func (f TriageFilter) Valid() bool {
	switch f {
	case DefinitelyRelevantFilter, ProbablyRelevantFilter, DeservesAttentionFilter:
		return true
	}
	return false
}

// OrDefault is f, or for the empty filter the default,
// DefinitelyRelevantFilter: the one place the default is filled in.
func (f TriageFilter) OrDefault() TriageFilter {
	if f == "" {
		return DefinitelyRelevantFilter
	}
	return f
}

// Keeps reports whether a metric's summary passes the filter. A metric
// without a relevant change never does.
func (f TriageFilter) Keeps(m *MetricSummary) bool {
	if m.Direction == DirectionNone {
		return false
	}
	switch f {
	case ProbablyRelevantFilter:
		return m.Confidence >= ProbablyRelevant
	case DeservesAttentionFilter:
		return m.DeservesAttention
	default:
		return m.DefinitelyRelevant
	}
}

// TriageEntry is one comparison a triage report keeps.
type TriageEntry struct {
	Comparison *Comparison
	// Metrics are the summaries of the metrics that passed the filter, by
	// name.
	Metrics []MetricSummary
	// Direction joins the directions of Metrics.
	Direction SummaryDirection
	// Rollup: the head's title says "Rollup of" (rustc-perf counts these).
	Rollup bool
}

// TriageReport is the analysis behind a weekly triage report: every
// consecutive pair of main-line artifacts whose head landed in the week,
// and the ones the filter keeps, grouped by direction.
type TriageReport struct {
	Week   time.Time // the Monday 00:00 UTC that starts the week
	End    time.Time // the next Monday
	Filter TriageFilter
	// Compared is the number of comparisons made ("N artifact comparisons
	// made in total").
	Compared int
	// Regressions, Improvements and Mixed are the kept entries in
	// main-line order.
	Regressions, Improvements, Mixed []TriageEntry
	// First and Last bound the revision range: the base of the week's
	// first comparison and the head of its last (-1 when nothing was
	// compared).
	First, Last int
	// Steps are the step changes whose culprit artifact landed in the
	// week (WeekSteps), set by the caller that detected them: listed
	// whether or not a comparison passed the filter.
	Steps []Step
	// NeedsLook is what the filter did not keep but a maintainer must
	// see: new failures and large changes (triage_watch.go); nil when it
	// was not computed.
	NeedsLook *NeedsLook
}

// Rollups counts the kept entries that are rollups.
func (r *TriageReport) Rollups() int {
	n := 0
	for _, g := range [][]TriageEntry{r.Regressions, r.Improvements, r.Mixed} {
		for _, e := range g {
			if e.Rollup {
				n++
			}
		}
	}
	return n
}

// WeekStart is the Monday 00:00 UTC on or before t: triage weeks run from
// Monday to Monday, UTC, and are named by their Monday.
func WeekStart(t time.Time) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
}

// ParseWeek parses a week's date (yyyy-mm-dd) and checks that it is a
// Monday.
func ParseWeek(s string) (time.Time, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("week %q: want a date such as 2026-09-14", s)
	}
	if t.Weekday() != time.Monday {
		return time.Time{}, fmt.Errorf("week %q is a %s; weeks start on Monday (%s)", s, t.Weekday(), WeekStart(t).Format("2006-01-02"))
	}
	return t, nil
}

// Week is a triage week: its Monday 00:00 UTC and, in main-line order, the
// main-line artifacts that landed in it (see [Weeks]) and have a
// predecessor to be compared with.
type Week struct {
	Monday time.Time
	Heads  []int
}

// Range is the week's revision range: the base of its first comparison and
// the head of its last; ok is false when the week compares nothing.
func (w Week) Range(d *model.Dataset) (first, last int, ok bool) {
	if len(w.Heads) == 0 {
		return -1, -1, false
	}
	first, _ = d.Previous(w.Heads[0])
	return first, w.Heads[len(w.Heads)-1], true
}

// Weeks lists the weeks in which a main-line artifact with a predecessor
// landed, oldest first, in one pass over the main line.
//
// A main-line artifact lands in the week of its date, or in the week its
// predecessor landed in when that is later: weeks follow the main line's
// order and never go back. Dates along a main line do go backwards (an
// author date of a rebased commit, a commit pushed days after it was
// written, a clock gone wrong), and the week of a date alone would then
// come twice along the line, two reports of one Monday. A commit dated
// before its predecessor is reported with it, in the week the main line
// reached it.
func Weeks(d *model.Dataset) []Week {
	var out []Week
	var floor time.Time
	for _, a := range d.MainLine {
		m := WeekStart(d.Artifacts[a].Date)
		if m.Before(floor) {
			m = floor
		}
		floor = m
		if _, ok := d.Previous(a); !ok {
			continue
		}
		if len(out) == 0 || !out[len(out)-1].Monday.Equal(m) {
			out = append(out, Week{Monday: m})
		}
		out[len(out)-1].Heads = append(out[len(out)-1].Heads, a)
	}
	return out
}

// WeekOf returns the week starting at monday (empty when nothing landed),
// by the rule of [Weeks].
func WeekOf(d *model.Dataset, monday time.Time) Week {
	w := Week{Monday: monday.UTC()}
	for _, x := range Weeks(d) {
		if x.Monday.Equal(w.Monday) {
			w.Heads = x.Heads
		}
	}
	return w
}

// TriageWith builds the report of week w: it compares every head with its
// main-line predecessor and keeps the comparisons the filter passes. The
// comparisons come from compare, which returns the summary
// comparison (rows optional) of two artifacts: a site build passes the
// summaries it has already computed for its commit pages instead of
// comparing every pair again ([TriageWatch] compares them itself).
//
// Which metrics: rustc-perf triages one metric (instructions:u unless told
// otherwise). A perfpages site has many, so a comparison is kept when any
// of its metrics passes the filter, and its entry shows each metric that
// did; metric, when not empty, restricts the report to that one metric.
func TriageWith(d *model.Dataset, w Week, filter TriageFilter, metric string, compare func(base, head int) *Comparison) *TriageReport {
	if !filter.Valid() {
		filter = DefinitelyRelevantFilter
	}
	r := &TriageReport{Week: w.Monday, End: w.Monday.AddDate(0, 0, 7), Filter: filter, Compared: len(w.Heads)}
	for _, a := range w.Heads {
		prev, _ := d.Previous(a)
		cmp := compare(prev, a)
		e := TriageEntry{Comparison: cmp, Rollup: strings.Contains(d.Artifacts[a].Title, "Rollup of")}
		for i := range cmp.Metrics {
			m := &cmp.Metrics[i]
			if metric != "" && m.Metric != metric {
				continue
			}
			if filter.Keeps(m) {
				e.Metrics = append(e.Metrics, *m)
				e.Direction = e.Direction.Join(m.Direction)
			}
		}
		switch e.Direction {
		case DirectionRegression:
			r.Regressions = append(r.Regressions, e)
		case DirectionImprovement:
			r.Improvements = append(r.Improvements, e)
		case DirectionMixed:
			r.Mixed = append(r.Mixed, e)
		}
	}
	r.First, r.Last, _ = w.Range(d)
	return r
}

// WeekMetric is one metric of a week's summary ([TriageReport.Summary]).
type WeekMetric struct {
	Metric string
	// Entries is how many kept entries show the metric.
	Entries int
	// Primary and Secondary summarize the counted changes of those
	// entries' summaries of the metric, together.
	Primary, Secondary CategorySummary
	Direction          SummaryDirection
}

// Summary is the week at a glance, per metric (by name): the counted
// changes of every entry the report keeps, summarized together as one
// comparison's are (count, mean and range of the regressions, the
// improvements and all of them), so that it says what the entries below
// it say. Each change counts where it happened: a series that regressed
// on Tuesday and recovered on Thursday is among the regressions and the
// improvements. It is not the change from the week's first commit to its
// last, which the revision range compares: over a week that nets out the
// changes, hides the ones the filter kept among those it did not, and
// could read "improvements −33.7 %" in a week whose one relevant change
// was a 17 % regression. A week without kept entries has none.
func (r *TriageReport) Summary() []WeekMetric {
	type acc struct {
		entries            int
		primary, secondary []SummaryItem
	}
	byName := map[string]*acc{}
	var names []string
	for _, g := range [][]TriageEntry{r.Regressions, r.Improvements, r.Mixed} {
		for _, e := range g {
			for _, m := range e.Metrics {
				a := byName[m.Metric]
				if a == nil {
					a = &acc{}
					byName[m.Metric] = a
					names = append(names, m.Metric)
				}
				a.entries++
				a.primary = append(a.primary, m.Primary.Changes...)
				a.secondary = append(a.secondary, m.Secondary.Changes...)
			}
		}
	}
	slices.Sort(names)
	out := make([]WeekMetric, 0, len(names))
	for _, n := range names {
		a := byName[n]
		w := WeekMetric{Metric: n, Entries: a.entries, Primary: Summarize(a.primary), Secondary: Summarize(a.secondary)}
		w.Direction = w.Primary.Direction().Join(w.Secondary.Direction())
		out = append(out, w)
	}
	return out
}
