package analysis

import (
	"fmt"
	"math"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
)

// usable reports whether s can stand for N ≥ 2 samples in Welch's test.
func usable(s *model.SampleSummary) bool {
	return s != nil && s.N >= 2 && !math.IsNaN(s.Mean) && !math.IsInf(s.Mean, 0) && s.StdDev >= 0 && !math.IsInf(s.StdDev, 0)
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
func WelchSummaries(b, a model.SampleSummary) (t, df, p float64, ok bool) {
	if !usable(&b) || !usable(&a) {
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
	if b == nil || a == nil || !usable(b.Summary()) || !usable(a.Summary()) {
		return false
	}
	_, _, _, ok := WelchSummaries(*b.Summary(), *a.Summary())
	return ok
}

// summaryTest is Welch's test of r's summaries at opts.Alpha as a sample
// test; summaryTestable(r) must hold. Shift is the sign of the summaries'
// difference, which for pytest is the opposite of the value's.
func summaryTest(r *Row, opts Options) SampleTest {
	b, a := *r.Before.Summary(), *r.After.Summary()
	t, df, p, _ := WelchSummaries(b, a)
	st := SampleTest{Method: MethodWelch, P: p, OK: true, Significant: p <= opts.Alpha, Shift: sign(a.Mean - b.Mean)}
	if !st.Significant {
		st.Reason = fmt.Sprintf("no significant difference: Welch's t = %.3f, df = %.1f, p = %.3f > alpha %g", t, df, p, opts.Alpha)
	}
	return st
}
