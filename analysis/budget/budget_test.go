package budget

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func ptr[T any](v T) *T { return &v }

// approx compares floats to 1e-12 absolute, enough for the known answers
// below, which are exact decimal fractions.
var approx = cmpopts.EquateApprox(0, 1e-12)

// TestEvaluateBudgetTable is perfgate's domain/budget.rs unit tests:
// threshold 0.20, warn 0.10, lower is better.
func TestEvaluateBudgetTable(t *testing.T) {
	b := Budget{Threshold: 0.20, WarnThreshold: 0.10, Direction: Lower}
	tests := []struct {
		name              string
		baseline, current float64
		want              Delta
	}{
		{"5% slower passes", 100, 105, Delta{Baseline: 100, Current: 105, Ratio: 1.05, Pct: 0.05, Regression: 0.05, Statistic: Median, Status: Pass}},
		{"15% slower warns", 100, 115, Delta{Baseline: 100, Current: 115, Ratio: 1.15, Pct: 0.15, Regression: 0.15, Statistic: Median, Status: Warn}},
		{"30% slower fails", 100, 130, Delta{Baseline: 100, Current: 130, Ratio: 1.30, Pct: 0.30, Regression: 0.30, Statistic: Median, Status: Fail}},
		{"10% slower warns at the warn threshold", 100, 110, Delta{Baseline: 100, Current: 110, Ratio: 1.10, Pct: 0.10, Regression: 0.10, Statistic: Median, Status: Warn}},
		{"improvement passes with zero regression", 100, 80, Delta{Baseline: 100, Current: 80, Ratio: 0.8, Pct: -0.2, Regression: 0, Statistic: Median, Status: Pass}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Evaluate(tt.baseline, tt.current, b)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("Evaluate(%v, %v) mismatch (-want +got):\n%s", tt.baseline, tt.current, diff)
			}
		})
	}
}

func TestEvaluateInvalidBaseline(t *testing.T) {
	b := New(0.20, 0.5, Lower)
	for _, base := range []float64{0, -10, math.NaN()} {
		if _, err := Evaluate(base, 100, b); !errors.Is(err, ErrInvalidBaseline) {
			t.Errorf("Evaluate(%v, 100) error = %v, want ErrInvalidBaseline", base, err)
		}
	}
}

// TestStatusBoundaries: fail is strict, warn inclusive (perfgate's
// domain/budget.rs tests).
func TestStatusBoundaries(t *testing.T) {
	b := Budget{Threshold: 0.20, WarnThreshold: 0.10, Direction: Lower}
	tests := []struct {
		regression float64
		want       Status
	}{
		{0.20, Warn},
		{0.2001, Fail},
		{0.10, Warn},
		{0.0999, Pass},
		{0.25, Fail},
		{0, Pass},
	}
	for _, tt := range tests {
		if got := StatusOf(tt.regression, b); got != tt.want {
			t.Errorf("StatusOf(%v) = %s, want %s", tt.regression, got, tt.want)
		}
	}
	// A warn factor of 0 makes everything at least warn, improvements too.
	zero := New(0.20, 0, Lower)
	d, _ := Evaluate(100, 90, zero)
	if d.Status != Warn {
		t.Errorf("warn factor 0, improvement: status %s, want warn", d.Status)
	}
}

