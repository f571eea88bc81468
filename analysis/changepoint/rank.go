package changepoint

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// rankTest is the Mann–Whitney U test of the split of w at t, two-sided,
// by the normal approximation with the tie correction (exact when a side
// is short and U far out), Bonferroni-corrected
// for the splits a window offers: p = min(1, splits · p₁). It is the test
// of Method EDivisive with Test Rank, and the p-value every step reports:
// a number of the data (a clear step of 25 values a side has p near 1e-9,
// a marginal one near Alpha), not the smallest p-value a permutation test
// can give, and the same whatever the seed or the positions between the
// values.
func rankTest(w []float64, t, splits int, tmp *[]rankPair) float64 {
	n1, n2 := t, len(w)-t
	if n1 == 0 || n2 == 0 {
		return 1
	}
	pairs := (*tmp)[:0]
	for i, v := range w {
		pairs = append(pairs, rankPair{v, i >= t})
	}
	*tmp = pairs
	slices.SortFunc(pairs, func(a, b rankPair) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	n := float64(len(pairs))
	var r2, ties float64 // rank sum of the second side; Σ(t³ − t) over ties
	for i := 0; i < len(pairs); {
		j := i
		for j+1 < len(pairs) && pairs[j+1].v == pairs[i].v {
			j++
		}
		rank := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			if pairs[k].after {
				r2 += rank
			}
		}
		if c := float64(j - i + 1); c > 1 {
			ties += c*c*c - c
		}
		i = j + 1
	}
	f1, f2 := float64(n1), float64(n2)
	u := r2 - f2*(f2+1)/2
	mean := f1 * f2 / 2
	sd := math.Sqrt(f1 * f2 / 12 * ((n + 1) - ties/(n*(n-1))))
	if sd == 0 {
		return 1
	}
	var p float64
	if tail := math.Floor(min(u, f1*f2-u)); min(n1, n2) <= exactSide && tail <= exactTail {
		// A side of a few values: the normal approximation is far too
		// cautious in the tail that matters (all 5 values after a step
		// above 50 before: exactly 2/C(55,5) ≈ 6e-7, approximately
		// 3e-4), and a step would wait twice as many values to be
		// confirmed.
		p = 2 * exactLowerTail(min(n1, n2), max(n1, n2), int(tail))
	} else {
		p = math.Erfc(math.Abs(u-mean) / sd / math.Sqrt2)
	}
	return min(p*float64(max(splits, 1)), 1)
}

// The exact distribution of U is used when a side has at most exactSide
// values and U is at most exactTail from its nearer end: there the
// p-value decides, and the counting costs a × b × (tail+1) additions.
const (
	exactSide = 12
	exactTail = 300
)

// exactLowerTail is P(U ≤ u) for the Mann–Whitney U of samples of a and b
// values without ties under the null hypothesis: the number of
// arrangements with U ≤ u over C(a+b, a), counted with the recurrence
// f(k; a, b) = f(k−b; a−1, b) + f(k; a, b−1) (the largest value is in the
// first sample, adding b to U, or in the second). With ties (U counts them
// as ½) it is the tail at ⌊U⌋ of the distribution without ties, which is
// wider than the one with them: cautious.
func exactLowerTail(a, b, u int) float64 {
	// prev[j][k] = f(k; i−1, j), cur[j][k] = f(k; i, j).
	prev := make([][]float64, b+1)
	cur := make([][]float64, b+1)
	for j := range prev {
		prev[j] = make([]float64, u+1)
		cur[j] = make([]float64, u+1)
		prev[j][0] = 1 // i = 0: U is 0
	}
	for i := 1; i <= a; i++ {
		for j := 0; j <= b; j++ {
			c := cur[j]
			clear(c)
			if j == 0 {
				c[0] = 1
				continue
			}
			for k := 0; k <= u; k++ {
				c[k] = cur[j-1][k]
				if k >= j {
					c[k] += prev[j][k-j]
				}
			}
		}
		prev, cur = cur, prev
	}
	var n float64
	for _, x := range prev[b] {
		n += x
	}
	// C(a+b, a) as a float: exact enough for a ≤ 12.
	total := 1.0
	for i := 1; i <= a; i++ {
		total = total * float64(b+i) / float64(i)
	}
	return n / total
}

// rankPair is a value of a window and its side.
type rankPair struct {
	v     float64
	after bool
}

