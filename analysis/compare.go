package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// RelativeChange is (b − a) / a as a fraction, as rustc-perf's
// site/src/comparison.rs computes it. A change from 0 is a change: 0 → b
// is +Inf for b > 0 and −Inf for b < 0,
// the relative change rustc-perf's arithmetic gives too, and 0 → 0 is 0
// (no change; upstream's 0/0 is NaN, which is never significant either).
// It reports false only when a value is not finite: there is no
// comparison then.
func RelativeChange(a, b float64) (float64, bool) {
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return 0, false
	}
	if a == 0 {
		switch {
		case b > 0:
			return math.Inf(1), true
		case b < 0:
			return math.Inf(-1), true
		}
		return 0, true
	}
	return (b - a) / a, true
}

// IsRegression reports whether a relative change goes in the metric's bad
// direction. A change of exactly 0 is not a regression.
func IsRegression(change float64, d model.Direction) bool {
	if d == model.HigherIsBetter {
		return change < 0
	}
	return change > 0
}

// MedianOf is the median of xs ((a + b) / 2 of the two middle values for
// an even count, perfgate's: budget.MedianF64, quantile.Median); xs is not
// modified. It is 0 for an empty slice. The single value's median is
// [model.SingleValue]'s.
func MedianOf(xs []float64) float64 { return budget.MedianF64(xs) }

// Row is one test case × metric of a comparison.
type Row struct {
	Series *model.Series
	Before *model.Point // nil when the base artifact has no result
	After  *model.Point // nil when the head artifact has no result
	// Change is the relative change of the single values; valid when OK.
	// It is ±Inf when the base value is 0 and the head's is not
	// (FromZero).
	Change     float64
	OK         bool
	Regression bool   // the change goes in the metric's bad direction
	Note       string // why there is no change: a failure or a missing value
	// FromZero marks a change from a base value of 0 to another value:
	// Change is ±Inf, the factor 0 and the magnitude very large; it is
	// significant by the same rule as any other change and counts in the
	// summaries (ChangeStats.FromZero).
	FromZero bool

	// The significance of the change, valid when OK.
	Threshold   float64   // significance threshold (a fraction)
	Factor      float64   // |Change| / Threshold, 0 when not finite
	Significant bool      // see Basis
	Magnitude   Magnitude // rustc-perf magnitude; zero when not OK
	Relevant    bool      // Significant and Magnitude ≥ Small
	Dodgy       bool      // model rustc-perf-2021: the history is noisy or highly variable
	// History is how many historical values the threshold (models
	// perfpages and rustc-perf) or the dodginess (model 2021) was judged
	// from. Below Options.History the threshold is a default one.
	History int
	// Basis says what decided Significant (see [SignificanceBasis]).
	Basis SignificanceBasis
	// Headline is the headline verdict under model perfpages (see
	// headline.go): Significant and Relevant are its Relevant then, and
	// Threshold the change at Options.Headline.Z widths of its noise.
	Headline Verdict

	// The other engines (lookback z-score, sample test, budget), computed
	// unless Options.SummaryOnly and only for rows with a result on the
	// head.
	//
	// Z is Conbench's lookback z-score of the head's value against the
	// base's ancestry (see lookback.go). Its Mean and Std are the
	// distribution whenever that is usable, z-score or not: on a commit
	// page, Z.Band() is the history chart's band at the head
	// ([Comparer.Band]).
	Z zscore.Z
	// Test is the significance test of the samples.
	Test SampleTest
	// Budget is the metric's perfgate budget status; nil without a budget.
	Budget *BudgetCheck
}

// Item is the row as the summaries see it.
func (r *Row) Item() SummaryItem {
	return SummaryItem{Change: r.Change, Magnitude: r.Magnitude, Regression: r.Regression, Significant: r.Significant, Relevant: r.Relevant}
}

// MetricSummary summarizes the rows of one metric of a comparison (over
// every machine and context that measured it).
type MetricSummary struct {
	Metric             string
	Primary, Secondary CategorySummary
	// Direction is Primary's direction joined with Secondary's.
	Direction SummaryDirection
	// Relevance counts the significant changes of both categories
	// ([RelevanceOf]).
	Relevance Relevance
	// Significant is the number of significant changes.
	Significant int
	// Confidence is the 2021 confidence from Significant under model
	// rustc-perf-2021, and Relevance's counterpart under model rustc-perf
	// (high = definitely, medium = probably, low = maybe relevant).
	Confidence Confidence
	// DeservesAttention is rustc-perf's current triage rule
	// (deserves_attention_icount in site/src/comparison.rs).
	// Upstream applies it to instructions:u only and lists a comparison of
	// any other metric when its direction is not none; here it is computed
	// for every metric and the triage filter decides.
	DeservesAttention bool
	// DefinitelyRelevant is Confidence == DefinitelyRelevant: relevance
	// high under model rustc-perf, more than 6 significant changes under
	// model rustc-perf-2021, a counted change under model perfpages.
	DefinitelyRelevant bool
	// ConfirmedAt is, under model perfpages, the main-line position of the
	// newest value that confirmed one of the metric's counted changes (a
	// weekly report can gain a change confirmed after its week), −1 for
	// none.
	ConfirmedAt int
	// Top are the metric's largest counted changes (its Relevant rows,
	// the changes Primary and Secondary summarize), largest |change|
	// first (changes from 0 first of all, ties in series order), at most
	// TopChanges: what a report names under a comparison's summary table,
	// kept with the summary so that a site build that remembers only
	// summaries still has them. Primary.All.Count + Secondary.All.Count
	// counts them all.
	Top []SeriesChange
}

