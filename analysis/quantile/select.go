package quantile

import (
	"math"
	"math/bits"
	"slices"
)

// SelectHalvesMedian is [HalvesMedian] of xs without sorting, NaN for
// none: the step detector's median. It reorders xs. It selects rather than
// sorts, since the sequential test takes a few medians of a window for
// every value of a series; the result is an element (or the mean of two)
// of xs, so it does not depend on how xs was ordered.
func SelectHalvesMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	lo, hi := selectMiddle(xs)
	if len(xs)%2 == 1 {
		return hi
	}
	return lo/2 + hi/2
}

// selectMiddle returns the middle value of xs (not empty) as hi, and for
// an even count the lower middle one as lo (for an odd count lo = hi),
// reordering xs.
func selectMiddle(xs []float64) (lo, hi float64) {
	k := len(xs) / 2
	hi = SelectNth(xs, k)
	if len(xs)%2 == 1 {
		return hi, hi
	}
	// The elements before k are the k smallest: the lower middle one is
	// their largest.
	lo = xs[0]
	for _, x := range xs[1:k] {
		lo = max(lo, x)
	}
	return lo, hi
}

// SelectNth reorders xs so that xs[k] is the value a sort would put
// there, with no larger value before it and no smaller one after, and
// returns it. xs must not hold NaNs.
//
// It is Hoare's FIND with a median-of-three pivot (equal keys are
// swapped, so runs of duplicates — common in bootstrap distributions of
// medians — split evenly); after 2·log₂(n) rounds without converging it
// sorts the remaining range, bounding the worst case by O(n log n). The
// step detector takes a few order statistics of a window for every value
// of a series, and Criterion's confidence interval four of a bootstrap
// distribution: selecting in place is faster than sorting (changepoint's
// BenchmarkDetect and criterion's BenchmarkCompare exercise it), and gives
// the same values.
func SelectNth(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	budget := 2 * bits.Len(uint(len(xs)))
	for hi > lo {
		if budget == 0 {
			slices.Sort(xs[lo : hi+1])
			break
		}
		budget--
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for pivot < xs[j] {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		// xs[lo..j] ≤ pivot, xs[i..hi] ≥ pivot, and xs[j+1..i-1] = pivot.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}
