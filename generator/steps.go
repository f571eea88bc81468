package generator

import (
	"encoding/json"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/generator/store"
)

// Step detection in a build. Every build detects the step changes of
// every series along the main line once (analysis.Dataset.Steps), before
// the plan, which shows them on the regressions page and its feed, on the
// benchmark pages' history charts and in the weekly triage reports.
//
// The detection state of each series is kept in the store ("steps", a gob
// of savedSteps): a nightly build that adds one commit resumes every
// series where the last build left it, one window test per series instead
// of the whole history (about 43 ms instead of 2 s at M). The saved states
// are only a cache: changepoint.Detect verifies each one against the
// values and gives exactly a cold run's steps, so a state that does not
// fit costs a recomputation, never a wrong step. Saved states of another
// tool or other options are dropped as a whole; a corrupt file is a
// warning of the store (which removes it) and everything is computed
// again.

// StepOptions are the step detection options of a build: changepoint's
// defaults, which its package documentation justifies on the demo, the
// benchmark datasets and real histories. They are not configurable (no
// [changepoint] table): no site so far has needed other values, and every
// option changes what the regressions page calls a step.
var StepOptions = changepoint.DefaultOptions

// savedSteps is the store's "steps" value.
type savedSteps struct {
	// Key identifies the tool and the options the states were made with.
	Key     string
	Entries []analysis.CachedSteps
}

const stepsValue = "steps"

// stepsKey identifies what saved states depend on besides the values.
func stepsKey(o changepoint.Options) string {
	opts, _ := json.Marshal(o)
	return hashParts([]byte(toolKey()), opts)
}

// detectSteps detects the steps of d, resuming from the states the store
// kept (st may be nil: everything is computed). It returns the steps and
// the cache to save when the build succeeds.
func detectSteps(st *store.Store, d *analysis.Dataset, o changepoint.Options) ([]analysis.Step, *analysis.StepCache) {
	cache := loadSteps(st, o)
	return d.Steps(o, cache), cache
}

// loadSteps returns the states the store kept for options o (none when
// st is nil or they were made by another tool or with other options).
func loadSteps(st *store.Store, o changepoint.Options) *analysis.StepCache {
	cache := analysis.NewStepCache()
	if st != nil {
		var saved savedSteps
		if st.LoadValue(stepsValue, &saved) && saved.Key == stepsKey(o) {
			cache.Load(saved.Entries)
		}
	}
	return cache
}

// saveSteps keeps the states this build used for the next one.
func saveSteps(st *store.Store, cache *analysis.StepCache, o changepoint.Options) error {
	return st.SaveValue(stepsValue, savedSteps{Key: stepsKey(o), Entries: cache.Used()})
}
