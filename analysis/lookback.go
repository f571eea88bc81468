package analysis

import (
	"cmp"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// This file maps the dataset onto Conbench's lookback z-score (package
// zscore): which results form the distribution a head value is
// scored against.
//
// Conbench takes the commits of the baseline's ancestry, baseline
// included: default-branch commits up to the baseline's fork point, plus,
// when the baseline is on a branch, that branch's own commits up to the
// baseline; at most DISTRIBUTION_COMMITS (Options.Lookback, 100) commits,
// counted whether or not they have a result. Here the default branch is
// the dataset's main line, a branch is a PR (or, without a PR number, a
// branch name) and its fork point is the main-line artifact its try runs
// were measured against (Artifact.Baseline) or its first parent. The
// baseline of a comparison is its base: a commit page scores the commit
// against its parent's ancestry, a PR page the PR's head against the
// ancestry of the main-line commit it branched from, as Conbench's
// "sensible baseline" does. Errored results are left out; the single
// value is the dataset's (best by default, as Conbench's SVS).

// lookback holds a comparer's per-series data for the z-score.
type lookback struct {
	// changes lists, per series, the main-line positions where an
	// annotated distribution change begins (nil for most series).
	changes [][]int32
}

func newLookback(d *model.Dataset) lookback {
	lb := lookback{changes: make([][]int32, len(d.Series))}
	if d.Annotations.Len() == 0 {
		return lb
	}
	for _, a := range d.Annotations.Artifacts() {
		pos := d.MainPos(a)
		for i, s := range d.Series {
			if d.Annotations.BeginsChange(s, a) {
				lb.changes[i] = append(lb.changes[i], int32(pos))
			}
		}
	}
	return lb
}

// begins reports whether series i has an annotated distribution change at
// main-line position pos.
func (lb *lookback) begins(i int, pos int32) bool {
	return slices.Contains(lb.changes[i], pos)
}

// lineObservations appends to dst the observations of series i from its
// main-line index: the values at main-line positions (bpos−window, bpos].
func (lb *lookback) lineObservations(dst []zscore.Observation, d *model.Dataset, i int, line *line, bpos, window int) []zscore.Observation {
	lo := int32(bpos - window)
	end := line.search(int32(bpos)+1, 0)
	start := end
	for start > 0 && line.pos(start-1) > lo {
		start--
	}
	for k := start; k < end; k++ {
		if lp := line.at(k); lp.ok() {
			dst = append(dst, lb.observation(d, i, lp))
		}
	}
	return dst
}

// observation is the main-line point lp of series i as the z-score sees it.
func (lb *lookback) observation(d *model.Dataset, i int, lp linePoint) zscore.Observation {
	a := &d.Artifacts[d.MainLine[lp.pos]]
	return zscore.Observation{Commit: a.ID, Time: a.Date, Value: lp.value(d.Series[i].Points), BeginsChange: lb.beginsAt(i, lp.pos)}
}

// beginsAt reports whether series i has an annotated distribution change
// at main-line position pos, quickly for the many series without one.
func (lb *lookback) beginsAt(i int, pos int32) bool {
	return lb.changes[i] != nil && lb.begins(i, pos)
}

// lineRanks ranks the main-line positions of d in the order
// zscore.Distribution gives their observations: by (Date, ID), the
// commit's time and id.
func lineRanks(d *model.Dataset) []int {
	pos := make([]int, len(d.MainLine))
	for p := range pos {
		pos[p] = p
	}
	slices.SortFunc(pos, func(p, q int) int {
		a, b := &d.Artifacts[d.MainLine[p]], &d.Artifacts[d.MainLine[q]]
		return cmp.Or(a.Date.Compare(b.Date), strings.Compare(a.ID, b.ID))
	})
	rank := make([]int, len(pos))
	for r, p := range pos {
		rank[p] = r
	}
	return rank
}

// ancestryObservations appends the observations of series s (index i) for
// any base artifact: its branch's own artifacts up to it, newest first, then
// the main line up to its fork point, at most window artifacts in all.
func (lb *lookback) ancestryObservations(dst []zscore.Observation, d *model.Dataset, i int, s *model.Series, base, window int) []zscore.Observation {
	fork := forkPos(d, base)
	var branch []int
	if d.MainPos(base) < 0 {
		b := d.Artifacts[base]
		for k, a := range d.Artifacts {
			if d.MainPos(k) >= 0 || a.Date.After(b.Date) || !sameBranch(a, b) || forkPos(d, k) != fork {
				continue
			}
			branch = append(branch, k)
		}
		// Newest first, as Conbench's ancestry query orders them.
		slices.Reverse(branch)
	}
	n := 0
	add := func(k int, pos int32) {
		n++
		p := s.At(k)
		if p == nil || !p.OK() {
			return
		}
		a := &d.Artifacts[k]
		dst = append(dst, zscore.Observation{Commit: a.ID, Time: a.Date, Value: p.Value, BeginsChange: pos >= 0 && lb.beginsAt(i, pos) || pos < 0 && d.Annotations.BeginsChange(s, k)})
	}
	for _, k := range branch {
		if n == window {
			return dst
		}
		add(k, -1)
	}
	for pos := fork; pos >= 0 && n < window; pos-- {
		add(d.MainLine[pos], int32(pos))
	}
	return dst
}

// forkPos is the main-line position where artifact a's branch leaves the
// main line: a's own position when it is on the main line, else that of
// its baseline or of the first ancestor on the main line, following first
// parents through the dataset's artifacts; -1 when there is none.
func forkPos(d *model.Dataset, a int) int {
	for range len(d.Artifacts) {
		if p := d.MainPos(a); p >= 0 {
			return p
		}
		if p := historyStart(d, a); p >= 0 {
			return p
		}
		parent, ok := d.Index(artifactFirstParent(d.Artifacts[a]))
		if !ok {
			return -1
		}
		a = parent
	}
	return -1
}

// sameBranch reports whether a and b are commits of one branch: the same
// PR, or the same branch name when neither has a PR number.
func sameBranch(a, b model.Artifact) bool {
	if a.PR != 0 || b.PR != 0 {
		return a.PR == b.PR
	}
	return a.Branch != "" && a.Branch == b.Branch
}

// lineWindow slides the z-score's distribution along series i's main
// line: for a base at main-line position b it holds the series' values at
// positions (b − lookback, b], the observations lineObservations gives,
// keyed by their rank in Distribution's order; they are line[lo:hi].
type lineWindow struct {
	win    zscore.Window
	lo, hi int
}

// reset prepares the window for bases from position from on.
func (lw *lineWindow) reset(line *line, from, lookback int) {
	lw.win.Reset()
	lw.lo = line.search(int32(from-lookback+1), 0)
	lw.hi = lw.lo
}

// moveTo moves the window to the base at position b, not before the last
// one: the entries up to b join it, those at or before b − lookback leave.
func (lw *lineWindow) moveTo(c *Comparer, i int, line *line, b, lookback int) {
	for ; lw.hi < line.len(); lw.hi++ {
		lp := line.at(lw.hi)
		if int(lp.pos) > b {
			break
		}
		if lp.ok() {
			lw.win.Insert(c.rank[lp.pos], lp.value(c.d.Series[i].Points), c.eng.lb.beginsAt(i, lp.pos))
		}
	}
	for ; lw.lo < lw.hi; lw.lo++ {
		lp := line.at(lw.lo)
		if int(lp.pos) > b-lookback {
			break
		}
		if lp.ok() {
			lw.win.Delete(c.rank[lp.pos])
		}
	}
}
