package analysis

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

func TestWeekStartAndParseWeek(t *testing.T) {
	for in, want := range map[string]string{
		"2026-09-07T00:00:00Z": "2026-09-07", // Monday 00:00 belongs to its own week
		"2026-09-13T23:59:59Z": "2026-09-07", // Sunday night
		"2026-09-14T00:00:00Z": "2026-09-14",
		"2026-09-10T12:00:00Z": "2026-09-07",
		"2026-01-01T12:00:00Z": "2025-12-29", // across a year
	} {
		tm, _ := time.Parse(time.RFC3339, in)
		if got := WeekStart(tm).Format("2006-01-02"); got != want {
			t.Errorf("WeekStart(%s) = %s, want %s", in, got, want)
		}
	}
	if _, err := ParseWeek("2026-09-14"); err != nil {
		t.Errorf("ParseWeek(Monday): %v", err)
	}
	if _, err := ParseWeek("2026-09-15"); err == nil || err.Error() != `week "2026-09-15" is a Tuesday; weeks start on Monday (2026-09-14)` {
		t.Errorf("ParseWeek(Tuesday) = %v", err)
	}
	if _, err := ParseWeek("14/09/2026"); err == nil {
		t.Error("ParseWeek accepted a non-ISO date")
	}
}

// triageDataset: 40 main-line commits, one a day from Monday 2026-08-03,
// instruction counts steady at 1000 (±0.01 % noise); at day 35 (Monday
// 2026-09-07) a rollup regresses every case by 3 %, at day 37 a PR improves
// the "b" cases by 5 % and regresses nothing, at day 38 a PR changes one
// case by 0.1 % (significant but very small: not relevant).
func triageDataset(t *testing.T) *model.Dataset { return triageDatasetN(t, 40) }

// triageDatasetN is triageDataset with n commits (n > 40 continues every
// level).
func triageDatasetN(t *testing.T, n int) *model.Dataset {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{})
	start := time.Date(2026, 8, 3, 12, 0, 0, 0, time.UTC)
	prev := ""
	for i := range n {
		id := fmt.Sprintf("%040x", i+1)
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: start.AddDate(0, 0, i), Branch: "main", PR: 100 + i, Title: fmt.Sprintf("Change %d", i)}
		if prev != "" {
			a.Parents = []string{prev}
		}
		if i == 35 {
			a.Title = "Rollup of 4 pull requests"
		}
		prev = id
		var results []model.Result
		for _, name := range []string{"a1", "a2", "b1", "b2", "b3"} {
			v := 1000 * (1 + 0.0001*float64((i*7+len(name))%3))
			if i >= 35 {
				v *= 1.03
			}
			if i >= 37 && name[0] == 'b' {
				v *= 0.95
			}
			if i >= 38 && name == "a1" {
				v *= 1.001
			}
			results = append(results, model.Result{Case: model.TestCase{Benchmark: name}, Metric: "instructions:u", Unit: "count", Samples: []float64{v}})
		}
		b.Add("test", model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: results})
	}
	return b.Dataset()
}

// TestTriage: the report's groups, rollups and ranges, under rustc-perf's
// model (which decides a pair of commits at once).
func TestTriage(t *testing.T) {
	d := triageDataset(t)
	c := NewComparer(d, rustcPerfOptions)
	monday := time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC)

	r := TriageWatch(d, c, WeekOf(d, monday), DefinitelyRelevantFilter, "", DefaultWatchOptions)
	if r.Compared != 5 { // days 35..39 fall in the week of 2026-09-07
		t.Errorf("Compared = %d, want 5", r.Compared)
	}
	if len(r.Regressions) != 1 || len(r.Improvements) != 1 || len(r.Mixed) != 0 {
		t.Fatalf("groups = %d/%d/%d, want 1/1/0", len(r.Regressions), len(r.Improvements), len(r.Mixed))
	}
	if got := d.Artifacts[r.Regressions[0].Comparison.Head].PR; got != 135 {
		t.Errorf("regression is PR %d, want 135", got)
	}
	if !r.Regressions[0].Rollup || r.Rollups() != 1 {
		t.Errorf("rollup not counted")
	}
	if got := d.Artifacts[r.Improvements[0].Comparison.Head].PR; got != 137 {
		t.Errorf("improvement is PR %d, want 137", got)
	}
	if d.Artifacts[r.First].PR != 134 || d.Artifacts[r.Last].PR != 139 {
		t.Errorf("revision range = #%d..#%d, want #134..#139", d.Artifacts[r.First].PR, d.Artifacts[r.Last].PR)
	}
	// The summary is the kept entries' changes together: five series 3 %
	// up (#135), three 5 % down (#137).
	sum := r.Summary()
	if len(sum) != 1 || sum[0].Metric != "instructions:u" || sum[0].Entries != 2 || sum[0].Direction != DirectionMixed {
		t.Fatalf("summary = %+v, want instructions:u, mixed, of 2 entries", sum)
	}
	if reg, imp := sum[0].Primary.Regressions, sum[0].Primary.Improvements; reg.Count != 5 || math.Abs(reg.Mean-0.03) > 1e-3 || imp.Count != 3 || math.Abs(imp.Mean+0.05) > 1e-3 {
		t.Errorf("summary regressions %+v, improvements %+v; want 5 of 3 %%, 3 of -5 %%", reg, imp)
	}
	// Each entry names its largest changes.
	var named []string
	for _, c := range r.Improvements[0].Metrics[0].Top {
		named = append(named, c.Key.Benchmark)
		if !(c.Change < -0.04) || c.Regression || c.Before == 0 || c.After == 0 {
			t.Errorf("improvement's top change %+v", c)
		}
	}
	if want := []string{"b1", "b2", "b3"}; !slices.Equal(named, want) {
		t.Errorf("the improvement names %v, want %v", named, want)
	}

	// A week without commits compares nothing.
	empty := TriageWatch(d, c, WeekOf(d, monday.AddDate(0, 0, 7)), DefinitelyRelevantFilter, "", DefaultWatchOptions)
	if empty.Compared != 0 || empty.First != -1 || len(empty.Summary()) != 0 {
		t.Errorf("empty week: %+v", empty)
	}
	// Restricting to a metric that does not exist keeps nothing.
	none := TriageWatch(d, c, WeekOf(d, monday), DefinitelyRelevantFilter, "wall-time", DefaultWatchOptions)
	if len(none.Regressions)+len(none.Improvements)+len(none.Mixed) != 0 || len(none.Summary()) != 0 {
		t.Errorf("metric filter: %+v", none)
	}
}

