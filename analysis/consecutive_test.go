package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
)

// synthPlan describes a synthetic dataset: commits on the main line ×
// series, split over two machines, with samples per result.
type synthPlan struct {
	commits, series, samples int
	seed                     uint64
	// hostile adds what real archives hold besides clean numbers: failed
	// and missing results, zero and NaN values, single samples, ties,
	// Criterion's iteration counts on some series, try runs off the main
	// line, and a project history whose dates tie and go backwards.
	hostile bool
}

var synthMetrics = []struct{ name, unit string }{
	{"instructions:u", "count"}, {"wall-time", "ns"}, {"max-rss", "bytes"}, {"throughput", "B/s"},
}

func synthID(i int) string { return fmt.Sprintf("%040x", 0xc0ffee0000+i) }

// synthDataset builds the plan's dataset through the Builder. Series k
// is benchmark bench-(k/8) with parameter n = k/4 mod 2, metric k mod 4, on
// machine m(k mod 2).
func synthDataset(p synthPlan) *model.Dataset {
	rng := rand.New(rand.NewPCG(p.seed, 17))
	type state struct{ level, sigma float64 }
	st := make([]state, p.series)
	for k := range st {
		st[k] = state{level: math.Exp(rng.Float64() * 20), sigma: []float64{0, 0.001, 0.01, 0.05}[rng.IntN(4)]}
		if k%4 == 2 {
			st[k].level *= 4096 // max-rss: pages
		}
	}
	// The dates have their own generator, so that a plan with fewer
	// commits is the same dataset cut short.
	dates := rand.New(rand.NewPCG(p.seed, 18))
	var history []model.Artifact
	epoch := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	clock := epoch
	for i := range p.commits {
		clock = clock.Add(time.Duration(dates.IntN(90)) * time.Minute)
		a := model.Artifact{ID: synthID(i), Kind: model.KindCommit, Date: clock, Branch: "main", PR: 100 + i, Title: fmt.Sprintf("change %d", i)}
		if p.hostile {
			switch dates.IntN(12) {
			case 0: // an older author date than its parent's
				a.Date = clock.Add(-time.Duration(1+dates.IntN(600)) * time.Minute)
			case 1: // the same date as its parent
				if i > 0 {
					a.Date = history[i-1].Date
				}
			}
		}
		if i > 0 {
			a.Parents = []string{synthID(i - 1)}
		}
		history = append(history, a)
	}
	bo := model.BuildOptions{}
	if p.hostile {
		bo.History = history
	}
	b := model.NewBuilder(bo)
	for i, a := range history {
		runs := []model.Run{{Artifact: a, Machine: model.Machine{Name: "m0"}}, {Artifact: a, Machine: model.Machine{Name: "m1"}, Context: model.Params{{Key: "toolchain", Value: "go1.26"}}}}
		for k := range p.series {
			s := &st[k]
			if rng.IntN(300) == 0 {
				s.level *= 1 + (rng.Float64()-0.4)/2 // a step
			}
			m := synthMetrics[k%4]
			res := model.Result{
				Case:   model.TestCase{Benchmark: fmt.Sprintf("bench-%03d", k/8), Params: model.Params{{Key: "n", Value: fmt.Sprint(k / 4 % 2)}}, Category: []model.Category{model.Primary, model.Secondary}[k/16%2]},
				Metric: m.name, Unit: m.unit,
			}
			n := p.samples
			level := s.level
			if rng.IntN(100) == 0 {
				level *= 2 // a spike
			}
			if p.hostile && k%8 == 7 && i%5 != 0 && i%7 != 0 {
				continue // a sparse series: the ends of the 3 × History lookback
			}
			if p.hostile {
				switch rng.IntN(40) {
				case 0:
					res.Error = "exit status 2"
				case 1:
					continue // not run
				case 2:
					level = 0
				case 3:
					n = 1
				}
			}
			if res.Error == "" {
				res.Samples = make([]float64, n)
				for j := range res.Samples {
					x := level * (1 + s.sigma*rng.NormFloat64())
					if k%4 == 2 { // max-rss in pages: ties
						x = math.Round(x/4096) * 4096
					}
					res.Samples[j] = x
				}
				if p.hostile && rng.IntN(200) == 0 {
					res.Samples[0] = math.NaN()
				}
				if p.hostile && k%29 == 1 {
					res.Iters = make([]float64, n)
					for j := range res.Iters {
						res.Iters[j] = float64(j + 1)
					}
				}
			}
			runs[k%2].Results = append(runs[k%2].Results, res)
		}
		for _, r := range runs {
			b.Add(fmt.Sprintf("%s/%s.json", a.ID, r.Machine.Name), r)
		}
		if p.hostile && i%17 == 5 {
			try := model.Run{Artifact: model.Artifact{ID: fmt.Sprintf("try-%d", i), Kind: model.KindTry, Date: a.Date.Add(time.Minute), Baseline: a.ID, PR: 9000 + i},
				Machine: model.Machine{Name: "m0"}, Results: []model.Result{{Case: model.TestCase{Benchmark: "bench-000", Params: model.Params{{Key: "n", Value: "0"}}}, Metric: "instructions:u", Unit: "count", Samples: []float64{st[0].level}}}}
			b.Add("try.json", try)
		}
	}
	d := b.Dataset()
	if p.hostile && p.commits > 10 {
		d.Annotate([]model.Annotation{
			{Kind: model.DistributionChange, Artifact: synthID(p.commits / 3), Benchmark: "bench-000"},
			{Kind: model.DistributionChange, Artifact: synthID(p.commits / 2), Metric: "wall-time", Machine: "m1"},
			{Kind: model.DistributionChange, Artifact: synthID(p.commits/2 + 1)},
			{Kind: model.Acknowledged, Artifact: synthID(p.commits / 4), Benchmark: "bench-001", Note: "expected"},
		})
	}
	return d
}