// TopChanges is how many of a metric's counted changes a summary names
// ([MetricSummary.Top]).
const TopChanges = 5

// SeriesChange is one change of a comparison as a summary names it: its
// series by key (not by pointer, so that it can be remembered across
// builds, as [WatchRow]), the values either side and the change.
type SeriesChange struct {
	Key           model.SeriesKey
	Before, After float64
	// Change is ±Inf for a change from 0 (FromZero).
	Change     float64
	FromZero   bool
	Regression bool
	Magnitude  Magnitude
	// Unconfirmed: counted before any later value (too large to wait,
	// Verdict.Large); later builds may still withdraw it.
	Unconfirmed bool
}

// topChanges returns the TopChanges largest changes of the relevant rows
// of rows, as MetricSummary.Top orders them. A comparison can have
// thousands of relevant rows: they are not sorted, each is placed into
// the short list.
func topChanges(rows []*Row) []SeriesChange {
	var top []SeriesChange
	for _, r := range rows {
		if !r.OK || !r.Relevant {
			continue
		}
		a := math.Abs(r.Change)
		if len(top) == TopChanges && a <= math.Abs(top[len(top)-1].Change) {
			continue
		}
		c := SeriesChange{Key: r.Series.Key, Change: r.Change, FromZero: r.FromZero, Regression: r.Regression, Magnitude: r.Magnitude, Unconfirmed: r.Headline.State == StateUnconfirmed}
		if r.Before != nil {
			c.Before = r.Before.Value
		}
		if r.After != nil {
			c.After = r.After.Value
		}
		i := len(top)
		for i > 0 && a > math.Abs(top[i-1].Change) {
			i--
		}
		if len(top) < TopChanges {
			top = append(top, SeriesChange{})
		}
		copy(top[i+1:], top[i:])
		top[i] = c
	}
	return top
}

// SummarizeMetric summarizes rows of one metric under significance model
// sigModel: rows in category Secondary go to Secondary, every other row to
// Primary; rows that are not OK are ignored.
func SummarizeMetric(metric string, rows []*Row, sigModel string) MetricSummary {
	all := make([]SummaryItem, 0, len(rows))
	isSecondary := func(r *Row) bool { return r.Series != nil && r.Series.Case.Category == model.Secondary }
	sig, nsec := 0, 0
	for _, r := range rows {
		if !r.OK {
			continue
		}
		all = append(all, r.Item())
		if isSecondary(r) {
			nsec++
		}
		if r.Significant {
			sig++
		}
	}
	// The primary and secondary items, in row order, share one array
	// (this runs for every metric of every comparison).
	parts := make([]SummaryItem, len(all))
	np := len(all) - nsec
	primary, secondary := parts[:0:np], parts[np:np:len(all)]
	i := 0
	for _, r := range rows {
		if !r.OK {
			continue
		}
		if isSecondary(r) {
			secondary = append(secondary, all[i])
		} else {
			primary = append(primary, all[i])
		}
		i++
	}
	if len(primary) == 0 {
		primary = nil
	}
	if len(secondary) == 0 {
		secondary = nil
	}
	m := MetricSummary{
		Metric:      metric,
		Primary:     Summarize(primary),
		Secondary:   Summarize(secondary),
		Relevance:   RelevanceOf(all),
		Significant: sig,
		ConfirmedAt: -1,
	}
	for _, r := range rows {
		if r.OK && r.Relevant && r.Headline.State == StateConfirmed {
			m.ConfirmedAt = max(m.ConfirmedAt, r.Headline.ConfirmedAt)
		}
	}
	m.Top = topChanges(rows)
	m.Direction = m.Primary.Direction().Join(m.Secondary.Direction())
	m.DeservesAttention = DeservesAttention(m.Primary, m.Secondary)
	switch sigModel {
	case ModelRustcPerf2021:
		m.Confidence = ConfidenceOf(sig)
	case ModelPerfpages:
		m.Confidence = headlineConfidence(rows)
	default:
		m.Confidence = m.Relevance.Confidence()
	}
	m.DefinitelyRelevant = m.Confidence == DefinitelyRelevant
	return m
}

// headlineConfidence is a metric's confidence under model perfpages: its
// headline verdicts already ask that a change stand out of its series'
// noise and stay, so one counted change makes the comparison definitely
// relevant; changes waiting for later values make it probably relevant.
func headlineConfidence(rows []*Row) Confidence {
	c := MaybeRelevant
	for _, r := range rows {
		switch {
		case !r.OK:
		case r.Relevant:
			return DefinitelyRelevant
		case r.Headline.State == StateUnconfirmed:
			c = ProbablyRelevant
		}
	}
	return c
}

// Comparison compares two artifacts test case by test case.
type Comparison struct {
	Base, Head int   // indices into Dataset.Artifacts
	Rows       []Row // in series order
	// Metrics summarize the rows per metric name, sorted by name.
	Metrics []MetricSummary
	// Options are the options used, defaults filled in.
	Options Options
	// HistoryFrom is the newest main-line artifact of the test cases'
	// history (the base's main-line parent, or the main-line baseline or
	// parent of a base that is not on the main line), -1 when there is
	// none: model rustc-perf then uses the default threshold everywhere and
	// model rustc-perf-2021 finds nothing dodgy.
	HistoryFrom int
	// Warnings hold what could not be compared (a = 0, missing values).
	Warnings []error
}

