package budget

import (
	"math"
	"testing"
)

// TestStudentTTwoSided checks the t tail against closed forms (df 1 and 2:
// p = 1 − 2·atan(t)/π and p = 1 − t/√(2+t²)) and against the regularized
// incomplete beta computed with mpmath 1.3.0 at 40 digits
// (betainc(df/2, 1/2, 0, df/(df+t²), regularized=True)), to 1e-10
// relative.
func TestStudentTTwoSided(t *testing.T) {
	tests := []struct {
		t, df, want float64
	}{
		{1, 1, 0.5},
		{3, 1, 1 - 2*math.Atan(3)/math.Pi},
		{1, 2, 1 - 1/math.Sqrt(3)},
		{-1, 2, 1 - 1/math.Sqrt(3)},
		{2, 10, 0.073388034770740365618},
		{2.5, 3, 0.08770664700806554725},
		{0.5, 30, 0.62072300488512728596},
		{3.2, 7.5, 0.013735153862408264824},
		{10, 5, 0.00017094757574296359071},
		{1.96, 1000, 0.050273184955748718435},
		{0.1, 2.3, 0.92839338709123811363},
		{40, 3, 0.000034380680789158528283},
		{0, 4, 1},
	}
	for _, tt := range tests {
		got := StudentTTwoSided(tt.t, tt.df)
		if rel := math.Abs(got-tt.want) / tt.want; rel > 1e-10 {
			t.Errorf("StudentTTwoSided(%v, %v) = %.17g, want %.17g (relative error %.2g)", tt.t, tt.df, got, tt.want, rel)
		}
	}
	if !math.IsNaN(StudentTTwoSided(1, 0)) || !math.IsNaN(StudentTTwoSided(math.NaN(), 3)) {
		t.Error("invalid input not NaN")
	}
	if StudentTTwoSided(math.Inf(1), 3) != 0 {
		t.Error("infinite t not 0")
	}
}

// TestWelchT is perfgate's domain/significance.rs tests; t, df and p were
// recomputed with mpmath at 40 digits. p is checked to 1e-4 relative, and
// in fact matches to 1e-9.
func TestWelchT(t *testing.T) {
	var noisyB, noisyC []float64
	for i := range 20 {
		noisyB = append(noisyB, 100+float64(i%5)-2.5)
		noisyC = append(noisyC, 100.5+float64(i%5)-2.5)
	}
	tests := []struct {
		name          string
		b, c          []float64
		t, df, p      float64
		wantOK        bool
		wantSignifAt5 bool
	}{
		{"noisy pair is not significant", noisyB, noisyC, -1.0897247358851684, 38, 0.28269686155314283, true, false},
		{"shifted pair", []float64{100, 101, 99, 100, 101, 99, 100, 101}, []float64{102, 103, 101, 102, 103, 101, 102, 103},
			-4.7931575161222247, 14, 2.8622250818815301e-4, true, true},
		{"require-significance vector", seq(50, 140, 10), seq(56, 146, 10), -0.44312936752559784, 18, 0.66295196132347242, true, false},
		{"zero variance, different means", fill(20, 100), fill(20, 110), 0, 0, 0, true, true},
		{"zero variance, equal means", fill(10, 100), fill(10, 100), 0, 0, 1, true, false},
		{"one sample", []float64{1}, []float64{1, 2, 3}, 0, 0, 0, false, false},
		{"df overflows", alternate(8, 1e153), alternate(8, 1e153), 0, 0, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gt, gdf, gp, ok := WelchT(tt.b, tt.c)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if !ok {
				return
			}
			if math.Abs(gt-tt.t) > 1e-9*math.Max(1, math.Abs(tt.t)) || math.Abs(gdf-tt.df) > 1e-9*math.Max(1, tt.df) {
				t.Errorf("t, df = %.15g, %.15g; want %.15g, %.15g", gt, gdf, tt.t, tt.df)
			}
			if tt.p == 0 {
				if gp != 0 {
					t.Errorf("p = %g, want 0", gp)
				}
			} else if rel := math.Abs(gp-tt.p) / tt.p; rel > 1e-4 {
				t.Errorf("p = %.10g, want %.10g (relative error %.2g)", gp, tt.p, rel)
			}
			if s := Welch(tt.b, tt.c, 0.05, 2); s == nil || s.Significant != tt.wantSignifAt5 {
				t.Errorf("Welch(α 0.05) = %+v, want significant %v", s, tt.wantSignifAt5)
			}
		})
	}
}

// TestWelch covers the wrapper: the minimum sample count, α inclusive,
// and the same p at every α (perfgate's domain/significance.rs tests: α
// 0.01 and 0.10 give the same p).
func TestWelch(t *testing.T) {
	b := []float64{100, 101, 99, 100, 101, 99, 100, 101}
	c := []float64{102, 103, 101, 102, 103, 101, 102, 103}
	if s := Welch(b[:3], c, 0.05, 8); s != nil {
		t.Errorf("3 vs 8 samples with min 8: %+v, want nil", s)
	}
	if s := Welch([]float64{1}, []float64{2}, 0.05, 1); s != nil {
		t.Errorf("n = 1: %+v, want nil", s)
	}
	lo, hi := Welch(b, c, 0.01, 8), Welch(b, c, 0.10, 8)
	if lo == nil || hi == nil || lo.PValue != hi.PValue || !lo.Significant || !hi.Significant {
		t.Fatalf("α 0.01 / 0.10: %+v / %+v", lo, hi)
	}
	want := Significance{Test: "welch_t", PValue: lo.PValue, Alpha: 0.01, Significant: true, BaselineSamples: 8, CurrentSamples: 8}
	if *lo != want {
		t.Errorf("Welch = %+v, want %+v", *lo, want)
	}
	// p ≤ α is significant: α equal to p.
	if s := Welch(b, c, lo.PValue, 8); !s.Significant {
		t.Error("p == α not significant")
	}
	big := Welch(fill(20, 100), fill(20, 110), 0.001, 8)
	if big == nil || big.PValue >= 0.001 || !big.Significant {
		t.Errorf("20×100 vs 20×110: %+v, want significant with p < 0.001", big)
	}
}

func seq(from, to, step int) []float64 {
	var xs []float64
	for v := from; v <= to; v += step {
		xs = append(xs, float64(v))
	}
	return xs
}

func fill(n int, v float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = v
	}
	return xs
}

func alternate(n int, v float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = v
		if i%2 == 1 {
			xs[i] = -v
		}
	}
	return xs
}
