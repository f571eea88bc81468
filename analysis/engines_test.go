package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// sampleLine builds a main line of len(values) commits on one machine with
// one test case "b" of metric m: commit i has samples values[i] (and iters
// when given). extra runs are added as they are.
func sampleLine(m, unit string, values [][]float64, iters []float64, extra ...model.Run) *model.Dataset {
	return valueLine("", m, unit, values, iters, extra...)
}

// valueLine is sampleLine with single-value rule v.
func valueLine(v model.ValueKind, m, unit string, values [][]float64, iters []float64, extra ...model.Run) *model.Dataset {
	b := model.NewBuilder(model.BuildOptions{Value: v})
	for i, v := range values {
		a := model.Artifact{ID: rpCommitID(i), Kind: model.KindCommit, Date: lineEpoch.Add(time.Duration(i) * time.Hour), Branch: "main"}
		if i > 0 {
			a.Parents = []string{rpCommitID(i - 1)}
		}
		res := model.Result{Case: model.TestCase{Benchmark: "b"}, Metric: m, Unit: unit, Samples: v}
		if iters != nil {
			res.Iters = iters[:len(v)]
		}
		b.Add(fmt.Sprintf("r/%d.json", i), model.Run{Artifact: a, Machine: model.Machine{Name: "m"}, Results: []model.Result{res}})
	}
	for i, r := range extra {
		b.Add(fmt.Sprintf("extra/%d.json", i), r)
	}
	return b.Dataset()
}

func ones(xs ...float64) [][]float64 {
	out := make([][]float64, len(xs))
	for i, x := range xs {
		out[i] = []float64{x}
	}
	return out
}

func onlyRow(t *testing.T, c *Comparison) Row {
	t.Helper()
	if len(c.Rows) != 1 {
		t.Fatalf("%d rows, want 1", len(c.Rows))
	}
	return c.Rows[0]
}

// conbenchOptions are the defaults with Conbench's own minimum of 2
// commits of history for a z-score, which Conbench's small test vectors
// need.
var conbenchOptions = func() Options { o := DefaultOptions; o.ZMinCommits = 2; return o }()

// Conbench's test_set_z_scores_with_small_reps through the dataset: values
// 1 and 2 on consecutive commits, the contender 5 on the next; its baseline
// is its parent, whose ancestry (inclusive) is [1, 2].
func TestEnginesZScoreConbench(t *testing.T) {
	for _, tt := range []struct {
		metric, unit string
		want         float64
	}{
		{"wall-time", "s", -4.95},
		{"throughput", "i/s", 4.95},
	} {
		d := sampleLine(tt.metric, tt.unit, ones(1, 2, 5), nil)
		for _, c := range []*Comparison{Compare(d, d.MainLine[1], d.MainLine[2], conbenchOptions), NewComparer(d, conbenchOptions).Compare(d.MainLine[1], d.MainLine[2])} {
			r := onlyRow(t, c)
			if !r.Z.OK || zscore.Round4(r.Z.Z) != tt.want || r.Z.Mean != 1.5 {
				t.Errorf("%s: z %+v, want %v", tt.metric, r.Z, tt.want)
			}
		}
		// The second commit has one value of history: no z-score, with the reason.
		r := onlyRow(t, Compare(d, d.MainLine[0], d.MainLine[1], conbenchOptions))
		if r.Z.OK || r.Z.Reason == "" {
			t.Errorf("%s: z with one commit of history: %+v", tt.metric, r.Z)
		}
		// By default 2 commits are below the minimum: no z-score, no band.
		r = onlyRow(t, Compare(d, d.MainLine[1], d.MainLine[2], DefaultOptions))
		if r.Z.OK || r.Z.Reason != "2 commits of history; a z-score needs at least 10" || r.Z.Std != 0 {
			t.Errorf("%s: z with 2 commits of history by default: %+v", tt.metric, r.Z)
		}
	}
}

