package zscore

import (
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// DefaultCommits is how many commits a distribution spans: the ancestry
// limit and the width of every rolling window (Conbench's
// DISTRIBUTION_COMMITS).
const DefaultCommits = 100

// shiftZ is the |z| above which the outlier detector sees a jump (the
// z_score_threshold of Conbench's _detect_shifts_with_trimmed_estimators; a
// constant there, independent of the scoring threshold).
const shiftZ = 5.0

// Trimming quantiles of the outlier detector: differences outside them do
// not feed the detector's rolling estimators.
const (
	trimLow  = 0.05
	trimHigh = 0.95
)

// Observation is one result in a distribution.
//
// A commit is identified by its (Commit, Time) pair: every row of a commit
// must carry the commit's time. Two commits with the same timestamp are
// two commits for the windows (Conbench ranks by timestamp alone and would
// merge them; git histories do have such ties).
type Observation struct {
	Commit string    // commit id (distinct commits define the rolling windows)
	Time   time.Time // the commit's timestamp, the order of every window
	Value  float64   // the single value summary (SVS) of the result
	// BeginsChange is a curator's annotation: a distribution change begins
	// at this commit. Every row on that commit starts the new segment.
	BeginsChange bool
}

// Dist is the lookback distribution a contender is scored against: the
// inclusive rolling statistics as of the latest commit.
type Dist struct {
	Mean float64 // mean of the current segment over the last window of commits
	Std  float64 // std (n−1) of the one-step residuals over the last window of commits
	N    int     // rows whose residuals make Std (the rows used)
	// Commits is the number of distinct commits those rows are on.
	Commits int
	// Outliers is the number of rows dropped as spike outliers.
	Outliers int
	// Invalid is the number of rows dropped because their Value is NaN or
	// ±Inf (Conbench leaves such "failed" results out of the history).
	Invalid int
	OK      bool
	// Reason says why there is no usable distribution when OK is false.
	Reason string
}

// Reasons for the absence of a distribution.
const (
	reasonNoHistory   = "no history"
	reasonOneCommit   = "fewer than 2 results on distinct commits"
	reasonFewInWindow = "fewer than 2 results in the window"
	reasonStdZero     = "standard deviation is 0"
	reasonNotFinite   = "distribution statistics are not finite"
)

// Scratch holds the buffers of a distribution computation so that repeated
// calls allocate nothing. The zero value is ready to use. A Scratch must not
// be used by two goroutines at once.
type Scratch struct {
	idx     []int     // valid input rows in (Time, Commit, input) order
	val     []float64 // their values
	blk     []int     // commit block of each sorted row
	flag    []bool    // per block: a row on it begins a distribution change
	diff    []float64
	clip    []float64
	qbuf    []float64
	shift   []bool
	outlier []bool
	step    []bool

	// Non-outlier rows, in sorted order.
	kv    []float64
	kblk  []int
	kseg  []int
	excl  []float64 // exclusive rolling mean (self-filled)
	incl  []float64 // inclusive rolling mean
	resid []float64
	std   []float64 // NaN when undefined
	bs    []int     // block starts, reused per segment

	// Summary of the last row's std window.
	lastN, lastCommits, commits, invalid, outliers int
}

var scratchPool = sync.Pool{New: func() any { return new(Scratch) }}

// Distribution computes the lookback distribution of obs with rolling
// windows of window commits (DefaultCommits when window < 1), the way
// Conbench scores a contender: inclusive windows, statistics of the row on
// the latest commit.
//
// Rows are ordered by (Time, Commit), ties kept in input order; obs need not
// be sorted (sorted input skips the sort). Rows with a NaN or infinite Value
// are left out.
func Distribution(obs []Observation, window int) Dist {
	s := scratchPool.Get().(*Scratch)
	d := s.Distribution(obs, window)
	scratchPool.Put(s)
	return d
}

// Distribution is [Distribution] reusing the buffers of s.
func (s *Scratch) Distribution(obs []Observation, window int) Dist {
	n := s.run(obs, window, true)
	d := Dist{Invalid: s.invalid, Outliers: s.outliers}
	if n == 0 {
		d.Reason = reasonNoHistory
		return d
	}
	// The last row is never an outlier (an outlier is a jump followed by a
	// jump back), so the latest commit always has a row with statistics and
	// every non-outlier row on it has the same ones. Conbench takes an
	// arbitrary row on the latest commit; taking the last one is the
	// deterministic choice that always yields the statistics.
	k := len(s.kv) - 1
	d.N, d.Commits = s.lastN, s.lastCommits
	d.setStats(s.commits, s.incl[k], s.std[k])
	return d
}

// setStats sets the mean and standard deviation of d, whose N is set, and
// decides whether it is usable; commits is the number of commits with a
// row that is not an outlier.
func (d *Dist) setStats(commits int, mean, std float64) {
	if isFinite(mean) {
		d.Mean = mean
	}
	if isFinite(std) {
		d.Std = std
	}
	switch {
	case commits < 2:
		d.Reason = reasonOneCommit
	case d.N < 2:
		d.Reason = reasonFewInWindow
	case !isFinite(mean) || !isFinite(std):
		d.Reason = reasonNotFinite
	case std == 0:
		d.Reason = reasonStdZero
	default:
		d.OK = true
	}
}

// run fills the scratch buffers for obs and returns the number of valid
// rows.
func (s *Scratch) run(obs []Observation, window int, inclusive bool) int {
	if window < 1 {
		window = DefaultCommits
	}
	s.order(obs)
	n := len(s.idx)
	s.val = grow(s.val, n)
	s.blk = grow(s.blk, n)
	s.flag = s.flag[:0]
	for i, row := range s.idx {
		o := &obs[row]
		s.val[i] = o.Value
		if i == 0 || !sameCommit(o, &obs[s.idx[i-1]]) {
			s.flag = append(s.flag, false)
		}
		b := len(s.flag) - 1
		s.blk[i] = b
		if o.BeginsChange {
			s.flag[b] = true
		}
	}
	s.detect(window)
	s.keep()
	s.means(window)
	s.stds(window, inclusive)
	return n
}

// order collects the rows with a finite value, sorted.
func (s *Scratch) order(obs []Observation) {
	s.idx = s.idx[:0]
	s.invalid = 0
	sorted := true
	for i := range obs {
		if !isFinite(obs[i].Value) {
			s.invalid++
			continue
		}
		if n := len(s.idx); n > 0 && compareObs(&obs[i], &obs[s.idx[n-1]]) < 0 {
			sorted = false
		}
		s.idx = append(s.idx, i)
	}
	if !sorted {
		// The input index as last key makes the unstable sort stable.
		slices.SortFunc(s.idx, func(a, b int) int {
			if c := compareObs(&obs[a], &obs[b]); c != 0 {
				return c
			}
			return a - b
		})
	}
}

func compareObs(a, b *Observation) int {
	if c := a.Time.Compare(b.Time); c != 0 {
		return c
	}
	return strings.Compare(a.Commit, b.Commit)
}

func sameCommit(a, b *Observation) bool {
	return a.Commit == b.Commit && a.Time.Equal(b.Time)
}

// detect is Conbench's _detect_shifts_with_trimmed_estimators: row-based,
// in sorted order. A difference between consecutive rows is a shift when it
// lies more than shiftZ standard deviations from the mean of the last window
// differences, both estimated without the differences outside the 5th–95th
// percentile of the whole series. A shift followed by a shift is a spike
// (the first row of the pair is an outlier); a shift neither reverting nor
// reverted is a step.
func (s *Scratch) detect(window int) {
	n := len(s.val)
	s.diff = grow(s.diff, n)
	s.clip = grow(s.clip, n)
	s.shift = grow(s.shift, n)
	s.outlier = grow(s.outlier, n)
	s.step = grow(s.step, n)
	s.qbuf = s.qbuf[:0]
	for i := range n {
		d := math.NaN()
		if i > 0 {
			d = s.val[i] - s.val[i-1]
		}
		s.diff[i] = d
		if !math.IsNaN(d) {
			s.qbuf = append(s.qbuf, d)
		}
	}
	slices.Sort(s.qbuf)
	lo, hi := quantile.Conbench(s.qbuf, trimLow), quantile.Conbench(s.qbuf, trimHigh)
	for i, d := range s.diff {
		if d < lo || d > hi {
			d = math.NaN()
		}
		s.clip[i] = d
	}
	var r roller
	for i, d := range s.diff {
		r.window(s.clip, max(0, i-window+1), i+1)
		s.shift[i] = r.shifts(d)
	}
	s.outliers = 0
	for i := range n {
		reverts := s.shift[i] && i+1 < n && s.shift[i+1]
		reverted := i > 0 && s.outlier[i-1]
		s.outlier[i] = reverts
		s.step[i] = s.shift[i] && !reverts && !reverted
		if reverts {
			s.outliers++
		}
	}
}

// keep gathers the non-outlier rows with their segment numbers. A segment
// starts at every commit with an annotated row, outliers included (the
// annotation belongs to the commit), so all rows on that commit are in the
// new segment.
func (s *Scratch) keep() {
	s.kv, s.kblk, s.kseg = s.kv[:0], s.kblk[:0], s.kseg[:0]
	seg, last := 0, -1
	for i, v := range s.val {
		b := s.blk[i]
		if b != last {
			if s.flag[b] && last >= 0 {
				seg++
			}
			last = b
		}
		if s.outlier[i] {
			continue
		}
		s.kv = append(s.kv, v)
		s.kblk = append(s.kblk, b)
		s.kseg = append(s.kseg, seg)
	}
}

// blockStarts fills s.bs with the start of every commit block of
// s.kblk[from:to], plus the sentinel to.
func (s *Scratch) blockStarts(from, to int) []int {
	s.bs = s.bs[:0]
	for i := from; i < to; i++ {
		if i == from || s.kblk[i] != s.kblk[i-1] {
			s.bs = append(s.bs, i)
		}
	}
	return append(s.bs, to)
}

// means computes the exclusive (self-filled) and inclusive rolling means
// within each segment, windows counted in the segment's commits, and the
// residuals from the exclusive mean.
func (s *Scratch) means(window int) {
	k := len(s.kv)
	s.excl = grow(s.excl, k)
	s.incl = grow(s.incl, k)
	s.resid = grow(s.resid, k)
	for from := 0; from < k; {
		to := from + 1
		for to < k && s.kseg[to] == s.kseg[from] {
			to++
		}
		bs := s.blockStarts(from, to)
		ex, in := roller{meanOnly: true}, roller{meanOnly: true}
		for j := 0; j+1 < len(bs); j++ {
			ex.window(s.kv, bs[max(0, j-window)], bs[j])
			in.window(s.kv, bs[max(0, j-window+1)], bs[j+1])
			em, im := ex.avg(), in.avg()
			for i := bs[j]; i < bs[j+1]; i++ {
				if ex.count() == 0 {
					s.excl[i] = s.kv[i]
				} else {
					s.excl[i] = em
				}
				s.incl[i] = im
				s.resid[i] = s.kv[i] - s.excl[i]
			}
		}
		from = to
	}
}

// stds computes the rolling standard deviation of the residuals across
// segments, windows counted in commits.
func (s *Scratch) stds(window int, inclusive bool) {
	k := len(s.kv)
	s.std = grow(s.std, k)
	bs := s.blockStarts(0, k)
	blocks := len(bs) - 1
	s.commits = blocks
	s.lastN, s.lastCommits = 0, 0
	var r roller
	for j := range blocks {
		if inclusive {
			r.window(s.resid, bs[max(0, j-window+1)], bs[j+1])
		} else {
			r.window(s.resid, bs[max(0, j-window)], bs[j])
		}
		sd := r.std()
		for i := bs[j]; i < bs[j+1]; i++ {
			s.std[i] = sd
		}
		if inclusive && j == blocks-1 {
			s.lastN = r.count()
			s.lastCommits = j + 1 - max(0, j-window+1)
		}
	}
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// grow returns buf resized to n, reallocating only when it is too small.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