// TestTriagePerfpages: under model perfpages a week's changes count once
// the values after them confirm them. Five days after the rollup nothing is
// confirmed (3 % is far out of this noise, but not too large to wait);
// twenty days after, the week's report has the rollup's regression and the
// improvement, confirmed by commits of later weeks.
func TestTriagePerfpages(t *testing.T) {
	monday := time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC)
	d := triageDataset(t)
	c := NewComparer(d, DefaultOptions)
	r := TriageWatch(d, c, WeekOf(d, monday), DefinitelyRelevantFilter, "", DefaultWatchOptions)
	if n := len(r.Regressions) + len(r.Improvements) + len(r.Mixed); n != 0 {
		t.Errorf("five days after: %d entries, want none (nothing confirmed yet)", n)
	}
	rows := c.Compare(d.MainLine[34], d.MainLine[35]).Rows
	for _, row := range rows {
		if row.Headline.State != StateUnconfirmed || row.Relevant {
			t.Errorf("%s at the rollup: state %q relevant %v, want unconfirmed, not counted", row.Series.Key.Benchmark, row.Headline.State, row.Relevant)
		}
	}

	d = triageDatasetN(t, 60)
	c = NewComparer(d, DefaultOptions)
	r = TriageWatch(d, c, WeekOf(d, monday), DefinitelyRelevantFilter, "", DefaultWatchOptions)
	if r.Compared != 7 {
		t.Errorf("Compared = %d, want 7", r.Compared)
	}
	if len(r.Regressions) != 1 || len(r.Improvements) != 1 || len(r.Mixed) != 0 {
		t.Fatalf("groups = %d/%d/%d, want 1/1/0", len(r.Regressions), len(r.Improvements), len(r.Mixed))
	}
	reg, imp := r.Regressions[0].Comparison, r.Improvements[0].Comparison
	if d.Artifacts[reg.Head].PR != 135 || d.Artifacts[imp.Head].PR != 137 {
		t.Errorf("regression #%d improvement #%d, want #135 and #137", d.Artifacts[reg.Head].PR, d.Artifacts[imp.Head].PR)
	}
	for _, c := range []*Comparison{reg, imp} {
		m, _ := c.Metric("instructions:u")
		if m.ConfirmedAt <= 35 || m.ConfirmedAt > 37+DefaultHeadline.Settle {
			t.Errorf("#%d confirmed at %d, want within %d commits after it", d.Artifacts[c.Head].PR, m.ConfirmedAt, DefaultHeadline.Settle)
		}
		for _, row := range c.Rows {
			if row.Relevant && (row.Headline.State != StateConfirmed || row.Basis != BasisPersistence) {
				t.Errorf("#%d %s: relevant as %q (%s), want confirmed persistence", d.Artifacts[c.Head].PR, row.Series.Key.Benchmark, row.Headline.State, row.Basis)
			}
		}
	}
}

