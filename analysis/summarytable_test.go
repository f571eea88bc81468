package analysis

import (
	"math"
	"strings"
	"testing"
)

// tableCase is one input of rustc-perf's summary table tests: a test case
// of instructions:u in a category going from before to after.
type tableCase struct {
	cat           Category
	before, after float64
}

// tableSummaries judges each case as rustc-perf's check_table does: no
// historical data (so the default threshold 0.002), metric instructions:u
// (noise factor 1), lower is better.
func tableSummaries(t *testing.T, cases []tableCase) (primary, secondary CategorySummary) {
	t.Helper()
	var p, s []SummaryItem
	for _, c := range cases {
		change, ok := RelativeChange(c.before, c.after)
		if !ok {
			t.Fatalf("no relative change from %v to %v", c.before, c.after)
		}
		sig := ClassifyChange(change, DefaultSignificanceThreshold, Reliable.NoiseFactor())
		it := SummaryItem{Change: change, Magnitude: sig.Magnitude, Regression: IsRegression(change, LowerIsBetter), Significant: sig.Significant, Relevant: sig.Relevant}
		if c.cat == Primary {
			p = append(p, it)
		} else {
			s = append(s, it)
		}
	}
	return Summarize(p), Summarize(s)
}

// The 8 summary-table tests of rust-lang/rustc-perf site/src/comparison.rs
// (summary_table_only_regressions_primary … summary_table_mixed_largest_
// change_regression; reference/rustc-perf.md §3, which gives test 6
// verbatim), byte for byte.
func TestSummaryTableUpstream(t *testing.T) {
	P, S := Primary, Secondary
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
	primary, secondary := tableSummaries(t, []tableCase{{Primary, 5, 10}})
	none, _ := tableSummaries(t, nil)
	long := strings.Repeat("x", 40)
	tests := []struct {
		name               string
		primary, secondary CategorySummary
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
	var items []SummaryItem
	for _, c := range []float64{-0.2, 0.1} {
		sig := ClassifyChange(c, DefaultSignificanceThreshold, Noisy.NoiseFactor())
		items = append(items, SummaryItem{Change: c, Magnitude: sig.Magnitude, Regression: IsRegression(c, HigherIsBetter), Significant: sig.Significant, Relevant: sig.Relevant})
	}
	got := SummaryTable(Summarize(items), CategorySummary{}, "throughput")
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

// TestFormatNumbers pins the formatting of huge and non-finite numbers:
// fixed decimals below FixedLimit, the same decimals in exponent form from
// there on, never a 300-digit string, "n/a" for NaN and ±Inf.
func TestFormatNumbers(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{FormatFixed(2.5, 2), "2.50"},
		{FormatFixed(-0.0001, 2), "-0.00"},
		{FormatFixed(math.Copysign(0, -1), 2), "0.00"},
		{FormatFixed(999999.994, 2), "999999.99"},
		{FormatFixed(1e6, 2), "1.00e+06"},
		{FormatFixed(-1e308, 2), "-1.00e+308"},
		{FormatFixed(math.MaxFloat64, 0), "2e+308"},
		{FormatFixed(math.NaN(), 2), "n/a"},
		{FormatFixed(math.Inf(-1), 2), "n/a"},
		{FormatSigned(0, 2), "+0.00"},
		{FormatSigned(12.345, 2), "+12.35"},
		{FormatSigned(-3, 1), "-3.0"},
		{FormatSigned(1e308, 2), "+1.00e+308"},
		{FormatSigned(math.Inf(1), 2), "n/a"},
		{FormatSigned(math.NaN(), 2), "n/a"},
		{FormatPercent(0.1234, 1), "12.3%"},
		{FormatPercent(-0.05, 2), "-5.00%"},
		{FormatPercent(9999.99, 2), "999999.00%"},
		{FormatPercent(1e4, 2), "1.00e+06%"},
		{FormatPercent(1e308, 2), "1.00e+310%"},
		{FormatPercent(math.MaxFloat64, 1), "1.8e+310%"},
		{FormatPercent(-5e307, 1), "-5.0e+309%"},
		{FormatPercent(1e-300, 2), "0.00%"},
		{FormatPercent(math.Inf(1), 2), "n/a"},
		{FormatPercentSigned(0, 2), "+0.00%"},
		{FormatPercentSigned(1e308, 2), "+1.00e+310%"},
		{FormatPercentSigned(-0.0566, 2), "-5.66%"},
		{FormatPercentSigned(math.NaN(), 2), "n/a"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestSummaryTableHugeChanges(t *testing.T) {
	huge := ChangeStats{Count: 2, Mean: 5e307, Min: 0.5, Max: 1e308}
	got := SummaryTable(CategorySummary{Regressions: huge, All: huge}, CategorySummary{}, "")
	for _, want := range []string{"| 5.0e+309% ", "| [50.0%, 1.0e+310%] "} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
