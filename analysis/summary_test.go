package analysis

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

// Known answers for the summaries. Direction rules: rustc-perf's
// ArtifactComparisonSummary::direction (site/src/comparison.rs) and its
// boundaries (3 of 20 = 0.15 mixed, 17 of 20 = 0.85 regression, 2 of 20 =
// 0.1 mixed); the examples of rustc-perf's docs/comparison-analysis.md;
// deserves attention: deserves_attention_icount; relevance: RelevanceOf.

// relevantItems returns n relevant changes of one kind and magnitude, for a
// lower-is-better metric (regressions are positive).
func relevantItems(n int, regression bool, m Magnitude) []SummaryItem {
	change := -0.01
	if regression {
		change = 0.01
	}
	items := make([]SummaryItem, n)
	for i := range items {
		items[i] = SummaryItem{Change: change, Magnitude: m, Regression: regression, Significant: true, Relevant: true}
	}
	return items
}

// rpMix returns r small regressions and i small improvements, then turns the
// first regression and/or the first improvement into a medium one.
func rpMix(r, i int, medR, medI bool) []SummaryItem {
	regs := relevantItems(r, true, Small)
	imps := relevantItems(i, false, Small)
	if medR {
		regs[0].Magnitude = Medium
	}
	if medI {
		imps[0].Magnitude = Medium
	}
	return append(regs, imps...)
}

func TestSummaryDirection(t *testing.T) {
	tests := []struct {
		name  string
		items []SummaryItem
		want  SummaryDirection
	}{
		{"no relevant change", nil, DirectionNone},
		{"irrelevant changes do not count", []SummaryItem{{Change: 0.5, Magnitude: VerySmall, Regression: true, Significant: true}}, DirectionNone},
		{"only improvements", rpMix(0, 5, false, false), DirectionImprovement},
		{"only regressions", rpMix(5, 0, true, false), DirectionRegression},
		{"all small: 3 of 20 regressions is mixed", rpMix(3, 17, false, false), DirectionMixed},
		{"all small: 2 of 20 (ratio exactly 0.1) is mixed", rpMix(2, 18, false, false), DirectionMixed},
		{"all small: 1 of 20 is an improvement", rpMix(1, 19, false, false), DirectionImprovement},
		{"all small: 18 of 20 (ratio exactly 0.9) is mixed", rpMix(18, 2, false, false), DirectionMixed},
		{"all small: 19 of 20 is a regression", rpMix(19, 1, false, false), DirectionRegression},
		{"all small: 5 changes are always mixed (rustc-perf's docs)", rpMix(4, 1, false, false), DirectionMixed},
		{"all small: a tie is mixed", rpMix(10, 10, false, false), DirectionMixed},
		{"medium improvement: 3 of 20 regressions (0.15) is mixed", rpMix(3, 17, false, true), DirectionMixed},
		{"medium improvement: 2 of 20 regressions is an improvement", rpMix(2, 18, false, true), DirectionImprovement},
		{"medium regression: 17 of 20 (0.85) is a regression", rpMix(17, 3, true, false), DirectionRegression},
		{"medium regression: 16 of 20 is mixed", rpMix(16, 4, true, false), DirectionMixed},
		{"medium regression: 20 + 4 improvements is mixed (rustc-perf's docs)", rpMix(20, 4, true, false), DirectionMixed},
		{"medium regression: 20 + 3 improvements is a regression (rustc-perf's docs)", rpMix(20, 3, true, false), DirectionRegression},
		{"medium regression: 5 + 1 improvement is mixed (rustc-perf's docs)", rpMix(5, 1, true, false), DirectionMixed},
		{"medium of both kinds is mixed even at 1 of 20", rpMix(1, 19, true, true), DirectionMixed},
		{"large counts as medium or above", func() []SummaryItem {
			it := rpMix(1, 19, false, false)
			it[0].Magnitude = VeryLarge
			return it
		}(), DirectionMixed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summarize(tt.items).Direction(); got != tt.want {
				t.Errorf("Direction() = %v, want %v", got, tt.want)
			}
		})
	}
}

