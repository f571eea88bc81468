package planted

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// Shape is what one run of a planted series carries.
type Shape string

// Shapes.
const (
	// Values is one value per commit: the shape of most github-action-
	// benchmark histories (go test -bench with count 1, cargo bench's
	// estimate, pytest-benchmark's mean).
	Values Shape = "values"
	// Samples is a few samples per run (MinSamples to MaxSamples), drawn
	// from the within-run samples of the corpus series that have them; the
	// site takes their median (value = "auto" for a noisy metric).
	Samples Shape = "samples"
)

// Kind is the kind of a planted event.
type Kind string

// Event kinds.
const (
	Step  Kind = "step"  // the level moves by K widths at At and stays
	Spike Kind = "spike" // the value at At alone is K widths off; At+1 returns
	Drift Kind = "drift" // the level moves by K widths linearly over At+1 … End
)

// Event is one planted change of a series, at main-line positions.
type Event struct {
	Kind Kind
	At   int     // main-line position of the step's or spike's commit, or the drift's last unchanged one
	End  int     // the drift's last position (= At for steps and spikes)
	K    float64 // size in noise widths
	Up   bool    // the value goes up (a regression: planted metrics are lower-is-better)
}

// Series is one planted series: a window of corpus noise with events laid
// over it.
type Series struct {
	// Benchmark is the test case's name in the runs, unique in the suite.
	Benchmark string
	Noise     *Noise // where the noise came from
	Offset    int    // the noise window's first run in Noise.Values
	// Start is the first main-line position with a value (a series shorter
	// than the suite starts late, like a benchmark added later).
	Start int
	// Width is the noise width the events were scaled with (Noise.Width in
	// shape Values, Noise.SampleWidth in shape Samples).
	Width float64
	// Level is the unchanged level in ns.
	Level  float64
	Events []Event // by position
	// Values hold the single value per main-line position (NaN before
	// Start); Samples the samples of each position in shape Samples.
	Values  []float64
	Samples [][]float64
}

// Options configure a suite. Zero fields take DefaultOptions'.
type Options struct {
	Seed    uint64
	Shape   Shape
	Series  int // planted series
	Commits int // main-line commits
	// Ks are the step sizes in noise widths; the steps of a series take
	// them in a shuffled cycle, each up or down at random.
	Ks []float64
	// The first event of a series is FirstMin…FirstMax commits after its
	// start; the next ones MinGap…MaxGap commits after the previous, and
	// none is closer than Tail commits to the end.
	FirstMin, FirstMax, MinGap, MaxGap, Tail int
	// SpikeShare and DriftShare are the shares of events that are spikes
	// and drifts (the rest are steps); 0 takes the default, a negative
	// share plants none. Spikes are SpikeK widths (up four
	// times in five), drifts DriftK widths over DriftLen commits.
	SpikeShare, DriftShare float64
	SpikeK, DriftK         float64
	DriftLen               int
	// Sources restricts the noise to these corpus files (nil: all). Series
	// are drawn with equal weight per group: the local-* files (noise
	// produced on one machine) are one group, each public history another,
	// so that no source dominates.
	Sources []string
	// MinWidth leaves out corpus series with a smaller noise width (a
	// quantized or constant series has no noise to lay steps over).
	MinWidth float64
	// Steady lays the events over the corpus with the noise's own level
	// moves taken out (Corpus.Steady).
	Steady bool
}

// DefaultOptions are the suite the report measures.
var DefaultOptions = Options{Seed: 22, Shape: Values, Series: 200, Commits: 200, Ks: []float64{1, 2, 4, 8, 16},
	FirstMin: 8, FirstMax: 30, MinGap: 25, MaxGap: 45, Tail: 10,
	SpikeShare: 0.2, DriftShare: 0.1, SpikeK: 8, DriftK: 8, DriftLen: 12, MinWidth: 0.002}

func (o Options) withDefaults() Options {
	d := DefaultOptions
	if o.Shape == "" {
		o.Shape = d.Shape
	}
	if o.Series == 0 {
		o.Series = d.Series
	}
	if o.Commits == 0 {
		o.Commits = d.Commits
	}
	if len(o.Ks) == 0 {
		o.Ks = d.Ks
	}
	for _, p := range []struct {
		v *int
		d int
	}{{&o.FirstMin, d.FirstMin}, {&o.FirstMax, d.FirstMax}, {&o.MinGap, d.MinGap}, {&o.MaxGap, d.MaxGap}, {&o.Tail, d.Tail}, {&o.DriftLen, d.DriftLen}} {
		if *p.v == 0 {
			*p.v = p.d
		}
	}
	for _, p := range []struct {
		v *float64
		d float64
	}{{&o.SpikeShare, d.SpikeShare}, {&o.DriftShare, d.DriftShare}, {&o.SpikeK, d.SpikeK}, {&o.DriftK, d.DriftK}, {&o.MinWidth, d.MinWidth}} {
		if *p.v == 0 {
			*p.v = p.d
		}
	}
	return o
}

