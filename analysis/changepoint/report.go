package changepoint

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// boundary is a step found in a series' values (x, without the missing
// ones): the index in x of the first value after it, and what to report
// of it.
type boundary struct {
	pos     int
	p       float64
	decided int
}

// report measures the boundaries against the values as they are now and
// returns the steps that are still worth reporting, oldest first.
//
// Each step is measured between its neighbours: Before is the median of
// up to Window values before it, back to the previous step or break, After
// the median of up to Window values after it, up to the next. A method
// decides on the values it has at the time; as values arrive, a step is
// measured on more of them, and one that has shrunk below the size rules
// (a drift of a few commits that looked like a step, say) is withdrawn,
// the smallest first, its neighbours measured again without it. Then
// excursions go: a level held for fewer than Hold values between two steps
// in opposite directions is a run of outliers (or a change undone a few
// commits later), not two steps, so of the two only one that still passes
// without the other stays (the larger), and neither when the level came
// back. (With Hold at 3·MinSegment, six values, such pairs were the only
// false steps left on the M dataset: runs of heavy-tailed throughput,
// max-rss shifts of 0.2 %.)
//
// Last, a staircase — steps in one direction whose levels between them
// held for fewer than Hold values each — is one gradual change (a drift):
// it is reported as one Step from the first one's Prev to the last one's
// Index, Gradual, its Before the level before the first and its After the
// level after the last, so that no single commit of the range is named the
// culprit — unless one of its steps fits the values better than a ramp
// does (see jump): then that step is reported, measured over the whole
// staircase. What report returns depends only on the boundaries and the
// values, which keeps Detect's results independent of the cache.
func report(x []float64, idx []int, brk []bool, bs []boundary, o Options) []Step {
	r := reporter{x: x, brk: brk, o: o}
	bs = slices.Clone(bs)
	for changed := true; changed; {
		bs = r.dropSmall(bs)
		bs, changed = r.dropExcursion(bs)
	}
	if len(bs) == 0 {
		return nil
	}
	r.logs = allPositive(x) // only a series with a step fits ramps (fitSpan)
	var out []Step
	for k := 0; k < len(bs); {
		before, after, _ := r.measure(bs, k)
		first, last := k, k
		for last+1 < len(bs) && bs[last+1].pos-bs[last].pos < o.Hold {
			b2, a2, _ := r.measure(bs, last+1)
			if (a2 > b2) != (after > before) {
				break
			}
			last++
			after = a2
		}
		b := bs[last]
		st := Step{Index: idx[b.pos], Prev: idx[bs[first].pos-1], P: b.p, Decided: b.decided,
			Before: before, After: after, Change: relChange(before, after), Gradual: last > first}
		if st.Gradual {
			if j, ok := r.jump(bs, first, last); ok {
				// One step of the staircase makes the change: it is the
				// culprit, the others are its noise.
				b = bs[j]
				st.Index, st.Prev, st.P, st.Decided, st.Gradual = idx[b.pos], idx[b.pos-1], b.p, b.decided, false
			}
		}
		if !st.Gradual {
			if from, to, ok := r.ramp(bs, k); ok {
				// The ramp's increments fall on values from … to: its
				// last value is the first at the new level.
				st.Gradual, st.Prev, st.Index = true, idx[from-1], idx[to]
			}
		}
		for _, g := range bs[first:last] {
			st.P = max(st.P, g.p)
		}
		out = append(out, st)
		k = last + 1
	}
	return out
}

type reporter struct {
	x []float64
	// logs says ramps and jumps are fitted to the values' logs (every
	// value is positive; see fitSpan), and fit holds the values fitted
	// from position fitLo on.
	logs  bool
	fit   []float64
	fitLo int
	brk   []bool
	o     Options
	tmp   []float64
}

// measure returns the medians either side of step k of bs and its size
// against the smallest step reported (see sizeRatio).
func (r *reporter) measure(bs []boundary, k int) (before, after, ratio float64) {
	c := bs[k].pos
	lo, hi := r.span(bs, k)
	r.tmp = append(r.tmp[:0], r.x[lo:c]...)
	before = quantile.SelectHalvesMedian(r.tmp)
	r.tmp = append(r.tmp[:0], r.x[c:hi]...)
	after = quantile.SelectHalvesMedian(r.tmp)
	return before, after, sizeRatio(r.x[lo:hi], c-lo, before, after, r.o, &r.tmp)
}

// span is the neighbourhood of step k of bs: up to Window values either
// side, stopping at the neighbouring steps and at breaks.
func (r *reporter) span(bs []boundary, k int) (lo, hi int) {
	c := bs[k].pos
	lo, hi = max(0, c-r.o.Window), min(len(r.x), c+r.o.Window)
	if k > 0 {
		lo = max(lo, bs[k-1].pos)
	}
	if k+1 < len(bs) {
		hi = min(hi, bs[k+1].pos)
	}
	for j := c - 1; j > lo; j-- {
		if r.brk[j] {
			lo = j
			break
		}
	}
	for j := c + 1; j < hi; j++ {
		if r.brk[j] {
			hi = j
			break
		}
	}
	return lo, hi
}

