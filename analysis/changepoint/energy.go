package changepoint

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// This file is the E-divisive means statistic of Matteson & James (2014),
// "A Nonparametric Approach for Multiple Change Point Analysis of
// Multivariate Data", JASA 109(505), with exponent α = 1 on one-dimensional
// data, and its permutation test.
//
// For a split of a window w[0:L] at τ into X = w[:τ] and Y = w[τ:],
// m = τ and n = L − τ,
//
//	Ê(X, Y) = 2/(mn) Σ|Xi − Yj| − 1/C(m,2) Σ_{i<k}|Xi − Xk| − 1/C(n,2) Σ_{j<k}|Yj − Yk|
//	Q̂(X, Y) = mn/(m+n) · Ê(X, Y)
//
// and the candidate change point is the τ that maximises Q̂. MongoDB's
// signal-processing-algorithms computes the same profile
// (e_divisive/calculators/numpy_calculator.py, calculate_qhat_values), but
// scales by ⌊mn/(m+n)⌋, an integer division; the test vectors of its
// tests/test_perf_1635.py are checked here through Ê, which that floor
// does not touch. Apache Otava (ex Hunter) maximises over the end of Y
// too (change_point_divisive/calculator.py, PairDistanceCalculator); here
// Y always runs to the end of the window, because the window ends at the
// newest value and the question is whether the newest values differ from
// the ones before them.
//
// The significance test is MongoDB's QHatPermutationsSignificanceTester
// (e_divisive/significance_test.py): shuffle the window, take the largest
// Q̂ of the shuffled values, and count how often it reaches the observed
// one; p = (1 + count) / (R + 1).

// profile holds the scratch space of one window's Q̂ profile.
type profile struct {
	u      []float64 // the window's values less its middle value
	sorted []float64 // the window's values, sorted
	ids    []int     // an arrangement of the window: element ids in order
	rank   []int     // rank of each element (ties by position)
	prefix []float64 // prefix sums of the values in rank order
	rowSum []float64 // Σ_j |u_j − u_i| of each element i
	cnt    []int     // Fenwick tree over ranks: counts…
	sum    []float64 // … and sums of the elements placed so far
	left   []float64 // Σ over earlier elements of the arrangement of |u_i − u_k|, by position k
	right  []float64 // the same over later ones
	coef   []float64 // the factors of Q̂ for each split (see prepare)
}

