package changepoint

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// readSections reads a testdata file of whitespace-separated numbers in
// sections headed "# name".
func readSections(t testing.TB, name string) map[string][]float64 {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]float64{}
	sec := ""
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			sec = h
			continue
		}
		for _, f := range strings.Fields(line) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("testdata/%s: %v", name, err)
			}
			out[sec] = append(out[sec], v)
		}
	}
	return out
}

// MongoDB's tests/test_perf_1635.py: the q̂ profile of a small series
// and of a real MongoDB performance series (PERF-1635), from its
// "canonical" O(n³) implementation of Matteson & James. It scales Ê by
// ⌊mn/(m+n)⌋; dividing that out gives Ê, which energy and the profile of
// best must reproduce.
func TestEnergyKnownAnswers(t *testing.T) {
	small := []float64{1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3}
	smallQ := []float64{0, 0, 1.3777777777777778, 3.4444444444444438, 4.428571428571429, 2.971428571428571,
		3.599999999999999, 2.342857142857143, 2.857142857142857, 4.666666666666666, 0, 0}
	perf := readSections(t, "perf-1635.txt")
	for _, tt := range []struct {
		name string
		y, q []float64
	}{
		{"small", small, smallQ},
		{"perf-1635", perf["series"], perf["qhat"]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			L := len(tt.y)
			for n := 2; n < L-2; n++ {
				floor := float64((n * (L - n)) / L)
				want := tt.q[n] / floor
				if got := energy(tt.y, n); math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
					t.Errorf("Ê at %d = %.12g, want %.12g", n, got, want)
				}
			}
		})
	}
	// On PERF-1635 the maximum of Q̂ = mn/(m+n)·Ê is at 114, the first
	// value of the higher level (30554 after 28433). MongoDB's floored
	// factor puts its maximum one later, at 115: the floor is a quirk
	// worth not copying.
	y := perf["series"]
	var p profile
	tau, q, _ := p.best(y, 2)
	if tau != 114 || y[113] > 29000 || y[114] < 30000 {
		t.Errorf("argmax Q̂ = %d, want 114", tau)
	}
	floored := perf["qhat"]
	if floored[115] <= floored[114] {
		t.Errorf("MongoDB's floored profile peaks at 114, not 115")
	}
	L := float64(len(y))
	if want := 114 * (L - 114) / L * energy(y, 114); math.Abs(q-want) > 1e-9*want {
		t.Errorf("max Q̂ = %v, want %v", q, want)
	}
}

// energy is Ê of the split of w at t, computed directly from the
// definition, to check best's profile against.
func energy(w []float64, t int) float64 {
	var cross, a, b float64
	for i := 0; i < len(w); i++ {
		for j := i + 1; j < len(w); j++ {
			d := math.Abs(w[i] - w[j])
			switch {
			case j < t:
				a += d
			case i >= t:
				b += d
			default:
				cross += d
			}
		}
	}
	m, n := float64(t), float64(len(w)-t)
	return 2*cross/(m*n) - 2*a/(m*(m-1)) - 2*b/(n*(n-1))
}