// Metric returns the summary of one metric.
func (c *Comparison) Metric(name string) (*MetricSummary, bool) {
	i, ok := slices.BinarySearchFunc(c.Metrics, name, func(m MetricSummary, name string) int { return strings.Compare(m.Metric, name) })
	if !ok {
		return nil, false
	}
	return &c.Metrics[i], true
}

// The significance models.
const (
	// ModelPerfpages is the default: model rustc-perf wherever a test case
	// has Options.History values of history, and where it has fewer, the
	// evidence the results carry (see [SignificanceBasis]).
	ModelPerfpages = "perfpages"
	// ModelRustcPerf is rustc-perf's model exactly (site/src/comparison.rs
	// and docs/comparison-analysis.md): the IQR fence over the 30 previous
	// values, 0.2 % with fewer.
	ModelRustcPerf = "rustc-perf"
	// ModelRustcPerf2021 is rustc-perf's model of 2021 (the 2021 version
	// of docs/comparison-analysis.md): dodgy test cases and fixed
	// thresholds.
	ModelRustcPerf2021 = "rustc-perf-2021"
)

// SignificanceBasis says what decided whether a row's change is
// significant.
//
// Model rustc-perf judges a test case with Options.History values of
// history (30) by rustc-perf's threshold, the upper IQR fence of its
// percent changes (BasisHistory), and one with fewer by a fixed 0.2 %
// (BasisShort). Model rustc-perf-2021 has its own rule (Basis2021).
//
// Model perfpages (the default) judges by its headline verdict (see
// headline.go): a main-line commit against its parent by its series'
// noise and whether the change stayed (BasisPersistence), any other pair
// by the base's noise (BasisNoise), and a series with too little history
// for a noise model not at all (BasisYoung).
type SignificanceBasis string

// Significance bases.
const (
	BasisHistory SignificanceBasis = "history"         // the IQR fence of Options.History values of history
	BasisShort   SignificanceBasis = "short-history"   // fewer values: 0.2 %
	Basis2021    SignificanceBasis = "rustc-perf-2021" // 0.1 %, 1 % for a dodgy test case
	// The bases of model perfpages' headline (headline.go).
	BasisPersistence SignificanceBasis = "persistence"        // a main-line commit against its parent: out of the noise, and it stayed
	BasisNoise       SignificanceBasis = "noise"              // any other pair: out of the base's noise
	BasisYoung       SignificanceBasis = "not-enough-history" // too few values of history for a noise model
)

// Options selects the significance model and its history windows. Zero
// fields take their default.
type Options struct {
	Model       string  // ModelPerfpages (default), ModelRustcPerf or ModelRustcPerf2021
	History     int     // values of history for models perfpages and rustc-perf (30)
	History2021 int     // values of history for model rustc-perf-2021 (100)
	DodgyDelta  float64 // model 2021: a relative delta above this is significant for dodginess (0.1)

	// The other engines.
	ZThreshold     float64 // lookback z-score threshold (5)
	Lookback       int     // commits of the z-score's distribution (100)
	Alpha          float64 // significance level of the sample tests (0.05), also for model perfpages' short-history rule
	NResamples     int     // Criterion's bootstrap resamples (100 000)
	NoiseThreshold float64 // Criterion's noise threshold (0.01)
	// Budgets are perfgate budgets by metric name; a budget without a
	// direction takes the metric's.
	Budgets map[string]budget.Budget
	// ZMinCommits is the fewest distinct commits a lookback distribution
	// needs for a z-score (DefaultZMinCommits); 2 is Conbench's own
	// minimum.
	ZMinCommits int
	// SummaryOnly skips the other engines: rows get the significance
	// model's classification only (with the samples' test where model
	// perfpages' short-history rule needs it). Triage reports and
	// dashboard lists need no more.
	SummaryOnly bool
	// Headline tunes model perfpages' headline verdict (zero fields:
	// DefaultHeadline's).
	Headline HeadlineOptions
}

// DefaultOptions are model perfpages with rustc-perf's current settings
// and the other engines' defaults.
var DefaultOptions = Options{Model: ModelPerfpages, History: RustcPerfHistory, History2021: History2021, DodgyDelta: DefaultDodgyDelta,
	ZThreshold: DefaultZThreshold, Lookback: DefaultLookback, Alpha: DefaultAlpha, NResamples: DefaultNResamples, NoiseThreshold: DefaultNoiseThreshold,
	ZMinCommits: DefaultZMinCommits, Headline: DefaultHeadline}

func (o Options) withDefaults() Options {
	if o.Model == "" {
		o.Model = DefaultOptions.Model
	}
	if o.History == 0 {
		o.History = DefaultOptions.History
	}
	if o.History2021 == 0 {
		o.History2021 = DefaultOptions.History2021
	}
	if o.DodgyDelta == 0 {
		o.DodgyDelta = DefaultOptions.DodgyDelta
	}
	if o.ZThreshold == 0 {
		o.ZThreshold = DefaultOptions.ZThreshold
	}
	if o.Lookback == 0 {
		o.Lookback = DefaultOptions.Lookback
	}
	if o.Alpha == 0 {
		o.Alpha = DefaultOptions.Alpha
	}
	if o.NResamples == 0 {
		o.NResamples = DefaultOptions.NResamples
	}
	if o.NoiseThreshold == 0 {
		o.NoiseThreshold = DefaultOptions.NoiseThreshold
	}
	if o.ZMinCommits == 0 {
		o.ZMinCommits = DefaultOptions.ZMinCommits
	}
	o.Headline = o.Headline.withDefaults()
	return o
}