// consecutiveOptions are the option sets the property tests run: the
// defaults (model perfpages) with budgets, model rustc-perf-2021, short
// windows so that a small dataset slides them (model perfpages, whose
// short-history rule then meets both long and short histories, and model
// rustc-perf), and invalid options (the defaults with a warning on every
// comparison).
func consecutiveOptions() []Options {
	budgets := map[string]budget.Budget{"wall-time": budget.New(0.2, 0.9, ""), "max-rss": budget.New(0.1, 0.5, "")}
	def := DefaultOptions
	def.Budgets, def.NResamples = budgets, 300
	return []Options{
		def,
		{Model: ModelRustcPerf2021, History2021: 6, Lookback: 7, NResamples: 300},
		{History: 7, Lookback: 12, ZThreshold: 2, ZMinCommits: 3, Alpha: 0.2, NResamples: 300, Budgets: budgets},
		{Model: ModelRustcPerf, History: 7, Lookback: 12, ZThreshold: 2, NResamples: 300},
		{Model: "bogus", NResamples: 300},
	}
}

// sameResults compares comparisons bit for bit: every float by its bits,
// rows' series and points by identity, errors by message.
var sameResults = cmp.Options{sameRowTargets, cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })}

// checkConsecutive checks Consecutive and ConsecutiveSummary against
// Compare and Summary for every consecutive pair.
func checkConsecutive(t *testing.T, d *model.Dataset, opts Options) {
	t.Helper()
	c := NewComparer(d, opts)
	got := c.Consecutive(0, len(d.MainLine)+3)
	sums := c.ConsecutiveSummary(1, len(d.MainLine))
	if len(got) != len(d.MainLine)-1 || len(sums) != len(got) {
		t.Fatalf("%d and %d comparisons for %d main-line commits", len(got), len(sums), len(d.MainLine))
	}
	for p := 1; p < len(d.MainLine); p++ {
		base, head := d.MainLine[p-1], d.MainLine[p]
		if diff := cmp.Diff(c.Compare(base, head), got[p-1], sameResults); diff != "" {
			t.Fatalf("%+v: position %d: (-Compare +Consecutive):\n%s", opts, p, diff)
		}
		if diff := cmp.Diff(c.Summary(base, head), sums[p-1], sameResults); diff != "" {
			t.Fatalf("%+v: position %d: (-Summary +ConsecutiveSummary):\n%s", opts, p, diff)
		}
	}
}

// Consecutive is Compare for every consecutive pair, bit for bit, on a
// dataset with everything the rows have rules for.
func TestConsecutiveMatchesCompare(t *testing.T) {
	d := synthDataset(synthPlan{commits: 70, series: 48, samples: 5, seed: 1, hostile: true})
	var notes, zeros, nans, criterion, budgets, zOK, changes int
	for _, c := range NewComparer(d, consecutiveOptions()[0]).Consecutive(1, len(d.MainLine)) {
		for _, r := range c.Rows {
			notes += b2i(r.Note != "")
			zeros += b2i(r.OK && r.Before.Value == 0)
			nans += b2i(r.After != nil && r.After.OK() && math.IsNaN(r.After.Value))
			criterion += b2i(r.Test.Method == MethodCriterion)
			budgets += b2i(r.Budget != nil)
			zOK += b2i(r.Z.OK)
		}
	}
	for i := range d.Series {
		for k := range d.MainLine {
			changes += b2i(d.Annotations.BeginsChange(d.Series[i], d.MainLine[k]))
		}
	}
	if notes < 50 || zeros < 5 || nans < 3 || criterion < 20 || budgets < 100 || zOK < 1000 || changes < 5 {
		t.Fatalf("the dataset lacks cases: notes %d, zero bases %d, NaN values %d, criterion %d, budgets %d, z-scores %d, annotations %d", notes, zeros, nans, criterion, budgets, zOK, changes)
	}
	for _, opts := range consecutiveOptions() {
		checkConsecutive(t, d, opts)
	}
}

