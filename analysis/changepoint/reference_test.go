package changepoint_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/generator/planted"
)

// TestReferenceDetectors scores the step detector against the reference
// methods on the planted-truth suites of generator/planted (both shapes,
// seed 22 unless PLANTED_SEED says otherwise), with the planted report's
// scoring (planted.ScorePositions: a detection within 2 commits of a
// planted step finds it):
//
//   - windowed: Detect with DefaultOptions, what /regressions/ shows;
//   - global: E-divisive over the whole history as MongoDB's
//     signal-processing-algorithms runs it (p ≤ 0.05 with 100
//     permutations, global_test.go), through the same report filters;
//   - potts: asv's step detection (Method Potts).
//
// It measures and asserts nothing about the numbers (the planted README
// records them); it runs only when asked, as the planted report does:
//
//	PLANTED_REPORT=1 go test -run TestReferenceDetectors -v ./analysis/changepoint
func TestReferenceDetectors(t *testing.T) {
	if os.Getenv("PLANTED_REPORT") == "" {
		t.Skip("set PLANTED_REPORT=1 to compare the step detector with the reference methods on the planted suites")
	}
	c, err := planted.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	o := planted.DefaultOptions
	if v := os.Getenv("PLANTED_SEED"); v != "" {
		if _, err := fmt.Sscan(v, &o.Seed); err != nil {
			t.Fatalf("PLANTED_SEED=%q: %v", v, err)
		}
	}
	potts := changepoint.DefaultOptions
	potts.Method = changepoint.Potts
	methods := []struct {
		name   string
		detect func(changepoint.Series) []changepoint.Step
	}{
		{"windowed (perfpages)", func(s changepoint.Series) []changepoint.Step {
			st, _ := changepoint.Detect(s, changepoint.DefaultOptions, nil)
			return st
		}},
		{"global (MongoDB's E-divisive)", func(s changepoint.Series) []changepoint.Step {
			return changepoint.DetectGlobal(s, changepoint.DefaultOptions, 0.05, 100)
		}},
		{"potts (asv)", func(s changepoint.Series) []changepoint.Step {
			st, _ := changepoint.Detect(s, potts, nil)
			return st
		}},
	}
	var rows []planted.Labeled[*planted.StepScore]
	var ks []float64
	for _, shape := range []planted.Shape{planted.Values, planted.Samples} {
		o.Shape = shape
		s, err := planted.Generate(c, o)
		if err != nil {
			t.Fatal(err)
		}
		ks = s.Options.Ks
		for _, m := range methods {
			by := map[*planted.Series][]int{}
			noise := map[string][]int{}
			for _, ps := range s.Series {
				seed := criterion.Seed(ps.Benchmark)
				for _, st := range m.detect(changepoint.Series{Values: ps.Values, Seed: seed}) {
					by[ps] = append(by[ps], st.Index)
				}
				for _, st := range m.detect(changepoint.Series{Values: ps.Unplanted(), Seed: seed}) {
					noise[ps.Benchmark] = append(noise[ps.Benchmark], st.Index)
				}
			}
			rows = append(rows, planted.Labeled[*planted.StepScore]{Shape: string(shape) + ", " + m.name, Score: planted.ScorePositions(s, by, planted.DefaultTolerance, noise)})
		}
	}
	var b strings.Builder
	planted.WriteStepsTable(&b, rows, ks)
	t.Log("\n" + b.String())
}
