package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// walkWindows calls check with 20,000 windows [lo, hi) of x as the gate
// sees them — moved on by one value (at most 50 long), started later (a
// step), or anywhere (a resumed detector) — over the same sortedWindow
// state.
func walkWindows(r *rand.Rand, n int, check func(lo, hi int)) {
	lo, hi := 0, 1
	for range 20000 {
		switch k := r.IntN(20); {
		case k == 0:
			lo = r.IntN(n - 1)
			hi = lo + 1 + r.IntN(min(60, n-lo-1))
		case k == 1:
			lo = min(hi-1, lo+r.IntN(30))
		default:
			if hi < n {
				hi++
			}
			if hi-lo > 50 {
				lo++
			}
		}
		check(lo, hi)
	}
}

// TestSortedWindowMedian checks the gate's median of its rest, over
// values with duplicates, zeros of both signs and infinities, against
// selecting it from a copy.
func TestSortedWindowMedian(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := []float64{0, math.Copysign(0, -1), 1, 1, 2.5, -3, math.Inf(1), math.Inf(-1), 1e-310}
	d := &detector{x: make([]float64, 5000)}
	for i := range d.x {
		if r.IntN(4) == 0 {
			d.x[i] = pool[r.IntN(len(pool))]
		} else {
			d.x[i] = math.Round(r.NormFloat64()*100) / 10
		}
	}
	walkWindows(r, len(d.x), func(lo, hi int) {
		got := d.restMedian(lo, hi)
		want := quantile.SelectHalvesMedian(append([]float64(nil), d.x[lo:hi]...))
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("x[%d:%d]: median %v, selection gives %v", lo, hi, got, want)
		}
	})
}

// TestWindowWidth checks the gate's window width, over positive values
// with ties (quantised: a zero deviation) and a few that are not positive
// or not finite, against Width's, bit for bit.
func TestWindowWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	d := &detector{x: make([]float64, 5000)}
	for i := range d.x {
		switch k := r.IntN(200); {
		case k == 0:
			d.x[i] = []float64{0, -1, math.Inf(1), math.NaN()}[r.IntN(4)]
		case k < 60:
			d.x[i] = float64(100 + r.IntN(3)) // quantised
		default:
			d.x[i] = 100 * math.Exp(r.NormFloat64()*0.05)
		}
	}
	var tmp []float64
	fast := 0
	walkWindows(r, len(d.x), func(lo, hi int) {
		got := d.windowWidth(lo, hi)
		want := Width(append([]float64(nil), d.x[lo:hi]...), &tmp)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("x[%d:%d]: width %v, Width gives %v", lo, hi, got, want)
		}
		if len(d.diffs.s) == hi-lo-1 && want > 0 {
			fast++
		}
	})
	if fast < 5000 {
		t.Errorf("only %d of 20,000 windows were measured from the sorted differences", fast)
	}
}
