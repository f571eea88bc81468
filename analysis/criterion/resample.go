package criterion

import "math"

// The statistics of one resample, computed from the drawn indices without
// building the resample. Sums use four accumulators: a serial sum waits
// for each addition to finish, which would make the additions, not the
// draws, the cost of a bootstrap. A resample's sum then differs from the
// left-to-right one in the last bits — immaterial for a bootstrap
// distribution, whose draws differ from Criterion's anyway — while every
// statistic of the sample itself (the point estimates, Welch's t) is summed
// left to right, bit for bit as Criterion does. Order statistics (median,
// MAD) involve no sums and are exactly those of the sorted resample.

// sumAt is Σ xs[j] over the indices.
func sumAt(xs []float64, idx []uint32) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(idx); i += 4 {
		s0 += xs[idx[i]]
		s1 += xs[idx[i+1]]
		s2 += xs[idx[i+2]]
		s3 += xs[idx[i+3]]
	}
	for ; i < len(idx); i++ {
		s0 += xs[idx[i]]
	}
	return (s0 + s1) + (s2 + s3)
}

// sqDevAt is Σ (xs[j] − mean)² over the indices.
func sqDevAt(xs []float64, idx []uint32, mean float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(idx); i += 4 {
		d0, d1, d2, d3 := xs[idx[i]]-mean, xs[idx[i+1]]-mean, xs[idx[i+2]]-mean, xs[idx[i+3]]-mean
		s0 += float64(d0 * d0)
		s1 += float64(d1 * d1)
		s2 += float64(d2 * d2)
		s3 += float64(d3 * d3)
	}
	for ; i < len(idx); i++ {
		d := xs[idx[i]] - mean
		s0 += float64(d * d)
	}
	return (s0 + s1) + (s2 + s3)
}

// resampler draws resamples of one sample as positions in its sorted
// values: drawing a position is drawing an index, and the counts of the
// positions give the median without sorting the resample.
type resampler struct {
	counted
	idx    []uint32
	median bool // compute the median too (else it is returned as 0)
}

// draw returns the mean and the median of a fresh resample.
func (r *resampler) draw(src *source) (mean, median float64) {
	sorted := r.sorted()
	src.fill(r.idx, len(sorted))
	mean = sumAt(sorted, r.idx) / float64(len(sorted))
	if !r.median {
		return mean, 0
	}
	r.add(r.idx)
	median, _ = r.counted.median()
	r.reset()
	return mean, median
}

// counted holds the draws of one resample as multiplicities of the
// sample's sorted values and finds the resample's order statistics from
// them in O(n), without sorting it. The values it returns are those
// Percentiles::at would read from the sorted resample: equal values are
// interchangeable, so only the multiset matters. Both slices carry
// sentinels — vals is −Inf, the sorted values, +Inf (see padded) and cnt
// is 0, the counts, 0 — so that the loops below need no bounds tests.
type counted struct {
	vals     []float64 // shared, read-only
	cnt      []int32
	lo       int     // index of the lower middle order statistic
	fraction float64 // interpolation fraction of the median's rank
}

// padded is sorted between −Inf and +Inf sentinels.
func padded(sorted []float64) []float64 {
	n := len(sorted)
	vals := make([]float64, n+2)
	vals[0], vals[n+1] = math.Inf(-1), math.Inf(1)
	copy(vals[1:], sorted)
	return vals
}

// newCounted counts resamples of the sample whose padded sorted values
// are vals.
func newCounted(vals []float64) counted {
	lo, fraction := rankOf(50, len(vals)-2)
	return counted{vals: vals, cnt: make([]int32, len(vals)), lo: lo, fraction: fraction}
}

// sorted is the sample's values without the sentinels.
func (c *counted) sorted() []float64 { return c.vals[1 : len(c.vals)-1] }

// add counts the drawn positions (indices into sorted).
func (c *counted) add(idx []uint32) {
	in := c.cnt[1 : len(c.cnt)-1]
	for _, j := range idx {
		in[j]++
	}
}

func (c *counted) reset() { clear(c.cnt) }

// median is at(sorted resample, 50); j is the position in vals of its
// lower order statistic.
func (c *counted) median() (median float64, j int) {
	cum := 0
	for j = 1; ; j++ {
		cum += int(c.cnt[j])
		if cum > c.lo {
			break
		}
	}
	floor := c.vals[j]
	if c.fraction == 0 || cum > c.lo+1 {
		return floor, j
	}
	k := j + 1 // the ceiling is the next value drawn
	for c.cnt[k] == 0 {
		k++
	}
	return interpolate(floor, c.vals[k], c.fraction), j
}

// medianAbsDev is the median of |x − median| over the resample, unscaled,
// given median and its lower position j from median(). Every value up to
// vals[j] is ≤ median and every drawn value after it ≥ median, so the
// deviations grow outwards on both sides and merging the two sides nearest
// first visits them in sorted order. Values that were not drawn add 0 to
// the running count; stepping over them costs less than the mispredicted
// branches of skipping them. A sentinel's deviation is +Inf, so the other
// side is taken.
func (c *counted) medianAbsDev(median float64, j int) float64 {
	l, r := j, j+1
	cum := 0
	var dev float64
	var n int32
	for {
		dev, n = c.next(median, &l, &r)
		cum += int(n)
		if cum > c.lo {
			break
		}
	}
	if c.fraction == 0 || cum > c.lo+1 {
		return dev
	}
	floor := dev
	for {
		if dev, n = c.next(median, &l, &r); n != 0 {
			return interpolate(floor, dev, c.fraction)
		}
	}
}

// next takes the smaller deviation of the two sides' next values (at l,
// going down, and r, going up) and returns it with its count.
func (c *counted) next(median float64, l, r *int) (float64, int32) {
	// |x − median| as Criterion computes it: x − median rounds to the
	// negation of median − x, so the absolute values are these.
	dl, dr := median-c.vals[*l], c.vals[*r]-median
	nl, nr := c.cnt[*l], c.cnt[*r]
	left := 0
	if dl < dr {
		left = 1
	}
	*l -= left
	*r += 1 - left
	if left == 1 {
		return dl, nl
	}
	return dr, nr
}
