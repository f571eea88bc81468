package analysis

import (
	"fmt"
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// This file is rustc-perf's per-test-case analysis (model "rustc-perf", as
// rustc-perf's docs/comparison-analysis.md describes it), number for
// number with site/src/comparison.rs: the significance threshold is the upper IQR fence
// of the percent changes between consecutive historical values, and a
// change's magnitude averages how far it goes over that threshold with how
// large it is in absolute terms.

// Constants of model rustc-perf.
const (
	// DefaultSignificanceThreshold is the threshold of a test case without
	// enough history (rustc-perf's DEFAULT_SIGNIFICANCE_THRESHOLD, 0.2 %).
	DefaultSignificanceThreshold = 0.002
	// RustcPerfHistory is how many historical values a threshold needs
	// (rustc-perf's NUM_PREVIOUS_COMMITS since 2022-11).
	RustcPerfHistory = 30
	// IQRMultiplier is the fence's multiple of the interquartile range:
	// the code's 3, not the 1.5 of rustc-perf's prose.
	IQRMultiplier = 3.0
	// MagnitudeFloor is the change below which the magnitude is always
	// VerySmall, so that a threshold near 0 cannot make a tiny change
	// relevant.
	MagnitudeFloor = 0.0001
)

// appendPercentChanges appends |x[i] − x[i+1]| / x[i] for each adjacent
// pair of history, newest first (x[0] is the newest value), so the divisor
// is the newer value of each pair, as in rustc-perf. They are in history
// order, not sorted. A zero divisor gives +Inf or NaN, as upstream.
func appendPercentChanges(dst, history []float64) []float64 {
	for i := 0; i+1 < len(history); i++ {
		dst = append(dst, math.Abs(history[i]-history[i+1])/history[i])
	}
	return dst
}

// rustcQuartiles returns Q1 and Q3 of p, sorted ascending (NaNs first), by
// rustc-perf's median-of-halves rule (site/src/comparison.rs):
//   - len ≤ 2: Q1 = p[0], Q3 = median(p[1:]) (so p[1] for two values);
//   - odd len: the halves p[:len/2] and p[len/2+1:] leave out the middle;
//   - even len: the halves p[:len/2−1] and p[len/2+1:] leave out both
//     middle elements.
//
// The median of a half is its middle element, or the mean of its two middle
// elements. Upstream panics on one value; here Q1 = Q3 = p[0]. An empty p
// gives 0, 0.
func rustcQuartiles(p []float64) (q1, q3 float64) {
	n := len(p)
	switch {
	case n == 0:
		return 0, 0
	case n == 1:
		return p[0], p[0]
	case n == 2:
		return p[0], p[1]
	case n%2 == 0:
		return halfMedian(p[:n/2-1]), halfMedian(p[n/2+1:])
	default:
		return halfMedian(p[:n/2]), halfMedian(p[n/2+1:])
	}
}

// halfMedian is rustc-perf's median of a sorted half of the changes.
func halfMedian(x []float64) float64 { return quantile.Median(x) }

// thresholdInto is model rustc-perf's threshold for a test case whose
// history (newest first) is given: Q3 + 3·IQR of the percent changes of
// the n newest values, or DefaultSignificanceThreshold when there are
// fewer than n values. rustc-perf's own n is RustcPerfHistory (30); other
// values are [Options.History]; n < 2 means 30. The percent changes go in
// buf (which may be nil), so that a comparison reuses one buffer for every
// series.
//
// A zero value in the history makes a percent change +Inf, or NaN for 0/0.
// They sort like upstream's (NaN first, +Inf last) and usually fall outside
// the quartiles' elements. When the fence itself is not finite, the default
// threshold is used: upstream would carry a NaN on, call no change
// significant and every change VeryLarge.
func thresholdInto(buf, history []float64, n int) float64 {
	if n < 2 {
		n = RustcPerfHistory
	}
	if len(history) < n {
		return DefaultSignificanceThreshold
	}
	p := appendPercentChanges(buf[:0], history[:n])
	slices.Sort(p)
	return fence(p)
}

// fence is the threshold from the sorted percent changes: Q3 + 3·IQR, or
// the default when that is not finite.
func fence(sorted []float64) float64 {
	q1, q3 := rustcQuartiles(sorted)
	t := q3 + (q3-q1)*IQRMultiplier
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return DefaultSignificanceThreshold
	}
	return t
}

