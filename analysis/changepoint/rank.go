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
		return madWidth(mad)
	}
	return 1.2533 * sum / float64(len(d)) / math.Sqrt2
}

// madWidth is the width of a median absolute deviation mad of the
// differences of logs: the standard deviation of normal noise of one
// value (1.4826 · MAD, over √2 for a difference of two). Width's and the
// gate's (windowWidth).
func madWidth(mad float64) float64 { return 1.4826 * mad / math.Sqrt2 }
