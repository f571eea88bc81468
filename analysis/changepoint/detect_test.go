package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// gen builds a series: level 1000 with steps, normal noise of relative
// size sigma, and extras applied last.
type gen struct {
	n      int
	sigma  float64
	seed   uint64
	steps  map[int]float64 // position → relative change from there on
	drift  float64         // total relative change, spread evenly
	spikes map[int]float64 // position → relative jump of that value only
	// bimodal puts each value on the upper level (1 + bimodal) with
	// probability ½.
	bimodal float64
	// tails gives 2 % of values a slowdown of 5–15 %, like an interrupted
	// wall-time sample.
	tails bool
}

func (g gen) values() []float64 {
	r := rand.New(rand.NewPCG(g.seed, 0xda7a))
	y := make([]float64, g.n)
	level := 1000.0
	for i := range y {
		if f, ok := g.steps[i]; ok {
			level *= 1 + f
		}
		v := level * (1 + g.drift*float64(i)/float64(g.n))
		if g.bimodal != 0 && r.IntN(2) == 1 {
			v *= 1 + g.bimodal
		}
		v *= 1 + g.sigma*r.NormFloat64()
		if g.tails && r.Float64() < 0.02 {
			v *= 1.05 + 0.1*r.Float64()
		}
		if f, ok := g.spikes[i]; ok {
			v *= 1 + f
		}
		y[i] = v
	}
	return y
}

func detect(t testing.TB, y []float64, breaks ...int) []Step {
	t.Helper()
	steps, _ := Detect(Series{Values: y, Breaks: breaks, Seed: 42}, DefaultOptions, nil)
	return steps
}

func indices(steps []Step) []int {
	var out []int
	for _, s := range steps {
		out = append(out, s.Index)
	}
	return out
}

// TestPlanted pins what Detect finds in series with known changes.
func TestPlanted(t *testing.T) {
	tests := []struct {
		name string
		g    gen
		want []int
	}{
		{"a 5 % step in 1 % noise", gen{n: 200, sigma: 0.01, seed: 1, steps: map[int]float64{100: 0.05}}, []int{100}},
		{"a −0.5 % step in an instruction count", gen{n: 200, sigma: 0.0001, seed: 2, steps: map[int]float64{150: -0.005}}, []int{150}},
		{"a regression fixed 20 commits later", gen{n: 200, sigma: 0.005, seed: 3, steps: map[int]float64{80: 0.04, 100: -1 + 1/1.04}}, []int{80, 100}},
		// The rank test over a window of 50 with its Bonferroni
		// correction needs five values after a step: all of them beyond
		// the 45 before is p = 2/C(50,5) per split, 4e-5 over the
		// window's 45 splits; with four it is 4e-4.
		{"a step at the fifth-newest value", gen{n: 100, sigma: 0.0001, seed: 5, steps: map[int]float64{95: 0.03}}, []int{95}},
		{"a step at the fourth-newest value is not confirmed yet", gen{n: 100, sigma: 0.0001, seed: 5, steps: map[int]float64{96: 0.03}}, nil},
		{"a one-commit spike", gen{n: 200, sigma: 0.01, seed: 6, spikes: map[int]float64{100: 0.25}}, nil},
		{"a five-commit excursion", gen{n: 200, sigma: 0.0001, seed: 16, steps: map[int]float64{100: 0.05, 105: 1/1.05 - 1}}, nil},
		{"a step with outliers right after it", gen{n: 200, sigma: 0.002, seed: 17, steps: map[int]float64{100: 0.05},
			spikes: map[int]float64{100: 0.1, 101: 0.1, 102: 0.1}}, []int{100}},
		{"a two-commit spike", gen{n: 200, sigma: 0.002, seed: 7, spikes: map[int]float64{100: 0.25, 101: 0.25}}, nil},
		{"bimodal noise 4 % apart", gen{n: 400, sigma: 0.002, seed: 8, bimodal: 0.04}, nil},
		{"heavy-tailed noise", gen{n: 400, sigma: 0.01, seed: 9, tails: true}, nil},
		{"a drift of 0.1 % in all", gen{n: 300, sigma: 0.0001, seed: 10, drift: 0.001}, nil},
		{"steady noise", gen{n: 1000, sigma: 0.01, seed: 11}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := detect(t, tt.g.values())
			if diff := cmp.Diff(tt.want, indices(steps)); diff != "" {
				t.Errorf("steps (-want +got):\n%s\n%+v", diff, steps)
			}
			for _, s := range steps {
				if s.P > DefaultOptions.Alpha || s.Prev != s.Index-1 || s.Decided < s.Index+DefaultOptions.MinSegment {
					t.Errorf("step %+v: p above alpha, or Prev or Decided wrong", s)
				}
				if want := tt.g.steps[s.Index]; math.Abs(s.Change-want) > 0.25*math.Abs(want) {
					t.Errorf("step at %d changes %+.4f, planted %+.4f", s.Index, s.Change, want)
				}
			}
		})
	}
}

