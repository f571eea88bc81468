package perfgate

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/generator/receipt"
)

// snapshotCompare is the compare receipt of perfgate's report_warn
// snapshot (crates/perfgate-app/src/report.rs):
// wall_ms 1000 → 1190 under a (0.2, 0.18, lower) budget.
func snapshotCompare() *receipt.Compare {
	return &receipt.Compare{
		Schema:      receipt.CompareSchema,
		Tool:        receipt.Tool{Name: "perfgate", Version: "0.1.0"},
		Bench:       receipt.Bench{Name: "test-bench", Command: []string{"echo", "hello"}, Repeat: 5},
		BaselineRef: receipt.Ref{Path: "baseline.json", RunID: "baseline-001"},
		CurrentRef:  receipt.Ref{Path: "current.json", RunID: "current-001"},
		Budgets:     map[string]receipt.Budget{"wall_ms": {Threshold: 0.2, WarnThreshold: 0.18, Direction: budget.Lower}},
		Deltas:      map[string]receipt.Delta{"wall_ms": {Baseline: 1000, Current: 1190, Ratio: 1.19, Pct: 0.19, Regression: 0.19, Status: budget.Warn}},
		Verdict:     receipt.Verdict{Status: budget.Warn, Counts: receipt.Counts{Warn: 1}, Reasons: []string{"wall_ms_warn"}},
	}
}

