package analysis

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/model"
)

// This file runs step detection (package changepoint) over a dataset: each
// series' values along the main line, failures and missing results
// skipped, annotated distribution changes as known breaks.

// Step is a step change of one series along the main line.
type Step struct {
	// Series is the index of the series in Dataset.Series.
	Series int
	// Step is what changepoint found; its Index and Prev are main-line
	// positions (indices into Dataset.MainLine).
	changepoint.Step
	// Artifact is the first main-line artifact after the step, Last the
	// last one before it with a value for the series. The change came from
	// a commit after Last up to Artifact: the main-line artifacts between
	// them (Candidates) and, when the benchmarks did not run on every
	// commit, the project's commits between the two, which only the
	// project's history knows. The comparison of Last with Artifact is the
	// step's comparison page, and the repository's compare URL
	// Last...Artifact lists the commits.
	Artifact, Last int
	// Regression says the change is in the metric's bad direction.
	Regression bool
}

// Candidates returns the main-line artifacts the step may have come from,
// oldest first: those after Last up to Artifact. All but the last are
// artifacts where the series has no value (a failure, or not measured).
func (s Step) Candidates(d *model.Dataset) []int {
	return slices.Clone(d.MainLine[s.Prev+1 : s.Index+1])
}

// Steps detects the step changes of every series of d along the main
// line, ordered by series (as d.Series) and then by position. Series run in
// parallel; the result does not depend on how many at once.
//
// cache, when not nil, holds each series' state from an earlier build:
// a series whose main-line values only gained new positions resumes where
// its state ended, so one new artifact costs one window test per series.
// The result is the same with or without a cache (changepoint.Detect
// guarantees it), and the cache is updated with the new states.
func Steps(d *model.Dataset, o changepoint.Options, cache *StepCache) []Step {
	return StepsBy(d, func(*model.Series) changepoint.Options { return o }, cache)
}

// StepsBy is Steps with each series' options from o (a site tunes step
// detection per metric).
func StepsBy(d *model.Dataset, o func(*model.Series) changepoint.Options, cache *StepCache) []Step {
	breaks := breaksOf(d)
	per := make([][]Step, len(d.Series))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(d.Series))) {
		wg.Go(func() {
			var buf []float64
			for {
				i := int(next.Add(1)) - 1
				if i >= len(d.Series) {
					return
				}
				per[i] = seriesSteps(d, i, breaks[i], o(d.Series[i]), cache, &buf)
			}
		})
	}
	wg.Wait()
	return slices.Concat(per...)
}

// seriesSteps detects the steps of series i; buf is memory for its
// values, which nothing returned refers to.
func seriesSteps(d *model.Dataset, i int, breaks []int, o changepoint.Options, cache *StepCache, buf *[]float64) []Step {
	s := d.Series[i]
	*buf = d.MainLineValuesTo(*buf, s)
	in := changepoint.Series{Values: *buf, Breaks: breaks, Seed: criterion.Seed(s.Key.String())}
	var prev *changepoint.State
	if cache != nil {
		prev = cache.get(s.Key)
	}
	found, state := changepoint.Detect(in, o, prev)
	if cache != nil && state != nil {
		cache.put(s.Key, state)
	}
	out := make([]Step, len(found))
	for k, st := range found {
		up := st.After > st.Before
		out[k] = Step{
			Series:     i,
			Step:       st,
			Artifact:   d.MainLine[st.Index],
			Last:       d.MainLine[st.Prev],
			Regression: up == (s.Metric.Direction != model.HigherIsBetter),
		}
	}
	return out
}

// breaksOf lists, per series, the main-line positions of its annotated
// distribution changes.
func breaksOf(d *model.Dataset) [][]int {
	out := make([][]int, len(d.Series))
	for _, a := range d.Annotations.Artifacts() {
		pos := d.MainPos(a)
		if pos < 0 {
			continue
		}
		for i, s := range d.Series {
			if d.Annotations.BeginsChange(s, a) {
				out[i] = append(out[i], pos)
			}
		}
	}
	return out
}

// StepCache keeps the step detection state of each series between builds
// (see Steps). A state records a hash of the values and options it
// was made from, so an entry can never give a wrong answer: one that no
// longer fits costs a recomputation. It is safe for concurrent use.
type StepCache struct {
	mu sync.Mutex
	m  map[model.SeriesKey]*stepEntry
}

type stepEntry struct {
	state *changepoint.State
	used  bool
}

// CachedSteps is one entry of a StepCache, for saving it between builds
// (encoding/gob).
type CachedSteps struct {
	Key   model.SeriesKey
	State changepoint.State
}

// NewStepCache returns an empty cache.
func NewStepCache() *StepCache { return &StepCache{m: map[model.SeriesKey]*stepEntry{}} }

func (c *StepCache) get(k model.SeriesKey) *changepoint.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[k]; e != nil {
		return e.state
	}
	return nil
}

func (c *StepCache) put(k model.SeriesKey, s *changepoint.State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = &stepEntry{state: s, used: true}
}

// Load adds saved entries; they count as unused until a build updates
// them.
func (c *StepCache) Load(entries []CachedSteps) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range entries {
		st := x.State
		c.m[x.Key] = &stepEntry{state: &st}
	}
}

// Used returns the entries a build updated, in key order: what is worth
// saving for the next build (series that disappeared drop out).
func (c *StepCache) Used() []CachedSteps {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]CachedSteps, 0, len(c.m))
	for k, e := range c.m {
		if e.used {
			out = append(out, CachedSteps{k, *e.state})
		}
	}
	slices.SortFunc(out, func(a, b CachedSteps) int { return a.Key.Compare(b.Key) })
	return out
}