// TestStepsCloseTogether: two steps three commits apart are one change to
// the rank test (a side of three values cannot be significant over a
// window's splits), and it fits a ramp better than a jump: one gradual
// change over commits 60…63, with both steps' size.
func TestStepsCloseTogether(t *testing.T) {
	steps := detect(t, gen{n: 120, sigma: 0.0001, seed: 4, steps: map[int]float64{60: 0.02, 63: 0.02}}.values())
	if len(steps) != 1 || !steps[0].Gradual || steps[0].Prev != 59 || steps[0].Index != 63 || math.Abs(steps[0].Change-(1.02*1.02-1)) > 0.002 {
		t.Errorf("steps %+v, want one gradual change of +4 %% over 59…63", steps)
	}
}

// A long drift is cut into steps, all in its direction and none larger
// than the drift; a drift below the minimum step gives none (above).
func TestDrift(t *testing.T) {
	steps := detect(t, gen{n: 600, sigma: 0.002, seed: 12, drift: 0.10}.values())
	if len(steps) == 0 {
		t.Fatal("a 10 % drift gave no step")
	}
	total := 1.0
	for _, s := range steps {
		if s.Change <= 0 {
			t.Errorf("step %+v goes against the drift", s)
		}
		total *= 1 + s.Change
	}
	if total-1 > 0.12 {
		t.Errorf("steps add up to %+.3f, more than the 10 %% drift: %+v", total-1, steps)
	}
}

// TestPrecisionRecall plants one or two steps of 4 to 10 σ (σ ≥ 0.1 %, so
// that every step passes MinChange) at random
// places in 300 series of 300 values, with normal or heavy-tailed noise,
// and counts: a detection within two values of a planted step finds it.
func TestPrecisionRecall(t *testing.T) {
	var planted, found, detections, wrong int
	for i := range 300 {
		r := rand.New(rand.NewPCG(uint64(i), 99))
		g := gen{n: 300, sigma: []float64{0.001, 0.005, 0.01}[i%3], seed: uint64(i), tails: i%2 == 0, steps: map[int]float64{}}
		for range 1 + i%2 {
			pos := 40 + r.IntN(220)
			size := g.sigma * (4 + 6*r.Float64())
			if r.IntN(2) == 0 {
				size = -size
			}
			g.steps[pos] = size
		}
		// Steps closer than the minimum segment cannot both be found.
		keys := slices.Sorted(func(yield func(int) bool) {
			for k := range g.steps {
				if !yield(k) {
					return
				}
			}
		})
		if len(keys) == 2 && keys[1]-keys[0] < 10 {
			delete(g.steps, keys[1])
		}
		planted += len(g.steps)
		steps := detect(t, g.values())
		hit := map[int]bool{}
		for _, s := range steps {
			detections++
			ok := false
			for p := range g.steps {
				if !hit[p] && s.Index >= p-2 && s.Index <= p+2 {
					hit[p], ok = true, true
					break
				}
			}
			if !ok {
				wrong++
			}
		}
		found += len(hit)
	}
	precision := float64(detections-wrong) / float64(detections)
	recall := float64(found) / float64(planted)
	t.Logf("planted %d, found %d (recall %.3f); %d detections, %d wrong (precision %.3f)", planted, found, recall, detections, wrong, precision)
	if precision < 0.97 || recall < 0.9 {
		t.Errorf("precision %.3f, recall %.3f; want at least 0.97 and 0.9", precision, recall)
	}
}

func TestMissingValues(t *testing.T) {
	y := gen{n: 200, sigma: 0.0001, seed: 13, steps: map[int]float64{100: 0.02}}.values()
	// The values at 98 and 99 are missing (a failed benchmark), and one
	// is infinite: the step is at 100, and it may have come from any
	// commit after 97.
	y[98], y[99], y[50] = math.NaN(), math.NaN(), math.Inf(1)
	steps := detect(t, y)
	if len(steps) != 1 || steps[0].Index != 100 || steps[0].Prev != 97 {
		t.Fatalf("steps %+v, want one at 100 with Prev 97", steps)
	}
	// With the first value after the step missing too, the step shows at
	// 101 and came from one of 98…101.
	y[100] = math.NaN()
	steps = detect(t, y)
	if len(steps) != 1 || steps[0].Index != 101 || steps[0].Prev != 97 {
		t.Fatalf("steps %+v, want one at 101 with Prev 97", steps)
	}
}