// OptionError is one invalid option. Key is the option's name in
// perfpages.toml's [analysis] section (history, nresamples, …), so that
// config reports `[analysis] nresamples = 20000000: must be ≤ 10000000`
// from this, the one set of rules, instead of keeping its own copy.
type OptionError struct {
	Key    string
	Value  any
	Reason string
}

func (e *OptionError) Error() string { return fmt.Sprintf("%s = %v: %s", e.Key, e.Value, e.Reason) }

// Validate reports what is wrong with o (zero fields are fine: they take
// their default), as an [OptionError] per invalid option joined with
// errors.Join. These are the only rules on analysis options: config
// validates [analysis] with them.
func (o Options) Validate() error {
	o = o.withDefaults()
	var errs []error
	bad := func(key string, v any, format string, args ...any) {
		errs = append(errs, &OptionError{Key: key, Value: v, Reason: fmt.Sprintf(format, args...)})
	}
	if o.Model != ModelPerfpages && o.Model != ModelRustcPerf && o.Model != ModelRustcPerf2021 {
		bad("model", fmt.Sprintf("%q", o.Model), "unknown model (want %s, %s or %s)", ModelPerfpages, ModelRustcPerf, ModelRustcPerf2021)
	}
	if o.History < 2 {
		bad("history", o.History, "too short (want at least 2 values)")
	}
	if o.History2021 < 2 {
		bad("history_2021", o.History2021, "too short (want at least 2 values)")
	}
	if !(o.DodgyDelta > 0) || math.IsInf(o.DodgyDelta, 0) {
		bad("dodgy_delta", o.DodgyDelta, "want a positive number")
	}
	if !(o.ZThreshold > 0) || math.IsInf(o.ZThreshold, 0) {
		bad("z_threshold", o.ZThreshold, "want a positive number")
	}
	if o.Lookback < 2 {
		bad("lookback", o.Lookback, "too short (want at least 2 commits)")
	}
	if o.ZMinCommits < 2 {
		bad("z_min_commits", o.ZMinCommits, "want at least 2 commits (Conbench's minimum)")
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		bad("alpha", o.Alpha, "want a significance level between 0 and 1")
	}
	switch {
	case o.NResamples < 1:
		bad("nresamples", o.NResamples, "want a positive number of bootstrap resamples")
	case o.NResamples > criterion.MaxResamples:
		bad("nresamples", o.NResamples, "must be ≤ %d (criterion.MaxResamples: more resamples cost memory and time without changing a verdict)", criterion.MaxResamples)
	}
	if !(o.NoiseThreshold > 0) || math.IsInf(o.NoiseThreshold, 0) {
		bad("noise_threshold", o.NoiseThreshold, "want a positive fraction such as 0.01")
	}
	if len(errs) == 0 {
		// What the checks above do not cover (none today): the options
		// Criterion's engine is built with must be valid too.
		if err := o.criterionOptions().Validate(); err != nil {
			errs = append(errs, fmt.Errorf("criterion: %w", err))
		}
	}
	return errors.Join(errs...)
}

// historyWindow is how many values of history the model looks at.
func (o Options) historyWindow() int {
	if o.Model == ModelRustcPerf2021 {
		return o.History2021
	}
	return o.History
}

// Compare compares artifact head with artifact base over every series that
// has a result for either of them. Failed benchmarks appear as rows with a
// Note and no change; they are excluded from every statistic.
//
// The history of a test case is the values of its series at the main-line
// ancestors of the base, base excluded, newest first (see
// [Comparison.HistoryFrom] for bases that are not on the main line).
// rustc-perf takes exactly the 30 ancestor commits and gives up on a test
// case when any of them lacks a value; here the history is the 30
// main-line ancestors with a value for the test case: ancestors without
// a value (not run, failed) are skipped instead, until Options.History
// values are found, looking back at most 3 × Options.History ancestors so
// that a test case that stopped running long ago does not reach into
// another era. Model rustc-perf-2021 does the same with
// Options.History2021.
//
// The cost is O(series × window × log points). To compare many pairs of
// the same dataset, use a [Comparer].
func Compare(d *model.Dataset, base, head int, opts Options) *Comparison {
	if opts.Model == "" || opts.Model == ModelPerfpages {
		return NewComparer(d, opts).Compare(base, head) // the headline needs the series' steps
	}
	return compareWith(d, base, head, opts, nil, newEngines(d, nil), nil)
}

