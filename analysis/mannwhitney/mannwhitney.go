// Package mannwhitney gives the numbers benchstat prints for one row of an
// A/B table: the median of each side with its confidence interval, the
// Mann–Whitney U p-value, and the relative change of the medians.
//
// It is one of the engines of the analysis stage (see the architecture
// section of the README) and, like the rest of analysis/, takes values and
// returns values. It is a thin layer over golang.org/x/perf/benchmath under
// benchstat's default assumption (assume=nothing: non-parametric, median
// summaries, two-sided U-test) so that a comparison page shows exactly what
// `benchstat old.txt new.txt` shows for the same samples. The tests check
// that against real benchstat output committed under testdata/.
//
// What this layer adds to benchmath is a defined outcome for inputs benchstat
// never sees or turns into NaN: empty sides, NaN and ±Inf samples (dropped,
// with a warning), medians that overflow, zero and negative bases, and
// out-of-range options. P is always in [0, 1]; when no test can be run it is 1
// and [Result.Reason] says why.
//
// API (used by tests and library users, not by the build). A site calls
// [Test], which gives Compare's P, Significant and Reason without the
// intervals. [Compare], [Summarize], [Summary.RangeString],
// [Result.DeltaString] and [Result.TestString] are the whole benchstat row,
// kept as the package's public API because they are checked against real
// benchstat output (oracle_test.go replays the CSV and warnings of
// `benchstat -format csv` committed under testdata/, and example_test.go
// benchstat's documented Encode/format=json row), and Test is checked
// against Compare.
package mannwhitney

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// Options are the statistical thresholds of a comparison. Start from
// [DefaultOptions]; a field that is zero, NaN or out of range takes its
// default value, so the zero Options behaves like benchstat's defaults.
type Options struct {
	// Alpha is the significance level: a difference is significant when
	// the U-test's p-value is at most Alpha (benchstat's -alpha). Valid
	// values are in (0, 1).
	Alpha float64
	// Confidence is the level of the medians' confidence intervals
	// (benchstat's -confidence). Valid values are in (0, 1].
	Confidence float64
}

// DefaultOptions are benchstat's defaults: -alpha 0.05 -confidence 0.95.
var DefaultOptions = Options{Alpha: 0.05, Confidence: 0.95}

// normalized replaces invalid fields by their defaults.
func (o Options) normalized() Options {
	if !(o.Alpha > 0 && o.Alpha < 1) {
		o.Alpha = DefaultOptions.Alpha
	}
	if !(o.Confidence > 0 && o.Confidence <= 1) {
		o.Confidence = DefaultOptions.Confidence
	}
	return o
}

// Summary is one side of a comparison: the sample median and its confidence
// interval, as in benchstat's "1.718µ ± 1%" cells.
type Summary struct {
	// Center is the sample median (benchmath's R8 quantile). It is NaN
	// only when N is 0.
	Center float64
	// Lo and Hi bound the confidence interval of the median, taken from
	// order statistics. They are -Inf and +Inf when the sample is too
	// small for the requested confidence (fewer than 6 samples at 0.95),
	// exactly as benchstat shows "± ∞".
	Lo, Hi float64
	// Confidence is the actual confidence level of [Lo, Hi]; order
	// statistics make it at least the requested level.
	Confidence float64
	// N is the number of samples used (non-finite values are dropped).
	N int
	// Warnings are benchstat's footnotes for this cell (such as "need >= 6
	// samples for confidence interval at level 0.95") and notes about
	// dropped values.
	Warnings []string
}