// ramp reports whether the change at step k of bs is gradual rather than
// a step: a level that moved linearly over rampMin or more values fits
// the step's neighbourhood better, by the sum of absolute deviations, than
// a jump at the step does, by more than RampGain of the jump's cost. It
// returns the ramp's first value and the first value after it (the first
// at the new level).
func (r *reporter) ramp(bs []boundary, k int) (from, to int, ok bool) {
	lo, hi := r.span(bs, k)
	r.fitSpan(lo, hi)
	c := bs[k].pos
	jump := r.splitCost(lo, c, hi)
	if jump == 0 {
		return 0, 0, false
	}
	best := jump
	for a := max(lo+rampMin, c-2*r.o.Hold); a <= c; a++ {
		for b := max(c+1, a+rampMin); b <= min(hi-rampMin, a+2*r.o.Hold); b++ {
			if cost := r.rampCost(lo, a, b, hi); cost < best {
				best, from, to = cost, a, b
			}
		}
	}
	return from, to, best < (1-RampGain)*jump
}

// jump reports whether one step of the staircase bs[first..last] fits
// the staircase's neighbourhood better than a ramp from its first step to
// its last does, by RampGain of the ramp's cost: a clear step followed
// within Hold values by a small move of a wandering level is that step,
// not a drift. It returns the index in bs of the best such step.
func (r *reporter) jump(bs []boundary, first, last int) (int, bool) {
	lo, _ := r.span(bs, first)
	_, hi := r.span(bs, last)
	r.fitSpan(lo, hi)
	a, b := bs[first].pos, bs[last].pos
	ramp := r.rampCost(lo, a, b, hi)
	best, cost := -1, math.Inf(1)
	for j := first; j <= last; j++ {
		if c := r.splitCost(lo, bs[j].pos, hi); c < cost {
			best, cost = j, c
		}
	}
	return best, cost < (1-RampGain)*ramp
}

// rampMin is the fewest values a ramp spans, and the fewest it needs on
// either side.
const rampMin = 3

// RampGain is how much better a ramp must fit than a jump (see ramp):
// on the planted suites (generator/planted), fitted in logs (fitSpan),
// 0.05, 0.1, 0.15 and 0.2 let the headline flag 10, 17, 28 and 40 rows
// inside a drift (one value a commit), for step detection's precision
// 0.802, 0.816, 0.820 and 0.827 (a step in heavy-tailed noise taken for a
// ramp is reported a commit or three off).
const RampGain = 0.1

// fitSpan makes fit the values of x[lo:hi] that ramps and jumps are
// fitted to: their logs when every value of x is positive, as the noise
// and width rules measure a step, and the values themselves otherwise.
// Benchmark noise is multiplicative and a drift a steady relative change:
// in logs the noise is the same at both ends of a drift and the drift is
// a straight ramp; in the values themselves the upper level's noise is as
// many times the lower's as the drift is large, and its deviations swamp
// what a ramp gains over a jump (TestRampInLogs: ×17 over 12 commits in
// noise of 30 %, 16 drifts in 20 reported as a step). On the planted
// suites (generator/planted), fitted in logs the headline flagged 17 and
// 22 rows inside planted drifts instead of 27 and 33 (values and samples
// shapes; headline precision 0.722 → 0.736 and 0.740 → 0.759, recall
// unchanged within a step or two), for step detection's precision 0.825
// → 0.816 and 0.822 → 0.824 (a few steps in heavy-tailed noise next to a
// run of outliers are now a ramp ending a commit or three off). Only the
// span a fit looks at is converted: most series have no step to fit.
func (r *reporter) fitSpan(lo, hi int) {
	r.fitLo, r.fit = lo, append(r.fit[:0], r.x[lo:hi]...)
	if r.logs {
		for i, v := range r.fit {
			r.fit[i] = math.Log(v)
		}
	}
}

// fitted returns the fitted values of positions lo … hi−1 (within the
// last fitSpan).
func (r *reporter) fitted(lo, hi int) []float64 { return r.fit[lo-r.fitLo : hi-r.fitLo] }

// rampCost is the sum of absolute deviations of the fitted values of lo …
// hi−1 from a level (the median of those of lo … a−1) that moves linearly
// over [a, b) to another (the median of those of b … hi−1).
func (r *reporter) rampCost(lo, a, b, hi int) float64 {
	r.tmp = append(r.tmp[:0], r.fitted(lo, a)...)
	before := quantile.SelectHalvesMedian(r.tmp)
	r.tmp = append(r.tmp[:0], r.fitted(b, hi)...)
	after := quantile.SelectHalvesMedian(r.tmp)
	f := r.fitted(lo, hi)
	var cost float64
	for i := lo; i < hi; i++ {
		level := before
		switch {
		case i >= b:
			level = after
		case i >= a:
			level = before + (after-before)*float64(i-a+1)/float64(b-a+1)
		}
		cost += math.Abs(f[i-lo] - level)
	}
	return cost
}

