package mannwhitney

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// cmpFloats treats NaN as equal to NaN (the median of no samples) and
// allows for the last bits of p-values computed through the U distribution.
var cmpFloats = cmp.Options{cmpopts.EquateNaNs(), cmpopts.EquateApprox(0, 1e-12)}

var (
	inf  = math.Inf(1)
	ninf = math.Inf(-1)
	nan  = math.NaN()
)

const (
	ci95n6  = 1 - 2.0/64  // actual confidence of [x(1), x(6)] for n = 6: 1 − 2·2⁻⁶
	ci95n7  = 1 - 2.0/128 // [x(1), x(7)] for n = 7
	need6   = "need >= 6 samples for confidence interval at level 0.95"
	need4   = "need >= 4 samples to detect a difference at alpha level 0.05"
	allSame = "all samples are equal"
)

func seq(from, to float64) []float64 {
	var xs []float64
	for x := from; x <= to; x++ {
		xs = append(xs, x)
	}
	return xs
}

func repeat(x float64, n int) []float64 {
	return slices.Repeat([]float64{x}, n)
}

// TestCompareBenchstatDocExample is the example in benchstat's package
// documentation (golang.org/x/perf/cmd/benchstat, doc.go): the same samples
// must print the same table.
//
//	Encode/format=json-48   1.718µ ± 1%   1.423µ ± 1%  -17.20% (p=0.000 n=10)
//	Encode/format=gob-48    3.066µ ± 0%   3.070µ ± 2%        ~ (p=0.446 n=10)
func TestCompareBenchstatDocExample(t *testing.T) {
	tests := []struct {
		name                 string
		base, head           []float64
		baseCenter           float64
		headCenter           float64
		baseRange, headRange string
		delta, test          string
		p                    float64
		significant          bool
		reason               string
	}{
		{
			name:       "json encoding got faster",
			base:       []float64{1726, 1723, 1707, 1707, 1713, 1729, 1736, 1707, 1705, 1774},
			head:       []float64{1423, 1416, 1411, 1413, 1412, 1426, 1422, 1424, 1447, 1425},
			baseCenter: 1718, headCenter: 1422.5,
			baseRange: "1%", headRange: "1%",
			delta: "-17.20%", test: "p=0.000 n=10",
			p: 0, significant: true,
		},
		{
			name:       "gob encoding did not change",
			base:       []float64{3069, 3075, 3069, 3067, 3207, 3064, 3064, 3058, 3059, 3062},
			head:       []float64{3075, 3065, 3059, 3065, 3060, 3081, 3186, 3135, 3087, 3062},
			baseCenter: 3065.5, headCenter: 3070,
			baseRange: "0%", headRange: "2%",
			delta: "~", test: "p=0.446 n=10",
			p: 0.446, reason: "no significant difference: p=0.446 > alpha 0.05",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare(tt.base, tt.head, DefaultOptions)
			got := []any{r.Base.Center, r.Head.Center, r.Base.RangeString(), r.Head.RangeString(),
				r.DeltaString(), r.TestString(), r.Significant, r.Reason}
			want := []any{tt.baseCenter, tt.headCenter, tt.baseRange, tt.headRange,
				tt.delta, tt.test, tt.significant, tt.reason}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Compare (-want +got):\n%s", diff)
			}
			if math.Abs(r.P-tt.p) > 0.0005 {
				t.Errorf("P = %v, want %v", r.P, tt.p)
			}
			if want := tt.headCenter/tt.baseCenter - 1; r.Change != want || !r.ChangeOK {
				t.Errorf("Change = %v, %v; want %v, true", r.Change, r.ChangeOK, want)
			}
		})
	}
}

