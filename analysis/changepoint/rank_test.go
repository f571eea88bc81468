package changepoint

import (
	"math"
	"testing"
)

// TestExactLowerTail checks the counted distribution of U against
// enumeration of every arrangement, and the tail the detector relies on.
func TestExactLowerTail(t *testing.T) {
	for a := 1; a <= 4; a++ {
		for b := 1; b <= 7; b++ {
			// Enumerate: bit i of mask set puts rank i in the first
			// sample; U counts pairs (x, y) with x above y.
			counts := make([]float64, a*b+1)
			total := 0.0
			for mask := 0; mask < 1<<(a+b); mask++ {
				if popcount(mask) != a {
					continue
				}
				total++
				u, ys := 0, 0
				for i := 0; i < a+b; i++ {
					if mask&(1<<i) != 0 {
						u += ys
					} else {
						ys++
					}
				}
				counts[u]++
			}
			cum := 0.0
			for u := 0; u <= a*b; u++ {
				cum += counts[u]
				if got, want := exactLowerTail(a, b, u), cum/total; math.Abs(got-want) > 1e-12 {
					t.Errorf("a=%d b=%d: P(U ≤ %d) = %v, want %v", a, b, u, got, want)
				}
			}
		}
	}
	// All 5 newest values above 50 before: one arrangement in C(55, 5).
	if got, want := exactLowerTail(5, 50, 0), 1/3478761.0; math.Abs(got/want-1) > 1e-12 {
		t.Errorf("P(U = 0) for 5 and 50 = %v, want %v", got, want)
	}
	// The detector's p-value of that split: exact, two-sided, times the
	// window's splits (55 − 2·3 + 1 = 50).
	w := make([]float64, 55)
	for i := range w {
		w[i] = 100 + float64(i%7)
		if i >= 50 {
			w[i] = 200 + float64(i)
		}
	}
	var tmp []rankPair
	if got, want := rankTest(w, 50, 50, &tmp), 50*2/3478761.0; math.Abs(got/want-1) > 1e-12 {
		t.Errorf("rankTest = %v, want %v", got, want)
	}
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
