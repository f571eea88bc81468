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
