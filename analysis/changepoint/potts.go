package changepoint

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// This file is asv's step detection (airspeed-velocity/asv,
// asv/step_detect.py), written again from its code with unit weights (the
// site has no per-point confidence intervals to weight by):
//
//   - detect_steps drops missing values and fits a piecewise-constant
//     function to the rest with solve_potts_autogamma;
//   - solve_potts_autogamma picks the Potts penalty γ by a golden-section
//     search on log γ (from γ₀·0.1/n to γ₀, γ₀ = the L1 deviation of the
//     whole series) that minimises the information criterion
//     β·k + ln(σ₀ + σ*), β = 4·ln n / n, σ* the L1 residual of an AR(1)
//     model whose ρ is itself fitted by a golden-section search, and σ₀ a
//     floor of 0.1 × the smallest jump between segment medians (0.001 × the
//     smallest level with fewer than three segments);
//   - solve_potts_approx solves the Potts problem for one γ exactly
//     (Bellman recursion, solve_potts) with segments of at most 20 values,
//     then merge_pieces joins neighbours while that lowers the cost and
//     moves each boundary by up to 20 places where that lowers it.
//
// asv has no significance test; its detect_regressions only filters the
// fitted jumps by a relative threshold and a minimum length. For the
// comparison with E-divisive, the fit's boundaries go through the same
// filters as E-divisive's candidates: segments shorter than MinSegment
// are merged into their closer neighbour (a spike is not a step), then the
// smallest jump that fails MinChange or NoiseMultiple is merged away until
// none does.

const pottsMaxSize = 20 // solve_potts_approx's max_size for min_size < 10

// detectPotts is Detect for Method Potts.
func detectPotts(s Series, o Options) []Step {
	var out []Step
	// Each stretch between breaks is fitted on its own.
	breaks := slices.Clone(s.Breaks)
	slices.Sort(breaks)
	from := 0
	for _, b := range append(breaks, len(s.Values)) {
		if b <= from || b > len(s.Values) {
			continue
		}
		out = append(out, pottsStretch(s.Values[from:b], from, o)...)
		from = b
	}
	return out
}

// pottsStretch finds the steps of vals, whose first value is at position
// off.
func pottsStretch(vals []float64, off int, o Options) []Step {
	var y []float64
	var idx []int
	for i, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			y = append(y, v)
			idx = append(idx, off+i)
		}
	}
	if len(y) < 2 {
		return nil
	}
	right := solvePottsAutogamma(y, newL1Dist(y))
	var bs []boundary
	for _, c := range mergeShort(y, right, o.MinSegment)[1:] {
		bs = append(bs, boundary{pos: c, p: math.NaN()})
	}
	return report(y, idx, make([]bool, len(y)), bs, o)
}

// mergeShort turns asv's right bounds into the starts of the segments,
// those shorter than minSize joined to the neighbour with the closer
// median, shortest first: a spike is not a step.
func mergeShort(y []float64, right []int, minSize int) []int {
	starts := append([]int{0}, right[:len(right)-1]...)
	end := func(k int) int {
		if k+1 < len(starts) {
			return starts[k+1]
		}
		return len(y)
	}
	// Short segments join the neighbour with the closer median, shortest
	// first.
	for len(starts) > 1 {
		short, n := -1, 0
		for k := range starts {
			if l := end(k) - starts[k]; l < minSize && (short < 0 || l < n) {
				short, n = k, l
			}
		}
		if short < 0 {
			break
		}
		k := short
		switch {
		case k == 0:
			starts = slices.Delete(starts, 1, 2)
		case k == len(starts)-1:
			starts = slices.Delete(starts, k, k+1)
		default:
			m := medianOf(y[starts[k]:end(k)])
			prev, next := medianOf(y[starts[k-1]:starts[k]]), medianOf(y[end(k):end(k+1)])
			if math.Abs(m-prev) <= math.Abs(m-next) {
				starts = slices.Delete(starts, k, k+1)
			} else {
				starts = slices.Delete(starts, k+1, k+2)
			}
		}
	}
	return starts
}

func medianOf(xs []float64) float64 { return quantile.SelectHalvesMedian(slices.Clone(xs)) }

