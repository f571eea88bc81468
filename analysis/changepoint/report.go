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
// measured on more of them, and one that has shrunk below MinChange or
// NoiseMultiple times the noise (a drift of a few commits that looked like
// a step, say) is withdrawn, the smallest first, its neighbours measured
// again without it. Then excursions go: a level held for fewer than
// 3·MinSegment values between two steps in opposite directions is a run of
// outliers (or a change undone a few commits later), not two steps, so of
// the two only one that still passes without the other stays (the
// larger), and neither when the level came back. (With fewer than
// 3·MinSegment, six values, such pairs were the only false steps left on
// the M dataset: runs of heavy-tailed throughput, max-rss shifts of 0.2 %.) What report returns depends only on the boundaries and the values,
// which keeps Detect's results independent of the cache.
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
	out := make([]Step, len(bs))
	for k, b := range bs {
		before, after, _ := r.measure(bs, k)
		out[k] = Step{Index: idx[b.pos], Prev: idx[b.pos-1], P: b.p, Decided: b.decided,
			Before: before, After: after, Change: relChange(before, after)}
	}
	return out
}

type reporter struct {
	x   []float64
	brk []bool
	o   Options
	tmp []float64
}

// measure returns the medians either side of step k of bs and its size
// against the smallest step reported (see sizeRatio).
func (r *reporter) measure(bs []boundary, k int) (before, after, ratio float64) {
	c := bs[k].pos
	lo, hi := max(0, c-r.o.Window), min(len(r.x), c+r.o.Window)
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
	r.tmp = append(r.tmp[:0], r.x[lo:c]...)
	before = quantile.SelectHalvesMedian(r.tmp)
	r.tmp = append(r.tmp[:0], r.x[c:hi]...)
	after = quantile.SelectHalvesMedian(r.tmp)
	return before, after, sizeRatio(r.x[lo:hi], c-lo, before, after, r.o, &r.tmp)
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
		if bs[k+1].pos-bs[k].pos >= 3*r.o.MinSegment {
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
// it is reported, 0 when there is no change.
func sizeRatio(w []float64, t int, before, after float64, o Options, tmp *[]float64) float64 {
	delta := math.Abs(after - before)
	if delta == 0 {
		return 0
	}
	need := o.MinChange * math.Abs(before)
	if o.NoiseMultiple > 0 {
		need = max(need, o.NoiseMultiple*noise(w, t, before, after, tmp))
	}
	if need == 0 {
		return math.Inf(1)
	}
	return delta / need
}

// noise is a robust standard deviation of w's noise: the interquartile
// range of the values less their side's median (before for w[:t], after
// for w[t:]), over 1.349, which is σ for normal noise. Taking each side
// about its own median leaves the step out; the quartiles ignore
// outliers; and a bimodal series, whose values fall on two levels at
// random, gets the distance between its levels as its noise, so that a
// run of values on one level is not a step.
func noise(w []float64, t int, before, after float64, tmp *[]float64) float64 {
	d := (*tmp)[:0]
	for i, v := range w {
		if i < t {
			d = append(d, v-before)
		} else {
			d = append(d, v-after)
		}
	}
	*tmp = d
	n := len(d)
	q3 := quantile.SelectNth(d, 3*n/4)
	q1 := quantile.SelectNth(d[:3*n/4], n/4)
	return (q3 - q1) / 1.3489795003921634
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
