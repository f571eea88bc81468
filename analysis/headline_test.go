package analysis

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/quantile"
)

// noisy returns n values about level with relative noise sd (normal,
// seeded), one per commit.
func noisy(rng *rand.Rand, n int, level, sd float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = level * math.Exp(sd*rng.NormFloat64())
	}
	return out
}

// rowsAt compares every main-line commit of d with its predecessor under
// the default model and returns, by position, the only row of each.
func rowsAt(t *testing.T, d *model.Dataset) map[int]Row {
	t.Helper()
	out := map[int]Row{}
	for k, c := range NewComparer(d, DefaultOptions).Consecutive(1, len(d.MainLine)) {
		if len(c.Rows) == 1 && c.Rows[0].OK {
			out[k+1] = c.Rows[0]
		}
	}
	return out
}

// flagged lists the positions whose row the headline counts.
func flagged(rows map[int]Row) []int {
	var out []int
	for p := range len(rows) + 2 {
		if r, ok := rows[p]; ok && r.Relevant {
			out = append(out, p)
		}
	}
	return out
}

// The headline on known shapes of history: a step that stays is
// confirmed at its commit and nothing else counts; a spike, a two-level
// runner and a drift never count; the newest change waits, unless it is
// too large to wait for; a young series has no verdict.
func TestHeadline(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	line := func(vals ...[]float64) *model.Dataset {
		var all []float64
		for _, v := range vals {
			all = append(all, v...)
		}
		return valueLine(model.Auto, "wall-time", "ns", ones(all...), nil)
	}

	t.Run("a step that stays", func(t *testing.T) {
		rows := rowsAt(t, line(noisy(rng, 40, 100, 0.01), noisy(rng, 25, 110, 0.01)))
		if got := flagged(rows); len(got) != 1 || got[0] != 40 {
			t.Fatalf("flagged %v, want [40]", got)
		}
		r := rows[40]
		v := r.Headline
		if v.State != StateConfirmed || !r.Regression || r.Basis != BasisPersistence || v.ConfirmedAt <= 40 || v.ConfirmedAt > 40+DefaultHeadline.Settle || v.Widths < 4 {
			t.Errorf("step row: %+v, regression %v, basis %s", v, r.Regression, r.Basis)
		}
		if math.Abs(v.Width-0.01) > 0.005 || v.History != DefaultHeadline.WidthHistory-10 && v.History != 40 {
			t.Errorf("noise model: width %.4f over %d values; want about 0.01 over 40", v.Width, v.History)
		}
	})

	t.Run("spikes", func(t *testing.T) {
		vals := noisy(rng, 60, 100, 0.01)
		vals[30], vals[45] = 300, 40
		rows := rowsAt(t, line(vals))
		if got := flagged(rows); len(got) != 0 {
			t.Fatalf("flagged %v, want nothing", got)
		}
		for _, p := range []int{30, 45} {
			if rows[p].Headline.State != StateSpike {
				t.Errorf("position %d: state %q, want spike", p, rows[p].Headline.State)
			}
		}
	})

	t.Run("a two-level runner", func(t *testing.T) {
		vals := noisy(rng, 120, 100, 0.01)
		for i := range vals {
			if rng.IntN(3) == 0 {
				vals[i] *= 2
			}
		}
		if got := flagged(rowsAt(t, line(vals))); len(got) != 0 {
			t.Fatalf("flagged %v, want nothing", got)
		}
	})

	t.Run("a drift", func(t *testing.T) {
		vals := noisy(rng, 80, 100, 0.01)
		for i := 30; i < len(vals); i++ {
			vals[i] *= math.Exp(0.01 * float64(min(i-30, 12)))
		}
		if got := flagged(rowsAt(t, line(vals))); len(got) != 0 {
			t.Fatalf("flagged %v, want nothing: a drift is no commit's doing", got)
		}
	})

	t.Run("the newest change waits", func(t *testing.T) {
		rows := rowsAt(t, line(noisy(rng, 40, 100, 0.01), []float64{120, 121, 119}))
		v := rows[40].Headline
		if v.State != StateUnconfirmed || rows[40].Relevant || v.Large {
			t.Errorf("newest +20 %%: %+v, relevant %v; want unconfirmed, not counted", v, rows[40].Relevant)
		}
		rows = rowsAt(t, line(noisy(rng, 40, 100, 0.01), []float64{500}))
		if v := rows[40].Headline; v.State != StateUnconfirmed || !v.Large || !rows[40].Relevant {
			t.Errorf("newest ×5: %+v, relevant %v; want unconfirmed, large, counted", v, rows[40].Relevant)
		}
	})

	t.Run("the commits after the newest change are not its culprits", func(t *testing.T) {
		// The level before each of the last three commits is still the
		// old one (step detection has not placed the drop yet): only the
		// commit whose own value dropped counts (in the pytest-benchmark
		// history of stnkvcmls/running-coach, a docs-only commit after a
		// drop was listed as a large regression of −0.19 %).
		rows := rowsAt(t, line(noisy(rng, 50, 140, 0.02), []float64{32.2, 32.1, 32.3}))
		if got := flagged(rows); len(got) != 1 || got[0] != 50 {
			t.Fatalf("flagged %v, want [50]", got)
		}
		if v := rows[50].Headline; v.State != StateUnconfirmed || !v.Large {
			t.Errorf("the drop: %+v; want unconfirmed, large", v)
		}
		for _, p := range []int{51, 52} {
			if v := rows[p].Headline; v.State != StateNone || rows[p].Relevant {
				t.Errorf("position %d, after the drop: %+v, relevant %v; want no verdict", p, v, rows[p].Relevant)
			}
		}
	})

	t.Run("young", func(t *testing.T) {
		rows := rowsAt(t, line([]float64{100, 101, 300}))
		if r := rows[2]; r.Basis != BasisYoung || r.Headline.State != StateYoung || r.Relevant || r.Significant {
			t.Errorf("young row: basis %s %+v, relevant %v", r.Basis, r.Headline, r.Relevant)
		}
	})

	t.Run("within-run evidence adds to the noise", func(t *testing.T) {
		base := noisy(rng, 30, 100, 0.01)
		quiet, loud := make([][]float64, len(base)), make([][]float64, len(base))
		for i, v := range base {
			quiet[i] = []float64{v, v, v, v, v}
			loud[i] = []float64{v * 0.8, v * 0.9, v, v * 1.1, v * 1.2}
		}
		wq := rowsAt(t, valueLine(model.Auto, "wall-time", "ns", quiet, nil))[29].Headline.Width
		wl := rowsAt(t, valueLine(model.Auto, "wall-time", "ns", loud, nil))[29].Headline.Width
		if !(wl > wq*2) {
			t.Errorf("width with spread samples %.4f, with identical ones %.4f: the spread must add", wl, wq)
		}
	})
}

