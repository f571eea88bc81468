package analysis

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/model"
)

// watchRows builds rows of a comparison, one per spec: "metric name
// before after" where before and after are a value, "err" (a failure) or
// "-" (no result); sig marks the change significant.
func watchRows(specs []struct {
	metric, bench string
	before, after string
	sig           bool
}) []Row {
	point := func(s string) *model.Point {
		switch s {
		case "-":
			return nil
		case "err":
			p := &model.Point{}
			p.SetFailure("exit status 2")
			return p
		}
		var v float64
		fmt.Sscan(s, &v)
		p := valuePoint(0, v, true)
		p.SetSamples([]float64{v})
		return p
	}
	var rows []Row
	for _, sp := range specs {
		s := &model.Series{Key: model.SeriesKey{Machine: "m", Benchmark: sp.bench, Metric: sp.metric}, Case: model.TestCase{Benchmark: sp.bench}, Metric: model.Metric{Name: sp.metric, Direction: model.LowerIsBetter}}
		r, classify, _ := newRow(s, point(sp.before), point(sp.after))
		if classify {
			r.Significant = sp.sig
			r.Basis = BasisHistory
			r.Magnitude = MagnitudeOf(r.Change, 0.01, 2)
		}
		rows = append(rows, r)
	}
	return rows
}

func TestWatchComparison(t *testing.T) {
	c := &Comparison{Rows: watchRows([]struct {
		metric, bench string
		before, after string
		sig           bool
	}{
		{"wall-time", "a-new-failure", "100", "err", false},
		{"wall-time", "b-failing-still", "err", "err", false},
		{"wall-time", "c-new-and-failing", "-", "err", false},
		{"wall-time", "d-fixed", "err", "100", false},
		{"wall-time", "e-large", "100", "108", true},
		{"wall-time", "f-large-not-significant", "100", "120", false},
		{"wall-time", "g-small", "100", "104.9", true},
		{"wall-time", "h-exactly-5", "100", "95", true},
		{"max-rss", "i-from-zero", "0", "4096", true},
		{"max-rss", "j-large-improvement", "100", "50", true},
		{"instructions:u", "k-gone", "100", "-", false},
	})}
	got := WatchComparison(c, WatchOptions{LargeChange: 0.05, Limit: 1})
	key := func(metric, bench string) model.SeriesKey {
		return model.SeriesKey{Machine: "m", Benchmark: bench, Metric: metric}
	}
	want := &Watch{Options: WatchOptions{LargeChange: 0.05, Limit: 1}, Metrics: []MetricWatch{
		{Metric: "max-rss", Large: WatchList{Total: 2, Rows: []WatchRow{
			{Key: key("max-rss", "i-from-zero"), Change: math.Inf(1), FromZero: true, Regression: true, Magnitude: VeryLarge, Basis: BasisHistory},
		}}},
		{Metric: "wall-time",
			Failures: WatchList{Total: 1, Rows: []WatchRow{{Key: key("wall-time", "a-new-failure"), Error: "exit status 2"}}},
			Fixed:    WatchList{Total: 1, Rows: []WatchRow{{Key: key("wall-time", "d-fixed"), Error: "exit status 2"}}},
			Large: WatchList{Total: 2, Rows: []WatchRow{
				{Key: key("wall-time", "e-large"), Change: 0.08, Regression: true, Magnitude: MagnitudeOf(0.08, 0.01, 2), Basis: BasisHistory},
			}}},
	}}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return a == b || math.Abs(a-b) < 1e-12 })); diff != "" {
		t.Errorf("WatchComparison (-want +got):\n%s", diff)
	}

	// 0 lists no large change; the failures stay.
	off := WatchComparison(c, WatchOptions{})
	if f, x, l := off.Count(); f != 1 || x != 1 || l != 0 {
		t.Errorf("large_change 0: counts %d/%d/%d, want 1/1/0", f, x, l)
	}
	if off.Options.Limit != DefaultWatchLimit {
		t.Errorf("limit 0 is %d, want the default %d", off.Options.Limit, DefaultWatchLimit)
	}
	// Without the limit every large change is listed, largest first.
	all := WatchComparison(c, DefaultWatchOptions)
	var order []string
	for _, m := range all.Metrics {
		for _, r := range m.Large.Rows {
			order = append(order, r.Key.Benchmark)
		}
	}
	if diff := cmp.Diff([]string{"i-from-zero", "j-large-improvement", "e-large", "h-exactly-5"}, order); diff != "" {
		t.Errorf("large changes (-want +got):\n%s", diff)
	}
}

