package changepoint

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
	"math"
	"slices"
	"sync"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// Method chooses how steps are found.
type Method string

// The methods.
const (
	// EDivisive is the default: E-divisive means with a permutation test,
	// run sequentially over a window along the series (see the package
	// documentation).
	EDivisive Method = "e-divisive"
	// Potts is asv's step detection: the L1 Potts model of the whole
	// series, its penalty chosen by asv's information criterion (see
	// potts.go). It has no significance test and no incremental path; it
	// is kept for comparison and for sites that want asv's answers.
	Potts Method = "potts"
)

// Options configures Detect. Start from DefaultOptions and change fields;
// Detect corrects values out of range (see normalized) rather than fail.
type Options struct {
	Method Method
	// Window is the most values the test looks at: the newest Window
	// values of the open segment.
	Window int
	// MinSegment is the fewest values on each side of a step: a step is
	// confirmed only once MinSegment values after it are known, and a
	// one-commit spike (or one of MinSegment−1 commits) is never a step.
	MinSegment int
	// Alpha is the significance level of the permutation test.
	Alpha float64
	// Permutations is the number of shuffles of the permutation test; the
	// smallest p-value it can give is 1/(Permutations+1), so it must be at
	// least 1/Alpha − 1 for any step to be found.
	Permutations int
	// MinChange is the smallest step reported, relative to the level
	// before it: |after − before| ≥ MinChange·|before|.
	MinChange float64
	// NoiseMultiple is the smallest step reported in units of the
	// window's noise (a robust standard deviation, see noise):
	// |after − before| ≥ NoiseMultiple·σ̂.
	NoiseMultiple float64
	// WidthMultiple is the smallest step reported in run-to-run widths
	// of the window (see width: the robust spread of a value about its
	// neighbours, in log space), for a step with MinSegment values after
	// it and the rest of a full window before: |ln(after/before)| ≥
	// WidthMultiple·w. It weighs the evidence: with nb values before and
	// na after, the rule is WidthMultiple·w·√((1/nb + 1/na)/(1/MinSegment
	// + 1/(Window−MinSegment))), so a step that 25 values on each side
	// support is found at 0.42 of that (see evidence). 0 for no such rule;
	// it applies to positive values only.
	WidthMultiple float64
	// Test is the significance test of a candidate step.
	Test Test
	// Hold is the fewest values a level must hold between two steps in
	// opposite directions for both to stay: a shorter one is an
	// excursion (see report). 0 means 3·MinSegment.
	Hold int
}

// Test names a significance test of a candidate step.
type Test string

// The tests.
const (
	// Permutation is E-divisive's: the window shuffled Permutations
	// times, p the share of shuffles whose largest Q̂ reaches the
	// candidate's. Its smallest p-value is 1/(Permutations+1), which every
	// clear step gets, and its decisions near Alpha depend on the seed.
	Permutation Test = ""
	// Rank is the Mann–Whitney U test of the candidate's two sides,
	// Bonferroni-corrected for the splits of the window (see rankTest):
	// deterministic, and its p-value says how clear the step is.
	Rank Test = "rank"
)

// DefaultOptions are the options the site uses; see the package
// documentation for how each value was chosen.
var DefaultOptions = Options{
	Method:        EDivisive,
	Test:          Rank,
	Window:        50,
	MinSegment:    3,
	Alpha:         0.0001,
	Permutations:  999,
	MinChange:     0.002,
	NoiseMultiple: 1,
	WidthMultiple: 4,
}

// normalized returns o with values out of range replaced: an empty Method
// is EDivisive, MinSegment is at least 2 (the within-side sums of Ê need
// two values), Window at least 2·MinSegment, Permutations at least 1,
// and NaN or negative thresholds are 0.
func (o Options) normalized() Options {
	if o.Method == "" {
		o.Method = EDivisive
	}
	o.MinSegment = max(o.MinSegment, 2)
	o.Window = max(o.Window, 2*o.MinSegment)
	o.Permutations = max(o.Permutations, 1)
	o.Permutations = min(o.Permutations, 1_000_000)
	if !(o.Alpha > 0) {
		o.Alpha = 0
	}
	if !(o.MinChange > 0) {
		o.MinChange = 0
	}
	if !(o.NoiseMultiple > 0) {
		o.NoiseMultiple = 0
	}
	if !(o.WidthMultiple > 0) {
		o.WidthMultiple = 0
	}
	if o.Hold <= 0 {
		o.Hold = 3 * o.MinSegment
	}
	return o
}

