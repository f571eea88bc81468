package planted

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/perfpages/perfpages/analysis/changepoint"
)

//go:embed corpus/*.json
var corpusFS embed.FS

// Noise is one series of the corpus: real run-to-run noise of one
// benchmark, in the order its runs happened.
type Noise struct {
	// Source names the corpus file (local-go, hyper, djangoasv, …) and
	// Name the benchmark within it.
	Source, Name string
	Unit         string
	Direction    string // of the original metric: "lower" or "higher"
	// Level is the original series' median, in Unit.
	Level float64
	// Values are the per-run values as relative deviations from the
	// series' level (value/level − 1).
	Values []float64
	// Samples are, where the source kept them, each run's within-run
	// samples as relative deviations from the same level; nil otherwise.
	Samples [][]float64
	// Width is NoiseWidth of the values; SampleWidth that of the runs'
	// sample medians (0 without samples).
	Width, SampleWidth float64
	// RemovedSteps is how many real steps corpus.py took out.
	RemovedSteps int
	// Load is, for noise produced here, the background load of each run
	// (one byte per run: i idle, 1 and 2 stress-ng on 1 or 2 CPUs, h 2 CPUs
	// at 50 %, b a go build loop); "" for public histories.
	Load string
}

// LoadSwitch reports whether the background load changed between runs
// i−1 and i of the noise (false without load codes).
func (n *Noise) LoadSwitch(i int) bool {
	return i > 0 && i < len(n.Load) && n.Load[i] != n.Load[i-1]
}

// HasSamples reports whether every run has at least MinSamples samples.
func (n *Noise) HasSamples() bool {
	if len(n.Samples) != len(n.Values) {
		return false
	}
	for _, s := range n.Samples {
		if len(s) < MinSamples {
			return false
		}
	}
	return true
}

// MinSamples and MaxSamples bound the samples a run of shape Samples
// carries (a few samples per run, as CI jobs record them).
const (
	MinSamples = 3
	MaxSamples = 10
)

// Corpus is the noise corpus.
type Corpus struct {
	Series []*Noise // sorted by Source, then Name
}

// Sources lists the corpus files' names.
func (c *Corpus) Sources() []string {
	var out []string
	for _, n := range c.Series {
		if len(out) == 0 || out[len(out)-1] != n.Source {
			out = append(out, n.Source)
		}
	}
	return out
}

type corpusFile struct {
	Series []struct {
		Name         string      `json:"name"`
		Unit         string      `json:"unit"`
		Direction    string      `json:"direction"`
		Level        float64     `json:"level"`
		Values       []float64   `json:"values"`
		Samples      [][]float64 `json:"samples"`
		RemovedSteps []any       `json:"removed_steps"`
		Load         string      `json:"load"`
	} `json:"series"`
}

var (
	corpusOnce sync.Once
	corpus     *Corpus
	corpusErr  error
)

// LoadCorpus returns the embedded noise corpus (read once; callers must
// not modify it).
func LoadCorpus() (*Corpus, error) {
	corpusOnce.Do(func() { corpus, corpusErr = readCorpus(corpusFS, "corpus") })
	return corpus, corpusErr
}

func readCorpus(fsys fs.FS, dir string) (*Corpus, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	c := &Corpus{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var f corpusFile
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("corpus %s: %w", name, err)
		}
		src := strings.TrimSuffix(path.Base(name), ".json")
		for _, s := range f.Series {
			n := &Noise{Source: src, Name: s.Name, Unit: s.Unit, Direction: s.Direction, Level: s.Level,
				Values: s.Values, RemovedSteps: len(s.RemovedSteps)}
			if len(s.Load) == len(s.Values) {
				n.Load = s.Load
			}
			if len(s.Samples) == len(s.Values) {
				n.Samples = s.Samples
			}
			for i, v := range n.Values {
				if !(v > -1) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("corpus %s: %s: run %d: deviation %v is not above −1", name, s.Name, i, v)
				}
			}
			n.Width = NoiseWidth(n.Values)
			if n.HasSamples() {
				n.SampleWidth = NoiseWidth(n.sampleMedians())
			}
			c.Series = append(c.Series, n)
		}
	}
	slices.SortStableFunc(c.Series, func(a, b *Noise) int {
		return strings.Compare(a.Source+"\x00"+a.Name, b.Source+"\x00"+b.Name)
	})
	return c, nil
}

// sampleMedians are the medians of each run's samples (at most
// MaxSamples of them, the first), as deviations from the level.
func (n *Noise) sampleMedians() []float64 {
	out := make([]float64, len(n.Samples))
	for i, s := range n.Samples {
		out[i] = median(s[:min(len(s), MaxSamples)])
	}
	return out
}

