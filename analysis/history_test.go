package analysis

import "math"
import "github.com/perfpages/perfpages/analysis/model"

// Band and SeriesHistory compute, point by point and each with its own
// windows, what a site gets from Consecutive's sliding windows: the history
// chart's band is the Row.Z of each commit page ([zscore.Z.Band]) and the
// changes it marks are the rows. The tests check that the two ways agree.
// They live in a test file because nothing but the tests calls them.

// Band returns the lookback band of series i for its history chart, one
// entry per main-line point in the order of SeriesHistory: the
// values whose z-score stays within the threshold, Mean ∓ ZThreshold·Std
// of the distribution the point's z-score is scored against. That is the
// Row.Z of the commit page that compares the point's commit with its
// main-line predecessor ([zscore.Z.Band]): the Lookback commits up to the
// predecessor, inclusive. Points outside the band are exactly those whose
// |z| exceeds the threshold (up to the rounding of the last bit at the
// edges).
//
// The band at a point depends on the commits before it only, so a commit
// appended to the main line leaves every earlier point's band as it was
// and a site rewrites only the end of a series' data. (Conbench's history
// plot draws rolling statistics whose spike detector trims with quantiles
// of the whole series: every new commit moves every old band.)
//
// lower and upper are NaN where there is no band: a point without a
// value, the first commits of a series, a distribution that is not usable
// (one commit, a deviation of 0). The cost is O(points × Lookback).
func (c *Comparer) Band(i int) (lower, upper []float64) {
	opts, _ := c.opts.resolve()
	s, line := c.d.Series[i], &c.lines[i]
	lower, upper = make([]float64, line.len()), make([]float64, line.len())
	var lw lineWindow
	lw.reset(line, 0, opts.Lookback)
	for k := range line.len() {
		lp := line.at(k)
		lower[k], upper[k] = math.NaN(), math.NaN()
		lw.moveTo(c, i, line, int(lp.pos)-1, opts.Lookback)
		r := Row{Series: s, After: &s.Points[lp.idx()]}
		if !scored(&r) {
			continue
		}
		if lo, hi, ok := lookbackZ(&r, lw.win.Dist(opts.Lookback), opts).Band(); ok {
			lower[k], upper[k] = lo, hi
		}
	}
	return lower, upper
}

// SeriesHistory returns, for every main-line point of d.Series[i] (oldest
// first), the row its commit page shows without the other engines: the
// change against the series' value at the previous main-line artifact,
// with its significance. Rows whose point has no predecessor value have OK
// false and the commit page's Note. The cost is O(points × window): it is
// what history charts mark.
func (c *Comparer) SeriesHistory(i int) []Row {
	opts, _ := c.opts.resolve()
	s, line := c.d.Series[i], &c.lines[i]
	window := opts.historyWindow()
	hist := make([]float64, 0, window)
	pbuf := make([]float64, 0, window)
	rows := make([]Row, 0, line.len())
	var sebuf []float64
	for k := range line.len() {
		lp := line.at(k)
		after := &s.Points[lp.idx()]
		var before *model.Point
		if k > 0 && line.pos(k-1) == lp.pos-1 {
			before = &s.Points[line.point(k-1)]
		}
		r, classifiable, _ := newRow(s, before, after)
		if classifiable && opts.Model == ModelPerfpages {
			applyVerdict(&r, c.headlinesOf(i).at(int(lp.pos), standardError(after, &sebuf)), BasisPersistence, opts)
		} else if classifiable {
			// The base is line[k-1] at position lp.pos−1; its history
			// starts one position earlier, at the entries before k−1.
			classify(&r, lineHistory(hist[:0], line, s.Points, k-1, int(lp.pos)-2, window), opts, pbuf, c.eng)
		}
		rows = append(rows, r)
	}
	return rows
}
