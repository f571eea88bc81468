package analysis

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"sync"

	"github.com/perfpages/perfpages/analysis/model"
)

// Results is the analysis stage's value: what the site model reads of a
// dataset's statistics. The stage finds the dataset's steps ([Steps]),
// then [Analyze] returns the Results; the site model asks them for
// comparisons, summaries, steps, headline verdicts, watches, weekly triage
// reports and series medians, and builds no engine and runs no statistics
// of its own. Comparisons are computed when asked (a nightly build
// computes the few whose inputs changed), by the one Comparer that holds
// the steps and the headline verdicts of every series.
type Results struct {
	d    *model.Dataset
	cmp  *Comparer // nil for Assembled results
	opts Options
	// parts makes the comparisons of Assembled results; steps are
	// their steps.
	parts func(base, head int) (*Comparison, bool)
	steps []Step

	digestOnce sync.Once
	digests    []string
}

// AnalyzeOptions are what Analyze needs besides the dataset.
type AnalyzeOptions struct {
	Compare Options
	// Steps are the dataset's step changes (Steps); nil: found
	// with changepoint's defaults when the headline first needs them.
	Steps []Step
	// Tests caches sample tests, perhaps with earlier builds' results.
	Tests *TestCache
	// Heads, when not nil, holds the headline verdicts of an earlier
	// build (HeadCache): only those that may differ are computed again,
	// and it is updated with this build's.
	Heads *HeadCache
}

// Analyze returns the analysis of d.
func Analyze(d *model.Dataset, o AnalyzeOptions) *Results {
	c := NewComparerCache(d, o.Compare, o.Tests)
	c.headCache = o.Heads
	if o.Steps != nil {
		c.SetSteps(o.Steps)
	}
	opts, _ := o.Compare.resolve()
	return &Results{d: d, cmp: c, opts: opts}
}

// Dataset is the dataset analysed.
func (r *Results) Dataset() *model.Dataset { return r.d }

// Options are the comparison options, defaults filled in.
func (r *Results) Options() Options { return r.opts }

// Steps are the step changes of every series (see Steps): those
// AnalyzeOptions gave, or found with changepoint's defaults.
func (r *Results) Steps() []Step {
	if r.cmp == nil {
		return r.steps
	}
	r.cmp.headsOnce.Do(r.cmp.computeHeads)
	return r.cmp.steps
}

// Compare compares artifact head with artifact base (see [Compare]).
func (r *Results) Compare(base, head int) *Comparison {
	if r.cmp == nil {
		return r.part(base, head)
	}
	return r.cmp.Compare(base, head)
}

// Summary is Compare with Options.SummaryOnly.
func (r *Results) Summary(base, head int) *Comparison {
	if r.cmp == nil {
		return r.part(base, head)
	}
	return r.cmp.Summary(base, head)
}

// Consecutive compares each main-line commit in [from, to) with its
// predecessor (see [Comparer.Consecutive]).
func (r *Results) Consecutive(from, to int) []*Comparison {
	if r.cmp == nil {
		out := make([]*Comparison, 0, to-from)
		for pos := from; pos < to; pos++ {
			out = append(out, r.part(r.d.MainLine[pos-1], r.d.MainLine[pos]))
		}
		return out
	}
	return r.cmp.Consecutive(from, to)
}

// MetricSummary summarizes rows of this analysis' comparisons together,
// whatever their metric ([SummarizeMetric] under the comparisons' model):
// the dashboard's direction of one machine's latest changes.
func (r *Results) MetricSummary(rows []*Row) MetricSummary {
	return SummarizeMetric("", rows, r.opts.Model)
}

// Watch is what the comparison c needs a look at under o
// ([WatchComparison]). A site build makes it with each main-line
// comparison's rows and keeps it with the comparison's summary, for the
// weekly reports and the dashboard.
func (r *Results) Watch(c *Comparison, o WatchOptions) *Watch { return WatchComparison(c, o) }

// Weeks are the weeks of the main line, oldest first ([Weeks]).
func (r *Results) Weeks() []Week { return Weeks(r.d) }