// stepValues is zscore's derived step vector (TestDerivedVectorStep): a
// step from 10 to 20 at index 8.
var stepValues = []float64{10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 10.1, 20.0, 20.1, 19.9, 20.0, 20.0}

// A distribution change annotated at the step restarts the rolling mean
// (the same vector): the contender 20.0 scores 0 instead
// of −1.568.
func TestEnginesZScoreAnnotation(t *testing.T) {
	d := sampleLine("wall-time", "s", ones(stepValues...), nil)
	base, head := d.MainLine[11], d.MainLine[12]
	c := NewComparer(d, DefaultOptions)
	if r := onlyRow(t, c.Compare(base, head)); !r.Z.OK || zscore.Round4(r.Z.Z) != -1.568 {
		t.Errorf("without annotation: %+v, want -1.568", r.Z)
	}
	if errs := d.Annotate([]model.Annotation{{Kind: model.DistributionChange, Artifact: rpCommitID(8), Benchmark: "b", Origin: "a.yaml:2"}}); len(errs) > 0 {
		t.Fatal(errs)
	}
	c = NewComparer(d, DefaultOptions)
	if r := onlyRow(t, c.Compare(base, head)); !r.Z.OK || r.Z.Z != 0 || r.Z.Mean != 20 {
		t.Errorf("with annotation: %+v, want 0 against mean 20", r.Z)
	}
	// An annotation for another series changes nothing.
	d.Annotate([]model.Annotation{{Kind: model.DistributionChange, Artifact: rpCommitID(8), Benchmark: "other"}})
	if r := onlyRow(t, NewComparer(d, DefaultOptions).Compare(base, head)); zscore.Round4(r.Z.Z) != -1.568 {
		t.Errorf("with another series' annotation: %+v", r.Z)
	}
}

// A try run is scored against the ancestry of its baseline, the main-line
// commit it forked from, plus nothing else.
func TestEnginesZScoreTryRun(t *testing.T) {
	try := model.Run{
		Artifact: model.Artifact{ID: strings.Repeat("f", 40), Kind: model.KindTry, Date: lineEpoch.Add(90 * time.Minute), Baseline: rpCommitID(1), Parents: []string{rpCommitID(1)}, PR: 7},
		Machine:  model.Machine{Name: "m"},
		Results:  []model.Result{{Case: model.TestCase{Benchmark: "b"}, Metric: "wall-time", Unit: "s", Samples: []float64{5}}},
	}
	d := sampleLine("wall-time", "s", ones(1, 2, 100), nil, try)
	head, _ := d.Index(try.Artifact.ID)
	base, _ := d.Index(rpCommitID(1))
	r := onlyRow(t, NewComparer(d, conbenchOptions).Compare(base, head))
	if !r.Z.OK || zscore.Round4(r.Z.Z) != -4.95 {
		t.Errorf("try run: %+v, want -4.95 (the commit after the fork point is not history)", r.Z)
	}
	// Compared with another try run of the same PR as the base, the branch's
	// own commits join the distribution (Conbench's ancestry of a branch
	// baseline).
	try2 := try
	try2.Artifact.ID, try2.Artifact.Date = strings.Repeat("e", 40), lineEpoch.Add(100*time.Minute)
	try2.Results = []model.Result{{Case: model.TestCase{Benchmark: "b"}, Metric: "wall-time", Unit: "s", Samples: []float64{6}}}
	d = sampleLine("wall-time", "s", ones(1, 2, 100), nil, try, try2)
	b1, _ := d.Index(try.Artifact.ID)
	h2, _ := d.Index(try2.Artifact.ID)
	r = onlyRow(t, NewComparer(d, conbenchOptions).Compare(b1, h2))
	// History [1, 2, 5]: residuals 0, 1, 3.5 → std 1.7559; mean 8/3.
	want := -(6 - 8.0/3) / math.Sqrt((0+1+3.5*3.5-3*1.5*1.5)/2)
	if !r.Z.OK || math.Abs(r.Z.Z-want) > 1e-9 {
		t.Errorf("try vs try: %+v, want %v", r.Z, want)
	}
}

