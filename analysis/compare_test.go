package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

// lineSeries is one test case × metric of a hand-built main line: value
// gives its value at main-line commit i, or false when it has none there;
// failed marks commits where it failed.
type lineSeries struct {
	bench, metric, unit string
	cat                 model.Category
	value               func(i int) (float64, bool)
	failed              func(i int) bool
}

func rpCommitID(i int) string { return fmt.Sprintf("%040x", i+1) }

var lineEpoch = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)

// lineDataset builds n main-line commits, one hour apart, each the first
// parent of the next, on one machine, plus the extra runs.
func lineDataset(n int, series []lineSeries, extra ...model.Run) *model.Dataset {
	b := model.NewBuilder(model.BuildOptions{})
	for i := range n {
		a := model.Artifact{ID: rpCommitID(i), Kind: model.KindCommit, Date: lineEpoch.Add(time.Duration(i) * time.Hour), Branch: "main", PR: 1000 + i}
		if i > 0 {
			a.Parents = []string{rpCommitID(i - 1)}
		}
		run := model.Run{Artifact: a, Machine: model.Machine{Name: "linux-x64"}}
		for _, s := range series {
			res := model.Result{Case: model.TestCase{Benchmark: s.bench, Category: s.cat}, Metric: s.metric, Unit: s.unit}
			switch v, ok := s.value(i); {
			case s.failed != nil && s.failed(i):
				res.Error = "exit status 2"
			case ok:
				res.Samples = []float64{v}
			default:
				continue
			}
			run.Results = append(run.Results, res)
		}
		b.Add(fmt.Sprintf("results/%d.json", i), run)
	}
	for i, r := range extra {
		b.Add(fmt.Sprintf("extra/%d.json", i), r)
	}
	return b.Dataset()
}

// rpAlt is 1000 at even commits and 1001 at odd ones (the alternating
// history of rustcperf_test.go).
func rpAlt(i int) float64 { return 1000 + float64(i%2) }

// rpRow finds the row of a benchmark and metric.
func rpRow(t *testing.T, c *Comparison, bench, metric string) Row {
	t.Helper()
	for _, r := range c.Rows {
		if r.Series.Case.Benchmark == bench && r.Series.Key.Metric == metric {
			return r
		}
	}
	t.Fatalf("no row for %s %s", bench, metric)
	return Row{}
}

// altThreshold is the threshold of 30 alternating values.
var altThreshold = altFence()

const lineN = 60 // commits 0…59; the last is the head of most tests

func lineFixture() *model.Dataset { return lineDataset(lineN, fixtureSeries()) }

func fixtureSeries() []lineSeries {
	last := lineN - 1
	return []lineSeries{
		{
			// +1 % at the last commit over an alternating history.
			bench: "steady", metric: "instructions:u", unit: "count",
			value: func(i int) (float64, bool) {
				if i == last {
					return 1010, true
				}
				return rpAlt(i), true
			},
		},
		{
			// Only 13 results before the base: default threshold.
			bench: "young", metric: "instructions:u", unit: "count",
			value: func(i int) (float64, bool) {
				if i < last-14 {
					return 0, false
				}
				if i == last {
					return 2006, true
				}
				return 2000, true
			},
		},
		{
			// No result at every third commit and failures at every
			// fifth: those ancestors are skipped, not counted.
			bench: "gappy", metric: "instructions:u", unit: "count",
			value: func(i int) (float64, bool) {
				if i%3 == 0 {
					return 0, false
				}
				return 500 + float64(i%7), true
			},
			failed: func(i int) bool { return i%5 == 0 && i != last && i != last-1 },
		},
		{
			// Higher is better: a 5 % drop is a regression.
			bench: "parse", metric: "throughput", unit: "MB/s", cat: model.Secondary,
			value: func(i int) (float64, bool) {
				if i == last {
					return 95, true
				}
				return 100 + float64(i%3)/10, true
			},
		},
	}
}

