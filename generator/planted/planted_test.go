package planted

import (
	"io/fs"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/config"
)

func TestNoiseWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const sigma = 0.05
	devs := make([]float64, 4000)
	for i := range devs {
		devs[i] = math.Expm1(sigma * rng.NormFloat64())
	}
	w := NoiseWidth(devs)
	if math.Abs(w-sigma) > 0.004 {
		t.Errorf("NoiseWidth of normal noise with σ %g = %g", sigma, w)
	}
	// A step and a spike barely move it; the level does not matter.
	stepped := append([]float64(nil), devs...)
	for i := 2000; i < len(stepped); i++ {
		stepped[i] = (1+stepped[i])*3 - 1
	}
	stepped[1000] = 20
	if got := NoiseWidth(stepped); math.Abs(got-w) > 0.002 {
		t.Errorf("NoiseWidth with a step and a spike = %g, without %g", got, w)
	}
	if got := NoiseWidth([]float64{0.1, 0.2}); got != 0 {
		t.Errorf("NoiseWidth of 2 values = %g, want 0", got)
	}
}

func TestCorpus(t *testing.T) {
	c, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sources()) < 5 {
		t.Errorf("corpus sources %v, want local tools and public histories", c.Sources())
	}
	samples := 0
	for _, n := range c.Series {
		if len(n.Values) < 50 {
			t.Errorf("%s/%s: %d runs", n.Source, n.Name, len(n.Values))
		}
		if n.HasSamples() {
			samples++
		}
	}
	if samples == 0 {
		t.Error("no corpus series has samples")
	}
	err = fs.WalkDir(corpusFS, "corpus", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if fi, _ := e.Info(); fi.Size() > 500<<10 {
			t.Errorf("%s is %d bytes; keep corpus files under 500 KB", path, fi.Size())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func suiteFor(t testing.TB, o Options) *Suite {
	t.Helper()
	c, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Generate(c, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGenerateDeterministic(t *testing.T) {
	for _, shape := range []Shape{Values, Samples} {
		o := Options{Seed: 7, Shape: shape, Series: 12, Commits: 120}
		a, b := suiteFor(t, o), suiteFor(t, o)
		if !reflect.DeepEqual(a.Runs(), b.Runs()) {
			t.Errorf("%s: two suites of one seed differ", shape)
		}
		o.Seed = 8
		if reflect.DeepEqual(a.Runs(), suiteFor(t, o).Runs()) {
			t.Errorf("%s: seeds 7 and 8 give the same suite", shape)
		}
	}
}

// TestPlantedSizes checks that every event moves the level by exactly K
// noise widths over the noise it was laid on.
func TestPlantedSizes(t *testing.T) {
	for _, shape := range []Shape{Values, Samples} {
		s := suiteFor(t, Options{Seed: 3, Shape: shape, Series: 40, Commits: 150})
		kinds := map[Kind]int{}
		for _, ps := range s.Series {
			// shift[p] is ln(value / (level · (1 + noise))).
			shift := func(p int) float64 {
				run := ps.Offset + p - ps.Start
				dev := ps.Noise.Values[run]
				if shape == Samples {
					dev = median(ps.Noise.Samples[run][:min(len(ps.Noise.Samples[run]), MaxSamples)])
				}
				return math.Log(ps.Values[p] / (ps.Level * (1 + dev)))
			}
			for _, e := range ps.Events {
				kinds[e.Kind]++
				want := e.K * ps.Width
				if !e.Up {
					want = -want
				}
				var got float64
				switch e.Kind {
				case Step, Spike:
					got = shift(e.At) - shift(e.At-1)
					if e.Kind == Spike && math.Abs(shift(e.At+1)-shift(e.At-1)) > 1e-9 {
						t.Errorf("%s: spike at %d does not return", ps.Benchmark, e.At)
					}
				case Drift:
					got = shift(e.End) - shift(e.At)
				}
				if math.Abs(got-want) > 1e-9 {
					t.Errorf("%s: %s at %d moves ln(value) by %g, want %g", ps.Benchmark, e.Kind, e.At, got, want)
				}
			}
		}
		if kinds[Step] == 0 || kinds[Spike] == 0 || kinds[Drift] == 0 {
			t.Errorf("%s: events planted %v; want steps, spikes and drifts", shape, kinds)
		}
	}
}

// TestWholeSiteMatchesInMemory loads a small suite through archives and
// the generator, and checks that it gives the dataset Runs gives in
// memory: the two paths of the harness measure the same thing.
func TestWholeSiteMatchesInMemory(t *testing.T) {
	for _, shape := range []Shape{Values, Samples} {
		s := suiteFor(t, Options{Seed: 5, Shape: shape, Series: 6, Commits: 60})
		site, cfg := wholeSite(t, s, "")
		if !reflect.DeepEqual(cfg.CompareOptions(), config.Default().CompareOptions()) || !reflect.DeepEqual(cfg.BuildOptions(), config.Default().BuildOptions()) {
			t.Errorf("the planted site's options are not the defaults:\n%+v\n%+v", cfg.CompareOptions(), config.Default().CompareOptions())
		}
		mem := inMemory(s, cfg)
		if len(site.MainLine) != len(s.Artifacts) || len(mem.MainLine) != len(s.Artifacts) {
			t.Fatalf("%s: main lines of %d and %d commits, want %d", shape, len(site.MainLine), len(mem.MainLine), len(s.Artifacts))
		}
		for i, sr := range site.Series {
			ps := s.truth().of(site, sr)
			if ps == nil {
				t.Fatalf("%s: series %s is not planted", shape, sr.Key)
			}
			got, inmem := site.MainLineValues(sr), mem.MainLineValues(mem.Series[i])
			for p, v := range got {
				want := ps.Values[p]
				if math.IsNaN(v) != math.IsNaN(want) || !math.IsNaN(v) && math.Abs(v-want) > 1e-9*want || !(math.IsNaN(v) && math.IsNaN(inmem[p]) || v == inmem[p]) {
					t.Fatalf("%s: %s at %d: site %v, in memory %v, planted %v", shape, ps.Benchmark, p, v, inmem[p], want)
				}
			}
		}
	}
}

// TestScoresOfAnOracle scores a verdict that knows the truth and steps at
// the planted commits: the scorers must give it a perfect score.
func TestScoresOfAnOracle(t *testing.T) {
	s := suiteFor(t, Options{Seed: 9, Series: 10, Commits: 100})
	cfg := parseConfig(t, "")
	d := inMemory(s, cfg)
	tr := s.truth()
	oracle := func(c *analysis.Comparison, r *analysis.Row) Verdict {
		ps := tr.of(d, r.Series)
		class, e := ps.ClassAt(tr.pos[d.Artifacts[c.Head].ID])
		if class != StepRow {
			return Verdict{}
		}
		return Verdict{Flagged: true, Up: e.Up}
	}
	h := ScoreHeadline(s, d, consecutive(d, cfg), oracle, nil)
	if h.Precision() != 1 || h.FalsePer1000() != 0 {
		t.Errorf("oracle: precision %g, false alarms %g per 1,000", h.Precision(), h.FalsePer1000())
	}
	for k, n := range h.StepRows {
		if h.StepFound[k] != n {
			t.Errorf("oracle: recall at k=%g is %d of %d", k, h.StepFound[k], n)
		}
	}
	var steps []analysis.Step
	for i, sr := range d.Series {
		for _, e := range tr.of(d, sr).Events {
			if e.Kind == Step {
				steps = append(steps, analysis.Step{Series: i, Artifact: d.MainLine[e.At+1]}) // one commit late: within tolerance
			}
		}
	}
	sc := ScoreSteps(s, d, steps, DefaultTolerance, nil)
	if sc.Precision() != 1 || sc.RecallAtLeast(0) != 1 || sc.False != 0 {
		t.Errorf("oracle steps: precision %g, recall %g, %d false", sc.Precision(), sc.RecallAtLeast(0), sc.False)
	}
}

// TestLocalK checks an event's size in its local noise: in a series whose
// noise is quiet for 100 runs and eight times as wide after, a step of 4
// series-wide widths is more than 4 local widths in the quiet half and
// fewer in the wide one, and the report's bins sort them apart.
func TestLocalK(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	devs := make([]float64, 200)
	for i := range devs {
		sd := 0.005
		if i >= 100 {
			sd = 0.04
		}
		devs[i] = sd * rng.NormFloat64()
	}
	n := &Noise{Source: "test", Values: devs, Width: NoiseWidth(devs)}
	s := &Series{Noise: n, Width: n.Width, Level: 1000, Values: make([]float64, len(devs))}
	quiet := s.LocalK(Event{Kind: Step, At: 50, End: 50, K: 4})
	wide := s.LocalK(Event{Kind: Step, At: 160, End: 160, K: 4})
	if !(quiet > 4 && wide < 4 && quiet > 3*wide) {
		t.Errorf("LocalK of a 4-width step: %.2f in the quiet half, %.2f in the wide one; want > 4, < 4 and a ratio near 8", quiet, wide)
	}
	for _, c := range []struct {
		k    float64
		want int
	}{{math.NaN(), 0}, {1.5, 0}, {2, 1}, {3.9, 1}, {4, 2}, {7.9, 2}, {8, 3}, {40, 3}} {
		if got := localBin(c.k); got != c.want {
			t.Errorf("localBin(%g) = %d (%s), want %d", c.k, got, localBinName(got), c.want)
		}
	}
}

// Steady takes out a load block's level and an excursion of a public
// history, and nothing else: a spike of one run stays, and so does the
// noise about the level.
func TestSteady(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	noise := func(n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = 0.05 * rng.NormFloat64()
		}
		return out
	}
	// A public history: level 0, an excursion ×1.8 over runs 40–46, a
	// spike at 70.
	pub := noise(100)
	for i := 40; i < 47; i++ {
		pub[i] = (1+pub[i])*1.8 - 1
	}
	pub[70] = 2
	// Noise made here: a block of 30 runs under load, ×1.5.
	loc := noise(100)
	load := []byte(strings.Repeat("i", 100))
	for i := 50; i < 80; i++ {
		loc[i] = (1+loc[i])*1.5 - 1
		load[i] = 'b'
	}
	c := &Corpus{Series: []*Noise{{Source: "pub", Values: pub}, {Source: "local-x", Values: loc, Load: string(load)}}}
	got := c.Steady()
	if m := (&Noise{Values: pub}).moves(); len(m) != 1 || m[0].from != 40 || m[0].to != 47 {
		t.Errorf("moves of the public history = %+v, want one over 40…46", m)
	}
	for i, stretches := range [][][2]int{{{0, 40}, {40, 47}, {47, 100}}, {{0, 50}, {50, 80}, {80, 100}}} {
		s := got.Series[i]
		for _, r := range stretches {
			if m := median(s.Values[r[0]:r[1]]); math.Abs(m) > 0.05 {
				t.Errorf("%s: median deviation over %d…%d = %.3f, want about 0", s.Source, r[0], r[1]-1, m)
			}
		}
	}
	if got.Series[0].Values[70] < 1.5 {
		t.Errorf("the spike is gone: %.2f", got.Series[0].Values[70])
	}
	if c.Series[0].Values[41] < 0.5 {
		t.Error("Steady changed the corpus it was given")
	}
}