// prepare ranks the values of w. The permutation test shuffles the same
// values many times; their ranks and the sum of each one's distances to
// all others do not change, so best only needs, for each position, the
// distances to the values before it: a Fenwick tree over the ranks gives
// their count and sum below and above in O(log L). Values are centred on
// the middle one first, so that the sums stay precise for values such as
// 1.8e10 instructions that differ in their sixth digit.
func (p *profile) prepare(w []float64) {
	L := len(w)
	p.u = grow(p.u, L)
	p.rank = growInt(p.rank, L)
	p.prefix = grow(p.prefix, L+1)
	p.rowSum = grow(p.rowSum, L)
	p.ids = growInt(p.ids, L)
	p.cnt = growInt(p.cnt, L+1)
	p.sum = grow(p.sum, L+1)
	p.left = grow(p.left, L)
	p.right = grow(p.right, L)
	p.coef = grow(p.coef, 4*(L+1))
	// Ranks: the sorted values, ties ranked by position.
	sorted := grow(p.sorted, L)
	p.sorted = sorted
	copy(sorted, w)
	slices.Sort(sorted)
	seen := p.cnt[:L] // scratch: how many of each value were ranked
	clear(seen)
	for i, v := range w {
		lb, _ := slices.BinarySearch(sorted, v)
		p.rank[i] = lb + seen[lb]
		seen[lb]++
	}
	mid := sorted[L/2]
	for i, v := range w {
		p.u[i] = v - mid
	}
	p.prefix[0] = 0
	for r, v := range sorted {
		p.prefix[r+1] = p.prefix[r] + (v - mid)
	}
	total := p.prefix[L]
	for i, v := range p.u {
		r := p.rank[i]
		below := float64(v*float64(r)) - p.prefix[r]
		above := (total - p.prefix[r+1]) - float64(v*float64(L-1-r))
		p.rowSum[i] = below + above
	}
	for i := range p.ids {
		p.ids[i] = i
	}
	// Q̂ = mn/(m+n)·(2·cross/(mn) − 2·a/(m(m−1)) − 2·b/(n(n−1))) for each
	// split, as four factors per τ.
	for t := 2; t <= L-2; t++ {
		fm, fn := float64(t), float64(L-t)
		c := p.coef[4*t : 4*t+4]
		c[0] = float64(fm*fn) / (fm + fn)
		c[1] = 2 / float64(fm*fn)
		c[2] = 2 / float64(fm*(fm-1))
		c[3] = 2 / float64(fn*(fn-1))
	}
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func growInt(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// best returns the split τ in [m, L−m] with the largest Q̂ (the first one
// on a tie) and that Q̂, and whether some split later than τ, with fewer
// than m values after it (but at least 2, which Ê needs), has a larger Q̂
// still: then the step is probably later than τ and has not got m values
// after it yet. It needs L ≥ 2m and m ≥ 2.
func (p *profile) best(w []float64, m int) (int, float64, bool) {
	p.prepare(w)
	return p.arranged(m)
}

// arranged is best for the prepared values in the order p.ids.
//
// It is a pure function of the values and their order: the same window
// gives the same bits whatever was computed before, which the incremental
// path relies on. Products that are added to something are written
// float64(x*y) so the compiler cannot fuse them (FMA) on some
// architectures and not others.
func (p *profile) arranged(m int) (int, float64, bool) {
	L := len(p.ids)
	clear(p.cnt)
	clear(p.sum)
	var placed, total float64 // sum of the values placed; Σ_{i<j} distances
	for k, e := range p.ids {
		v, r := p.u[e], p.rank[e]
		// Count and sum of the placed values ranked below r.
		c, s := 0, 0.0
		for i := r; i > 0; i &= i - 1 {
			c += p.cnt[i]
			s += p.sum[i]
		}
		fc := float64(c)
		l := (float64(v*fc) - s) + ((placed - s) - float64(v*float64(k-c)))
		p.left[k] = l
		p.right[k] = p.rowSum[e] - l
		total += l
		placed += v
		for i := r + 1; i <= L; i += i & -i {
			p.cnt[i]++
			p.sum[i] += v
		}
	}
	// a = Σ_{i<k<τ} |u_i − u_k| and b = Σ_{τ≤j<k} |u_j − u_k| for the
	// current τ; right[k] counts the distances to all later values, so b
	// is their sum from τ on.
	var a float64
	for k := 0; k < m; k++ {
		a += p.left[k]
	}
	var b float64
	for k := m; k < L; k++ {
		b += p.right[k]
	}
	bestT, bestQ, later := -1, math.Inf(-1), false
	for t := m; t <= L-2; t++ {
		if t > m {
			a += p.left[t-1]
			b -= p.right[t-1]
		}
		c := p.coef[4*t : 4*t+4]
		q := float64(c[0] * (float64(c[1]*(total-a-b)) - float64(c[2]*a) - float64(c[3]*b)))
		switch {
		case t > L-m:
			later = later || q > bestQ
		case q > bestQ:
			bestT, bestQ = t, q
		}
	}
	return bestT, bestQ, later
}

// permTest is the permutation test of a window's largest Q̂. It returns
// the p-value (1 + count)/(R + 1) and whether it is at most alpha; it stops
// as soon as the count rules that out, and then returns the p-value of the
// permutations drawn so far, a lower bound of the full one.
//
// The shuffles draw from a PCG seeded by the series' seed and the window's
// place (its first and last index in the series), so a test gives the same
// answer whatever was tested before it: resuming from a saved state
// reproduces a cold run exactly.
func (p *profile) permTest(w []float64, m int, obs float64, o *Options, seed uint64, lo, hi int) (float64, bool) {
	r := o.Permutations
	limit := int(math.Floor(o.Alpha*float64(r+1))) - 1 // most exceedances a significant test allows
	if limit < 0 {
		return 1, false
	}
	rng := rand.NewPCG(splitmix(seed^uint64(lo)*0x9e3779b97f4a7c15), splitmix(uint64(hi)^0xd1b54a32d192ed03))
	p.prepare(w)
	count := 0
	for k := 0; k < r; k++ {
		shuffle(rng, p.ids)
		if _, q, _ := p.arranged(m); q >= obs {
			count++
			if count > limit {
				return float64(1+count) / float64(k+2), false
			}
		}
	}
	return float64(1+count) / float64(r+1), true
}

// shuffle is Fisher–Yates with Lemire's multiply-shift for the bounded
// draws. It is written out, not rand.Shuffle, so that the permutations
// (and so the p-values on the site) stay the same across Go versions: only
// the generator, PCG-DXSM, is a fixed algorithm. The bias of taking the
// high word without rejection is below n/2⁶⁴, far below the test's
// resolution.
func shuffle(rng *rand.PCG, xs []int) {
	for i := len(xs) - 1; i > 0; i-- {
		j, _ := bits.Mul64(rng.Uint64(), uint64(i+1))
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// splitmix is SplitMix64's finaliser; it spreads nearby seeds over the
// generator's state space.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
