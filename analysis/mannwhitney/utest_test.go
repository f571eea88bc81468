package mannwhitney

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/perf/benchmath"
)

// referenceTest is Compare's test as it was before the memo: benchmath
// called on every pair.
func referenceTest(base, head []float64, o Options) (TestResult, []string) {
	o = o.normalized()
	bs, _ := clean(base)
	hs, _ := clean(head)
	switch {
	case len(bs) == 0 && len(hs) == 0:
		return TestResult{P: 1, Reason: "base and head have no samples"}, nil
	case len(bs) == 0:
		return TestResult{P: 1, Reason: "base has no samples"}, nil
	case len(hs) == 0:
		return TestResult{P: 1, Reason: "head has no samples"}, nil
	}
	bc := benchmath.AssumeNothing.Summary(&benchmath.Sample{Values: bs}, o.Confidence).Center
	hc := benchmath.AssumeNothing.Summary(&benchmath.Sample{Values: hs}, o.Confidence).Center
	thresholds := benchmath.Thresholds{CompareAlpha: o.Alpha}
	c := benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(bs), &thresholds), benchmath.NewSample(slices.Clone(hs), &thresholds))
	warnings := errorStrings(c.Warnings)
	r := TestResult{P: 1, MinP: MinP(len(bs), len(hs))}
	switch bc, hc := finiteCenter(bc, bs), finiteCenter(hc, hs); {
	case hc > bc:
		r.Shift = 1
	case hc < bc:
		r.Shift = -1
	}
	if p := c.P; p >= 0 && p <= 1 {
		r.P = p
	}
	allEqual := bs[0] == bs[len(bs)-1] && hs[0] == hs[len(hs)-1] && bs[0] == hs[0]
	r.Significant = !allEqual && r.P <= o.Alpha
	var reasons []string
	if !r.Significant {
		if len(warnings) > 0 {
			reasons = append(reasons, warnings...)
		} else {
			reasons = append(reasons, fmt.Sprintf("no significant difference: p=%.3f > alpha %v", r.P, o.Alpha))
		}
	}
	_, _, reasons = change(finiteCenter(bc, bs), finiteCenter(hc, hs), reasons)
	r.Reason = strings.Join(reasons, "; ")
	return r, warnings
}

// randomSample draws n values: distinct, with ties (few distinct levels),
// all equal, shifted against the other side, with NaN and ±Inf, zero and
// negative medians, and values near the float64 limits.
func randomSample(rng *rand.Rand, n int, kind int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		switch kind {
		case 0: // continuous
			xs[i] = 100 + rng.NormFloat64()
		case 1: // heavy ties: a few levels, like max-rss in pages
			xs[i] = 4096 * float64(20+rng.IntN(3))
		case 2: // all equal
			xs[i] = 7
		case 3: // shifted
			xs[i] = 103 + rng.NormFloat64()
		case 4: // integers with some ties
			xs[i] = float64(1000 + rng.IntN(2*n+1))
		case 5: // zero and negative medians
			xs[i] = float64(rng.IntN(3) - 2)
		case 6: // extremes
			xs[i] = []float64{math.MaxFloat64, -math.MaxFloat64, 5e-324, 0, math.Copysign(0, -1)}[rng.IntN(5)]
		}
		if rng.IntN(40) == 0 {
			xs[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
		}
	}
	return xs
}