// RangeString formats the confidence interval as benchstat's "±" column: the
// larger distance from the median to either bound as a whole percentage of
// the median ("1%"), "∞" when a bound is infinite, "?" when the bounds
// differ in sign from the median, and "0%" for a zero median with zero
// bounds.
func (s Summary) RangeString() string {
	if s.N == 0 {
		return "∞"
	}
	return benchmath.Summary{Center: s.Center, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
}

// Result is one row of benchstat's A/B table: base and head summaries and
// their comparison.
type Result struct {
	Base, Head Summary
	// P is the two-sided Mann–Whitney U p-value, in [0, 1]. It is 1 when
	// no test could be run (a side without samples, or all samples equal).
	P float64
	// Alpha is the significance level the result was judged with.
	Alpha float64
	// Change is Head.Center/Base.Center − 1, benchstat's "vs base"
	// percentage divided by 100; valid when ChangeOK. It is computed
	// whether or not the difference is significant.
	Change float64
	// ChangeOK reports whether Change is meaningful: both medians exist,
	// they are equal (Change is 0) or the base median is positive, and
	// the ratio is finite.
	ChangeOK bool
	// Significant reports whether the U-test ran and P ≤ Alpha. Benchstat
	// prints the percentage then, and "~" otherwise.
	Significant bool
	// Reason says why the difference is not significant or why there is
	// no Change, clauses joined by "; ". It is empty when Significant and
	// ChangeOK.
	Reason string
	// Warnings are benchstat's footnotes for the "vs base" cell, such as
	// "all samples are equal" or "need >= 4 samples to detect a
	// difference at alpha level 0.05".
	Warnings []string
}

// DeltaString formats the change as benchstat's "vs base" column: "~" when
// the difference is not significant, "0.00%" for equal medians, "?" for a
// zero base median, and otherwise the signed percentage with two decimals
// ("-17.20%"). A negative base gives benchstat's number even though
// ChangeOK is false.
func (r Result) DeltaString() string {
	if r.Base.N == 0 || r.Head.N == 0 {
		return "~"
	}
	return r.comparison().FormatDelta(r.Base.Center, r.Head.Center)
}

// TestString formats the test as benchstat's "(p=0.000 n=10)" annotation,
// without the parentheses: "p=0.446 n=10", or "p=0.008 n=5+7" for unequal
// sizes.
func (r Result) TestString() string {
	return r.comparison().String()
}

func (r Result) comparison() benchmath.Comparison {
	return benchmath.Comparison{P: r.P, N1: r.Base.N, N2: r.Head.N, Alpha: r.Alpha}
}

// Summarize returns the median of xs and its confidence interval at the given
// level (benchstat's cell for one sample). NaN and ±Inf values are dropped
// with a warning; an invalid confidence takes DefaultOptions.Confidence. xs
// is not modified.
func Summarize(xs []float64, confidence float64) Summary {
	o := Options{Confidence: confidence}.normalized()
	sorted, warnings := clean(xs)
	return summarize(sorted, o.Confidence, warnings)
}

// Compare summarizes base and head and tests whether they differ, as benchstat
// does for a row whose first column is base. Neither slice is modified.
func Compare(base, head []float64, o Options) Result {
	o = o.normalized()
	bs, bw := clean(base)
	hs, hw := clean(head)
	r := Result{
		Base:  summarize(bs, o.Confidence, bw),
		Head:  summarize(hs, o.Confidence, hw),
		P:     1,
		Alpha: o.Alpha,
	}

	var reasons []string
	switch {
	case len(bs) == 0 && len(hs) == 0:
		reasons = append(reasons, "base and head have no samples")
	case len(bs) == 0:
		reasons = append(reasons, "base has no samples")
	case len(hs) == 0:
		reasons = append(reasons, "head has no samples")
	default:
		u := uTest(bs, hs, o.Alpha)
		r.Warnings = slices.Clone(u.warnings)
		r.P, r.Significant = u.p, u.significant
		if u.reason != "" {
			reasons = append(reasons, u.reason)
		}
		r.Change, r.ChangeOK, reasons = change(r.Base.Center, r.Head.Center, reasons)
	}
	r.Reason = strings.Join(reasons, "; ")
	return r
}

// TestResult is the significance part of a [Result]: what a table column
// of p-values needs.
type TestResult struct {
	P           float64
	Significant bool
	Reason      string
	// Shift is the sign (−1, 0, +1) of the head's median minus the base's:
	// the direction of the difference benchstat's delta reports.
	Shift int
	// MinP is the smallest p-value the test can give for these sample
	// sizes, 2 / C(n₁+n₂, n₁) (benchmath's uTestMinP for equal sizes): a
	// test whose MinP is above alpha can never find a difference, which is
	// when benchstat warns "need >= 4 samples to detect a difference".
	MinP float64
}

// MinP is the smallest two-sided p-value of the exact U test of samples
// of n1 and n2 values without ties, 2 / C(n1+n2, n1), at most 1.
func MinP(n1, n2 int) float64 {
	c := 1.0 // C(n2+k, k) for k = 1 … n1
	for k := 1; k <= n1; k++ {
		c = c * float64(n2+k) / float64(k)
	}
	return min(2/c, 1)
}

// Test returns Compare(base, head, o)'s P, Significant and Reason, bit for
// bit and string for string, without the confidence intervals and the
// relative change: a commit page tests thousands of pairs of samples and
// shows only whether they differ. Neither slice is modified.
func Test(base, head []float64, o Options) TestResult {
	o = o.normalized()
	var bbuf, hbuf [16]float64
	bs, hs := cleanInto(bbuf[:0], base), cleanInto(hbuf[:0], head)
	switch {
	case len(bs) == 0 && len(hs) == 0:
		return TestResult{P: 1, Reason: "base and head have no samples"}
	case len(bs) == 0:
		return TestResult{P: 1, Reason: "base has no samples"}
	case len(hs) == 0:
		return TestResult{P: 1, Reason: "head has no samples"}
	}
	u := uTest(bs, hs, o.Alpha)
	cb, ch := center(bs), center(hs)
	t := TestResult{P: u.p, Significant: u.significant, Reason: u.reason, MinP: MinP(len(bs), len(hs))}
	switch {
	case ch > cb:
		t.Shift = 1
	case ch < cb:
		t.Shift = -1
	}
	if _, _, more := change(cb, ch, nil); len(more) > 0 {
		if t.Reason != "" {
			more = append([]string{t.Reason}, more...)
		}
		t.Reason = strings.Join(more, "; ")
	}
	return t
}

// change is benchstat's relative change of the medians (FormatDelta's
// new/old − 1), restricted to bases where its sign means what it says.
func change(base, head float64, reasons []string) (float64, bool, []string) {
	switch {
	case base == head:
		return 0, true, reasons
	case base == 0:
		return 0, false, append(reasons, "base median is zero")
	case base < 0:
		return 0, false, append(reasons, "base median is negative: a relative change would have a misleading sign")
	}
	c := head/base - 1
	if math.IsInf(c, 0) || math.IsNaN(c) {
		return 0, false, append(reasons, "relative change overflows")
	}
	return c, true, reasons
}

// clean returns the finite values of xs, sorted, in a new slice (benchmath
// sorts in place), and a warning when some were dropped.
func clean(xs []float64) ([]float64, []string) {
	out := cleanInto(make([]float64, 0, len(xs)), xs)
	if dropped := len(xs) - len(out); dropped > 0 {
		return out, []string{fmt.Sprintf("ignored %d non-finite %s (NaN or ±Inf)", dropped, plural(dropped, "sample", "samples"))}
	}
	return out, nil
}

// cleanInto appends the finite values of xs to dst and sorts them.
func cleanInto(dst, xs []float64) []float64 {
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			dst = append(dst, x)
		}
	}
	if len(dst) > 12 {
		slices.Sort(dst)
		return dst
	}
	// Few values: an insertion sort without slices.Sort's NaN handling
	// (there are none).
	for i := 1; i < len(dst); i++ {
		for j := i; j > 0 && dst[j] < dst[j-1]; j-- {
			dst[j], dst[j-1] = dst[j-1], dst[j]
		}
	}
	return dst
}