// TestCompare pins the defined outcome of every awkward input: sides without
// samples, non-finite values, too few samples, equal samples, zero, negative
// and extreme medians. P-values are exact: two disjoint samples of sizes m
// and n give 2 / C(m+n, m); the tied cases (200/429 and 3/5) were checked by
// enumerating all C(m+n, m) labelings with mid-ranks.
func TestCompare(t *testing.T) {
	noSamples := Summary{Center: nan, Lo: ninf, Hi: inf, Confidence: 1, Warnings: []string{"no samples"}}
	tests := []struct {
		name       string
		base, head []float64
		opts       Options
		want       Result
		delta      string
		test       string
	}{
		{
			name: "no samples at all",
			opts: DefaultOptions,
			want: Result{Base: noSamples, Head: noSamples, P: 1, Alpha: 0.05,
				Reason: "base and head have no samples"},
			delta: "~", test: "p=1.000 n=0",
		},
		{
			name: "no base samples",
			head: seq(1, 6),
			opts: DefaultOptions,
			want: Result{
				Base:   noSamples,
				Head:   Summary{Center: 3.5, Lo: 1, Hi: 6, Confidence: ci95n6, N: 6},
				P:      1,
				Alpha:  0.05,
				Reason: "base has no samples",
			},
			delta: "~", test: "p=1.000 n=0+6",
		},
		{
			name: "only NaN in head",
			base: seq(1, 6),
			head: []float64{nan, nan},
			opts: DefaultOptions,
			want: Result{
				Base: Summary{Center: 3.5, Lo: 1, Hi: 6, Confidence: ci95n6, N: 6},
				Head: Summary{Center: nan, Lo: ninf, Hi: inf, Confidence: 1,
					Warnings: []string{"ignored 2 non-finite samples (NaN or ±Inf)", "no samples"}},
				P:      1,
				Alpha:  0.05,
				Reason: "head has no samples",
			},
			delta: "~", test: "p=1.000 n=6+0",
		},
		{
			name: "NaN and ±Inf are dropped, the rest compared",
			base: []float64{4, nan, 2, 3, inf, 1},
			head: []float64{ninf, 8, 7, 6, 5},
			opts: DefaultOptions,
			want: Result{
				Base: Summary{Center: 2.5, Lo: ninf, Hi: inf, Confidence: 1, N: 4,
					Warnings: []string{"ignored 2 non-finite samples (NaN or ±Inf)", need6}},
				Head: Summary{Center: 6.5, Lo: ninf, Hi: inf, Confidence: 1, N: 4,
					Warnings: []string{"ignored 1 non-finite sample (NaN or ±Inf)", need6}},
				P:           2.0 / 70,
				Alpha:       0.05,
				Change:      6.5/2.5 - 1,
				ChangeOK:    true,
				Significant: true,
			},
			delta: "+160.00%", test: "p=0.029 n=4",
		},
		{
			name: "one sample each cannot be significant",
			base: []float64{100},
			head: []float64{120},
			opts: DefaultOptions,
			want: Result{
				Base:     Summary{Center: 100, Lo: ninf, Hi: inf, Confidence: 1, N: 1, Warnings: []string{need6}},
				Head:     Summary{Center: 120, Lo: ninf, Hi: inf, Confidence: 1, N: 1, Warnings: []string{need6}},
				P:        1,
				Alpha:    0.05,
				Change:   0.2,
				ChangeOK: true,
				Reason:   need4,
				Warnings: []string{need4},
			},
			delta: "~", test: "p=1.000 n=1",
		},
		{
			name: "three disjoint samples each are not enough at alpha 0.05",
			base: []float64{100, 101, 102},
			head: []float64{110, 111, 112},
			opts: DefaultOptions,
			want: Result{
				Base:     Summary{Center: 101, Lo: ninf, Hi: inf, Confidence: 1, N: 3, Warnings: []string{need6}},
				Head:     Summary{Center: 111, Lo: ninf, Hi: inf, Confidence: 1, N: 3, Warnings: []string{need6}},
				P:        2.0 / 20,
				Alpha:    0.05,
				Change:   111.0/101 - 1,
				ChangeOK: true,
				Reason:   need4,
				Warnings: []string{need4},
			},
			delta: "~", test: "p=0.100 n=3",
		},
		{
			name: "all samples equal",
			base: repeat(50, 6),
			head: repeat(50, 6),
			opts: DefaultOptions,
			want: Result{
				Base:     Summary{Center: 50, Lo: 50, Hi: 50, Confidence: ci95n6, N: 6},
				Head:     Summary{Center: 50, Lo: 50, Hi: 50, Confidence: ci95n6, N: 6},
				P:        1,
				Alpha:    0.05,
				ChangeOK: true,
				Reason:   allSame,
				Warnings: []string{allSame},
			},
			delta: "~", test: "p=1.000 n=6",
		},
		{
			name: "all samples equal even at the largest alpha",
			base: repeat(50, 6),
			head: repeat(50, 6),
			opts: Options{Alpha: 0.999, Confidence: 0.95},
			want: Result{
				Base:     Summary{Center: 50, Lo: 50, Hi: 50, Confidence: ci95n6, N: 6},
				Head:     Summary{Center: 50, Lo: 50, Hi: 50, Confidence: ci95n6, N: 6},
				P:        1,
				Alpha:    0.999,
				ChangeOK: true,
				Reason:   allSame,
				Warnings: []string{allSame},
			},
			delta: "~", test: "p=1.000 n=6",
		},
		{
			name: "zero base median: significant without a relative change",
			base: seq(-3, 3),
			head: seq(10, 16),
			opts: DefaultOptions,
			want: Result{
				Base:        Summary{Center: 0, Lo: -3, Hi: 3, Confidence: ci95n7, N: 7},
				Head:        Summary{Center: 13, Lo: 10, Hi: 16, Confidence: ci95n7, N: 7},
				P:           2.0 / 3432,
				Alpha:       0.05,
				Significant: true,
				Reason:      "base median is zero",
			},
			delta: "?", test: "p=0.001 n=7",
		},
		{
			name: "negative base median: benchstat's delta, but no Change",
			base: seq(-16, -10),
			head: seq(-6, 0),
			opts: DefaultOptions,
			want: Result{
				Base:        Summary{Center: -13, Lo: -16, Hi: -10, Confidence: ci95n7, N: 7},
				Head:        Summary{Center: -3, Lo: -6, Hi: 0, Confidence: ci95n7, N: 7},
				P:           2.0 / 3432,
				Alpha:       0.05,
				Significant: true,
				Reason:      "base median is negative: a relative change would have a misleading sign",
			},
			delta: "-76.92%", test: "p=0.001 n=7",
		},
		{
			name: "positive base, negative head",
			base: seq(1, 7),
			head: seq(-16, -10),
			opts: DefaultOptions,
			want: Result{
				Base:        Summary{Center: 4, Lo: 1, Hi: 7, Confidence: ci95n7, N: 7},
				Head:        Summary{Center: -13, Lo: -16, Hi: -10, Confidence: ci95n7, N: 7},
				P:           2.0 / 3432,
				Alpha:       0.05,
				Change:      -13.0/4 - 1,
				ChangeOK:    true,
				Significant: true,
			},
			delta: "-425.00%", test: "p=0.001 n=7",
		},
		{
			name: "relative change overflows",
			base: []float64{1e-300, 2e-300, 3e-300, 4e-300, 5e-300, 6e-300, 7e-300},
			head: []float64{1e300, 2e300, 3e300, 4e300, 5e300, 6e300, 7e300},
			opts: DefaultOptions,
			want: Result{
				Base:        Summary{Center: 4e-300, Lo: 1e-300, Hi: 7e-300, Confidence: ci95n7, N: 7},
				Head:        Summary{Center: 4e300, Lo: 1e300, Hi: 7e300, Confidence: ci95n7, N: 7},
				P:           2.0 / 3432,
				Alpha:       0.05,
				Significant: true,
				Reason:      "relative change overflows",
			},
			delta: "+Inf%", test: "p=0.001 n=7",
		},
		{
			name: "medians at the ends of the float64 range do not overflow",
			base: []float64{-math.MaxFloat64, math.MaxFloat64},
			head: []float64{-math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64},
			opts: DefaultOptions,
			want: Result{
				Base: Summary{Center: 0, Lo: ninf, Hi: inf, Confidence: 1, N: 2, Warnings: []string{need6}},
				Head: Summary{Center: -math.MaxFloat64, Lo: ninf, Hi: inf, Confidence: 1, N: 3,
					Warnings: []string{need6}},
				P:        3.0 / 5,
				Alpha:    0.05,
				Reason:   need4 + "; base median is zero",
				Warnings: []string{need4},
			},
			delta: "~", test: "p=0.600 n=2+3",
		},
		{
			name: "not significant, with a relative change",
			base: seq(1, 7),
			head: seq(2, 8),
			opts: DefaultOptions,
			want: Result{
				Base:     Summary{Center: 4, Lo: 1, Hi: 7, Confidence: ci95n7, N: 7},
				Head:     Summary{Center: 5, Lo: 2, Hi: 8, Confidence: ci95n7, N: 7},
				P:        200.0 / 429,
				Alpha:    0.05,
				Change:   0.25,
				ChangeOK: true,
				Reason:   "no significant difference: p=0.466 > alpha 0.05",
			},
			delta: "~", test: "p=0.466 n=7",
		},
		{
			name: "the zero Options are benchstat's defaults",
			base: []float64{100, 101, 102},
			head: []float64{110, 111, 112},
			want: Result{
				Base:     Summary{Center: 101, Lo: ninf, Hi: inf, Confidence: 1, N: 3, Warnings: []string{need6}},
				Head:     Summary{Center: 111, Lo: ninf, Hi: inf, Confidence: 1, N: 3, Warnings: []string{need6}},
				P:        0.1,
				Alpha:    0.05,
				Change:   111.0/101 - 1,
				ChangeOK: true,
				Reason:   need4,
				Warnings: []string{need4},
			},
			delta: "~", test: "p=0.100 n=3",
		},
		{
			name: "out-of-range Options take the defaults",
			base: []float64{100, 101, 102},
			head: []float64{110, 111, 112},
			opts: Options{Alpha: 1, Confidence: nan},
			want: Result{
				Base:     Summary{Center: 101, Lo: ninf, Hi: inf, Confidence: 1, N: 3, Warnings: []string{need6}},
				Head:     Summary{Center: 111, Lo: ninf, Hi: inf, Confidence: 1, N: 3, Warnings: []string{need6}},
				P:        0.1,
				Alpha:    0.05,
				Change:   111.0/101 - 1,
				ChangeOK: true,
				Reason:   need4,
				Warnings: []string{need4},
			},
			delta: "~", test: "p=0.100 n=3",
		},
		{
			name: "alpha 0.2 makes three samples enough; confidence 1 makes every interval infinite",
			base: []float64{100, 101, 102},
			head: []float64{110, 111, 112},
			opts: Options{Alpha: 0.2, Confidence: 1},
			want: Result{
				Base: Summary{Center: 101, Lo: ninf, Hi: inf, Confidence: 1, N: 3,
					Warnings: []string{"need > 50 samples for confidence interval at level 1"}},
				Head: Summary{Center: 111, Lo: ninf, Hi: inf, Confidence: 1, N: 3,
					Warnings: []string{"need > 50 samples for confidence interval at level 1"}},
				P:           0.1,
				Alpha:       0.2,
				Change:      111.0/101 - 1,
				ChangeOK:    true,
				Significant: true,
			},
			delta: "+9.90%", test: "p=0.100 n=3",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, head := slices.Clone(tt.base), slices.Clone(tt.head)
			got := Compare(base, head, tt.opts)
			if diff := cmp.Diff(tt.want, got, cmpFloats); diff != "" {
				t.Errorf("Compare (-want +got):\n%s", diff)
			}
			if got := got.DeltaString(); got != tt.delta {
				t.Errorf("DeltaString() = %q, want %q", got, tt.delta)
			}
			if got := got.TestString(); got != tt.test {
				t.Errorf("TestString() = %q, want %q", got, tt.test)
			}
			if !slices.EqualFunc(base, tt.base, sameFloat) || !slices.EqualFunc(head, tt.head, sameFloat) {
				t.Errorf("Compare modified its inputs: %v %v, were %v %v", base, head, tt.base, tt.head)
			}
		})
	}
}