// lookDataset: 12 main-line commits, one a day from Monday 2026-09-07,
// each the base of the next; the week of 2026-09-07 has heads 1..6.
func lookDataset(t *testing.T) *model.Dataset {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{})
	start := time.Date(2026, 9, 7, 12, 0, 0, 0, time.UTC)
	prev := ""
	for i := range 12 {
		id := fmt.Sprintf("%040x", i+1)
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: start.AddDate(0, 0, i), Branch: "main", PR: 200 + i, Title: fmt.Sprintf("Change %d", i)}
		if prev != "" {
			a.Parents = []string{prev}
		}
		prev = id
		var results []model.Result
		for _, bench := range []string{"a", "b", "c"} {
			for _, metric := range []string{"instructions:u", "wall-time"} {
				results = append(results, model.Result{Case: model.TestCase{Benchmark: bench}, Metric: metric, Unit: "ns", Samples: []float64{100}})
			}
		}
		b.Add("test", model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: results})
	}
	return b.Dataset()
}

func TestNeedsLook(t *testing.T) {
	d := lookDataset(t)
	w := WeekOf(d, time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC))
	if len(w.Heads) != 6 {
		t.Fatalf("week has %d heads, want 6", len(w.Heads))
	}
	key := func(bench, metric string) model.SeriesKey {
		return model.SeriesKey{Machine: "m", Benchmark: bench, Metric: metric}
	}
	change := func(bench, metric string, x float64) WatchRow {
		return WatchRow{Key: key(bench, metric), Change: x, Regression: x > 0, Magnitude: Large, Basis: BasisHistory}
	}
	fail := func(bench, metric string) WatchRow { return WatchRow{Key: key(bench, metric), Error: "boom"} }
	opts := WatchOptions{LargeChange: 0.05, Limit: 2}
	h := w.Heads
	watches := map[int]*Watch{
		// Kept for wall-time: its large wall-time change is in the entry's
		// table, not listed again; its instructions change and its new
		// failure are listed.
		h[0]: {Options: opts, Metrics: []MetricWatch{
			{Metric: "instructions:u", Large: WatchList{Total: 1, Rows: []WatchRow{change("a", "instructions:u", 0.06)}}},
			{Metric: "wall-time", Failures: WatchList{Total: 1, Rows: []WatchRow{fail("c", "wall-time")}},
				Large: WatchList{Total: 1, Rows: []WatchRow{change("b", "wall-time", 0.5)}}},
		}},
		// Not kept: three large changes (two listed, as the limit says),
		// failures in two metrics merged in series order and cut at 2.
		h[2]: {Options: opts, Metrics: []MetricWatch{
			{Metric: "instructions:u", Failures: WatchList{Total: 2, Rows: []WatchRow{fail("b", "instructions:u"), fail("c", "instructions:u")}}},
			{Metric: "wall-time", Failures: WatchList{Total: 1, Rows: []WatchRow{fail("a", "wall-time")}},
				Large: WatchList{Total: 3, Rows: []WatchRow{change("a", "wall-time", -0.2), change("b", "wall-time", 0.07)}}},
		}},
		h[3]: {Options: opts, Metrics: []MetricWatch{
			{Metric: "wall-time", Fixed: WatchList{Total: 1, Rows: []WatchRow{fail("c", "wall-time")}},
				Large: WatchList{Total: 1, Rows: []WatchRow{change("c", "wall-time", math.Inf(1))}}},
		}},
	}
	watch := func(base, head int) *Watch {
		if p, _ := d.Previous(head); p != base {
			t.Fatalf("watch(%d, %d): %d is not the predecessor", base, head, base)
		}
		return watches[head]
	}
	keptWall := &Comparison{Base: h[0] - 1, Head: h[0], Metrics: []MetricSummary{
		{Metric: "instructions:u"},
		{Metric: "wall-time", Direction: DirectionRegression, Confidence: DefinitelyRelevant, DefinitelyRelevant: true},
	}}
	r := &TriageReport{Filter: DefinitelyRelevantFilter, Regressions: []TriageEntry{{Comparison: keptWall, Direction: DirectionRegression}}}
	r.Look(d, w, opts, "", watch)
	prev := func(head int) int { p, _ := d.Previous(head); return p }
	want := &NeedsLook{
		Options: opts,
		Failures: []WatchEntry{
			{Base: prev(h[0]), Head: h[0], WatchList: WatchList{Total: 1, Rows: []WatchRow{fail("c", "wall-time")}}},
			{Base: prev(h[2]), Head: h[2], WatchList: WatchList{Total: 3, Rows: []WatchRow{fail("a", "wall-time"), fail("b", "instructions:u")}}},
		},
		Fixed: []WatchEntry{{Base: prev(h[3]), Head: h[3], WatchList: WatchList{Total: 1, Rows: []WatchRow{fail("c", "wall-time")}}}},
		Large: []WatchChange{
			{Base: prev(h[3]), Head: h[3], WatchRow: change("c", "wall-time", math.Inf(1))},
			{Base: prev(h[2]), Head: h[2], WatchRow: change("a", "wall-time", -0.2)},
		},
		LargeTotal: 5,
		More: []WatchMore{
			{Base: prev(h[0]), Head: h[0], Count: 1},
			{Base: prev(h[2]), Head: h[2], Count: 2},
		},
	}
	if diff := cmp.Diff(want, r.NeedsLook); diff != "" {
		t.Errorf("NeedsLook (-want +got):\n%s", diff)
	}
	if f, x, l := r.NeedsLook.Count(); f != 4 || x != 1 || l != 5 {
		t.Errorf("Count = %d/%d/%d, want 4/1/5", f, x, l)
	}

	// One metric only.
	r.Look(d, w, opts, "instructions:u", watch)
	if f, x, l := r.NeedsLook.Count(); f != 2 || x != 0 || l != 1 {
		t.Errorf("instructions:u only: Count = %d/%d/%d, want 2/0/1", f, x, l)
	}
	// Nothing to watch.
	r.Look(d, w, opts, "", func(int, int) *Watch { return nil })
	if !r.NeedsLook.Empty() {
		t.Errorf("no watches: %+v, want empty", r.NeedsLook)
	}
}