// Suite is a planted-truth history: Commits main-line commits, each
// benchmarked on one machine for every series that has started.
type Suite struct {
	Options   Options
	Artifacts []model.Artifact // the main line, oldest first
	Series    []*Series
}

// Metric, Unit and Machine of every planted result.
const (
	Metric  = "wall-time"
	Unit    = "ns"
	Machine = "planted-runner"
)

// Generate lays a suite over the corpus, deterministically from
// o.Seed: the same options give the same suite.
func Generate(c *Corpus, o Options) (*Suite, error) {
	o = o.withDefaults()
	if o.Shape != Values && o.Shape != Samples {
		return nil, fmt.Errorf("planted: unknown shape %q", o.Shape)
	}
	if o.Commits < o.FirstMax+o.Tail+2 {
		return nil, fmt.Errorf("planted: %d commits are too few", o.Commits)
	}
	if o.Steady {
		c = c.Steady()
	}
	pools := map[string][]*Noise{}
	var sources []string
	for _, n := range c.Series {
		if o.Sources != nil && !slices.Contains(o.Sources, n.Source) {
			continue
		}
		w := n.Width
		if o.Shape == Samples {
			if !n.HasSamples() {
				continue
			}
			w = n.SampleWidth
		}
		if !(w >= o.MinWidth) || len(n.Values) < o.FirstMax+o.Tail+2 {
			continue
		}
		g := group(n.Source)
		if len(pools[g]) == 0 {
			sources = append(sources, g)
		}
		pools[g] = append(pools[g], n)
	}
	if len(sources) == 0 {
		return nil, fmt.Errorf("planted: no corpus series fits shape %s", o.Shape)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x7e22))
	s := &Suite{Options: o, Artifacts: artifacts(o)}
	for i := range o.Series {
		pool := pools[sources[i%len(sources)]]
		n := pool[rng.IntN(len(pool))]
		s.Series = append(s.Series, plant(rng, o, i, n))
	}
	return s, nil
}

// group is the draw group of a corpus file: the noise produced here (one
// file per tool, local-*) is one group, each public history its own, so
// that the suite is not mostly the one loaded machine.
func group(source string) string {
	if strings.HasPrefix(source, "local-") {
		return "local"
	}
	return source
}

// artifacts are the suite's main line: deterministic shas, one commit an
// hour from 2026-01-05 (a Monday).
func artifacts(o Options) []model.Artifact {
	t0 := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	out := make([]model.Artifact, o.Commits)
	for p := range out {
		h := sha1.Sum(fmt.Appendf(nil, "planted %d %s %d", o.Seed, o.Shape, p))
		a := model.Artifact{ID: hex.EncodeToString(h[:]), Kind: model.KindCommit, Date: t0.Add(time.Duration(p) * time.Hour),
			Branch: "main", Title: fmt.Sprintf("planted commit %d", p), Author: "planted"}
		if p > 0 {
			a.Parents = []string{out[p-1].ID}
		}
		out[p] = a
	}
	return out
}

func plant(rng *rand.Rand, o Options, i int, n *Noise) *Series {
	s := &Series{Benchmark: fmt.Sprintf("p%03d-%s", i, n.Source), Noise: n, Width: n.Width,
		Level: math.Pow(10, 2+4*rng.Float64())} // 100 ns … 1 ms
	if o.Shape == Samples {
		s.Width = n.SampleWidth
	}
	runs := len(n.Values)
	if runs >= o.Commits {
		s.Offset = rng.IntN(runs - o.Commits + 1)
	} else {
		s.Start = o.Commits - runs
	}

	// Events.
	ks := slices.Clone(o.Ks)
	next := 0
	for p := s.Start + o.FirstMin + rng.IntN(o.FirstMax-o.FirstMin+1); p < o.Commits-o.Tail; p += o.MinGap + rng.IntN(o.MaxGap-o.MinGap+1) {
		e := Event{At: p, End: p, Up: rng.IntN(2) == 0}
		switch r := rng.Float64(); {
		case r < o.SpikeShare:
			e.Kind, e.K, e.Up = Spike, o.SpikeK, rng.IntN(5) != 0
		case r < o.SpikeShare+o.DriftShare && p+o.DriftLen < o.Commits-o.Tail:
			e.Kind, e.K, e.End = Drift, o.DriftK, p+o.DriftLen
		default:
			if next%len(ks) == 0 {
				rng.Shuffle(len(ks), func(a, b int) { ks[a], ks[b] = ks[b], ks[a] })
			}
			e.Kind, e.K = Step, ks[next%len(ks)]
			next++
		}
		s.Events = append(s.Events, e)
	}

	// The log-level offset of each position.
	shift := make([]float64, o.Commits)
	for _, e := range s.Events {
		sign := 1.0
		if !e.Up {
			sign = -1
		}
		d := sign * e.K * s.Width
		switch e.Kind {
		case Step:
			for p := e.At; p < o.Commits; p++ {
				shift[p] += d
			}
		case Spike:
			shift[e.At] += d
		case Drift:
			for p := e.At + 1; p < o.Commits; p++ {
				shift[p] += d * math.Min(1, float64(p-e.At)/float64(e.End-e.At))
			}
		}
	}

	s.Values = make([]float64, o.Commits)
	if o.Shape == Samples {
		s.Samples = make([][]float64, o.Commits)
	}
	for p := range s.Values {
		if p < s.Start {
			s.Values[p] = math.NaN()
			continue
		}
		run := s.Offset + p - s.Start
		f := s.Level * math.Exp(shift[p])
		if o.Shape == Samples {
			src := n.Samples[run][:min(len(n.Samples[run]), MaxSamples)]
			xs := make([]float64, len(src))
			for j, x := range src {
				xs[j] = f * (1 + x)
			}
			s.Samples[p] = xs
			s.Values[p] = f * (1 + median(src))
		} else {
			s.Values[p] = f * (1 + n.Values[run])
		}
	}
	return s
}

