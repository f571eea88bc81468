package zscore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/perfpages/perfpages/analysis/quantile"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// series makes one observation per commit, commits an hour apart.
func series(values ...float64) []Observation {
	obs := make([]Observation, len(values))
	for i, v := range values {
		obs[i] = Observation{Commit: fmt.Sprintf("c%03d", i), Time: t0.Add(time.Duration(i) * time.Hour), Value: v}
	}
	return obs
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func flagged(rows []RowStats, pick func(RowStats) bool) []int {
	var out []int
	for i, r := range rows {
		if pick(r) {
			out = append(out, i)
		}
	}
	return out
}

func isOutlier(r RowStats) bool { return r.Outlier }
func isStep(r RowStats) bool    { return r.Step }

// A derived vector, not upstream (its expected values come from a
// re-implementation that reproduces every z-score of Conbench's
// test_history.py): a spike at index 8.
var vector1 = []float64{10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 10.1, 30.0, 10.0, 9.9, 10.1}

func TestDerivedVectorSpike(t *testing.T) {
	obs := series(vector1...)

	var s Scratch
	s.run(obs, DefaultCommits, true)
	if q05, q95 := quantile.Conbench(s.qbuf, trimLow), quantile.Conbench(s.qbuf, trimHigh); !near(q05, -10.2, 1e-12) || !near(q95, 10.05, 1e-12) {
		t.Errorf("difference percentiles = %v, %v; want -10.2, 10.05", q05, q95)
	}

	d := Distribution(obs, DefaultCommits)
	if !d.OK || !near(d.Mean, 10.009091, 1e-7) || !near(d.Std, 0.1275089, 1e-7) {
		t.Errorf("distribution = %+v; want mean 10.009091, std 0.1275089", d)
	}
	if d.N != 11 || d.Commits != 11 || d.Outliers != 1 {
		t.Errorf("N, Commits, Outliers = %d, %d, %d; want 11, 11, 1", d.N, d.Commits, d.Outliers)
	}
	for _, tt := range []struct{ contender, zLess float64 }{
		{10.5, -3.85000},
		{11.0, -7.77130},
		{9.0, 7.91389},
	} {
		for _, less := range []bool{true, false} {
			want := tt.zLess
			if !less {
				want = -want
			}
			if z := Score(tt.contender, d, less, DefaultThreshold); !z.OK || !near(z.Z, want, 1e-5) {
				t.Errorf("Score(%v, lessIsBetter %v) = %+v; want z %v", tt.contender, less, z, want)
			}
		}
	}

	rows := Rolling(obs, DefaultCommits, true)
	if got := flagged(rows, isOutlier); !slices.Equal(got, []int{8}) {
		t.Errorf("outliers at %v, want [8]", got)
	}
	if got := flagged(rows, isStep); len(got) != 0 {
		t.Errorf("steps at %v, want none", got)
	}
	nan := math.NaN()
	want := []struct{ mean, residual, std float64 }{ // NaN std: none; NaN mean: outlier
		{10.0, 0.0, nan},
		{10.05, 0.1, 0.070711},
		{10.0, -0.15, 0.125831},
		{10.0, 0.0, 0.103078},
		{10.04, 0.2, 0.130384},
		{10.0, -0.24, 0.160468},
		{10.0, 0.0, 0.146596},
		{10.0125, 0.1, 0.141466},
		{nan, nan, nan},
		{10.011111, -0.0125, 0.132408},
		{10.0, -0.111111, 0.129662},
		{10.009091, 0.1, 0.127509},
	}
	for i, w := range want {
		r := rows[i]
		ok := r.Outlier == math.IsNaN(w.mean) && r.HasMean == !math.IsNaN(w.mean) && r.HasStd == !math.IsNaN(w.std)
		if r.HasMean {
			ok = ok && near(r.Mean, w.mean, 1e-6) && near(r.Residual, w.residual, 1e-6)
		}
		if r.HasStd {
			ok = ok && near(r.Std, w.std, 1e-6)
		}
		if !ok {
			t.Errorf("row %d = %+v; want mean %v, residual %v, std %v", i+1, r, w.mean, w.residual, w.std)
		}
	}
}

// The second derived vector: a lasting step at index 8.
func TestDerivedVectorStep(t *testing.T) {
	values := []float64{10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 10.1, 20.0, 20.1, 19.9, 20.0}
	tests := []struct {
		name            string
		annotate        bool
		z, mean, std    float64
		outliers, steps []int
	}{
		// The detector sees the step, but only annotations start segments,
		// so the step inflates the spread.
		{"not annotated", false, -1.56805, 13.341667, 4.246252, nil, []int{8}},
		{"annotated", true, 0.0, 20.0, 0.1252150, nil, []int{8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs := series(values...)
			obs[8].BeginsChange = tt.annotate
			d := Distribution(obs, DefaultCommits)
			z := Score(20.0, d, true, DefaultThreshold)
			if !z.OK || !near(z.Z, tt.z, 1e-5) || !near(z.Mean, tt.mean, 1e-6) || !near(z.Std, tt.std, 1e-6) {
				t.Errorf("Score = %+v; want z %v, mean %v, std %v", z, tt.z, tt.mean, tt.std)
			}
			if math.Signbit(z.Z) && z.Z == 0 {
				t.Errorf("z is -0")
			}
			rows := Rolling(obs, DefaultCommits, true)
			if got := flagged(rows, isOutlier); !slices.Equal(got, tt.outliers) {
				t.Errorf("outliers at %v, want %v", got, tt.outliers)
			}
			if got := flagged(rows, isStep); !slices.Equal(got, tt.steps) {
				t.Errorf("steps at %v, want %v", got, tt.steps)
			}
		})
	}
}

// TestDetectShiftsWithTrimmedEstimators restates Conbench's
// test_detect_shifts_with_trimmed_estimators structurally: 100 N(0,1)
// draws, +20 from index 50, indices 5 and 95 set to 10; expected outliers
// exactly {5, 95} and a step exactly at 50. Conbench draws from numpy's
// seed 47, which Go cannot reproduce, so seeded PCG streams stand in.
//
// The detector is only as good as its estimators: at index 5 the rolling
// window holds four differences, and for some streams their spread is wide
// enough that the spike stays under 5 standard deviations (PCG streams 6
// and 16 of 1…20: z = 4.19 and 4.24). Conbench's own test relies on its
// seed in the same way. So one stream is checked exactly, and every stream
// for what does not depend on the first few draws.
func TestDetectShiftsWithTrimmedEstimators(t *testing.T) {
	spikes := func(seed uint64) []RowStats {
		rng := rand.New(rand.NewPCG(seed, 47))
		values := make([]float64, 100)
		for i := range values {
			values[i] = rng.NormFloat64()
			if i >= 50 {
				values[i] += 20
			}
		}
		values[5], values[95] = 10, 10
		return Rolling(series(values...), DefaultCommits, true)
	}
	t.Run("exact structure", func(t *testing.T) {
		rows := spikes(1)
		if got := flagged(rows, isOutlier); !slices.Equal(got, []int{5, 95}) {
			t.Errorf("outliers at %v, want [5 95]", got)
		}
		if got := flagged(rows, isStep); !slices.Equal(got, []int{50}) {
			t.Errorf("steps at %v, want [50]", got)
		}
	})
	for seed := uint64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint("stream ", seed), func(t *testing.T) {
			rows := spikes(seed)
			outliers := flagged(rows, isOutlier)
			if !slices.Contains(outliers, 95) || slices.ContainsFunc(outliers, func(i int) bool { return i != 5 && i != 95 }) {
				t.Errorf("outliers at %v, want 95 and perhaps 5", outliers)
			}
			var late []int
			for _, i := range flagged(rows, isStep) {
				if i > 6 {
					late = append(late, i)
				}
			}
			if !slices.Equal(late, []int{50}) {
				t.Errorf("steps after index 6 at %v, want [50]", late)
			}
		})
	}
}