// TestTriageNeedsLook runs the whole report: a failure that starts on one
// commit and is fixed on a later one, and a 35 % regression that the
// filter does not keep: on a series this noisy (±4 %, a threshold of
// about 12 %) it is only medium, and one medium change is relevance
// medium, "probably relevant". Model rustc-perf: model perfpages would
// wait for the values after it.
func TestTriageNeedsLook(t *testing.T) {
	b := model.NewBuilder(model.BuildOptions{})
	start := time.Date(2026, 8, 3, 12, 0, 0, 0, time.UTC)
	prev := ""
	for i := range 40 {
		id := fmt.Sprintf("%040x", i+1)
		a := model.Artifact{ID: id, Kind: model.KindCommit, Date: start.AddDate(0, 0, i), Branch: "main", PR: 100 + i, Title: fmt.Sprintf("Change %d", i)}
		if prev != "" {
			a.Parents = []string{prev}
		}
		prev = id
		var results []model.Result
		for k, name := range []string{"a", "b", "c", "d"} {
			v := 1000 * (1 + 0.04*float64((i*7+k)%3-1))
			if i >= 36 && name == "b" {
				v *= 1.3
			}
			r := model.Result{Case: model.TestCase{Benchmark: name}, Metric: "wall-time", Unit: "ns", Samples: []float64{v}}
			if name == "c" && (i == 37 || i == 38) {
				r.Samples, r.Error = nil, "exit status 2"
			}
			results = append(results, r)
		}
		b.Add("test", model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: results})
	}
	d := b.Dataset()
	c := NewComparer(d, rustcPerfOptions)
	w := WeekOf(d, time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC))
	r := TriageWatch(d, c, w, DefinitelyRelevantFilter, "", DefaultWatchOptions)
	head := func(e WatchEntry) int { return d.Artifacts[e.Head].PR }
	n := r.NeedsLook
	if len(n.Failures) != 1 || head(n.Failures[0]) != 137 || n.Failures[0].Rows[0].Key.Benchmark != "c" {
		t.Errorf("new failures = %+v, want c at #137", n.Failures)
	}
	if len(n.Fixed) != 1 || head(n.Fixed[0]) != 139 {
		t.Errorf("fixed = %+v, want c at #139", n.Fixed)
	}
	if kept := len(r.Regressions) + len(r.Improvements) + len(r.Mixed); kept != 0 {
		t.Fatalf("%d comparisons kept, want none", kept)
	}
	if len(n.Large) != 1 || d.Artifacts[n.Large[0].Head].PR != 136 || n.Large[0].Key.Benchmark != "b" || n.Large[0].Magnitude != Medium || n.LargeTotal != 1 {
		t.Errorf("large changes = %+v, want b's medium +35 %% at #136", n.Large)
	}
	// With the probably-relevant filter the comparison is kept, and its
	// change is in its entry's table, not listed again.
	probably := TriageWatch(d, c, w, ProbablyRelevantFilter, "", DefaultWatchOptions)
	if len(probably.Regressions) != 1 || probably.NeedsLook.LargeTotal != 0 || len(probably.NeedsLook.Failures) != 1 {
		t.Errorf("probably-relevant: %d regressions kept, needs a look %+v; want 1 and the failures only", len(probably.Regressions), probably.NeedsLook)
	}
	off := TriageWatch(d, c, w, DefinitelyRelevantFilter, "", WatchOptions{})
	if len(off.NeedsLook.Large) != 0 || len(off.NeedsLook.Failures) != 1 {
		t.Errorf("large_change 0: %+v, want the failures only", off.NeedsLook)
	}
}