// l1Dist gives the median of y[l..r] and the sum of absolute deviations
// from it (asv's L1Dist: mu and dist, both ends inclusive). Intervals of
// at most pottsMaxSize values, which the Bellman recursion asks for n·20
// times, are precomputed; longer ones, which only merge_pieces asks for,
// are computed on demand and remembered.
type l1Dist struct {
	y     []float64
	short []float64 // short[l*pottsMaxSize + (r−l)] = dist(l, r)
	memo  map[[2]int][2]float64
	tmp   []float64
}

func newL1Dist(y []float64) *l1Dist {
	d := &l1Dist{y: y, memo: map[[2]int][2]float64{}}
	d.short = make([]float64, len(y)*pottsMaxSize)
	sorted := make([]float64, 0, pottsMaxSize)
	for l := range y {
		sorted = sorted[:0]
		for r := l; r < min(len(y), l+pottsMaxSize); r++ {
			i, _ := slices.BinarySearch(sorted, y[r])
			sorted = slices.Insert(sorted, i, y[r])
			d.short[l*pottsMaxSize+r-l] = absDev(sorted)
		}
	}
	return d
}

// absDev is Σ|x − median| of sorted xs.
func absDev(sorted []float64) float64 {
	n := len(sorted)
	var m float64
	if n%2 == 1 {
		m = sorted[n/2]
	} else {
		m = sorted[n/2-1]/2 + sorted[n/2]/2
	}
	var s float64
	for _, x := range sorted {
		s += math.Abs(x - m)
	}
	return s
}

func (d *l1Dist) dist(l, r int) float64 {
	if r-l < pottsMaxSize {
		return d.short[l*pottsMaxSize+r-l]
	}
	return d.long(l, r)[1]
}

func (d *l1Dist) mu(l, r int) float64 {
	if v, ok := d.memo[[2]int{l, r}]; ok {
		return v[0]
	}
	return d.long(l, r)[0]
}

func (d *l1Dist) long(l, r int) [2]float64 {
	k := [2]int{l, r}
	if v, ok := d.memo[k]; ok {
		return v
	}
	d.tmp = append(d.tmp[:0], d.y[l:r+1]...)
	slices.Sort(d.tmp)
	n := len(d.tmp)
	m := d.tmp[n/2]
	if n%2 == 0 {
		m = d.tmp[n/2-1]/2 + d.tmp[n/2]/2
	}
	v := [2]float64{m, absDev(d.tmp)}
	d.memo[k] = v
	return v
}

// solvePotts is asv's solve_potts with min_size 1 and max_size
// pottsMaxSize: the exact minimiser of γ·(segments) + Σ|y − μ_segment|
// among segmentations into pieces of at most pottsMaxSize values. It
// returns the segments' right bounds (exclusive).
func solvePotts(y []float64, d *l1Dist, gamma float64) []int {
	n := len(y)
	B := make([]float64, n+1)
	p := make([]int, n)
	B[0] = -gamma
	for r := 0; r < n; r++ {
		// Costs are NaN when values are so far apart that their
		// deviations overflow; a piece of one value then stands, so the
		// backtracking below always moves left.
		B[r+1], p[r] = math.Inf(1), r-1
		for l := max(r+1-pottsMaxSize, 0); l <= r; l++ {
			if b := B[l] + gamma + d.dist(l, r); b <= B[r+1] {
				B[r+1] = b
				p[r] = l - 1
			}
		}
	}
	var right []int
	for r := n - 1; r >= 0; r = p[r] {
		right = append(right, r+1)
	}
	slices.Reverse(right)
	return right
}

