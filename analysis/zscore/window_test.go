package zscore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sameBits compares floats bit for bit: −0 is not 0.
var sameBits = cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })

// randomLine is a line of commits as a main line gives them: values with
// noise, steps, spikes, runs of equal values, NaN and ±Inf, huge values and
// signed zeros; annotated distribution changes; timestamps that tie (the
// commit id breaks the tie) and that now and then go backwards along the
// line.
func randomLine(rng *rand.Rand, n int) []Observation {
	obs := make([]Observation, n)
	level := 10 + rng.Float64()*1000
	noise := level * []float64{0, 1e-6, 1e-3, 0.05}[rng.IntN(4)]
	clock := t0
	for i := range obs {
		if rng.IntN(3) > 0 {
			clock = clock.Add(time.Duration(rng.IntN(3)) * time.Hour) // 0: a tie
		}
		tm := clock
		if rng.IntN(20) == 0 {
			tm = clock.Add(-time.Duration(1+rng.IntN(30)) * time.Hour)
		}
		if rng.IntN(40) == 0 {
			level *= 1 + (rng.Float64() - 0.5)
		}
		v := level + noise*rng.NormFloat64()
		switch rng.IntN(60) {
		case 0:
			v = math.NaN()
		case 1:
			v = math.Inf(1 - 2*rng.IntN(2))
		case 2, 3:
			v = level * 3 // a spike
		case 4:
			v = math.Copysign(0, float64(rng.IntN(2))-0.5)
		case 5:
			v = math.MaxFloat64 * (1 - 2*float64(rng.IntN(2)))
		case 6, 7, 8:
			if i > 0 {
				v = obs[i-1].Value
			}
		case 9:
			v = -level
		}
		obs[i] = Observation{Commit: fmt.Sprintf("c%04d", rng.IntN(10000)), Time: tm, Value: v, BeginsChange: rng.IntN(25) == 0}
	}
	// Commit ids are distinct.
	for i := range obs {
		obs[i].Commit += fmt.Sprintf("-%d", i)
	}
	return obs
}

// ranks returns each observation's rank in Distribution's order.
func ranks(obs []Observation) []int {
	idx := make([]int, len(obs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return compareObs(&obs[a], &obs[b]) })
	rank := make([]int, len(obs))
	for r, i := range idx {
		rank[i] = r
	}
	return rank
}

