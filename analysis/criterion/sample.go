package criterion

import (
	"errors"
	"fmt"
	"math"
)

// Sample is one run of one benchmark as Criterion records it (sample.json):
// Times[i] is the total measured for sample i (ns, or any unit, as long as
// both sides of a comparison use the same) and Iters[i] its iteration count.
// A nil Iters means one iteration per sample, so plain per-run values can be
// analysed too.
type Sample struct {
	Iters, Times []float64
}

// ErrTooFewSamples is returned (wrapped, with the count) for a sample with
// fewer than 2 values: Criterion's Sample type requires 2, and no spread can
// be estimated from one.
var ErrTooFewSamples = errors.New("needs at least 2 samples")

// maxLen bounds the number of samples so that every index fits in the
// 32-bit draws of the bootstrap.
const maxLen = math.MaxUint32 / 2

// Validate reports the first problem that would make the analysis
// meaningless: fewer than 2 samples, Iters and Times of different lengths,
// an iteration count, time or time per iteration that is zero, negative,
// NaN, infinite or outside [MinValue, MaxValue] (Criterion stops with an
// error when a time is zero).
func (s Sample) Validate() error {
	n := len(s.Times)
	if n < 2 {
		return fmt.Errorf("%w, got %d", ErrTooFewSamples, n)
	}
	if n > maxLen {
		return fmt.Errorf("%d samples are more than the %d this analysis handles", n, maxLen)
	}
	if s.Iters != nil && len(s.Iters) != n {
		return fmt.Errorf("%d iteration counts for %d times", len(s.Iters), n)
	}
	for i, t := range s.Times {
		if err := positive(t); err != nil {
			return fmt.Errorf("times[%d] = %v: %w", i, t, err)
		}
		if s.Iters == nil {
			continue
		}
		it := s.Iters[i]
		if err := positive(it); err != nil {
			return fmt.Errorf("iters[%d] = %v: %w", i, it, err)
		}
		if err := positive(t / it); err != nil {
			return fmt.Errorf("times[%d] / iters[%d] = %v / %v: %w", i, i, t, it, err)
		}
	}
	return nil
}

// MinValue and MaxValue bound every time, iteration count and time per
// iteration. Within them no square, sum or ratio the analysis forms can
// overflow or lose all precision, whatever the unit: 1e140 ns is 10¹²³
// years.
const (
	MinValue = 1e-140
	MaxValue = 1e140
)

var (
	errNotPositive = errors.New("not a positive number")
	errNotFinite   = errors.New("not a finite number")
	errOutOfRange  = fmt.Errorf("out of the range %g to %g", MinValue, MaxValue)
)

func positive(x float64) error {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return errNotFinite
	case !(x > 0):
		return errNotPositive
	case x < MinValue || x > MaxValue:
		return errOutOfRange
	}
	return nil
}

// Avg is the time per iteration of every sample, Times[i] / Iters[i] (a copy
// of Times when Iters is nil): the values Criterion's univariate statistics,
// fences and comparisons work on. Call Validate first: when the lengths
// differ, Avg covers only the samples that have both values.
func (s Sample) Avg() []float64 {
	if s.Iters == nil {
		return append([]float64(nil), s.Times...)
	}
	avg := make([]float64, min(len(s.Times), len(s.Iters)))
	for i := range avg {
		avg[i] = s.Times[i] / s.Iters[i]
	}
	return avg
}
