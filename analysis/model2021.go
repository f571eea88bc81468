package analysis

import (
	"fmt"
	"math"
)

// This file is model "rustc-perf-2021" (rustc-perf's
// docs/comparison-analysis.md as of 2021): significance by fixed
// thresholds that depend on whether a test case is "dodgy" (noisy or highly
// variable over its history), and confidence from the number of significant
// test cases.
//
// It follows that document, not any one historical commit of rustc-perf.
// Between July and September 2021 upstream's site/src/comparison.rs went
// through several variants: the delta threshold was 0.05, 0.02, then
// 0.01 in code while the docs said 0.1; the non-dodgy/dodgy thresholds were
// 0.001/1.0, 0.001/0.01, 0.002/0.01 and 0.002/0.008; the noise ratio divided
// absolute deltas by the mean of the history, and an early version paired
// sorted deltas with unsorted values; at least 50 ancestors were required.
// The document's wording is what is implemented here:
//   - relative deltas |x_new − x_old| / x_old between adjacent results: the
//     document's "testResult2 - testResult1 / testResult1", where testResult1
//     is the earlier result; the absolute value, since a drop is as much a
//     sign of variance as a rise; pairs whose older value is 0 have no
//     relative delta and are skipped;
//   - a delta above DodgyDelta (0.1, configurable) is significant;
//   - highly variable iff more than 5 % of the deltas are significant;
//   - noisy iff the mean of the non-significant deltas exceeds 0.001;
//   - significant change iff |change| > 0.001, or > 0.01 when dodgy (strict).
//
// The classification needs previous results but, unlike upstream's 50, no
// minimum count: it judges whatever history there is (up to
// Options.History2021 values), and with fewer than two values there is no
// delta and the test case is not dodgy.

// Constants of model rustc-perf-2021.
const (
	// DefaultDodgyDelta is the relative delta above which a historical
	// change is significant for dodginess (the document's "currently 0.1").
	DefaultDodgyDelta = 0.1
	// HighlyVariablePercent: a test case is highly variable when more than
	// this percentage of its historical deltas are significant.
	HighlyVariablePercent = 5
	// NoiseThreshold2021: a test case is noisy when the mean of its
	// non-significant deltas exceeds this.
	NoiseThreshold2021 = 0.001
	// Threshold2021 is the significance threshold of a test case that is
	// not dodgy (0.1 %), DodgyThreshold2021 that of a dodgy one (1 %).
	Threshold2021      = 0.001
	DodgyThreshold2021 = 0.01
	// History2021 is the document's history length: the previous 100 results.
	History2021 = 100
)

// relativeDelta2021 is |newer − older| / older, false when that is not a
// finite number.
func relativeDelta2021(newer, older float64) (float64, bool) {
	if older == 0 {
		return 0, false
	}
	d := math.Abs(newer-older) / older
	return d, !math.IsNaN(d) && !math.IsInf(d, 0)
}

// Dodginess is the 2021 classification of a test case's history
// (upstream's BenchmarkVariance).
type Dodginess struct {
	Deltas             int     // relative deltas between adjacent results
	SignificantDeltas  int     // deltas above the dodgy delta
	MeanNonSignificant float64 // mean of the other deltas (0 when there are none)
	HighlyVariable     bool    // more than 5 % of the deltas are significant
	Noisy              bool    // MeanNonSignificant > 0.001
}

// Dodgy reports whether the test case is noisy or highly variable.
func (v Dodginess) Dodgy() bool { return v.Noisy || v.HighlyVariable }

// ClassifyDodginess classifies a history (newest first) by the document's rules;
// dodgyDelta ≤ 0 means DefaultDodgyDelta. A delta exactly at dodgyDelta is
// not significant ("above" the threshold).
func ClassifyDodginess(history []float64, dodgyDelta float64) Dodginess {
	if dodgyDelta <= 0 {
		dodgyDelta = DefaultDodgyDelta
	}
	var v Dodginess
	var sum float64
	for i := 0; i+1 < len(history); i++ {
		d, ok := relativeDelta2021(history[i], history[i+1])
		if !ok {
			continue
		}
		v.Deltas++
		if d > dodgyDelta {
			v.SignificantDeltas++
		} else {
			sum += d
		}
	}
	if n := v.Deltas - v.SignificantDeltas; n > 0 {
		v.MeanNonSignificant = sum / float64(n)
	}
	// "More than 5 %" in integers, so that exactly 5 % is not highly
	// variable whatever the floating-point rounding of the share.
	v.HighlyVariable = v.SignificantDeltas*100 > HighlyVariablePercent*v.Deltas
	v.Noisy = v.MeanNonSignificant > NoiseThreshold2021
	return v
}

// ClassifyChange2021 judges a relative change by model rustc-perf-2021:
// significant iff |change| > 0.001, or > 0.01 for a dodgy test case
// (strictly greater). The magnitude is rustc-perf's [MagnitudeOf] at that
// threshold, so that summaries, relevance and the summary table work the
// same under both models.
func ClassifyChange2021(change float64, dodgy bool, noiseFactor float64) ChangeSignificance {
	t := Threshold2021
	if dodgy {
		t = DodgyThreshold2021
	}
	s := ChangeSignificance{
		Threshold:   t,
		Factor:      SignificanceFactor(change, t),
		Significant: math.Abs(change) > t,
		Magnitude:   MagnitudeOf(change, t, noiseFactor),
	}
	s.Relevant = s.Significant && s.Magnitude >= Small
	return s
}

// Confidence is how sure an analysis is that a comparison matters: the
// 2021 levels, which rustc-perf later renamed relevance low/medium/high.
type Confidence int

// Confidence levels.
const (
	MaybeRelevant Confidence = iota
	ProbablyRelevant
	DefinitelyRelevant
)

var confidenceNames = [...]string{"maybe-relevant", "probably-relevant", "definitely-relevant"}

// String is "maybe-relevant", "probably-relevant" or "definitely-relevant",
// the names triage filters use.
func (c Confidence) String() string {
	if c < 0 || int(c) >= len(confidenceNames) {
		return fmt.Sprintf("Confidence(%d)", int(c))
	}
	return confidenceNames[c]
}

// MarshalText encodes the confidence as its String.
func (c Confidence) MarshalText() ([]byte, error) {
	if c < 0 || int(c) >= len(confidenceNames) {
		return nil, fmt.Errorf("invalid confidence %d", int(c))
	}
	return []byte(confidenceNames[c]), nil
}

// UnmarshalText decodes a confidence name.
func (c *Confidence) UnmarshalText(b []byte) error {
	for i, name := range confidenceNames {
		if name == string(b) {
			*c = Confidence(i)
			return nil
		}
	}
	return fmt.Errorf("unknown confidence %q (want maybe-relevant, probably-relevant or definitely-relevant)", b)
}

// ConfidenceOf is the document's confidence from the number of significant test
// results (improvements and regressions alike): 0–3 maybe, 4–6 probably,
// more than 6 definitely relevant.
func ConfidenceOf(significant int) Confidence {
	switch {
	case significant > 6:
		return DefinitelyRelevant
	case significant >= 4:
		return ProbablyRelevant
	default:
		return MaybeRelevant
	}
}
