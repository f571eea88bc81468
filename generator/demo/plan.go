package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// Suite chooses the benchmarks and planted changes of a plan.
type Suite string

// The suites.
const (
	// SuiteDemo is the hand-written suite of the demo site: about a dozen
	// named benchmarks with parameters, a calendar of planted changes tied
	// to triage weeks, and try runs of open PRs.
	SuiteDemo Suite = "demo"
	// SuiteSynthetic has generated benchmark names (bench-0000 {variant: a|b|…})
	// that reach exactly Plan.SeriesPerMachine series per machine, with a
	// few planted changes at fixed fractions of the history.
	SuiteSynthetic Suite = "synthetic"
)

// Plan describes a dataset to generate. Plans are values; Generate is pure
// and deterministic.
type Plan struct {
	// Name names the dataset ("demo", "S", "M", "L"); it appears in errors
	// and seeds the commit ids, so two plans that differ only in name give
	// different shas.
	Name  string
	Suite Suite
	// Commits is the number of main-line merge commits.
	Commits int
	// SeriesPerMachine is the number of series (test case × metric) on each
	// machine. The synthetic suite generates exactly this many; the demo
	// suite has a fixed set, whose size this must equal (or be 0).
	SeriesPerMachine int
	// Machines run every artifact; runs are emitted in name order.
	Machines []model.Machine
	// Context is the context of every run (toolchain and the like).
	Context model.Params
	// Samples is the number of samples per result.
	Samples int
	// Iters selects the test cases whose wall-time results carry
	// per-sample iteration counts from Criterion's linear sampling (d, 2d,
	// …, k·d), so that the Criterion analysis runs on them: each entry is
	// a benchmark name ("*" for all), optionally followed by parameters
	// the test case must have ("json-encode size=large"). The samples stay
	// per-iteration times.
	Iters []string
	// Start is the date of the history's first day (UTC).
	Start time.Time
	// Weeks, when positive, spreads the commits over this many weeks from
	// Start in a working-week rhythm: every weekday has at least one merge
	// when there are enough commits, weekends have fewer, times cluster in
	// working hours. Otherwise consecutive commits are MinGap to MaxGap
	// apart.
	Weeks          int
	MinGap, MaxGap time.Duration
	// Seed seeds every random choice.
	Seed uint64
}

// DemoStart is the first day of the demo's history, a Monday.
var DemoStart = time.Date(2026, 8, 31, 0, 0, 0, 0, time.UTC)

// PlanFor returns the plan for "demo", "S", "M" or "L" (case-insensitive).
func PlanFor(size string) (Plan, error) {
	switch strings.ToLower(size) {
	case "demo":
		return Plan{
			Name:             "demo",
			Suite:            SuiteDemo,
			Commits:          140,
			SeriesPerMachine: demoSeriesPerMachine(),
			Machines:         DefaultMachines(),
			Context:          model.Params{{Key: "toolchain", Value: "go1.26.1"}},
			Samples:          5,
			Iters:            []string{"json-encode size=large"},
			Start:            DemoStart,
			Weeks:            10,
			Seed:             20260831,
		}, nil
	case "s":
		return scalePlan("S", 100, 200, 1), nil
	case "m":
		return scalePlan("M", 1_000, 2_000, 2), nil
	case "l":
		return scalePlan("L", 5_000, 10_000, 3), nil
	}
	return Plan{}, fmt.Errorf("unknown dataset %q (want demo, S, M or L)", size)
}

// scalePlan is a synthetic plan of commits main-line artifacts and series
// series in total over the default machines.
func scalePlan(name string, commits, series int, seed uint64) Plan {
	machines := DefaultMachines()
	return Plan{
		Name:             name,
		Suite:            SuiteSynthetic,
		Commits:          commits,
		SeriesPerMachine: series / len(machines),
		Machines:         machines,
		Context:          model.Params{{Key: "toolchain", Value: "go1.26.1"}},
		Samples:          5,
		Start:            time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC),
		MinGap:           time.Hour,
		MaxGap:           4 * time.Hour,
		Seed:             seed,
	}
}

// DefaultMachines are the two machines of every predefined plan: a
// dedicated x86-64 server and a cloud ARM instance.
func DefaultMachines() []model.Machine {
	return []model.Machine{
		{
			Name: "linux-arm64-graviton", OS: "linux", Arch: "arm64", CPU: "AWS Graviton3",
			Cores: 8, MemoryBytes: 32 << 30,
			Labels: model.Params{{Key: "instance", Value: "c7g.2xlarge"}, {Key: "pool", Value: "cloud"}},
		},
		{
			Name: "linux-x64-epyc", OS: "linux", Arch: "amd64", CPU: "AMD EPYC 7763",
			Cores: 16, MemoryBytes: 64 << 30,
			Labels: model.Params{{Key: "governor", Value: "performance"}, {Key: "pool", Value: "dedicated"}, {Key: "smt", Value: "off"}},
		},
	}
}

// Validate reports what is wrong with the plan, if anything.
func (p Plan) Validate() error {
	_, err := p.compile()
	return err
}

// check validates the plan's own fields; compile checks what depends on
// the suite.
func (p Plan) check() error {
	switch {
	case p.Suite != SuiteDemo && p.Suite != SuiteSynthetic:
		return fmt.Errorf("unknown suite %q (want %q or %q)", p.Suite, SuiteDemo, SuiteSynthetic)
	case p.Commits < 1:
		return fmt.Errorf("commits must be at least 1, not %d", p.Commits)
	case p.Samples < 1:
		return fmt.Errorf("samples must be at least 1, not %d", p.Samples)
	case len(p.Machines) == 0:
		return fmt.Errorf("no machines")
	case p.Start.IsZero():
		return fmt.Errorf("no start date")
	case p.Weeks < 0:
		return fmt.Errorf("weeks must not be negative, not %d", p.Weeks)
	case p.Weeks == 0 && (p.MinGap < time.Second || p.MaxGap < p.MinGap):
		return fmt.Errorf("gaps between commits must satisfy 1s ≤ min ≤ max, not %v and %v", p.MinGap, p.MaxGap)
	case p.SeriesPerMachine < 0 || p.Suite == SuiteSynthetic && p.SeriesPerMachine == 0:
		return fmt.Errorf("series per machine must be at least 1, not %d", p.SeriesPerMachine)
	}
	seen := map[string]bool{}
	for _, m := range p.Machines {
		if m.Name == "" {
			return fmt.Errorf("a machine has no name")
		}
		if seen[m.Name] {
			return fmt.Errorf("machine %q is listed twice", m.Name)
		}
		seen[m.Name] = true
	}
	return nil
}
