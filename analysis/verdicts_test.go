package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/perf/benchfmt"

	"github.com/perfpages/perfpages/analysis/mannwhitney"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// The cases that made the verdicts what they are: each as a known answer,
// under the default model and value, and under model rustc-perf with value
// best, which reproduces what perfpages printed before.

// lastRow compares the last two commits of d.
func lastRow(t *testing.T, d *model.Dataset, opts Options) Row {
	t.Helper()
	n := len(d.MainLine)
	return onlyRow(t, Compare(d, d.MainLine[n-2], d.MainLine[n-1], opts))
}

var rustcPerfOptions = Options{Model: ModelRustcPerf, History: 30}

// verdict is what a row says, for table tests.
type verdict struct {
	Change      string // FormatPercentSigned(change, 2)
	Significant bool
	Relevant    bool
	Basis       SignificanceBasis
}

func verdictOf(r Row) verdict {
	return verdict{FormatPercentSigned(r.Change, 2), r.Significant, r.Relevant, r.Basis}
}

// pytest-benchmark: test_sort's median fell 41 % while its minimum rose
// 2.27 %. The default value, the median, sees the fall (two commits are
// too little history for the headline's verdict); best + rustc-perf
// showed a regression.
func TestVerdictMedianNotMinimum(t *testing.T) {
	base := []float64{100, 170, 171, 172, 173, 174, 175, 176, 177, 178}
	head := []float64{102.27, 101, 102, 103, 104, 105, 103, 104, 102.5, 103.5}
	got := map[string]verdict{}
	for name, v := range map[string]model.ValueKind{"auto": model.Auto, "best": model.Best} {
		d := valueLine(v, "wall-time", "ns", [][]float64{base, head}, nil)
		got[name+" perfpages"] = verdictOf(lastRow(t, d, DefaultOptions))
		got[name+" rustc-perf"] = verdictOf(lastRow(t, d, rustcPerfOptions))
	}
	want := map[string]verdict{
		"auto perfpages":  {"-40.63%", false, false, BasisYoung},
		"auto rustc-perf": {"-40.63%", true, true, BasisShort},
		"best perfpages":  {"+1.00%", false, false, BasisYoung}, // the minimum 100 → 101
		"best rustc-perf": {"+1.00%", true, true, BasisShort},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// benchstat: SortInts/n=10000 B/op, medians 1638 → 1638, p = 0.172: no
// change. The minimum 1332 → 1638 made it +22.97 %, very large.
func TestVerdictBenchstatNoChange(t *testing.T) {
	base := []float64{1638, 1332, 1638, 1638, 1332, 1638, 1638, 1638, 1638, 1638}
	head := []float64{1638, 1638, 1638, 1638, 1638, 1638, 1638, 1638, 1638, 1638}
	d := valueLine(model.Auto, "alloc-bytes", "B/op", [][]float64{base, head}, nil)
	r := lastRow(t, d, DefaultOptions)
	if r.Change != 0 || r.Significant || r.Test.Significant || r.Basis != BasisYoung {
		t.Errorf("auto: change %v significant %v (test %+v, basis %s); want no change", r.Change, r.Significant, r.Test, r.Basis)
	}
	// benchstat's own numbers for these samples.
	m := mannwhitney.Compare(base, head, mannwhitney.DefaultOptions)
	if r.Before.Value != m.Base.Center || r.After.Value != m.Head.Center || r.Test.P != m.P || m.DeltaString() != "~" {
		t.Errorf("values %v → %v, p %v; benchstat %v → %v, p %v, %s", r.Before.Value, r.After.Value, r.Test.P, m.Base.Center, m.Head.Center, m.P, m.DeltaString())
	}
	d = valueLine(model.Best, "alloc-bytes", "B/op", [][]float64{base, head}, nil)
	old := lastRow(t, d, rustcPerfOptions)
	if got := verdictOf(old); got != (verdict{"+22.97%", true, true, BasisShort}) || old.Magnitude != VeryLarge {
		t.Errorf("best, rustc-perf: %+v %s; want the old +22.97 %% very large", got, old.Magnitude)
	}
	if r := lastRow(t, d, DefaultOptions); r.Significant {
		t.Errorf("best, perfpages: significant at p = %v", r.Test.P)
	}
}

// Criterion: "No change (p = 0.50)" for a change of the median above
// 0.2 %: not significant where the history is short (too short for the
// headline; rustc-perf's 0.2 % calls it significant).
func TestVerdictCriterionNoChange(t *testing.T) {
	iters := make([]float64, 20)
	for i := range iters {
		iters[i] = float64(i + 1)
	}
	rng := rand.New(rand.NewPCG(12, 1))
	base, head := make([]float64, 20), make([]float64, 20)
	for i := range base {
		base[i] = 1000 * (1 + 0.05*rng.NormFloat64())
		head[i] = 1000 * (1 + 0.05*rng.NormFloat64())
	}
	d := valueLine(model.Auto, "wall-time", "ns", [][]float64{base, head}, iters)
	opts := DefaultOptions
	opts.NResamples = 2000
	r := lastRow(t, d, opts)
	if r.Test.Method != MethodCriterion || r.Test.Significant || r.Test.P < 0.3 || math.Abs(r.Change) < DefaultSignificanceThreshold {
		t.Fatalf("the fixture wants a change ≥ 0.2 %% Criterion calls no change: change %v, test %+v", r.Change, r.Test)
	}
	if r.Significant || r.Relevant || r.Basis != BasisYoung {
		t.Errorf("significant %v relevant %v basis %s; want neither: not enough history", r.Significant, r.Relevant, r.Basis)
	}
	rp := opts
	rp.Model = ModelRustcPerf
	if r := lastRow(t, d, rp); !r.Significant || r.Basis != BasisShort {
		t.Errorf("model rustc-perf: significant %v basis %s; want significant on 0.2 %%", r.Significant, r.Basis)
	}
}

// Model rustc-perf's short-history rule: 0.2 % with fewer than 30 values
// of history, whatever the samples say.
func TestShortHistoryRule(t *testing.T) {
	noisy := [][]float64{{100, 101, 99, 100, 102}, {100.5, 101.5, 99.5, 100.5, 102.5}} // +0.5 %, p = 0.548
	for _, tt := range []struct {
		name   string
		values [][]float64
		want   verdict
	}{
		{"samples, p = 0.548: significant on 0.2 %", noisy, verdict{"+0.50%", true, true, BasisShort}},
		{"one sample, +0.5 %", ones(1000, 1005), verdict{"+0.50%", true, true, BasisShort}},
		{"one sample, +0.1 %", ones(1000, 1001), verdict{"+0.10%", false, false, BasisShort}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := lastRow(t, valueLine(model.Auto, "wall-time", "ns", tt.values, nil), Options{Model: ModelRustcPerf})
			if got := verdictOf(r); got != tt.want || r.Threshold != 0.002 || r.History != 0 {
				t.Errorf("%+v, threshold %v, history %d; want %+v, 0.002, 0", got, r.Threshold, r.History, tt.want)
			}
		})
	}
}

// Model rustc-perf reproduces rustc-perf bit for bit: on a hostile
// synthetic dataset every row's threshold, factor, significance, magnitude
// and relevance are rustc-perf's functions of its history, as
// walkHistory finds it.
func TestModelRustcPerfBitForBit(t *testing.T) {
	d := synthDataset(synthPlan{commits: 80, series: 32, samples: 5, seed: 21, hostile: true})
	rp := NewComparer(d, Options{Model: ModelRustcPerf, History: 30, NResamples: 300})
	long, short := 0, 0
	for p := 1; p < len(d.MainLine); p++ {
		base, head := d.MainLine[p-1], d.MainLine[p]
		a := rp.Compare(base, head)
		for k := range a.Rows {
			r := &a.Rows[k]
			if !r.OK {
				continue
			}
			h := walkHistory(nil, d, r.Series, p-2, 30)
			if p < 2 {
				h = nil
			}
			sig := ClassifyChange(r.Change, thresholdInto(nil, h, 30), r.Series.Metric.Noise.NoiseFactor())
			if r.Before.Value == 0 && r.After.Value == 0 {
				sig.Significant, sig.Relevant = false, false
			}
			got := ChangeSignificance{r.Threshold, r.Factor, r.Significant, r.Magnitude, r.Relevant}
			if diff := cmp.Diff(sig, got, sameResults); diff != "" || r.History != len(h) {
				t.Fatalf("position %d %s: history %d of %d (-rustc-perf +model rustc-perf):\n%s", p, r.Series.Key, r.History, len(h), diff)
			}
			if len(h) < 30 {
				short++
				continue
			}
			long++
		}
	}
	if long < 500 || short < 500 {
		t.Errorf("%d rows with a long history, %d with a short one: too few to test", long, short)
	}
}

// A change from 0 is a change: infinite, in the metric's direction, very
// large, significant by the same rule as any other, counted in the
// summaries; 0 → 0 is no change.
func TestChangeFromZero(t *testing.T) {
	tests := []struct {
		name        string
		metric      string
		unit        string
		values      [][]float64
		model       string
		change      float64
		regression  bool
		significant bool
		basis       SignificanceBasis
	}{
		{"0 → 1 allocs/op, one sample", "allocs", "allocs/op", ones(0, 1), ModelRustcPerf, math.Inf(1), true, true, BasisShort},
		{"0 → 8192 B/op", "alloc-bytes", "B/op", [][]float64{{0, 0, 0, 0, 0}, {8192, 8192, 8192, 8192, 8192}}, ModelRustcPerf, math.Inf(1), true, true, BasisShort},
		{"0 → 5 throughput: an improvement", "throughput", "B/s", ones(0, 5), ModelRustcPerf, math.Inf(1), false, true, BasisShort},
		{"0 → 1, too little history for the headline", "allocs", "allocs/op", ones(0, 1), ModelPerfpages, math.Inf(1), true, false, BasisYoung},
		{"0 → 0", "allocs", "allocs/op", ones(0, 0), ModelRustcPerf, 0, false, false, BasisShort},
		{"0 → 0 over a flat history (threshold 0)", "allocs", "allocs/op", ones(append(make([]float64, 31), 0)...), ModelRustcPerf, 0, false, false, BasisHistory},
		{"0 → 0 over a flat history, headline", "allocs", "allocs/op", ones(append(make([]float64, 31), 0)...), ModelPerfpages, 0, false, false, BasisPersistence},
		{"1 → 0: −100 %", "allocs", "allocs/op", ones(1, 0), ModelRustcPerf, -1, false, true, BasisShort},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := valueLine(model.Auto, tt.metric, tt.unit, tt.values, nil)
			c := Compare(d, d.MainLine[len(d.MainLine)-2], d.MainLine[len(d.MainLine)-1], Options{Model: tt.model})
			r := onlyRow(t, c)
			if !r.OK || r.Change != tt.change || r.FromZero != math.IsInf(tt.change, 0) || r.Regression != tt.regression || r.Significant != tt.significant || r.Basis != tt.basis || len(c.Warnings) > 0 {
				t.Fatalf("OK %v change %v from zero %v regression %v significant %v basis %s, warnings %v", r.OK, r.Change, r.FromZero, r.Regression, r.Significant, r.Basis, c.Warnings)
			}
			if r.FromZero && (r.Magnitude != VeryLarge || r.Factor != 0) {
				t.Errorf("magnitude %s factor %v; want very-large, 0", r.Magnitude, r.Factor)
			}
			m := c.Metrics[0]
			st := m.Primary.Improvements
			if tt.regression {
				st = m.Primary.Regressions
			}
			if tt.significant && r.FromZero && (st.Count != 1 || st.FromZero != 1 || st.Mean != 0 || m.Relevance != RelevanceHigh) {
				t.Errorf("summary %+v, relevance %s; want one change from 0, high", st, m.Relevance)
			}
			if !tt.significant && m.Direction != DirectionNone {
				t.Errorf("direction %s for no significant change", m.Direction)
			}
		})
	}
}

