package generator

import (
	"fmt"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/demo"
)

// This file measures step detection (analysis/changepoint through
// analysis.Steps) against the changes the demo generator plants,
// which content/about.md lists: its precision and recall are the numbers
// the package documentation quotes.

// plantedTruth is what a plan planted in one series, by main-line
// position.
type plantedTruth struct {
	steps    map[int]bool // step changes (regression, improvement, mixed); true when marked Significant
	neutral  map[int]bool // real changes planted below the noise (KindNoise): neither required nor wrong
	outliers map[int]bool // spikes and failures: a step there is wrong
	bimodal  bool
}

func truthOf(d *model.Dataset, events []demo.Event, s *model.Series) plantedTruth {
	t := plantedTruth{steps: map[int]bool{}, neutral: map[int]bool{}, outliers: map[int]bool{}}
	for _, e := range events {
		if !e.Matches(s.Key.Machine, s.Case, s.Key.Metric) {
			continue
		}
		if e.Kind == demo.KindBimodal {
			t.bimodal = true
			continue
		}
		a, ok := d.Index(e.Artifact)
		if !ok {
			continue
		}
		pos := d.MainPos(a)
		if pos < 0 {
			continue // a try run
		}
		switch e.Kind {
		case demo.KindRegression, demo.KindImprovement, demo.KindMixed:
			t.steps[pos] = t.steps[pos] || e.Significant
		case demo.KindNoise:
			t.neutral[pos] = true
		case demo.KindSpike, demo.KindFailure:
			t.outliers[pos] = true
		}
	}
	return t
}

// score is the evaluation of one method on one dataset.
type score struct {
	planted, plantedSig int // planted steps, and those marked Significant
	found, foundSig     int // planted steps detected (within tolerance)
	exact               int // … at exactly the planted position
	detections          int // steps reported, KindNoise matches left out
	falseSteps          int // reported steps that match no planted step
	onBimodal, nearOut  int // … of which on a bimodal series, or next to a spike or failure
	elapsed             time.Duration
}

func (s score) precision() float64 {
	if s.detections == 0 {
		return 1
	}
	return float64(s.detections-s.falseSteps) / float64(s.detections)
}

