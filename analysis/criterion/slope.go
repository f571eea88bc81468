package criterion

// Slope fits times = slope · iters by ordinary least squares through the
// origin, as Criterion's Slope::fit: Σ(iters·times) / Σ(iters²), on the raw
// totals (not the per-iteration values). With linear sampling this is
// Criterion's preferred estimate of the time per iteration. It is NaN when
// the slices are empty or all iteration counts are 0; extra values of the
// longer slice are ignored.
func Slope(iters, times []float64) float64 {
	n := min(len(iters), len(times))
	xy, x2 := 0.0, 0.0
	for i := range n {
		xy += float64(iters[i] * times[i])
		x2 += float64(iters[i] * iters[i])
	}
	return xy / x2
}

// Linear reports whether iters are Criterion's linear sampling: exactly
// [d, 2d, …, n·d] with d > 0 and at least 2 samples (quick mode's [d, 2d]
// included). Criterion computes the slope only in that mode.
//
// sample.json states the mode ("Linear" or "Flat") but perfpages archives
// keep only the counts, so the mode is recognised from them. A flat run
// (every count the same) is never mistaken for a linear one; a linear run
// can only be missed if its counts were rewritten.
func Linear(iters []float64) bool {
	if len(iters) < 2 || !(iters[0] > 0) {
		return false
	}
	d := iters[0]
	for i, x := range iters {
		if x != float64(i+1)*d {
			return false
		}
	}
	return true
}
