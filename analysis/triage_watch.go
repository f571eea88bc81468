package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
)

// This file is the "Needs a look" section of a weekly triage report. The
// triage filter keeps a comparison by its per-metric summaries, and a
// summary can hide what a maintainer must see:
//
//   - a failure is excluded from every statistic, so a commit that breaks
//     four benchmarks and changes nothing else is "maybe relevant";
//   - the magnitude of a change averages rustc-perf's two buckets, so on a
//     noisy series (a high threshold) an 8 % regression on one machine is
//     "medium", its comparison "probably relevant", and it is dropped.
//
// So every comparison of the week is also watched row by row ([Watch]),
// and the report lists (in [NeedsLook]), besides the kept entries:
//
//   - new failures: a series that passed on the base (a result without an
//     error) and fails on the head; and, separately, the fixed ones, failed
//     on the base and passing on the head. A series without a result on
//     the base is neither: nothing says it ever passed. Failures are listed
//     from every comparison of the week, kept or not: a kept entry shows
//     only its summary tables, where failures never appear;
//   - large changes: significant by the model (or, under model perfpages,
//     out of the noise and not confirmed yet: "unconfirmed") and at least
//     [WatchOptions.LargeChange] in size, on any machine and metric, from
//     the metrics the filter did not keep for their comparison (a kept
//     metric's summary table already shows its range), largest first.
//
// Both lists are capped ([WatchOptions.Limit]); what the cap leaves out is
// counted, per comparison, so a report can say "and N more" and link there.

// DefaultLargeChange is the size from which a significant change is
// listed under "Needs a look" (configuration key triage.large_change):
// 5 %. It is the size rustc-perf's absolute scale alone calls large
// for a noisy metric (2.5 % after the noise factor 2) and very large for
// a reliable count: the sizes that make a comparison "definitely
// relevant" on their own ([RelevanceOf]). The magnitude averages that scale
// with the change's multiple of its series' threshold, which on a noisy
// series can pull such a change down to medium or small; from 5 % on it
// is listed whatever that average says. Below it, changes on noisy
// metrics (wall times vary by 0.5–3 % from run to run) would flood the
// list.
const DefaultLargeChange = 0.05

// DefaultWatchLimit is how many rows a report lists per kind (large
// changes per week, new failures and fixed ones per comparison).
const DefaultWatchLimit = 10

// WatchOptions say which rows a triage report lists under "Needs a look".
type WatchOptions struct {
	// LargeChange is the smallest |relative change| (a fraction) of a
	// significant change that is listed; 0 lists no large changes.
	LargeChange float64
	// Limit caps the rows listed of each kind; 0 means DefaultWatchLimit.
	Limit int
}

// DefaultWatchOptions are the defaults of [WatchOptions].
var DefaultWatchOptions = WatchOptions{LargeChange: DefaultLargeChange, Limit: DefaultWatchLimit}

func (o WatchOptions) withDefaults() WatchOptions {
	if o.Limit <= 0 {
		o.Limit = DefaultWatchLimit
	}
	return o
}

// Validate reports what is wrong with o.
func (o WatchOptions) Validate() error {
	if !(o.LargeChange >= 0) || math.IsInf(o.LargeChange, 0) {
		return fmt.Errorf("large change %v is not a fraction ≥ 0", o.LargeChange)
	}
	if o.Limit < 0 {
		return fmt.Errorf("limit %d is negative", o.Limit)
	}
	return nil
}

// WatchRow is one row a report lists under "Needs a look". It names its
// series by key, not by pointer, so that a site build can remember it
// across builds.
type WatchRow struct {
	Key model.SeriesKey
	// Error is the head's failure (a new failure) or the base's (a fixed
	// one); "" for a change.
	Error string
	// The change of a large change: Change is ±Inf for a change from 0
	// (FromZero).
	Change     float64
	FromZero   bool
	Regression bool
	Magnitude  Magnitude
	Basis      SignificanceBasis
	// State is the headline's (model perfpages): StateUnconfirmed for a
	// change listed before later values confirm or withdraw it.
	State State
}

// WatchList is at most Limit rows of one kind and how many there were.
type WatchList struct {
	Rows  []WatchRow
	Total int
}

func (l *WatchList) add(r WatchRow, limit int) {
	l.Total++
	if len(l.Rows) < limit {
		l.Rows = append(l.Rows, r)
	}
}

// MetricWatch is what one metric of a comparison holds: its new
// failures and fixed ones in series order, and its large changes largest
// first, each list cut at the limit.
type MetricWatch struct {
	Metric                 string
	Failures, Fixed, Large WatchList
}