func (s score) recall() float64    { return ratio(s.found, s.planted) }
func (s score) recallSig() float64 { return ratio(s.foundSig, s.plantedSig) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func (s score) String() string {
	return fmt.Sprintf("precision %.3f (%d of %d wrong: %d on the bimodal series, %d next to a spike or failure), recall %.3f (%d/%d; %d at the exact commit), recall of the steps marked significant %.3f (%d/%d), %v",
		s.precision(), s.falseSteps, s.detections, s.onBimodal, s.nearOut, s.recall(), s.found, s.planted, s.exact,
		s.recallSig(), s.foundSig, s.plantedSig, s.elapsed.Round(time.Millisecond))
}

// tolerance is how far (in main-line commits) a detection may be from
// the planted change and still count as finding it.
const tolerance = 2

func evaluate(d *model.Dataset, events []demo.Event, o changepoint.Options) score {
	start := time.Now()
	steps := analysis.Steps(d, o, nil)
	var sc score
	sc.elapsed = time.Since(start)
	bySeries := map[int][]analysis.Step{}
	for _, st := range steps {
		bySeries[st.Series] = append(bySeries[st.Series], st)
	}
	near := func(set map[int]bool, p int) (int, bool) {
		for q := p - tolerance; q <= p+tolerance; q++ {
			if _, ok := set[q]; ok {
				return q, true
			}
		}
		return 0, false
	}
	for i, s := range d.Series {
		t := truthOf(d, events, s)
		for _, sig := range t.steps {
			sc.planted++
			if sig {
				sc.plantedSig++
			}
		}
		matched := map[int]bool{}
		for _, st := range bySeries[i] {
			if q, ok := near(t.steps, st.Index); ok && !matched[q] {
				matched[q] = true
				sc.detections++
				sc.found++
				if t.steps[q] {
					sc.foundSig++
				}
				if q == st.Index {
					sc.exact++
				}
				continue
			}
			if _, ok := near(t.neutral, st.Index); ok {
				continue
			}
			sc.detections++
			sc.falseSteps++
			switch _, out := near(t.outliers, st.Index); {
			case t.bimodal:
				sc.onBimodal++
			case out:
				sc.nearOut++
			}
		}
	}
	return sc
}

func planDataset(t testing.TB, size string) (*model.Dataset, []demo.Event) {
	t.Helper()
	plan, err := demo.PlanFor(size)
	if err != nil {
		t.Fatal(err)
	}
	b := model.NewBuilder(model.BuildOptions{})
	if err := plan.Generate(func(r model.Run) error { b.Add(size, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return b.Dataset(), plan.Events()
}

// TestChangepointOnDemo scores both methods on the demo and on the S
// dataset. It logs the table the package documentation quotes (go test
// -run ChangepointOnDemo -v) and pins the default method's quality: every
// planted step marked significant found, no step reported on the bimodal
// series or at a spike or failure, precision and recall at least 0.95 and
// 0.9.
func TestChangepointOnDemo(t *testing.T) {
	for _, size := range []string{"demo", "S"} {
		d, events := planDataset(t, size)
		for _, m := range []changepoint.Method{changepoint.EDivisive, changepoint.Potts} {
			o := changepoint.DefaultOptions
			o.Method = m
			sc := evaluate(d, events, o)
			t.Logf("%s, %s (%d series × %d commits): %v", size, m, len(d.Series), len(d.MainLine), sc)
			if m != changepoint.EDivisive {
				continue
			}
			if sc.foundSig != sc.plantedSig {
				t.Errorf("%s: found %d of the %d planted steps marked significant", size, sc.foundSig, sc.plantedSig)
			}
			if sc.onBimodal+sc.nearOut > 0 {
				t.Errorf("%s: %d steps on the bimodal series, %d next to a spike or failure", size, sc.onBimodal, sc.nearOut)
			}
			if sc.precision() < 0.95 || sc.recall() < 0.9 {
				t.Errorf("%s: precision %.3f, recall %.3f; want at least 0.95 and 0.9", size, sc.precision(), sc.recall())
			}
		}
	}
}

// BenchmarkSteps is step detection over a whole dataset of the harness
// (analysis.Steps, every series in parallel): "cold" without a
// cache, "+1" with the cache of the build before the newest main-line
// commit arrived, the nightly case. ns/series is wall time per series on
// all cores (BenchmarkDetect in analysis/changepoint reports CPU time too).
func BenchmarkSteps(b *testing.B) {
	for _, size := range []string{"S", "M"} {
		before, after := datasetsPlusOne(b, size)
		o := changepoint.DefaultOptions
		b.Run(size+"/cold", func(b *testing.B) {
			for b.Loop() {
				analysis.Steps(after, o, nil)
			}
			reportPerSeries(b, len(after.Series))
		})
		prev := analysis.NewStepCache()
		analysis.Steps(before, o, prev)
		saved := prev.Used()
		b.Run(size+"/+1", func(b *testing.B) {
			for b.Loop() {
				c := analysis.NewStepCache()
				c.Load(saved)
				analysis.Steps(after, o, c)
			}
			reportPerSeries(b, len(after.Series))
		})
	}
}

// datasetsPlusOne returns a plan's dataset without its newest main-line
// commit, and with it.
func datasetsPlusOne(b *testing.B, size string) (before, after *model.Dataset) {
	b.Helper()
	plan, err := demo.PlanFor(size)
	if err != nil {
		b.Fatal(err)
	}
	var runs []model.Run
	if err := plan.Generate(func(r model.Run) error { runs = append(runs, r); return nil }); err != nil {
		b.Fatal(err)
	}
	newest := ""
	for _, r := range runs {
		if r.Artifact.Kind == model.KindCommit {
			newest = r.Artifact.ID // runs come in date order
		}
	}
	bb, ba := model.NewBuilder(model.BuildOptions{}), model.NewBuilder(model.BuildOptions{})
	for _, r := range runs {
		if r.Artifact.ID != newest {
			bb.Add(size, r)
		}
		ba.Add(size, r)
	}
	return bb.Dataset(), ba.Dataset()
}

func reportPerSeries(b *testing.B, series int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*series), "ns/series")
}
