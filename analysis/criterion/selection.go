package criterion

import (
	"math"
	"math/bits"
	"slices"
)

// The confidence interval needs four order statistics of a bootstrap
// distribution of nresamples values; selecting them in place is several
// times faster than sorting, and gives the same values.

// selectK reorders a so that a[k] is the value a full sort would put there,
// everything before it is ≤ a[k] and everything after it is ≥ a[k].
// a must not contain NaN. It is Hoare's FIND with a median-of-three pivot
// (equal keys are swapped, so runs of duplicates — common in bootstrap
// distributions of medians — split evenly); after 2·log₂(n) rounds without
// converging it sorts the remaining range, bounding the worst case by
// O(n log n).
func selectK(a []float64, k int) {
	lo, hi := 0, len(a)-1
	budget := 2 * bits.Len(uint(len(a)))
	for hi > lo {
		if budget == 0 {
			slices.Sort(a[lo : hi+1])
			return
		}
		budget--
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pivot := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < pivot {
				i++
			}
			for pivot < a[j] {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		// a[lo..j] ≤ pivot, a[i..hi] ≥ pivot, and a[j+1..i-1] = pivot.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

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
		selectK(a[from:], n-from)
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