func sameFloat(a, b float64) bool {
	return a == b || math.IsNaN(a) && math.IsNaN(b)
}

// TestCompareAlphaBoundary pins benchstat's rule: a difference is shown (and
// significant) when p ≤ alpha, not only when p < alpha, since benchmath's
// FormatDelta prints "~" for p > alpha.
func TestCompareAlphaBoundary(t *testing.T) {
	base, head := seq(1, 5), seq(6, 10)
	p := Compare(base, head, DefaultOptions).P
	tests := []struct {
		name        string
		alpha       float64
		significant bool
		delta       string
	}{
		{"alpha equal to p", p, true, "+166.67%"},
		{"alpha just below p", math.Nextafter(p, 0), false, "~"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare(base, head, Options{Alpha: tt.alpha, Confidence: 0.95})
			if r.Significant != tt.significant || r.DeltaString() != tt.delta {
				t.Errorf("P=%v Alpha=%v: Significant = %v, DeltaString() = %q; want %v, %q",
					r.P, r.Alpha, r.Significant, r.DeltaString(), tt.significant, tt.delta)
			}
		})
	}
}

// TestSummarize checks the interval against order statistics at the sizes
// where benchmath switches from exact binomial sums to the normal
// approximation (n > 30), and RangeString's special cases.
func TestSummarize(t *testing.T) {
	tests := []struct {
		name       string
		xs         []float64
		confidence float64
		center     float64
		lo, hi     float64
		n          int
		rangeStr   string
		warnings   []string
	}{
		{name: "empty", confidence: 0.95, center: nan, lo: ninf, hi: inf,
			rangeStr: "∞", warnings: []string{"no samples"}},
		{name: "five samples are too few at 0.95", xs: seq(1, 5), confidence: 0.95,
			center: 3, lo: ninf, hi: 5, n: 5, rangeStr: "∞", warnings: []string{need6}},
		{name: "five samples are enough at 0.9", xs: seq(1, 5), confidence: 0.9,
			center: 3, lo: 1, hi: 5, n: 5, rangeStr: "67%"},
		{name: "ten samples use the 2nd and 9th order statistics", xs: seq(101, 110), confidence: 0.95,
			center: 105.5, lo: 102, hi: 109, n: 10, rangeStr: "3%"},
		{name: "61 samples use the normal approximation", xs: seq(1, 61), confidence: 0.95,
			center: 31, lo: 23, hi: 39, n: 61, rangeStr: "26%"},
		{name: "zero median with zero bounds", xs: repeat(0, 8), confidence: 0.95,
			center: 0, lo: 0, hi: 0, n: 8, rangeStr: "0%"},
		{name: "bounds of the other sign", xs: seq(-3, 5), confidence: 0.95,
			center: 1, lo: -2, hi: 4, n: 9, rangeStr: "?"},
		{name: "invalid confidence takes 0.95", xs: seq(101, 110), confidence: -1,
			center: 105.5, lo: 102, hi: 109, n: 10, rangeStr: "3%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Summarize(tt.xs, tt.confidence)
			got := []any{s.Center, s.Lo, s.Hi, s.N, s.RangeString(), s.Warnings}
			want := []any{tt.center, tt.lo, tt.hi, tt.n, tt.rangeStr, tt.warnings}
			if diff := cmp.Diff(want, got, cmpopts.EquateNaNs()); diff != "" {
				t.Errorf("Summarize (-want +got):\n%s", diff)
			}
			if s.N > 0 && s.Confidence < tt.confidence {
				t.Errorf("Confidence = %v, below the requested %v", s.Confidence, tt.confidence)
			}
		})
	}
}

