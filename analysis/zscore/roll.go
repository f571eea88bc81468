package zscore

import "math"

// roller is a rolling accumulator for windows whose start and end only move
// forward. It restates pandas' roll_mean and roll_var (the code behind
// Conbench's rolling statistics): values are added at the end and removed at
// the start (O(1) each), the sum is Kahan-compensated, the variance uses
// Welford's update, NaN is skipped, and a window whose values are all equal
// has exactly that mean and exactly zero variance (pandas tracks the run of
// equal values for the same reason: no floating-point residue where the
// answer is exact, so "standard deviation is 0" is detected reliably).
type roller struct {
	nobs  int
	negCt int // values with the sign bit set (pandas clamps means by it)

	sum, sumAddC, sumRemC float64 // Kahan sum (roll_mean)

	mean, ssqdm, varAddC, varRemC float64 // Welford (roll_var)

	same int     // length of the run of equal values added last
	prev float64 // the last value added

	// The window currently held: [start, end) of the values slice.
	start, end int
	primed     bool

	meanOnly bool // skip the variance (its division dominates the cost)
}

// window moves the accumulator to vals[s:e]. Calls must come with
// non-decreasing s and e, as pandas requires for add/remove rolling; a
// window that does not overlap the previous one starts afresh.
func (r *roller) window(vals []float64, s, e int) {
	if !r.primed || s >= r.end {
		*r = roller{start: s, end: s, primed: true, meanOnly: r.meanOnly}
		if s < len(vals) {
			r.prev = vals[s]
		}
	}
	for j := r.start; j < s; j++ {
		r.remove(vals[j])
	}
	for j := r.end; j < e; j++ {
		r.add(vals[j])
	}
	r.start, r.end = s, e
}

func (r *roller) add(v float64) {
	if v != v {
		return
	}
	r.nobs++
	r.sum, r.sumAddC = kahanAdd(r.sum, r.sumAddC, v)
	if math.Signbit(v) {
		r.negCt++
	}
	r.same, r.prev = sameRun(r.same, r.prev, v)
	if r.meanOnly {
		return
	}
	r.mean, r.ssqdm, r.varAddC = welfordAdd(r.mean, r.ssqdm, r.varAddC, v, float64(r.nobs))
}

// The steps of add on plain values, so that a caller can keep the
// accumulators in registers (Window.Dist).

// kahanAdd adds v to a compensated sum (pandas' add_mean).
func kahanAdd(sum, comp, v float64) (float64, float64) {
	y := v - comp
	t := sum + y
	return t, t - sum - y
}

// welfordAdd adds v, the n-th value, to Welford's mean and sum of squared
// deviations, the mean compensated (pandas' add_var).
func welfordAdd(mean, ssqdm, comp, v, n float64) (float64, float64, float64) {
	prevMean := mean - comp
	y := v - comp
	t := y - mean
	comp = t + mean - y
	mean += t / n
	return mean, ssqdm + (v-prevMean)*(v-mean), comp
}

// sameRun extends the run of equal values by v.
func sameRun(same int, prev, v float64) (int, float64) {
	if v == prev {
		return same + 1, v
	}
	return 1, v
}

func (r *roller) remove(v float64) {
	if v != v {
		return
	}
	r.nobs--

	y := -v - r.sumRemC
	t := r.sum + y
	r.sumRemC = t - r.sum - y
	r.sum = t
	if math.Signbit(v) {
		r.negCt--
	}

	if r.meanOnly {
		return
	}
	if r.nobs == 0 {
		r.mean, r.ssqdm = 0, 0
		return
	}
	prevMean := r.mean - r.varRemC
	y = v - r.varRemC
	t = y - r.mean
	r.varRemC = t + r.mean - y
	r.mean -= t / float64(r.nobs)
	r.ssqdm -= (v - prevMean) * (v - r.mean)
}

// count is the number of non-NaN values in the window.
func (r *roller) count() int { return r.nobs }

// avg is the window's mean; NaN when it is empty.
func (r *roller) avg() float64 { return meanOf(r.sum, r.nobs, r.negCt, r.same, r.prev) }

// meanOf is avg on plain values.
func meanOf(sum float64, nobs, negCt, same int, prev float64) float64 {
	if nobs == 0 {
		return math.NaN()
	}
	m := sum / float64(nobs)
	switch {
	case same >= nobs:
		m = prev
	case negCt == 0 && m < 0:
		m = 0
	case negCt == nobs && m > 0:
		m = 0
	}
	return m
}

// std is the window's sample standard deviation (ddof 1); NaN with fewer
// than two values. Not for a meanOnly roller.
func (r *roller) std() float64 { return stdOf(r.ssqdm, r.nobs, r.same) }

// stdOf is std on plain values.
func stdOf(ssqdm float64, nobs, same int) float64 {
	if nobs < 2 {
		return math.NaN()
	}
	if same >= nobs {
		return 0
	}
	v := ssqdm / float64(nobs-1)
	if v < 0 { // removal can leave a tiny negative residue
		return 0
	}
	return math.Sqrt(v)
}

// shifts reports whether a difference is a shift for a detector holding
// the clipped differences up to it: more than shiftZ deviations from their
// mean (Scratch.detect's test).
//
// Most differences are far from the limit, and the test's three divisions
// and square root dominate the detector's cost. So the quotients are first
// bounded with multiplications by reciprocals: a mean or variance so
// computed is within a few units in the last place of the divided one,
// which the 2 % margin below dwarfs. Only a difference near the limit, or
// an unusual window (fewer than two values, all equal, values so small or
// large that the bound needs care), takes the exact test, which decides
// alone.
func (r *roller) shifts(diff float64) bool {
	return shifts(diff, r.sum, r.ssqdm, r.nobs, r.negCt, r.same, r.prev)
}

// shifts is roller.shifts on plain values.
func shifts(diff, sum, ssqdm float64, nobs, negCt, same int, prev float64) bool {
	return !clearlyNoShift(diff, sum, ssqdm, nobs, negCt, same, prev) && exactShift(diff, sum, ssqdm, nobs, negCt, same, prev)
}

// clearlyNoShift is shifts' quick answer: true when the difference is
// certainly not a shift. It computes the mean and the variance as meanOf
// and stdOf do, but compares the squared deviation with 0.98·25 times the
// variance instead of dividing by the square root: a difference that
// passes is within 4.95 deviations, whatever the rounding of the root and
// the quotient. When all the values are equal the deviation is 0, and only
// a difference equal to them scores no shift (NaN). A product that
// overflows fails, so do NaNs; tiny variances (whose products round
// badly) are left to the exact test. It is small enough to be inlined, so
// that a loop calling it keeps its accumulators in registers.
func clearlyNoShift(diff, sum, ssqdm float64, nobs, negCt, same int, prev float64) bool {
	if nobs < 2 {
		return true // the deviation is NaN, so is z
	}
	if same >= nobs {
		return diff == prev // every value is prev: std 0, z ±Inf unless diff is prev
	}
	m := sum / float64(nobs)
	if negCt == 0 && m < 0 || negCt == nobs && m > 0 {
		m = 0 // meanOf's clamps
	}
	v := ssqdm / float64(nobs-1)
	d := diff - m
	return v > 1e-200 && d*d < 0.98*shiftZ*shiftZ*v
}

// exactShift is Scratch.detect's test.
func exactShift(diff, sum, ssqdm float64, nobs, negCt, same int, prev float64) bool {
	z := (diff - meanOf(sum, nobs, negCt, same, prev)) / stdOf(ssqdm, nobs, same)
	return math.Abs(z) > shiftZ
}
