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

// medianAbsDev is the median absolute deviation of xs from median, scaled
// by [MADScale] as Criterion does. xs is not modified.
func medianAbsDev(xs []float64, median float64) float64 {
	devs := make([]float64, len(xs))
	for i, x := range xs {
		devs[i] = math.Abs(x - median)
	}
	slices.Sort(devs)
	return at(devs, 50) * MADScale
}

func sortedCopy(xs []float64) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}