// WeekSteps are the steps whose culprit artifact landed in week w
// ([WeekSteps] of [Results.Steps]).
func (r *Results) WeekSteps(w Week) []Step { return WeekSteps(r.d, w, r.Steps()) }

// TriageOptions say what a weekly triage report keeps and lists.
type TriageOptions struct {
	Filter TriageFilter
	// Watch caps the "Needs a look" section (and is what the watches
	// Known returns were made with).
	Watch WatchOptions
	// Metric, when not empty, restricts the report to one metric, its
	// steps too.
	Metric string
	// Known returns the summary comparison of base and head, and its
	// watch, when the caller has made them already (a site build makes
	// one for each commit page); a nil comparison, or a nil Known: Triage
	// makes them.
	Known func(base, head int) (*Comparison, *Watch)
}

// Triage is the weekly triage report of week w: each head of the week
// against its main-line predecessor, kept by o.Filter ([TriageWith]),
// what needs a look although the filter does not keep it
// ([TriageReport.Look]) and the steps whose culprit landed in the week.
func (r *Results) Triage(w Week, o TriageOptions) *TriageReport {
	type pair struct{ base, head int }
	watches := map[pair]*Watch{}
	rep := TriageWith(r.d, w, o.Filter, o.Metric, func(base, head int) *Comparison {
		if o.Known != nil {
			if c, wt := o.Known(base, head); c != nil {
				watches[pair{base, head}] = wt
				return c
			}
		}
		c := r.Summary(base, head)
		watches[pair{base, head}] = WatchComparison(c, o.Watch)
		return c
	})
	rep.Look(r.d, w, o.Watch, o.Metric, func(base, head int) *Watch { return watches[pair{base, head}] })
	rep.Steps = r.WeekSteps(w)
	if o.Metric != "" {
		rep.Steps = slices.DeleteFunc(rep.Steps, func(st Step) bool { return r.d.Series[st.Series].Key.Metric != o.Metric })
	}
	return rep
}

// RelativeChange is the relative change from a to b as every comparison
// of this analysis computes it ([RelativeChange]). The site's data files
// store the values, and the page's script computes each row's change from
// them the same way: the site model checks with this that it gets the
// row's change.
func (r *Results) RelativeChange(a, b float64) (float64, bool) { return RelativeChange(a, b) }

// Digest identifies the headline verdicts of the rows of the main-line
// commit at position pos against its predecessor. Under model perfpages a
// verdict depends on later values (a change is confirmed, or turns out a
// spike, as values arrive), so everything shown of a commit's comparison
// — its page, its summary in lists and reports — is keyed by its history
// (which only looks back) and this. It is "" under the other models.
func (r *Results) Digest(pos int) string {
	if r.cmp == nil || r.opts.Model != ModelPerfpages || pos < 0 || pos >= len(r.d.MainLine) {
		return ""
	}
	r.digestOnce.Do(r.computeDigests)
	return r.digests[pos]
}

func (r *Results) computeDigests() {
	d := r.d
	hashes := make([][]byte, len(d.MainLine))
	var buf [8 + 4 + 1 + 1 + 8]byte
	for i := range d.Series {
		for _, pv := range r.cmp.headlinesOf(i).verdicts {
			v := pv.V
			binary.LittleEndian.PutUint64(buf[0:], uint64(i))
			binary.LittleEndian.PutUint32(buf[8:], uint32(len(v.State)))
			buf[12] = b2u(v.Relevant)<<0 | b2u(v.Regression)<<1 | b2u(v.Large)<<2
			if len(v.State) > 0 {
				buf[13] = v.State[0]
			}
			binary.LittleEndian.PutUint64(buf[14:], math.Float64bits(float64(float32(v.Widths))))
			hashes[pv.Pos] = append(hashes[pv.Pos], buf[:]...)
			if v.State == StateConfirmed {
				hashes[pv.Pos] = binary.LittleEndian.AppendUint64(hashes[pv.Pos], uint64(v.ConfirmedAt))
			}
		}
	}
	r.digests = make([]string, len(d.MainLine))
	for pos, h := range hashes {
		if h == nil {
			continue
		}
		sum := sha256.Sum256(h)
		r.digests[pos] = hex.EncodeToString(sum[:12])
	}
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}
