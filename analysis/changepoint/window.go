package changepoint

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// The gate (detect.go) takes, for every value of a series, the median of
// the rest of its window and the window's run-to-run width; from one value
// to the next the window moves by one. Selecting the median anew, and
// taking every value's log and selecting twice for the width, read and
// reordered the whole window each time: three quarters of step detection's
// time. The gate keeps both sorted instead, as the window moves (one
// insertion and one removal, a binary search and a move of at most Window
// values each), and reads the medians off them. A median of a multiset
// does not depend on how it is found, and each difference of logs is
// computed as Width computes it: the gate decides as it did, bit for bit
// (TestSortedWindowMedian, TestWindowWidth), but for the sign of a zero
// median, which no rule reads (every rule compares magnitudes or positive
// levels).

// sortedWindow keeps the items of a window moving along a series sorted:
// item(i) for each i of [lo, hi) that has one.
type sortedWindow struct {
	lo, hi int
	s      []float64
}

// move moves the window to [lo, hi) from where the last call left it and
// returns its items, sorted. item must give the same item for an i every
// time, and no NaN.
func (sw *sortedWindow) move(lo, hi int, item func(i int) (float64, bool)) []float64 {
	if lo < sw.lo || hi < sw.hi || lo > sw.hi || (lo-sw.lo)+(hi-sw.hi) > 8 {
		// Far from where it was (a step restarted the segment, or the
		// detector resumed): anew.
		sw.s = sw.s[:0]
		for i := lo; i < hi; i++ {
			if v, ok := item(i); ok {
				sw.s = append(sw.s, v)
			}
		}
		slices.Sort(sw.s)
	} else {
		for i := sw.lo; i < lo; i++ {
			if v, ok := item(i); ok {
				k, _ := slices.BinarySearch(sw.s, v)
				sw.s = slices.Delete(sw.s, k, k+1)
			}
		}
		for i := sw.hi; i < hi; i++ {
			if v, ok := item(i); ok {
				k, _ := slices.BinarySearch(sw.s, v)
				sw.s = slices.Insert(sw.s, k, v)
			}
		}
	}
	sw.lo, sw.hi = lo, hi
	return sw.s
}

// restMedian is the median of the values x[lo:hi] (not empty).
func (d *detector) restMedian(lo, hi int) float64 {
	return quantile.HalvesMedian(d.rest.move(lo, hi, func(i int) (float64, bool) { return d.x[i], true }))
}

// windowWidth is Width(x[lo:hi]). Where Width would not take the median
// absolute deviation — a window with a value that is not positive and
// finite, too few values, a deviation of zero (whose mean-deviation stand-in
// sums in Width's order) — it is Width itself.
func (d *detector) windowWidth(lo, hi int) float64 {
	if hi-lo < 3 {
		return Width(d.x[lo:hi], &d.tmp)
	}
	// The difference of the pair (i−1, i), for i in (lo, hi).
	s := d.diffs.move(lo+1, hi, func(i int) (float64, bool) { return logDiff(d.x, i) })
	n := len(s)
	if n != hi-lo-1 {
		return Width(d.x[lo:hi], &d.tmp) // a value that is not good
	}
	m := quantile.HalvesMedian(s)
	// The deviations |s[j] − m| in order: those below p fall as j goes
	// down, those from p on rise as j goes up; merge the two runs up to
	// the middle one.
	p, _ := slices.BinarySearch(s, m)
	l, r := p-1, p
	var lower, mad float64
	for range n/2 + 1 {
		var dev float64
		if r >= n || l >= 0 && math.Abs(s[l]-m) <= math.Abs(s[r]-m) {
			dev = math.Abs(s[l] - m)
			l--
		} else {
			dev = math.Abs(s[r] - m)
			r++
		}
		lower, mad = mad, dev
	}
	if n%2 == 0 {
		mad = lower/2 + mad/2
	}
	if !(mad > 0) {
		return Width(d.x[lo:hi], &d.tmp)
	}
	return madWidth(mad)
}

// logDiff is the difference Width takes between x[i−1] and x[i], when
// both are positive and finite.
func logDiff(x []float64, i int) (float64, bool) {
	good := func(v float64) bool { return v > 0 && v <= math.MaxFloat64 }
	if !good(x[i-1]) || !good(x[i]) {
		return 0, false
	}
	return math.Log(x[i]) - math.Log(x[i-1]), true
}