func TestCompareThresholds(t *testing.T) {
	d := lineFixture()
	if len(d.MainLine) != lineN {
		t.Fatalf("main line has %d commits, want %d", len(d.MainLine), lineN)
	}
	base, head := d.MainLine[lineN-2], d.MainLine[lineN-1]
	c := Compare(d, base, head, rustcPerfOptions)
	if len(c.Warnings) > 0 {
		t.Fatalf("warnings: %v", c.Warnings)
	}
	if c.HistoryFrom != d.MainLine[lineN-3] {
		t.Errorf("HistoryFrom = %d, want the base's parent %d", c.HistoryFrom, d.MainLine[lineN-3])
	}

	t.Run("30 alternating ancestors give the alternating history's threshold", func(t *testing.T) {
		r := rpRow(t, c, "steady", "instructions:u")
		if r.History != 30 || r.Threshold != altThreshold {
			t.Errorf("history %d, threshold %v; want 30, %v", r.History, r.Threshold, altThreshold)
		}
		// Base 58 is 1000, head 1010: +1 % ≈ 9.97 thresholds; over bucket
		// Large (6t ≤ c < 12t), absolute Medium (1 %): Medium.
		if math.Abs(r.Change-0.01) > 1e-12 || !r.Significant || r.Magnitude != Medium || !r.Relevant || !r.Regression {
			t.Errorf("row = change %v significant %v magnitude %v relevant %v regression %v; want +1 %%, significant, medium, relevant, regression", r.Change, r.Significant, r.Magnitude, r.Relevant, r.Regression)
		}
		if want := 0.01 / altThreshold; math.Abs(r.Factor-want) > 1e-9 {
			t.Errorf("factor %v, want %v", r.Factor, want)
		}
	})

	t.Run("fewer than 30 values: default threshold", func(t *testing.T) {
		r := rpRow(t, c, "young", "instructions:u")
		if r.History != 13 || r.Threshold != DefaultSignificanceThreshold {
			t.Errorf("history %d, threshold %v; want 13, %v", r.History, r.Threshold, DefaultSignificanceThreshold)
		}
		// +0.3 % at threshold 0.2 %: 1.5·t exactly is over = Small;
		// absolute 0.3 % Small: Small, relevant.
		if !r.Significant || r.Magnitude != Small {
			t.Errorf("significant %v magnitude %v; want true, small", r.Significant, r.Magnitude)
		}
	})

	t.Run("ancestors without a value or with a failure are skipped", func(t *testing.T) {
		var want []float64
		for i := lineN - 3; i >= 0 && len(want) < 30; i-- {
			if i%3 != 0 && i%5 != 0 {
				want = append(want, 500+float64(i%7))
			}
		}
		if len(want) != 30 {
			t.Fatalf("fixture has %d gappy values, want 30", len(want))
		}
		r := rpRow(t, c, "gappy", "instructions:u")
		if r.History != 30 || r.Threshold != thresholdInto(nil, want, RustcPerfHistory) {
			t.Errorf("history %d, threshold %v; want 30, %v", r.History, r.Threshold, thresholdInto(nil, want, RustcPerfHistory))
		}
	})

	t.Run("higher is better", func(t *testing.T) {
		r := rpRow(t, c, "parse", "throughput")
		if !r.Regression || r.Change >= 0 || !r.Relevant {
			t.Errorf("change %v regression %v relevant %v; want a relevant negative regression", r.Change, r.Regression, r.Relevant)
		}
	})

	t.Run("summaries per metric", func(t *testing.T) {
		var names []string
		for _, m := range c.Metrics {
			names = append(names, m.Metric)
		}
		if diff := cmp.Diff([]string{"instructions:u", "throughput"}, names); diff != "" {
			t.Errorf("metric summaries (-want +got):\n%s", diff)
		}
		m, ok := c.Metric("instructions:u")
		if !ok {
			t.Fatal("no instructions:u summary")
		}
		if m.Primary.Regressions.Count < 2 || m.Direction != DirectionRegression || m.Relevance != RelevanceMedium || !m.DeservesAttention {
			t.Errorf("instructions:u summary = %+v", m)
		}
		if m.Confidence != ProbablyRelevant || m.DefinitelyRelevant {
			t.Errorf("confidence %v definitely %v; want probably-relevant (medium relevance), false", m.Confidence, m.DefinitelyRelevant)
		}
		tp, _ := c.Metric("throughput")
		if tp.Secondary.Regressions.Count != 1 || tp.Primary.All.Count != 0 || tp.Direction != DirectionRegression {
			t.Errorf("throughput summary = %+v", tp)
		}
		if _, ok := c.Metric("wall-time"); ok {
			t.Error("summary for a metric without rows")
		}
	})
}

