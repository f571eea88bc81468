package analysis

import (
	"fmt"
	"math"

	"github.com/perfpages/perfpages/analysis/budget"
)

// SampleSummary is what a tool kept of a result's samples when it did not
// keep the samples: their mean, standard deviation (Bessel's, n − 1) and
// count. pytest-benchmark's records in github-action-benchmark's data.js
// carry one (the time per round: "mean: 1.23 msec", "rounds: 50",
// "stddev: 0.0012"), while the result's value is the tool's single number
// (ops/s). The summary's quantity need not be the value's: for pytest it
// is its reciprocal, so only the test of the two summaries, not the sign
// of their difference, is compared with the change (see
// [BasisSummary]). Mean and StdDev are in one unit for every result of a
// series (the reader's job: seconds for pytest).
type SampleSummary struct {
	Mean, StdDev float64
	N            int
}

// usable reports whether s can stand for N ≥ 2 samples in Welch's test.
func (s *SampleSummary) usable() bool {
	return s != nil && s.N >= 2 && !math.IsNaN(s.Mean) && !math.IsInf(s.Mean, 0) && s.StdDev >= 0 && !math.IsInf(s.StdDev, 0)
}

// Pool is the summary of the union of the samples s and o summarize (a
// benchmark run twice for one commit): the counts add, the mean is the
// weighted mean and the variance the pooled one, exactly, from
// Σ(x − m)² = (n − 1)·sd² + n·(m − M)² on each side.
func (s SampleSummary) Pool(o SampleSummary) SampleSummary {
	n := s.N + o.N
	if n == 0 {
		return SampleSummary{}
	}
	ns, no := float64(s.N), float64(o.N)
	m := (ns*s.Mean + no*o.Mean) / float64(n)
	ss := func(x SampleSummary, k float64) float64 {
		if k == 0 {
			return 0
		}
		d := x.Mean - m
		return (k-1)*x.StdDev*x.StdDev + k*d*d
	}
	sd := 0.0
	if n > 1 {
		sd = math.Sqrt((ss(s, ns) + ss(o, no)) / float64(n-1))
	}
	return SampleSummary{Mean: m, StdDev: sd, N: n}
}

// WelchSummaries is Welch's unequal-variances t-test of two summaries,
// b against a: t = (mean_a − mean_b) / √(sd_a²/n_a + sd_b²/n_b), the
// Welch–Satterthwaite degrees of freedom and the two-sided p-value from
// Student's t (budget.StudentTTwoSided, the repository's one t
// distribution). It is budget.WelchT's test, from summaries instead of
// samples (scipy.stats.ttest_ind_from_stats with equal_var=False), and
// degenerates the same way: with both deviations 0, p is 1 for equal means
// and 0 otherwise (t and df 0). ok is false when a side has fewer than 2
// samples, a value that is not finite or a negative deviation, or when the
// degrees of freedom are not a positive finite number.
func WelchSummaries(b, a SampleSummary) (t, df, p float64, ok bool) {
	if !b.usable() || !a.usable() {
		return 0, 0, 0, false
	}
	nb, na := float64(b.N), float64(a.N)
	vb, va := b.StdDev*b.StdDev/nb, a.StdDev*a.StdDev/na
	se2 := vb + va
	if math.IsNaN(se2) || math.IsInf(se2, 0) {
		return 0, 0, 0, false
	}
	if se2 == 0 {
		if a.Mean == b.Mean {
			return 0, 0, 1, true
		}
		return 0, 0, 0, true
	}
	t = (a.Mean - b.Mean) / math.Sqrt(se2)
	df = se2 * se2 / (vb*vb/(nb-1) + va*va/(na-1))
	if math.IsNaN(t) || math.IsInf(t, 0) || math.IsNaN(df) || math.IsInf(df, 0) || df <= 0 {
		return 0, 0, 0, false
	}
	return t, df, min(max(budget.StudentTTwoSided(t, df), 0), 1), true
}

// summaryTestable reports whether both results of r carry summaries
// Welch's test can judge (at least 2 samples a side).
func summaryTestable(r *Row) bool {
	b, a := r.Before, r.After
	if b == nil || a == nil || !b.Summary.usable() || !a.Summary.usable() {
		return false
	}
	_, _, _, ok := WelchSummaries(*b.Summary, *a.Summary)
	return ok
}

// summaryTest is Welch's test of r's summaries at opts.Alpha as a sample
// test; summaryTestable(r) must hold. Shift is the sign of the summaries'
// difference, which for pytest is the opposite of the value's.
func summaryTest(r *Row, opts Options) SampleTest {
	b, a := *r.Before.Summary, *r.After.Summary
	t, df, p, _ := WelchSummaries(b, a)
	st := SampleTest{Method: MethodWelch, P: p, OK: true, Significant: p <= opts.Alpha, Shift: sign(a.Mean - b.Mean)}
	if !st.Significant {
		st.Reason = fmt.Sprintf("no significant difference: Welch's t = %.3f, df = %.1f, p = %.3f > alpha %g", t, df, p, opts.Alpha)
	}
	return st
}
