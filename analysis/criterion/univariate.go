package criterion

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// MADScale is the factor that turns the median absolute deviation into an
// estimate of the standard deviation of a normal distribution. Criterion
// writes 1.4826 as an f32 literal, which widens to 1.4825999736785889;
// the book's estimates.json files only come out with this value.
const MADScale = float64(float32(1.4826))

// sum adds left to right, as Criterion's fold does. Compensated summation
// would be more accurate and would no longer match Criterion's digits.
func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// Mean is the arithmetic mean of xs (NaN when xs is empty).
func Mean(xs []float64) float64 {
	return sum(xs) / float64(len(xs))
}

// variance is Criterion's Sample::var with the mean passed in: the sum of
// squared deviations (in order) over n−1.
func variance(xs []float64, mean float64) float64 {
	s := 0.0
	for _, x := range xs {
		d := x - mean
		s += float64(d * d)
	}
	return s / float64(len(xs)-1)
}

// Variance is the sample variance of xs with Bessel's correction, computed
// in two passes (NaN when xs has fewer than 2 values).
func Variance(xs []float64) float64 {
	return variance(xs, Mean(xs))
}

// StdDev is the square root of [Variance].
func StdDev(xs []float64) float64 {
	return math.Sqrt(Variance(xs))
}

// at is Criterion's Percentiles::at on an ascending slice, p in percent:
// quantile.Linear at p/100 (the same operations: rank (p/100)·(n−1), then
// lo + (hi−lo)·frac), the maximum for p = 100. p is clamped to [0, 100]; a
// one-element slice gives its element (Criterion reads past the end there).
func at(sorted []float64, p float64) float64 { return quantile.Linear(sorted, p/100) }

// interpolate is the last line of Percentiles::at. With fraction 0 it
// returns floor itself, so callers may pass any finite ceiling then.
func interpolate(floor, ceiling, fraction float64) float64 {
	return quantile.LinearBetween(floor, ceiling, fraction)
}

// rankOf splits the rank of percentile p in a sample of n values into the
// index of the lower order statistic and the interpolation fraction, exactly
// as at does.
func rankOf(p float64, n int) (int, float64) { return quantile.LinearRank(p/100, n) }

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

func medianAbsDev(xs []float64, median float64) float64 {
	devs := make([]float64, len(xs))
	for i, x := range xs {
		devs[i] = math.Abs(x - median)
	}
	slices.Sort(devs)
	return at(devs, 50) * MADScale
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

func sortedCopy(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
