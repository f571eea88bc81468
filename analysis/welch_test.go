package analysis

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
)

// Known answers for Welch's test from summaries: t, the
// Welch–Satterthwaite df and the two-sided p computed here with mpmath
// 1.3.0 at 40 digits, p both as 2·∫_|t|^∞ of Student's t density
// (mpmath.quad) and as the regularized incomplete beta function, which
// agree to every digit printed (scipy.stats.ttest_ind_from_stats with
// equal_var=False computes the same test; scipy is not installed here).
// The first two are pytest rows shaped like rlai-lab/ml-instrumentation's
// data.js (seconds per round).
func TestWelchSummariesKnownAnswers(t *testing.T) {
	tests := []struct {
		b, a     model.SampleSummary
		t, df, p float64
	}{
		{summary(6.764403985612581e-3, 0.0020886163795779695, 139), summary(7.1e-3, 0.0019, 120), 1.3536178497882725, 256.28224515576933, 0.17705091475723016},
		{summary(6.764403985612581e-3, 0.0020886163795779695, 139), summary(6.0e-3, 0.0019, 120), -3.0832037182062471, 256.28224515576933, 0.0022716802264350216},
		{summary(2.2977723892609374e-3, 0.0011753717758067983, 447), summary(2.31e-3, 0.00118, 452), 0.15565360180888446, 896.95342307224425, 0.87634109386947379},
		{summary(1, 0.5, 3), summary(3, 0.25, 4), 6.3577553139122103, 2.7557251908396947, 0.010112389528995959},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.b, tt.a), func(t *testing.T) {
			gt, df, p, ok := WelchSummaries(tt.b, tt.a)
			if !ok || !near(gt, tt.t, 1e-12) || !near(df, tt.df, 1e-12) || !near(p, tt.p, 1e-9) {
				t.Errorf("t %.17g df %.17g p %.17g ok %v; want %.17g %.17g %.17g", gt, df, p, ok, tt.t, tt.df, tt.p)
			}
		})
	}
}

// summary is the summary of n samples of mean m and deviation sd.
func summary(m, sd float64, n int) model.SampleSummary {
	return model.SampleSummary{Mean: m, StdDev: sd, N: n}
}

func near(x, want, rel float64) bool {
	return math.Abs(x-want) <= rel*math.Abs(want)
}

// From samples' summaries the test is budget.WelchT's (perfgate's, on the
// samples themselves; its t has the other sign), to rounding.
func TestWelchSummariesMatchesSamples(t *testing.T) {
	a1 := []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
	a2 := []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
	sum := func(xs []float64) model.SampleSummary {
		m, v, _ := budget.MeanVar(xs)
		return model.SampleSummary{Mean: m, StdDev: math.Sqrt(v), N: len(xs)}
	}
	wt, wdf, wp, _ := budget.WelchT(a1, a2)
	st, sdf, sp, ok := WelchSummaries(sum(a1), sum(a2))
	if !ok || !near(st, -wt, 1e-12) || !near(sdf, wdf, 1e-12) || !near(sp, wp, 1e-12) {
		t.Errorf("summaries: t %v df %v p %v; samples: t %v df %v p %v", st, sdf, sp, -wt, wdf, wp)
	}
}

func TestWelchSummariesEdges(t *testing.T) {
	tests := []struct {
		name string
		b, a model.SampleSummary
		p    float64
		ok   bool
	}{
		{"one round", summary(1, 0.1, 1), summary(2, 0.1, 10), 0, false},
		{"no deviation, equal means", summary(1, 0, 5), summary(1, 0, 5), 1, true},
		{"no deviation, different means", summary(1, 0, 5), summary(2, 0, 5), 0, true},
		{"negative deviation", summary(1, -0.1, 5), summary(2, 0.1, 5), 0, false},
		{"NaN mean", summary(math.NaN(), 0.1, 5), summary(2, 0.1, 5), 0, false},
		{"infinite deviation", summary(1, math.Inf(1), 5), summary(2, 0.1, 5), 0, false},
		{"overflowing variance", summary(1, 1e300, 5), summary(2, 1e300, 5), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, p, ok := WelchSummaries(tt.b, tt.a)
			if ok != tt.ok || (ok && p != tt.p) {
				t.Errorf("p %v ok %v; want %v %v", p, ok, tt.p, tt.ok)
			}
		})
	}
}

