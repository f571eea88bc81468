package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestProfile: the Q̂ profile from ranks (best) agrees with Ê from the
// definition (energy) at every split, on random windows with ties, and
// the arrangement of a permutation gives the profile of the permuted
// values.
func TestProfile(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var p profile
	for n := 4; n < 70; n++ {
		w := make([]float64, n)
		for i := range w {
			w[i] = 1e9 + float64(r.IntN(50))*1e3
		}
		m := 2
		tau, q, _ := p.best(w, m)
		wantT, wantQ := -1, math.Inf(-1)
		for t := m; t <= n-m; t++ {
			fm, fn := float64(t), float64(n-t)
			if q := fm * fn / (fm + fn) * energy(w, t); q > wantQ*(1+1e-12) {
				wantT, wantQ = t, q
			}
		}
		if math.Abs(q-wantQ) > 1e-9*math.Abs(wantQ) || tau != wantT && math.Abs(q-wantQ) > 1e-9*math.Abs(wantQ) {
			t.Fatalf("n=%d: best = %d, %v; want %d, %v", n, tau, q, wantT, wantQ)
		}
		// A shuffled arrangement equals the profile of the shuffled values.
		p.prepare(w)
		shuffle(rand.NewPCG(uint64(n), 1), p.ids)
		perm := make([]float64, n)
		for k, e := range p.ids {
			perm[k] = w[e]
		}
		_, q1, _ := p.arranged(m)
		var p2 profile
		_, q2, _ := p2.best(perm, m)
		if math.Abs(q1-q2) > 1e-9*math.Abs(q2) {
			t.Fatalf("n=%d: arranged %v, best of the permuted values %v", n, q1, q2)
		}
	}
}