func TestEnginesMannWhitney(t *testing.T) {
	d := sampleLine("wall-time", "ns", [][]float64{{100, 101, 102, 103, 104}, {110, 111, 112, 113, 114}, {110, 112, 111, 113, 114}}, nil)
	c := NewComparer(d, DefaultOptions)
	r := onlyRow(t, c.Compare(d.MainLine[0], d.MainLine[1]))
	// All five head samples above all five base samples: p = 2/C(10,5).
	if r.Test.Method != MethodMannWhitney || !r.Test.OK || math.Abs(r.Test.P-2.0/252) > 1e-12 || !r.Test.Significant {
		t.Errorf("shift: %+v", r.Test)
	}
	r = onlyRow(t, c.Compare(d.MainLine[1], d.MainLine[2]))
	if !r.Test.OK || r.Test.P != 1 || r.Test.Significant || r.Test.Reason == "" {
		t.Errorf("same samples: %+v", r.Test)
	}
}

func TestEnginesCriterion(t *testing.T) {
	iters := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	slow := []float64{110, 111, 109, 112, 110, 111, 113, 110, 109, 111}
	fast := []float64{100, 101, 99, 102, 100, 101, 103, 100, 99, 101}
	for _, tt := range []struct {
		metric, unit string
		want         criterion.Verdict
	}{
		{"wall-time", "ns", criterion.Regressed},
		// Higher is better: the value going up is an improvement.
		{"throughput", "B/s", criterion.Improved},
	} {
		d := sampleLine(tt.metric, tt.unit, [][]float64{fast, slow}, iters)
		opts := DefaultOptions
		opts.NResamples = 2000
		c := NewComparer(d, opts)
		r := onlyRow(t, c.Compare(d.MainLine[0], d.MainLine[1]))
		if r.Test.Method != MethodCriterion || !r.Test.OK || !r.Test.Significant || r.Test.Verdict != tt.want || r.Test.Criterion == nil {
			t.Fatalf("%s: %+v", tt.metric, r.Test)
		}
		if got := r.Test.Criterion.Mean.Point; math.Abs(got-0.1) > 0.01 {
			t.Errorf("%s: mean change %v, want about +10 %%", tt.metric, got)
		}
		// The same pair again comes from the cache, identical.
		again := onlyRow(t, c.Compare(d.MainLine[0], d.MainLine[1]))
		if *again.Test.Criterion != *r.Test.Criterion {
			t.Errorf("second comparison differs: %+v vs %+v", again.Test.Criterion, r.Test.Criterion)
		}
		used := c.eng.tests.Used()
		if len(used) != 1 {
			t.Fatalf("%d cache entries used, want 1", len(used))
		}
		// A new comparer loaded with the saved entries gives the same result.
		cache := NewTestCache()
		cache.Load(used)
		r2 := onlyRow(t, NewComparerCache(d, opts, cache).Compare(d.MainLine[0], d.MainLine[1]))
		if *r2.Test.Criterion != *r.Test.Criterion || cache.Len() != 1 {
			t.Errorf("from a loaded cache: %+v", r2.Test.Criterion)
		}
	}
}