// mergePieces is asv's merge_pieces: join neighbouring segments while that
// lowers the cost, then move each boundary by up to pottsMaxSize places
// where that lowers the cost of its two segments.
func mergePieces(d *l1Dist, gamma float64, right []int) []int {
	right = slices.Clone(right)
	for {
		minChange, minJ := 0.0, len(right)
		l := 0
		for j := 1; j < len(right); j++ {
			if minJ < j-2 {
				break
			}
			change := d.dist(l, right[j]-1) - (d.dist(l, right[j-1]-1) + d.dist(right[j-1], right[j]-1) + gamma)
			if change <= minChange {
				minChange, minJ = change, j-1
			}
			l = right[j-1]
		}
		if minJ >= len(right) {
			break
		}
		right = slices.Delete(right, minJ, minJ+1)
	}
	l := 0
	for j := 1; j < len(right); j++ {
		prev := d.dist(l, right[j-1]-1) + d.dist(right[j-1], right[j]-1)
		newOff := 0
		for off := -pottsMaxSize; off <= pottsMaxSize; off++ {
			if right[j-1]+off-1 < l || right[j-1]+off > right[j]-1 || off == 0 {
				continue
			}
			if s := d.dist(l, right[j-1]+off-1) + d.dist(right[j-1]+off, right[j]-1); s < prev {
				newOff, prev = off, s
			}
		}
		right[j-1] += newOff
		l = right[j-1]
	}
	return right
}

// solvePottsAutogamma is asv's solve_potts_autogamma with unit weights.
func solvePottsAutogamma(y []float64, d *l1Dist) []int {
	n := len(y)
	beta := 4 * math.Log(float64(n)) / float64(n)
	gamma0 := d.dist(0, n-1)
	if gamma0 == 0 {
		gamma0 = 1
	}
	var best []int
	bestObj := math.Inf(1)
	f := func(x float64) float64 {
		gamma := gamma0 * math.Exp(x)
		right := mergePieces(d, gamma, solvePotts(y, d, gamma))
		values := make([]float64, len(right))
		l := 0
		for k, r := range right {
			values[k] = d.mu(l, r-1)
			l = r
		}
		sigmaStar := func(rho float64) float64 {
			ePrev := y[0] - values[0]
			s := math.Abs(ePrev)
			l := 1
			for k, r := range right {
				for _, yv := range y[l:r] {
					e := yv - values[k]
					s += math.Abs(e - rho*ePrev)
					ePrev = e
				}
				l = r
			}
			return s
		}
		rho := goldenSearch(sigmaStar, -1, 1, 0.05, 1e-8, true)
		var sigma0 float64
		if len(values) > 2 {
			sigma0 = math.Inf(1)
			for k := 1; k < len(values); k++ {
				sigma0 = min(sigma0, math.Abs(values[k]-values[k-1]))
			}
			sigma0 *= 0.1
		} else {
			sigma0 = math.Inf(1)
			for _, v := range values {
				sigma0 = min(sigma0, math.Abs(v))
			}
			sigma0 *= 0.001
		}
		sigma0 = max(1e-300, sigma0)
		obj := beta*float64(len(right)) + math.Log(sigma0+sigmaStar(rho))
		if obj < bestObj {
			best, bestObj = right, obj
		}
		return obj
	}
	a := math.Log(0.1 / float64(n))
	goldenSearch(f, a, 0, math.Abs(a)*0.1, 0, true)
	if best == nil {
		// Every fit's criterion was NaN (values whose deviations
		// overflow): one segment.
		return []int{n}
	}
	return best
}

// goldenSearch is asv's golden_search: the minimum of f on [a, b] by
// golden-section search; with expand, the interval is widened so that the
// first two evaluations fall on a and b.
func goldenSearch(f func(float64) float64, a, b, xatol, ftol float64, expand bool) float64 {
	ratio := 2 / (1 + math.Sqrt(5))
	x0, x3 := a, b
	if expand {
		x0 = (ratio*a - (1-ratio)*b) / (2*ratio - 1)
		x3 = (ratio*b - (1-ratio)*a) / (2*ratio - 1)
	}
	x1 := ratio*x0 + (1-ratio)*x3
	x2 := (1-ratio)*x0 + ratio*x3
	f1, f2 := f(x1), f(x2)
	f0 := max(math.Abs(f1), math.Abs(f2))
	for math.Abs(x0-x3) >= xatol && !(math.Abs(f1-f2) < ftol*f0) {
		if f2 < f1 {
			x0, x1 = x1, x2
			x2 = ratio*x1 + (1-ratio)*x3
			f1, f2 = f2, f(x2)
		} else {
			x3, x2 = x2, x1
			x1 = ratio*x2 + (1-ratio)*x0
			f2, f1 = f1, f(x1)
		}
	}
	if f2 < f1 {
		return x2
	}
	return x1
}