// Pooling two summaries is the summary of the union of their samples.
func TestSampleSummaryPool(t *testing.T) {
	x := []float64{1, 2, 4, 7}
	y := []float64{3, 5, 11}
	sum := func(xs []float64) model.SampleSummary {
		m, v, _ := budget.MeanVar(xs)
		return model.SampleSummary{Mean: m, StdDev: math.Sqrt(v), N: len(xs)}
	}
	got, want := sum(x).Pool(sum(y)), sum(append(append([]float64{}, x...), y...))
	if got.N != want.N || !near(got.Mean, want.Mean, 1e-15) || !near(got.StdDev, want.StdDev, 1e-14) {
		t.Errorf("pooled %+v; want %+v", got, want)
	}
	if got := (model.SampleSummary{Mean: 3, N: 1}).Pool(model.SampleSummary{Mean: 5, N: 1}); got != (model.SampleSummary{Mean: 4, StdDev: math.Sqrt2, N: 2}) {
		t.Errorf("two single rounds: %+v", got)
	}
}

// summaryLine is valueLine for pytest-like results: one ops/s value per
// commit (higher is better) with the summary of the time per round (nil
// for none) and, where given, more samples.
func summaryLine(values [][]float64, sums []*model.SampleSummary) *model.Dataset {
	b := model.NewBuilder(model.BuildOptions{Value: model.Auto})
	for i, v := range values {
		a := model.Artifact{ID: rpCommitID(i), Kind: model.KindCommit, Date: lineEpoch.Add(time.Duration(i) * time.Hour), Branch: "main"}
		if i > 0 {
			a.Parents = []string{rpCommitID(i - 1)}
		}
		res := model.Result{Case: model.TestCase{Benchmark: "b"}, Metric: "throughput", Unit: "iter/s", Direction: model.HigherIsBetter, Samples: v, Summary: sums[i]}
		b.Add(fmt.Sprintf("r/%d.json", i), model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: []model.Result{res}})
	}
	return b.Dataset()
}

// Welch's test of summary statistics (as in
// rlai-lab/ml-instrumentation's data.js) is the p-value column of results
// that carry summaries and too few samples: samples the test can judge
// take precedence; a summary on one side, or of one round, has no test.
func TestSummaryTest(t *testing.T) {
	base := &model.SampleSummary{Mean: 6.764403985612581e-3, StdDev: 0.0020886163795779695, N: 139}
	same := &model.SampleSummary{Mean: 7.1e-3, StdDev: 0.0019, N: 120}   // p = 0.177
	faster := &model.SampleSummary{Mean: 6.0e-3, StdDev: 0.0019, N: 120} // p = 0.0023
	one := &model.SampleSummary{Mean: 6.0e-3, StdDev: 0, N: 1}
	shifted := [][]float64{{100, 101, 99, 100, 102}, {110, 111, 109, 110, 112}} // p = 0.008
	tests := []struct {
		name        string
		values      [][]float64
		sums        []*model.SampleSummary
		wantTest    string
		significant bool
		p           float64
	}{
		{"summaries, p = 0.177", ones(1/6.764403985612581e-3, 1/7.1e-3), []*model.SampleSummary{base, same}, MethodWelch, false, 0.177},
		{"summaries, p = 0.0023", ones(1/6.764403985612581e-3, 1/6.0e-3), []*model.SampleSummary{base, faster}, MethodWelch, true, 0.0023},
		{"a summary on one side only: no test", ones(1/6.764403985612581e-3, 1/7.1e-3), []*model.SampleSummary{base, nil}, "", false, 0},
		{"a summary of one round: no test", ones(1/6.764403985612581e-3, 1/6.0e-3), []*model.SampleSummary{base, one}, "", false, 0},
		{"samples take precedence", shifted, []*model.SampleSummary{base, same}, MethodMannWhitney, true, 0.008},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, opts := range []Options{DefaultOptions, rustcPerfOptions} {
				r := lastRow(t, summaryLine(tt.values, tt.sums), opts)
				if r.Test.Method != tt.wantTest || r.Test.Significant != tt.significant || tt.p != 0 && math.Abs(r.Test.P-tt.p) > tt.p/10 {
					t.Errorf("model %s: test %+v; want %q, significant %v, p ≈ %v", opts.Model, r.Test, tt.wantTest, tt.significant, tt.p)
				}
			}
		})
	}
}