// Comparer compares many pairs of artifacts of one dataset, such as every
// main-line commit with its parent. It indexes each series' main-line points
// once (O(points)); after that a comparison of two main-line artifacts costs
// O(series × (window + log points)) with one binary search per series, and
// is several times cheaper than [Compare]. The commit pages, every
// main-line commit against its predecessor, are cheaper still through
// [Comparer.Consecutive], which slides the windows along each series
// instead of walking them per pair. It is safe for concurrent use.
type Comparer struct {
	d     *model.Dataset
	opts  Options
	lines []line // per series of d.Series: its main-line points by position
	eng   *engines
	// heads are the headline verdicts of each series' consecutive rows
	// under model perfpages, from the steps SetSteps gave (or, without,
	// the steps of changepoint's defaults, found on first use).
	heads     []headlines
	headsOnce sync.Once
	steps     []Step
	// headCache, when not nil, holds the last build's verdicts
	// (HeadCache): only what may have changed is computed again.
	headCache *HeadCache
	// rank is each main-line position's rank in the z-score's order of
	// commits, (Date, ID): the key of its rows in a sliding
	// zscore.Window.
	rank []int
}

// line is a series' points on the main line, in order of position: the
// index every comparison of the comparer walks. When the series' points
// are all on the main line in order (every series of a history without
// pull requests or other branches), entry k is point k and its position
// is read off its artifact (artPos): the line costs nothing per point.
// Otherwise it lists its entries (8 bytes each). A list for every series,
// 8 bytes for every point, was 20 MB of a cold build's 150 MB of live
// heap at M and 400 MB at L, for lookups that read the point anyway.
type line struct {
	pts     []model.Point // the series' points
	artPos  []int32       // the comparer's: artifact → main-line position, -1 off it
	entries []linePoint   // nil: entry k is point k
}

// newLine indexes the main-line points of pts, artPos the main-line
// position of each artifact.
func newLine(pts []model.Point, artPos []int32) line {
	l := line{pts: pts, artPos: artPos}
	dense, last := true, int32(-1)
	for k := range pts {
		pos := artPos[pts[k].Artifact]
		if pos < 0 || pos <= last {
			dense = false
			break
		}
		last = pos
	}
	if dense {
		return l
	}
	n := 0
	for k := range pts {
		if artPos[pts[k].Artifact] >= 0 {
			n++
		}
	}
	l.entries = make([]linePoint, 0, n)
	for k := range pts {
		if pos := artPos[pts[k].Artifact]; pos >= 0 {
			l.entries = append(l.entries, newLinePoint(pos, k, &pts[k]))
		}
	}
	slices.SortFunc(l.entries, func(a, b linePoint) int { return cmp.Compare(a.pos, b.pos) })
	return l
}

// len is the number of entries.
func (l *line) len() int {
	if l.entries != nil {
		return len(l.entries)
	}
	return len(l.pts)
}

// search is the index of the first entry at or after position pos among
// the entries from lo on.
func (l *line) search(pos int32, lo int) int {
	hi := l.len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if l.pos(m) < pos {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// point is the index in Series.Points of entry k.
func (l *line) point(k int) int {
	if l.entries != nil {
		return int(l.entries[k].idx())
	}
	return k
}

// pos is the main-line position of entry k.
func (l *line) pos(k int) int32 {
	if l.entries != nil {
		return l.entries[k].pos
	}
	return l.artPos[l.pts[k].Artifact]
}

// at is entry k.
func (l *line) at(k int) linePoint {
	if l.entries != nil {
		return l.entries[k]
	}
	return newLinePoint(l.artPos[l.pts[k].Artifact], k, &l.pts[k])
}

// linePoint is an entry of a line: a point of a series on the main line.
type linePoint struct {
	pos int32 // position on the main line
	ref int32 // index in Series.Points, ^index when the point is not OK
}

// value is the point's value, pts its series' points.
func (lp linePoint) value(pts []model.Point) float64 { return pts[lp.idx()].Value }

// idx is the point's index in Series.Points.
func (lp linePoint) idx() int32 {
	if lp.ref < 0 {
		return ^lp.ref
	}
	return lp.ref
}

// ok is the point's OK.
func (lp linePoint) ok() bool { return lp.ref >= 0 }

func newLinePoint(pos int32, idx int, p *model.Point) linePoint {
	ref := int32(idx)
	if !p.OK() {
		ref = ^ref
	}
	return linePoint{pos, ref}
}

// NewComparer indexes d for comparisons with opts. The dataset must not
// change afterwards.
func NewComparer(d *model.Dataset, opts Options) *Comparer {
	return NewComparerCache(d, opts, nil)
}

// NewComparerCache is NewComparer with a cache of sample tests that may
// hold results of earlier builds (nil: a new one).
func NewComparerCache(d *model.Dataset, opts Options, cache *TestCache) *Comparer {
	c := &Comparer{d: d, opts: opts, lines: make([]line, len(d.Series)), eng: newEngines(d, cache)}
	artPos := make([]int32, len(d.Artifacts))
	for a := range artPos {
		artPos[a] = int32(d.MainPos(a))
	}
	for i, s := range d.Series {
		c.lines[i] = newLine(s.Points, artPos)
	}
	c.rank = lineRanks(d)
	return c
}

// Compare is [Compare] with the comparer's dataset and options.
func (c *Comparer) Compare(base, head int) *Comparison {
	return compareWith(c.d, base, head, c.opts, c.lines, c.eng, c)
}

// SetSteps gives the comparer the dataset's steps (Steps), which
// model perfpages' headline confirms changes with. Call it before any
// comparison; without it the comparer finds them itself with
// changepoint's default options when it first needs them.
func (c *Comparer) SetSteps(steps []Step) {
	c.steps = steps
	c.headsOnce.Do(c.computeHeads)
}

// headlinesOf returns series i's headline verdicts.
func (c *Comparer) headlinesOf(i int) headlines {
	c.headsOnce.Do(c.computeHeads)
	return c.heads[i]
}

func (c *Comparer) computeHeads() {
	d := c.d
	if c.steps == nil {
		c.steps = Steps(d, changepoint.DefaultOptions, nil)
	}
	bySeries := make([][]Step, len(d.Series))
	for _, st := range c.steps {
		bySeries[st.Series] = append(bySeries[st.Series], st)
	}
	breaks := breaksOf(d)
	opts, _ := c.opts.resolve()
	cache := c.headCache
	if cache != nil {
		cache.begin(opts.Headline)
	}
	c.heads = make([]headlines, len(d.Series))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(d.Series))) {
		wg.Go(func() {
			// Memory for each series' values and standard errors in turn:
			// nothing kept refers to it.
			var buf, vals, se []float64
			for {
				i := int(next.Add(1)) - 1
				if i >= len(d.Series) {
					return
				}
				s := d.Series[i]
				vals = d.MainLineValuesTo(vals, s)
				from := 0
				var kept headlines
				if cache != nil {
					if old := cache.take(s.Key); old != nil {
						from = resumeAt(old, cache.Unchanged, vals, bySeries[i], breaks[i], opts.Headline)
						kept = old.before(from)
					}
				}
				// Within-run evidence, where verdicts are computed.
				se = slices.Grow(se[:0], len(vals))[:len(vals)]
				clear(se[from:])
				for k := range s.Points {
					p := &s.Points[k]
					if pos := d.MainPos(int(p.Artifact)); pos >= from {
						se[pos] = standardError(p, &buf)
					}
				}
				h := seriesHeadlines(vals, se, bySeries[i], breaks[i], s.Metric.Direction, opts.Headline, from)
				h.verdicts = append(kept.verdicts, h.verdicts...)
				h.noise = append(kept.noise, h.noise...)
				c.heads[i] = h
				if cache != nil {
					e := CachedHeads{Key: s.Key, Breaks: breaks[i]}
					for _, st := range bySeries[i] {
						e.Steps = append(e.Steps, st.Step)
					}
					// Shared, not copied: neither is changed once computed.
					e.Verdicts, e.Noise = h.verdicts, h.noise
					cache.put(e, len(vals)-from)
				}
			}
		})
	}
	wg.Wait()
}

