package quantile

import "math"

// SelectHalvesMedian is [HalvesMedian] of xs without sorting, NaN for
// none: the step detector's median. It reorders xs. It selects rather than
// sorts (Hoare's quickselect with a median-of-three pivot), since the
// sequential test takes a few medians of a window for every value of a
// series; the result is an element (or the mean of two) of xs, so it does
// not depend on how xs was ordered.
func SelectHalvesMedian(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	k := n / 2
	hi := SelectNth(xs, k)
	if n%2 == 1 {
		return hi
	}
	// The elements before k are the k smallest: the lower middle one is
	// their largest.
	lo := xs[0]
	for _, x := range xs[1:k] {
		lo = max(lo, x)
	}
	return lo/2 + hi/2
}

// SelectMedian is [Median] of xs without sorting ((a + b) / 2 of the two
// middle values for an even count), NaN for none. It reorders xs, which
// must not hold NaNs. The site's history charts normalize every series to
// its median on every build: a thousand values each, sorted, were most of
// the time the bench pages took.
func SelectMedian(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	k := n / 2
	hi := SelectNth(xs, k)
	if n%2 == 1 {
		return hi
	}
	lo := xs[0]
	for _, x := range xs[1:k] {
		lo = max(lo, x)
	}
	return (lo + hi) / 2
}

// SelectNth reorders xs so that xs[k] is the value a sort would put
// there, with no larger value before it and no smaller one after, and
// returns it. xs must not hold NaNs.
func SelectNth(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	for hi-lo > 8 {
		// Median of three as the pivot, moved to xs[lo].
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
		xs[lo], xs[mid] = xs[mid], xs[lo]
		p := xs[lo]
		i, j := lo+1, hi
		for {
			for i <= j && xs[i] < p {
				i++
			}
			for i <= j && xs[j] > p {
				j--
			}
			if i >= j {
				break
			}
			xs[i], xs[j] = xs[j], xs[i]
			i++
			j--
		}
		xs[lo], xs[j] = xs[j], xs[lo]
		switch {
		case k < j:
			hi = j - 1
		case k > j:
			lo = j + 1
		default:
			return xs[k]
		}
	}
	// Insertion sort of the few left.
	for i := lo + 1; i <= hi; i++ {
		for j := i; j > lo && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	return xs[k]
}