// FuzzCompare feeds arbitrary float64 bit patterns (NaN payloads, ±Inf,
// subnormals, ±MaxFloat64) and options: Compare must not panic, P must be a
// probability, and the result must be consistent with itself.
func FuzzCompare(f *testing.F) {
	f.Add(floatBytes(seq(1, 10)...), 5, 0.05, 0.95)
	f.Add(floatBytes(1, 2, 3, nan, inf, 4, 5, 6), 3, 0.05, 0.95)
	f.Add(floatBytes(repeat(50, 12)...), 6, 0.0, 0.0)
	f.Add(floatBytes(-math.MaxFloat64, math.MaxFloat64, 0, math.Copysign(0, -1), 5e-324), 2, 1.0, 1.0)
	f.Add(floatBytes(0, 0, 0, 0, 1, 2, 3, 4), 4, nan, -1.0)
	f.Add([]byte{}, 0, 0.1, 0.9)
	f.Fuzz(func(t *testing.T, data []byte, split int, alpha, confidence float64) {
		xs := bytesFloats(data)
		if len(xs) > 120 {
			xs = xs[:120] // the exact U distribution is quadratic in n
		}
		if split < 0 || split > len(xs) {
			split = len(xs) / 2
		}
		base, head := xs[:split], xs[split:]
		r := Compare(base, head, Options{Alpha: alpha, Confidence: confidence})
		if !(r.P >= 0 && r.P <= 1) {
			t.Fatalf("P = %v", r.P)
		}
		if !(r.Alpha > 0 && r.Alpha < 1) {
			t.Fatalf("Alpha = %v", r.Alpha)
		}
		if r.Significant && r.P > r.Alpha {
			t.Fatalf("significant with P %v > Alpha %v", r.P, r.Alpha)
		}
		if r.ChangeOK && (math.IsNaN(r.Change) || math.IsInf(r.Change, 0)) {
			t.Fatalf("ChangeOK with Change %v", r.Change)
		}
		if (r.Reason == "") != (r.Significant && r.ChangeOK) {
			t.Fatalf("Reason %q with Significant %v, ChangeOK %v", r.Reason, r.Significant, r.ChangeOK)
		}
		for side, s := range map[string]Summary{"base": r.Base, "head": r.Head} {
			if s.N == 0 {
				continue
			}
			if math.IsNaN(s.Center) || math.IsInf(s.Center, 0) {
				t.Fatalf("%s median %v of %d finite samples", side, s.Center, s.N)
			}
			if !(s.Lo <= s.Center && s.Center <= s.Hi) {
				t.Fatalf("%s interval [%v, %v] does not contain the median %v", side, s.Lo, s.Hi, s.Center)
			}
		}
		_, _, _ = r.DeltaString(), r.TestString(), r.Base.RangeString()
	})
}

func floatBytes(xs ...float64) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func bytesFloats(b []byte) []float64 {
	var xs []float64
	for len(b) >= 8 {
		xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(b)))
		b = b[8:]
	}
	return xs
}

// BenchmarkCompare covers the U-test's three regimes: exact without ties
// (n ≤ 50), exact with ties (n ≤ 25) and the normal approximation.
func BenchmarkCompare(b *testing.B) {
	cases := []struct {
		name       string
		base, head []float64
	}{
		{"n=10", seq(1, 10), seq(5.5, 14.5)},
		{"n=50", seq(1, 50), seq(20.5, 69.5)},
		{"n=25 ties", repeatEach(seq(1, 5), 5), repeatEach(seq(2, 6), 5)},
		{"n=1000", seq(1, 1000), seq(100.5, 1099.5)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				Compare(c.base, c.head, DefaultOptions)
			}
		})
	}
}

func repeatEach(xs []float64, n int) []float64 {
	var out []float64
	for _, x := range xs {
		out = append(out, repeat(x, n)...)
	}
	return out
}
