package budget

import (
	"math"
	"slices"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// MedianU64 is perfgate's median of unsigned integers,
// [quantile.FloorMedianU64]: the floor of the average of the two middle
// values for an even count ([10 20 30 40] → 25, [1 2] → 1). xs is not
// modified; an empty slice gives 0.
func MedianU64(xs []uint64) uint64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return quantile.FloorMedianU64(s)
}

// MedianF64 is perfgate's f64 median, [quantile.Median]: the middle value,
// or the average of the two middle values for an even count. xs is not
// modified; an empty slice gives 0.
func MedianF64(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return quantile.Median(s)
}

// PercentileLinear is perfgate's p-quantile (0 ≤ p ≤ 1) of xs, its p95:
// [quantile.Linear], rank = p·(n−1), except that a rank that falls on an
// order statistic returns it as it is (perfgate's floor == ceil case; the
// interpolation would turn −0 into +0). xs is not modified; an empty slice
// gives 0.
func PercentileLinear(xs []float64, p float64) float64 {
	n := len(xs)
	if n == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	p = min(max(p, 0), 1)
	if lo, frac := quantile.LinearRank(p, n); frac == 0 {
		return s[lo]
	}
	return quantile.Linear(s, p)
}

// MeanVar is the mean and the sample variance (divided by n−1) of xs by
// Welford's one-pass algorithm, as perfgate computes them. One value has
// variance 0; ok is false for an empty slice.
func MeanVar(xs []float64) (mean, variance float64, ok bool) {
	if len(xs) == 0 {
		return 0, 0, false
	}
	var m, m2 float64
	for i, x := range xs {
		delta := x - m
		m += delta / float64(i+1)
		m2 += delta * (x - m)
	}
	if len(xs) == 1 {
		return m, 0, true
	}
	return m, m2 / float64(len(xs)-1), true
}

// MeanStddev is [MeanVar] with the standard deviation. ok is false for an
// empty slice or when either result is not finite (perfgate then omits
// both from the summary).
func MeanStddev(xs []float64) (mean, stddev float64, ok bool) {
	m, v, ok := MeanVar(xs)
	if !ok {
		return 0, 0, false
	}
	sd := math.Sqrt(v)
	if math.IsNaN(m) || math.IsInf(m, 0) || math.IsNaN(sd) || math.IsInf(sd, 0) {
		return 0, 0, false
	}
	return m, sd, true
}

// CV is the coefficient of variation stddev/mean. It is defined only for a
// positive mean.
func CV(mean, stddev float64) (float64, bool) {
	if !(mean > 0) {
		return 0, false
	}
	return stddev / mean, true
}

// U64Summary summarizes unsigned integer samples (wall time in ms, RSS in
// KB, …) as perfgate's run receipts do; it is the receipt's own type
// (generator/receipt.U64Summary), JSON names included.
type U64Summary struct {
	Median uint64 `json:"median"`
	Min    uint64 `json:"min"`
	Max    uint64 `json:"max"`
	// Mean and Stddev are nil when they are not finite.
	Mean   *float64 `json:"mean,omitempty"`
	Stddev *float64 `json:"stddev,omitempty"`
}

// SummarizeU64 summarizes xs; ok is false for an empty slice.
func SummarizeU64(xs []uint64) (s U64Summary, ok bool) {
	if len(xs) == 0 {
		return U64Summary{}, false
	}
	s.Median = MedianU64(xs)
	s.Min, s.Max = slices.Min(xs), slices.Max(xs)
	fs := make([]float64, len(xs))
	for i, x := range xs {
		fs[i] = float64(x)
	}
	if m, sd, ok := MeanStddev(fs); ok {
		s.Mean, s.Stddev = &m, &sd
	}
	return s, true
}

// CV is the summary's coefficient of variation, when its mean is known
// and positive.
func (s U64Summary) CV() (float64, bool) {
	if s.Mean == nil || s.Stddev == nil {
		return 0, false
	}
	return CV(*s.Mean, *s.Stddev)
}

// F64Summary summarizes real-valued samples (throughput).
type F64Summary struct {
	Median float64  `json:"median"`
	Min    float64  `json:"min"`
	Max    float64  `json:"max"`
	Mean   *float64 `json:"mean,omitempty"`
	Stddev *float64 `json:"stddev,omitempty"`
}

// SummarizeF64 summarizes xs; ok is false for an empty slice.
func SummarizeF64(xs []float64) (s F64Summary, ok bool) {
	if len(xs) == 0 {
		return F64Summary{}, false
	}
	s.Median = MedianF64(xs)
	s.Min, s.Max = slices.Min(xs), slices.Max(xs)
	if m, sd, ok := MeanStddev(xs); ok {
		s.Mean, s.Stddev = &m, &sd
	}
	return s, true
}

// CV is the summary's coefficient of variation, when its mean is known
// and positive.
func (s F64Summary) CV() (float64, bool) {
	if s.Mean == nil || s.Stddev == nil {
		return 0, false
	}
	return CV(*s.Mean, *s.Stddev)
}