func TestTriageFilterKeeps(t *testing.T) {
	tests := []struct {
		name string
		m    MetricSummary
		keep map[TriageFilter]bool
	}{
		{"no relevant change", MetricSummary{Direction: DirectionNone, Confidence: DefinitelyRelevant, DefinitelyRelevant: true, DeservesAttention: true},
			map[TriageFilter]bool{DefinitelyRelevantFilter: false, ProbablyRelevantFilter: false, DeservesAttentionFilter: false}},
		{"definitely", MetricSummary{Direction: DirectionRegression, Confidence: DefinitelyRelevant, DefinitelyRelevant: true},
			map[TriageFilter]bool{DefinitelyRelevantFilter: true, ProbablyRelevantFilter: true, DeservesAttentionFilter: false}},
		{"probably", MetricSummary{Direction: DirectionImprovement, Confidence: ProbablyRelevant},
			map[TriageFilter]bool{DefinitelyRelevantFilter: false, ProbablyRelevantFilter: true, DeservesAttentionFilter: false}},
		{"maybe but deserves attention", MetricSummary{Direction: DirectionMixed, Confidence: MaybeRelevant, DeservesAttention: true},
			map[TriageFilter]bool{DefinitelyRelevantFilter: false, ProbablyRelevantFilter: false, DeservesAttentionFilter: true}},
	}
	for _, tt := range tests {
		for f, want := range tt.keep {
			if got := f.Keeps(&tt.m); got != want {
				t.Errorf("%s: %s.Keeps = %v, want %v", tt.name, f, got, want)
			}
		}
	}
	if TriageFilter("all").Valid() {
		t.Error(`"all" is not a filter`)
	}
}

func TestWeeks(t *testing.T) {
	d := triageDataset(t)
	w := Weeks(d)
	// Days 1..39 from Monday 2026-08-03 (day 0 has no predecessor): six weeks.
	if len(w) != 6 || w[0].Monday.Format("2006-01-02") != "2026-08-03" || w[5].Monday.Format("2006-01-02") != "2026-09-07" {
		t.Errorf("Weeks = %v", w)
	}
	// The last week is the one WeekOf finds.
	if d := cmp.Diff(WeekOf(d, w[5].Monday), w[5]); d != "" {
		t.Errorf("WeekOf differs from Weeks (-WeekOf +Weeks):\n%s", d)
	}
}

// TestSeriesHistoryMatchesCompare: a history chart marks exactly what the
// commit pages say.
func TestSeriesHistoryMatchesCompare(t *testing.T) {
	d := triageDataset(t)
	for _, opts := range []Options{DefaultOptions, {Model: ModelRustcPerf2021}} {
		c := NewComparer(d, opts)
		for i, s := range d.Series {
			rows := c.SeriesHistory(i)
			if len(rows) != len(d.MainLine) {
				t.Fatalf("%s: %d rows for %d main-line points", s.Key.Benchmark, len(rows), len(d.MainLine))
			}
			for k := 1; k < len(rows); k++ {
				cmp := c.Compare(d.MainLine[k-1], d.MainLine[k])
				var want *Row
				for j := range cmp.Rows {
					if cmp.Rows[j].Series == s {
						want = &cmp.Rows[j]
					}
				}
				got := rows[k]
				if want == nil || got.Change != want.Change || got.Threshold != want.Threshold || got.Relevant != want.Relevant || got.Magnitude != want.Magnitude || got.Dodgy != want.Dodgy || got.History != want.History {
					t.Fatalf("%s %s point %d: SeriesHistory %+v, Compare %+v", opts.Model, s.Key.Benchmark, k, got, want)
				}
			}
			if rows[0].OK {
				t.Errorf("the first point has no predecessor but is OK")
			}
		}
	}
}

// TestWeeksFollowTheMainLine: dates going backwards along the main line
// (a commit dated 2024-08-20 pushed after one dated 2024-08-30) never put
// a week twice on the line: a commit lands in its predecessor's week when
// its own date's week is earlier, and WeekOf agrees with Weeks.
func TestWeeksFollowTheMainLine(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			t.Fatal(err)
		}
		return d.Add(9 * time.Hour)
	}
	b := model.NewBuilder(model.BuildOptions{})
	dates := []string{"2024-08-19", "2024-08-30", "2024-08-20", "2024-08-21", "2024-09-03", "2024-08-01", "2024-09-10"}
	prev := ""
	for i, s := range dates {
		id := fmt.Sprintf("%040x", i+1)
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: day(s), Branch: "main"}
		if prev != "" {
			a.Parents = []string{prev}
		}
		prev = id
		b.Add("t", model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: []model.Result{{Case: model.TestCase{Benchmark: "x"}, Metric: "wall-time", Unit: "ns", Samples: []float64{float64(100 + i)}}}})
	}
	d := b.Dataset()
	pos := func(ids ...int) []int { // artifact indices of the main line's positions
		var out []int
		for _, p := range ids {
			out = append(out, d.MainLine[p])
		}
		return out
	}
	want := []Week{
		{Monday: day("2024-08-26").Truncate(24 * time.Hour), Heads: pos(1, 2, 3)},
		{Monday: day("2024-09-02").Truncate(24 * time.Hour), Heads: pos(4, 5)},
		{Monday: day("2024-09-09").Truncate(24 * time.Hour), Heads: pos(6)},
	}
	got := Weeks(d)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("weeks (-want +got):\n%s", diff)
	}
	for _, w := range want {
		if diff := cmp.Diff(w, WeekOf(d, w.Monday)); diff != "" {
			t.Errorf("WeekOf(%s) (-want +got):\n%s", w.Monday.Format("2006-01-02"), diff)
		}
	}
	if w := WeekOf(d, day("2024-08-19").Truncate(24*time.Hour)); len(w.Heads) != 0 {
		t.Errorf("the week of the first commit compares %v; nothing landed in it after the first commit", w.Heads)
	}
}
