package sitemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
)

// stepsDataset is 36 main-line commits, one a day, on one machine, with
// planted steps (values carry a little exact noise):
//   - parse wall-time rises 10 % at commit 15 (a regression);
//   - render wall-time falls 10 % at commit 20 (an improvement), which
//     annotations.yaml acknowledges;
//   - alloc B/op is 0 until commit 10, then 4096 (a step from 0);
//   - steady wall-time never moves; a distribution change is annotated
//     for it at commit 25.
func stepsDataset(t testing.TB) *model.Dataset {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{Value: model.Best})
	start := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	noise := func(i, k int) float64 { return 1 + 0.001*float64((i*7+k*3)%5-2) }
	for i := range 36 { // the rank test confirms a step about ten values after it
		a := model.Artifact{ID: stepsSHA(i), Kind: model.KindCommit, Date: start.AddDate(0, 0, i), Branch: "main", PR: 100 + i, Title: fmt.Sprintf("Change %d", i)}
		if i > 0 {
			a.Parents = []string{stepsSHA(i - 1)}
		}
		parse, render, alloc := 1000*noise(i, 0), 500*noise(i, 1), 0.0
		if i >= 15 {
			parse *= 1.10
		}
		if i >= 20 {
			render *= 0.90
		}
		if i >= 10 {
			alloc = 4096
		}
		res := func(bench, metric, unit string, v float64) model.Result {
			return model.Result{Case: model.TestCase{Benchmark: bench}, Metric: metric, Unit: unit, Samples: []float64{v}}
		}
		b.Add("run", model.Run{Artifact: a, Machine: model.Machine{Name: "m1"}, Results: []model.Result{
			res("parse", "wall-time", "ns", parse), res("render", "wall-time", "ns", render),
			res("alloc", "alloc", "B/op", alloc), res("steady", "wall-time", "ns", 300*noise(i, 3)),
		}})
	}
	d := b.Dataset()
	errs := d.Annotate([]model.Annotation{
		{Kind: model.Acknowledged, Artifact: stepsSHA(20), Benchmark: "render", Note: "the new renderer", Origin: "annotations.yaml:3"},
		{Kind: model.DistributionChange, Artifact: stepsSHA(25), Benchmark: "steady", Note: "new machine image", Origin: "annotations.yaml:6"},
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return d
}

func stepsSHA(i int) string { return strings.Repeat(fmt.Sprintf("%02x", 0xa0+i), 20) }

// TestRegressionsGolden pins what the site makes of detected steps: the
// regressions page (open regressions, improvements, the acknowledged
// step and the accepted distribution change), its feed, the benchmark
// pages' step markers and the triage report's steps. Run with -update and
// read the diff.
func TestRegressionsGolden(t *testing.T) {
	d := stepsDataset(t)
	steps := analysis.Steps(d, changepoint.DefaultOptions, nil)
	if len(steps) != 3 {
		t.Fatalf("found %d steps, want the 3 planted ones: %+v", len(steps), steps)
	}
	opts := smallOptions()
	_, outs := planAll(t, d, opts)
	keep := map[string]bool{"regressions/": true, "regressions/feed.xml": true, "bench/parse/": true, "bench/alloc/": true,
		"triage/2026-03-16.md": true, "triage/2026-03-09.md": true}
	var shown []Output
	for _, o := range outs {
		if keep[o.Path] {
			shown = append(shown, o)
		}
	}
	if len(shown) != len(keep) {
		t.Fatalf("planned %d of the %d outputs", len(shown), len(keep))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(shown); err != nil {
		t.Fatal(err)
	}
	golden(t, "regressions.golden.json", buf.String())
}

// The lists: open regressions first, then improvements; acknowledged
// steps apart; the caps keep whole ranges, newest first, and say how many
// they leave out.
func TestRegressionsLists(t *testing.T) {
	d := stepsDataset(t)
	opts := smallOptions()
	v := regressionsOf(t, d, opts)
	got := map[string][]string{}
	for name, l := range map[string]StepList{"regressions": v.Regressions, "improvements": v.Improvements, "acknowledged": v.Acknowledged} {
		for _, g := range l.Groups {
			for _, s := range g.Steps {
				got[name] = append(got[name], s.Benchmark+" "+s.Change+" at "+g.Artifact.Label)
			}
		}
	}
	want := map[string][]string{
		"regressions":  {"parse +10.00% at #115", "alloc new at #110"},
		"acknowledged": {"render -10.00% at #120"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lists (-want +got):\n%s", diff)
	}
	if len(v.Accepted) != 1 || v.Accepted[0].Artifact.Label != "#125" || v.Accepted[0].SeriesCount != 1 || v.Accepted[0].Selector != "benchmark steady" {
		t.Errorf("accepted = %+v, want the distribution change of steady at #125", v.Accepted)
	}

	// Many steps: the list stops after MaxStepRows, at a range boundary.
	var many []analysis.Step
	for pos := 1; pos < len(d.MainLine); pos++ {
		for k := range 7 {
			many = append(many, analysis.Step{Series: k % len(d.Series), Step: changepoint.Step{Index: pos, Prev: pos - 1, Before: 1, After: 2, Change: 1, P: 0.001},
				Artifact: d.MainLine[pos], Last: d.MainLine[pos-1], Regression: true})
		}
	}
	p := NewPlan(analysis.Analyze(d, analysis.AnalyzeOptions{Steps: many}), Options{}).p
	l := p.stepList("regression", p.groupSteps(many), len(many), true)
	if l.Shown > MaxStepRows || l.Shown%7 != 0 || l.Steps != len(many) || l.Hidden() != len(many)-l.Shown {
		t.Errorf("capped list: shown %d of %d (hidden %d), want whole ranges of 7 up to %d", l.Shown, l.Steps, l.Hidden(), MaxStepRows)
	}
	if first := l.Groups[0].Artifact.ID; first != d.Artifacts[d.MainLine[len(d.MainLine)-1]].ID {
		t.Errorf("first range at %s, want the newest commit", first)
	}
}

func regressionsOf(t *testing.T, d *model.Dataset, opts Options) Regressions {
	t.Helper()
	_, outs := planAll(t, d, opts)
	for _, o := range outs {
		if v, ok := o.Data.(Regressions); ok {
			return v
		}
	}
	t.Fatal("no regressions page")
	return Regressions{}
}

// A step from 0 and one without a p-value (asv's method has no test)
// format without NaN or infinity, which JSON cannot hold.
func TestStepViewNonFinite(t *testing.T) {
	d := stepsDataset(t)
	steps := analysis.Steps(d, changepoint.Options{Method: changepoint.Potts}, nil)
	var fromZero *analysis.Step
	for i := range steps {
		if math.IsInf(steps[i].Change, 0) {
			fromZero = &steps[i]
		}
	}
	if fromZero == nil {
		t.Fatalf("no step from 0 among %+v", steps)
	}
	p := NewPlan(analysis.Analyze(d, analysis.AnalyzeOptions{Steps: steps}), Options{}).p
	v := p.stepView(*fromZero, d.MainLineValues(d.Series[fromZero.Series]), true)
	if v.Change != "new" || v.P != "" || v.Before != "0 B" || strings.Contains(v.Sparkline.LevelBefore+v.Sparkline.LevelAfter, "N") {
		t.Errorf("step from 0: change %q, p %q, before %q, levels %q %q", v.Change, v.P, v.Before, v.Sparkline.LevelBefore, v.Sparkline.LevelAfter)
	}
	if _, err := json.Marshal(v); err != nil {
		t.Error(err)
	}
}

// The sparkline's geometry, by hand: values 1 1 1 | 2 2 2 in a box of
// 120×28 with 2 units of padding.
func TestSparkline(t *testing.T) {
	vals := []float64{1, 1, math.NaN(), 1, 2, 2, 2}
	st := analysis.Step{Step: changepoint.Step{Index: 4, Prev: 3, Before: 1, After: 2}}
	got := sparkline(vals, st, "x")
	want := Sparkline{Width: 120, Height: 28, Label: "x",
		Before: "2.0,26.0 25.2,26.0 48.4,26.0", After: "71.6,2.0 94.8,2.0 118.0,2.0",
		StepX: "60.0", X0: "2.0", X1: "118.0", LevelBefore: "26.0", LevelAfter: "2.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sparkline (-want +got):\n%s", diff)
	}
	// A flat series draws its line in the middle.
	flat := sparkline([]float64{5, 5, 5, 5}, analysis.Step{Step: changepoint.Step{Index: 2, Prev: 1, Before: 5, After: 5}}, "")
	if flat.Before != "2.0,14.0 40.7,14.0" {
		t.Errorf("flat sparkline: %q", flat.Before)
	}
}
