package generator

import (
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/store"
)

// seriesSizesValue names the store value that keeps each series' number
// of points for the next build (model.BuildOptions.SeriesSizes): a
// nightly build then puts each series' points in one array of about
// their size instead of joining chunks by a copy (at M, 176 MB less to
// allocate, copy and collect). Sizes only decide capacities: a stale,
// missing or broken value changes no output.
const seriesSizesValue = "series-sizes"

// savedSize is one series' size as the store keeps it.
type savedSize struct {
	Key model.SeriesKey
	N   int
}

// loadSeriesSizes reads the sizes the last build saved, nil if none.
func loadSeriesSizes(st *store.Store) map[model.SeriesKey]int {
	var saved []savedSize
	if st == nil || !st.LoadValue(seriesSizesValue, &saved) {
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
	return st.SaveValue(seriesSizesValue, saved)
}