// A commit is a step's culprit only when its own value moved with the
// step: when step detection places the split a commit early, at a value
// still at the old level, that commit's row does not count.
func TestCulpritMoved(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	vals := append(noisy(rng, 41, 100, 0.01), noisy(rng, 25, 120, 0.01)...) // the step is at 41
	se := make([]float64, len(vals))
	step := func(at int) []Step {
		return []Step{{Step: changepoint.Step{Index: at, Prev: at - 1, Before: 100, After: 120, Decided: at + 5}}}
	}
	for _, tt := range []struct {
		at        int
		confirmed bool
	}{{41, true}, {40, false}} {
		h := seriesHeadlines(vals, se, step(tt.at), nil, model.LowerIsBetter, DefaultHeadline.withDefaults(), 0)
		v := h.at(tt.at, 0)
		if (v.State == StateConfirmed) != tt.confirmed || v.Relevant != tt.confirmed {
			t.Errorf("step found at %d: verdict there %+v, want confirmed %v", tt.at, v, tt.confirmed)
		}
	}
}

// A pair that is not consecutive on the main line (a try run against its
// baseline) counts when it stands out of the base's noise.
func TestHeadlinePullRequest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	vals := noisy(rng, 40, 100, 0.02)
	try := func(v float64) model.Run {
		return model.Run{Artifact: model.Artifact{ID: "tttttttttttttttttttttttttttttttttttttttt", Kind: model.KindTry, Date: lineEpoch.Add(100 * time.Hour), Baseline: rpCommitID(39)},
			Machine: model.Machine{Name: "m"}, Results: []model.Result{{Case: model.TestCase{Benchmark: "b"}, Metric: "wall-time", Unit: "ns", Samples: []float64{v}}}}
	}
	for _, tt := range []struct {
		head     float64
		relevant bool
	}{{vals[39] * 1.03, false}, {vals[39] * 1.25, true}} {
		d := valueLine(model.Auto, "wall-time", "ns", ones(vals...), nil, try(tt.head))
		head, _ := d.Index("tttttttttttttttttttttttttttttttttttttttt")
		base, _ := d.Index(rpCommitID(39))
		r := onlyRow(t, NewComparer(d, DefaultOptions).Compare(base, head))
		if r.Relevant != tt.relevant || r.Basis != BasisNoise || r.Headline.Width == 0 {
			t.Errorf("head %.1f (change %+.1f%%): relevant %v basis %s %+v; want relevant %v", tt.head, 100*r.Change, r.Relevant, r.Basis, r.Headline, tt.relevant)
		}
	}
}

