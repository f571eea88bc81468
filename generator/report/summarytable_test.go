package report

import (
	"math"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

// tableCase is one input of rustc-perf's summary table tests: a test case
// of instructions:u in a category going from before to after.
type tableCase struct {
	cat           model.Category
	before, after float64
}

// tableSummaries judges each case as rustc-perf's check_table does: no
// historical data (so the default threshold 0.002), metric instructions:u
// (noise factor 1), lower is better.
func tableSummaries(t *testing.T, cases []tableCase) (primary, secondary analysis.CategorySummary) {
	t.Helper()
	var p, s []analysis.SummaryItem
	for _, c := range cases {
		change, ok := analysis.RelativeChange(c.before, c.after)
		if !ok {
			t.Fatalf("no relative change from %v to %v", c.before, c.after)
		}
		sig := analysis.ClassifyChange(change, analysis.DefaultSignificanceThreshold, model.Reliable.NoiseFactor())
		it := analysis.SummaryItem{Change: change, Magnitude: sig.Magnitude, Regression: analysis.IsRegression(change, model.LowerIsBetter), Significant: sig.Significant, Relevant: sig.Relevant}
		if c.cat == model.Primary {
			p = append(p, it)
		} else {
			s = append(s, it)
		}
	}
	return analysis.Summarize(p), analysis.Summarize(s)
}

// The 8 summary-table tests of rust-lang/rustc-perf site/src/comparison.rs
// (summary_table_only_regressions_primary … summary_table_mixed_largest_
// change_regression), byte for byte.
func TestSummaryTableUpstream(t *testing.T) {
	P, S := model.Primary, model.Secondary
	tests := []struct {
		name  string
		cases []tableCase
		want  string
	}{
		{
			"summary_table_only_regressions_primary",
			[]tableCase{{P, 5, 10}, {P, 5, 12}, {P, 1, 3}},
			`
| (instructions:u)                   | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | 146.7% | [100.0%, 200.0%] | 3     |
| Regressions ❌ <br /> (secondary)  | -      | -                | 0     |
| Improvements ✅ <br /> (primary)   | -      | -                | 0     |
| Improvements ✅ <br /> (secondary) | -      | -                | 0     |
| All ❌✅ (primary)                 | 146.7% | [100.0%, 200.0%] | 3     |
`,
		},
		{
			"summary_table_only_improvements_primary",
			[]tableCase{{P, 5, 2}, {P, 5, 1}, {P, 4, 1}},
			`
| (instructions:u)                   | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | -      | -                | 0     |
| Regressions ❌ <br /> (secondary)  | -      | -                | 0     |
| Improvements ✅ <br /> (primary)   | -71.7% | [-80.0%, -60.0%] | 3     |
| Improvements ✅ <br /> (secondary) | -      | -                | 0     |
| All ❌✅ (primary)                 | -71.7% | [-80.0%, -60.0%] | 3     |
`,
		},
		{
			"summary_table_only_improvements_secondary",
			[]tableCase{{S, 5, 2}, {S, 5, 1}, {S, 4, 1}},
			`
| (instructions:u)                   | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | -      | -                | 0     |
| Regressions ❌ <br /> (secondary)  | -      | -                | 0     |
| Improvements ✅ <br /> (primary)   | -      | -                | 0     |
| Improvements ✅ <br /> (secondary) | -71.7% | [-80.0%, -60.0%] | 3     |
| All ❌✅ (primary)                 | -      | -                | 0     |
`,
		},
		{
			"summary_table_only_regressions_secondary",
			[]tableCase{{S, 5, 10}, {S, 5, 12}, {S, 1, 3}},
			`
| (instructions:u)                   | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | -      | -                | 0     |
| Regressions ❌ <br /> (secondary)  | 146.7% | [100.0%, 200.0%] | 3     |
| Improvements ✅ <br /> (primary)   | -      | -                | 0     |
| Improvements ✅ <br /> (secondary) | -      | -                | 0     |
| All ❌✅ (primary)                 | -      | -                | 0     |
`,
		},
		{
			"summary_table_mixed_primary",
			[]tableCase{{P, 10, 5}, {P, 5, 10}, {P, 1, 3}, {P, 4, 1}},
			`
| (instructions:u)                   | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | 150.0% | [100.0%, 200.0%] | 2     |
| Regressions ❌ <br /> (secondary)  | -      | -                | 0     |
| Improvements ✅ <br /> (primary)   | -62.5% | [-75.0%, -50.0%] | 2     |
| Improvements ✅ <br /> (secondary) | -      | -                | 0     |
| All ❌✅ (primary)                 | 43.8%  | [-75.0%, 200.0%] | 4     |
`,
		},
		{
			"summary_table_mixed_primary_secondary",
			[]tableCase{{P, 10, 5}, {P, 5, 10}, {S, 5, 10}, {P, 1, 3}, {S, 3, 1}, {P, 4, 1}},
			`
| (instructions:u)                   | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | 150.0% | [100.0%, 200.0%] | 2     |
| Regressions ❌ <br /> (secondary)  | 100.0% | [100.0%, 100.0%] | 1     |
| Improvements ✅ <br /> (primary)   | -62.5% | [-75.0%, -50.0%] | 2     |
| Improvements ✅ <br /> (secondary) | -66.7% | [-66.7%, -66.7%] | 1     |
| All ❌✅ (primary)                 | 43.8%  | [-75.0%, 200.0%] | 4     |
`,
		},
		{
			"summary_table_mixed_largest_change_improvement",
			[]tableCase{{P, 10, 5}, {P, 5, 6}},
			`
| (instructions:u)                   | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | 20.0%  | [20.0%, 20.0%]   | 1     |
| Regressions ❌ <br /> (secondary)  | -      | -                | 0     |
| Improvements ✅ <br /> (primary)   | -50.0% | [-50.0%, -50.0%] | 1     |
| Improvements ✅ <br /> (secondary) | -      | -                | 0     |
| All ❌✅ (primary)                 | -15.0% | [-50.0%, 20.0%]  | 2     |
`,
		},
		{
			"summary_table_mixed_largest_change_regression",
			[]tableCase{{P, 5, 10}, {P, 6, 5}},
			`
| (instructions:u)                   | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | 100.0% | [100.0%, 100.0%] | 1     |
| Regressions ❌ <br /> (secondary)  | -      | -                | 0     |
| Improvements ✅ <br /> (primary)   | -16.7% | [-16.7%, -16.7%] | 1     |
| Improvements ✅ <br /> (secondary) | -      | -                | 0     |
| All ❌✅ (primary)                 | 41.7%  | [-16.7%, 100.0%] | 2     |
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			primary, secondary := tableSummaries(t, tt.cases)
			got := SummaryTable(primary, secondary, "instructions:u")
			if want := strings.TrimPrefix(tt.want, "\n"); got != want {
				t.Errorf("SummaryTable mismatch\nwant:\n%sgot:\n%s", want, got)
			}
		})
	}
}

func TestSummaryTableHeader(t *testing.T) {
	primary, secondary := tableSummaries(t, []tableCase{{model.Primary, 5, 10}})
	none, _ := tableSummaries(t, nil)
	long := strings.Repeat("x", 40)
	tests := []struct {
		name               string
		primary, secondary analysis.CategorySummary
		metric             string
		firstLine          string
	}{
		{"no metric: ten spaces (the PR bot)", primary, secondary, "", "|                                    | mean   | range            | count |"},
		{"metric but nothing relevant: ten spaces, as upstream", none, none, "instructions:u", "|                                    | mean | range | count |"},
		{"a header longer than 34 widens the column", primary, secondary, long, "| (" + long + ") | mean   | range            | count |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SummaryTable(tt.primary, tt.secondary, tt.metric)
			first, rest, _ := strings.Cut(got, "\n")
			if first != tt.firstLine {
				t.Errorf("first line\n%q\nwant\n%q", first, tt.firstLine)
			}
			if n := strings.Count(rest, "\n"); n != 6 {
				t.Errorf("%d more lines, want 6:\n%s", n, got)
			}
		})
	}
}

// A higher-is-better metric: a 20 % drop in throughput is a regression, and
// the regression row shows it with its sign.
func TestSummaryTableHigherIsBetter(t *testing.T) {
	var items []analysis.SummaryItem
	for _, c := range []float64{-0.2, 0.1} {
		sig := analysis.ClassifyChange(c, analysis.DefaultSignificanceThreshold, model.Noisy.NoiseFactor())
		items = append(items, analysis.SummaryItem{Change: c, Magnitude: sig.Magnitude, Regression: analysis.IsRegression(c, model.HigherIsBetter), Significant: sig.Significant, Relevant: sig.Relevant})
	}
	got := SummaryTable(analysis.Summarize(items), analysis.CategorySummary{}, "throughput")
	want := `| (throughput)                       | mean   | range            | count |
|:----------------------------------:|:------:|:----------------:|:-----:|
| Regressions ❌ <br /> (primary)    | -20.0% | [-20.0%, -20.0%] | 1     |
| Regressions ❌ <br /> (secondary)  | -      | -                | 0     |
| Improvements ✅ <br /> (primary)   | 10.0%  | [10.0%, 10.0%]   | 1     |
| Improvements ✅ <br /> (secondary) | -      | -                | 0     |
| All ❌✅ (primary)                 | -5.0%  | [-20.0%, 10.0%]  | 2     |
`
	if got != want {
		t.Errorf("SummaryTable mismatch\nwant:\n%sgot:\n%s", want, got)
	}
}

// The summary table counts changes from 0 and averages the others; with
// none it is upstream's.
func TestSummaryTableFromZero(t *testing.T) {
	inf := math.Inf(1)
	item := func(c float64) analysis.SummaryItem {
		return analysis.SummaryItem{Change: c, Magnitude: analysis.MagnitudeOf(c, analysis.DefaultSignificanceThreshold, 1), Regression: c > 0, Significant: true, Relevant: true}
	}
	primary := analysis.Summarize([]analysis.SummaryItem{item(0.01), item(inf), item(0.03), item(-0.02)})
	secondary := analysis.Summarize([]analysis.SummaryItem{item(inf)})
	want := `| (allocs)                           | mean  | range          | count        |
|:----------------------------------:|:-----:|:--------------:|:------------:|
| Regressions ❌ <br /> (primary)    | 2.0%  | [1.0%, 3.0%]   | 3 (1 from 0) |
| Regressions ❌ <br /> (secondary)  | -     | -              | 1 from 0     |
| Improvements ✅ <br /> (primary)   | -2.0% | [-2.0%, -2.0%] | 1            |
| Improvements ✅ <br /> (secondary) | -     | -              | 0            |
| All ❌✅ (primary)                 | 0.7%  | [-2.0%, 3.0%]  | 4 (1 from 0) |
`
	got := SummaryTable(primary, secondary, "allocs")
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if primary.All.Count != 4 || primary.All.FromZero != 1 || math.Abs(primary.All.Mean-0.02/3) > 1e-15 || primary.All.Max != 0.03 {
		t.Errorf("all: %+v", primary.All)
	}
}

func TestSummaryTableHugeChanges(t *testing.T) {
	huge := analysis.ChangeStats{Count: 2, Mean: 5e307, Min: 0.5, Max: 1e308}
	got := SummaryTable(analysis.CategorySummary{Regressions: huge, All: huge}, analysis.CategorySummary{}, "")
	for _, want := range []string{"| 5.0e+309% ", "| [50.0%, 1.0e+310%] "} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
