package zscore

import (
	"math"
	"slices"
	"time"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// Window is a lookback distribution that slides along a line of commits:
// rows come and go one at a time ([Window.Insert], [Window.Delete]) and
// [Window.Dist] returns what [Distribution] returns for the rows currently
// in the window, bit for bit, without sorting anything.
//
// A commit page scores every main-line commit against the distribution of
// its parent's last DefaultCommits commits; consecutive pages' windows
// differ by one commit at each end. Distribution's cost is dominated by
// ordering the rows and sorting their differences for the spike detector's
// trimming quantiles (O(W log W)). Window keeps both up to date instead:
//
//   - the rows in commit order, each with a caller-given key (its rank in
//     Distribution's (Time, Commit) order), so a row joining at the newest
//     end is an append and one leaving at the oldest end a slice step;
//   - the differences between consecutive valid rows in a sorted buffer,
//     updated by binary search and a short memmove when a row comes or goes
//     (inserting b between a and c replaces c−a by b−a and c−b).
//
// The trimming quantiles are then read off the buffer, and the rest of
// Distribution's work is two O(W) passes in the same floating-point
// operations in the same order: every rolling window of Distribution spans
// the whole input when it holds at most window commits, so the detector's
// estimators, the segment means and the residuals' deviation are running
// accumulators started at the window's first row. No state is carried from
// one Dist to the next, which is what makes the result identical to a fresh
// Distribution (the rolling sums are not invertible bit for bit). What
// remains is bound by the two chains of Welford updates (a division each);
// BenchmarkWindow measures it against Scratch.Distribution.
//
// Each key is one commit: keys must be distinct. A window holding more valid
// rows than the window argument of Dist (the rolling windows would then drop
// rows) is computed by Scratch.Distribution on the same rows. The zero
// Window is empty and ready to use; a Window must not be used by two
// goroutines at once.
type Window struct {
	rows    []windowRow // rows[head:] are the window's rows by key
	head    int
	diffs   []float64 // differences of consecutive valid rows, ascending
	valid   int       // rows with a finite value
	invalid int       // rows without (left out, counted as Dist.Invalid)

	shift []bool  // scratch of Dist
	s     Scratch // for windows too long for Dist's passes
	obs   []Observation
}

type windowRow struct {
	key    int
	value  float64
	begins bool
	valid  bool
}

// Reset empties the window, keeping its buffers.
func (w *Window) Reset() {
	w.rows, w.head = w.rows[:0], 0
	w.diffs = w.diffs[:0]
	w.valid, w.invalid = 0, 0
}

// Insert adds a row: the commit ranked key in (Time, Commit) order, its
// value and whether a distribution change begins at it. It panics if the
// key is already in the window.
func (w *Window) Insert(key int, value float64, beginsChange bool) {
	r := windowRow{key: key, value: value, begins: beginsChange, valid: isFinite(value)}
	live := w.rows[w.head:]
	j := len(live)
	if j > 0 && live[j-1].key >= key {
		var found bool
		j, found = slices.BinarySearchFunc(live, key, func(r windowRow, k int) int { return r.key - k })
		if found {
			panic("zscore: Window.Insert: key already in the window")
		}
	}
	if j == len(live) && len(w.rows) == cap(w.rows) && w.head > 0 {
		// Reuse the space of deleted rows before growing.
		n := copy(w.rows, live)
		w.rows, w.head = w.rows[:n], 0
	}
	w.rows = slices.Insert(w.rows, w.head+j, r)
	if !r.valid {
		w.invalid++
		return
	}
	w.valid++
	a, c := w.neighbours(w.head + j)
	switch {
	case a >= 0 && c >= 0:
		w.removeDiff(w.rows[c].value - w.rows[a].value)
		w.addDiff(value - w.rows[a].value)
		w.addDiff(w.rows[c].value - value)
	case a >= 0:
		w.addDiff(value - w.rows[a].value)
	case c >= 0:
		w.addDiff(w.rows[c].value - value)
	}
}

// Delete removes the row with this key. It panics if there is none.
func (w *Window) Delete(key int) {
	i := w.head
	if i >= len(w.rows) || w.rows[i].key != key {
		j, found := slices.BinarySearchFunc(w.rows[w.head:], key, func(r windowRow, k int) int { return r.key - k })
		if !found {
			panic("zscore: Window.Delete: no such key in the window")
		}
		i = w.head + j
	}
	r := w.rows[i]
	if r.valid {
		w.valid--
		a, c := w.neighbours(i)
		switch {
		case a >= 0 && c >= 0:
			w.removeDiff(r.value - w.rows[a].value)
			w.removeDiff(w.rows[c].value - r.value)
			w.addDiff(w.rows[c].value - w.rows[a].value)
		case a >= 0:
			w.removeDiff(r.value - w.rows[a].value)
		case c >= 0:
			w.removeDiff(w.rows[c].value - r.value)
		}
	} else {
		w.invalid--
	}
	if i == w.head {
		w.head++
		if w.head == len(w.rows) {
			w.rows, w.head = w.rows[:0], 0
		}
		return
	}
	w.rows = slices.Delete(w.rows, i, i+1)
}

// neighbours returns the indices in w.rows of the nearest valid rows before
// and after index i, or -1.
func (w *Window) neighbours(i int) (before, after int) {
	before, after = -1, -1
	for j := i - 1; j >= w.head; j-- {
		if w.rows[j].valid {
			before = j
			break
		}
	}
	for j := i + 1; j < len(w.rows); j++ {
		if w.rows[j].valid {
			after = j
			break
		}
	}
	return before, after
}

// addDiff inserts a difference into the sorted buffer.
func (w *Window) addDiff(x float64) {
	j := searchFloats(w.diffs, x)
	w.diffs = slices.Insert(w.diffs, j, x)
}

// removeDiff removes one difference equal to x. −0 and +0 are equal here,
// so the buffer may keep the other zero: the quantiles are only compared
// with differences, where the sign of a zero does not matter.
func (w *Window) removeDiff(x float64) {
	j := searchFloats(w.diffs, x)
	if j == len(w.diffs) || w.diffs[j] != x {
		panic("zscore: Window: difference not in the buffer")
	}
	w.diffs = slices.Delete(w.diffs, j, j+1)
}

// searchFloats is the index of the first element of sorted that is not
// less than x. The differences of finite values are never NaN, so plain
// comparisons do (slices.BinarySearch's handle NaN, at a cost).
func searchFloats(sorted []float64, x float64) int {
	lo, hi := 0, len(sorted)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if sorted[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Dist returns [Distribution] of the window's rows with rolling windows of
// window commits (DefaultCommits when window < 1): the rows as observations
// ordered by key, each on its own commit.
func (w *Window) Dist(window int) Dist {
	if window < 1 {
		window = DefaultCommits
	}
	if w.valid > window {
		return w.slow(window)
	}
	d := Dist{Invalid: w.invalid}
	n := w.valid
	if n == 0 {
		d.Reason = reasonNoHistory
		return d
	}
	rows := w.rows[w.head:]

	// With at most window rows, every rolling window of Distribution
	// starts at the first row, so its rollers only ever add: the
	// detector's holds the clipped differences up to row i, a row's
	// exclusive mean its segment's earlier rows, the deviation every
	// residual, and the last row's inclusive mean is its segment's
	// running mean with it. The rollers are taken apart into variables
	// (roll.go's kahanAdd, welfordAdd, sameRun, meanOf, stdOf), so that
	// they stay in registers. Two passes, as fusing them spills.
	lo, hi := quantile.Conbench(w.diffs, trimLow), quantile.Conbench(w.diffs, trimHigh)

	// The spike detector (Scratch.detect).
	shift := grow(w.shift, n)
	w.shift = shift
	var (
		detN, detNeg, detSame                            int
		detPrev, detSum, detSumC, detMean, detSSQ, detVC float64
	)
	prev := 0.0
	i := 0
	for k := range rows {
		r := &rows[k]
		if !r.valid {
			continue
		}
		diff := math.NaN() // the first row has no difference
		if i > 0 {
			diff = r.value - prev
		}
		clip := diff
		if diff < lo || diff > hi {
			clip = math.NaN()
		}
		if clip == clip {
			detN++
			detSum, detSumC = kahanAdd(detSum, detSumC, clip)
			if math.Signbit(clip) {
				detNeg++
			}
			detSame, detPrev = sameRun(detSame, detPrev, clip)
			detMean, detSSQ, detVC = welfordAdd(detMean, detSSQ, detVC, clip, float64(detN))
		}
		shift[i] = !clearlyNoShift(diff, detSum, detSSQ, detN, detNeg, detSame, detPrev) &&
			exactShift(diff, detSum, detSSQ, detN, detNeg, detSame, detPrev)
		prev = r.value
		i++
	}

	// Outliers, segments, means and residuals (Scratch.keep, means and
	// stds): a row is an outlier when it and the next are shifts; a
	// segment begins at an annotated row other than the first; a row's
	// residual is its value minus the running mean of its segment's
	// earlier rows (the value itself for the first), the exclusive mean;
	// the deviation is the running one of every residual, and the last
	// row's inclusive mean its segment's running mean with it. ex and sd
	// are rollers taken apart, sd without its sum (only its variance is
	// used).
	var (
		exN, exNeg, exSame          int
		exPrev, exSum, exSumC       float64
		sdN, sdSame                 int
		sdPrev, sdMean, sdSSQ, sdVC float64
	)
	outliers, kept := 0, 0
	i = 0
	for k := range rows {
		r := &rows[k]
		if !r.valid {
			continue
		}
		v := r.value
		if r.begins && i > 0 {
			exN, exNeg, exSame, exPrev, exSum, exSumC = 0, 0, 0, 0, 0, 0
		}
		if shift[i] && i+1 < n && shift[i+1] {
			outliers++
			i++
			continue
		}
		excl := v
		if exN > 0 {
			excl = meanOf(exSum, exN, exNeg, exSame, exPrev)
		}
		if res := v - excl; res == res {
			sdN++
			sdSame, sdPrev = sameRun(sdSame, sdPrev, res)
			sdMean, sdSSQ, sdVC = welfordAdd(sdMean, sdSSQ, sdVC, res, float64(sdN))
		}
		exN++
		exSum, exSumC = kahanAdd(exSum, exSumC, v)
		if math.Signbit(v) {
			exNeg++
		}
		exSame, exPrev = sameRun(exSame, exPrev, v)
		kept++
		i++
	}

	d.Outliers = outliers
	d.N, d.Commits = sdN, kept
	d.setStats(kept, meanOf(exSum, exN, exNeg, exSame, exPrev), stdOf(sdSSQ, sdN, sdSame))
	return d
}

// slow is Dist through Scratch.Distribution, for windows whose rolling
// windows drop rows. The keys become times, so that the rows keep their
// order and each is its own commit.
func (w *Window) slow(window int) Dist {
	w.obs = w.obs[:0]
	for _, r := range w.rows[w.head:] {
		w.obs = append(w.obs, Observation{Time: time.Unix(0, int64(r.key)), Value: r.value, BeginsChange: r.begins})
	}
	return w.s.Distribution(w.obs, window)
}