func TestCompareHistoryLookback(t *testing.T) {
	// With History = 5 the walk looks back at most 15 ancestors: a series
	// with a value at every 4th commit finds 4 (default threshold), one
	// with a value at every 2nd commit finds 5.
	every := func(k int) func(int) (float64, bool) {
		return func(i int) (float64, bool) { return rpAlt(i/k) + float64(i%k), i%k == 0 || i >= lineN-2 }
	}
	// Commit 42 is the 16th ancestor of the base: just out of reach.
	sparse := func(i int) (float64, bool) {
		v, ok := every(4)(i)
		return v, ok || i == lineN-18
	}
	d := lineDataset(lineN, []lineSeries{
		{bench: "sparse", metric: "instructions:u", unit: "count", value: sparse},
		{bench: "dense", metric: "instructions:u", unit: "count", value: every(2)},
	})
	base, head := d.MainLine[lineN-2], d.MainLine[lineN-1]
	c := Compare(d, base, head, Options{Model: ModelRustcPerf, History: 5})
	if r := rpRow(t, c, "sparse", "instructions:u"); r.History != 4 || r.Threshold != DefaultSignificanceThreshold {
		t.Errorf("sparse: history %d threshold %v; want 4, the default", r.History, r.Threshold)
	}
	r := rpRow(t, c, "dense", "instructions:u")
	var h []float64
	for i := lineN - 3; len(h) < 5; i-- {
		if v, ok := every(2)(i); ok {
			h = append(h, v)
		}
	}
	if r.History != 5 || r.Threshold != thresholdInto(nil, h, 5) {
		t.Errorf("dense: history %d threshold %v; want 5, %v", r.History, r.Threshold, thresholdInto(nil, h, 5))
	}
}

func TestCompareBaseOffTheMainLine(t *testing.T) {
	series := []lineSeries{{bench: "steady", metric: "instructions:u", unit: "count", value: func(i int) (float64, bool) { return rpAlt(i), true }}}
	res := []model.Result{{Case: model.TestCase{Benchmark: "steady"}, Metric: "instructions:u", Unit: "count", Samples: []float64{1020}}}
	late := lineEpoch.Add(100 * time.Hour)
	try := model.Run{
		Artifact: model.Artifact{ID: "try-1", Kind: model.KindTry, Date: late, Baseline: rpCommitID(40), PR: 77},
		Machine:  model.Machine{Name: "linux-x64"}, Results: res,
	}
	tag := model.Run{
		Artifact: model.Artifact{ID: "v1.0.0", Kind: model.KindTag, Date: late.Add(time.Hour), Parents: []string{rpCommitID(41)}},
		Machine:  model.Machine{Name: "linux-x64"}, Results: res,
	}
	local := model.Run{
		Artifact: model.Artifact{ID: "my-laptop", Kind: model.KindLocal, Date: late.Add(2 * time.Hour)},
		Machine:  model.Machine{Name: "linux-x64"}, Results: res,
	}
	d := lineDataset(lineN, series, try, tag, local)
	idx := func(id string) int {
		i, ok := d.Index(id)
		if !ok {
			t.Fatalf("no artifact %s", id)
		}
		return i
	}
	head := d.MainLine[lineN-1]
	tests := []struct {
		name      string
		base      int
		from      int // main-line commit the history starts at, -1 for none
		threshold float64
	}{
		// History from the baseline itself (40, 39, …): alternating.
		{"try run: from its baseline", idx("try-1"), 40, altThreshold},
		{"tag: from its first parent", idx("v1.0.0"), 41, altThreshold},
		{"local build without ancestry: default", idx("my-laptop"), -1, DefaultSignificanceThreshold},
		{"first commit: no ancestors", d.MainLine[0], -1, DefaultSignificanceThreshold},
		{"commit 30 has exactly 30 ancestors", d.MainLine[30], 29, altThreshold},
		{"commit 29 has 29: default", d.MainLine[29], 28, DefaultSignificanceThreshold},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Compare(d, tt.base, head, rustcPerfOptions)
			wantFrom := -1
			if tt.from >= 0 {
				wantFrom = d.MainLine[tt.from]
			}
			if c.HistoryFrom != wantFrom {
				t.Errorf("HistoryFrom = %d, want %d", c.HistoryFrom, wantFrom)
			}
			if r := rpRow(t, c, "steady", "instructions:u"); r.Threshold != tt.threshold {
				t.Errorf("threshold %v, want %v", r.Threshold, tt.threshold)
			}
		})
	}
}

