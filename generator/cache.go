package generator

import (
	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/store"
)

// The results of Criterion's bootstrap are kept in the store between
// builds (the value "criterion"): a comparison's result depends only on
// its two samples, the series key (the seed) and the options, which make
// its key, so an entry never goes stale while the tool is the same; a
// nightly rebuild after one new artifact bootstraps only the new
// comparisons. The saved entries carry the tool's key: another perfpages
// (whose bootstrap may differ) starts afresh. Only the entries a build
// used are saved, so the value does not grow with pairs no page shows any
// more. Like everything in the store it is checksummed and size-checked
// when read, and a cold build does not read it.

const testsValue = "criterion"

// savedTests is the store's "criterion" value.
type savedTests struct {
	Tool    string
	Entries []analysis.CachedTest
}

// loadTests fills c with the results the store kept (st may be nil).
func loadTests(st *store.Store, c *analysis.TestCache) {
	var saved savedTests
	if st != nil && st.LoadValue(testsValue, &saved) && saved.Tool == toolKey() {
		c.Load(saved.Entries)
	}
}

// saveTests keeps the results c used for the next build.
func saveTests(st *store.Store, c *analysis.TestCache) error {
	return st.SaveValue(testsValue, savedTests{Tool: toolKey(), Entries: c.Used()})
}