// The same on a larger hostile dataset (full 100-commit windows that
// slide), a clean one whose main line follows the branch, and degenerate
// ones.
func TestConsecutiveOtherDatasets(t *testing.T) {
	for _, p := range []synthPlan{
		{commits: 260, series: 40, samples: 5, seed: 7, hostile: true},
		{commits: 150, series: 24, samples: 5, seed: 2},
		{commits: 40, series: 16, samples: 1, seed: 3, hostile: true},
		{commits: 2, series: 8, samples: 3, seed: 4, hostile: true},
		{commits: 1, series: 8, samples: 3, seed: 5},
	} {
		d := synthDataset(p)
		for _, opts := range consecutiveOptions()[:4] {
			checkConsecutive(t, d, opts)
		}
	}
	empty := model.NewBuilder(model.BuildOptions{}).Dataset()
	if got := NewComparer(empty, DefaultOptions).Consecutive(0, 10); got != nil {
		t.Errorf("empty dataset: %v", got)
	}
	// Commits whose runs hold no results: comparisons without rows.
	b := model.NewBuilder(model.BuildOptions{})
	for i := range 3 {
		b.Add("r.json", model.Run{Artifact: model.Artifact{ID: synthID(i), Kind: model.KindCommit, Date: lineEpoch.Add(time.Duration(i) * time.Hour)}, Machine: model.Machine{Name: "m"}})
	}
	checkConsecutive(t, b.Dataset(), DefaultOptions)
}

// Chunks put end to end are the whole range, whatever the cuts.
func TestConsecutiveChunks(t *testing.T) {
	d := synthDataset(synthPlan{commits: 60, series: 24, samples: 5, seed: 6, hostile: true})
	opts := consecutiveOptions()[2]
	c := NewComparer(d, opts)
	whole := c.Consecutive(1, len(d.MainLine))
	rng := rand.New(rand.NewPCG(6, 6))
	for range 20 {
		a := 1 + rng.IntN(len(d.MainLine)-1)
		b := a + rng.IntN(len(d.MainLine)-a)
		e := b + rng.IntN(len(d.MainLine)-b+1)
		joined := append(c.Consecutive(a, b), c.Consecutive(b, e)...)
		if diff := cmp.Diff(whole[a-1:e-1], joined, sameResults); diff != "" {
			t.Fatalf("Consecutive(%d, %d) ++ Consecutive(%d, %d) differs from Consecutive(%d, %d):\n%s", a, b, b, e, a, e, diff)
		}
	}
	for _, r := range [][2]int{{5, 5}, {9, 3}, {-4, 0}, {len(d.MainLine), len(d.MainLine) + 5}} {
		if got := c.Consecutive(r[0], r[1]); len(got) != 0 {
			t.Errorf("Consecutive(%d, %d) = %d comparisons, want none", r[0], r[1], len(got))
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The sliding threshold is thresholdInto of lineHistory's values at every
// start, on sparse lines with failed points and values a sorted array
// cannot stand for (zero, negative, NaN, +Inf), for histories of 2 to 9
// values so that the 3 × History lookback cuts them at every distance.
func TestThresholdWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for trial := range 400 {
		n := 2 + rng.IntN(8)
		density := 0.2 + 0.8*rng.Float64()
		var pts []model.Point
		for pos := range 80 {
			if rng.Float64() > density {
				continue
			}
			v := 100 + float64(rng.IntN(5)) // ties: equal percent changes
			if rng.IntN(30) == 0 {
				v = []float64{0, -3, math.NaN(), math.Inf(1), math.Copysign(0, -1)}[rng.IntN(5)]
			}
			p := model.Point{Artifact: int32(pos)}
			p.SetValue(v, rng.IntN(8) > 0)
			pts = append(pts, p)
		}
		artPos := make([]int32, 80)
		for a := range artPos {
			artPos[a] = int32(a)
		}
		line := newLine(pts, artPos)
		var tw thresholdWindow
		tw.reset(n)
		pushed := 0
		for start := -1; start < 85; start++ {
			for ; pushed < line.len() && int(line.pos(pushed)) <= start; pushed++ {
				if lp := line.at(pushed); lp.ok() {
					tw.push(lp.pos, lp.value(pts))
				}
			}
			h := lineHistory(nil, &line, pts, pushed, start, n)
			if start < 0 {
				h = nil
			}
			history, threshold, ok := tw.at(start)
			if history != len(h) {
				t.Fatalf("trial %d, n %d, start %d: history %d, lineHistory has %d", trial, n, start, history, len(h))
			}
			if !ok {
				continue
			}
			if want := thresholdInto(nil, h, n); math.Float64bits(threshold) != math.Float64bits(want) {
				t.Fatalf("trial %d, n %d, start %d: threshold %v, thresholdInto %v of %v", trial, n, start, threshold, want, h)
			}
		}
	}
}

// The result does not depend on the number of workers.
func TestConsecutiveWorkers(t *testing.T) {
	d := synthDataset(synthPlan{commits: 50, series: 100, samples: 5, seed: 12, hostile: true})
	c := NewComparer(d, consecutiveOptions()[0])
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := c.Consecutive(1, len(d.MainLine))
	runtime.GOMAXPROCS(7)
	if diff := cmp.Diff(one, c.Consecutive(1, len(d.MainLine)), sameResults); diff != "" {
		t.Errorf("1 worker vs 7 (-1 +7):\n%s", diff)
	}
}

// Invalid options fall back to the defaults with a warning, and a summary
// stays a summary: no engine runs.
func TestSummaryWithInvalidOptions(t *testing.T) {
	d := synthDataset(synthPlan{commits: 5, series: 8, samples: 5, seed: 13})
	c := NewComparer(d, Options{Model: "bogus"})
	for _, s := range []*Comparison{c.Summary(d.MainLine[3], d.MainLine[4]), c.ConsecutiveSummary(4, 5)[0]} {
		if !s.Options.SummaryOnly || len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0].Error(), `model = "bogus": unknown model`) {
			t.Errorf("options %+v, warnings %v", s.Options, s.Warnings)
		}
		for _, r := range s.Rows {
			if r.Z.Threshold != 0 || r.Budget != nil || r.Test.Method != "" || r.Test.Reason != "" {
				t.Errorf("engines ran on a summary row: %+v %+v, basis %s", r.Z, r.Test, r.Basis)
			}
		}
	}
}

