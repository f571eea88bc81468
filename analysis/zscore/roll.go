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
	n := float64(r.nobs)

	y := v - r.sumAddC
	t := r.sum + y
	r.sumAddC = t - r.sum - y
	r.sum = t
	if math.Signbit(v) {
		r.negCt++
	}

	if v == r.prev {
		r.same++
	} else {
		r.same = 1
	}
	r.prev = v

	if r.meanOnly {
		return
	}
	prevMean := r.mean - r.varAddC
	y = v - r.varAddC
	t = y - r.mean
	r.varAddC = t + r.mean - y
	r.mean += t / n
	r.ssqdm += (v - prevMean) * (v - r.mean)
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
func (r *roller) avg() float64 {
	if r.nobs == 0 {
		return math.NaN()
	}
	m := r.sum / float64(r.nobs)
	switch {
	case r.same >= r.nobs:
		m = r.prev
	case r.negCt == 0 && m < 0:
		m = 0
	case r.negCt == r.nobs && m > 0:
		m = 0
	}
	return m
}

// std is the window's sample standard deviation (ddof 1); NaN with fewer
// than two values. Not for a meanOnly roller.
func (r *roller) std() float64 {
	if r.nobs < 2 {
		return math.NaN()
	}
	if r.same >= r.nobs {
		return 0
	}
	v := r.ssqdm / float64(r.nobs-1)
	if v < 0 { // removal can leave a tiny negative residue
		return 0
	}
	return math.Sqrt(v)
}

// quantile is numpy's default ("linear") percentile of sorted data, the one
// pandas' Series.quantile uses: virtual index (n−1)·q, computed in that
// form as numpy does (n·q + (1−q) − 1 rounds differently, and the trimming
// compares data with the quantile exactly), then numpy's two-sided
// interpolation between the neighbours. NaN for no data.
func quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	virtual := float64(n-1) * q
	if virtual <= 0 {
		return sorted[0]
	}
	if virtual >= float64(n-1) {
		return sorted[n-1]
	}
	lo := math.Floor(virtual)
	i := int(lo)
	return lerp(sorted[i], sorted[i+1], virtual-lo)
}

// lerp interpolates like numpy's _lerp, which counts from the nearer end so
// that the result stays inside [a, b].
func lerp(a, b, t float64) float64 {
	if t == 0 {
		return a
	}
	d := b - a
	if t >= 0.5 {
		return b - d*(1-t)
	}
	return a + d*t
}