// Summary is Compare with Options.SummaryOnly: the model's classification
// and the summaries, without the other engines (but with the samples'
// test where model perfpages' short-history rule needs it).
func (c *Comparer) Summary(base, head int) *Comparison {
	o := c.opts
	o.SummaryOnly = true
	return compareWith(c.d, base, head, o, c.lines, c.eng, c)
}

// historyStart is the main-line position of the newest ancestor of base:
// its predecessor when base is on the main line, else the position of its
// baseline (try runs) or first parent when that is on the main line. It is
// -1 when base has no main-line ancestry.
func historyStart(d *model.Dataset, base int) int {
	if p := d.MainPos(base); p >= 0 {
		return p - 1
	}
	a := d.Artifacts[base]
	for _, id := range []string{a.Baseline, artifactFirstParent(a)} {
		if id == "" {
			continue
		}
		if i, ok := d.Index(id); ok {
			if q := d.MainPos(i); q >= 0 {
				return q
			}
		}
	}
	return -1
}

func artifactFirstParent(a model.Artifact) string {
	if len(a.Parents) == 0 {
		return ""
	}
	return a.Parents[0]
}

// walkHistory appends to dst the values of s at main-line positions start,
// start−1, … (newest first), skipping positions without a value, until it
// has n values or has looked at 3·n positions.
func walkHistory(dst []float64, d *model.Dataset, s *model.Series, start, n int) []float64 {
	stop := max(start-3*n, -1)
	for pos := start; pos > stop && len(dst) < n; pos-- {
		if p := s.At(d.MainLine[pos]); p != nil && p.OK() {
			dst = append(dst, p.Value)
		}
	}
	return dst
}

// lineHistory is walkHistory over a series' main-line index: end is the
// number of entries at positions up to start.
func lineHistory(dst []float64, line *line, pts []model.Point, end, start, n int) []float64 {
	stop := start - 3*n
	for j := end - 1; j >= 0 && len(dst) < n; j-- {
		lp := line.at(j)
		if int(lp.pos) <= stop {
			break
		}
		if lp.ok() {
			dst = append(dst, lp.value(pts))
		}
	}
	return dst
}

// lineSearch returns the index of the first entry of line at or after
// main-line position pos, given that the entries before from are all
// before pos. The entry is usually at from or next to it when comparing
// consecutive commits.
func lineSearch(line *line, pos, from int) int {
	for k := from; k < line.len() && k < from+2; k++ {
		if int(line.pos(k)) >= pos {
			return k
		}
	}
	return line.search(int32(pos), min(from+2, line.len()))
}

// linePoints finds the points of series s at base and head (main-line
// positions bpos and hpos, or -1) through its line, and the number of line
// entries before base.
func linePoints(s *model.Series, line *line, base, head, bpos, hpos int) (before, after *model.Point, end int) {
	at := func(k, pos int) *model.Point {
		if k < line.len() && int(line.pos(k)) == pos {
			return &s.Points[line.point(k)]
		}
		return nil
	}
	if bpos >= 0 {
		end = lineSearch(line, bpos, 0)
		before = at(end, bpos)
	} else {
		before = s.At(base)
	}
	switch {
	case hpos < 0:
		after = s.At(head)
	case bpos >= 0 && hpos >= bpos:
		after = at(lineSearch(line, hpos, end), hpos)
	default:
		after = at(lineSearch(line, hpos, 0), hpos)
	}
	return before, after, end
}