// SignificanceFactor is |change| / threshold: how many thresholds a change
// is. It is 0 when the quotient is not finite (threshold 0), as upstream.
// It is shown, never used in decisions.
func SignificanceFactor(change, threshold float64) float64 {
	f := math.Abs(change) / threshold
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// Magnitude is rustc-perf's five-bucket size of a change. The constants are
// rustc-perf's ranks 1 to 5; the zero Magnitude means "no change computed".
type Magnitude int

// Magnitudes, smallest first.
const (
	VerySmall Magnitude = iota + 1
	Small
	Medium
	Large
	VeryLarge
)

var magnitudeNames = [...]string{"", "very-small", "small", "medium", "large", "very-large"}

// String is the magnitude's name in JSON and on pages: "very-small",
// "small", "medium", "large" or "very-large" ("" for the zero Magnitude).
func (m Magnitude) String() string {
	if m < 0 || int(m) >= len(magnitudeNames) {
		return fmt.Sprintf("Magnitude(%d)", int(m))
	}
	return magnitudeNames[m]
}

// MarshalText encodes the magnitude as its String.
func (m Magnitude) MarshalText() ([]byte, error) {
	if m < 0 || int(m) >= len(magnitudeNames) {
		return nil, fmt.Errorf("invalid magnitude %d", int(m))
	}
	return []byte(magnitudeNames[m]), nil
}

// UnmarshalText decodes a magnitude name.
func (m *Magnitude) UnmarshalText(b []byte) error {
	for i, name := range magnitudeNames {
		if name == string(b) {
			*m = Magnitude(i)
			return nil
		}
	}
	return fmt.Errorf("unknown magnitude %q (want very-small, small, medium, large or very-large)", b)
}

// MagnitudeOf is rustc-perf's magnitude of a relative change given its
// significance threshold and the metric's noise factor
// ([model.Noise.NoiseFactor]: 1 for reliable counts, 2 otherwise):
//
//  1. |change| < 0.0001 (0.01 %) is VerySmall, whatever the threshold;
//  2. the over-threshold bucket: |change| < 1.5·t VerySmall, < 3·t Small,
//     < 6·t Medium, < 12·t Large, else VeryLarge (the products computed as
//     upstream, threshold times constant, so a change exactly at k·t falls
//     in the upper bucket);
//  3. the absolute bucket of pct = |change|·100 / noiseFactor: < 0.2
//     VerySmall, < 1 Small, < 2 Medium, < 5 Large, else VeryLarge;
//  4. the result is the integer mean of the two ranks, rounded down.
func MagnitudeOf(change, threshold, noiseFactor float64) Magnitude {
	c := math.Abs(change)
	if c < MagnitudeFloor {
		return VerySmall
	}
	return (overThresholdBucket(c, threshold) + absoluteBucket(c, noiseFactor)) / 2
}

// overThresholdBucket is the bucket of |change| c by multiples of the
// threshold (the same for every metric).
func overThresholdBucket(c, threshold float64) Magnitude {
	switch {
	case c < threshold*1.5:
		return VerySmall
	case c < threshold*3.0:
		return Small
	case c < threshold*6.0:
		return Medium
	case c < threshold*12.0:
		return Large
	default:
		return VeryLarge
	}
}

// absoluteBucket is the bucket of |change| c in percent, scaled down by the
// metric's noise factor.
func absoluteBucket(c, noiseFactor float64) Magnitude {
	pct := c * 100.0 / noiseFactor
	switch {
	case pct < 0.2:
		return VerySmall
	case pct < 1.0:
		return Small
	case pct < 2.0:
		return Medium
	case pct < 5.0:
		return Large
	default:
		return VeryLarge
	}
}

// ChangeSignificance is the verdict on one relative change.
type ChangeSignificance struct {
	Threshold   float64   // the significance threshold (a fraction)
	Factor      float64   // |change| / Threshold, 0 when not finite
	Significant bool      // the change is outside the noise
	Magnitude   Magnitude // rustc-perf's magnitude at this threshold
	Relevant    bool      // Significant and Magnitude ≥ Small
}

// ClassifyChange judges a relative change by model rustc-perf: significant
// iff |change| ≥ threshold (this is ≥, not >), then magnitude and relevance
// as in [MagnitudeOf].
func ClassifyChange(change, threshold, noiseFactor float64) ChangeSignificance {
	s := ChangeSignificance{
		Threshold:   threshold,
		Factor:      SignificanceFactor(change, threshold),
		Significant: math.Abs(change) >= threshold,
		Magnitude:   MagnitudeOf(change, threshold, noiseFactor),
	}
	s.Relevant = s.Significant && s.Magnitude >= Small
	return s
}
