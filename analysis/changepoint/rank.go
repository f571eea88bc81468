package changepoint

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// rankTest is the Mann–Whitney U test of the split of w at t, two-sided,
// by the normal approximation with the tie correction, Bonferroni-corrected
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
	z := math.Abs(u-mean) / sd
	p := math.Erfc(z/math.Sqrt2) * float64(max(splits, 1))
	return min(p, 1)
}

// rankPair is a value of a window and its side.
type rankPair struct {
	v     float64
	after bool
}

// width is the robust run-to-run noise of values xs (all positive) in
// log space: 1.4826 · MAD(ln x[i+1] − ln x[i]) / √2, about the relative
// standard deviation of one value around its neighbours. Differences
// cancel the level (a step costs one outlying difference), the MAD
// ignores spikes and the rare switch of a two-level runner. NaN when
// fewer than 3 values or any is not positive.
func width(xs []float64, tmp *[]float64) float64 {
	if len(xs) < 3 {
		return math.NaN()
	}
	d := (*tmp)[:0]
	for i := 1; i < len(xs); i++ {
		if xs[i] <= 0 || xs[i-1] <= 0 {
			*tmp = d
			return math.NaN()
		}
		d = append(d, math.Log(xs[i])-math.Log(xs[i-1]))
	}
	*tmp = d
	m := quantile.SelectHalvesMedian(d)
	for i := range d {
		d[i] = math.Abs(d[i] - m)
	}
	return 1.4826 * quantile.SelectHalvesMedian(d) / math.Sqrt2
}