func asJSONValue(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestReportSnapshot reproduces perfgate's report_warn.snap with the
// report command's wording (the snapshot is a serde_json Value, so its
// keys are sorted; the comparison is of JSON values).
func TestReportSnapshot(t *testing.T) {
	got, err := marshal(newReport(snapshotCompare(), reportWording))
	if err != nil {
		t.Fatal(err)
	}
	want := readTestdata(t, "report_warn.snap.json")
	if diff := cmp.Diff(asJSONValue(t, want), asJSONValue(t, got)); diff != "" {
		t.Errorf("report (-snapshot +got):\n%s", diff)
	}
}

// TestReportCheckWording: what perfgate's `check` writes: the regression ×
// 100 in data and "wall_ms regression: 19.00% (change: +19.00%,
// threshold: 20.0%)".
func TestReportCheckWording(t *testing.T) {
	c := snapshotCompare()
	c.Budgets["max_rss_kb"] = receipt.Budget{Threshold: 0.15, WarnThreshold: 0.135, Direction: budget.Lower}
	c.Deltas["max_rss_kb"] = receipt.Delta{Baseline: 1024, Current: 1280, Ratio: 1.25, Pct: 0.25, Regression: 0.25, Status: budget.Fail}
	c.Deltas["cpu_ms"] = receipt.Delta{Baseline: 10, Current: 9, Ratio: 0.9, Pct: -0.1, Status: budget.Pass}
	c.Budgets["throughput_per_s"] = receipt.Budget{Threshold: 0.1, WarnThreshold: 0.09, Direction: budget.Higher}
	c.Deltas["throughput_per_s"] = receipt.Delta{Baseline: 100, Current: 90, Ratio: 0.9, Pct: -0.1, Regression: 0.1, Status: budget.Warn}
	c.Deltas["page_faults"] = receipt.Delta{Baseline: 0, Current: 3, Ratio: 1, Status: budget.Skip}
	c.Verdict = receipt.Verdict{Status: budget.Fail, Counts: receipt.Counts{Pass: 1, Warn: 2, Fail: 1, Skip: 1}, Reasons: []string{"max_rss_kb_fail", "throughput_per_s_warn", "wall_ms_warn"}}

	r := newReport(c, checkWording)
	want := []Finding{
		{CheckID: "perf.budget", Code: "metric_fail", Severity: "fail",
			Message: "max_rss_kb regression: 25.00% (change: +25.00%, threshold: 15.0%)",
			Data:    &FindingData{MetricName: "max_rss_kb", Baseline: 1024, Current: 1280, RegressionPct: 25, Threshold: 0.15, Direction: budget.Lower}},
		{CheckID: "perf.budget", Code: "metric_warn", Severity: "warn",
			Message: "throughput_per_s regression: 10.00% (change: -10.00%, threshold: 10.0%)",
			Data:    &FindingData{MetricName: "throughput_per_s", Baseline: 100, Current: 90, RegressionPct: 10, Threshold: 0.1, Direction: budget.Higher}},
		{CheckID: "perf.budget", Code: "metric_warn", Severity: "warn",
			Message: "wall_ms regression: 19.00% (change: +19.00%, threshold: 20.0%)",
			Data:    &FindingData{MetricName: "wall_ms", Baseline: 1000, Current: 1190, RegressionPct: 19, Threshold: 0.2, Direction: budget.Lower}},
	}
	if diff := cmp.Diff(want, r.Findings, approx); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if want := (Summary{PassCount: 1, WarnCount: 2, FailCount: 1, SkipCount: 1, TotalCount: 5}); r.Summary != want {
		t.Errorf("summary = %+v, want %+v", r.Summary, want)
	}
	if r.ReportType != receipt.ReportSchema || r.Compare != c || r.Verdict.Status != budget.Fail {
		t.Errorf("report header = %q %v", r.ReportType, r.Verdict)
	}
	// Finding count = warn + fail count.
	if len(r.Findings) != int(c.Verdict.Counts.Warn+c.Verdict.Counts.Fail) {
		t.Errorf("%d findings", len(r.Findings))
	}
	if math.Abs(r.Findings[0].Data.RegressionPct-25) > 1e-12 {
		t.Error("regression_pct not ×100")
	}
}

// TestNoBaselineReport is perfgate check's no-baseline handling.
func TestNoBaselineReport(t *testing.T) {
	got, err := marshal(noBaselineReport("my-bench"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "report_type": "perfgate.report.v1",
  "verdict": {
    "status": "warn",
    "counts": {
      "pass": 0,
      "warn": 1,
      "fail": 0,
      "skip": 0
    },
    "reasons": [
      "no_baseline"
    ]
  },
  "findings": [
    {
      "check_id": "perf.baseline",
      "code": "missing",
      "severity": "warn",
      "message": "No baseline found for bench 'my-bench'; comparison skipped"
    }
  ],
  "summary": {
    "pass_count": 0,
    "warn_count": 1,
    "fail_count": 0,
    "total_count": 1
  }
}
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("no-baseline report (-want +got):\n%s", diff)
	}
}

// TestCompareReceiptJSON pins field order and the omission rules of
// perfgate.compare.v1:
// statistic only when not median, noise_policy only when not ignore, cv /
// noise_threshold / significance only when present, CI bounds only from
// paired mode.
func TestCompareReceiptJSON(t *testing.T) {
	c := snapshotCompare()
	c.Budgets["wall_ms"] = receipt.Budget{Threshold: 0.2, WarnThreshold: 0.18, NoiseThreshold: f64p(0.1), NoisePolicy: budget.NoiseWarn, Direction: budget.Lower}
	d := c.Deltas["wall_ms"]
	d.CV, d.NoiseThreshold, d.Statistic = f64p(0.05), f64p(0.1), budget.P95
	d.Significance = &receipt.Significance{Test: "welch_t", PValue: f64p(0.5), Alpha: 0.05, BaselineSamples: 8, CurrentSamples: 9}
	c.Deltas["wall_ms"] = d
	c.BaselineRef = receipt.Ref{}
	got, err := marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "schema": "perfgate.compare.v1",
  "tool": {
    "name": "perfgate",
    "version": "0.1.0"
  },
  "bench": {
    "name": "test-bench",
    "command": [
      "echo",
      "hello"
    ],
    "repeat": 5,
    "warmup": 0
  },
  "baseline_ref": {},
  "current_ref": {
    "path": "current.json",
    "run_id": "current-001"
  },
  "budgets": {
    "wall_ms": {
      "threshold": 0.2,
      "warn_threshold": 0.18,
      "noise_threshold": 0.1,
      "noise_policy": "warn",
      "direction": "lower"
    }
  },
  "deltas": {
    "wall_ms": {
      "baseline": 1000,
      "current": 1190,
      "ratio": 1.19,
      "pct": 0.19,
      "regression": 0.19,
      "cv": 0.05,
      "noise_threshold": 0.1,
      "statistic": "p95",
      "significance": {
        "test": "welch_t",
        "p_value": 0.5,
        "alpha": 0.05,
        "significant": false,
        "baseline_samples": 8,
        "current_samples": 9
      },
      "status": "warn"
    }
  },
  "verdict": {
    "status": "warn",
    "counts": {
      "pass": 0,
      "warn": 1,
      "fail": 0,
      "skip": 0
    },
    "reasons": [
      "wall_ms_warn"
    ]
  }
}
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("compare receipt JSON (-want +got):\n%s", diff)
	}
	back, err := receipt.ReadCompare("c.json", got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestFormatPct(t *testing.T) {
	tests := []struct {
		pct  float64
		want string
	}{
		{0.19, "+19.00%"},
		{-0.05, "-5.00%"},
		{0, "0.00%"},
		{0.171875, "+17.19%"},
		{1.5, "+150.00%"},
		// Beyond perfgate: huge and non-finite changes (analysis.FormatPercent).
		{1e308, "+1.00e+310%"},
		{-1e308, "-1.00e+310%"},
		{math.Inf(1), "n/a"},
		{math.NaN(), "n/a"},
	}
	for _, tt := range tests {
		if got := formatPct(tt.pct); got != tt.want {
			t.Errorf("formatPct(%v) = %q, want %q", tt.pct, got, tt.want)
		}
	}
}

// TestReportHugeRegression: a regression of 1e308 (from 1 to 1e308) is
// printed in exponent form, and regression_pct saturates instead of
// overflowing to +Inf, which JSON cannot carry.
func TestReportHugeRegression(t *testing.T) {
	c := &receipt.Compare{
		Budgets: map[string]receipt.Budget{"wall_ms": {Threshold: 0.2, WarnThreshold: 0.18, Direction: budget.Lower}},
		Deltas:  map[string]receipt.Delta{"wall_ms": {Baseline: 1, Current: 1e308, Pct: 1e308, Regression: 1e308, Status: budget.Fail}},
		Verdict: receipt.Verdict{Status: budget.Fail, Reasons: []string{"wall_ms_fail"}},
	}
	r := newReport(c, checkWording)
	if got, want := r.Findings[0].Message, "wall_ms regression: 1.00e+310% (change: +1.00e+310%, threshold: 20.0%)"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	if got := r.Findings[0].Data.RegressionPct; got != math.MaxFloat64 {
		t.Errorf("regression_pct = %v, want the largest float", got)
	}
	if _, err := json.Marshal(r); err != nil {
		t.Errorf("report does not encode: %v", err)
	}
	if got, want := newReport(c, reportWording).Findings[0].Message, "Performance regression exceeded threshold for wall_ms: 1.00e+310% regression (threshold: 20.00%)"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
	md := markdown(c, nil)
	for _, want := range []string{"| 1 ms | 1e+308 ms | +1.00e+310% |", "- wall_ms_fail: +1.00e+310% (fail > 20.00%)"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
}
