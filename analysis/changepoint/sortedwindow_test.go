package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// TestSortedWindowMedian moves a window along random values — small steps
// as the scan takes them, jumps as a step or a resumed detector makes,
// duplicates, zeros of both signs, infinities — and checks each median
// against selecting it from a copy.
func TestSortedWindowMedian(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := []float64{0, math.Copysign(0, -1), 1, 1, 2.5, -3, math.Inf(1), math.Inf(-1), 1e-310}
	x := make([]float64, 5000)
	for i := range x {
		if r.IntN(4) == 0 {
			x[i] = pool[r.IntN(len(pool))]
		} else {
			x[i] = math.Round(r.NormFloat64()*100) / 10
		}
	}
	var sw sortedWindow
	lo, hi := 0, 1
	for range 20000 {
		switch k := r.IntN(20); {
		case k == 0: // a jump anywhere
			lo = r.IntN(len(x) - 1)
			hi = lo + 1 + r.IntN(min(60, len(x)-lo-1))
		case k == 1: // a step: the window starts later
			lo = min(hi-1, lo+r.IntN(30))
		default: // the next value, the window at most 50 long
			if hi < len(x) {
				hi++
			}
			if hi-lo > 50 {
				lo++
			}
		}
		got := sw.median(x, lo, hi)
		want := quantile.SelectHalvesMedian(append([]float64(nil), x[lo:hi]...))
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("x[%d:%d]: median %v, selection gives %v", lo, hi, got, want)
		}
	}
}

// TestWindowWidth moves a window as TestSortedWindowMedian does, over
// positive values with ties (quantised: a zero deviation), and a few
// values that are not positive or not finite, and checks each width
// against Width's, bit for bit.
func TestWindowWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 5000)
	for i := range x {
		switch k := r.IntN(200); {
		case k == 0:
			x[i] = []float64{0, -1, math.Inf(1), math.NaN()}[r.IntN(4)]
		case k < 60:
			x[i] = float64(100 + r.IntN(3)) // quantised
		default:
			x[i] = 100 * math.Exp(r.NormFloat64()*0.05)
		}
	}
	var ww windowWidth
	var tmp []float64
	lo, hi := 0, 1
	for range 40000 {
		switch k := r.IntN(20); {
		case k == 0:
			lo = r.IntN(len(x) - 1)
			hi = lo + 1 + r.IntN(min(60, len(x)-lo-1))
		case k == 1:
			lo = min(hi-1, lo+r.IntN(30))
		default:
			if hi < len(x) {
				hi++
			}
			if hi-lo > 50 {
				lo++
			}
		}
		got := ww.width(x, lo, hi, &tmp)
		want := Width(append([]float64(nil), x[lo:hi]...), &tmp)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("x[%d:%d]: width %v, Width gives %v", lo, hi, got, want)
		}
	}
}