// Test and Compare give what benchmath gives on every pair: sizes 0 to 50
// (beyond the exact limits too), with and without ties, equal samples,
// dropped values, several alphas; the memo is exercised by repeating
// pairs' keys with different values.
func TestUTestMatchesBenchmath(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	kinds := 0
	for trial := range 6000 {
		n1, n2 := rng.IntN(12), rng.IntN(12)
		if trial%10 == 0 {
			n1, n2 = rng.IntN(51), rng.IntN(51)
		}
		k1, k2 := rng.IntN(7), rng.IntN(7)
		if trial%3 == 0 {
			k2 = k1
		}
		base, head := randomSample(rng, n1, k1), randomSample(rng, n2, k2)
		o := Options{Alpha: []float64{0.05, 0.05, 0.01, 0.1, 0.3, 0.0005, 0.02857142857142857}[rng.IntN(7)]}
		want, warnings := referenceTest(base, head, o)
		bcopy, hcopy := slices.Clone(base), slices.Clone(head)
		got := Test(base, head, o)
		if diff := cmp.Diff(want, got, cmp.Comparer(sameFloat)); diff != "" || math.Float64bits(want.P) != math.Float64bits(got.P) {
			t.Fatalf("Test(%v, %v, %v) (-benchmath +Test):\n%s", base, head, o, diff)
		}
		c := Compare(base, head, o)
		if math.Float64bits(c.P) != math.Float64bits(want.P) || c.Significant != want.Significant || c.Reason != want.Reason || !slices.Equal(c.Warnings, warnings) {
			t.Fatalf("Compare(%v, %v, %v) = %+v, want %+v and warnings %q", base, head, o, c, want, warnings)
		}
		if !slices.EqualFunc(base, bcopy, sameFloat) || !slices.EqualFunc(head, hcopy, sameFloat) {
			t.Fatalf("inputs modified")
		}
		if strings.Contains(want.Reason, "median") {
			kinds |= 1
		}
		if strings.Contains(want.Reason, "need >=") {
			kinds |= 2
		}
		if strings.Contains(want.Reason, "all samples are equal") {
			kinds |= 4
		}
		if want.Significant {
			kinds |= 8
		}
	}
	if kinds != 15 {
		t.Errorf("the random pairs missed some outcomes (bits %b of 1111)", kinds)
	}
}

// Compare's Reason is the test's clause and the change's clauses; Test's
// ends the same way, so the two agree even where Compare adds the change.
func TestTestMatchesCompareReason(t *testing.T) {
	for _, tt := range []struct{ base, head []float64 }{
		{[]float64{0, 0, 0, 1}, []float64{5, 6, 7, 8}},
		{[]float64{-3, -2, -1}, []float64{-3, -2, -1}},
		{[]float64{-3, -2, -1}, []float64{1, 2, 3}},
		{[]float64{math.MaxFloat64, math.MaxFloat64}, []float64{-math.MaxFloat64, -math.MaxFloat64}},
		{[]float64{5e-324, 5e-324, 1e-320}, []float64{1e308, 1e308, 1e308}},
	} {
		c, r := Compare(tt.base, tt.head, DefaultOptions), Test(tt.base, tt.head, DefaultOptions)
		if c.Reason != r.Reason || c.P != r.P || c.Significant != r.Significant {
			t.Errorf("%v vs %v: Compare %q p=%v %v, Test %+v", tt.base, tt.head, c.Reason, c.P, c.Significant, r)
		}
	}
}

// center is benchmath's Center for every size and all kinds of values.
func TestCenter(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := range 5000 {
		n := 1 + trial%60
		xs, _ := clean(randomSample(rng, n, rng.IntN(7)))
		if len(xs) == 0 {
			continue
		}
		want := Summarize(xs, 0.95).Center
		if got := center(xs); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("center(%v) = %v, Summarize %v", xs, got, want)
		}
	}
}

// BenchmarkTest is the significance test of a commit page's row: 5 samples
// per side with and without ties, against Compare.
func BenchmarkTest(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const pairs = 512
	for _, kind := range []int{0, 1} {
		in := make([][2][]float64, pairs)
		for i := range in {
			in[i] = [2][]float64{randomSample(rng, 5, kind), randomSample(rng, 5, kind)}
		}
		b.Run(fmt.Sprintf("Test/ties=%v", kind == 1), func(b *testing.B) {
			i := 0
			for b.Loop() {
				p := in[i%pairs]
				Test(p[0], p[1], DefaultOptions)
				i++
			}
		})
		b.Run(fmt.Sprintf("Compare/ties=%v", kind == 1), func(b *testing.B) {
			i := 0
			for b.Loop() {
				p := in[i%pairs]
				Compare(p[0], p[1], DefaultOptions)
				i++
			}
		})
	}
}
