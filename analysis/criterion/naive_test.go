package criterion

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// The straightforward forms of Criterion's univariate statistics, Welch's
// t, the p-value and the percentile interval. The package computes them
// inside Analyze and Compare (from sorted copies, counted resamples and
// selections); these are the oracles the tests check those faster paths
// against, and hand-computed known answers check them. They live in a test
// file because nothing but the tests calls them.

// Variance is the sample variance of xs with Bessel's correction, computed
// in two passes (NaN when xs has fewer than 2 values).
func Variance(xs []float64) float64 {
	return variance(xs, Mean(xs))
}

// StdDev is the square root of [Variance].
func StdDev(xs []float64) float64 {
	return math.Sqrt(Variance(xs))
}

// Percentile is the p-th percentile (0 ≤ p ≤ 100) of xs by Criterion's rule
// (numpy's "linear"): xs is not modified. It is NaN when xs is empty.
func Percentile(xs []float64, p float64) float64 {
	return quantile.LinearOf(xs, p/100)
}

// Median is the 50th [Percentile]: the mean of the two middle values when
// len(xs) is even.
func Median(xs []float64) float64 {
	return Percentile(xs, 50)
}

// MedianAbsDev is the median absolute deviation from the median, scaled by
// [MADScale] as Criterion does. xs is not modified.
func MedianAbsDev(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return medianAbsDev(xs, Median(xs))
}

// WelchT is Welch's t statistic of new against base, as Criterion's
// Sample::t: (mean(new) − mean(base)) / √(var(new)/n_new + var(base)/n_base)
// with Bessel-corrected variances. Note the order: new minus base, so a
// slower new sample has a positive t. Like Criterion's, it is ±Inf when
// both samples are constant and differ, and NaN when they are constant and
// equal (or when a side has fewer than 2 values).
func WelchT(new, base []float64) float64 {
	mx, my := Mean(new), Mean(base)
	vx, vy := variance(new, mx), variance(base, my)
	return (mx - my) / math.Sqrt(vx/float64(len(new))+vy/float64(len(base)))
}

// PValue is the two-tailed p-value of the observed t in the bootstrap
// distribution ts, by Criterion's rule: with hits the number of finite ts
// strictly below t and N the number of finite ts (Criterion drops the
// others), p = 2·min(hits, N − hits)/N. It is 1 when ts has no finite value.
func PValue(ts []float64, t float64) float64 {
	hits, n := 0, 0
	for _, x := range ts {
		if !finite(x) {
			continue
		}
		n++
		if x < t {
			hits++
		}
	}
	return pValue(hits, n)
}

// ConfidenceInterval is Criterion's percentile interval of a bootstrap
// distribution: the percentiles 50·(1 − cl) and 50·(1 + cl) (2.5 and 97.5
// for cl = 0.95). dist is not modified. cl should be in (0, 1); outside it
// the percentiles are clamped to [0, 100] and put in order. Both bounds are
// NaN when dist is empty or holds a NaN.
func ConfidenceInterval(dist []float64, cl float64) (lo, hi float64) {
	if len(dist) == 0 || slices.ContainsFunc(dist, math.IsNaN) {
		return math.NaN(), math.NaN()
	}
	return confidenceInterval(slices.Clone(dist), cl)
}
