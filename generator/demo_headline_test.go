package generator

import (
	"context"
	"testing"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/demo"
)

// loadDemo is the demo site and its dataset.
func loadDemo(t *testing.T) (*Site, *model.Dataset) {
	t.Helper()
	s, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := s.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s, d
}

// TestDemoHeadlineFindsPlanted: every change content/about.md lists as
// planted in the demo's main line is what the headline (model perfpages)
// says at its commit: each step planted significant is counted there, in
// its direction, on at least one series it touches; the spike is labelled
// a spike and counted nowhere; the real 0.2 % slowdown below the noise is
// not counted.
func TestDemoHeadlineFindsPlanted(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: analyses the demo data")
	}
	s, d := loadDemo(t)
	res := s.Analyze(d)
	plan, err := demo.PlanFor("demo")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, e := range plan.Events() {
		i, ok := d.Index(e.Artifact)
		if !ok || d.MainPos(i) <= 0 {
			continue // a property of the history, or a try run
		}
		pos := d.MainPos(i)
		c := res.Compare(d.MainLine[pos-1], i)
		var counted, spikes, touched int
		for _, r := range c.Rows {
			if !r.OK || !e.Matches(r.Series.Key.Machine, r.Series.Case, r.Series.Key.Metric) {
				continue
			}
			touched++
			up := r.Change > 0 || r.FromZero
			if r.Relevant && (e.Size == 0 || up == (e.Size > 0)) {
				counted++
			}
			if r.Headline.State == analysis.StateSpike {
				spikes++
			}
		}
		switch {
		case (e.Kind == demo.KindRegression || e.Kind == demo.KindImprovement || e.Kind == demo.KindMixed) && e.Significant:
			if counted == 0 {
				t.Errorf("#%d %s (%s %s %s %s, %+.1f %%): not counted on any of %d series", e.PR, e.Kind, e.Benchmark, e.Params, e.Metric, e.Machine, 100*e.Size, touched)
			}
			found++
		case e.Kind == demo.KindSpike:
			if spikes == 0 || counted > 0 {
				t.Errorf("#%d spike: %d rows labelled spike, %d counted; want a spike, none counted", e.PR, spikes, counted)
			}
		case e.Kind == demo.KindNoise:
			if counted > 0 {
				t.Errorf("#%d's change below the noise is counted on %d series", e.PR, counted)
			}
		}
	}
	if found < 9 {
		t.Errorf("%d planted main-line changes checked, want the 9+ content/about.md lists", found)
	}
}