// For a higher-is-better metric a regression is a negative change: the
// classes follow Regression, not the sign.
func TestSummaryHigherIsBetter(t *testing.T) {
	items := []SummaryItem{
		{Change: -0.03, Magnitude: Medium, Regression: true, Significant: true, Relevant: true},
		{Change: -0.01, Magnitude: Small, Regression: true, Significant: true, Relevant: true},
		{Change: 0.02, Magnitude: Small, Regression: false, Significant: true, Relevant: true},
	}
	s := Summarize(items)
	want := CategorySummary{
		Changes:      items,
		Regressions:  ChangeStats{Count: 2, Mean: -0.02, Min: -0.03, Max: -0.01},
		Improvements: ChangeStats{Count: 1, Mean: 0.02, Min: 0.02, Max: 0.02},
		All:          ChangeStats{Count: 3, Mean: (-0.03 + -0.01 + 0.02) / 3, Min: -0.03, Max: 0.02},
	}
	approx := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-15 })
	if diff := cmp.Diff(want, s, approx); diff != "" {
		t.Errorf("Summarize mismatch (-want +got):\n%s", diff)
	}
	// 2 of 3 regressions with a medium one: ratio 0.67 < 0.85 is mixed.
	if got := s.Direction(); got != DirectionMixed {
		t.Errorf("Direction() = %v, want mixed", got)
	}
	if got := Summarize(items[:2]).Direction(); got != DirectionRegression {
		t.Errorf("Direction() of negative regressions only = %v, want regression", got)
	}
}

func TestSummarizeSortsAndFilters(t *testing.T) {
	items := []SummaryItem{
		{Change: 0.2, Magnitude: Large, Regression: true, Significant: true, Relevant: true},
		{Change: 0.9, Magnitude: VerySmall, Regression: true, Significant: true}, // not relevant
		{Change: -0.5, Magnitude: Large, Significant: true, Relevant: true},
		{Change: 0, Magnitude: Small, Significant: true, Relevant: true}, // 0 counts as an improvement, as upstream
		{Change: 0.1, Magnitude: Small, Regression: true, Significant: true, Relevant: true},
	}
	s := Summarize(items)
	changes := make([]float64, len(s.Changes))
	for i, c := range s.Changes {
		changes[i] = c.Change
	}
	if want := []float64{-0.5, 0, 0.1, 0.2}; !slices.Equal(changes, want) {
		t.Errorf("changes = %v, want %v (relevant only, ascending)", changes, want)
	}
	if s.Regressions.Count != 2 || s.Improvements.Count != 2 || s.All.Count != 4 {
		t.Errorf("counts = %d regressions, %d improvements, %d all; want 2, 2, 4", s.Regressions.Count, s.Improvements.Count, s.All.Count)
	}
	if s.Improvements.Min != -0.5 || s.Improvements.Max != 0 {
		t.Errorf("improvement range = [%v, %v], want [-0.5, 0]", s.Improvements.Min, s.Improvements.Max)
	}
}