// splitCost is the sum of absolute deviations of the fitted values of
// lo … t−1 from their median and of those of t … hi−1 from theirs.
func (r *reporter) splitCost(lo, t, hi int) float64 {
	return r.lad(r.fitted(lo, t)) + r.lad(r.fitted(t, hi))
}

// lad is the sum of absolute deviations of xs from their median.
func (r *reporter) lad(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	r.tmp = append(r.tmp[:0], xs...)
	m := quantile.SelectHalvesMedian(r.tmp)
	var c float64
	for _, v := range xs {
		c += math.Abs(v - m)
	}
	return c
}

// dropSmall withdraws the steps too small to report, smallest first.
func (r *reporter) dropSmall(bs []boundary) []boundary {
	for {
		worst, least := -1, math.Inf(1)
		for k := range bs {
			if _, _, ratio := r.measure(bs, k); ratio < 1 && ratio < least {
				worst, least = k, ratio
			}
		}
		if worst < 0 {
			return bs
		}
		bs = slices.Delete(bs, worst, worst+1)
	}
}

// dropExcursion removes the first excursion, if any (see report).
func (r *reporter) dropExcursion(bs []boundary) ([]boundary, bool) {
	for k := 0; k+1 < len(bs); k++ {
		if bs[k+1].pos-bs[k].pos >= r.o.Hold {
			continue
		}
		b1, a1, _ := r.measure(bs, k)
		b2, a2, _ := r.measure(bs, k+1)
		if (a1 > b1) == (a2 > b2) {
			continue // two steps the same way: a staircase, not an excursion
		}
		withoutSecond := slices.Delete(slices.Clone(bs), k+1, k+2)
		withoutFirst := slices.Delete(slices.Clone(bs), k, k+1)
		_, _, keepFirst := r.measure(withoutSecond, k)
		_, _, keepSecond := r.measure(withoutFirst, k)
		switch {
		case keepFirst >= 1 && keepFirst >= keepSecond:
			return withoutSecond, true
		case keepSecond >= 1:
			return withoutFirst, true
		}
		return slices.Delete(withoutSecond, k, k+1), true
	}
	return bs, false
}

// sizeRatio is how large the step between w[:t] (median before) and w[t:]
// (median after) is against the smallest step reported: at least 1 when
// it is reported, 0 when there is no change. The run-to-run width is
// measured on w, as the gate measures it.
func sizeRatio(w []float64, t int, before, after float64, o Options, tmp *[]float64) float64 {
	delta := math.Abs(after - before)
	if delta == 0 {
		return 0
	}
	ratio := math.Inf(1)
	if need := o.MinChange * math.Abs(before); need > 0 {
		ratio = delta / need
	}
	if o.NoiseMultiple > 0 {
		if sigma, logs := noise(w, t, before, after, tmp); sigma > 0 {
			ratio = min(ratio, change(before, after, logs)/(o.NoiseMultiple*sigma))
		}
	}
	if o.WidthMultiple > 0 && before > 0 && after > 0 {
		if wd := Width(w, tmp); wd > 0 {
			ratio = min(ratio, math.Abs(math.Log(after/before))/(o.WidthMultiple*wd*evidence(o, t, len(w)-t)))
		}
	}
	return ratio
}

// noise is a robust standard deviation of w's noise: the interquartile
// range of the values less their side's median (before for w[:t], after
// for w[t:]), over 1.349, which is σ for normal noise. Taking each side
// about its own median leaves the step out; the quartiles ignore
// outliers; and a bimodal series, whose values fall on two levels at
// random, gets the distance between its levels as its noise, so that a
// run of values on one level is not a step.
//
// When every value and both medians are positive the residuals are of
// the values' logs (logs reports so), as with the width rule: benchmark
// noise is relative, so the spread of a side scales with its level, and
// in linear terms the values after a large step up would count as noisier
// than the step is large.
func noise(w []float64, t int, before, after float64, tmp *[]float64) (sigma float64, logs bool) {
	logs = before > 0 && after > 0 && allPositive(w)
	d := (*tmp)[:0]
	for i, v := range w {
		level := after
		if i < t {
			level = before
		}
		if logs {
			d = append(d, math.Log(v/level))
		} else {
			d = append(d, v-level)
		}
	}
	*tmp = d
	n := len(d)
	q3 := quantile.SelectNth(d, 3*n/4)
	q1 := quantile.SelectNth(d[:3*n/4], n/4)
	return (q3 - q1) / 1.3489795003921634, logs
}

// change is the size of the step from before to after on noise's scale:
// |ln(after/before)| when logs, else |after − before|.
func change(before, after float64, logs bool) float64 {
	if logs {
		return math.Abs(math.Log(after / before))
	}
	return math.Abs(after - before)
}

// relChange is (after − before)/|before|, ±Inf for a change from 0 and 0
// for none.
func relChange(before, after float64) float64 {
	switch {
	case after == before:
		return 0
	case before == 0:
		return math.Inf(int(math.Copysign(1, after)))
	}
	return (after - before) / math.Abs(before)
}

// allPositive says every value of x is positive.
func allPositive(x []float64) bool {
	for _, v := range x {
		if !(v > 0) {
			return false
		}
	}
	return true
}
