package analysis

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
)

// Incremental headlines. Model perfpages' headline verdicts look at every
// series over its whole history; a nightly build that appends a commit
// would compute them all again, though almost none can change. A
// HeadCache keeps each series' verdicts, noise points, steps and breaks
// from the last build, and the next build recomputes a series only from
// the first position whose verdict can differ — in the nightly case its
// newest Settle values or so — keeping the rest. The result is exactly
// the result without a cache (TestHeadCacheEqualsCold; the site tests
// compare incremental and cold builds byte for byte).
//
// What a verdict at main-line position p reads (seriesHeadlines):
//
//   - the values before p and their count: the width (on the newest
//     WidthHistory finite values, measured once a block of widthBlock
//     positions, whose first measured position fixes the history the
//     block's "visited" test reads too) and the level (the newest Window
//     values of p's segment);
//   - the segment: the steps (and annotated breaks) at or before p−1, the
//     step at p, the gradual changes around p;
//   - p's own value and standard error;
//   - after p, its first Settle finite values (spike, unconfirmed, a
//     break's next three).
//
// So when the values and samples of every series are the same as the
// cached build's at the positions below Unchanged (the caller vouches for
// it: a build keys the main line's data, see generator's dataChain), a
// series' verdicts and noise points are the same below the first of
//
//   - the position of the Settle-th finite value before Unchanged,
//     counting back (a verdict before it has all its later values below
//     Unchanged);
//   - the first position a step that differs between the two builds
//     touches (its Index, or Prev+1 for a gradual change): new values
//     confirm, withdraw or remeasure steps near the end;
//   - the first break that differs;
//
// taken down to the start of its width block, where a computation
// starting afresh measures the width and its history exactly where the
// whole one does. Everything before is kept, everything from there on is
// computed again.

// HeadCache keeps the headline verdicts of each series between builds (see
// Incremental headlines above). It is safe for concurrent use.
type HeadCache struct {
	// Unchanged is how many main-line positions, from the first, hold the
	// same value and within-run evidence in every series as when the
	// loaded entries were made; set it before the analysis.
	Unchanged int

	mu   sync.Mutex
	key  string
	old  map[model.SeriesKey]*CachedHeads
	used []CachedHeads
	// Recomputed counts the positions computed again, over all series
	// (for build -timings).
	Recomputed int
}

// CachedHeads is one series' entry of a HeadCache, for saving it between
// builds (encoding/gob).
type CachedHeads struct {
	Key      model.SeriesKey
	Steps    []changepoint.Step
	Breaks   []int
	Verdicts []CachedVerdict
	Noise    []CachedNoise
}

// CachedVerdict is a verdict at a main-line position.
type CachedVerdict struct {
	Pos int32
	V   Verdict
}

// CachedNoise is a width measured at a main-line position: W on N values
// of history.
type CachedNoise struct {
	Pos, N int32
	W      float32
}

// SavedHeads is a HeadCache as it is saved: the key of the options its
// entries were made with, and the entries.
type SavedHeads struct {
	Key    string
	Series []CachedHeads
}

// NewHeadCache returns an empty cache.
func NewHeadCache() *HeadCache { return &HeadCache{old: map[model.SeriesKey]*CachedHeads{}} }

// Load adds the entries of a saved cache.
func (c *HeadCache) Load(s SavedHeads) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key = s.Key
	for i := range s.Series {
		c.old[s.Series[i].Key] = &s.Series[i]
	}
}

// Saved returns the entries this build made or kept, in key order: what is
// worth saving for the next build.
func (c *HeadCache) Saved() SavedHeads {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.used)
	slices.SortFunc(out, func(a, b CachedHeads) int { return a.Key.Compare(b.Key) })
	return SavedHeads{Key: c.key, Series: out}
}

// headKey identifies what entries depend on besides the data, the steps
// and the breaks: the headline's options and this code's version.
func headKey(o HeadlineOptions) string {
	return fmt.Sprintf("headlines v1 %+v", o)
}

