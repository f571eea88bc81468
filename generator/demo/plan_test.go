package demo

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

func TestPlanFor(t *testing.T) {
	tests := []struct {
		size            string
		name            string
		commits, series int
	}{
		{"demo", "demo", 140, 140},
		{"Demo", "demo", 140, 140},
		{"s", "S", 100, 100},
		{"S", "S", 100, 100},
		{"m", "M", 1_000, 1_000},
		{"L", "L", 5_000, 5_000},
	}
	for _, tt := range tests {
		t.Run(tt.size, func(t *testing.T) {
			p, err := PlanFor(tt.size)
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != tt.name || p.Commits != tt.commits || p.SeriesPerMachine != tt.series || len(p.Machines) != 2 || p.Samples != 5 {
				t.Errorf("PlanFor(%q) = %s, %d commits, %d series per machine, %d machines, %d samples; want %s, %d, %d, 2, 5",
					tt.size, p.Name, p.Commits, p.SeriesPerMachine, len(p.Machines), p.Samples, tt.name, tt.commits, tt.series)
			}
			if err := p.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
	for _, bad := range []string{"", "xl", "medium", "demo "} {
		t.Run("unknown "+bad, func(t *testing.T) {
			if _, err := PlanFor(bad); err == nil || !strings.Contains(err.Error(), "want demo, S, M or L") {
				t.Errorf("PlanFor(%q) error = %v, want one naming the known sizes", bad, err)
			}
		})
	}
}

func TestInvalidPlans(t *testing.T) {
	s, _ := PlanFor("S")
	d, _ := PlanFor("demo")
	tests := []struct {
		name   string
		change func(p *Plan)
		base   Plan
		want   string
	}{
		{"no commits", func(p *Plan) { p.Commits = 0 }, s, "commits must be at least 1"},
		{"no samples", func(p *Plan) { p.Samples = 0 }, s, "samples must be at least 1"},
		{"no machines", func(p *Plan) { p.Machines = nil }, s, "no machines"},
		{"duplicate machine", func(p *Plan) { p.Machines = append(p.Machines, p.Machines[0]) }, s, "listed twice"},
		{"unnamed machine", func(p *Plan) { p.Machines = []model.Machine{{OS: "linux"}} }, s, "has no name"},
		{"no start", func(p *Plan) { p.Start = time.Time{} }, s, "no start date"},
		{"bad gaps", func(p *Plan) { p.MinGap, p.MaxGap = 2*time.Hour, time.Hour }, s, "gaps between commits"},
		{"unknown suite", func(p *Plan) { p.Suite = "huge" }, s, `unknown suite "huge"`},
		{"synthetic without series", func(p *Plan) { p.SeriesPerMachine = 0 }, s, "series per machine must be at least 1"},
		{"demo with another series count", func(p *Plan) { p.SeriesPerMachine = 10 }, d, "the demo suite has 140 series per machine"},
		{"demo with too many commits", func(p *Plan) { p.Commits = 1000 }, d, "do not fit in 10 weeks"},
		{"demo with too few weeks", func(p *Plan) { p.Weeks, p.Commits = 5, 100 }, d, "no main-line commit in week 6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.base
			p.Machines = append([]model.Machine(nil), p.Machines...)
			tt.change(&p)
			err := p.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "plan "+p.Name+": ") {
				t.Fatalf("Validate() = %v, want an error about %q naming the plan", err, tt.want)
			}
			if gerr := p.Generate(func(model.Run) error { return nil }); gerr == nil || gerr.Error() != err.Error() {
				t.Errorf("Generate() = %v, want %v", gerr, err)
			}
			if ev := p.Events(); ev != nil {
				t.Errorf("Events() of an invalid plan = %d events, want nil", len(ev))
			}
		})
	}
}

func TestGenerateStopsOnEmitError(t *testing.T) {
	p, _ := PlanFor("demo")
	stop := errors.New("disk full")
	calls := 0
	err := p.Generate(func(model.Run) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 3 {
		t.Errorf("Generate returned %v after %d calls, want %v after 3", err, calls, stop)
	}
}

func TestSmallSyntheticPlansDropPlantsThatDoNotFit(t *testing.T) {
	p, _ := PlanFor("S")
	p.Commits, p.SeriesPerMachine = 3, 7
	runs := 0
	err := p.Generate(func(r model.Run) error {
		runs++
		if len(r.Results) != 7 {
			t.Errorf("run %s on %s has %d results, want 7", r.Artifact.Short(), r.Machine.Name, len(r.Results))
		}
		return nil
	})
	if err != nil || runs != 6 {
		t.Fatalf("Generate = %v with %d runs, want nil and 6", err, runs)
	}
	for _, e := range p.Events() {
		if e.Kind != KindBimodal && e.Artifact == "" {
			t.Errorf("event %+v has no artifact", e)
		}
	}
}