// ConsecutiveSummary is Consecutive with Options.SummaryOnly (for the
// tests and benchmarks: a site summarizes pairs with Summary), as Summary
// is Compare with it: the model's classification and the summaries,
// without the other engines (but with the samples' test where the
// short-history rule needs it).
func (c *Comparer) ConsecutiveSummary(from, to int) []*Comparison {
	o := c.opts
	o.SummaryOnly = true
	return c.consecutive(from, to, o)
}

// A line lists a series' main-line points by position, whether its points
// are all on the main line in order (no index) or not (points off the
// main line, points out of order: an index), with each entry's position,
// point and OK as a direct reading of the points gives them.
func TestLineEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	for trial := range 500 {
		arts := 1 + rng.IntN(40)
		artPos := make([]int32, arts)
		next := int32(0)
		for a := range artPos {
			artPos[a] = -1
			if rng.IntN(4) > 0 {
				artPos[a], next = next, next+1
			}
		}
		var pts []model.Point
		for a := range arts {
			if rng.IntN(3) > 0 {
				p := model.Point{Artifact: int32(a)}
				p.SetValue(float64(a), rng.IntN(6) > 0)
				pts = append(pts, p)
			}
		}
		if trial%3 == 0 {
			rng.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
		}
		type entry struct {
			pos, point int32
			ok         bool
		}
		var want []entry
		for k, p := range pts {
			if pos := artPos[p.Artifact]; pos >= 0 {
				want = append(want, entry{pos, int32(k), p.OK()})
			}
		}
		slices.SortFunc(want, func(a, b entry) int { return int(a.pos - b.pos) })
		l := newLine(pts, artPos)
		var got []entry
		for k := range l.len() {
			lp := l.at(k)
			if lp.pos != l.pos(k) || int(lp.idx()) != l.point(k) {
				t.Fatalf("trial %d, entry %d: at %+v, pos %d, point %d", trial, k, lp, l.pos(k), l.point(k))
			}
			got = append(got, entry{lp.pos, lp.idx(), lp.ok()})
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(entry{})); diff != "" {
			t.Fatalf("trial %d: entries (-want +got):\n%s", trial, diff)
		}
		dense := true
		for k, p := range pts {
			dense = dense && artPos[p.Artifact] >= 0 && (k == 0 || artPos[p.Artifact] > artPos[pts[k-1].Artifact])
		}
		if (l.entries == nil) != dense {
			t.Fatalf("trial %d: entries %v for points all on the main line in order: %v", trial, l.entries, dense)
		}
	}
}