func summarize(sorted []float64, confidence float64, warnings []string) Summary {
	if len(sorted) == 0 {
		return Summary{
			Center:     math.NaN(),
			Lo:         math.Inf(-1),
			Hi:         math.Inf(1),
			Confidence: 1,
			Warnings:   append(warnings, "no samples"),
		}
	}
	s := benchmath.AssumeNothing.Summary(&benchmath.Sample{Values: sorted}, confidence)
	return Summary{
		Center:     finiteCenter(s.Center, sorted),
		Lo:         s.Lo,
		Hi:         s.Hi,
		Confidence: s.Confidence,
		N:          len(sorted),
		Warnings:   append(warnings, errorStrings(s.Warnings)...),
	}
}

// finiteCenter is the center benchmath computed for a non-empty sorted
// sample, or its median when that is not finite: benchmath interpolates as
// a + f·(b − a), which overflows when the two middle values are near
// ±MaxFloat64 with opposite signs.
func finiteCenter(c float64, sorted []float64) float64 {
	if math.IsNaN(c) || math.IsInf(c, 0) {
		return median(sorted)
	}
	return c
}

// center is the Center of Summarize for a non-empty sorted sample without
// the confidence interval: benchmath's center is go-moremath's R8 sample
// quantile at 0.5 (stats.Sample.Quantile), restated here in the same
// operations (TestCenter checks it against Summarize).
func center(sorted []float64) float64 {
	return finiteCenter(quantile.BenchstatR8(sorted, 0.5), sorted)
}

// median of a non-empty sorted sample, computed without overflow
// ([quantile.HalvesMedian]). For q = 0.5 benchmath's R8 quantile is the
// middle value or the mean of the two middle values.
func median(sorted []float64) float64 { return quantile.HalvesMedian(sorted) }

func errorStrings(errs []error) []string {
	if len(errs) == 0 {
		return nil
	}
	out := make([]string, len(errs))
	for i, err := range errs {
		out[i] = err.Error()
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