func TestCompareModel2021(t *testing.T) {
	last := lineN - 1
	d := lineDataset(lineN, []lineSeries{
		{
			// Deltas of 1/1000 and 1/1001: mean below 0.001, not dodgy;
			// +0.5 % is above 0.1 %.
			bench: "steady", metric: "instructions:u", unit: "count",
			value: func(i int) (float64, bool) {
				if i == last {
					return 1000 * 1.005, true
				}
				return rpAlt(i), true
			},
		},
		{
			// Deltas of 1 %: noisy, dodgy; +0.5 % is not above 1 %.
			bench: "noisy", metric: "instructions:u", unit: "count",
			value: func(i int) (float64, bool) {
				if i == last {
					return 1000 * 1.005, true
				}
				return 1000 + 10*float64(i%2), true
			},
		},
	})
	base, head := d.MainLine[lineN-2], d.MainLine[lineN-1]
	c := Compare(d, base, head, Options{Model: ModelRustcPerf2021})
	if !reflect.DeepEqual(c.Options, options2021()) {
		t.Errorf("options %+v", c.Options)
	}
	steady, noisy := rpRow(t, c, "steady", "instructions:u"), rpRow(t, c, "noisy", "instructions:u")
	if steady.Dodgy || steady.Threshold != Threshold2021 || !steady.Significant || steady.History != lineN-2 {
		t.Errorf("steady: dodgy %v threshold %v significant %v history %d", steady.Dodgy, steady.Threshold, steady.Significant, steady.History)
	}
	if !noisy.Dodgy || noisy.Threshold != DodgyThreshold2021 || noisy.Significant {
		t.Errorf("noisy: dodgy %v threshold %v significant %v", noisy.Dodgy, noisy.Threshold, noisy.Significant)
	}
	m, _ := c.Metric("instructions:u")
	if m.Significant != 1 || m.Confidence != MaybeRelevant || m.DefinitelyRelevant {
		t.Errorf("summary: %d significant, confidence %v", m.Significant, m.Confidence)
	}
}

// options2021 is DefaultOptions with the 2021 model.
func options2021() Options {
	o := DefaultOptions
	o.Model = ModelRustcPerf2021
	return o
}

func TestCompareConfidence2021(t *testing.T) {
	// n test cases that each gain 0.5 % at the last commit over a flat
	// history: all significant under the 2021 model.
	for _, tt := range []struct {
		n    int
		want Confidence
	}{{3, MaybeRelevant}, {4, ProbablyRelevant}, {6, ProbablyRelevant}, {7, DefinitelyRelevant}} {
		var series []lineSeries
		for k := range tt.n {
			series = append(series, lineSeries{bench: fmt.Sprintf("b%d", k), metric: "instructions:u", unit: "count", value: func(i int) (float64, bool) {
				if i == 9 {
					return 1005, true
				}
				return 1000, true
			}})
		}
		d := lineDataset(10, series)
		c := Compare(d, d.MainLine[8], d.MainLine[9], options2021())
		m, _ := c.Metric("instructions:u")
		if m.Confidence != tt.want || m.DefinitelyRelevant != (tt.want == DefinitelyRelevant) {
			t.Errorf("%d significant: confidence %v definitely %v; want %v", tt.n, m.Confidence, m.DefinitelyRelevant, tt.want)
		}
	}
}