// begin makes the cache's entries those of options o: entries made with
// others are dropped.
func (c *HeadCache) begin(o HeadlineOptions) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := headKey(o); k != c.key {
		c.key, c.old = k, map[model.SeriesKey]*CachedHeads{}
	}
	c.used = c.used[:0]
}

// take returns series k's entry and drops it from the cache: a build uses
// each once, and what the entry holds (at L 57 MB of verdicts) is freed
// once the series' own are computed rather than at the end of the build.
// A second analysis with the cache computes everything again.
func (c *HeadCache) take(k model.SeriesKey) *CachedHeads {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.old[k]
	if e == nil {
		return nil
	}
	delete(c.old, k)
	taken := *e
	*e = CachedHeads{} // the loaded entries' array lets go of it
	return &taken
}

func (c *HeadCache) put(e CachedHeads, recomputed int) {
	c.mu.Lock()
	c.used = append(c.used, e)
	c.Recomputed += recomputed
	c.mu.Unlock()
}

// resumeAt is the first position from which series' verdicts must be
// computed again (see Incremental headlines above): vals are its values
// along the main line, steps and breaks this build's, old the entry.
func resumeAt(old *CachedHeads, unchanged int, vals []float64, steps []Step, breaks []int, o HeadlineOptions) int {
	r := min(unchanged, len(vals))
	// Settle finite values after a verdict, below unchanged.
	settle, n := max(o.Settle, 3), 0
	for q := r - 1; q >= 0; q-- {
		if finite(vals[q]) {
			if n++; n == settle {
				r = q
				break
			}
		}
		if q == 0 {
			r = 0
		}
	}
	// The first step that differs.
	k := 0
	for k < len(steps) && k < len(old.Steps) && sameStep(steps[k].Step, old.Steps[k]) {
		k++
	}
	touch := func(st changepoint.Step) {
		p := st.Index
		if st.Gradual {
			p = st.Prev + 1
		}
		r = min(r, p)
	}
	for _, st := range steps[k:] {
		touch(st.Step)
	}
	for _, st := range old.Steps[k:] {
		touch(st)
	}
	// The first break that differs.
	for j := 0; j < max(len(breaks), len(old.Breaks)); j++ {
		switch {
		case j >= len(breaks):
			r = min(r, old.Breaks[j])
		case j >= len(old.Breaks):
			r = min(r, breaks[j])
		case breaks[j] != old.Breaks[j]:
			r = min(r, breaks[j], old.Breaks[j])
		default:
			continue
		}
		break
	}
	r = max(r, 0)
	return r / widthBlock * widthBlock
}

// sameStep says a and b are the same step, bit for bit (NaN p-values
// included).
func sameStep(a, b changepoint.Step) bool {
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	return a.Index == b.Index && a.Prev == b.Prev && a.Decided == b.Decided && a.Gradual == b.Gradual &&
		same(a.Before, b.Before) && same(a.After, b.After) && same(a.Change, b.Change) && same(a.P, b.P)
}

// before returns the entry's verdicts and noise points at positions
// before r, with room after them for those of the positions from r on
// that a nightly build computes (a few: grown by append from nothing and
// then again by the new ones, every series' were copied three times, 1.6
// of an L nightly's 52 CPU-s).
func (e *CachedHeads) before(r int) headlines {
	nv, nn := 0, 0
	for _, v := range e.Verdicts {
		if int(v.Pos) < r {
			nv++
		}
	}
	for _, n := range e.Noise {
		if int(n.Pos) < r {
			nn++
		}
	}
	h := headlines{verdicts: make([]CachedVerdict, 0, nv+nv/64+8), noise: make([]CachedNoise, 0, nn+nn/64+8)}
	for _, v := range e.Verdicts {
		if int(v.Pos) < r {
			h.verdicts = append(h.verdicts, v)
		}
	}
	for _, n := range e.Noise {
		if int(n.Pos) < r {
			h.noise = append(h.noise, n)
		}
	}
	return h
}