// resolve fills in the defaults of opts. Invalid options are replaced by
// DefaultOptions, with the warning every comparison made with them
// carries; SummaryOnly is kept, so that a summary stays a summary.
func (o Options) resolve() (Options, error) {
	opts := o.withDefaults()
	if err := opts.Validate(); err != nil {
		summary := opts.SummaryOnly
		opts = DefaultOptions
		opts.SummaryOnly = summary
		return opts, fmt.Errorf("analysis options: %w; using the defaults", err)
	}
	return opts, nil
}

// newComparison is a comparison of base with head before its rows: the
// resolved options, their warning and the start of the history.
func newComparison(d *model.Dataset, base, head int, opts Options, warning error) *Comparison {
	c := &Comparison{Base: base, Head: head, HistoryFrom: -1, Options: opts}
	if warning != nil {
		c.Warnings = append(c.Warnings, warning)
	}
	if base < 0 || base >= len(d.Artifacts) || head < 0 || head >= len(d.Artifacts) {
		return c
	}
	if start := historyStart(d, base); start >= 0 {
		c.HistoryFrom = d.MainLine[start]
	}
	return c
}

// NoteNotANumber is the note of a row whose values give no relative
// change (a NaN or an infinity): the one row whose comparison also carries
// a warning about it.
const NoteNotANumber = "value is not a number"

// newRow is the rule for a row of series s between the points before and
// after (either may be nil): the note of a row without a change, the
// change and its direction. classify reports whether the row has a change
// to classify against its history; warning is set when a value is not a
// finite number.
func newRow(s *model.Series, before, after *model.Point) (r Row, classify bool, warning error) {
	r = Row{Series: s, Before: before, After: after}
	switch {
	case after != nil && after.Failure() != "":
		r.Note = "failed: " + after.Failure()
	case before != nil && before.Failure() != "":
		r.Note = "failed in base: " + before.Failure()
	case before == nil || !before.OK():
		r.Note = "new: no result in base"
	case after == nil || !after.OK():
		r.Note = "gone: no result in head"
	default:
		r.Change, r.OK = RelativeChange(before.Value, after.Value)
		if !r.OK {
			r.Note = NoteNotANumber
			return r, false, fmt.Errorf("%s %s on %s: a value is not a finite number, no relative change", s.Case, s.Key.Metric, s.Key.Machine)
		}
		r.FromZero = math.IsInf(r.Change, 0)
		r.Regression = IsRegression(r.Change, s.Metric.Direction)
		return r, true, nil
	}
	return r, false, nil
}

func compareWith(d *model.Dataset, base, head int, opts Options, lines []line, eng *engines, cmpr *Comparer) *Comparison {
	opts, warning := opts.resolve()
	c := newComparison(d, base, head, opts, warning)
	if base < 0 || base >= len(d.Artifacts) || head < 0 || head >= len(d.Artifacts) {
		c.Warnings = append(c.Warnings, fmt.Errorf("no such artifacts to compare: %d and %d (the dataset has %d)", base, head, len(d.Artifacts)))
		return c
	}
	start := historyStart(d, base)
	window := opts.historyWindow()
	hist := make([]float64, 0, window)
	pbuf := make([]float64, 0, window)
	var nbuf, sebuf, wbuf []float64

	bpos, hpos := d.MainPos(base), d.MainPos(head)
	for i, s := range d.Series {
		var before, after *model.Point
		var end int // with lines: entries of lines[i] up to the history's start
		if lines != nil {
			l := &lines[i]
			before, after, end = linePoints(s, l, base, head, bpos, hpos)
			if bpos < 0 {
				end = l.search(int32(start)+1, 0) // the entries at positions up to start
			}
		} else {
			before, after = s.At(base), s.At(head)
		}
		if before == nil && after == nil {
			continue
		}
		r, classifiable, warning := newRow(s, before, after)
		if warning != nil {
			c.Warnings = append(c.Warnings, warning)
		}
		if !opts.SummaryOnly && after != nil {
			var line *line
			if lines != nil {
				line = &lines[i]
			}
			var dist zscore.Dist
			if scored(&r) {
				dist = eng.distribution(d, i, line, base, opts)
			}
			eng.fill(&r, dist, opts)
		}
		if classifiable {
			h := hist[:0]
			if start >= 0 {
				if lines != nil {
					h = lineHistory(h, &lines[i], s.Points, end, start, window)
				} else {
					h = walkHistory(h, d, s, start, window)
				}
			}
			if opts.Model != ModelPerfpages || cmpr == nil {
				classify(&r, h, opts, pbuf, eng)
			} else {
				if bpos >= 0 && hpos == bpos+1 {
					applyVerdict(&r, cmpr.headlinesOf(i).at(hpos, standardError(r.After, &sebuf)), BasisPersistence, opts)
				} else {
					nh := append(nbuf[:0], r.Before.Value)
					if start >= 0 && lines != nil {
						nh = lineHistory(nh, &lines[i], s.Points, end, start, opts.Headline.WidthHistory)
					} else if start >= 0 {
						nh = walkHistory(nh, d, s, start, opts.Headline.WidthHistory)
					}
					nbuf = nh
					v := noiseVerdict(nh, r.After.Value, standardError(r.After, &sebuf), s.Metric.Direction, opts.Headline, &wbuf)
					applyVerdict(&r, v, BasisNoise, opts)
				}
			}
		}
		c.Rows = append(c.Rows, r)
	}
	c.Metrics = summarizeMetrics(c.Rows, opts.Model)
	return c
}