func TestLargest(t *testing.T) {
	tests := []struct {
		name  string
		items []SummaryItem
		want  SummaryItem
		ok    bool
	}{
		{"none", nil, SummaryItem{}, false},
		{
			"a larger improvement wins",
			[]SummaryItem{{Change: 0.2, Magnitude: Small, Regression: true, Relevant: true}, {Change: -0.5, Magnitude: Medium, Relevant: true}},
			SummaryItem{Change: -0.5, Magnitude: Medium, Relevant: true}, true,
		},
		{
			"a tie goes to the positive change",
			[]SummaryItem{{Change: -0.05, Magnitude: Large, Relevant: true}, {Change: 0.05, Magnitude: Small, Regression: true, Relevant: true}},
			SummaryItem{Change: 0.05, Magnitude: Small, Regression: true, Relevant: true}, true,
		},
		{
			"the largest change's own magnitude, not the largest magnitude",
			[]SummaryItem{{Change: 0.01, Magnitude: VeryLarge, Regression: true, Relevant: true}, {Change: 0.03, Magnitude: Small, Regression: true, Relevant: true}},
			SummaryItem{Change: 0.03, Magnitude: Small, Regression: true, Relevant: true}, true,
		},
		{
			"only improvements: the most negative",
			[]SummaryItem{{Change: -0.01, Magnitude: Small, Relevant: true}, {Change: -0.04, Magnitude: Medium, Relevant: true}},
			SummaryItem{Change: -0.04, Magnitude: Medium, Relevant: true}, true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Summarize(tt.items).Largest()
			if ok != tt.ok {
				t.Fatalf("Largest() ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Largest() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJoin(t *testing.T) {
	N, I, R, M := DirectionNone, DirectionImprovement, DirectionRegression, DirectionMixed
	want := map[[2]SummaryDirection]SummaryDirection{
		{N, N}: N, {N, I}: I, {N, R}: R, {N, M}: M,
		{I, N}: I, {I, I}: I, {I, R}: M, {I, M}: M,
		{R, N}: R, {R, I}: M, {R, R}: R, {R, M}: M,
		{M, N}: M, {M, I}: M, {M, R}: M, {M, M}: M,
	}
	for pair, w := range want {
		if got := pair[0].Join(pair[1]); got != w {
			t.Errorf("%v.Join(%v) = %v, want %v", pair[0], pair[1], got, w)
		}
	}
}

func TestSummaryDirectionText(t *testing.T) {
	for d, want := range map[SummaryDirection]string{DirectionNone: "none", DirectionImprovement: "improvement", DirectionRegression: "regression", DirectionMixed: "mixed"} {
		b, err := d.MarshalText()
		if err != nil || string(b) != want || d.String() != want {
			t.Errorf("%d: MarshalText = %q, %v; String = %q; want %q", int(d), b, err, d.String(), want)
		}
		var back SummaryDirection
		if err := back.UnmarshalText(b); err != nil || back != d {
			t.Errorf("UnmarshalText(%q) = %v, %v", b, back, err)
		}
	}
	for r, want := range map[Relevance]string{RelevanceLow: "low", RelevanceMedium: "medium", RelevanceHigh: "high"} {
		b, err := r.MarshalText()
		if err != nil || string(b) != want || r.String() != want {
			t.Errorf("%d: MarshalText = %q, %v; String = %q; want %q", int(r), b, err, r.String(), want)
		}
		var back Relevance
		if err := back.UnmarshalText(b); err != nil || back != r {
			t.Errorf("UnmarshalText(%q) = %v, %v", b, back, err)
		}
	}
}

// significantItems returns n significant changes of magnitude m (relevant
// when m ≥ Small), with |change| 0.5 %.
func significantItems(n int, m Magnitude) []SummaryItem {
	items := make([]SummaryItem, n)
	for i := range items {
		items[i] = SummaryItem{Change: 0.005, Magnitude: m, Regression: true, Significant: true, Relevant: m >= Small}
	}
	return items
}

func TestRelevanceOf(t *testing.T) {
	cat := func(parts ...[]SummaryItem) []SummaryItem { return slices.Concat(parts...) }
	tests := []struct {
		name  string
		items []SummaryItem
		want  Relevance
	}{
		{"nothing", nil, RelevanceLow},
		{"one large", significantItems(1, Large), RelevanceHigh},
		{"one very large", significantItems(1, VeryLarge), RelevanceHigh},
		{"one medium", significantItems(1, Medium), RelevanceMedium},
		{"two medium", significantItems(2, Medium), RelevanceHigh},
		{"9 small", significantItems(9, Small), RelevanceLow},
		{"10 small", significantItems(10, Small), RelevanceMedium},
		{"19 small", significantItems(19, Small), RelevanceMedium},
		{"20 small", significantItems(20, Small), RelevanceHigh},
		{"very small significant changes count as small", cat(significantItems(12, VerySmall), significantItems(8, Small)), RelevanceHigh},
		{"one medium and 19 small", cat(significantItems(1, Medium), significantItems(19, Small)), RelevanceMedium},
		{"one medium and 20 small", cat(significantItems(1, Medium), significantItems(20, Small)), RelevanceHigh},
		{"insignificant changes do not count", func() []SummaryItem {
			it := significantItems(3, Large)
			for i := range it {
				it[i].Significant, it[i].Relevant = false, false
			}
			return it
		}(), RelevanceLow},
		{"significant changes below 0.01 % do not count", func() []SummaryItem {
			it := significantItems(25, VerySmall)
			for i := range it {
				it[i].Change = 0
			}
			return it
		}(), RelevanceLow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RelevanceOf(tt.items); got != tt.want {
				t.Errorf("RelevanceOf = %v, want %v", got, tt.want)
			}
		})
	}
	if got := RelevanceHigh.Confidence(); got != DefinitelyRelevant {
		t.Errorf("high relevance = %v, want definitely-relevant", got)
	}
	if got := RelevanceMedium.Confidence(); got != ProbablyRelevant {
		t.Errorf("medium relevance = %v, want probably-relevant", got)
	}
	if got := RelevanceLow.Confidence(); got != MaybeRelevant {
		t.Errorf("low relevance = %v, want maybe-relevant", got)
	}
}

func TestDeservesAttention(t *testing.T) {
	tests := []struct {
		name               string
		primary, secondary []SummaryItem
		want               bool
	}{
		{"nothing", nil, nil, false},
		{"primary largest change is medium", relevantItems(1, true, Medium), nil, true},
		{"primary largest change is small", relevantItems(1, true, Small), nil, false},
		{
			"the primary largest change decides, not the largest magnitude",
			[]SummaryItem{
				{Change: 0.01, Magnitude: Medium, Regression: true, Significant: true, Relevant: true},
				{Change: -0.02, Magnitude: Small, Significant: true, Relevant: true},
			}, nil, false,
		},
		{"secondary largest change is large", nil, relevantItems(1, false, Large), true},
		{"secondary largest change is only medium", nil, relevantItems(1, false, Medium), false},
		{"3 small primary: 3·3 = 9", relevantItems(3, true, Small), nil, true},
		{"2 small primary and 3 secondary: 6 + 3 = 9", relevantItems(2, true, Small), relevantItems(3, false, Small), true},
		{"2 small primary and 2 secondary: 8", relevantItems(2, true, Small), relevantItems(2, false, Medium), false},
		{"9 small secondary", nil, relevantItems(9, true, Small), true},
		{"8 small secondary", nil, relevantItems(8, true, Small), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DeservesAttention(Summarize(tt.primary), Summarize(tt.secondary)); got != tt.want {
				t.Errorf("DeservesAttention = %v, want %v", got, tt.want)
			}
		})
	}
}

func ExampleCategorySummary_Direction() {
	// Seed 001: 20 regressions with a medium one and 4 small improvements
	// are mixed; with 3 improvements the result is a regression.
	for _, improvements := range []int{4, 3} {
		s := Summarize(rpMix(20, improvements, true, false))
		fmt.Println(improvements, s.Direction())
	}
	// Output:
	// 4 mixed
	// 3 regression
}

// TestSummaryTop: a metric's summary names its largest counted changes,
// a change from 0 first, equal sizes in series order, at most
// TopChanges; rows that do not count are not named.
func TestSummaryTop(t *testing.T) {
	var rows []*Row
	add := func(name string, before, change float64, relevant bool) {
		s := &model.Series{Key: model.SeriesKey{Benchmark: name, Metric: "m"}}
		r := &Row{Series: s, Before: valuePoint(0, before, true), After: valuePoint(0, before*(1+change), true),
			Change: change, OK: true, Relevant: relevant, Significant: relevant, Regression: change > 0, Magnitude: Large}
		if before == 0 {
			r.After.Value, r.Change, r.FromZero = 8, math.Inf(1), true
		}
		rows = append(rows, r)
	}
	add("small", 100, 0.01, true)
	add("tie-a", 100, -0.05, true)
	add("huge-not-counted", 100, 0.9, false)
	add("tie-b", 100, 0.05, true)
	add("big", 100, 0.2, true)
	add("from-zero", 0, 0, true)
	add("medium", 100, 0.03, true)
	add("smaller", 100, 0.02, true)
	m := SummarizeMetric("m", rows, ModelRustcPerf)
	var got []string
	for _, c := range m.Top {
		got = append(got, c.Key.Benchmark)
	}
	if want := []string{"from-zero", "big", "tie-a", "tie-b", "medium"}; !slices.Equal(got, want) {
		t.Errorf("Top = %v, want %v", got, want)
	}
	if c := m.Top[1]; c.Before != 100 || c.After != 120 || !c.Regression || c.Change != 0.2 {
		t.Errorf("Top[1] = %+v", c)
	}
	if n := m.Primary.All.Count; n != 7 {
		t.Errorf("counted %d changes, want 7", n)
	}
}

// valuePoint is a point of artifact a with value v, OK when ok.
func valuePoint(a int, v float64, ok bool) *model.Point {
	p := &model.Point{Artifact: int32(a)}
	p.SetValue(v, ok)
	return p
}
