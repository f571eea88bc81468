package criterion

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// The confidence interval needs four order statistics of a bootstrap
// distribution of nresamples values; quantile.SelectNth selects them in
// place, faster than sorting (BenchmarkCompare), with the same values.

// percentileFrom is at(sorted(a), p) computed by selection. a[:from] must
// hold the `from` smallest values with a[from-1] in its sorted place, and
// the rank of p must not lie before it; only a[from:] is reordered. The
// second result is where the next call may start.
func percentileFrom(a []float64, p float64, from int) (float64, int) {
	last := len(a) - 1
	n, fraction := rankOf(p, len(a))
	if p >= 100 || n >= last {
		return slices.Max(a[from:]), from
	}
	if n >= from {
		quantile.SelectNth(a[from:], n-from)
	}
	if fraction == 0 {
		return a[n], n + 1
	}
	return interpolate(a[n], slices.Min(a[n+1:]), fraction), n + 1
}

// confidenceInterval is ConfidenceInterval without the copy: it reorders
// dist, which must be non-empty and free of NaN.
func confidenceInterval(dist []float64, cl float64) (lo, hi float64) {
	pl, ph := clampPercent(50*(1-cl)), clampPercent(50*(1+cl))
	if ph < pl {
		pl, ph = ph, pl
	}
	lo, next := percentileFrom(dist, pl, 0)
	hi, _ = percentileFrom(dist, ph, next)
	return lo, hi
}

// clampPercent keeps p in [0, 100] (NaN becomes 0).
func clampPercent(p float64) float64 {
	if !(p > 0) {
		return 0
	}
	return math.Min(100, p)
}