// Watch is what a report lists of one comparison under "Needs a look",
// per metric (by name), whatever the filter keeps. A site build computes it
// with the comparison's rows and keeps it with the comparison's summary.
type Watch struct {
	Options WatchOptions
	Metrics []MetricWatch
}

// WatchComparison watches the rows of c (which must have its rows).
func WatchComparison(c *Comparison, opts WatchOptions) *Watch {
	opts = opts.withDefaults()
	w := &Watch{Options: opts}
	type acc struct {
		m     MetricWatch
		large []WatchRow
	}
	var accs []*acc
	find := func(name string) *acc {
		for _, a := range accs {
			if a.m.Metric == name {
				return a
			}
		}
		a := &acc{m: MetricWatch{Metric: name}}
		accs = append(accs, a)
		return a
	}
	for i := range c.Rows {
		r := &c.Rows[i]
		switch {
		case r.After != nil && r.After.Failure() != "" && r.Before != nil && r.Before.OK():
			find(r.Series.Key.Metric).m.Failures.add(WatchRow{Key: r.Series.Key, Error: r.After.Failure()}, opts.Limit)
		case r.Before != nil && r.Before.Failure() != "" && r.After != nil && r.After.OK():
			find(r.Series.Key.Metric).m.Fixed.add(WatchRow{Key: r.Series.Key, Error: r.Before.Failure()}, opts.Limit)
		case opts.LargeChange > 0 && r.OK && (r.Significant || r.Headline.State == StateUnconfirmed) && math.Abs(r.Change) >= opts.LargeChange:
			a := find(r.Series.Key.Metric)
			a.large = append(a.large, WatchRow{Key: r.Series.Key, Change: r.Change, FromZero: r.FromZero,
				Regression: r.Regression, Magnitude: r.Magnitude, Basis: r.Basis, State: r.Headline.State})
		}
	}
	for _, a := range accs {
		slices.SortStableFunc(a.large, func(x, y WatchRow) int { return cmp.Compare(math.Abs(y.Change), math.Abs(x.Change)) })
		a.m.Large = WatchList{Rows: a.large[:min(len(a.large), opts.Limit):min(len(a.large), opts.Limit)], Total: len(a.large)}
		if len(a.m.Large.Rows) == 0 {
			a.m.Large.Rows = nil
		}
		w.Metrics = append(w.Metrics, a.m)
	}
	slices.SortFunc(w.Metrics, func(x, y MetricWatch) int { return strings.Compare(x.Metric, y.Metric) })
	return w
}

// NeedsLook is the "Needs a look" section of a weekly report: what the
// week's comparisons hold that the filter did not keep (see the top of
// this file).
type NeedsLook struct {
	Options WatchOptions
	// Failures and Fixed are the comparisons with new failures (fixed
	// ones), in main-line order, each with its first Options.Limit series
	// in series order and their total.
	Failures, Fixed []WatchEntry
	// Large are the week's largest changes that the filter did not keep,
	// largest first (ties in main-line and series order), at most
	// Options.Limit; LargeTotal counts them all and More says, per
	// comparison in main-line order, how many of its own are not in Large.
	Large      []WatchChange
	LargeTotal int
	More       []WatchMore
}

// WatchEntry is one comparison's new failures or fixed ones.
type WatchEntry struct {
	Base, Head int
	WatchList
}

// WatchChange is one large change of a week.
type WatchChange struct {
	Base, Head int
	WatchRow
}

// WatchMore counts the large changes of one comparison a report does not
// list.
type WatchMore struct {
	Base, Head int
	Count      int
}

// Empty reports whether there is nothing to look at.
func (n *NeedsLook) Empty() bool {
	return n == nil || len(n.Failures)+len(n.Fixed)+len(n.Large) == 0
}

// Count is how many new failures, fixed series and large changes the
// section has, listed or not.
func (n *NeedsLook) Count() (failures, fixed, large int) {
	if n == nil {
		return 0, 0, 0
	}
	for _, e := range n.Failures {
		failures += e.Total
	}
	for _, e := range n.Fixed {
		fixed += e.Total
	}
	return failures, fixed, n.LargeTotal
}

// Outside is what a report lists of w for the comparison c, given which
// of its metrics the filter keeps (c's summaries; metric, when not empty,
// restricts to one): every failure and fixed series, and the large changes
// of the metrics not kept. It returns nil when that is nothing.
func (w *Watch) Outside(c *Comparison, filter TriageFilter, metric string) *Watch {
	if w == nil {
		return nil
	}
	out := &Watch{Options: w.Options}
	for _, m := range w.Metrics {
		if metric != "" && m.Metric != metric {
			continue
		}
		if s, ok := c.Metric(m.Metric); ok && filter.Keeps(s) {
			m.Large = WatchList{}
		}
		if m.Failures.Total+m.Fixed.Total+m.Large.Total > 0 {
			out.Metrics = append(out.Metrics, m)
		}
	}
	if len(out.Metrics) == 0 {
		return nil
	}
	return out
}

