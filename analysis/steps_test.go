package analysis

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
)

// stepDataset has n main-line commits, one a day, and a try run; on one
// machine:
//   - "parse" wall-time (lower is better) is 1000 and steps up 5 % at
//     commit 30, where its result failed at commit 29;
//   - "parse" throughput (MB/s: higher is better) falls 5 % at 30;
//   - "render" wall-time steps down 4 % at 45, which annotations.yaml
//     may mark as a distribution change;
//   - "steady" wall-time never changes.
//
// The values carry a little exact, deterministic noise.
func stepDataset(t *testing.T, n int, annotate bool) *model.Dataset {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{})
	start := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	noise := func(i, k int) float64 { return 1 + 0.0005*float64((i*7+k*3)%5-2) }
	for i := range n {
		a := model.Artifact{ID: fmt.Sprintf("%040x", i+1), Kind: model.KindCommit, Date: start.AddDate(0, 0, i), Branch: "main", PR: 500 + i}
		if i > 0 {
			a.Parents = []string{fmt.Sprintf("%040x", i)}
		}
		parse := 1000 * noise(i, 0)
		tput := 200 * noise(i, 1)
		if i >= 30 {
			parse *= 1.05
			tput *= 0.95
		}
		render := 500 * noise(i, 2)
		if i >= 45 {
			render *= 0.96
		}
		res := []model.Result{
			{Case: model.TestCase{Benchmark: "parse"}, Metric: "wall-time", Unit: "ns", Samples: []float64{parse}},
			{Case: model.TestCase{Benchmark: "parse"}, Metric: "throughput", Unit: "MB/s", Samples: []float64{tput}},
			{Case: model.TestCase{Benchmark: "render"}, Metric: "wall-time", Unit: "ns", Samples: []float64{render}},
			{Case: model.TestCase{Benchmark: "steady"}, Metric: "wall-time", Unit: "ns", Samples: []float64{300 * noise(i, 3)}},
		}
		if i == 29 {
			res[0] = model.Result{Case: model.TestCase{Benchmark: "parse"}, Metric: "wall-time", Unit: "ns", Error: "exit status 2"}
		}
		b.Add("run", model.Run{Artifact: a, Machine: model.Machine{Name: "m1"}, Results: res})
	}
	// A try run off the main line, far from the level: not part of any
	// series' main-line values.
	try := model.Artifact{ID: "try1", Kind: model.KindTry, Date: start.AddDate(0, 0, 10).Add(time.Hour), PR: 999, Baseline: fmt.Sprintf("%040x", 10)}
	b.Add("try", model.Run{Artifact: try, Machine: model.Machine{Name: "m1"}, Results: []model.Result{
		{Case: model.TestCase{Benchmark: "parse"}, Metric: "wall-time", Unit: "ns", Samples: []float64{5000}},
	}})
	d := b.Dataset()
	if annotate {
		if errs := d.Annotate([]model.Annotation{{Kind: model.DistributionChange, Artifact: fmt.Sprintf("%040x", 46), Benchmark: "render"}}); len(errs) > 0 {
			t.Fatal(errs)
		}
	}
	return d
}

func seriesIndex(t *testing.T, d *model.Dataset, bench, metric string) int {
	t.Helper()
	for i, s := range d.Series {
		if s.Case.Benchmark == bench && s.Key.Metric == metric {
			return i
		}
	}
	t.Fatalf("no series %s %s", bench, metric)
	return -1
}

func TestMainLineValues(t *testing.T) {
	d := stepDataset(t, 40, false)
	v := d.MainLineValues(d.Series[seriesIndex(t, d, "parse", "wall-time")])
	if len(v) != len(d.MainLine) || len(v) != 40 {
		t.Fatalf("%d values for %d main-line commits", len(v), len(d.MainLine))
	}
	if !math.IsNaN(v[29]) || math.IsNaN(v[28]) || v[30] < 1040 {
		t.Errorf("values around the failure: %v", v[27:32])
	}
	for _, x := range v {
		if x == 5000 {
			t.Error("the try run's value is on the main line")
		}
	}
}

