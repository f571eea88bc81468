package generator

import (
	"encoding/gob"
	"fmt"
	"slices"
	"sync"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/sitemodel"
	"github.com/perfpages/perfpages/generator/store"
)

// What a build keeps in the store besides the inputs' entries, the
// checkpoint (checkpoint.go), the site's manifest and its state. Package
// store encodes each value, versions it by the tool and the options named
// here, and prunes what a successful build did not save; a value of
// another tool or other options is not read. Every one is only a cache: a
// missing, stale or broken value costs work, never a different site.
//
//	steps         per series, the state of step detection: a nightly build
//	              resumes every series where the last one left it; options:
//	              the step detection options (stepOptions.key)
//	criterion     the results of Criterion's bootstrap, by a key of their
//	              samples, the series and the options: a nightly build
//	              bootstraps only the new comparisons
//	briefs        per main-line comparison, by its chain key, what the
//	              triage reports, the dashboard and PR pages show of it
//	              (sitemodel.Briefs)
//	headlines     per series, its headline verdicts, noise points, steps
//	              and breaks, with the data chain of the main line they
//	              were made on (keys.data): a nightly build computes each
//	              series' verdicts again only from where they may differ
//	              (analysis.HeadCache); options: none (the cache keys its
//	              entries by the headline's options itself)
//	file-sums     per archive of a folder source, the SHA-256 of its
//	              bytes under its identity on disk, so that the next build
//	              keys an unchanged archive without reading it (fileSums,
//	              filesums.go)
//	series-sizes  per series, its number of points, so that the next build
//	              allocates each series' points once
//	              (model.BuildOptions.SeriesSizes); sizes only decide
//	              capacities
//
// Each value holds only what the build used, so it does not grow with
// series or pairs no page shows any more.
const (
	stepsValue       = "steps"
	testsValue       = "criterion"
	briefsValue      = "briefs"
	seriesSizesValue = "series-sizes"
	headsValue       = "headlines"
)

// analysisState is what the analysis stage keeps for the next build.
type analysisState struct {
	steps *analysis.StepCache
	heads *analysis.HeadCache // nil without a store
	data  []string            // the data chain the heads were made on
}

// headsHead is the first part of the value headlines: the data chain,
// per main-line position, the key of the cache's options and how many
// series' entries follow, in parts of headsPart (store.SaveGobs).
type headsHead struct {
	Data   []string
	Key    string
	Series int
}

// headsPart is how many series' entries the value headlines has per part.
const headsPart = 256

// loadHeads returns the headline cache for data, this build's data chain:
// the entries the store kept, told how many main-line positions hold the
// same data as when they were made (the length of the chains' common
// prefix). Nil when st is.
func loadHeads(st *store.Store, data []string) *analysis.HeadCache {
	if st == nil {
		return nil
	}
	c := analysis.NewHeadCache()
	var head headsHead
	var saved analysis.SavedHeads
	if st.LoadGobs(headsValue, "", func(dec *gob.Decoder) error {
		if err := dec.Decode(&head); err != nil {
			return err
		}
		if head.Series < 0 {
			return fmt.Errorf("%d series", head.Series)
		}
		saved.Key = head.Key
		for len(saved.Series) < head.Series {
			var part []analysis.CachedHeads
			if err := dec.Decode(&part); err != nil {
				return err
			}
			if len(part) == 0 || len(saved.Series)+len(part) > head.Series {
				return fmt.Errorf("a part of %d series after %d of %d", len(part), len(saved.Series), head.Series)
			}
			saved.Series = append(saved.Series, part...)
		}
		return nil
	}) {
		n := 0
		for n < len(head.Data) && n < len(data) && head.Data[n] == data[n] {
			n++
		}
		c.Unchanged = n
		c.Load(saved)
	}
	return c
}

// saveHeads keeps the headline cache for the next build.
func (as *analysisState) saveHeads(st *store.Store) error {
	if as.heads == nil {
		return nil
	}
	saved := as.heads.Saved()
	return st.SaveGobs(headsValue, "", func(enc *gob.Encoder) error {
		if err := enc.Encode(headsHead{Data: as.data, Key: saved.Key, Series: len(saved.Series)}); err != nil {
			return err
		}
		for part := range slices.Chunk(saved.Series, headsPart) {
			if err := enc.Encode(part); err != nil {
				return err
			}
		}
		return nil
	})
}

// loadSteps returns the states the store kept for options o (none when
// st is nil or they were made by another tool or with other options).
func loadSteps(st *store.Store, o stepOptions) *analysis.StepCache {
	cache := analysis.NewStepCache()
	var saved []analysis.CachedSteps
	if st != nil && st.Load(stepsValue, o.key(), &saved) {
		cache.Load(saved)
	}
	return cache
}

// saveSteps keeps the states this build used for the next one.
func saveSteps(st *store.Store, cache *analysis.StepCache, o stepOptions) error {
	return st.Save(stepsValue, o.key(), cache.Used())
}

// loadTests fills c with the results the store kept (st may be nil).
func loadTests(st *store.Store, c *analysis.TestCache) {
	var saved []analysis.CachedTest
	if st != nil && st.Load(testsValue, "", &saved) {
		c.Load(saved)
	}
}

// saveTests keeps the results c used for the next build.
func saveTests(st *store.Store, c *analysis.TestCache) error {
	return st.Save(testsValue, "", c.Used())
}

// savedSize is one series' size as the store keeps it.
type savedSize struct {
	Key model.SeriesKey
	N   int
}

// loadSeriesSizes reads the sizes the last build saved, nil if none.
func loadSeriesSizes(st *store.Store) map[model.SeriesKey]int {
	var saved []savedSize
	if st == nil || !st.Load(seriesSizesValue, "", &saved) {
		return nil
	}
	sizes := make(map[model.SeriesKey]int, len(saved))
	for _, s := range saved {
		sizes[s.Key] = s.N
	}
	return sizes
}

// saveSeriesSizes saves the sizes of d's series for the next build.
func saveSeriesSizes(st *store.Store, d *model.Dataset) error {
	saved := make([]savedSize, len(d.Series))
	for i, s := range d.Series {
		saved[i] = savedSize{s.Key, len(s.Points)}
	}
	return st.Save(seriesSizesValue, "", saved)
}

// briefs remembers the summaries of main-line comparisons across builds
// (sitemodel.Briefs) in the store; only the ones this build used are saved.
type briefs struct {
	mu   sync.Mutex
	old  map[string]sitemodel.Brief
	used map[string]sitemodel.Brief
}

func loadBriefs(st *store.Store) *briefs {
	b := &briefs{old: map[string]sitemodel.Brief{}, used: map[string]sitemodel.Brief{}}
	if st != nil {
		st.Load(briefsValue, "", &b.old)
	}
	return b
}

// Brief implements sitemodel.Briefs.
func (b *briefs) Brief(key string) (sitemodel.Brief, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if x, ok := b.used[key]; ok {
		return x, true
	}
	x, ok := b.old[key]
	if ok {
		b.used[key] = x
	}
	return x, ok
}

// PutBrief implements sitemodel.Briefs.
func (b *briefs) PutBrief(key string, x sitemodel.Brief) {
	b.mu.Lock()
	b.used[key] = x
	b.mu.Unlock()
}

func (b *briefs) save(st *store.Store) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return st.Save(briefsValue, "", b.used)
}