func TestCompareRows(t *testing.T) {
	d := lineDataset(3, []lineSeries{
		{bench: "new", metric: "size", unit: "bytes", value: func(i int) (float64, bool) { return 5, i == 2 }},
		{bench: "gone", metric: "size", unit: "bytes", value: func(i int) (float64, bool) { return 5, i == 1 }},
		{bench: "broken", metric: "size", unit: "bytes", value: func(i int) (float64, bool) { return 5, true }, failed: func(i int) bool { return i == 2 }},
	})
	c := Compare(d, d.MainLine[1], d.MainLine[2], DefaultOptions)
	notes := map[string]string{}
	for _, r := range c.Rows {
		if r.OK || r.Significant || r.Magnitude != 0 {
			t.Errorf("%s: OK %v significant %v magnitude %v; want no change", r.Series.Case.Benchmark, r.OK, r.Significant, r.Magnitude)
		}
		notes[r.Series.Case.Benchmark] = r.Note
	}
	want := map[string]string{"new": "new: no result in base", "gone": "gone: no result in head", "broken": "failed: exit status 2"}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings = %v", c.Warnings)
	}
	if m, _ := c.Metric("size"); m.Direction != DirectionNone || m.Relevance != RelevanceLow {
		t.Errorf("summary of rows without change: %+v", m)
	}
}

func TestCompareBadInput(t *testing.T) {
	d := lineDataset(3, []lineSeries{{bench: "b", metric: "m", unit: "ns", value: func(i int) (float64, bool) { return 1, true }}})
	t.Run("unknown model falls back to the defaults with a warning", func(t *testing.T) {
		c := Compare(d, d.MainLine[1], d.MainLine[2], Options{Model: "bogus"})
		if !reflect.DeepEqual(c.Options, DefaultOptions) || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0].Error(), `model = "bogus": unknown model`) {
			t.Errorf("options %+v, warnings %v", c.Options, c.Warnings)
		}
		if len(c.Rows) != 1 {
			t.Errorf("%d rows, want 1", len(c.Rows))
		}
	})
	t.Run("artifact indices out of range", func(t *testing.T) {
		c := Compare(d, -1, 99, DefaultOptions)
		if len(c.Rows) != 0 || len(c.Warnings) != 1 {
			t.Errorf("rows %d, warnings %v", len(c.Rows), c.Warnings)
		}
		if c := NewComparer(d, DefaultOptions).Compare(0, 3); len(c.Warnings) != 1 {
			t.Errorf("comparer warnings %v", c.Warnings)
		}
	})
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		err  string
	}{
		{"zero options are the defaults", Options{}, ""},
		{"defaults", DefaultOptions, ""},
		{"2021", Options{Model: ModelRustcPerf2021, History2021: 50, DodgyDelta: 0.05}, ""},
		{"unknown model", Options{Model: "rustc"}, `model = "rustc": unknown model (want perfpages, rustc-perf or rustc-perf-2021)`},
		{"history of one value", Options{History: 1}, "history = 1: too short (want at least 2 values)"},
		{"negative 2021 history", Options{History2021: -3}, "history_2021 = -3: too short"},
		{"negative dodgy delta", Options{DodgyDelta: -0.1}, "dodgy_delta = -0.1: want a positive number"},
		{"NaN dodgy delta", Options{DodgyDelta: math.NaN()}, "dodgy_delta = NaN"},
		{"infinite z threshold", Options{ZThreshold: math.Inf(1)}, "z_threshold = +Inf: want a positive number"},
		{"lookback of one commit", Options{Lookback: 1}, "lookback = 1: too short (want at least 2 commits)"},
		{"z minimum of one", Options{ZMinCommits: 1}, "z_min_commits = 1: want at least 2 commits"},
		{"alpha of 1", Options{Alpha: 1}, "alpha = 1: want a significance level between 0 and 1"},
		{"negative nresamples", Options{NResamples: -5}, "nresamples = -5: want a positive number"},
		// Config once accepted this while analysis refused it and silently
		// used its defaults; now it is one rule with the key's name.
		{"too many resamples", Options{NResamples: 20_000_000}, "nresamples = 20000000: must be ≤ 10000000"},
		{"largest nresamples", Options{NResamples: 10_000_000}, ""},
		{"negative noise threshold", Options{NoiseThreshold: -0.01}, "noise_threshold = -0.01: want a positive fraction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opts.Validate()
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.err)
			}
		})
	}
}