// NoiseWidth is the noise width of a series given as relative deviations
// from a level (value/level − 1; the level cancels, so any positive scale
// will do): changepoint.Width of 1 + x, the width the product measures
// in (see the package documentation). It is 0 for fewer than 3 values.
func NoiseWidth(devs []float64) float64 {
	vals := make([]float64, len(devs))
	for i, x := range devs {
		vals[i] = 1 + x
	}
	var tmp []float64
	if w := changepoint.Width(vals, &tmp); !math.IsNaN(w) {
		return w
	}
	return 0
}

// median is the median of xs (the mean of the two middle values for an
// even count); xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Steady returns the corpus with the noise's own level moves taken out,
// for a suite that measures a detector against noise without changes of
// its own (Options.Steady): the planted report's wrong flags are then the
// detector's, not moves of the real noise that the truth does not know
// of. It takes out two kinds of move, each stretch multiplied by the
// factor that puts its median where the level around it is:
//
//   - the noise made here: each block of runs under one background load
//     (Load), moved to a median deviation of 0. A go build loop puts the
//     level 3–6 widths up for 56 runs, two stress-ng workers 1–2 widths
//     for 20–27.
//   - the public histories: each run of 3 to 20 values all more than 3
//     widths to the same side of the level, where the levels of the 10
//     values before and the 10 after it agree within 2 widths (excursions):
//     a real change undone a few commits later, which the corpus' cleaning
//     (scripts/noise/corpus.py) keeps, as it splits only stretches of 10
//     values or more. Several benchmarks of a history share them (fiber's
//     runs 163–170 in 7 of its 12 corpus series).
//
// What stays is the noise about the level: spikes, heavy tails, and a
// two-level runner's switches within a block. The widths are measured
// again on the steady values.
func (c *Corpus) Steady() *Corpus {
	out := &Corpus{Series: make([]*Noise, len(c.Series))}
	for i, n := range c.Series {
		m := *n
		m.Values = slices.Clone(n.Values)
		if n.Samples != nil {
			m.Samples = make([][]float64, len(n.Samples))
			for j, s := range n.Samples {
				m.Samples[j] = slices.Clone(s)
			}
		}
		for _, mv := range n.moves() {
			for j := mv.from; j < mv.to; j++ {
				m.Values[j] = (1+m.Values[j])*mv.factor - 1
				if m.Samples != nil {
					for k, x := range m.Samples[j] {
						m.Samples[j][k] = (1+x)*mv.factor - 1
					}
				}
			}
		}
		m.Width = NoiseWidth(m.Values)
		if m.HasSamples() {
			m.SampleWidth = NoiseWidth(m.sampleMedians())
		}
		out.Series[i] = &m
	}
	return out
}

// move is a stretch of runs [from, to) of a noise series whose values
// (1 + deviation) Steady multiplies by factor.
type move struct {
	from, to int
	factor   float64
}

// Excursion bounds of Steady: runs of excursionMin to excursionMax
// values, each more than excursionWidths widths off the level, the level
// taken over excursionContext values either side.
const (
	excursionMin, excursionMax = 3, 20
	excursionWidths            = 3
	excursionContext           = 10
)

// moves are the level moves of the series that Steady takes out: its load
// blocks, or its excursions.
func (n *Noise) moves() []move {
	y := make([]float64, len(n.Values))
	for i, v := range n.Values {
		y[i] = math.Log1p(v)
	}
	var out []move
	if n.Load != "" {
		for from := 0; from < len(y); {
			to := from + 1
			for to < len(y) && n.Load[to] == n.Load[from] {
				to++
			}
			out = append(out, move{from, to, math.Exp(-median(y[from:to]))})
			from = to
		}
		return out
	}
	w := NoiseWidth(n.Values)
	if !(w > 0) {
		return nil
	}
	taken := func(a, b int) bool {
		return slices.ContainsFunc(out, func(m move) bool { return a < m.to && m.from < b })
	}
	// The longest first, so that a long excursion is one move, not the
	// runs of three it holds.
	for l := excursionMax; l >= excursionMin; l-- {
		for a := 1; a+l < len(y); a++ {
			b := a + l
			if taken(a, b) {
				continue
			}
			before, after := y[max(0, a-excursionContext):a], y[b:min(len(y), b+excursionContext)]
			if len(before) < excursionMin || len(after) < excursionMin {
				continue
			}
			pre, post := median(before), median(after)
			if math.Abs(pre-post) > 2*w {
				continue
			}
			base := (pre + post) / 2
			up := slices.IndexFunc(y[a:b], func(v float64) bool { return !(v-base > excursionWidths*w) }) < 0
			down := slices.IndexFunc(y[a:b], func(v float64) bool { return !(v-base < -excursionWidths*w) }) < 0
			if up || down {
				out = append(out, move{a, b, math.Exp(base - median(y[a:b]))})
			}
		}
	}
	slices.SortFunc(out, func(x, y move) int { return x.from - y.from })
	return out
}