func TestBreaks(t *testing.T) {
	y := gen{n: 200, sigma: 0.0001, seed: 14, steps: map[int]float64{60: 0.05, 140: 0.03}}.values()
	if got := indices(detect(t, y)); !slices.Equal(got, []int{60, 140}) {
		t.Fatalf("without breaks: %v", got)
	}
	// An annotated distribution change at 60 is known: no step there.
	if got := indices(detect(t, y, 60)); !slices.Equal(got, []int{140}) {
		t.Errorf("break at 60: steps at %v, want [140]", got)
	}
	// A break where the value is missing takes effect at the next value.
	y[60] = math.NaN()
	if got := indices(detect(t, y, 60)); !slices.Equal(got, []int{140}) {
		t.Errorf("break at a missing value: steps at %v, want [140]", got)
	}
	// A break elsewhere hides nothing; the values either side of it are
	// not measured together.
	y = gen{n: 200, sigma: 0.0001, seed: 14, steps: map[int]float64{60: 0.05, 140: 0.03}}.values()
	steps := detect(t, y, 100)
	if got := indices(steps); !slices.Equal(got, []int{60, 140}) {
		t.Errorf("break at 100: steps at %v", got)
	}
	// Unsorted, repeated, negative and far breaks are taken as a set.
	if got := indices(detect(t, y, 1000, 60, -5, 60)); !slices.Equal(got, []int{140}) {
		t.Errorf("messy breaks: steps at %v, want [140]", got)
	}
}

func TestEdgeCases(t *testing.T) {
	zeroThenFive := make([]float64, 40)
	for i := 20; i < 40; i++ {
		zeroThenFive[i] = 5
	}
	tests := []struct {
		name   string
		values []float64
		want   []Step
	}{
		{"empty", nil, nil},
		{"too short", []float64{1, 1, 1, 2, 2}, nil},
		{"constant", slices.Repeat([]float64{7}, 100), nil},
		{"all missing", slices.Repeat([]float64{math.NaN()}, 100), nil},
		{"a step from zero", zeroThenFive, []Step{{Index: 20, Prev: 19, Before: 0, After: 5, Change: math.Inf(1), P: 4.954787563483215e-05, Decided: 27}}},
		{"negative values", slices.Concat(slices.Repeat([]float64{-10}, 20), slices.Repeat([]float64{-12}, 20)),
			[]Step{{Index: 20, Prev: 19, Before: -10, After: -12, Change: -0.2, P: 4.954787563483215e-05, Decided: 27}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps, state := Detect(Series{Values: tt.values, Seed: 3}, DefaultOptions, nil)
			if diff := cmp.Diff(tt.want, steps, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
			if state == nil || state.N != len(tt.values) {
				t.Errorf("state %+v", state)
			}
		})
	}
}

// TestOptionsNormalized: values out of range are corrected, not fatal.
func TestOptionsNormalized(t *testing.T) {
	got := Options{Window: 1, MinSegment: 0, Alpha: math.NaN(), Permutations: -3, MinChange: -1, NoiseMultiple: math.Inf(-1)}.normalized()
	want := Options{Method: EDivisive, Window: 4, MinSegment: 2, Alpha: 0, Permutations: 1, MinChange: 0, NoiseMultiple: 0, Hold: 6}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("normalized (-want +got):\n%s", diff)
	}
	// Alpha 0 finds nothing rather than everything.
	y := gen{n: 200, sigma: 0.0001, seed: 2, steps: map[int]float64{150: -0.05}}.values()
	if steps, _ := Detect(Series{Values: y}, Options{Alpha: 0, Permutations: 99}, nil); len(steps) != 0 {
		t.Errorf("alpha 0: %+v", steps)
	}
}

// TestDeterministic: the same series gives the same steps; another seed
// may give other p-values but, for a clear step, the same step.
func TestDeterministic(t *testing.T) {
	y := gen{n: 300, sigma: 0.01, seed: 15, steps: map[int]float64{150: 0.05}, tails: true}.values()
	a, sa := Detect(Series{Values: y, Seed: 1}, DefaultOptions, nil)
	b, sb := Detect(Series{Values: slices.Clone(y), Seed: 1}, DefaultOptions, nil)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs differ:\n%s", diff)
	}
	if diff := cmp.Diff(sa, sb); diff != "" {
		t.Errorf("two states differ:\n%s", diff)
	}
	c, _ := Detect(Series{Values: y, Seed: 2}, DefaultOptions, nil)
	if !slices.Equal(indices(a), indices(c)) {
		t.Errorf("seed 1: %v, seed 2: %v", indices(a), indices(c))
	}
}
