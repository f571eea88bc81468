package analysis

import (
	"math"
	"slices"
)

// thresholdWindow slides model rustc-perf's threshold along a series'
// main line (Comparer.Consecutive): the history of a commit page's base
// is its series' newest Options.History values before it, and the next
// commit's history gains one value and loses one. Instead of sorting the
// percent changes of every history (thresholdInto), the window keeps them
// sorted, replacing one change at each end as it moves.
//
// The quartiles then come from the same array slices.Sort would give,
// bit for bit, as long as the percent changes are totally ordered: every
// value a positive finite number, so that no change is NaN, −0 or −x
// (which sort as equal to others with other bits). A window holding any
// other value says so, and the caller falls back to thresholdInto.
type thresholdWindow struct {
	n    int       // values of history wanted (Options.History)
	pos  []int32   // main-line positions of the newest n values, oldest first: pos[head:]
	val  []float64 // their values
	head int
	bad  int       // values in the window that are not positive finite numbers
	pcs  []float64 // percent changes of adjacent good values, ascending
}

func (t *thresholdWindow) reset(n int) {
	t.n, t.head, t.bad = n, 0, 0
	t.pos, t.val, t.pcs = t.pos[:0], t.val[:0], t.pcs[:0]
}

func goodValue(v float64) bool { return v > 0 && !math.IsInf(v, 1) }

// push adds the value at position pos, newer than every value held, and
// drops the oldest beyond n.
func (t *thresholdWindow) push(pos int32, v float64) {
	if len(t.val) > t.head {
		if prev := t.val[len(t.val)-1]; goodValue(prev) && goodValue(v) {
			t.addPC(v, prev)
		}
	}
	if !goodValue(v) {
		t.bad++
	}
	if len(t.val) == cap(t.val) && t.head > 0 {
		n := copy(t.val, t.val[t.head:])
		copy(t.pos, t.pos[t.head:])
		t.val, t.pos, t.head = t.val[:n], t.pos[:n], 0
	}
	t.val, t.pos = append(t.val, v), append(t.pos, pos)
	if len(t.val)-t.head > t.n {
		old, next := t.val[t.head], t.val[t.head+1]
		if goodValue(old) && goodValue(next) {
			t.removePC(next, old)
		}
		if !goodValue(old) {
			t.bad--
		}
		t.head++
	}
}

// percentChange is appendPercentChanges' change between a value and the
// older one before it.
func percentChange(newer, older float64) float64 { return math.Abs(newer-older) / newer }

func (t *thresholdWindow) addPC(newer, older float64) {
	x := percentChange(newer, older)
	t.pcs = slices.Insert(t.pcs, searchPCs(t.pcs, x), x)
}

func (t *thresholdWindow) removePC(newer, older float64) {
	x := percentChange(newer, older)
	j := searchPCs(t.pcs, x)
	if j == len(t.pcs) || t.pcs[j] != x {
		panic("analysis: thresholdWindow: percent change not in the window")
	}
	t.pcs = slices.Delete(t.pcs, j, j+1)
}

// searchPCs is the index of the first of the sorted changes not less than
// x. They are never NaN, so plain comparisons do (slices.BinarySearch
// handles NaN, at a cost).
func searchPCs(pcs []float64, x float64) int {
	lo, hi := 0, len(pcs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pcs[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// at returns the history length and the threshold of a base whose history
// starts at main-line position start, all of whose values have been
// pushed: lineHistory's values are the newest of the window, at most n,
// within 3·n positions of start. ok is false when the window holds a value
// the sorted changes cannot stand for; then the caller computes the
// threshold with thresholdInto.
func (t *thresholdWindow) at(start int) (history int, threshold float64, ok bool) {
	if start < 0 {
		return 0, DefaultSignificanceThreshold, true
	}
	first := t.head
	for first < len(t.pos) && int(t.pos[first]) <= start-3*t.n {
		first++
	}
	history = len(t.pos) - first
	switch {
	case history < t.n:
		return history, DefaultSignificanceThreshold, true
	case t.bad > 0:
		return history, 0, false
	}
	return history, fence(t.pcs), true
}