// Bad input gets a defined outcome: single samples, constant samples, a
// zero baseline; never NaN.
func TestEnginesBadInput(t *testing.T) {
	opts := DefaultOptions
	opts.Budgets = map[string]budget.Budget{"wall-time": budget.New(0.2, 0.9, "")}
	d := sampleLine("wall-time", "ns", [][]float64{{5}, {6}, {0, 0, 0}, {7, 7, 7}, {7, 7, 7}}, nil)
	c := NewComparer(d, opts)
	r := onlyRow(t, c.Compare(d.MainLine[0], d.MainLine[1]))
	if r.Test.OK || !strings.Contains(r.Test.Reason, "needs at least 2 samples") {
		t.Errorf("single samples: %+v", r.Test)
	}
	r = onlyRow(t, c.Compare(d.MainLine[3], d.MainLine[4]))
	if !r.Test.OK || r.Test.P != 1 || r.Test.Significant {
		t.Errorf("equal constant samples: %+v", r.Test)
	}
	if r.Budget == nil || r.Budget.Delta.Status != budget.Pass {
		t.Errorf("budget on equal samples: %+v", r.Budget)
	}
	r = onlyRow(t, c.Compare(d.MainLine[2], d.MainLine[3]))
	if r.Budget == nil || r.Budget.Delta.Status != budget.Skip || !strings.Contains(r.Budget.Reason, "baseline value must be > 0") {
		t.Errorf("zero baseline budget: %+v", r.Budget)
	}
	for _, row := range c.Compare(d.MainLine[2], d.MainLine[3]).Rows {
		for _, x := range []float64{row.Z.Z, row.Z.Mean, row.Z.Std, row.Test.P} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("non-finite engine value in %+v", row)
			}
		}
	}
}

func TestEnginesBudget(t *testing.T) {
	opts := DefaultOptions
	opts.Budgets = map[string]budget.Budget{"wall-time": budget.New(0.20, 0.90, "")}
	d := sampleLine("wall-time", "ns", [][]float64{{100, 100, 100}, {119, 119, 119}, {150, 150, 150}}, nil)
	c := NewComparer(d, opts)
	for _, tt := range []struct {
		base, head int
		status     budget.Status
		reason     string
	}{
		{0, 1, budget.Warn, "wall-time_warn"},
		{0, 2, budget.Fail, "wall-time_fail"},
		{1, 0, budget.Pass, ""},
	} {
		r := onlyRow(t, c.Compare(d.MainLine[tt.base], d.MainLine[tt.head]))
		if r.Budget == nil || r.Budget.Delta.Status != tt.status || r.Budget.Reason != tt.reason || r.Budget.Budget.Direction != budget.Lower {
			t.Errorf("%d→%d: %+v, want %s", tt.base, tt.head, r.Budget, tt.status)
		}
	}
	// Metrics without a budget get none.
	opts.Budgets = nil
	if r := onlyRow(t, NewComparer(d, opts).Compare(d.MainLine[0], d.MainLine[1])); r.Budget != nil {
		t.Errorf("budget without config: %+v", r.Budget)
	}
}

// Summaries skip the engines and are otherwise identical.
func TestEnginesSummaryOnly(t *testing.T) {
	d := sampleLine("wall-time", "s", ones(1, 2, 5), nil)
	c := NewComparer(d, DefaultOptions)
	full, sum := onlyRow(t, c.Compare(d.MainLine[1], d.MainLine[2])), onlyRow(t, c.Summary(d.MainLine[1], d.MainLine[2]))
	if sum.Z.OK || sum.Z.Reason != "" || sum.Test.Method != "" || sum.Change != full.Change || sum.Significant != full.Significant {
		t.Errorf("summary row %+v vs full %+v", sum, full)
	}
}

// The history chart's band at a point is the lookback distribution its
// commit page scores it against, mean ± 5·std, one entry per main-line
// point, restarting at an annotated distribution change.
func TestBand(t *testing.T) {
	d := sampleLine("wall-time", "s", ones(stepValues...), nil)
	// By default a band needs 10 commits of history, as a z-score does.
	lower, upper := NewComparer(d, DefaultOptions).Band(0)
	for k := range lower {
		if math.IsNaN(lower[k]) != (k < 10) {
			t.Errorf("default band at point %d: %v..%v", k, lower[k], upper[k])
		}
	}
	lower, upper = NewComparer(d, conbenchOptions).Band(0)
	if len(lower) != len(stepValues) || len(upper) != len(stepValues) {
		t.Fatalf("band of %d/%d entries for %d points", len(lower), len(upper), len(stepValues))
	}
	// The first point has no history, the second one commit of it.
	for k := range 2 {
		if !math.IsNaN(lower[k]) || !math.IsNaN(upper[k]) {
			t.Errorf("band at point %d: %v..%v, want none", k, lower[k], upper[k])
		}
	}
	for k := 3; k < len(stepValues); k++ {
		if !(lower[k] < upper[k]) {
			t.Errorf("band at %d: %v..%v", k, lower[k], upper[k])
		}
	}
	if mid := (lower[7] + upper[7]) / 2; math.Abs(mid-10) > 1e-9 {
		t.Errorf("band centre before the step %v, want 10, the mean of the 7 values before it", mid)
	}
	d.Annotate([]model.Annotation{{Kind: model.DistributionChange, Artifact: rpCommitID(8), Benchmark: "b"}})
	lower, upper = NewComparer(d, conbenchOptions).Band(0)
	if mid := (lower[12] + upper[12]) / 2; math.Abs(mid-20) > 1e-9 {
		t.Errorf("band centre after the annotated step %v, want 20 (the new segment's mean)", mid)
	}
}