// Unplanted returns the series' values without its events: the same noise
// window at the unchanged level (NaN before Start), for telling the steps a
// detector finds in the noise itself from those it finds in the plants.
func (s *Series) Unplanted() []float64 {
	out := make([]float64, len(s.Values))
	for p := range out {
		if p < s.Start {
			out[p] = math.NaN()
			continue
		}
		out[p] = s.Level * (1 + s.noiseAt(p))
	}
	return out
}

// noiseAt is the noise at position p (Start or later) as a deviation from
// the level: the run's value, or in shape Samples the median of its
// samples — what the series' Width was measured on.
func (s *Series) noiseAt(p int) float64 {
	run := s.Offset + p - s.Start
	if s.Samples != nil {
		return median(s.Noise.Samples[run][:min(len(s.Noise.Samples[run]), MaxSamples)])
	}
	return s.Noise.Values[run]
}

// LocalSpan is how many commits either side of an event its local noise
// is measured over: half step detection's window, so that the local width
// is the noise the detector weighs a step against.
const LocalSpan = 25

// LocalK is event e's size in widths of the noise around it: e.K series
// widths over the width (NoiseWidth's definition) of the series' unplanted
// values within LocalSpan commits of the event. The corpus' noise is not
// the same all along a series — a public history has quiet and noisy
// months, the local noise blocks of idle and load — so a step of k
// series-wide widths lands in noise two or three times as wide as w in
// one place and half as wide in another; what a detector can see is its
// size in the noise where it is. NaN when the span has too few values.
func (s *Series) LocalK(e Event) float64 {
	var devs []float64
	for p := max(s.Start, e.At-LocalSpan); p < min(len(s.Values), e.End+LocalSpan); p++ {
		devs = append(devs, s.noiseAt(p))
	}
	lw := NoiseWidth(devs)
	if !(lw > 0) {
		return math.NaN()
	}
	return e.K * s.Width / lw
}

// LocalBins are the lower bounds of the bins of LocalK the report gives
// recall in: below 2 widths, 2–4, 4–8 and 8 or more.
var LocalBins = [4]float64{0, 2, 4, 8}

// localBin is the index in LocalBins of a LocalK (0 for NaN).
func localBin(k float64) int {
	b := 0
	for i, lo := range LocalBins {
		if k >= lo {
			b = i
		}
	}
	return b
}

// localBinName names bin b of LocalBins.
func localBinName(b int) string {
	if b+1 < len(LocalBins) {
		return fmt.Sprintf("%g–%g", LocalBins[b], LocalBins[b+1])
	}
	return fmt.Sprintf("≥ %g", LocalBins[b])
}

// Runs are the suite's archives as runs, one per commit, oldest first.
func (s *Suite) Runs() []model.Run {
	out := make([]model.Run, len(s.Artifacts))
	for p, a := range s.Artifacts {
		r := model.Run{Artifact: a, Machine: model.Machine{Name: Machine, OS: "linux", Arch: "amd64", Cores: 2}}
		for _, ps := range s.Series {
			if p < ps.Start {
				continue
			}
			res := model.Result{Case: model.TestCase{Benchmark: ps.Benchmark, Category: model.Primary}, Metric: Metric, Unit: Unit}
			if s.Options.Shape == Samples {
				res.Samples = slices.Clone(ps.Samples[p])
			} else {
				res.Samples = []float64{ps.Values[p]}
			}
			r.Results = append(r.Results, res)
		}
		out[p] = r
	}
	return out
}