// classify sets the significance fields of r from the history h of its
// test case (newest first) under opts; pbuf is scratch space and eng runs
// the samples' test if the rule needs it and r has none yet.
func classify(r *Row, h []float64, opts Options, pbuf []float64, eng *engines) {
	if opts.Model == ModelRustcPerf2021 {
		r.History = len(h)
		r.Basis = Basis2021
		r.Dodgy = ClassifyDodginess(h, opts.DodgyDelta).Dodgy()
		r.setSignificance(ClassifyChange2021(r.Change, r.Dodgy, r.Series.Metric.Noise.NoiseFactor()))
		r.noChangeFromZero()
		return
	}
	classifyAt(r, len(h), thresholdInto(pbuf, h, opts.History), opts)
}

// classifyAt is the significance rule of model rustc-perf (see
// [SignificanceBasis]), given the length of r's history and the threshold
// rustc-perf computes from it (its default when the history is shorter
// than Options.History). Compare, Consecutive and SeriesHistory all
// decide here.
func classifyAt(r *Row, history int, threshold float64, opts Options) {
	r.History = history
	r.Basis = BasisHistory
	if history < opts.History {
		r.Basis = BasisShort
	}
	r.setSignificance(ClassifyChange(r.Change, threshold, r.Series.Metric.Noise.NoiseFactor()))
	r.noChangeFromZero()
}

// applyVerdict makes v the row's significance under model perfpages:
// Significant and Relevant are its headline, Threshold the change at Z
// widths of its noise (magnitudes are rustc-perf's at that threshold).
func applyVerdict(r *Row, v Verdict, basis SignificanceBasis, opts Options) {
	r.Headline = v
	r.History = v.History
	if v.State == StateYoung {
		r.Basis = BasisYoung
		r.Threshold, r.Factor, r.Magnitude = 0, 0, MagnitudeOf(r.Change, math.Inf(1), r.Series.Metric.Noise.NoiseFactor())
		r.Significant, r.Relevant = false, false
		// Without a noise model only the samples' test can say a change
		// is within the noise, and only if it could have found one.
		canTell := r.Test.OK && r.Test.MinP <= opts.Alpha
		budgetWithinNoise(r, r.Test.Significant || !canTell)
		return
	}
	r.Basis = basis
	sig := ClassifyChange(r.Change, math.Expm1(opts.Headline.Z*v.Width), r.Series.Metric.Noise.NoiseFactor())
	r.Threshold, r.Factor, r.Magnitude = sig.Threshold, sig.Factor, sig.Magnitude
	r.Significant, r.Relevant = v.Relevant, v.Relevant
	if v.State == StateConfirmed {
		r.Regression = v.Regression
	}
	budgetWithinNoise(r, r.Relevant)
}

// budgetWithinNoise makes a budget failure of a change that cannot be told
// from the noise a warning: a budget fails only on a change that is over
// it and distinguishable (the headline counts it; for a series too young
// for a noise model, the samples' test found it or has too few samples to
// find anything), unless the budget keeps
// perfgate's rule (FailWithinNoise).
func budgetWithinNoise(r *Row, distinguishable bool) {
	b := r.Budget
	if b == nil || b.Delta.Status != budget.Fail || distinguishable || b.Budget.FailWithinNoise {
		return
	}
	b.WithinNoise = true
	b.Delta.Status = budget.Warn
	b.Reason = budget.Reason(r.Series.Key.Metric, budget.Warn)
}

// noChangeFromZero makes 0 → 0 what it is, no change, whatever the
// threshold: a flat history's threshold of 0 would otherwise call it
// significant (upstream's 0/0 is NaN, never significant).
func (r *Row) noChangeFromZero() {
	if r.Change == 0 && r.Before.Value == 0 {
		r.Significant, r.Relevant = false, false
	}
}

func (r *Row) setSignificance(sig ChangeSignificance) {
	r.Threshold, r.Factor, r.Significant, r.Magnitude, r.Relevant = sig.Threshold, sig.Factor, sig.Significant, sig.Magnitude, sig.Relevant
}

func summarizeMetrics(rows []Row, sigModel string) []MetricSummary {
	// A comparison has a handful of metrics: groups found by a linear
	// scan cost less than a map (a commit page summarizes thousands of
	// rows).
	type group struct {
		name string
		rows []*Row
	}
	var groups []group
	g := -1
	for i := range rows {
		name := rows[i].Series.Key.Metric
		if g < 0 || groups[g].name != name {
			g = slices.IndexFunc(groups, func(x group) bool { return x.name == name })
			if g < 0 {
				groups = append(groups, group{name: name})
				g = len(groups) - 1
			}
		}
		groups[g].rows = append(groups[g].rows, &rows[i])
	}
	slices.SortFunc(groups, func(a, b group) int { return strings.Compare(a.name, b.name) })
	out := make([]MetricSummary, 0, len(groups))
	for _, x := range groups {
		out = append(out, SummarizeMetric(x.name, x.rows, sigModel))
	}
	return out
}
