package analysis

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/mannwhitney"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// This file runs the other four engines on a comparison's rows: Conbench's
// lookback z-score, the samples' test (Criterion's analysis where both
// results carry iteration counts, benchstat's Mann–Whitney U otherwise)
// and perfgate's budgets. The significance model
// decides significance, relevance and every summary; these are extra
// columns, each with the reason when it cannot be computed, except that
// model perfpages also asks the samples' test where a test case has too
// little history for rustc-perf's threshold (classifyAt).

// SampleTest is the significance test of a row's samples.
type SampleTest struct {
	// Method is MethodCriterion or MethodMannWhitney; "" when no test ran.
	Method string
	// P is the two-sided p-value, valid when OK.
	P  float64
	OK bool
	// Significant is P < α for Criterion and P ≤ α for Mann–Whitney
	// (benchstat prints a delta unless p > α).
	Significant bool
	// Reason says why there is no test, or why it found nothing.
	Reason string
	// Shift is the sign (−1, 0 or +1) of the difference the test
	// measures, head against base: of the medians for Mann–Whitney (the
	// delta benchstat prints), of Criterion's mean change. Model
	// perfpages' short-history rule needs it to agree with the change's.
	Shift int
	// MinP is the smallest p-value the test can give for these sample
	// sizes: 2 / C(n₁+n₂, n₁) for Mann–Whitney (0.1 for 3 samples a side,
	// so that benchstat needs 4 to find anything at α = 0.05), 0 for
	// Criterion. A test whose MinP is above alpha cannot find a
	// difference: model perfpages does not count it as evidence.
	MinP float64
	// Criterion is Criterion's whole comparison when Method is
	// MethodCriterion.
	Criterion *criterion.Change
	// Verdict is Criterion's verdict in the metric's terms: for a metric
	// where higher is better, Criterion's "improved" (the value went down)
	// is a regression and the other way round.
	Verdict criterion.Verdict
}

// The sample tests.
const (
	MethodCriterion   = "criterion"
	MethodMannWhitney = "mann-whitney"
	// MethodWelch is Welch's t-test of the results' summary statistics
	// (SampleSummary), for results that carry those and too few samples
	// (pytest-benchmark's mean, stddev and rounds in a data.js).
	MethodWelch = "welch"
)

// BudgetCheck is a row's perfgate budget status.
type BudgetCheck struct {
	Budget budget.Budget
	Delta  budget.Delta
	// Reason is perfgate's token ("wall-time_fail") for a status other
	// than pass, or why the budget was skipped.
	Reason string
	// WithinNoise marks a regression over the threshold that the headline
	// cannot tell from the series' noise (model perfpages): its status is
	// warn, not fail, unless Budget.FailWithinNoise.
	WithinNoise bool
}

// Engine defaults that are not rustc-perf's.
const (
	DefaultZThreshold     = zscore.DefaultThreshold
	DefaultLookback       = zscore.DefaultCommits
	DefaultAlpha          = 0.05
	DefaultNResamples     = 100_000
	DefaultNoiseThreshold = 0.01
	// DefaultZMinCommits is the fewest distinct commits of a lookback
	// distribution that get a z-score. Conbench's own minimum is 2 (a
	// standard deviation needs two residuals, and the first is 0 by
	// construction), which leaves one real residual: a std from so few
	// residuals is so often tiny that |z| > 5 flags about 15 % of
	// unchanged results (z-scores of −38,880 on real histories), 5 % with
	// 3 commits, 0.8 % with 6 and 0.1 % with 10 (normal noise; see
	// TestZMinCommitsFalseAlarms). Below the minimum a row has no z-score
	// and no band, with the reason.
	DefaultZMinCommits = 10
)

func (o Options) criterionOptions() criterion.Options {
	co := criterion.DefaultOptions
	co.NResamples = o.NResamples
	co.SignificanceLevel = o.Alpha
	co.NoiseThreshold = o.NoiseThreshold
	co.VerdictOnly = true
	co.Workers = 1 // the site compares test cases in parallel already
	return co
}

// engines holds what a comparer keeps for the engines: the z-score's
// per-series data, scratch space and a cache of sample tests.
type engines struct {
	lb    lookback
	tests *TestCache
	pool  sync.Pool // *engineScratch
}

type engineScratch struct {
	obs []zscore.Observation
	z   zscore.Scratch
	// before and after hold the two sides' samples decoded for the rank
	// test (a build's points keep theirs encoded).
	before, after []float64
}

func newEngines(d *model.Dataset, cache *TestCache) *engines {
	if cache == nil {
		cache = NewTestCache()
	}
	e := &engines{lb: newLookback(d), tests: cache}
	e.pool.New = func() any { return new(engineScratch) }
	return e
}