// sameRowTargets compares rows' series and points by identity (both must
// point into the dataset) and errors by message.
var sameRowTargets = cmp.Options{
	cmp.Comparer(func(a, b *model.Series) bool { return a == b }),
	cmp.Comparer(func(a, b *model.Point) bool { return a == b }),
	cmp.Comparer(func(a, b error) bool { return a.Error() == b.Error() }),
}

// A Comparer gives the same comparisons as Compare for every consecutive
// pair of the main line and for off-line bases, under both models.
func TestComparerMatchesCompare(t *testing.T) {
	late := lineEpoch.Add(100 * time.Hour)
	try := model.Run{
		Artifact: model.Artifact{ID: "try-1", Kind: model.KindTry, Date: late, Baseline: rpCommitID(40)},
		Machine:  model.Machine{Name: "linux-x64"},
		Results:  []model.Result{{Case: model.TestCase{Benchmark: "steady"}, Metric: "instructions:u", Unit: "count", Samples: []float64{1020}}},
	}
	// Sparse series put the ends of the 3 × History lookback to the test.
	series := fixtureSeries()
	for _, k := range []int{3, 4, 5, 7} {
		series = append(series, lineSeries{
			bench: fmt.Sprintf("every-%d", k), metric: "wall-time", unit: "ns",
			value: func(i int) (float64, bool) { return 100 + float64(i%11), i%k == 0 || i%13 == 0 },
		})
	}
	d := lineDataset(lineN, series, try)
	tryIdx, _ := d.Index("try-1")
	type verdict struct {
		History                      int
		Threshold                    float64
		Dodgy, Significant, Relevant bool
		Magnitude                    Magnitude
	}
	verdicts := func(c *Comparison) []verdict {
		var v []verdict
		for _, r := range c.Rows {
			v = append(v, verdict{r.History, r.Threshold, r.Dodgy, r.Significant, r.Relevant, r.Magnitude})
		}
		return v
	}
	for _, opts := range []Options{DefaultOptions, options2021(), {History: 7}, {Model: ModelRustcPerf2021, History2021: 6}} {
		cmpr := NewComparer(d, opts)
		// Whole comparisons for consecutive commits and the try run.
		pairs := [][2]int{{tryIdx, d.MainLine[lineN-1]}, {d.MainLine[lineN-1], tryIdx}}
		for p := 1; p < len(d.MainLine); p++ {
			pairs = append(pairs, [2]int{d.MainLine[p-1], d.MainLine[p]})
		}
		for _, pr := range pairs {
			want, got := Compare(d, pr[0], pr[1], opts), cmpr.Compare(pr[0], pr[1])
			if diff := cmp.Diff(want, got, sameRowTargets); diff != "" {
				t.Fatalf("%+v, %d → %d: Comparer differs from Compare (-Compare +Comparer):\n%s", opts, pr[0], pr[1], diff)
			}
		}
		// The verdicts for every ordered pair of main-line commits, so
		// that the sparse series are compared at every base; the short
		// windows make the ends of the lookback matter.
		if opts.History != 7 && opts.History2021 != 6 {
			continue
		}
		for i := range d.MainLine {
			for j := range d.MainLine {
				a, b := d.MainLine[i], d.MainLine[j]
				want, got := verdicts(Compare(d, a, b, opts)), verdicts(cmpr.Compare(a, b))
				if slices.Equal(want, got) {
					continue
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("%+v, %d → %d: Comparer differs from Compare (-Compare +Comparer):\n%s", opts, a, b, diff)
				}
			}
		}
	}
}

