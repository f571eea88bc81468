package criterion

import (
	"math"
	"testing"
)

func TestSlope(t *testing.T) {
	tests := []struct {
		name         string
		iters, times []float64
		want         float64
	}{
		{"hand-computed", []float64{1, 2, 3}, []float64{2, 4, 6.5}, 2.107142857142857},
		{"exact line", []float64{10, 20, 30}, []float64{50, 100, 150}, 5},
		{"longer slice's extra values are ignored", []float64{1, 2}, []float64{3, 6, 100}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Slope(tt.iters, tt.times); got != tt.want {
				t.Errorf("Slope(%v, %v) = %v, want %v", tt.iters, tt.times, got, tt.want)
			}
		})
	}
	if got := Slope(nil, nil); !math.IsNaN(got) {
		t.Errorf("Slope(nil, nil) = %v, want NaN", got)
	}
}

func TestLinear(t *testing.T) {
	tests := []struct {
		name  string
		iters []float64
		want  bool
	}{
		{"linear sampling d=52 (book fixture Recursive)", []float64{52, 104, 156, 208}, true},
		{"quick mode records [n, 2n]", []float64{1000, 2000}, true},
		{"d=1", []float64{1, 2, 3, 4, 5}, true},
		{"flat sampling", []float64{100, 100, 100}, false},
		{"one count off", []float64{10, 20, 31, 40}, false},
		{"not starting at d", []float64{20, 30, 40}, false},
		{"descending", []float64{30, 20, 10}, false},
		{"a single sample", []float64{10}, false},
		{"nil: no iteration counts recorded", nil, false},
		{"zero d", []float64{0, 0, 0}, false},
		{"negative d", []float64{-1, -2}, false},
		{"NaN", []float64{math.NaN(), math.NaN()}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Linear(tt.iters); got != tt.want {
				t.Errorf("Linear(%v) = %v, want %v", tt.iters, got, tt.want)
			}
		})
	}
}