// scored reports whether the engines score row r's head against a
// lookback distribution: whether it has a value.
func scored(r *Row) bool { return r.After != nil && r.After.OK() }

// distribution is the lookback distribution of the ancestry of base for
// series i (see lookback.go). line is the series' main-line index when the
// comparer has one.
func (e *engines) distribution(d *model.Dataset, i int, line *line, base int, opts Options) zscore.Dist {
	sc := e.pool.Get().(*engineScratch)
	defer e.pool.Put(sc)
	obs := sc.obs[:0]
	if bpos := d.MainPos(base); bpos >= 0 && line != nil {
		obs = e.lb.lineObservations(obs, d, i, line, bpos, opts.Lookback)
	} else {
		obs = e.lb.ancestryObservations(obs, d, i, d.Series[i], base, opts.Lookback)
	}
	sc.obs = obs
	return sc.z.Distribution(obs, opts.Lookback)
}

// fill computes the engines' columns of row r, a row with a head: the
// lookback z-score of the head's value against dist, the base's
// distribution (used only when scored(r)), the samples' test and the
// budget.
func (e *engines) fill(r *Row, dist zscore.Dist, opts Options) {
	r.Z = lookbackZ(r, dist, opts)
	r.Test = e.sampleTest(r, opts)
	r.Budget = budgetCheck(r, opts)
}

// lookbackZ is Row.Z: Conbench's z-score of the head's value against dist,
// the lookback distribution of the base (used only when scored(r)), when
// dist spans at least Options.ZMinCommits commits (or the whole lookback
// window, when that is shorter).
func lookbackZ(r *Row, dist zscore.Dist, opts Options) zscore.Z {
	if !scored(r) {
		return zscore.Z{Threshold: opts.ZThreshold, Reason: "no value in head"}
	}
	if need := min(opts.ZMinCommits, opts.Lookback); dist.OK && dist.Commits < need {
		return zscore.Z{Threshold: opts.ZThreshold, Reason: fmt.Sprintf("%d commits of history; a z-score needs at least %d", dist.Commits, need)}
	}
	return zscore.Score(r.After.Value, dist, r.Series.Metric.Direction != model.HigherIsBetter, opts.ZThreshold)
}

// sampleTest runs Criterion's comparison when both results carry iteration
// counts, else the Mann–Whitney U test.
func (e *engines) sampleTest(r *Row, opts Options) SampleTest {
	b, a := r.Before, r.After
	switch {
	case b == nil || a == nil || !b.OK() || !a.OK():
		return SampleTest{Reason: "needs results on both sides"}
	case (b.NumSamples() < 2 || a.NumSamples() < 2) && summaryTestable(r):
		return summaryTest(r, opts)
	case b.NumSamples() < 2 || a.NumSamples() < 2:
		return SampleTest{Reason: fmt.Sprintf("needs at least 2 samples per side (%d and %d): no test", b.NumSamples(), a.NumSamples())}
	}
	if len(b.Iters()) == b.NumSamples() && len(a.Iters()) == a.NumSamples() {
		return e.criterionTest(r, opts)
	}
	sc := e.pool.Get().(*engineScratch)
	sc.before, sc.after = b.SamplesTo(sc.before), a.SamplesTo(sc.after)
	m := mannwhitney.Test(sc.before, sc.after, mannwhitney.Options{Alpha: opts.Alpha})
	e.pool.Put(sc)
	t := SampleTest{Method: MethodMannWhitney, P: m.P, OK: !math.IsNaN(m.P), Significant: m.Significant, Reason: m.Reason, Shift: m.Shift, MinP: m.MinP}
	if !t.OK {
		t.P, t.Significant = 1, false
	}
	return t
}

func (e *engines) criterionTest(r *Row, opts Options) SampleTest {
	key := r.Series.Key
	seed := criterion.Seed(key.String())
	co := opts.criterionOptions()
	cur, base := criterionSample(r.After), criterionSample(r.Before)
	h := testKey(seed, co, cur, base)
	ch, err := e.tests.get(h, func() (criterion.Change, error) { return criterion.Compare(cur, base, seed, co) })
	if err != nil {
		return SampleTest{Method: MethodCriterion, Reason: "criterion: " + err.Error()}
	}
	t := SampleTest{Method: MethodCriterion, P: ch.P, OK: true, Significant: ch.P < co.SignificanceLevel, Criterion: &ch, Verdict: ch.Verdict, Shift: sign(ch.Mean.Point)}
	if r.Series.Metric.Direction == model.HigherIsBetter {
		switch ch.Verdict {
		case criterion.Improved:
			t.Verdict = criterion.Regressed
		case criterion.Regressed:
			t.Verdict = criterion.Improved
		}
	}
	if !t.Significant {
		t.Reason = fmt.Sprintf("no significant difference: p=%.3f ≥ alpha %g", ch.P, co.SignificanceLevel)
	}
	return t
}

