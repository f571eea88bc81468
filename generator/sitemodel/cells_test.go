package sitemodel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/zscore"
	"github.com/perfpages/perfpages/generator/report"
)

// rowCells are the cells of a data file made the way they were before
// dataCells: from the row a page shows (formatRow without the cells made
// from numbers), its texts turned back into numbers. dataCells must give
// the same.
func rowCells(r *Row) cells {
	c := cells{t: fixedOf(r.ThresholdText, 2, "%"), f: fixedOf(r.FactorText, 2, "x"), z: fixedOf(r.Z, 2, ""),
		hasChange: r.HasChange, change: r.Change, note: r.Note, pt: r.PTitle, bt: r.BudgetTitle, ack: r.Ack, ev: r.Evidence}
	p, verdict := r.P, ""
	if i := strings.IndexByte(p, ' '); i > 0 {
		p, verdict = p[:i], p[i+1:]
	}
	c.p = fixedOf(p, 3, "")
	if p == "<0.001" {
		c.p = Fixed{set: true, neg: true, n: 1}
	}
	k, ok := rowCodes(codeFields{magnitude: r.Magnitude, dir: r.Dir, zClass: r.ZClass, pClass: r.PClass, verdict: verdict,
		budget: r.Budget, budgetText: r.BudgetText, class: r.Class, basis: r.Basis, state: r.State,
		hasChange: r.HasChange, relevant: r.Relevant, dodgy: r.Dodgy})
	if !ok {
		c.p, k = Fixed{set: r.P != "", text: r.P}, 0
	}
	c.k = k
	if r.Z == "" || r.Z == "–" {
		c.zr = r.ZTitle
	}
	return c
}

// TestDataCells checks dataCells against the cells of the formatted row,
// on the rows of the small data sets' comparisons and on random rows with
// every kind of number the formats treat apart (0, −0, halves, NaN, ±Inf,
// the exponent form, tiny p-values, capped z-scores).
func TestDataCells(t *testing.T) {
	d := smallDataset(t)
	res := analysis.Analyze(d, analysis.AnalyzeOptions{Compare: analysis.DefaultOptions, Tests: analysis.NewTestCache()})
	pl := NewPlan(res, smallOptions())
	p := pl.p
	check := func(r *analysis.Row) {
		t.Helper()
		want, got := rowCells(ptr(p.formatRow(r, false))), p.dataCells(r)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(cells{}, Fixed{}), cmp.Comparer(func(a, b float64) bool {
			return math.Float64bits(a) == math.Float64bits(b)
		})); diff != "" {
			t.Fatalf("row %+v: dataCells differ from the formatted row's (-want +got):\n%s", r, diff)
		}
	}
	for pos := 1; pos < len(d.MainLine); pos++ {
		c := res.Compare(d.MainLine[pos-1], d.MainLine[pos])
		for k := range c.Rows {
			check(&c.Rows[k])
		}
	}

	rng := rand.New(rand.NewPCG(1, 2))
	numbers := []float64{0, math.Copysign(0, -1), 0.005, -0.005, 0.0005, 0.00049, 0.001, 0.0015, 0.125, 1.005, 2.675, -2.675,
		9.995, 10, 10.004999, 10.005, -10.005, 99.995, 1e4 - 1e-9, 1e4, 1e6, -1e6, 999999.995, 1e12, 1e-300, 5e-324,
		math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64}
	num := func() float64 {
		switch rng.IntN(3) {
		case 0:
			return numbers[rng.IntN(len(numbers))]
		case 1:
			return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(16)-8))
		}
		// Near a rounding edge of two or three decimals.
		return (float64(rng.IntN(200000)-100000) + 0.5) / math.Pow(10, float64(2+rng.IntN(3)))
	}
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	s := d.Series[0]
	for range 20000 {
		r := analysis.Row{Series: s, Note: pick("", "failed: x"), OK: rng.IntN(4) > 0, Change: num(), Threshold: num(), Factor: num(),
			Regression: rng.IntN(2) == 0, Relevant: rng.IntN(2) == 0, Dodgy: rng.IntN(5) == 0, FromZero: rng.IntN(8) == 0,
			Magnitude: analysis.Magnitude(rng.IntN(6)),
			Basis:     analysis.SignificanceBasis(pick("", "history", "short-history", "persistence", "noise", "not-enough-history", "odd")),
			Headline: analysis.Verdict{State: analysis.State(pick("", "confirmed", "unconfirmed", "spike", "gradual", "not-enough-history", "odd")),
				Width: num(), Widths: num(), History: rng.IntN(40), Large: rng.IntN(2) == 0}}
		switch rng.IntN(3) {
		case 0:
			r.Z = zscore.Z{OK: true, Z: num(), Regression: rng.IntN(3) == 0, Improvement: rng.IntN(3) == 0}
		case 1:
			r.Z = zscore.Z{Reason: "too few values"}
		}
		switch rng.IntN(5) {
		case 0:
			r.Test = analysis.SampleTest{OK: true, P: math.Abs(num()), Method: analysis.MethodMannWhitney, Significant: rng.IntN(2) == 0}
		case 1:
			r.Test = analysis.SampleTest{OK: true, P: num(), Method: analysis.MethodWelch, Reason: pick("", "few samples")}
		case 2:
			r.Test = analysis.SampleTest{OK: true, P: math.Abs(num()), Method: analysis.MethodCriterion,
				Verdict:   criterion.Verdict(pick("", "no change", "improved", "regressed", "within noise", "odd")),
				Criterion: &criterion.Change{T: num()}}
		case 3:
			r.Test = analysis.SampleTest{Reason: "no samples"}
		}
		if rng.IntN(4) == 0 {
			r.Budget = &analysis.BudgetCheck{Budget: budget.Budget{Threshold: num(), WarnThreshold: num()},
				Delta: budget.Delta{Status: budget.Status(pick("pass", "warn", "fail", "skip", "odd")), Regression: num()}, Reason: pick("", "x_fail")}
		}
		check(&r)
	}
	// The fast paths agree with the texts on their own too.
	for range 200000 {
		x := num()
		if got, want := thresholdFixed(x), fixedOf(report.FormatThreshold(x), 2, "%"); got != want {
			t.Fatalf("thresholdFixed(%v) = %+v, want %+v", x, got, want)
		}
		if got, want := zFixed(x), fixedOf(report.FormatZ(x), 2, ""); got != want {
			t.Fatalf("zFixed(%v) = %+v, want %+v", x, got, want)
		}
		if got, want := factorFixed(x), fixedOf(report.FormatFactor(x), 2, "x"); got != want {
			t.Fatalf("factorFixed(%v) = %+v, want %+v", x, got, want)
		}
		want := fixedOf(report.FormatP(x), 3, "")
		if report.FormatP(x) == "<0.001" {
			want = Fixed{set: true, neg: true, n: 1}
		}
		if got := pFixed(x); got != want {
			t.Fatalf("pFixed(%v) = %+v, want %+v", x, got, want)
		}
	}
}

func ptr[T any](x T) *T { return &x }
