package criterion

import (
	"errors"
	"fmt"
	"math"
)

// Options are Criterion's analysis settings.
type Options struct {
	// NResamples is the number of bootstrap resamples of every bootstrap.
	NResamples int
	// ConfidenceLevel of the intervals, in (0, 1).
	ConfidenceLevel float64
	// SignificanceLevel is the α of the t-test, in (0, 1): a change is
	// significant when p < α.
	SignificanceLevel float64
	// NoiseThreshold is the relative change (a fraction, 0.01 = ±1 %) that a
	// significant change must exceed, with both bounds of its confidence
	// interval, to count as improved or regressed.
	NoiseThreshold float64
	// VerdictOnly skips the bootstrap of the median change in Compare, the
	// one result the verdict does not use; Change.Median then carries only
	// its point estimate. T, P, the mean change and the verdict are the
	// same with or without it.
	VerdictOnly bool
	// Workers is the number of goroutines one call may use; 0 means
	// GOMAXPROCS. The results are the same for every value: a site that
	// already runs calls in parallel sets 1.
	Workers int
}

// DefaultOptions are Criterion's defaults (identical in 0.7 and 0.8).
var DefaultOptions = Options{
	NResamples:        100_000,
	ConfidenceLevel:   0.95,
	SignificanceLevel: 0.05,
	NoiseThreshold:    0.01,
}

// MaxResamples bounds Options.NResamples; a distribution of that many
// values takes 80 MB.
const MaxResamples = 10_000_000

// Validate reports the first option out of its range.
func (o Options) Validate() error {
	switch {
	case o.NResamples <= 0:
		return fmt.Errorf("nresamples must be positive, got %d", o.NResamples)
	case o.NResamples > MaxResamples:
		return fmt.Errorf("nresamples %d is above the limit of %d", o.NResamples, MaxResamples)
	case !(o.ConfidenceLevel > 0 && o.ConfidenceLevel < 1):
		return fmt.Errorf("confidence level must be in (0, 1), got %v", o.ConfidenceLevel)
	case !(o.SignificanceLevel > 0 && o.SignificanceLevel < 1):
		return fmt.Errorf("significance level must be in (0, 1), got %v", o.SignificanceLevel)
	case !(o.NoiseThreshold >= 0) || math.IsInf(o.NoiseThreshold, 1):
		return fmt.Errorf("noise threshold must be a non-negative number, got %v", o.NoiseThreshold)
	case o.Workers < 0:
		return fmt.Errorf("workers must not be negative, got %d", o.Workers)
	}
	return nil
}

// Estimate is one statistic as Criterion's estimates.json stores it: the
// point estimate on the sample, the bootstrap percentile interval at
// ConfidenceLevel and the standard error (the standard deviation of the
// bootstrap distribution). An Estimate that was not bootstrapped has
// Lower = Upper = Point, StdErr 0 and ConfidenceLevel 0.
type Estimate struct {
	Point, Lower, Upper, StdErr, ConfidenceLevel float64
}

// Estimates are the absolute statistics of one sample, per iteration.
// Slope is nil unless the run used linear sampling.
type Estimates struct {
	Mean, Median, MedianAbsDev, StdDev Estimate
	Slope                              *Estimate
}

// errOverflow reports values so large or small that float64 arithmetic
// overflows; it is the only way a statistic can come out non-finite.
var errOverflow = errors.New("values out of range: the statistics overflow float64")

// Analyze computes Criterion's absolute estimates of s: mean, median,
// standard deviation and MAD of the per-iteration values, each with the
// percentile interval of o.NResamples one-sample bootstrap resamples, and,
// when s.Iters are linear sampling ([Linear]), the slope with the interval
// of as many paired resamples of (iters, times). The bootstraps draw from
// seed (see [Seed]); the point estimates do not depend on it.
func Analyze(s Sample, seed uint64, o Options) (Estimates, error) {
	if err := o.Validate(); err != nil {
		return Estimates{}, err
	}
	if err := s.Validate(); err != nil {
		return Estimates{}, err
	}
	w := getWorkspace()
	defer putWorkspace(w)

	avg := s.Avg()
	sorted := sortedCopy(avg)
	mean := Mean(avg)
	std := math.Sqrt(variance(avg, mean))
	median := at(sorted, 50)
	mad := medianAbsDev(avg, median)

	dMean, dStd, dMedian, dMAD := bootstrapAbsolute(w, padded(sorted), seed, o)
	var e Estimates
	var err error
	cl := o.ConfidenceLevel
	for _, x := range []struct {
		dst   *Estimate
		point float64
		dist  []float64
	}{{&e.Mean, mean, dMean}, {&e.StdDev, std, dStd}, {&e.Median, median, dMedian}, {&e.MedianAbsDev, mad, dMAD}} {
		if *x.dst, err = estimate(x.point, x.dist, cl); err != nil {
			return Estimates{}, err
		}
	}
	if Linear(s.Iters) {
		slope, err := bootstrapSlope(w, s, seed, o)
		if err != nil {
			return Estimates{}, err
		}
		e.Slope = &slope
	}
	return e, nil
}