// Series is one series along the main line, oldest value first.
type Series struct {
	// Values holds one value per main-line position; NaN or ±Inf marks a
	// position without one (a failed benchmark, a commit not measured),
	// which is skipped.
	Values []float64
	// Breaks are positions where a known distribution change begins (an
	// annotated one): no step is reported across a break, and the values
	// before it are not compared with the values after it.
	Breaks []int
	// Seed seeds the permutation test; the site derives it from the series
	// key (criterion.Seed), so a rebuild gives the same p-values.
	Seed uint64
}

// Step is a change of a series' level.
type Step struct {
	// Index is the position of the first value after the step, Prev the
	// position of the last value before it (Index−1 unless the positions
	// between hold no value). The change came from one of the commits in
	// (Prev, Index].
	Index, Prev int
	// Before and After are the medians of the values either side of the
	// step, up to Window values each, stopping at the neighbouring steps
	// and breaks. They are measured again on every call, so After settles
	// as values arrive after the step.
	Before, After float64
	// Change is (After − Before)/|Before|: positive when the values went
	// up. It is ±Inf for a step from 0.
	Change float64
	// P is the permutation test's p-value when the step was confirmed
	// (NaN for Method Potts, which has no test).
	P float64
	// Decided is the number of positions that had been seen when the step
	// was confirmed (0 for Method Potts).
	Decided int
	// Gradual marks a drift: steps in one direction in a row, each level
	// between them held for fewer than Hold values, reported as one change
	// from the first (after Prev) to the last (at Index). Before is the
	// level before the first, After the level after the last.
	Gradual bool
}

// State is what Detect knows of a series after a call: enough to go on
// from when values are appended. It holds only plain fields, so it can be
// saved between builds (encoding/gob).
type State struct {
	// Key identifies the options, the seed and this algorithm's version: a
	// state made with others is not used.
	Key [32]byte
	// N is the number of positions seen, Sum a hash of their values and
	// breaks.
	N   int
	Sum [32]byte
	// Start is the first position of the open segment (after the last step
	// or break).
	Start int
	// Decisions are the steps confirmed so far, oldest first.
	Decisions []Decision
}

// Decision is a confirmed step: where it is, its p-value, and when it was
// confirmed (with a hash of the positions seen then, so that a state can
// be resumed from it when a later value changes).
type Decision struct {
	Index int
	P     float64
	At    int
	Sum   [32]byte
}

// version changes whenever a change to the algorithm could change a
// result, so that saved states of an older version are not resumed.
const version = "changepoint/e-divisive/v2"

// Detect returns the steps of s, oldest first, and the state to pass to the
// next call for the same series.
//
// prev, when not nil, is the state an earlier call returned for the same
// series. Detect then resumes from the last point where prev and s agree:
// after prev's last position when s only appends values to the ones prev
// saw (the nightly case: one new artifact costs one window test), or after
// the last step prev confirmed before the first value that differs. The
// result is exactly the result without prev (see the package
// documentation for why); a prev of other options or another seed is
// ignored. Method Potts always works on the whole series and returns a nil
// state.
func Detect(s Series, o Options, prev *State) ([]Step, *State) {
	o = o.normalized()
	if o.Method == Potts {
		return detectPotts(s, o), nil
	}
	d := newDetector(s, o)
	defer d.release()
	d.resume(prev)
	d.scan()
	return d.steps(), d.state()
}

// buffers are a detector's arrays of the series' length, reused from one
// call to the next (a build detects the steps of thousands of series, a
// nightly one resuming each near its end: allocating them anew for each
// was most of the memory step detection touched).
type buffers struct {
	x   []float64
	idx []int
	brk []bool
}

var pool = sync.Pool{New: func() any { return new(buffers) }}

// release gives the detector's arrays back for the next call; nothing
// Detect returns refers to them.
func (d *detector) release() {
	d.bufs.x, d.bufs.idx, d.bufs.brk = d.x[:0], d.idx[:0], d.brk[:0]
	pool.Put(d.bufs)
	d.bufs, d.x, d.idx, d.brk = nil, nil, nil, nil
}

// detector is one call of Detect with Method EDivisive.
type detector struct {
	o      Options
	s      Series
	key    [32]byte
	bufs   *buffers  // where x, idx and brk come from
	x      []float64 // the values, without the missing ones
	idx    []int     // position of each value of x
	brk    []bool    // a break begins at x[j]
	h      hash.Hash // positions [0, hpos) hashed
	hpos   int
	isBrk  func(i int) bool
	breaks []int // sorted, unique, non-negative

	// scan state
	from      int // first value of x not scanned yet
	start     int // first value of the open segment (index into x)
	decisions []Decision

	prof  profile
	rest  sortedWindow // the gate's rest of its window (window.go)
	diffs sortedWindow // the differences of logs of the gate's window (window.go)
	tmp   []float64
	ranks []rankPair
}

