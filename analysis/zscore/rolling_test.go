package zscore

// Rolling and RowStats give the rolling statistics of every row, where
// Distribution gives those of the last one: the tests check the outlier and
// step detection row by row with them (TestDerivedVectorSpike and
// TestDerivedVectorStep). They live in a test file because nothing but the
// tests calls them.

// RowStats are the rolling statistics of one row (Conbench's
// rolling_mean, residual, rolling_stddev and is_outlier columns).
//
// A row whose Value is not finite takes no part and gets the zero RowStats
// (HasMean false and Outlier false). An outlier row has only Outlier (and
// perhaps Step) set. Mean, Residual and Std are always finite: a statistic
// that overflows (values near ±1.8e308) is reported as absent, so the rows
// can go straight into JSON.
type RowStats struct {
	// Mean is the rolling mean of the row's segment: over the window of
	// commits before the row's commit (exclusive; the row's own value on the
	// first commit of a segment) or up to and including it (inclusive).
	Mean float64
	// Residual is the row's value minus the exclusive rolling mean: the
	// error of predicting it from the commits before.
	Residual float64
	// Std is the rolling sample standard deviation of the residuals, across
	// segments, with the same kind of window as Mean.
	Std     float64
	HasMean bool // Mean and Residual are set: false for outliers and invalid rows
	HasStd  bool // Std is set: false with fewer than two residuals in the window
	Outlier bool // a spike: dropped from every statistic
	// Step marks a lasting jump seen by the outlier detector. Conbench
	// computes it but does not act on it (only annotations start segments);
	// it is a candidate for a distribution-change annotation.
	Step bool
}

// Rolling returns the rolling statistics of every row of obs, in input
// order, with windows of window commits (DefaultCommits when window < 1).
// Exclusive windows (inclusive false) cover the commits before a row's
// commit: Conbench's history API and the chart band mean ± threshold·std.
// Inclusive windows also cover the row's own commit: the statistics
// [Distribution] scores with.
func Rolling(obs []Observation, window int, inclusive bool) []RowStats {
	s := scratchPool.Get().(*Scratch)
	defer scratchPool.Put(s)
	s.run(obs, window, inclusive)
	out := make([]RowStats, len(obs))
	k := 0
	for i, row := range s.idx {
		st := &out[row]
		st.Step = s.step[i]
		if s.outlier[i] {
			st.Outlier = true
			continue
		}
		m := s.excl[k]
		if inclusive {
			m = s.incl[k]
		}
		if isFinite(m) && isFinite(s.resid[k]) {
			st.Mean, st.Residual, st.HasMean = m, s.resid[k], true
		}
		if sd := s.std[k]; isFinite(sd) {
			st.Std, st.HasStd = sd, true
		}
		k++
	}
	return out
}