func TestDistributionKnownAnswers(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	at := func(commit string, hour int, v float64) Observation {
		return Observation{Commit: commit, Time: t0.Add(time.Duration(hour) * time.Hour), Value: v}
	}
	tests := []struct {
		name   string
		obs    []Observation
		window int
		want   Dist
	}{
		{"empty", nil, 0, Dist{Reason: "no history"}},
		{"only NaN and Inf", series(nan, inf, -inf), 0, Dist{Invalid: 3, Reason: "no history"}},
		{"one row", series(5), 0, Dist{Mean: 5, N: 1, Commits: 1, Reason: "fewer than 2 results on distinct commits"}},
		{
			"two rows on one commit", []Observation{at("a", 0, 1), at("a", 0, 3)}, 0,
			Dist{Mean: 2, N: 2, Commits: 1, Reason: "fewer than 2 results on distinct commits"},
		},
		{"all equal", series(4, 4, 4, 4), 0, Dist{Mean: 4, N: 4, Commits: 4, Reason: "standard deviation is 0"}},
		{
			// Conbench's worked example: history [1, 2].
			"two commits", series(1, 2), 0,
			Dist{Mean: 1.5, Std: math.Sqrt(0.5), N: 2, Commits: 2, OK: true},
		},
		{
			"NaN rows are left out", series(1, nan, 2, inf), 0,
			Dist{Mean: 1.5, Std: math.Sqrt(0.5), N: 2, Commits: 2, Invalid: 2, OK: true},
		},
		{
			// Both rows of the first commit predict themselves (residual
			// 0); the second commit's residual is 4 − mean(1, 3) = 2.
			"reruns on a commit", []Observation{at("a", 0, 1), at("a", 0, 3), at("b", 1, 4)}, 0,
			Dist{Mean: 8.0 / 3, Std: math.Sqrt(4.0 / 3), N: 3, Commits: 2, OK: true},
		},
		{
			// Residuals 0, 2 − 2, … are all zero: 2 = mean(1, 3).
			"reruns predicting exactly", []Observation{at("a", 0, 1), at("a", 0, 3), at("b", 1, 2)}, 0,
			Dist{Mean: 2, N: 3, Commits: 2, Reason: "standard deviation is 0"},
		},
		{
			// Two commits with one timestamp are still two commits.
			"same time, two commits", []Observation{at("b", 0, 2), at("a", 0, 1)}, 0,
			Dist{Mean: 1.5, Std: math.Sqrt(0.5), N: 2, Commits: 2, OK: true},
		},
		{
			// Window 2: mean of the last two commits (3, 10); residuals
			// 0, 1, 1.5, 7.5, of which the last two commits' count.
			"window of two commits", series(1, 2, 3, 10), 2,
			Dist{Mean: 6.5, Std: math.Sqrt(18), N: 2, Commits: 2, OK: true},
		},
		{
			// An annotation on the latest commit: the mean restarts there
			// (its residual is 0), the spread keeps the history.
			"annotated latest commit",
			append(series(1, 2), Observation{Commit: "c002", Time: t0.Add(2 * time.Hour), Value: 9, BeginsChange: true}), 0,
			Dist{Mean: 9, Std: math.Sqrt(1.0 / 3), N: 3, Commits: 3, OK: true},
		},
		{
			"overflowing values", series(1e308, -1e308, 1e308, -1e308), 0,
			Dist{N: 4, Commits: 4, Reason: "distribution statistics are not finite"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Distribution(tt.obs, tt.window)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("Distribution mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRollingExclusive(t *testing.T) {
	// History API semantics: each row against the commits before it.
	obs := series(1, 2, 5)
	want := []RowStats{
		{Mean: 1, Residual: 0, HasMean: true},                                        // first commit: its own value
		{Mean: 1, Residual: 1, HasMean: true},                                        // one residual before: no std
		{Mean: 1.5, Residual: 3.5, Std: math.Sqrt(0.5), HasMean: true, HasStd: true}, // std of [0, 1]
	}
	if diff := cmp.Diff(want, Rolling(obs, DefaultCommits, false), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("Rolling exclusive mismatch (-want +got):\n%s", diff)
	}
	// Invalid rows keep their place with zero stats.
	obs = append(obs[:1:1], Observation{Commit: "x", Time: t0, Value: math.NaN()})
	got := Rolling(obs, DefaultCommits, false)
	if diff := cmp.Diff([]RowStats{{Mean: 1, HasMean: true}, {}}, got); diff != "" {
		t.Errorf("Rolling with a NaN row mismatch (-want +got):\n%s", diff)
	}
}

func TestDistributionInputOrder(t *testing.T) {
	obs := series(vector1...)
	obs[3].BeginsChange = true
	want := Distribution(obs, DefaultCommits)
	wantRows := Rolling(obs, DefaultCommits, false)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		perm := rng.Perm(len(obs))
		shuffled := make([]Observation, len(obs))
		for i, p := range perm {
			shuffled[p] = obs[i]
		}
		if diff := cmp.Diff(want, Distribution(shuffled, DefaultCommits)); diff != "" {
			t.Fatalf("shuffled input changed the distribution (-sorted +shuffled):\n%s", diff)
		}
		rows := Rolling(shuffled, DefaultCommits, false)
		for i, p := range perm {
			if diff := cmp.Diff(wantRows[i], rows[p]); diff != "" {
				t.Fatalf("row %d moved to %d changed (-sorted +shuffled):\n%s", i, p, diff)
			}
		}
	}
}

func TestScratchReuse(t *testing.T) {
	inputs := [][]Observation{series(vector1...), series(1, 2), nil, series(3, 3, 3, 9, 3, 3, 4), series(vector1[:5]...)}
	var s Scratch
	for round := range 2 {
		for i, obs := range inputs {
			if diff := cmp.Diff(Distribution(obs, 0), s.Distribution(obs, 0)); diff != "" {
				t.Errorf("round %d input %d: reused scratch differs (-fresh +reused):\n%s", round, i, diff)
			}
		}
	}
}

// TestRollingMatchesDefinition checks the sliding-window implementation
// against a direct restatement of Conbench's definitions (every window
// rescanned, two-pass mean and variance) on random histories with reruns,
// equal timestamps, spikes, steps, annotations and small windows.
func TestRollingMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 4))
	for trial := range 400 {
		var obs []Observation
		level := 100.0
		commits := 1 + rng.IntN(40)
		for c := range commits {
			if rng.IntN(15) == 0 {
				level += 20
			}
			begins := rng.IntN(12) == 0
			for range 1 + rng.IntN(3)*rng.IntN(2) {
				v := level + rng.NormFloat64()
				if rng.IntN(20) == 0 {
					v += 50
				}
				obs = append(obs, Observation{
					Commit: fmt.Sprintf("c%02d", c), Time: t0.Add(time.Duration(c/2) * time.Hour),
					Value: v, BeginsChange: begins && rng.IntN(2) == 0,
				})
			}
		}
		rng.Shuffle(len(obs), func(i, j int) { obs[i], obs[j] = obs[j], obs[i] })
		window := []int{1, 2, 3, 5, 100}[rng.IntN(5)]
		for _, inclusive := range []bool{true, false} {
			got := Rolling(obs, window, inclusive)
			want := definition(obs, window, inclusive)
			for i := range want {
				g, w := got[i], want[i]
				same := g.Outlier == w.Outlier && g.Step == w.Step && g.HasMean == w.HasMean && g.HasStd == w.HasStd &&
					near(g.Mean, w.Mean, 1e-9) && near(g.Residual, w.Residual, 1e-9) && near(g.Std, w.Std, 1e-9)
				if !same {
					t.Fatalf("trial %d (window %d, inclusive %v) row %d = %+v, definition %+v", trial, window, inclusive, i, g, w)
				}
			}
		}
	}
}