// BenchmarkCompare compares consecutive main-line commits of a synthetic
// dataset of 1,000 commits × 2,000 series (values with 0.5 % noise and
// occasional steps, some series missing results), one comparison per
// iteration: Compare alone, and a Comparer built once as the site does.
func BenchmarkCompare(b *testing.B) {
	const commits, nseries = 1000, 2000
	rng := rand.New(rand.NewPCG(20, 26))
	level := make([]float64, nseries)
	for k := range level {
		level[k] = 1e3 + rng.Float64()*1e9
	}
	bld := model.NewBuilder(model.BuildOptions{})
	metrics := []string{"instructions:u", "wall-time", "max-rss", "cycles:u"}
	for i := range commits {
		a := model.Artifact{ID: rpCommitID(i), Kind: model.KindCommit, Date: lineEpoch.Add(time.Duration(i) * time.Minute), Branch: "main"}
		if i > 0 {
			a.Parents = []string{rpCommitID(i - 1)}
		}
		run := model.Run{Artifact: a, Machine: model.Machine{Name: "bench"}, Results: make([]model.Result, 0, nseries)}
		for k := range nseries {
			if rng.IntN(50) == 0 {
				continue
			}
			if rng.IntN(500) == 0 {
				level[k] *= 1 + (rng.Float64()-0.5)/10
			}
			cat := model.Primary
			if k%3 == 0 {
				cat = model.Secondary
			}
			run.Results = append(run.Results, model.Result{
				Case:    model.TestCase{Benchmark: fmt.Sprintf("bench-%d", k/4), Category: cat},
				Metric:  metrics[k%4],
				Unit:    "count",
				Samples: []float64{level[k] * (1 + rng.NormFloat64()/200)},
			})
		}
		bld.Add(a.ID, run)
	}
	d := bld.Dataset()
	if len(d.Series) != nseries || len(d.MainLine) != commits {
		b.Fatalf("dataset has %d series and %d main-line commits", len(d.Series), len(d.MainLine))
	}
	b.Run("Compare", func(b *testing.B) {
		p := 0
		for b.Loop() {
			p = p%(commits-1) + 1
			Compare(d, d.MainLine[p-1], d.MainLine[p], DefaultOptions)
		}
	})
	b.Run("Comparer", func(b *testing.B) {
		c := NewComparer(d, DefaultOptions)
		p := 0
		for b.Loop() {
			p = p%(commits-1) + 1
			c.Compare(d.MainLine[p-1], d.MainLine[p])
		}
	})
	b.Run("NewComparer", func(b *testing.B) {
		for b.Loop() {
			NewComparer(d, DefaultOptions)
		}
	})
}

// A Comparer may be shared by goroutines (run with -race to check).
func TestComparerConcurrent(t *testing.T) {
	d := lineFixture()
	cmpr := NewComparer(d, DefaultOptions)
	want := make([]*Comparison, len(d.MainLine))
	for p := 1; p < len(d.MainLine); p++ {
		want[p] = cmpr.Compare(d.MainLine[p-1], d.MainLine[p])
	}
	got := make([]*Comparison, len(d.MainLine))
	done := make(chan int)
	for p := 1; p < len(d.MainLine); p++ {
		go func() {
			got[p] = cmpr.Compare(d.MainLine[p-1], d.MainLine[p])
			done <- p
		}()
	}
	for p := 1; p < len(d.MainLine); p++ {
		<-done
	}
	if diff := cmp.Diff(want, got, sameRowTargets); diff != "" {
		t.Errorf("concurrent comparisons differ (-sequential +concurrent):\n%s", diff)
	}
}
