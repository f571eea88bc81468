// Package quantile is the one family of medians and quantiles of
// perfpages, each definition named after the upstream whose numbers it
// must reproduce. They differ in the last bits, and
// the last bits matter: a reproduced Criterion interval or Conbench
// z-score is checked against the upstream's own output, so each package
// uses the definition of the tool it reproduces, by name, from here.
//
//   - [Median]: the middle value, or (a+b)/2 of the two middle values:
//     rustc-perf's median (its IQR quartiles) and perfgate's f64 median.
//   - [FloorMedianU64]: perfgate's u64 median, the floor of the average.
//   - [HalvesMedian]: a/2 + b/2, benchstat's overflow-free median, also the
//     step detector's (via [SelectHalvesMedian], by selection).
//   - [Linear]: rank q·(n−1), lo + (hi−lo)·frac: Criterion's
//     Percentiles::at (its median is Linear(0.5)) and perfgate's p95.
//   - [Conbench]: numpy's default "linear" percentile as pandas computes
//     it, with numpy's lerp from the nearer end.
//   - [BenchstatR8]: go-moremath's R8 sample quantile, benchstat's center.
//
// It is a leaf: analysis and every engine package under it import it,
// and it imports nothing of perfpages.
//
// Every function takes its data sorted ascending (except the Select*
// ones, which reorder, and [LinearOf], which sorts a copy); none but
// LinearOf of more than 16 values allocates.
package quantile

import (
	"math"
	"slices"
)

// Median is the median of sorted as rustc-perf and perfgate's f64 summary
// compute it: the middle value, or the sum of the two middle values over
// 2 for an even count. NaN for no data.
func Median(sorted []float64) float64 {
	n := len(sorted)
	switch {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// FloorMedianU64 is perfgate's median of unsigned integers: the middle
// value, or for an even count the floor of the average of the two middle
// values, computed as a/2 + b/2 + (a%2 + b%2)/2 so that it cannot
// overflow ([10 20 30 40] → 25, [1 2] → 1). 0 for no data.
func FloorMedianU64(sorted []uint64) uint64 {
	n := len(sorted)
	switch {
	case n == 0:
		return 0
	case n%2 == 1:
		return sorted[n/2]
	}
	a, b := sorted[n/2-1], sorted[n/2]
	return a/2 + b/2 + (a%2+b%2)/2
}

// HalvesMedian is the median as a/2 + b/2 of the two middle values, which
// cannot overflow near ±MaxFloat64: benchstat's median (the fallback of
// its R8 center) and the step detector's. NaN for no data.
func HalvesMedian(sorted []float64) float64 {
	n := len(sorted)
	switch {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return sorted[n/2]
	}
	return sorted[n/2-1]/2 + sorted[n/2]/2
}

// Linear is the q-quantile (0 ≤ q ≤ 1) by linear interpolation between
// the order statistics around rank q·(n−1), as lo + (hi−lo)·frac:
// Criterion's Percentiles::at (with q = p/100; the same operations in the
// same order, so its intervals reproduce bit for bit) and perfgate's p95.
// q is clamped to [0, 1] (NaN counts as 0); NaN for no data.
func Linear(sorted []float64, q float64) float64 {
	last := len(sorted) - 1
	switch {
	case last < 0:
		return math.NaN()
	case q >= 1 || last == 0:
		return sorted[last]
	case !(q > 0): // also NaN
		q = 0
	}
	n, fraction := LinearRank(q, len(sorted))
	if n >= last { // q just below 1 can round the rank up to the last index
		return sorted[last]
	}
	return LinearBetween(sorted[n], sorted[n+1], fraction)
}

// LinearRank splits Linear's rank q·(n−1) into the index of the lower
// order statistic and the interpolation fraction, for callers that find
// the order statistics by selection instead of sorting (Criterion's
// bootstrap).
func LinearRank(q float64, n int) (int, float64) {
	rank := q * float64(n-1)
	integer := math.Floor(rank)
	return int(integer), rank - integer
}

// LinearBetween is Linear's interpolation between the order statistics
// floor and ceiling. With fraction 0 it returns floor itself, so callers
// may pass any finite ceiling then. The explicit conversion keeps the
// compiler from fusing the multiply and add, which Criterion does not.
func LinearBetween(floor, ceiling, fraction float64) float64 {
	return floor + float64((ceiling-floor)*fraction)
}

// Conbench is numpy's default ("linear") percentile, the one pandas'
// Series.quantile uses and so Conbench's: virtual index (n−1)·q, computed
// in that form as numpy does (n·q + (1−q) − 1 rounds differently, and
// Conbench's trimming compares data with the quantile exactly), then
// numpy's two-sided interpolation between the neighbours (see [numpyLerp]).
// NaN for no data.
func Conbench(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	virtual := float64(n-1) * q
	if virtual <= 0 {
		return sorted[0]
	}
	if virtual >= float64(n-1) {
		return sorted[n-1]
	}
	lo := math.Floor(virtual)
	i := int(lo)
	return numpyLerp(sorted[i], sorted[i+1], virtual-lo)
}

// numpyLerp interpolates like numpy's _lerp, which counts from the nearer
// end so that the result stays inside [a, b].
func numpyLerp(a, b, t float64) float64 {
	if t == 0 {
		return a
	}
	d := b - a
	if t >= 0.5 {
		return b - d*(1-t)
	}
	return a + d*t
}

// BenchstatR8 is go-moremath's R8 sample quantile (stats.Sample.Quantile),
// benchstat's center at q = 0.5, in the same operations: position
// 1/3 + q·(n + 1/3), interpolated as a + f·(b − a). It overflows to ±Inf
// when the neighbours are near ±MaxFloat64 with opposite signs; benchstat
// then falls back to [HalvesMedian]. NaN for no data.
func BenchstatR8(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	n := 1/3.0 + q*(float64(len(sorted))+1/3.0)
	kf, frac := math.Modf(n)
	k := int(kf)
	switch {
	case k <= 0:
		return sorted[0]
	case k >= len(sorted):
		return sorted[len(sorted)-1]
	}
	return sorted[k-1] + frac*(sorted[k]-sorted[k-1])
}

// insertionSort sorts xs as slices.Sort does (NaNs first): for up to 12
// values slices.Sort is this same insertion sort, so the order of equal
// values (-0 and +0) is the same too, without its calls. A median of
// every point of a dataset is taken on every build.
func insertionSort(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && (xs[j] < xs[j-1] || xs[j] != xs[j] && xs[j-1] == xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// LinearOf is [Linear] of xs in any order; xs is not modified. Samples
// are usually few (five per result in the demo, and a median is taken of
// each of millions), so up to 16 are sorted on the stack.
func LinearOf(xs []float64, q float64) float64 {
	if len(xs) <= 16 {
		var buf [16]float64
		s := buf[:len(xs)]
		copy(s, xs)
		if len(s) <= 12 {
			insertionSort(s)
		} else {
			slices.Sort(s)
		}
		return Linear(s, q)
	}
	return Linear(slices.Sorted(slices.Values(xs)), q)
}