func TestSteps(t *testing.T) {
	d := stepDataset(t, 60, false)
	steps := Steps(d, changepoint.DefaultOptions, nil)
	type got struct {
		Series              string
		Index, Prev         int
		Artifact, Last      string
		Regression          bool
		Candidates          []string
		ChangeAbove1Percent bool
	}
	var out []got
	for _, s := range steps {
		var cand []string
		for _, a := range s.Candidates(d) {
			cand = append(cand, d.Artifacts[a].Label())
		}
		out = append(out, got{
			Series: d.Series[s.Series].Case.Benchmark + " " + d.Series[s.Series].Key.Metric,
			Index:  s.Index, Prev: s.Prev,
			Artifact: d.Artifacts[s.Artifact].Label(), Last: d.Artifacts[s.Last].Label(),
			Regression: s.Regression, Candidates: cand, ChangeAbove1Percent: math.Abs(s.Change) > 0.01,
		})
	}
	// The wall-time step: its last value before is commit 28 (29 failed),
	// so the change came from #529 or #530; higher wall time is a
	// regression. The throughput fell at #530: a regression too. The
	// render improvement is not one.
	want := []got{
		{"parse throughput", 30, 29, "#530", "#529", true, []string{"#530"}, true},
		{"parse wall-time", 30, 28, "#530", "#528", true, []string{"#529", "#530"}, true},
		{"render wall-time", 45, 44, "#545", "#544", false, []string{"#545"}, true},
	}
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}

	// An annotated distribution change at render's step is a known break.
	d = stepDataset(t, 60, true)
	for _, s := range Steps(d, changepoint.DefaultOptions, nil) {
		if d.Series[s.Series].Case.Benchmark == "render" {
			t.Errorf("a step at the annotated distribution change: %+v", s)
		}
	}
}

// TestStepsCache: with a cache of the previous build the steps are the
// same as without, for a build with one more commit; the cache keeps the
// series the build saw, in key order.
func TestStepsCache(t *testing.T) {
	o := changepoint.DefaultOptions
	cache := NewStepCache()
	d := stepDataset(t, 59, false)
	first := Steps(d, o, cache)
	if diff := cmp.Diff(first, Steps(d, o, nil)); diff != "" {
		t.Errorf("a cold cache changed the steps:\n%s", diff)
	}
	saved := cache.Used()
	if len(saved) != len(d.Series) || !slices.IsSortedFunc(saved, func(a, b CachedSteps) int { return a.Key.Compare(b.Key) }) {
		t.Fatalf("saved %d entries for %d series, or out of order", len(saved), len(d.Series))
	}

	next := NewStepCache()
	next.Load(saved)
	if next.Len() != len(saved) || len(next.Used()) != 0 {
		t.Errorf("loaded: %d entries, %d used", next.Len(), len(next.Used()))
	}
	d = stepDataset(t, 60, false)
	warm := Steps(d, o, next)
	cold := Steps(d, o, nil)
	if diff := cmp.Diff(cold, warm); diff != "" {
		t.Errorf("steps with the cache differ (-cold +warm):\n%s", diff)
	}
	for _, e := range next.Used() {
		if e.State.N != 60 {
			t.Errorf("%s: state of %d commits after the build", e.Key, e.State.N)
		}
	}
}

// TestStepsWorkers: the result does not depend on how many series run at
// once.
func TestStepsWorkers(t *testing.T) {
	d := stepDataset(t, 60, false)
	many := Steps(d, changepoint.DefaultOptions, nil)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if diff := cmp.Diff(many, Steps(d, changepoint.DefaultOptions, nil)); diff != "" {
		t.Errorf("one worker (-many +one):\n%s", diff)
	}
}

// Len is the number of entries (loaded or put), for the tests.
func (c *StepCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