// A window sliding along a line gives Distribution of the same rows, bit
// for bit, whatever the line holds; windows with more rows than the
// distribution's window take the slow path and agree too.
func TestWindowSlidesLikeDistribution(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	var seen struct{ ok, outliers, invalid, slow, segments int }
	for trial := range 300 {
		n := 1 + rng.IntN(250)
		obs := randomLine(rng, n)
		rank := ranks(obs)
		span := 2 + rng.IntN(110) // commits in the window
		window := span            // Distribution's window, as the comparer uses it
		if trial%5 == 0 {
			window = 1 + rng.IntN(span+5) // sometimes shorter: the slow path
		}
		var w Window
		for p := range n {
			w.Insert(rank[p], obs[p].Value, obs[p].BeginsChange)
			if p >= span {
				w.Delete(rank[p-span])
			}
			lo := max(0, p-span+1)
			want := Distribution(obs[lo:p+1], window)
			seen.ok += b2i(want.OK)
			seen.outliers += b2i(want.Outliers > 0)
			seen.invalid += b2i(want.Invalid > 0)
			seen.slow += b2i(w.valid > window)
			seen.segments += b2i(obs[p].BeginsChange && want.OK)
			if diff := cmp.Diff(want, w.Dist(window), sameBits); diff != "" {
				t.Fatalf("trial %d, n %d, span %d, window %d, at %d: (-Distribution +Window):\n%s", trial, n, span, window, p, diff)
			}
		}
	}
	// The cases the lines are made to hold did occur.
	if seen.ok < 1000 || seen.outliers < 100 || seen.invalid < 100 || seen.slow < 100 || seen.segments < 100 {
		t.Errorf("too few interesting windows: %+v", seen)
	}
	if testing.Verbose() {
		t.Logf("%+v", seen)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Rows inserted and deleted in any order: the window is always the set of
// rows it holds.
func TestWindowAnyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 200 {
		n := 1 + rng.IntN(80)
		obs := randomLine(rng, n)
		rank := ranks(obs)
		in := make([]bool, n)
		var w Window
		for range 4 * n {
			p := rng.IntN(n)
			if in[p] {
				w.Delete(rank[p])
			} else {
				w.Insert(rank[p], obs[p].Value, obs[p].BeginsChange)
			}
			in[p] = !in[p]
			var cur []Observation
			for q := range n {
				if in[q] {
					cur = append(cur, obs[q])
				}
			}
			window := 1 + rng.IntN(n+2)
			if diff := cmp.Diff(Distribution(cur, window), w.Dist(window), sameBits); diff != "" {
				t.Fatalf("trial %d: %d rows, window %d: (-Distribution +Window):\n%s", trial, len(cur), window, diff)
			}
			if windowLen(&w) != len(cur) {
				t.Fatalf("Len %d, want %d", windowLen(&w), len(cur))
			}
		}
		w.Reset()
		if d := w.Dist(0); d.Reason != reasonNoHistory || windowLen(&w) != 0 {
			t.Fatalf("after Reset: %+v", d)
		}
	}
}

func TestWindowMisuse(t *testing.T) {
	for name, f := range map[string]func(w *Window){
		"insert twice":   func(w *Window) { w.Insert(1, 1, false); w.Insert(1, 2, false) },
		"delete missing": func(w *Window) { w.Insert(1, 1, false); w.Delete(2) },
		"delete empty":   func(w *Window) { w.Delete(0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f(new(Window))
		}()
	}
}

func FuzzWindow(f *testing.F) {
	f.Add(fuzzEncode(series(vector1...)), uint8(5))
	f.Add(fuzzEncode(series(1e308, -1e308, math.NaN(), math.Inf(1), 5e-324, 0, math.Copysign(0, -1))), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, span uint8) {
		obs := fuzzObservations(data)
		// One row per commit.
		for i := range obs {
			obs[i].Commit += fmt.Sprint(i)
		}
		rank := ranks(obs)
		s := int(span%64) + 1
		var w Window
		for p := range obs {
			w.Insert(rank[p], obs[p].Value, obs[p].BeginsChange)
			if p >= s {
				w.Delete(rank[p-s])
			}
			want := Distribution(obs[max(0, p-s+1):p+1], s)
			if diff := cmp.Diff(want, w.Dist(s), sameBits); diff != "" {
				t.Fatalf("at %d: (-Distribution +Window):\n%s", p, diff)
			}
		}
	})
}

// BenchmarkWindow slides a window of DefaultCommits commits along a noisy
// line: one Insert, one Delete and one Dist per commit, against
// Scratch.Distribution of the same rows.
func BenchmarkWindow(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 1000
	obs := series(make([]float64, n)...)
	for i := range obs {
		obs[i].Value = 1e6 * (1 + rng.NormFloat64()/200)
	}
	b.Run("Window", func(b *testing.B) {
		var w Window
		p := 0
		for b.Loop() {
			if p == n {
				w.Reset()
				p = 0
			}
			w.Insert(p, obs[p].Value, false)
			if p >= DefaultCommits {
				w.Delete(p - DefaultCommits)
			}
			w.Dist(DefaultCommits)
			p++
		}
	})
	b.Run("Distribution", func(b *testing.B) {
		var s Scratch
		p := 0
		for b.Loop() {
			p = p%n + 1
			s.Distribution(obs[max(0, p-DefaultCommits):p], DefaultCommits)
		}
	})
}

// windowLen is the number of rows in w, invalid ones included.
func windowLen(w *Window) int { return len(w.rows) - w.head }