// The median is benchstat's (benchmath's R8 quantile at ½), bit for bit,
// on benchstat's own test files, and Criterion's median point estimate on
// the Criterion book's sample.
func TestMedianIsBenchstatsAndCriterions(t *testing.T) {
	n := 0
	for _, name := range []string{"bench.old.txt", "bench.new.txt", "edge.old.txt", "edge.new.txt"} {
		f, err := os.Open(filepath.Join("mannwhitney", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		samples := map[string][]float64{}
		r := benchfmt.NewReader(f, name)
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				for _, v := range res.Values {
					k := string(res.Name) + " " + v.Unit
					samples[k] = append(samples[k], v.Value)
				}
			}
		}
		f.Close()
		for k, xs := range samples {
			got, _ := model.SingleValue(xs, model.Median, model.LowerIsBetter)
			if want := mannwhitney.Summarize(xs, 0.95).Center; math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("%s %s: median %v, benchstat %v", name, k, got, want)
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("%d samples compared: too few", n)
	}

	// Criterion's book: sample.json holds per-sample totals and iteration
	// counts; the median of the per-iteration values is estimates.json's.
	dir := filepath.Join("criterion", "testdata", "book", "Fibonacci", "Recursive", "new")
	var sample [2][]float64 // [iters, times] (Criterion 0.3's layout)
	var est struct {
		Median struct {
			PointEstimate float64 `json:"point_estimate"`
		}
	}
	for file, v := range map[string]any{"sample.json": &sample, "estimates.json": &est} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	avg := make([]float64, len(sample[1]))
	for i := range avg {
		avg[i] = sample[1][i] / sample[0][i]
	}
	if got, _ := model.SingleValue(avg, model.Median, model.LowerIsBetter); got != est.Median.PointEstimate || got == 0 {
		t.Errorf("median %v, Criterion's %v", got, est.Median.PointEstimate)
	}
}

// Auto is the median of noisy metrics and the best value of reliable
// ones; the other rules stay selectable.
func TestValueAuto(t *testing.T) {
	xs := []float64{3, 1, 2, 10}
	for _, tt := range []struct {
		v      model.ValueKind
		metric string
		unit   string
		want   float64
		kind   model.ValueKind
	}{
		{model.Auto, "wall-time", "ns", 2.5, model.Median},
		{model.Auto, "instructions:u", "count", 1, model.Best},
		{model.Auto, "throughput", "B/s", 2.5, model.Median},
		{model.Best, "wall-time", "ns", 1, model.Best},
		{model.Best, "throughput", "B/s", 10, model.Best},
		{model.Median, "instructions:u", "count", 2.5, model.Median},
		{model.Mean, "wall-time", "ns", 4, model.Mean},
	} {
		d := valueLine(tt.v, tt.metric, tt.unit, [][]float64{xs}, nil)
		s := d.Series[0]
		if s.Value != tt.kind || s.Points[0].Value != tt.want {
			t.Errorf("%s of %s: %s %v, want %s %v", tt.v, tt.metric, s.Value, s.Points[0].Value, tt.kind, tt.want)
		}
	}
	if !model.Auto.Valid() || model.ValueKind("min").Valid() {
		t.Error("Valid")
	}
}

// The z-score's minimum: below it no z-score and the reason; the false
// alarms that motivate it (DefaultZMinCommits), simulated with normal
// noise: the share of unchanged results with |z| > 5.
func TestZMinCommitsFalseAlarms(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	rate := func(commits int) float64 {
		alarms, scored := 0, 0
		obs := make([]zscore.Observation, commits)
		for range 20000 {
			for i := range obs {
				obs[i] = zscore.Observation{Commit: fmt.Sprint(i), Time: lineEpoch.Add(time.Duration(i) * time.Hour), Value: rng.NormFloat64()}
			}
			z := zscore.Score(rng.NormFloat64(), zscore.Distribution(obs, 100), true, 5)
			if z.OK {
				scored++
				if z.Regression || z.Improvement {
					alarms++
				}
			}
		}
		return float64(alarms) / float64(scored)
	}
	if r := rate(2); r < 0.1 {
		t.Errorf("2 commits: %.4f false alarms, want about 15 %%", r)
	}
	if r := rate(DefaultZMinCommits); r > 0.003 {
		t.Errorf("%d commits: %.4f false alarms, want about 0.1 %%", DefaultZMinCommits, r)
	}
	// The case that set the minimum: two nearly equal values, then a jump.
	d := sampleLine("wall-time", "ns", ones(100, 100.001, 127.5), nil)
	r := lastRow(t, d, DefaultOptions)
	if r.Z.OK || !strings.Contains(r.Z.Reason, "a z-score needs at least 10") {
		t.Errorf("z %+v", r.Z)
	}
	if r = lastRow(t, d, conbenchOptions); !r.Z.OK || math.Round(r.Z.Z) != -38890 {
		t.Errorf("with Conbench's minimum: z %+v, want -38890", r.Z)
	}
}

// The smallest p-value of the U test is benchmath's (its uTestMinP table
// for equal sizes).
func TestUTestMinP(t *testing.T) {
	table := []float64{1: 1, 2: 0.3333333333333333, 3: 0.1, 4: 0.02857142857142857, 5: 0.007936507936507936, 6: 0.0021645021645021645, 7: 0.0005827505827505828, 8: 0.0001554001554001554, 9: 4.113533525298231e-05}
	for n := 1; n < len(table); n++ {
		if got := mannwhitney.MinP(n, n); math.Abs(got-table[n]) > 1e-15*table[n] {
			t.Errorf("MinP(%d, %d) = %v, benchmath %v", n, n, got, table[n])
		}
	}
	if got := mannwhitney.MinP(3, 4); math.Abs(got-2.0/35) > 1e-15 {
		t.Errorf("MinP(3, 4) = %v, want 2/35", got)
	}
}
