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
			"B.10(3): one high severe outlier",
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
	// B.5: every test is strict and severe is checked before mild, so a
	// value on a fence falls in the milder class.
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

func TestLabelString(t *testing.T) {
	want := map[Label]string{
		NotOutlier: "not an outlier",
		LowSevere:  "low severe",
		LowMild:    "low mild",
		HighMild:   "high mild",
		HighSevere: "high severe",
		Label(9):   "Label(9)",
	}
	for l, s := range want {
		if l.String() != s {
			t.Errorf("Label(%d).String() = %q, want %q", int(l), l.String(), s)
		}
	}
}

func TestOutliersText(t *testing.T) {
	tests := []struct {
		name string
		o    Outliers
		want string
	}{
		{"none: Criterion prints nothing", Outliers{NotOutlier: 100}, ""},
		{
			"book fixture Fibonacci/Recursive (B.10(2) counts)",
			Outliers{NotOutlier: 92, HighMild: 4, HighSevere: 4},
			"Found 8 outliers among 100 measurements (8.00%)\n" +
				"  4 (4.00%) high mild\n" +
				"  4 (4.00%) high severe\n",
		},
		{
			"every class, in Criterion's order",
			Outliers{LowSevere: 1, LowMild: 2, NotOutlier: 40, HighMild: 3, HighSevere: 1},
			"Found 7 outliers among 47 measurements (14.89%)\n" +
				"  1 (2.13%) low severe\n" +
				"  2 (4.26%) low mild\n" +
				"  3 (6.38%) high mild\n" +
				"  1 (2.13%) high severe\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.o.Text()); diff != "" {
				t.Errorf("Text (-want +got):\n%s", diff)
			}
		})
	}
}
