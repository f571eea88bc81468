package perfgate

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/generator/receipt"
)

// Check ids, finding codes and severities of reports (stable tokens).
const (
	checkBudget    = "perf.budget"
	checkBaseline  = "perf.baseline"
	codeMetricWarn = "metric_warn"
	codeMetricFail = "metric_fail"
	codeMissing    = "missing"
	severityWarn   = "warn"
	severityFail   = "fail"
)

// Report is a perfgate.report.v1 report.
type Report struct {
	ReportType string          `json:"report_type"`
	Verdict    receipt.Verdict `json:"verdict"`
	// Compare is the compared receipt; absent when there was no baseline.
	Compare  *receipt.Compare `json:"compare,omitempty"`
	Findings []Finding        `json:"findings"`
	Summary  Summary          `json:"summary"`
}

// Finding is one thing the report calls out.
type Finding struct {
	CheckID  string       `json:"check_id"`
	Code     string       `json:"code"`
	Severity string       `json:"severity"`
	Message  string       `json:"message"`
	Data     *FindingData `json:"data,omitempty"`
}

// FindingData is the numbers behind a budget finding.
type FindingData struct {
	MetricName    string           `json:"metric_name"`
	Baseline      float64          `json:"baseline"`
	Current       float64          `json:"current"`
	RegressionPct float64          `json:"regression_pct"`
	Threshold     float64          `json:"threshold"`
	Direction     budget.Direction `json:"direction"`
}

// Summary counts the compared metrics.
type Summary struct {
	PassCount  uint32 `json:"pass_count"`
	WarnCount  uint32 `json:"warn_count"`
	FailCount  uint32 `json:"fail_count"`
	SkipCount  uint32 `json:"skip_count,omitempty"`
	TotalCount uint32 `json:"total_count"`
}

// wording chooses between the two ways perfgate words its findings, its
// check command's and its report command's.
type wording int

const (
	// checkWording is what `perfgate check` writes, and `perfpages check`
	// too: "wall_ms regression: 19.00% (change: +19.00%, threshold:
	// 20.0%)", with data.regression_pct = regression × 100.
	checkWording wording = iota
	// reportWording is what `perfgate report` writes: "Performance
	// regression near threshold for wall_ms: 19.00% regression (threshold:
	// 20.00%)" ("exceeded" for a fail), with data.regression_pct the
	// regression as a fraction.
	reportWording
)

// newReport wraps a compare receipt in a report: the verdict copied, one
// finding per warn or fail delta in metric order (check_id perf.budget,
// code metric_warn or metric_fail), and the counts.
func newReport(c *receipt.Compare, w wording) Report {
	r := Report{
		ReportType: receipt.ReportSchema,
		Verdict:    c.Verdict,
		Compare:    c,
		Findings:   []Finding{},
		Summary: Summary{
			PassCount: c.Verdict.Counts.Pass, WarnCount: c.Verdict.Counts.Warn,
			FailCount: c.Verdict.Counts.Fail, SkipCount: c.Verdict.Counts.Skip,
			TotalCount: c.Verdict.Counts.Pass + c.Verdict.Counts.Warn + c.Verdict.Counts.Fail + c.Verdict.Counts.Skip,
		},
	}
	for _, metric := range slices.Sorted(maps.Keys(c.Deltas)) {
		d := c.Deltas[metric]
		var code, severity string
		switch d.Status {
		case budget.Warn:
			code, severity = codeMetricWarn, severityWarn
		case budget.Fail:
			code, severity = codeMetricFail, severityFail
		default:
			continue
		}
		threshold, dir := budget.DefaultThreshold, budget.Lower
		if m, ok := receipt.MetricByName(metric); ok {
			dir = m.Direction
		}
		if b, ok := c.Budgets[metric]; ok {
			threshold, dir = b.Threshold, b.Direction
		}
		f := Finding{CheckID: checkBudget, Code: code, Severity: severity,
			Data: &FindingData{MetricName: metric, Baseline: d.Baseline, Current: d.Current, Threshold: threshold, Direction: dir}}
		switch w {
		case reportWording:
			verb := "near"
			if d.Status == budget.Fail {
				verb = "exceeded"
			}
			f.Message = fmt.Sprintf("Performance regression %s threshold for %s: %s regression (threshold: %s)",
				verb, metric, analysis.FormatPercent(d.Regression, 2), analysis.FormatPercent(threshold, 2))
			f.Data.RegressionPct = d.Regression
		default:
			f.Message = fmt.Sprintf("%s regression: %s (change: %s, threshold: %s)",
				metric, analysis.FormatPercent(d.Regression, 2), formatPct(d.Pct), analysis.FormatPercent(threshold, 1))
			f.Data.RegressionPct = percentOf(d.Regression)
		}
		r.Findings = append(r.Findings, f)
	}
	return r
}

// percentOf is x × 100 for data.regression_pct, saturated at the largest
// float: a regression beyond 1.8e306 would overflow to +Inf, which JSON
// cannot carry (encoding/json fails, and with it the whole check), while
// its finite fraction is still in the compare receipt.
func percentOf(x float64) float64 {
	p := x * 100
	if math.IsInf(p, 0) && !math.IsInf(x, 0) {
		return math.Copysign(math.MaxFloat64, x)
	}
	return p
}

// noBaselineReport is the report of a check that had nothing to compare
// with: verdict warn with the reason no_baseline, one perf.baseline
// finding, no compare receipt.
func noBaselineReport(bench string) Report {
	return Report{
		ReportType: receipt.ReportSchema,
		Verdict:    verdictJSON(budget.NoBaseline()),
		Findings: []Finding{{
			CheckID:  checkBaseline,
			Code:     codeMissing,
			Severity: severityWarn,
			Message:  fmt.Sprintf("No baseline found for bench '%s'; comparison skipped", bench),
		}},
		Summary: Summary{WarnCount: 1, TotalCount: 1},
	}
}

// formatPct formats a fractional change as perfgate does: "+19.00%",
// "-5.00%", "0.00%" (a sign only when positive). Beyond perfgate, which
// never meets them: "+1.00e+310%" from 1 000 000 % on and "n/a" for NaN
// and ±Inf (analysis.FormatPercent).
func formatPct(pct float64) string {
	s := analysis.FormatPercent(pct, 2)
	if pct > 0 && !math.IsInf(pct, 1) {
		return "+" + s
	}
	return s
}