// Count is how many new failures, fixed series and large changes w has.
func (w *Watch) Count() (failures, fixed, large int) {
	if w == nil {
		return 0, 0, 0
	}
	for _, m := range w.Metrics {
		failures += m.Failures.Total
		fixed += m.Fixed.Total
		large += m.Large.Total
	}
	return failures, fixed, large
}

// Look fills r.NeedsLook for week w (the week r reports): watch returns
// the watch of the comparison of a week's head with its predecessor (nil:
// nothing to list), opts caps the lists (its LargeChange is the one the
// watches were made with), metric restricts to one metric as in
// [TriageWith].
func (r *TriageReport) Look(d *model.Dataset, w Week, opts WatchOptions, metric string, watch func(base, head int) *Watch) {
	opts = opts.withDefaults()
	kept := map[int]*Comparison{}
	for _, g := range [][]TriageEntry{r.Regressions, r.Improvements, r.Mixed} {
		for _, e := range g {
			kept[e.Comparison.Head] = e.Comparison
		}
	}
	n := &NeedsLook{Options: opts}
	var large []WatchChange
	totals := map[int]int{} // head → its large changes, listed or not
	for _, head := range w.Heads {
		base, _ := d.Previous(head)
		c := kept[head]
		if c == nil {
			c = &Comparison{} // nothing kept
		}
		x := watch(base, head).Outside(c, r.Filter, metric)
		if x == nil {
			continue
		}
		var fail, fixed WatchEntry
		for _, m := range x.Metrics {
			fail.Rows, fail.Total = append(fail.Rows, m.Failures.Rows...), fail.Total+m.Failures.Total
			fixed.Rows, fixed.Total = append(fixed.Rows, m.Fixed.Rows...), fixed.Total+m.Fixed.Total
			for _, row := range m.Large.Rows {
				large = append(large, WatchChange{Base: base, Head: head, WatchRow: row})
			}
			totals[head] += m.Large.Total
			n.LargeTotal += m.Large.Total
		}
		for _, e := range []struct {
			dst *[]WatchEntry
			e   WatchEntry
		}{{&n.Failures, fail}, {&n.Fixed, fixed}} {
			if e.e.Total == 0 {
				continue
			}
			// Each metric's list holds its first rows in series order:
			// the first Limit of them all are among them.
			slices.SortFunc(e.e.Rows, func(a, b WatchRow) int { return a.Key.Compare(b.Key) })
			e.e.Rows = e.e.Rows[:min(len(e.e.Rows), opts.Limit)]
			e.e.Base, e.e.Head = base, head
			*e.dst = append(*e.dst, e.e)
		}
	}
	// Each metric's list holds its largest changes: the week's largest are
	// among them. Ties keep main-line order, then series order.
	slices.SortStableFunc(large, func(a, b WatchChange) int {
		return cmp.Or(cmp.Compare(math.Abs(b.Change), math.Abs(a.Change)), cmp.Compare(d.MainPos(a.Head), d.MainPos(b.Head)), a.Key.Compare(b.Key))
	})
	if len(large) > 0 {
		n.Large = large[:min(len(large), opts.Limit)]
	}
	shown := map[int]int{}
	for _, c := range n.Large {
		shown[c.Head]++
	}
	for _, head := range w.Heads {
		if more := totals[head] - shown[head]; more > 0 {
			base, _ := d.Previous(head)
			n.More = append(n.More, WatchMore{Base: base, Head: head, Count: more})
		}
	}
	r.NeedsLook = n
}

// Summarizer gives the summary-only comparison of two artifacts: a
// Comparer, or the analysis stage's Results.
type Summarizer interface {
	Summary(base, head int) *Comparison
}

// TriageWatch is [TriageWith] comparing with c, plus the "Needs a look"
// section under opts: each comparison of the week is made once, for both.
func TriageWatch(d *model.Dataset, c Summarizer, w Week, filter TriageFilter, metric string, opts WatchOptions) *TriageReport {
	type pair struct{ base, head int }
	watches := map[pair]*Watch{}
	r := TriageWith(d, w, filter, metric, func(base, head int) *Comparison {
		cmp := c.Summary(base, head)
		watches[pair{base, head}] = WatchComparison(cmp, opts)
		return cmp
	})
	r.Look(d, w, opts, metric, func(base, head int) *Watch { return watches[pair{base, head}] })
	return r
}
