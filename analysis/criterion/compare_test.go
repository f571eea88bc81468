package criterion

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fastOptions keeps the tests quick; the structure of every bootstrap is
// the same at any size.
func fastOptions() Options {
	o := DefaultOptions
	o.NResamples = 20_000
	return o
}

// gaussian is a linear-sampling run of n samples whose time per iteration
// is perIter with a relative noise of sd, from a fixed seed.
func gaussian(seed uint64, n int, perIter, sd float64) Sample {
	rng := rand.New(rand.NewPCG(seed, 1))
	var s Sample
	for i := range n {
		it := float64(100 * (i + 1))
		s.Iters = append(s.Iters, it)
		s.Times = append(s.Times, it*perIter*(1+sd*rng.NormFloat64()))
	}
	return s
}

func TestVerdictOf(t *testing.T) {
	o := DefaultOptions // α = 0.05, noise = 0.01
	tests := []struct {
		name   string
		p      float64
		lo, hi float64
		want   Verdict
	}{
		{"p above α", 0.3, 0.05, 0.08, NoChange},
		{"p equal to α is not significant (strict <)", 0.05, 0.05, 0.08, NoChange},
		{"p just below α", math.Nextafter(0.05, 0), 0.05, 0.08, Regressed},
		{"p = 0", 0, 0.05, 0.08, Regressed},
		{"both bounds below −noise", 0.001, -0.08, -0.05, Improved},
		{"upper bound on −noise is not beyond it", 0.001, -0.08, -0.01, WithinNoise},
		{"lower bound on +noise is not beyond it", 0.001, 0.01, 0.08, WithinNoise},
		{"interval straddles zero", 0.001, -0.02, 0.02, WithinNoise},
		{"interval inside the noise", 0.001, -0.005, 0.005, WithinNoise},
		{"book Recursive: ub −0.0022 > −0.01", 0.02, -0.022760338155223825, -0.002236127647050845, WithinNoise},
		{"book Iterative: not significant", 0.65, -0.008476297386567844, 0.013287745367767459, NoChange},
		{"NaN p is not significant", math.NaN(), 0.05, 0.08, NoChange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := VerdictOf(tt.p, tt.lo, tt.hi, o); got != tt.want {
				t.Errorf("VerdictOf(%v, %v, %v) = %v, want %v", tt.p, tt.lo, tt.hi, got, tt.want)
			}
		})
	}
	zero := DefaultOptions
	zero.NoiseThreshold = 0
	if got := VerdictOf(0.01, 0.0001, 0.001, zero); got != Regressed {
		t.Errorf("noise 0: VerdictOf = %v, want regressed", got)
	}
}

func TestVerdictText(t *testing.T) {
	want := map[Verdict][2]string{
		NoChange:    {"no change", "No change in performance detected."},
		Improved:    {"improved", "Performance has improved."},
		Regressed:   {"regressed", "Performance has regressed."},
		WithinNoise: {"within noise", "Change within noise threshold."},
	}
	for v, w := range want {
		if v.String() != w[0] || v.Text() != w[1] {
			t.Errorf("%q: String, Text = %q, %q; want %q, %q", string(v), v.String(), v.Text(), w[0], w[1])
		}
	}
}

func TestPValue(t *testing.T) {
	tests := []struct {
		name string
		ts   []float64
		t    float64
		want float64
	}{
		{"hand-computed: hits 8 of 10", []float64{-3, -2, -1, -0.5, 0, 0.5, 1, 2, 3, 4}, 2.5, 0.4},
		{"ties are not hits (strictly less)", []float64{1, 1, 1, 1}, 1, 0},
		{"t beyond every value", []float64{1, 2, 3}, 10, 0},
		{"t below every value", []float64{1, 2, 3}, -10, 0},
		{"t in the middle", []float64{1, 2, 3, 4}, 2.5, 1},
		{"non-finite values are dropped (N = 4)", []float64{math.NaN(), 1, math.Inf(1), 2, 3, math.Inf(-1), 4}, 2.5, 1},
		{"no finite values", []float64{math.NaN()}, 1, 1},
		{"empty", nil, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PValue(tt.ts, tt.t); got != tt.want {
				t.Errorf("PValue(%v, %v) = %v, want %v", tt.ts, tt.t, got, tt.want)
			}
		})
	}
}