// definition computes RowStats straight from Conbench's definitions
// (conbench/entities/history.py), rescanning every window.
func definition(obs []Observation, window int, inclusive bool) []RowStats {
	var rows []int
	for i, o := range obs {
		if isFinite(o.Value) {
			rows = append(rows, i)
		}
	}
	slices.SortStableFunc(rows, func(a, b int) int {
		if c := obs[a].Time.Compare(obs[b].Time); c != 0 {
			return c
		}
		return cmpString(obs[a].Commit, obs[b].Commit)
	})
	n := len(rows)
	v := func(i int) float64 { return obs[rows[i]].Value }
	stats := func(xs []float64) (mean, std float64) {
		mean, std = math.NaN(), math.NaN()
		if len(xs) == 0 {
			return
		}
		var s float64
		for _, x := range xs {
			s += x
		}
		mean = s / float64(len(xs))
		if len(xs) < 2 {
			return
		}
		var ss float64
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		return mean, math.Sqrt(ss / float64(len(xs)-1))
	}

	// Trimmed-estimator outlier detection, by rows.
	diff := make([]float64, n)
	var ds []float64
	for i := range n {
		diff[i] = math.NaN()
		if i > 0 {
			diff[i] = v(i) - v(i-1)
			ds = append(ds, diff[i])
		}
	}
	slices.Sort(ds)
	pct := func(p float64) float64 {
		if len(ds) == 0 {
			return math.NaN()
		}
		h := p * float64(len(ds)-1)
		lo := int(math.Floor(h))
		if lo+1 >= len(ds) {
			return ds[len(ds)-1]
		}
		return ds[lo] + (ds[lo+1]-ds[lo])*(h-float64(lo))
	}
	q05, q95 := pct(0.05), pct(0.95)
	shift := make([]bool, n)
	for i := range n {
		var win []float64
		for j := max(0, i-window+1); j <= i; j++ {
			if d := diff[j]; !math.IsNaN(d) && d >= q05 && d <= q95 {
				win = append(win, d)
			}
		}
		m, s := stats(win)
		shift[i] = math.Abs((diff[i]-m)/s) > 5
	}
	outlier := make([]bool, n)
	step := make([]bool, n)
	for i := range n {
		outlier[i] = shift[i] && i+1 < n && shift[i+1]
		step[i] = shift[i] && !outlier[i] && !(i > 0 && outlier[i-1])
	}

	// Commits and segments (annotations on any row count).
	commit := make([]int, n)
	for i := 1; i < n; i++ {
		a, b := obs[rows[i-1]], obs[rows[i]]
		commit[i] = commit[i-1]
		if a.Commit != b.Commit || !a.Time.Equal(b.Time) {
			commit[i]++
		}
	}
	seg := make([]int, n)
	for i := range n {
		for j := range n {
			if commit[j] <= commit[i] && obs[rows[j]].BeginsChange {
				seg[i]++
			}
		}
	}
	// Dense ranks of the kept rows' commits: within the segment (for the
	// means) and overall (for the std).
	segRank := make([]int, n)
	allRank := make([]int, n)
	for i := range n {
		seenSeg, seenAll := map[int]bool{}, map[int]bool{}
		for j := range n {
			if !outlier[j] && commit[j] <= commit[i] {
				seenAll[commit[j]] = true
				if seg[j] == seg[i] {
					seenSeg[commit[j]] = true
				}
			}
		}
		segRank[i], allRank[i] = len(seenSeg), len(seenAll)
	}
	// inWindow lists the kept rows with the same key (segment, or none)
	// whose commits are in row i's window.
	inWindow := func(i int, bySeg, incl bool) []int {
		rank := allRank
		if bySeg {
			rank = segRank
		}
		lo, hi := rank[i]-window, rank[i]-1
		if incl {
			lo, hi = rank[i]-window+1, rank[i]
		}
		var out []int
		for j := range n {
			if !outlier[j] && (!bySeg || seg[j] == seg[i]) && rank[j] >= lo && rank[j] <= hi {
				out = append(out, j)
			}
		}
		return out
	}

	// Means within the segment, residuals, std across segments.
	resid := make([]float64, n)
	out := make([]RowStats, len(obs))
	for i := range n {
		if outlier[i] {
			continue
		}
		var xs []float64
		for _, j := range inWindow(i, true, false) {
			xs = append(xs, v(j))
		}
		excl, _ := stats(xs)
		if len(xs) == 0 {
			excl = v(i)
		}
		resid[i] = v(i) - excl
		st := RowStats{Mean: excl, Residual: resid[i], HasMean: true}
		if inclusive {
			xs = xs[:0]
			for _, j := range inWindow(i, true, true) {
				xs = append(xs, v(j))
			}
			st.Mean, _ = stats(xs)
		}
		out[rows[i]] = st
	}
	for i := range n {
		if outlier[i] {
			out[rows[i]] = RowStats{Outlier: true, Step: step[i]}
			continue
		}
		var xs []float64
		for _, j := range inWindow(i, false, inclusive) {
			xs = append(xs, resid[j])
		}
		st := &out[rows[i]]
		st.Step = step[i]
		if _, s := stats(xs); !math.IsNaN(s) {
			st.Std, st.HasStd = s, true
		}
	}
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BenchmarkDistribution measures the common case: 100 commits with one
// result each, sorted, one call per series per comparison.
func BenchmarkDistribution(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	values := make([]float64, 100)
	for i := range values {
		values[i] = 1000 + 10*rng.NormFloat64()
	}
	obs := series(values...)
	b.Run("scratch", func(b *testing.B) {
		var s Scratch
		b.ReportAllocs()
		for b.Loop() {
			s.Distribution(obs, DefaultCommits)
		}
	})
	b.Run("pooled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Distribution(obs, DefaultCommits)
		}
	})
	b.Run("unsorted", func(b *testing.B) {
		rev := slices.Clone(obs)
		slices.Reverse(rev)
		var s Scratch
		b.ReportAllocs()
		for b.Loop() {
			s.Distribution(rev, DefaultCommits)
		}
	})
}
