package budget

import (
	"errors"
	"fmt"
)

// Direction says which way a metric improves.
type Direction string

// Directions.
const (
	Lower  Direction = "lower"  // lower is better: wall time, memory, …
	Higher Direction = "higher" // higher is better: throughput
)

// Valid reports whether d is lower or higher.
func (d Direction) Valid() bool { return d == Lower || d == Higher }

// Status is the outcome of one metric, or of a whole comparison.
type Status string

// Statuses.
const (
	Pass Status = "pass"
	Warn Status = "warn"
	Fail Status = "fail"
	Skip Status = "skip" // not judged: baseline ≤ 0, or noisy under policy skip
)

// NoisePolicy says what happens to a metric whose current run is noisier
// than the budget's noise threshold.
type NoisePolicy string

// Noise policies.
const (
	NoiseIgnore NoisePolicy = "ignore" // status unchanged
	NoiseWarn   NoisePolicy = "warn"   // status becomes warn, whatever it was
	NoiseSkip   NoisePolicy = "skip"   // status becomes skip
)

// Valid reports whether p is a known policy.
func (p NoisePolicy) Valid() bool { return p == NoiseIgnore || p == NoiseWarn || p == NoiseSkip }

// Statistic is the value a budget compares.
type Statistic string

// Statistics.
const (
	Median Statistic = "median" // the summary median (default)
	P95    Statistic = "p95"    // the linear-interpolation 95th percentile of the samples
)

// Defaults of perfgate's code, as its compare and check commands apply
// them (its `init` command writes a warn factor of 0.50 instead).
const (
	DefaultThreshold  = 0.20
	DefaultWarnFactor = 0.90
	// DefaultMinSamples is the fewest samples per side for which Welch's
	// test is computed (--significance-min-samples).
	DefaultMinSamples = 8
)

// Budget is the allowance of one metric.
type Budget struct {
	// Threshold is the fail threshold as a fraction: fail if the regression
	// is above it.
	Threshold float64
	// WarnThreshold is Threshold × warn factor: warn if the regression is
	// at least this.
	WarnThreshold float64
	Direction     Direction
	// NoiseThreshold is the coefficient of variation of the current run
	// above which NoisePolicy applies; nil means no noise check.
	NoiseThreshold *float64
	NoisePolicy    NoisePolicy // "" means ignore
	Statistic      Statistic   // "" means median
	// FailWithinNoise keeps perfgate's rule where the site judges changes
	// against their history's noise (perfpages' default model): a
	// regression over the threshold fails even when the change cannot be
	// told from the noise. Without it such a regression is a warning.
	FailWithinNoise bool
}

// New returns a budget with the fail threshold, the warn threshold
// threshold × warnFactor, and direction d.
func New(threshold, warnFactor float64, d Direction) Budget {
	return Budget{Threshold: threshold, WarnThreshold: threshold * warnFactor, Direction: d}
}

// Default is the budget of a metric whose [budgets] section sets nothing:
// perfgate's defaults, threshold DefaultThreshold, warn at
// DefaultWarnFactor of it, the metric's own direction (empty here), no
// noise threshold and noise policy warn (perfgate's check defaults to
// warn).
func Default() Budget {
	b := New(DefaultThreshold, DefaultWarnFactor, "")
	b.NoisePolicy = NoiseWarn
	return b
}

// Stat is the budget's statistic, median when unset.
func (b Budget) Stat() Statistic {
	if b.Statistic == "" {
		return Median
	}
	return b.Statistic
}

// Policy is the budget's noise policy, ignore when unset.
func (b Budget) Policy() NoisePolicy {
	if b.NoisePolicy == "" {
		return NoiseIgnore
	}
	return b.NoisePolicy
}

// Regression is the non-negative size of the change in the metric's bad
// direction: max(0, pct) when lower is better, max(0, −pct) when higher is
// better, with pct = (current − baseline) / baseline.
func Regression(baseline, current float64, d Direction) float64 {
	pct := (current - baseline) / baseline
	if d == Higher {
		pct = -pct
	}
	return max(pct, 0)
}

// StatusOf judges a regression against the budget's thresholds: fail when
// it exceeds the threshold (strictly), warn when it reaches the warn
// threshold (inclusively), else pass. With a warn threshold of 0 every
// metric is at least warn, improvements included, as in perfgate.
func StatusOf(regression float64, b Budget) Status {
	switch {
	case regression > b.Threshold:
		return Fail
	case regression >= b.WarnThreshold:
		return Warn
	}
	return Pass
}

// ErrInvalidBaseline is returned by [Evaluate] for a baseline value that is
// not positive: no relative change can be computed from it.
var ErrInvalidBaseline = errors.New("baseline value must be > 0")

// Delta is the comparison of one metric, the value of one entry of a
// compare receipt's deltas.
type Delta struct {
	Baseline, Current float64
	Ratio             float64 // current / baseline
	Pct               float64 // (current − baseline) / baseline
	Regression        float64 // ≥ 0, see [Regression]
	// CV is the current run's coefficient of variation, when known.
	CV *float64
	// NoiseThreshold is the budget's noise threshold, when it has one.
	NoiseThreshold *float64
	Statistic      Statistic
	Significance   *Significance
	Status         Status
}

// Evaluate compares a baseline and a current value under budget b. The
// delta's status reflects the thresholds only; see [Delta.WithNoise] and
// [Compare] for the noise policy and significance. A baseline ≤ 0 (or NaN)
// gives [ErrInvalidBaseline].
func Evaluate(baseline, current float64, b Budget) (Delta, error) {
	if !(baseline > 0) {
		return Delta{}, fmt.Errorf("%w (got %v)", ErrInvalidBaseline, baseline)
	}
	d := Delta{
		Baseline:  baseline,
		Current:   current,
		Ratio:     current / baseline,
		Pct:       (current - baseline) / baseline,
		Statistic: b.Stat(),
	}
	d.Regression = Regression(baseline, current, b.Direction)
	d.Status = StatusOf(d.Regression, b)
	return d, nil
}

// SkipDelta is the delta perfgate records for a metric whose baseline is
// not positive: ratio 1, pct 0, regression 0, status skip.
func SkipDelta(baseline, current float64, b Budget) Delta {
	return Delta{Baseline: baseline, Current: current, Ratio: 1, Statistic: b.Stat(), Status: Skip}
}

// WithNoise records the current run's coefficient of variation (nil when
// unknown) and the budget's noise threshold on d and applies the budget's
// noise policy: when cv > noise threshold, policy warn makes the status
// warn (a fail is demoted, a pass escalated), policy skip makes it skip,
// policy ignore leaves it. Only the current run's noise counts.
func (d Delta) WithNoise(cv *float64, b Budget) Delta {
	d.CV = cv
	d.NoiseThreshold = b.NoiseThreshold
	if d.Noisy() {
		switch b.Policy() {
		case NoiseWarn:
			d.Status = Warn
		case NoiseSkip:
			d.Status = Skip
		}
	}
	return d
}

// Noisy reports whether the current run's coefficient of variation is
// above the noise threshold (both known).
func (d Delta) Noisy() bool {
	return d.CV != nil && d.NoiseThreshold != nil && *d.CV > *d.NoiseThreshold
}