func TestFormatChange(t *testing.T) {
	tests := []struct {
		name string
		c    Change
		want string
	}{
		{
			"magnitudes pick the decimals (4, 3, 2, 1, 0)",
			Change{Mean: Estimate{Lower: -0.5, Point: 5, Upper: 123.456}, P: 0, SignificanceLevel: 0.05},
			"change: [-50.000% +500.00% +12346%] (p = 0.00 < 0.05)",
		},
		{
			"thousands keep one decimal",
			Change{Mean: Estimate{Lower: 12.3456, Point: 12.3456, Upper: 12.3456}, P: 0.001, SignificanceLevel: 0.05},
			"change: [+1234.6% +1234.6% +1234.6%] (p = 0.00 < 0.05)",
		},
		{
			"zero and p equal to α",
			Change{P: 0.05, SignificanceLevel: 0.05},
			"change: [+0.0000% +0.0000% +0.0000%] (p = 0.05 > 0.05)",
		},
		{
			"another α",
			Change{Mean: Estimate{Lower: -0.1, Point: -0.05, Upper: -0.02}, P: 0.004, SignificanceLevel: 0.01},
			"change: [-10.000% -5.0000% -2.0000%] (p = 0.00 < 0.01)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatChange(tt.c); got != tt.want {
				t.Errorf("FormatChange = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCompareKnownPointEstimates(t *testing.T) {
	// The hand-computed second Welch pair, as plain per-run values (nil Iters).
	cur := Sample{Times: []float64{10.0, 10.2, 9.9, 10.1, 10.3, 9.8, 10.0, 10.4}}
	base := Sample{Times: []float64{11.0, 11.3, 10.9, 11.2, 11.1, 10.8, 11.4, 11.0}}
	c, err := Compare(cur, base, 1, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	if c.T != -9.84731927834664 || c.Mean.Point != -0.09019165727170253 || c.Median.Point != -0.0904977375565611 {
		t.Errorf("T, mean change, median change = %v, %v, %v; want -9.84731927834664, -0.09019165727170253, -0.0904977375565611", c.T, c.Mean.Point, c.Median.Point)
	}
	if c.Verdict != Improved || !(c.P < 0.05) {
		t.Errorf("verdict %v with p = %v; want improved, p < 0.05", c.Verdict, c.P)
	}
}

func TestCompareSanity(t *testing.T) {
	base := gaussian(1, 100, 1000, 0.02)
	tests := []struct {
		name     string
		cur      Sample
		want     Verdict
		wantPMin float64 // p must be ≥ this
		wantPMax float64 // and ≤ this
	}{
		{"10 % slower", gaussian(2, 100, 1100, 0.02), Regressed, 0, 0.001},
		{"10 % faster", gaussian(3, 100, 900, 0.02), Improved, 0, 0.001},
		{"identical sample", base, NoChange, 0.9, 1},
		{"same distribution, other draws", gaussian(4, 100, 1000, 0.02), NoChange, 0.05, 1},
		{"0.3 % slower with 0.1 % noise: significant, within noise", gaussian(5, 100, 1003, 0.001), WithinNoise, 0, 0.05},
	}
	if tests[4].cur.Validate() != nil {
		t.Fatal("bad fixture")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := base
			if tt.name == "0.3 % slower with 0.1 % noise: significant, within noise" {
				b = gaussian(6, 100, 1000, 0.001)
			}
			c, err := Compare(tt.cur, b, Seed(tt.name), fastOptions())
			if err != nil {
				t.Fatal(err)
			}
			if c.Verdict != tt.want || c.P < tt.wantPMin || c.P > tt.wantPMax {
				t.Errorf("verdict %v, p = %v; want %v with p in [%v, %v] (%s)", c.Verdict, c.P, tt.want, tt.wantPMin, tt.wantPMax, FormatChange(c))
			}
			if !(c.Mean.Lower <= c.Mean.Point && c.Mean.Point <= c.Mean.Upper) || !(c.Median.Lower <= c.Median.Point && c.Median.Point <= c.Median.Upper) {
				t.Errorf("point estimates outside their intervals: %+v", c)
			}
			if c.NResamples != fastOptions().NResamples {
				t.Errorf("NResamples = %d, want %d (no t should be non-finite with 100 samples)", c.NResamples, fastOptions().NResamples)
			}
		})
	}
}

func TestCompareZeroVariance(t *testing.T) {
	tests := []struct {
		name      string
		cur, base Sample
		want      Change
	}{
		{
			"both constant and equal: p = 1, no change",
			Sample{Times: []float64{5, 5, 5}}, Sample{Times: []float64{5, 5}},
			Change{T: 0, P: 1, Mean: Estimate{ConfidenceLevel: 0.95}, Median: Estimate{ConfidenceLevel: 0.95}, Verdict: NoChange},
		},
		{
			"both constant, 2 % slower: p = 0, the interval decides",
			Sample{Times: []float64{102, 102, 102}}, Sample{Times: []float64{100, 100}},
			Change{T: math.Inf(1), P: 0, Mean: Estimate{Point: 0.02, Lower: 0.02, Upper: 0.02, ConfidenceLevel: 0.95},
				Median: Estimate{Point: 0.02, Lower: 0.02, Upper: 0.02, ConfidenceLevel: 0.95}, Verdict: Regressed},
		},
		{
			"both constant and equal, with a naive mean that is not exactly 0.1",
			Sample{Times: []float64{0.1, 0.1, 0.1}}, Sample{Times: []float64{0.1, 0.1}},
			Change{T: 0, P: 1, Mean: Estimate{Point: 2.220446049250313e-16, Lower: 2.220446049250313e-16, Upper: 2.220446049250313e-16, ConfidenceLevel: 0.95},
				Median: Estimate{ConfidenceLevel: 0.95}, Verdict: NoChange},
		},
		{
			"both constant, 0.5 % faster: within noise",
			Sample{Times: []float64{99.5, 99.5}}, Sample{Times: []float64{100, 100}},
			Change{T: math.Inf(-1), P: 0, Mean: Estimate{Point: -0.005, Lower: -0.005, Upper: -0.005, ConfidenceLevel: 0.95},
				Median: Estimate{Point: -0.005, Lower: -0.005, Upper: -0.005, ConfidenceLevel: 0.95}, Verdict: WithinNoise},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Compare(tt.cur, tt.base, 3, fastOptions())
			if err != nil {
				t.Fatal(err)
			}
			tt.want.SignificanceLevel, tt.want.NoiseThreshold = 0.05, 0.01
			// The relative changes are computed, not typed, and the standard
			// error of N equal values is not exactly 0 with naive summation
			// of their mean (Criterion's too): compare to 1e-13.
			approx := cmp.Comparer(func(x, y float64) bool { return x == y || math.Abs(x-y) < 1e-13 })
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("Change (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompareDeterminism(t *testing.T) {
	cur, base := gaussian(10, 50, 1000, 0.05), gaussian(11, 50, 1010, 0.05)
	o := fastOptions()
	first, err := Compare(cur, base, 99, o)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Compare(cur, base, 99, o)
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("same seed, different Change (-first +again):\n%s", diff)
	}
	other, _ := Compare(cur, base, 100, o)
	if other.Mean.Lower == first.Mean.Lower && other.Mean.Upper == first.Mean.Upper && other.P == first.P {
		t.Errorf("seeds 99 and 100 give the same interval and p: %+v", other)
	}
	if other.T != first.T || other.Mean.Point != first.Mean.Point || other.Median.Point != first.Median.Point {
		t.Errorf("point estimates depend on the seed: %+v vs %+v", other, first)
	}

	// Concurrent calls share nothing: the results equal the sequential ones.
	var wg sync.WaitGroup
	results := make([]Change, 8)
	for i := range results {
		wg.Go(func() {
			results[i], _ = Compare(cur, base, 99, o)
		})
	}
	wg.Wait()
	for i, r := range results {
		if diff := cmp.Diff(first, r); diff != "" {
			t.Errorf("concurrent call %d differs (-sequential +concurrent):\n%s", i, diff)
		}
	}
}

func TestCompareVerdictOnly(t *testing.T) {
	cur, base := gaussian(20, 100, 1030, 0.02), gaussian(21, 100, 1000, 0.02)
	full, err := Compare(cur, base, 5, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	o := fastOptions()
	o.VerdictOnly = true
	fast, err := Compare(cur, base, 5, o)
	if err != nil {
		t.Fatal(err)
	}
	want := full
	want.Median = Estimate{Point: full.Median.Point, Lower: full.Median.Point, Upper: full.Median.Point}
	if diff := cmp.Diff(want, fast); diff != "" {
		t.Errorf("VerdictOnly changed more than the median interval (-want +got):\n%s", diff)
	}
	if full.Median.Lower == full.Median.Upper {
		t.Errorf("full run has no median interval: %+v", full.Median)
	}
}

func TestCompareErrors(t *testing.T) {
	good := Sample{Times: []float64{1, 2, 3}}
	tests := []struct {
		name      string
		cur, base Sample
		o         func(*Options)
		want      string
		is        error
	}{
		{"current has one sample", Sample{Times: []float64{1}}, good, nil, "current sample: needs at least 2 samples, got 1", ErrTooFewSamples},
		{"baseline is empty", good, Sample{}, nil, "baseline sample: needs at least 2 samples, got 0", ErrTooFewSamples},
		{"length mismatch", Sample{Iters: []float64{1, 2}, Times: []float64{1, 2, 3}}, good, nil, "current sample: 2 iteration counts for 3 times", nil},
		{"zero time", good, Sample{Times: []float64{1, 0}}, nil, "baseline sample: times[1] = 0: not a positive number", nil},
		{"negative time", Sample{Times: []float64{-1, 2}}, good, nil, "current sample: times[0] = -1: not a positive number", nil},
		{"NaN time", Sample{Times: []float64{1, math.NaN()}}, good, nil, "current sample: times[1] = NaN: not a finite number", nil},
		{"infinite time", Sample{Times: []float64{math.Inf(1), 1}}, good, nil, "current sample: times[0] = +Inf: not a finite number", nil},
		{"zero iterations", Sample{Iters: []float64{1, 0}, Times: []float64{1, 2}}, good, nil, "current sample: iters[1] = 0: not a positive number", nil},
		{"huge time", Sample{Times: []float64{1e200, 1}}, good, nil, "current sample: times[0] = 1e+200: out of the range 1e-140 to 1e+140", nil},
		{"time per iteration too small", Sample{Iters: []float64{1e100, 1}, Times: []float64{1e-100, 1}}, good, nil, "current sample: times[0] / iters[0] = 1e-100 / 1e+100: out of the range 1e-140 to 1e+140", nil},
		{"no resamples", good, good, func(o *Options) { o.NResamples = 0 }, "nresamples must be positive, got 0", nil},
		{"too many resamples", good, good, func(o *Options) { o.NResamples = MaxResamples + 1 }, "nresamples 10000001 is above the limit of 10000000", nil},
		{"confidence level 1", good, good, func(o *Options) { o.ConfidenceLevel = 1 }, "confidence level must be in (0, 1), got 1", nil},
		{"significance level 0", good, good, func(o *Options) { o.SignificanceLevel = 0 }, "significance level must be in (0, 1), got 0", nil},
		{"negative noise", good, good, func(o *Options) { o.NoiseThreshold = -0.01 }, "noise threshold must be a non-negative number, got -0.01", nil},
		{"NaN noise", good, good, func(o *Options) { o.NoiseThreshold = math.NaN() }, "noise threshold must be a non-negative number, got NaN", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := fastOptions()
			if tt.o != nil {
				tt.o(&o)
			}
			_, err := Compare(tt.cur, tt.base, 1, o)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Compare error = %v, want %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
			if strings.HasPrefix(tt.want, "current sample: ") {
				_, aerr := Analyze(tt.cur, 1, o)
				if want := strings.TrimPrefix(tt.want, "current sample: "); aerr == nil || aerr.Error() != want {
					t.Errorf("Analyze error = %v, want %q", aerr, want)
				}
			}
		})
	}
}
