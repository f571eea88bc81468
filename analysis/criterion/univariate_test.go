package criterion

import (
	"math"
	"slices"
	"testing"
)

// Known answers for the univariate statistics. Unless a case says otherwise
// they are hand-computed or follow from the rules of Criterion's
// src/stats/univariate/sample.rs.

func TestUnivariateKnownAnswers(t *testing.T) {
	tests := []struct {
		name                          string
		xs                            []float64
		mean, variance, std, med, mad float64
	}{
		{"hand-computed sample [1,2,3,4,100]", []float64{1, 2, 3, 4, 100}, 22, 1902.5, 43.617656975128774, 3, 1.4825999736785889},
		{"input order does not matter", []float64{100, 4, 3, 2, 1}, 22, 1902.5, 43.617656975128774, 3, 1.4825999736785889},
		{"even length: median of the middle pair", []float64{1, 2, 3, 4}, 2.5, 1.6666666666666667, 1.2909944487358056, 2.5, 1 * MADScale},
		{"constant sample", []float64{7, 7, 7}, 7, 0, 0, 7, 0},
		{"two values", []float64{1, 3}, 2, 2, math.Sqrt2, 2, 1 * MADScale},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.xs)
			got := []float64{Mean(tt.xs), Variance(tt.xs), StdDev(tt.xs), Median(tt.xs), MedianAbsDev(tt.xs)}
			want := []float64{tt.mean, tt.variance, tt.std, tt.med, tt.mad}
			names := []string{"Mean", "Variance", "StdDev", "Median", "MedianAbsDev"}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s(%v) = %v, want %v", names[i], tt.xs, got[i], want[i])
				}
			}
			if !slices.Equal(in, tt.xs) {
				t.Errorf("input modified: %v, was %v", tt.xs, in)
			}
		})
	}
}

func TestMADScaleIsCriterionsF32Constant(t *testing.T) {
	// Criterion's 1.4826 (stats/univariate/sample.rs) is an f32 literal; the f64 value differs in
	// the 8th digit and would not reproduce the book's estimates.json.
	if MADScale != 1.4825999736785889 {
		t.Errorf("MADScale = %v, want 1.4825999736785889", MADScale)
	}
}

func TestNaiveSumOrder(t *testing.T) {
	// 1e16 + 1 + 1 left to right loses both ones; a compensated sum would
	// not. Criterion folds left to right (stats/univariate/sample.rs), and so
	// must Mean.
	xs := []float64{1e16, 1, 1}
	big, one := xs[0], xs[1] // variables: Go folds constants exactly
	if got, want := Mean(xs), (big+one+one)/3; got != want || want != big/3 {
		t.Errorf("Mean(%v) = %v, want left-to-right %v", xs, got, want)
	}
}

func TestPercentile(t *testing.T) {
	oneTo100 := make([]float64, 100)
	for i := range oneTo100 {
		oneTo100[i] = float64(i + 1)
	}
	// Criterion computes 50·(1 − cl) in float64 at run time: 2.500000000000002,
	// not the 2.5 a Go constant expression would give.
	cl := 0.95
	tests := []struct {
		name string
		xs   []float64
		p    float64
		want float64
	}{
		{"p=100 is the maximum", []float64{3, 1, 2}, 100, 3},
		{"p=0 is the minimum", []float64{3, 1, 2}, 0, 1},
		{"quartile interpolates (numpy linear)", []float64{1, 2, 3, 4}, 25, 1.75},
		{"third quartile", []float64{1, 2, 3, 4}, 75, 3.25},
		{"hand-computed CI rule lower: p = 50·(1−0.95)", oneTo100, 50 * (1 - cl), 3.4750000000000023},
		{"hand-computed CI rule upper: p = 50·(1+0.95)", oneTo100, 50 * (1 + cl), 97.52499999999999},
		{"p just below 100 interpolates below the maximum", []float64{1, 2, 3, 4}, math.Nextafter(100, 0), 3.9999999999999996},
		{"one value", []float64{5}, 30, 5},
		{"p above 100 is clamped", []float64{1, 2}, 150, 2},
		{"negative p is clamped", []float64{1, 2}, -5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.xs, tt.p); got != tt.want {
				t.Errorf("Percentile(%v, %v) = %v, want %v", tt.xs, tt.p, got, tt.want)
			}
		})
	}
	if got := Percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("Percentile(nil, 50) = %v, want NaN", got)
	}
}

func TestWelchT(t *testing.T) {
	tests := []struct {
		name      string
		new, base []float64
		want      float64
	}{
		{"hand-computed: shifted by one", []float64{1, 2, 3, 4, 5}, []float64{2, 3, 4, 5, 6}, -1},
		{"hand-computed second pair", []float64{10.0, 10.2, 9.9, 10.1, 10.3, 9.8, 10.0, 10.4}, []float64{11.0, 11.3, 10.9, 11.2, 11.1, 10.8, 11.4, 11.0}, -9.84731927834664},
		{"new minus base: slower new is positive", []float64{2, 3, 4, 5, 6}, []float64{1, 2, 3, 4, 5}, 1},
		{"constant and different is infinite", []float64{2, 2}, []float64{1, 1}, math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WelchT(tt.new, tt.base); got != tt.want {
				t.Errorf("WelchT(%v, %v) = %v, want %v", tt.new, tt.base, got, tt.want)
			}
		})
	}
	if got := WelchT([]float64{1, 1}, []float64{1, 1}); !math.IsNaN(got) {
		t.Errorf("WelchT of equal constant samples = %v, want NaN (Criterion's 0/0)", got)
	}
}