// The band is the commit pages' z-score distribution: Band's entries are
// Z.Band of the Consecutive rows, bit for bit; a point is outside it
// exactly when its |z| exceeds the threshold.
func TestBandIsTheRowsDistribution(t *testing.T) {
	d := synthDataset(synthPlan{commits: 90, series: 32, samples: 3, seed: 9, hostile: true})
	for _, opts := range []Options{DefaultOptions, {Lookback: 9, ZThreshold: 2, ZMinCommits: 2}} {
		c := NewComparer(d, opts)
		cmps := c.Consecutive(1, len(d.MainLine))
		bands, outside := 0, 0
		for i, s := range d.Series {
			lower, upper := c.Band(i)
			for k := range c.lines[i].len() {
				lp := c.lines[i].at(k)
				var z zscore.Z
				if lp.pos > 0 {
					for _, r := range cmps[lp.pos-1].Rows {
						if r.Series == s {
							z = r.Z
						}
					}
				}
				lo, hi, ok := z.Band()
				if !ok {
					lo, hi = math.NaN(), math.NaN()
				}
				if math.Float64bits(lo) != math.Float64bits(lower[k]) || math.Float64bits(hi) != math.Float64bits(upper[k]) {
					t.Fatalf("%+v: %s point %d: band %v..%v, row's z %+v", opts, s.Key, k, lower[k], upper[k], z)
				}
				if !ok {
					continue
				}
				bands++
				v := s.Points[lp.idx()].Value
				if out := v < lo || v > hi; out != (z.Regression || z.Improvement) {
					t.Errorf("%s point %d: %v outside %v..%v is %v, z %+v", s.Key, k, v, lo, hi, out, z)
				}
				if z.Regression || z.Improvement {
					outside++
				}
			}
		}
		if bands < 1000 || outside < 5 {
			t.Errorf("%+v: %d bands, %d points outside: too few to test", opts, bands, outside)
		}
	}
}

// Appending commits leaves the band of every earlier point as it was, so
// an incremental build rewrites only the end of a series' data.
func TestBandAppend(t *testing.T) {
	for _, n := range []int{30, 61, 89} {
		p := synthPlan{commits: 90, series: 16, samples: 3, seed: 10, hostile: true}
		full := synthDataset(p)
		p.commits = n
		short := synthDataset(p)
		// The generator draws the same values for the first n commits;
		// the annotations move with the length, so drop them.
		full.Annotations, short.Annotations = nil, nil
		cf, cs := NewComparer(full, DefaultOptions), NewComparer(short, DefaultOptions)
		for i := range short.Series {
			j := slices.IndexFunc(full.Series, func(s *model.Series) bool { return s.Key == short.Series[i].Key })
			lf, uf := cf.Band(j)
			ls, us := cs.Band(i)
			if !slices.EqualFunc(lf[:len(ls)], ls, sameFloatBits) || !slices.EqualFunc(uf[:len(us)], us, sameFloatBits) {
				t.Fatalf("%d commits: the band of %s changed when commits were appended", n, short.Series[i].Key)
			}
		}
	}
}

func sameFloatBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
