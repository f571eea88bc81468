package criterion

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name   string
		avg    []float64
		fences Fences
		counts Outliers
	}{
		{
			"hand-computed: one high severe outlier",
			[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 100},
			Fences{-10.25, -3.5, 14.5, 21.25},
			Outliers{NotOutlier: 9, HighSevere: 1},
		},
		{
			"mirror image: one low severe outlier",
			[]float64{-100, -9, -8, -7, -6, -5, -4, -3, -2, -1},
			Fences{-21.25, -14.5, 3.5, 10.25},
			Outliers{LowSevere: 1, NotOutlier: 9},
		},
		{
			"mild on both sides",
			// q1 = 3.25, q3 = 7.75, iqr = 4.5: mild beyond -3.5 / 14.5,
			// severe beyond -10.25 / 21.25.
			[]float64{-5, 2, 3, 4, 5, 6, 7, 8, 9, 16},
			Fences{-10.25, -3.5, 14.5, 21.25},
			Outliers{LowMild: 1, NotOutlier: 8, HighMild: 1},
		},
		{
			"constant sample: zero-width fences, nothing outside",
			[]float64{3, 3, 3, 3},
			Fences{3, 3, 3, 3},
			Outliers{NotOutlier: 4},
		},
		{"empty", nil, Fences{}, Outliers{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, o := Classify(tt.avg)
			if f != tt.fences {
				t.Errorf("fences = %v, want %v", f, tt.fences)
			}
			if diff := cmp.Diff(tt.counts, o); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
			if f != Tukey(tt.avg) {
				t.Errorf("Tukey = %v, Classify's fences = %v", Tukey(tt.avg), f)
			}
		})
	}
}

func TestLabelIsStrict(t *testing.T) {
	// As in Criterion's stats/univariate/outliers/tukey.rs, every test is
	// strict and severe is checked before mild, so a value on a fence falls
	// in the milder class.
	f := Fences{-10, -5, 5, 10}
	tests := []struct {
		x    float64
		want Label
	}{
		{-10.5, LowSevere},
		{-10, LowMild},
		{-7, LowMild},
		{-5, NotOutlier},
		{0, NotOutlier},
		{5, NotOutlier},
		{7, HighMild},
		{10, HighMild},
		{10.5, HighSevere},
	}
	for _, tt := range tests {
		if got := f.Label(tt.x); got != tt.want {
			t.Errorf("Label(%v) = %v, want %v", tt.x, got, tt.want)
		}
	}
}