// Width is the robust run-to-run noise of values xs (all positive, in any
// order of time) in log space: 1.4826 · MAD(ln x[i+1] − ln x[i]) / √2,
// about the relative standard deviation of one value around its
// neighbours. Differences cancel the level (a step costs one outlying
// difference), the MAD ignores spikes and the rare switch of a two-level
// runner. When more than half the differences are the same (quantised
// values: memory in pages, a timer's ticks, a series alternating between
// two values) the MAD is 0 although the values move, and the mean
// absolute deviation stands in (1.2533 · mean |d − median| / √2, the
// same scale for normal noise). NaN when fewer than 3 values or any is
// not positive. tmp is scratch space. It is the one definition of a
// series' width: step detection's size rule and the headline verdict of
// package analysis both measure in it.
func Width(xs []float64, tmp *[]float64) float64 {
	if len(xs) < 3 {
		return math.NaN()
	}
	d := (*tmp)[:0]
	if !(xs[0] > 0) {
		return math.NaN()
	}
	prev := math.Log(xs[0]) // each value's log once (the same bits as twice)
	for i := 1; i < len(xs); i++ {
		if !(xs[i] > 0) {
			*tmp = d
			return math.NaN()
		}
		l := math.Log(xs[i])
		d = append(d, l-prev)
		prev = l
	}
	*tmp = d
	m := quantile.SelectHalvesMedian(d)
	var sum float64
	for i := range d {
		d[i] = math.Abs(d[i] - m)
		sum += d[i]
	}
	if mad := quantile.SelectHalvesMedian(d); mad > 0 || sum == 0 {
		return 1.4826 * mad / math.Sqrt2
	}
	return 1.2533 * sum / float64(len(d)) / math.Sqrt2
}

// windowWidth is [Width] of a window moving along a detector's values,
// for the gate, which measures the width of its window for every value of
// a series that passes MinChange: it keeps the window's differences of
// logs sorted (one added and one removed from one value to the next), so
// that the median is read off and the median absolute deviation found by
// walking out from it, where Width takes every value's log and selects
// twice. It returns Width's value exactly: the medians of a multiset do
// not depend on how they are found, and each difference is computed as
// Width computes it. Where Width would not take the median absolute
// deviation — a window with a value that is not positive and finite, too
// few values, a deviation of zero (whose mean-deviation stand-in sums in
// Width's order) — it calls Width itself.
type windowWidth struct {
	lo, hi int       // the window x[lo:hi] the differences are of
	bad    int       // values of the window that are not positive and finite
	s      []float64 // the differences of consecutive good values' logs, sorted
}

func goodWidthValue(v float64) bool { return v > 0 && v <= math.MaxFloat64 }

// diff is the difference Width takes between x[i-1] and x[i]; ok when
// both are good.
func widthDiff(x []float64, i int) (float64, bool) {
	if !goodWidthValue(x[i-1]) || !goodWidthValue(x[i]) {
		return 0, false
	}
	return math.Log(x[i]) - math.Log(x[i-1]), true
}

// width returns Width(x[lo:hi], tmp).
func (ww *windowWidth) width(x []float64, lo, hi int, tmp *[]float64) float64 {
	if lo < ww.lo || hi < ww.hi || lo > ww.hi || (lo-ww.lo)+(hi-ww.hi) > 8 {
		ww.s, ww.bad = ww.s[:0], 0
		for i := lo; i < hi; i++ {
			if !goodWidthValue(x[i]) {
				ww.bad++
			}
			if i > lo {
				if d, ok := widthDiff(x, i); ok {
					ww.s = append(ww.s, d)
				}
			}
		}
		slices.Sort(ww.s)
	} else {
		// The pairs (i−1, i) of the window are those with lo < i < hi.
		for i := ww.lo; i < lo; i++ {
			if !goodWidthValue(x[i]) {
				ww.bad--
			}
			if i+1 < ww.hi {
				if d, ok := widthDiff(x, i+1); ok {
					k, _ := slices.BinarySearch(ww.s, d)
					ww.s = slices.Delete(ww.s, k, k+1)
				}
			}
		}
		for i := ww.hi; i < hi; i++ {
			if !goodWidthValue(x[i]) {
				ww.bad++
			}
			if i > lo {
				if d, ok := widthDiff(x, i); ok {
					k, _ := slices.BinarySearch(ww.s, d)
					ww.s = slices.Insert(ww.s, k, d)
				}
			}
		}
	}
	ww.lo, ww.hi = lo, hi
	n := len(ww.s)
	if ww.bad > 0 || hi-lo < 3 || n != hi-lo-1 {
		return Width(x[lo:hi], tmp)
	}
	s := ww.s
	m := s[n/2]
	if n%2 == 0 {
		m = s[n/2-1]/2 + s[n/2]/2
	}
	// The deviations |s[j] − m| in order: those below p fall as j goes
	// down, those from p on rise as j goes up; merge the two runs up to
	// the middle one.
	p, _ := slices.BinarySearch(s, m)
	l, r := p-1, p
	var lower, mad float64
	for k := 0; k <= n/2; k++ {
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
		return Width(x[lo:hi], tmp)
	}
	return 1.4826 * mad / math.Sqrt2
}