// TestRegression is perfgate's calculate_regression tests.
func TestRegression(t *testing.T) {
	tests := []struct {
		name              string
		baseline, current float64
		d                 Direction
		want              float64
	}{
		{"lower is better, faster", 100, 90, Lower, 0},
		{"lower is better, slower", 100, 115, Lower, 0.15},
		{"higher is better, more", 100, 120, Higher, 0},
		{"higher is better, less", 100, 80, Higher, 0.20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Regression(tt.baseline, tt.current, tt.d); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Regression = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestAggregate is perfgate's aggregation tests plus its skip rule: with
// no pass, warn or fail the verdict is skip.
func TestAggregate(t *testing.T) {
	tests := []struct {
		name     string
		statuses []Status
		want     Verdict
	}{
		{"fail dominates", []Status{Pass, Fail, Warn}, Verdict{Status: Fail, Counts: Counts{Pass: 1, Warn: 1, Fail: 1}}},
		{"warn without fail", []Status{Pass, Warn, Pass}, Verdict{Status: Warn, Counts: Counts{Pass: 2, Warn: 1}}},
		{"all pass", []Status{Pass, Pass}, Verdict{Status: Pass, Counts: Counts{Pass: 2}}},
		{"pass beats skip", []Status{Skip, Pass}, Verdict{Status: Pass, Counts: Counts{Pass: 1, Skip: 1}}},
		{"only skips", []Status{Skip, Skip}, Verdict{Status: Skip, Counts: Counts{Skip: 2}}},
		{"nothing compared", nil, Verdict{Status: Skip}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Aggregate(tt.statuses)); diff != "" {
				t.Errorf("Aggregate mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNoBaseline(t *testing.T) {
	want := Verdict{Status: Warn, Counts: Counts{Warn: 1}, Reasons: []string{"no_baseline"}}
	if diff := cmp.Diff(want, NoBaseline()); diff != "" {
		t.Error(diff)
	}
}

// TestCompareMultiMetric is perfgate's multi-metric budget test: wall
// 100 → 115 with (0.20, 0.10) warns, rss 1000 → 900 with (0.30, 0.15)
// passes.
func TestCompareMultiMetric(t *testing.T) {
	budgets := map[string]Budget{
		"wall_ms":    {Threshold: 0.20, WarnThreshold: 0.10, Direction: Lower},
		"max_rss_kb": {Threshold: 0.30, WarnThreshold: 0.15, Direction: Lower},
	}
	got := Compare([]Input{
		{Metric: "wall_ms", Baseline: 100, Current: 115},
		{Metric: "max_rss_kb", Baseline: 1000, Current: 900},
		{Metric: "cpu_ms", Baseline: 1, Current: 100}, // no budget: ignored
	}, budgets, nil)
	want := Result{
		Deltas: map[string]Delta{
			"wall_ms":    {Baseline: 100, Current: 115, Ratio: 1.15, Pct: 0.15, Regression: 0.15, Statistic: Median, Status: Warn},
			"max_rss_kb": {Baseline: 1000, Current: 900, Ratio: 0.9, Pct: -0.1, Regression: 0, Statistic: Median, Status: Pass},
		},
		Verdict: Verdict{Status: Warn, Counts: Counts{Pass: 1, Warn: 1}, Reasons: []string{"wall_ms_warn"}},
	}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("Compare mismatch (-want +got):\n%s", diff)
	}
}

// TestCompareReasonsInMetricOrder: reasons follow metric names, whatever
// the input order, and a skip from a bad baseline adds no token.
func TestCompareReasonsInMetricOrder(t *testing.T) {
	b := New(0.20, 0.90, Lower)
	budgets := map[string]Budget{"wall_ms": b, "max_rss_kb": b, "cpu_ms": b}
	got := Compare([]Input{
		{Metric: "wall_ms", Baseline: 100, Current: 150},
		{Metric: "max_rss_kb", Baseline: 100, Current: 119},
		{Metric: "cpu_ms", Baseline: 0, Current: 5},
	}, budgets, nil)
	if diff := cmp.Diff([]string{"max_rss_kb_warn", "wall_ms_fail"}, got.Verdict.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	wantSkip := Delta{Baseline: 0, Current: 5, Ratio: 1, Statistic: Median, Status: Skip}
	if diff := cmp.Diff(wantSkip, got.Deltas["cpu_ms"]); diff != "" {
		t.Errorf("bad baseline delta (-want +got):\n%s", diff)
	}
	if want := (Counts{Warn: 1, Fail: 1, Skip: 1}); got.Verdict.Counts != want {
		t.Errorf("counts = %+v, want %+v", got.Verdict.Counts, want)
	}
}

// TestNoisePolicy: perfgate's noise policy. The current run's CV 0.5 is above the
// threshold 0.1; a CV at the threshold is not noisy (strict >).
func TestNoisePolicy(t *testing.T) {
	tests := []struct {
		name    string
		policy  NoisePolicy
		current float64
		cv      *float64
		want    Status
	}{
		{"warn demotes a fail", NoiseWarn, 150, ptr(0.5), Warn},
		{"warn escalates a pass", NoiseWarn, 100, ptr(0.5), Warn},
		{"skip skips", NoiseSkip, 150, ptr(0.5), Skip},
		{"ignore keeps the fail", NoiseIgnore, 150, ptr(0.5), Fail},
		{"unset policy ignores", "", 150, ptr(0.5), Fail},
		{"cv at the threshold is not noisy", NoiseSkip, 150, ptr(0.1), Fail},
		{"unknown cv is not noisy", NoiseSkip, 150, nil, Fail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New(0.20, 0.90, Lower)
			b.NoiseThreshold = ptr(0.1)
			b.NoisePolicy = tt.policy
			res := Compare([]Input{{Metric: "wall_ms", Baseline: 100, Current: tt.current, CurrentCV: tt.cv}}, map[string]Budget{"wall_ms": b}, nil)
			d := res.Deltas["wall_ms"]
			if d.Status != tt.want {
				t.Errorf("status = %s, want %s", d.Status, tt.want)
			}
			if diff := cmp.Diff(tt.cv, d.CV); diff != "" {
				t.Errorf("cv recorded (-want +got):\n%s", diff)
			}
			if d.NoiseThreshold == nil || *d.NoiseThreshold != 0.1 {
				t.Errorf("noise threshold not recorded: %v", d.NoiseThreshold)
			}
			var wantReasons []string
			if tt.want != Pass {
				wantReasons = []string{"wall_ms_" + string(tt.want)}
			}
			if diff := cmp.Diff(wantReasons, res.Verdict.Reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRequireSignificance is perfgate's compare_runs_can_require_
// significance: the u64 medians 95 → 101 regress 6.3158 % over a
// 5 % budget, but Welch's test (t = −0.443129, df = 18, p ≈ 0.66295) finds
// no significant difference, so require_significance downgrades the fail.
func TestRequireSignificance(t *testing.T) {
	var base, cur []float64
	var baseU, curU []uint64
	for v := 50; v <= 140; v += 10 {
		base = append(base, float64(v))
		cur = append(cur, float64(v+6))
		baseU = append(baseU, uint64(v))
		curU = append(curU, uint64(v+6))
	}
	bm, cm := MedianU64(baseU), MedianU64(curU)
	if bm != 95 || cm != 101 {
		t.Fatalf("medians = %d, %d, want 95, 101", bm, cm)
	}
	b := New(0.05, 0.9, Lower)
	in := []Input{{Metric: "wall_ms", Baseline: float64(bm), Current: float64(cm), BaselineSamples: base, CurrentSamples: cur}}
	budgets := map[string]Budget{"wall_ms": b}

	plain := Compare(in, budgets, &SignificancePolicy{Alpha: 0.05, MinSamples: DefaultMinSamples})
	d := plain.Deltas["wall_ms"]
	if d.Status != Fail || math.Abs(d.Regression-0.063158) > 1e-6 {
		t.Errorf("without require: status %s regression %v, want fail 0.063158", d.Status, d.Regression)
	}
	if d.Significance == nil || d.Significance.Significant || math.Abs(d.Significance.PValue-0.66295)/0.66295 > 1e-4 {
		t.Errorf("significance = %+v, want p ≈ 0.66295, not significant", d.Significance)
	}

	req := Compare(in, budgets, &SignificancePolicy{Alpha: 0.05, MinSamples: DefaultMinSamples, Require: true})
	if got := req.Deltas["wall_ms"].Status; got != Pass {
		t.Errorf("with require: status %s, want pass", got)
	}
	if req.Verdict.Status != Pass || len(req.Verdict.Reasons) != 0 {
		t.Errorf("with require: verdict %+v, want pass without reasons", req.Verdict)
	}

	// An untestable metric (too few samples) counts as not significant.
	few := Compare([]Input{{Metric: "wall_ms", Baseline: 95, Current: 101, BaselineSamples: base[:3], CurrentSamples: cur}}, budgets,
		&SignificancePolicy{Alpha: 0.05, MinSamples: 8, Require: true})
	if d := few.Deltas["wall_ms"]; d.Significance != nil || d.Status != Pass {
		t.Errorf("too few samples with require: %+v, want no significance and pass", d)
	}
}

// TestP95Budget is perfgate's compare_runs_uses_p95_when_requested
// test: p95 of [100×7, 200] is 165, of [100×7, 300] is 230; the
// regression 0.3939 fails a 20 % budget.
func TestP95Budget(t *testing.T) {
	base := []float64{100, 100, 100, 100, 100, 100, 100, 200}
	cur := []float64{100, 100, 100, 100, 100, 100, 100, 300}
	bp, cp := PercentileLinear(base, 0.95), PercentileLinear(cur, 0.95)
	if math.Abs(bp-165) > 1e-9 || math.Abs(cp-230) > 1e-9 {
		t.Fatalf("p95 = %v, %v, want 165, 230", bp, cp)
	}
	b := New(0.20, 0.90, Lower)
	b.Statistic = P95
	res := Compare([]Input{{Metric: "wall_ms", Baseline: bp, Current: cp}}, map[string]Budget{"wall_ms": b}, nil)
	want := Delta{Baseline: 165, Current: 230, Ratio: 230.0 / 165, Pct: 65.0 / 165, Regression: 65.0 / 165, Statistic: P95, Status: Fail}
	if diff := cmp.Diff(want, res.Deltas["wall_ms"], cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("p95 delta (-want +got):\n%s", diff)
	}
	if math.Abs(want.Regression-0.3939) > 1e-4 {
		t.Errorf("regression %v, want 0.3939", want.Regression)
	}
}
