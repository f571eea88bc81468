package changepoint

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// asv's test/test_step_detect.py, the cases with fixed inputs, and asv's
// algorithm on the two real histories (cross-checked against a line-by-line
// Python transcription of asv/step_detect.py with unit weights).
func TestPottsKnownAnswers(t *testing.T) {
	y := []float64{1, 1, 1, 2, 2, 2, 3, 3, 3}
	d := newL1Dist(y)
	if got := solvePotts(y, d, 0.1); !slices.Equal(got, []int{3, 6, 9}) {
		t.Errorf("solve_potts γ=0.1: %v, want [3 6 9]", got)
	}
	if got := solvePotts(y, d, 8); !slices.Equal(got, []int{9}) {
		t.Errorf("solve_potts γ=8: %v, want [9]", got)
	}
	if got := d.mu(0, 8); got != 2 {
		t.Errorf("mu of the whole = %v, want 2", got)
	}

	cosine := make([]float64, 1000) // test_autocorrelated
	for j := range cosine {
		cosine[j] = 0.2 * math.Cos(float64(j)/100)
		if j >= 500 {
			cosine[j]++
		}
	}
	outlier := slices.Repeat([]float64{1}, 50) // test_outlier, before filtering
	outlier[25] = 1000
	outlier2 := slices.Clone(outlier)
	outlier2[26] = 1000
	step26 := make([]float64, 50)
	for j := 26; j < 50; j++ {
		step26[j] = 1
	}
	tests := []struct {
		name string
		y    []float64
		want []int
	}{
		{"autocorrelated", cosine, []int{500, 1000}},
		{"zero variance", slices.Repeat([]float64{1}, 1000), []int{1000}},
		{"one outlier", outlier, []int{25, 26, 50}},
		{"two outliers", outlier2, []int{25, 27, 50}},
		{"a step at 26", step26, []int{26, 50}},
		{"TigerBeetle", readSections(t, "tigerbeetle.txt")[""], []int{15, 71, 95, 131, 194, 365}},
		{"PERF-1635", readSections(t, "perf-1635.txt")["series"], []int{173}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := solvePottsAutogamma(tt.y, newL1Dist(tt.y)); !slices.Equal(got, tt.want) {
				t.Errorf("solve_potts_autogamma: %v, want %v", got, tt.want)
			}
		})
	}
	// Detect with Method Potts merges the outliers away (MinSegment).
	o := DefaultOptions
	o.Method = Potts
	for _, y := range [][]float64{outlier, outlier2} {
		if steps, state := Detect(Series{Values: y}, o, nil); len(steps) != 0 || state != nil {
			t.Errorf("Potts on a spike: %+v, %v", steps, state)
		}
	}
	if steps, _ := Detect(Series{Values: step26}, o, nil); len(steps) != 1 || steps[0].Index != 26 || !math.IsNaN(steps[0].P) {
		t.Errorf("Potts on a step at 26: %+v", steps)
	}
}

// asv's test_golden_search.
func TestGoldenSearch(t *testing.T) {
	f := func(x float64) float64 { return 1 + x*x*x + x*x*x*x }
	if x := goldenSearch(f, -1, -0.25, 1e-5, 0, false); math.Abs(x+0.75) > 1e-4 {
		t.Errorf("minimum on [-1, -0.25] at %v, want -0.75", x)
	}
	if x := goldenSearch(f, -0.25, 0.25, 1e-5, 0, false); math.Abs(x+0.25) > 1e-4 {
		t.Errorf("minimum on [-0.25, 0.25] at %v, want -0.25", x)
	}
}

// TestPottsBreaks: each stretch between breaks is fitted on its own.
func TestPottsBreaks(t *testing.T) {
	y := gen{n: 200, sigma: 0.0001, seed: 14, steps: map[int]float64{60: 0.05, 140: 0.03}}.values()
	o := DefaultOptions
	o.Method = Potts
	for _, tt := range []struct {
		breaks []int
		want   []int
	}{
		{nil, []int{60, 140}},
		{[]int{60}, []int{140}},
		{[]int{140, 60, 60, -1, 500}, nil},
	} {
		steps, _ := Detect(Series{Values: y, Breaks: tt.breaks}, o, nil)
		if diff := cmp.Diff(tt.want, indices(steps)); diff != "" {
			t.Errorf("breaks %v (-want +got):\n%s", tt.breaks, diff)
		}
	}
}

// TestOverflow: values whose distances overflow float64 (found by
// FuzzDetect: a Q̂ of NaN everywhere, a Potts fit whose costs are all NaN)
// give no steps rather than a panic or an endless loop.
func TestOverflow(t *testing.T) {
	y := make([]float64, 60)
	for i := range y {
		y[i] = math.MaxFloat64
		if i%3 == 0 {
			y[i] = -math.MaxFloat64
		}
	}
	for _, m := range []Method{EDivisive, Potts} {
		o := DefaultOptions
		o.Method = m
		o.MinChange, o.NoiseMultiple = 0, 0
		steps, _ := Detect(Series{Values: y}, o, nil)
		checkSteps(t, Series{Values: y}, steps)
	}
}