// sign is −1, 0 or +1 by the sign of x (0 for NaN).
func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// criterionSample turns a point into Criterion's sample: the archive's
// samples are per-iteration values, Criterion's times are per-sample
// totals.
func criterionSample(p *model.Point) criterion.Sample {
	times := slices.Clone(p.Samples())
	for j, v := range times {
		times[j] = v * p.Iters()[j]
	}
	return criterion.Sample{Iters: p.Iters(), Times: times}
}

// budgetCheck evaluates the metric's budget, if it has one.
func budgetCheck(r *Row, opts Options) *BudgetCheck {
	bud, ok := opts.Budgets[r.Series.Key.Metric]
	if !ok {
		return nil
	}
	if bud.Direction == "" {
		bud.Direction = budget.Lower
		if r.Series.Metric.Direction == model.HigherIsBetter {
			bud.Direction = budget.Higher
		}
	}
	bc := &BudgetCheck{Budget: bud}
	b, a := r.Before, r.After
	if b == nil || a == nil || !b.OK() || !a.OK() {
		bc.Delta = budget.Delta{Statistic: bud.Stat(), Status: budget.Skip}
		bc.Reason = "needs results on both sides"
		return bc
	}
	stat := func(xs []float64) float64 {
		if bud.Stat() == budget.P95 {
			return budget.PercentileLinear(xs, 0.95)
		}
		return budget.MedianF64(xs)
	}
	as := a.Samples()
	bv, av := stat(b.Samples()), stat(as)
	delta, err := budget.Evaluate(bv, av, bud)
	if err != nil {
		bc.Delta = budget.SkipDelta(bv, av, bud)
		bc.Reason = err.Error()
		return bc
	}
	var cv *float64
	if mean, sd, ok := budget.MeanStddev(as); ok {
		if c, ok := budget.CV(mean, sd); ok {
			cv = &c
		}
	}
	bc.Delta = delta.WithNoise(cv, bud)
	if bc.Delta.Status != budget.Pass {
		bc.Reason = budget.Reason(r.Series.Key.Metric, bc.Delta.Status)
	}
	return bc
}

// TestCache remembers Criterion comparisons by a hash of everything they
// depend on (seed, options and both samples), so that a pair shown on
// several pages, or again on the next build, is bootstrapped once. It is
// safe for concurrent use.
type TestCache struct {
	mu sync.Mutex
	m  map[[32]byte]*cacheEntry
}

type cacheEntry struct {
	once sync.Once
	ch   criterion.Change
	err  error
	used bool
}

// NewTestCache returns an empty cache.
func NewTestCache() *TestCache { return &TestCache{m: map[[32]byte]*cacheEntry{}} }

func (c *TestCache) get(k [32]byte, f func() (criterion.Change, error)) (criterion.Change, error) {
	c.mu.Lock()
	e := c.m[k]
	if e == nil {
		e = &cacheEntry{}
		c.m[k] = e
	}
	e.used = true
	c.mu.Unlock()
	e.once.Do(func() { e.ch, e.err = f() })
	return e.ch, e.err
}

// CachedTest is one entry of a TestCache, for saving it between builds.
type CachedTest struct {
	Key    [32]byte
	Change criterion.Change
}

// Used returns the successful entries that were looked up since the cache
// was made or loaded, in key order: what is worth saving for the next
// build.
func (c *TestCache) Used() []CachedTest {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]CachedTest, 0, len(c.m))
	for k, e := range c.m {
		if e.used && e.err == nil {
			out = append(out, CachedTest{k, e.ch})
		}
	}
	sortCached(out)
	return out
}

// Load adds saved entries; they count as unused until looked up.
func (c *TestCache) Load(entries []CachedTest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range entries {
		e := &cacheEntry{ch: x.Change}
		e.once.Do(func() {})
		c.m[x.Key] = e
	}
}

// Len is the number of entries.
func (c *TestCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// testKey hashes a Criterion comparison's inputs.
func testKey(seed uint64, o criterion.Options, cur, base criterion.Sample) [32]byte {
	h := sha256.New()
	var buf [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	putf := func(x float64) { put(math.Float64bits(x)) }
	h.Write([]byte("criterion-compare/v1"))
	put(seed)
	put(uint64(o.NResamples))
	putf(o.ConfidenceLevel)
	putf(o.SignificanceLevel)
	putf(o.NoiseThreshold)
	for _, s := range []criterion.Sample{cur, base} {
		put(uint64(len(s.Times)))
		for j := range s.Times {
			putf(s.Iters[j])
			putf(s.Times[j])
		}
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func sortCached(xs []CachedTest) {
	slices.SortFunc(xs, func(a, b CachedTest) int { return bytes.Compare(a.Key[:], b.Key[:]) })
}
