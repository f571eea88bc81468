package analysis

import (
	"fmt"
	"math"
)

// RelativeChange is (b − a) / a as a fraction (SPEC §5.1). It reports false
// when a is 0 or either value is not finite: there is no comparison then.
func RelativeChange(a, b float64) (float64, bool) {
	if a == 0 || math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return 0, false
	}
	return (b - a) / a, true
}

// IsRegression reports whether a relative change goes in the metric's bad
// direction. A change of exactly 0 is not a regression.
func IsRegression(change float64, d Direction) bool {
	if d == HigherIsBetter {
		return change < 0
	}
	return change > 0
}

// Row is one test case × metric of a comparison.
type Row struct {
	Series *Series
	Before *Point // nil when the base artifact has no result
	After  *Point // nil when the head artifact has no result
	// Change is the relative change of the single values; valid when OK.
	Change     float64
	OK         bool
	Regression bool   // the change goes in the metric's bad direction
	Note       string // why there is no change: a failure, a missing or zero value
}

// Comparison compares two artifacts test case by test case.
type Comparison struct {
	Base, Head int   // indices into Dataset.Artifacts
	Rows       []Row // in series order
	// Warnings hold what could not be compared (a = 0, missing values).
	Warnings []error
}

// Options selects the significance model and its history windows.
type Options struct {
	Model       string  // "rustc-perf" (default) or "rustc-perf-2021"
	History     int     // main-line ancestors for model rustc-perf (30)
	History2021 int     // ancestors for model rustc-perf-2021 (100)
	DodgyDelta  float64 // model 2021: a relative delta above this is significant for dodginess (0.1)
}

// DefaultOptions are rustc-perf's current settings.
var DefaultOptions = Options{Model: "rustc-perf", History: 30, History2021: 100, DodgyDelta: 0.1}

// Compare compares artifact head with artifact base over every series that
// has a result for either of them. Failed benchmarks appear as rows with a
// Note and no change; they are excluded from every statistic.
func Compare(d *Dataset, base, head int, opts Options) *Comparison {
	c := &Comparison{Base: base, Head: head}
	for _, s := range d.Series {
		before, after := s.At(base), s.At(head)
		if before == nil && after == nil {
			continue
		}
		r := Row{Series: s, Before: before, After: after}
		switch {
		case after != nil && after.Error != "":
			r.Note = "failed: " + after.Error
		case before != nil && before.Error != "":
			r.Note = "failed in base: " + before.Error
		case before == nil || !before.OK:
			r.Note = "new: no result in base"
		case after == nil || !after.OK:
			r.Note = "gone: no result in head"
		default:
			r.Change, r.OK = RelativeChange(before.Value, after.Value)
			if !r.OK {
				r.Note = "base value is 0"
				c.Warnings = append(c.Warnings, fmt.Errorf("%s %s on %s: base value is 0, no relative change", s.Case, s.Key.Metric, s.Key.Machine))
			}
			r.Regression = r.OK && IsRegression(r.Change, s.Metric.Direction)
		}
		c.Rows = append(c.Rows, r)
	}
	return c
}
