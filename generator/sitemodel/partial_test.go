package sitemodel

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
)

// TestSitePoints checks which points a partial site model keeps of a
// series (sitePoints) on a main line of 60 commits, artifact i at
// position i, and an artifact off the main line (60): the first
// main-line point, the last one and the failing streak before it, and
// SparkSide finite values either side of each step, never a point in
// between.
func TestSitePoints(t *testing.T) {
	const n = 60
	d := model.Dataset{Artifacts: make([]model.Artifact, n+1)}
	for i := range n {
		d.MainLine = append(d.MainLine, i)
	}
	ds := model.Assemble(d, make([]string, n+1))
	// series makes the points of positions from to to (inclusive), with
	// the errors at the positions of failing and NaN values at those of
	// nan, and a point off the main line.
	series := func(from, to int, failing, nan []int) *model.Series {
		s := &model.Series{}
		for a := from; a <= to; a++ {
			pt := model.Point{Artifact: a, Value: float64(a), OK: true}
			if slices.Contains(failing, a) {
				pt = model.Point{Artifact: a, Error: "exit status 2"}
			}
			if slices.Contains(nan, a) {
				pt.Value = math.NaN()
			}
			s.Points = append(s.Points, pt)
		}
		s.Points = append(s.Points, model.Point{Artifact: n, Value: 1, OK: true})
		return s
	}
	span := func(from, to int) []int {
		var out []int
		for i := from; i <= to; i++ {
			out = append(out, i)
		}
		return out
	}
	step := func(prev, index int) analysis.Step {
		return analysis.Step{Step: changepoint.Step{Prev: prev, Index: index}}
	}
	for _, tc := range []struct {
		name  string
		s     *model.Series
		steps []analysis.Step
		want  []int // indexes in s.Points
	}{
		{"first and last", series(0, n-1, nil, nil), nil, []int{0, n - 1}},
		{"starts late", series(10, n-1, nil, nil), nil, []int{n - 11}},
		{"stopped early", series(0, 20, nil, nil), nil, []int{0, 20}},
		{"failing streak", series(0, n-1, []int{30, 57, 58, 59}, nil), nil, []int{0, 57, 58, 59}},
		{"one step", series(0, n-1, nil, nil), []analysis.Step{step(29, 30)}, slices.Concat([]int{0}, span(30-SparkSide, 30+SparkSide-1), []int{n - 1})},
		{"a step's window skips what the sparkline skips", series(0, n-1, []int{27}, []int{28}), []analysis.Step{step(29, 30)},
			slices.Concat([]int{0}, span(30-SparkSide-2, 26), []int{29}, span(30, 30+SparkSide-1), []int{n - 1})},
		{"a step near the end", series(0, n-1, nil, nil), []analysis.Step{step(n-3, n-2)}, slices.Concat([]int{0}, span(n-2-SparkSide, n-1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, sitePoints(ds, tc.s, tc.steps)); diff != "" {
				t.Errorf("sitePoints (-want +got):\n%s", diff)
			}
		})
	}
}
