package analysis

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
)

// TestHeadCacheEqualsCold checks that headlines resumed from a cached
// entry (resumeAt, CachedHeads.before, seriesHeadlines from there) equal
// headlines computed from nothing, on random series with steps, spikes,
// gaps, breaks and two-level runners, after appended values and after a
// value changed in the middle.
func TestHeadCacheEqualsCold(t *testing.T) {
	o := DefaultHeadline.withDefaults()
	rng := rand.New(rand.NewPCG(7, 11))
	stepsOf := func(vals []float64, breaks []int) []Step {
		found, _ := changepoint.Detect(changepoint.Series{Values: vals, Breaks: breaks, Seed: 3}, changepoint.DefaultOptions, nil)
		out := make([]Step, len(found))
		for i, st := range found {
			out[i] = Step{Step: st}
		}
		return out
	}
	resumed, total := 0, 0
	for trial := range 300 {
		n := 20 + rng.IntN(300)
		vals := make([]float64, n)
		se := make([]float64, n)
		level := 100.0
		for i := range vals {
			switch r := rng.Float64(); {
			case r < 0.02:
				level *= 1 + (rng.Float64()-0.5)*0.6 // a step
			case r < 0.05:
				vals[i] = math.NaN() // no value
				continue
			}
			vals[i] = level * (1 + rng.NormFloat64()*0.02)
			if rng.Float64() < 0.03 {
				vals[i] *= 1.5 // a spike
			}
			if trial%3 == 0 && rng.Float64() < 0.2 {
				vals[i] *= 1.1 // a second level
			}
			if rng.Float64() < 0.5 {
				se[i] = rng.Float64() * 0.01
			}
		}
		var breaks []int
		if trial%4 == 0 {
			breaks = []int{n / 3}
		}
		cut := 1 + rng.IntN(n-1)
		head := vals[:cut]
		var hb []int
		for _, b := range breaks {
			if b < cut {
				hb = append(hb, b)
			}
		}
		hs := stepsOf(head, hb)
		old := CachedHeads{Breaks: hb}
		for _, st := range hs {
			old.Steps = append(old.Steps, st.Step)
		}
		oh := seriesHeadlines(head, se[:cut], hs, hb, model.LowerIsBetter, o, 0)
		old.Verdicts, old.Noise = oh.verdicts, oh.noise
		unchanged := cut
		if trial%5 == 0 && cut > 2 {
			// A value changed in the middle: positions from it differ.
			unchanged = rng.IntN(cut)
			vals[unchanged] *= 1.3
		}
		steps := stepsOf(vals, breaks)
		want := seriesHeadlines(vals, se, steps, breaks, model.LowerIsBetter, o, 0)
		r := resumeAt(&old, unchanged, vals, steps, breaks, o)
		if r%widthBlock != 0 || r > unchanged {
			t.Fatalf("trial %d: resumes at %d (unchanged %d)", trial, r, unchanged)
		}
		got := old.before(r)
		h := seriesHeadlines(vals, se, steps, breaks, model.LowerIsBetter, o, r)
		got.verdicts = append(got.verdicts, h.verdicts...)
		got.noise = append(got.noise, h.noise...)
		wv, wn := want.verdicts, want.noise
		gv, gn := got.verdicts, got.noise
		if !reflect.DeepEqual(wv, gv) || !reflect.DeepEqual(wn, gn) {
			t.Fatalf("trial %d (n %d, cut %d, unchanged %d, resumed at %d): resumed headlines differ from cold ones\nwant %+v\ngot  %+v", trial, n, cut, unchanged, r, wv, gv)
		}
		resumed += n - r
		total += n
	}
	t.Logf("%d of %d positions computed again", resumed, total)
}
