package quantile

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// SelectHalvesMedian and SelectNth against sorting, on random slices with
// ties, of every small length.
func TestMedianSelect(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 1; n < 80; n++ {
		for range 20 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(r.IntN(10)) - 3
			}
			sorted := slices.Sorted(slices.Values(xs))
			want := sorted[n/2]
			if n%2 == 0 {
				want = sorted[n/2-1]/2 + sorted[n/2]/2
			}
			if got := SelectHalvesMedian(slices.Clone(xs)); got != want {
				t.Fatalf("median of %v = %v, want %v", xs, got, want)
			}
			k := r.IntN(n)
			ys := slices.Clone(xs)
			if got := SelectNth(ys, k); got != sorted[k] || slices.Max(ys[:k+1]) != sorted[k] || slices.Min(ys[k:]) != sorted[k] {
				t.Fatalf("SelectNth(%v, %d) = %v, %v", xs, k, got, ys)
			}
		}
	}
	if !math.IsNaN(SelectHalvesMedian(nil)) {
		t.Error("median of nothing is not NaN")
	}
}