// A budget fails only on a change out of the noise; a budget that keeps
// perfgate's rule fails on any regression over it.
func TestBudgetWithinNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	vals := noisy(rng, 40, 100, 0.05)
	vals = append(vals, vals[39]*1.12) // over a 10 % budget, inside 4 widths of 5 % noise
	for _, strict := range []bool{false, true} {
		opts := DefaultOptions
		opts.Budgets = map[string]budget.Budget{"wall-time": {Threshold: 0.10, WarnThreshold: 0.09, FailWithinNoise: strict}}
		d := valueLine(model.Auto, "wall-time", "ns", ones(vals...), nil)
		r := rowsAtWith(t, d, opts)[40]
		want := "warn"
		if strict {
			want = "fail"
		}
		if r.Budget == nil || string(r.Budget.Delta.Status) != want || r.Relevant || r.Budget.WithinNoise == strict {
			t.Errorf("fail_within_noise %v: budget %+v, relevant %v; want %s", strict, r.Budget, r.Relevant, want)
		}
	}
}

func rowsAtWith(t *testing.T, d *model.Dataset, opts Options) map[int]Row {
	t.Helper()
	out := map[int]Row{}
	for k, c := range NewComparer(d, opts).Consecutive(1, len(d.MainLine)) {
		if len(c.Rows) == 1 {
			out[k+1] = c.Rows[0]
		}
	}
	return out
}

// TestLevelWindow: the sliding window's median is the selection's, bit for
// bit, through gaps, segment starts and windows of every size.
func TestLevelWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	vals := make([]float64, 400)
	for i := range vals {
		vals[i] = math.Round(100*(1+0.05*rng.NormFloat64())) / 7
		if rng.IntN(20) == 0 {
			vals[i] = math.NaN()
		}
	}
	for _, w := range []int{1, 2, 3, 50} {
		var lw levelWindow
		start := 0
		for p := 1; p < len(vals); p++ {
			if rng.IntN(40) == 0 {
				start = p - 1 - rng.IntN(min(p, 3))
			}
			lw.advance(vals, start, p, w)
			var seg []float64
			for q := p - 1; q >= start && len(seg) < w; q-- {
				if finite(vals[q]) {
					seg = append(seg, vals[q])
				}
			}
			want := quantile.SelectHalvesMedian(seg)
			if got := lw.median(); got != want && !(math.IsNaN(got) && math.IsNaN(want)) || lw.len() != len(seg) {
				t.Fatalf("w %d p %d start %d: median %v of %d, want %v of %d", w, p, start, got, lw.len(), want, len(seg))
			}
		}
	}
}
