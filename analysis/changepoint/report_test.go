package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/perfpages/perfpages/analysis/quantile"
)

// A large step of a series whose relative noise is large — timings on a
// loaded runner, most at the new level and a share far above it — passes
// the noise rule: it measures the spread of the values' logs, so the
// values after a step up do not count as noisier than the step is large.
// In linear terms the spread after this ×1,200 step is larger than the
// step (size ratio 0.74), and such a step was withdrawn (a step of 16
// widths of the planted suites' Google Benchmark noise was).
func TestNoiseRuleInLogs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var y []float64
	for i := range 52 {
		// Before the step the values are steady; after it, most are at
		// the new level and a share of them far above it (a loaded runner).
		x := 100 * math.Exp(0.05*rng.NormFloat64())
		if i >= 12 {
			x = 40000 * math.Exp(0.05*rng.NormFloat64()+2.0*math.Abs(rng.NormFloat64()))
		}
		y = append(y, x)
	}
	o := DefaultOptions.normalized()
	var tmp []float64
	before := quantile.SelectHalvesMedian(append(tmp[:0:0], y[:12]...))
	after := quantile.SelectHalvesMedian(append(tmp[:0:0], y[12:]...))
	if r := sizeRatio(y, 12, before, after, o, &tmp); r < 1 {
		t.Errorf("size ratio of a ×%.0f step = %.2f, want ≥ 1", after/before, r)
	}
}

// A clear step followed within Hold values by a small move of the level
// the same way is that step, not a gradual change over both: one jump
// fits the values far better than a ramp from the first to the second.
// A staircase of equal steps is still one gradual change.
func TestStaircaseWithOneJump(t *testing.T) {
	o := DefaultOptions.normalized()
	level := func(i int, steps map[int]float64) float64 {
		l := 100.0
		for at, to := range steps {
			if i >= at {
				l = min(l, to)
			}
		}
		return l
	}
	for _, tt := range []struct {
		name    string
		steps   map[int]float64 // position → level from there (levels fall)
		gradual bool
		index   int
	}{
		{"one jump, a small move after it", map[int]float64{40: 50, 47: 48.5}, false, 40},
		{"two equal steps", map[int]float64{40: 80, 47: 60}, true, 47},
	} {
		var x []float64
		idx := make([]int, 90)
		for i := range idx {
			idx[i] = i
			x = append(x, level(i, tt.steps)*(1+0.002*float64(i%5-2)))
		}
		bs := []boundary{{pos: 40, p: 1e-6, decided: 45}, {pos: 47, p: 1e-5, decided: 60}}
		got := report(x, idx, make([]bool, len(x)), bs, o)
		if len(got) != 1 || got[0].Gradual != tt.gradual || got[0].Index != tt.index {
			t.Errorf("%s: steps = %+v, want one at %d, gradual %v", tt.name, got, tt.index, tt.gradual)
		}
	}
}

// A drift is a steady relative change: a level that grows by the same
// factor every commit, here ×17 over 12 commits, in noise of 30 % (the
// planted suites' drifts of 8 widths in Google Benchmark noise are that
// size). Benchmark noise is multiplicative, so in the values themselves
// the upper level's noise is 17 times the lower's and its deviations
// swamp what a ramp gains over a jump: fitted to the values, 16 of these
// 20 drifts were a step. Fitted to the logs (fitSpan), each is one
// gradual change.
func TestRampInLogs(t *testing.T) {
	o := DefaultOptions.normalized()
	const from, to = 60, 72 // the drift moves the level over values from … to−1
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed+1, 3))
		var x []float64
		idx := make([]int, 130)
		for i := range idx {
			idx[i] = i
			lv := math.Log(17) * math.Min(1, math.Max(0, float64(i-from+1)/float64(to-from)))
			x = append(x, 1e6*math.Exp(lv+0.3*rng.NormFloat64()))
		}
		bs := []boundary{{pos: 69, p: 1e-6, decided: 75}}
		got := report(x, idx, make([]bool, len(x)), bs, o)
		if len(got) != 1 || !got[0].Gradual || got[0].Prev < from-4 || got[0].Index > to+3 {
			t.Errorf("seed %d: steps = %+v, want one gradual change over about %d…%d", seed+1, got, from, to)
		}
	}
}
