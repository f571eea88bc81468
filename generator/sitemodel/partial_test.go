package sitemodel

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
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
			pt := *valuePoint(a, float64(a), true)
			if slices.Contains(failing, a) {
				pt = model.Point{Artifact: int32(a)}
				pt.SetFailure("exit status 2")
			}
			if slices.Contains(nan, a) {
				pt.Value = math.NaN()
			}
			s.Points = append(s.Points, pt)
		}
		s.Points = append(s.Points, *valuePoint(int(n), 1, true))
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

// TestCollectorFoldedRows checks what a partial site model keeps of a
// comparison's rows: of a row a commit page folds, in a comparison of
// consecutive commits, what the site-wide pages read (foldedRow,
// foldedValue); of a row it pre-renders, and of every row of a comparison
// with a page of its own (whole), every column and value.
func TestCollectorFoldedRows(t *testing.T) {
	d := model.Dataset{Artifacts: make([]model.Artifact, 2), MainLine: []int{0, 1}}
	s := &model.Series{Key: model.SeriesKey{Benchmark: "a", Metric: "m"}}
	d.Series = []*model.Series{s}
	ds := model.Assemble(d, make([]string, 2))
	before := *valuePoint(0, 100, true)
	before.SetSamples([]float64{99, 100, 101})
	after := *valuePoint(1, 100.1, true)
	after.SetSamples([]float64{100, 100.1, 100.2})
	z := zscore.Z{Z: 0.3, OK: true, Mean: 100, Std: 1}
	noise := analysis.Row{Series: s, Before: &before, After: &after, Change: 0.001, OK: true, Threshold: 0.02, Factor: 0.05, Z: z,
		Headline: analysis.Verdict{State: analysis.StateNone, Width: 0.01, Widths: 0.1, Level: 100}}
	relevant := noise
	relevant.Relevant, relevant.Significant, relevant.Magnitude = true, true, analysis.Large
	for _, tc := range []struct {
		name     string
		row      analysis.Row
		whole    bool
		keepsAll bool
	}{
		{"folded", noise, false, false},
		{"folded, page of its own", noise, true, true},
		{"pre-rendered", relevant, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPartial(1, 1, ds, nil)
			p.Collect(ds).Add(&analysis.Comparison{Base: 0, Head: 1, Rows: []analysis.Row{tc.row}}, tc.whole)
			pc, err := p.Comparisons[0].decode()
			if err != nil {
				t.Fatal(err)
			}
			got := pc.Rows[0]
			want := PartialRow{B: &PartialValue{OK: true}, A: &PartialValue{OK: true}, R: tc.row}
			want.R.Series, want.R.Before, want.R.After = nil, nil, nil
			if tc.keepsAll {
				want.B, want.A = &PartialValue{Value: 100, OK: true, Samples: 3}, &PartialValue{Value: 100.1, OK: true, Samples: 3}
			} else {
				want.R.Z, want.R.Factor, want.R.Headline.Widths, want.R.Headline.Level = zscore.Z{}, 0, 0, 0
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("row (-want +got):\n%s", diff)
			}
		})
	}
}

// valuePoint is a point of artifact a with value v, OK when ok.
func valuePoint(a int, v float64, ok bool) *model.Point {
	p := &model.Point{Artifact: int32(a)}
	p.SetValue(v, ok)
	return p
}
