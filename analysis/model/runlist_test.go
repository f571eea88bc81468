package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRunList: a series' run indices read back as added, whatever their
// shape: progressions (a point per run of a machine), a nightly run after
// them, gaps, runs in no order and strides that overflow; and a list of
// progressions stays a few pieces.
func TestRunList(t *testing.T) {
	shapes := map[string]func(i int, rng *rand.Rand) int32{
		"one machine":        func(i int, _ *rand.Rand) int32 { return int32(i) },
		"every other run":    func(i int, _ *rand.Rand) int32 { return int32(2*i + 1) },
		"nightly runs after": func(i int, _ *rand.Rand) int32 { return int32(i + 1000*(i/700)) },
		"gaps":               func(i int, rng *rand.Rand) int32 { return int32(3*i + rng.IntN(2)) },
		"no order":           func(_ int, rng *rand.Rand) int32 { return rng.Int32() },
		"overflow":           func(i int, _ *rand.Rand) int32 { return int32(int64(i) * (math.MaxInt32 / 3)) },
		"repeated":           func(_ int, _ *rand.Rand) int32 { return 7 },
	}
	for name, run := range shapes {
		rng := rand.New(rand.NewPCG(1, 2))
		var l runList
		var want []int32
		for i := range 3000 {
			r := run(i, rng)
			l.add(r)
			want = append(want, r)
			if i%97 == 0 || i == 2999 {
				for j, w := range want {
					if got := l.at(int32(j)); got != w {
						t.Fatalf("%s: after %d runs, at(%d) = %d, want %d", name, i+1, j, got, w)
					}
				}
			}
		}
		if l.n != 3000 {
			t.Errorf("%s: %d runs", name, l.n)
		}
		switch name {
		case "one machine", "every other run", "overflow", "repeated":
			if len(l.pieces) != 1 || l.list != nil {
				t.Errorf("%s: %d pieces, list of %d", name, len(l.pieces), len(l.list))
			}
		case "nightly runs after":
			if len(l.pieces) != 5 || l.list != nil {
				t.Errorf("%s: %d pieces, list of %d", name, len(l.pieces), len(l.list))
			}
		case "gaps", "no order":
			if l.list == nil {
				t.Errorf("%s: %d pieces, no list", name, len(l.pieces))
			}
		}
	}
}