func newDetector(s Series, o Options) *detector {
	d := &detector{o: o, s: s, key: stateKey(o, s.Seed)}
	d.breaks = slices.Clone(s.Breaks)
	slices.Sort(d.breaks)
	d.breaks = slices.Compact(d.breaks)
	for len(d.breaks) > 0 && d.breaks[0] < 0 {
		d.breaks = d.breaks[1:]
	}
	d.isBrk = func(i int) bool { _, ok := slices.BinarySearch(d.breaks, i); return ok }
	d.bufs = pool.Get().(*buffers)
	d.x = slices.Grow(d.bufs.x[:0], len(s.Values))
	d.idx = slices.Grow(d.bufs.idx[:0], len(s.Values))
	d.brk = slices.Grow(d.bufs.brk[:0], len(s.Values))
	b := 0 // next break
	pending := false
	for i, v := range s.Values {
		for b < len(d.breaks) && d.breaks[b] <= i {
			pending = true
			b++
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		d.x = append(d.x, v)
		d.idx = append(d.idx, i)
		d.brk = append(d.brk, pending)
		pending = false
	}
	d.h = sha256.New()
	return d
}

// stateKey hashes what a state depends on besides the values.
func stateKey(o Options, seed uint64) [32]byte {
	h := sha256.New()
	h.Write([]byte(version))
	var buf [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	put(seed)
	put(uint64(o.Window))
	put(uint64(o.MinSegment))
	put(math.Float64bits(o.Alpha))
	put(uint64(o.Permutations))
	put(math.Float64bits(o.MinChange))
	put(math.Float64bits(o.NoiseMultiple))
	put(math.Float64bits(o.WidthMultiple))
	put(uint64(len(o.Test)))
	h.Write([]byte(o.Test))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// hashTo adds positions [d.hpos, n) to the running hash: each value's bits
// (NaNs made equal) and whether a break begins there.
func (d *detector) hashTo(n int) {
	var buf [9]byte
	for ; d.hpos < n; d.hpos++ {
		v := d.s.Values[d.hpos]
		bits := math.Float64bits(v)
		if math.IsNaN(v) {
			bits = 0x7ff8000000000001
		}
		binary.LittleEndian.PutUint64(buf[:8], bits)
		buf[8] = 0
		if d.isBrk(d.hpos) {
			buf[8] = 1
		}
		d.h.Write(buf[:])
	}
}

func (d *detector) sum() [32]byte {
	var s [32]byte
	d.h.Sum(s[:0])
	return s
}

// resume takes over the part of prev that s does not contradict.
//
// The hash runs over the values in order, each decision's record where
// the cold run made it, and the open segment's start at the end; each
// decision keeps the hash as it was right after it, the state the hash of
// everything. The checkpoints are thus prefixes of one stream: the ones
// that match come first, and the scan resumes after the last of them, with
// the hash as it was there. A checkpoint matches only if every value,
// break and decision before it is the same, so a decision taken from the
// state is the decision a cold run takes.
func (d *detector) resume(prev *State) {
	if prev == nil || prev.Key != d.key || !prev.wellFormed() {
		return
	}
	restart := func() {
		d.h.Reset()
		d.hpos = 0
		d.decisions = nil
	}
	keep := 0       // decisions that match
	var snap []byte // the hash after the last of them
	for _, dec := range prev.Decisions {
		if dec.At > len(d.s.Values) {
			break
		}
		d.hashTo(dec.At)
		d.record(dec)
		if d.sum() != dec.Sum {
			break
		}
		keep++
		snap = marshal(d.h)
	}
	if keep == len(prev.Decisions) && prev.N <= len(d.s.Values) {
		d.hashTo(prev.N)
		atN := marshal(d.h)
		d.recordStart(prev.Start)
		if d.sum() == prev.Sum && d.restore(atN, prev.N) {
			// After everything prev saw: go on with the next value, in
			// the segment prev left open.
			d.decisions = slices.Clone(prev.Decisions)
			d.start, _ = slices.BinarySearch(d.idx, prev.Start)
			d.from, _ = slices.BinarySearch(d.idx, prev.N)
			return
		}
	}
	if keep == 0 {
		restart()
		return
	}
	// At the last decision that matches: test the same window again with
	// the new segment, as the cold run did right after confirming it.
	dec := prev.Decisions[keep-1]
	if !d.restore(snap, dec.At) {
		restart()
		return
	}
	d.decisions = slices.Clone(prev.Decisions[:keep])
	d.start, _ = slices.BinarySearch(d.idx, dec.Index)
	d.from, _ = slices.BinarySearch(d.idx, dec.At-1)
}

// wellFormed reports whether the state's positions are in order: steps
// strictly increasing, each confirmed after it, none after N, the open
// segment after the last step. A state made by Detect always is; one read
// from a damaged cache file may not be, and is not used.
func (st *State) wellFormed() bool {
	if st.N < 0 || st.Start < 0 || st.Start > st.N {
		return false
	}
	last, at := -1, 0
	for _, dec := range st.Decisions {
		if dec.Index <= last || dec.At <= dec.Index || dec.At < at || dec.At > st.N {
			return false
		}
		last, at = dec.Index, dec.At
	}
	return st.Start >= last
}

func marshal(h hash.Hash) []byte {
	b, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	return b
}

// restore sets the hash back to a state saved at position pos.
func (d *detector) restore(snap []byte, pos int) bool {
	h := sha256.New()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(snap); err != nil {
		return false // not with the standard library's sha256
	}
	d.h, d.hpos = h, pos
	return true
}

// record adds a decision to the hash.
func (d *detector) record(dec Decision) {
	var buf [25]byte
	buf[0] = 'D'
	binary.LittleEndian.PutUint64(buf[1:], uint64(dec.Index))
	binary.LittleEndian.PutUint64(buf[9:], math.Float64bits(dec.P))
	binary.LittleEndian.PutUint64(buf[17:], uint64(dec.At))
	d.h.Write(buf[:])
}

// recordStart adds the open segment's start to the hash.
func (d *detector) recordStart(start int) {
	var buf [9]byte
	buf[0] = 'S'
	binary.LittleEndian.PutUint64(buf[1:], uint64(start))
	d.h.Write(buf[:])
}

// scan runs the sequential test over the values from d.from on.
//
// When value j arrives, the window is the open segment's newest values up
// to j: x[lo : j+1] with lo = max(start, j+1−Window). Its candidate split
// is the τ with the largest Q̂ (at least MinSegment values each side); the
// candidate is confirmed when the step between the two sides' medians is
// large enough (MinChange, NoiseMultiple) and the permutation test finds
// it significant at Alpha. A confirmed step starts a new segment, and the
// shorter window that leaves is tested again at once. A break starts a new
// segment without a step.
func (d *detector) scan() {
	m, W := d.o.MinSegment, d.o.Window
	for j := d.from; j < len(d.x); j++ {
		d.hashTo(d.idx[j] + 1)
		if d.brk[j] {
			d.start = j
		}
		e := j + 1
		for {
			lo := max(d.start, e-W)
			if e-lo < 2*m {
				break
			}
			w := d.x[lo:e]
			// Look for a step only when the newest MinSegment values
			// stand apart, by the smallest step reported, from the rest
			// of the window or from its first MinSegment values: that is
			// how a step shows itself once it has MinSegment values
			// after it, or while the window still starts where the
			// segment does (a step soon after another), and it spares
			// the Q̂ profile for nearly every value of a steady series.
			if !d.mayStep(w) || !d.gate(lo, e) {
				break
			}
			tau, q, later := d.prof.best(w, m)
			// No candidate (tau < 0) when Q̂ is NaN everywhere: values so
			// far apart that their distances overflow.
			if tau < 0 || later || !d.largeEnough(w, tau) {
				break
			}
			var p float64
			if d.o.Test == Rank {
				p = rankTest(w, tau, len(w)-2*m+1, &d.ranks)
				if p > d.o.Alpha {
					break
				}
			} else {
				var ok bool
				if p, ok = d.prof.permTest(w, m, q, &d.o, d.s.Seed, d.idx[lo], d.idx[j]); !ok {
					break
				}
			}
			c := lo + tau
			dec := Decision{Index: d.idx[c], P: p, At: d.idx[j] + 1}
			d.record(dec)
			dec.Sum = d.sum()
			d.decisions = append(d.decisions, dec)
			d.start = c
		}
	}
	d.from = len(d.x)
}

// mayStep is a quick bound: no split of w can pass the MinChange test
// when the whole window spans less than MinChange of its smallest
// magnitude, since two medians differ by at most the span. On a steady,
// precise series (instruction counts) this skips almost every window.
func (d *detector) mayStep(w []float64) bool {
	lo, hi := w[0], w[0]
	small := math.Abs(w[0])
	for _, v := range w[1:] {
		lo, hi = min(lo, v), max(hi, v)
		small = min(small, math.Abs(v))
	}
	if lo <= 0 && hi >= 0 {
		small = 0 // a median may be 0 itself
	}
	span := hi - lo
	return span > 0 && span >= d.o.MinChange*small
}

// largeEnough reports whether the step between w[:t] and w[t:] is at least
// MinChange of the level before it and NoiseMultiple times the noise.
func (d *detector) largeEnough(w []float64, t int) bool {
	before, after := d.median(w[:t]), d.median(w[t:])
	return d.exceeds(w, t, before, after, func() (float64, bool) { return noise(w, t, before, after, &d.tmp) },
		func() float64 { return Width(w, &d.tmp) })
}

// gate reports whether the newest MinSegment values of w stand apart, by
// the smallest step reported, from the rest of the window or from its
// first MinSegment values (see scan).
func (d *detector) gate(lo, e int) bool {
	w := d.x[lo:e]
	m := d.o.MinSegment
	t := len(w) - m
	rest, newest, first := d.restMedian(lo, e-m), d.median(w[t:]), d.median(w[:m])
	sigma, logs, known := 0.0, false, false
	noiseOnce := func() (float64, bool) {
		if !known {
			sigma, logs = noise(w, t, rest, newest, &d.tmp)
			known = true
		}
		return sigma, logs
	}
	// Both pairs share the window's width too: the rule measures a step
	// in the widths of w, whichever level it is taken from.
	width, widthKnown := 0.0, false
	widthOnce := func() float64 {
		if !widthKnown {
			width, widthKnown = d.windowWidth(lo, e), true
		}
		return width
	}
	return d.exceeds(w, t, rest, newest, noiseOnce, widthOnce) || d.exceeds(w, t, first, newest, noiseOnce, widthOnce)
}

// exceeds reports whether the change from level before to level after
// in window w is at least the smallest step reported: MinChange of the
// level before, NoiseMultiple times the noise (noise) and WidthMultiple
// run-to-run widths of w (width), weighed by the values either side of t
// (evidence). The width rule is not applied when a level is not positive
// or the width is NaN (values that are not all positive). noise and width
// are computed only when a rule needs them, the width first: of the
// windows the gate sees, it turns away most of those the MinChange rule
// lets through, at the cost of one pass over w (the rules are all
// required, so their order changes no decision).
func (d *detector) exceeds(w []float64, t int, before, after float64, noise func() (float64, bool), width func() float64) bool {
	delta := math.Abs(after - before)
	if delta == 0 || delta < d.o.MinChange*math.Abs(before) {
		return false
	}
	if d.o.WidthMultiple != 0 && before > 0 && after > 0 {
		if wd := width(); !math.IsNaN(wd) && !(math.Abs(math.Log(after/before)) >= d.o.WidthMultiple*wd*evidence(d.o, t, len(w)-t)) {
			return false
		}
	}
	if d.o.NoiseMultiple > 0 {
		// In logs only when every value of w is positive, and then so is
		// every median of its values (gate reuses one noise for two pairs).
		sigma, logs := noise()
		if change(before, after, logs) < d.o.NoiseMultiple*sigma {
			return false
		}
	}
	return true
}

// evidence scales the width rule by the values either side of a step:
// the standard error of the difference of the two sides' levels, relative
// to that of a step confirmed on MinSegment values after it with a full
// window before.
func evidence(o Options, nb, na int) float64 {
	if nb <= 0 || na <= 0 {
		return 1
	}
	ref := 1/float64(o.MinSegment) + 1/float64(o.Window-o.MinSegment)
	return math.Sqrt((1/float64(nb) + 1/float64(na)) / ref)
}

func (d *detector) median(xs []float64) float64 {
	d.tmp = append(d.tmp[:0], xs...)
	return quantile.SelectHalvesMedian(d.tmp)
}

// steps describes the decisions against the values as they are now.
func (d *detector) steps() []Step {
	bs := make([]boundary, len(d.decisions))
	for k, dec := range d.decisions {
		pos, _ := slices.BinarySearch(d.idx, dec.Index)
		bs[k] = boundary{pos: pos, p: dec.P, decided: dec.At}
	}
	return report(d.x, d.idx, d.brk, bs, d.o)
}

func (d *detector) state() *State {
	d.hashTo(len(d.s.Values))
	start := 0
	if d.start < len(d.idx) {
		start = d.idx[d.start]
	} else if len(d.idx) > 0 {
		start = d.idx[len(d.idx)-1] + 1
	}
	d.recordStart(start)
	return &State{Key: d.key, N: len(d.s.Values), Sum: d.sum(), Start: start, Decisions: d.decisions}
}
