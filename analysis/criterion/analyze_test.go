package criterion

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnalyzeSlopeOnlyForLinearSampling(t *testing.T) {
	linear := gaussian(1, 30, 50, 0.03)
	flat := Sample{Iters: make([]float64, 30), Times: linear.Avg()}
	for i := range flat.Iters {
		flat.Iters[i] = 1000
		flat.Times[i] *= 1000
	}
	tests := []struct {
		name      string
		s         Sample
		wantSlope bool
	}{
		{"linear", linear, true},
		{"flat", flat, false},
		{"no iteration counts", Sample{Times: linear.Avg()}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Analyze(tt.s, 1, fastOptions())
			if err != nil {
				t.Fatal(err)
			}
			if (e.Slope != nil) != tt.wantSlope {
				t.Fatalf("Slope = %v, want present: %v", e.Slope, tt.wantSlope)
			}
			if tt.wantSlope && e.Slope.Point != Slope(tt.s.Iters, tt.s.Times) {
				t.Errorf("slope point = %v, want %v", e.Slope.Point, Slope(tt.s.Iters, tt.s.Times))
			}
			for name, x := range map[string]Estimate{"mean": e.Mean, "median": e.Median, "std dev": e.StdDev, "MAD": e.MedianAbsDev} {
				if !(x.Lower <= x.Upper) || x.StdErr <= 0 || x.ConfidenceLevel != 0.95 {
					t.Errorf("%s = %+v: want Lower ≤ Upper, StdErr > 0, level 0.95", name, x)
				}
			}
			if !(e.Mean.Lower <= e.Mean.Point && e.Mean.Point <= e.Mean.Upper) {
				t.Errorf("mean point %v outside [%v, %v]", e.Mean.Point, e.Mean.Lower, e.Mean.Upper)
			}
		})
	}
	// The same per-iteration values give the same univariate estimates
	// whether or not they came with iteration counts.
	a, _ := Analyze(flat, 1, fastOptions())
	b, _ := Analyze(Sample{Times: flat.Avg()}, 1, fastOptions())
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("flat vs nil Iters (-flat +nil):\n%s", diff)
	}
}

func TestAnalyzeConstantSample(t *testing.T) {
	e, err := Analyze(Sample{Iters: []float64{10, 20, 30}, Times: []float64{50, 100, 150}}, 1, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	five := Estimate{Point: 5, Lower: 5, Upper: 5, ConfidenceLevel: 0.95}
	zero := Estimate{ConfidenceLevel: 0.95}
	want := Estimates{Mean: five, Median: five, MedianAbsDev: zero, StdDev: zero, Slope: &five}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Analyze of a constant sample (-want +got):\n%s", diff)
	}
}

func TestAnalyzeDeterminism(t *testing.T) {
	s := gaussian(2, 40, 10, 0.1)
	first, err := Analyze(s, 7, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Analyze(s, 7, fastOptions())
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("same seed, different estimates (-first +again):\n%s", diff)
	}
	other, _ := Analyze(s, 8, fastOptions())
	if other.Mean.Lower == first.Mean.Lower && other.Median.Upper == first.Median.Upper && other.Slope.Lower == first.Slope.Lower {
		t.Errorf("seeds 7 and 8 give the same intervals")
	}
	if other.Mean.Point != first.Mean.Point || other.Slope.Point != first.Slope.Point {
		t.Errorf("point estimates depend on the seed")
	}
}

func TestOptionsDefaults(t *testing.T) {
	want := Options{NResamples: 100000, ConfidenceLevel: 0.95, SignificanceLevel: 0.05, NoiseThreshold: 0.01}
	if diff := cmp.Diff(want, DefaultOptions); diff != "" {
		t.Errorf("DefaultOptions are not Criterion's (-want +got):\n%s", diff)
	}
	if err := DefaultOptions.Validate(); err != nil {
		t.Errorf("DefaultOptions.Validate() = %v", err)
	}
}
