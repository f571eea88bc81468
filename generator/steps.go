package generator

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/store"
)

// Step detection in a build. Every build detects the step changes of
// every series along the main line once (analysis.StepsBy), in
// the analysis stage, before the plan: the regressions page and its feed,
// the benchmark pages' history charts and the weekly triage reports show
// them, and model perfpages' headline confirms changes with them.
//
// The detection state of each series is kept in the store (the value
// "steps", see kept.go): a nightly build that adds one commit resumes
// every series where the last build left it, one window test per series
// instead of the whole history. The saved states are only a cache:
// changepoint.Detect verifies each one against the values and gives
// exactly a cold run's steps, so a state that does not fit costs a
// recomputation, never a wrong step. Saved states of another tool or
// other options are not read; a corrupt file is a warning of the store
// (which removes it) and everything is computed again.

// stepOptions are a site's step detection options per series: package
// changepoint's defaults, which its documentation justifies on the
// planted suites and real histories, with the config's [analysis.steps]
// and [metrics."name".steps].
type stepOptions struct{ cfg *config.Config }

func (o stepOptions) of(s *model.Series) changepoint.Options {
	return o.cfg.StepOptions(s.Key.Metric)
}

// key identifies what saved states depend on besides the values and the
// tool.
func (o stepOptions) key() string {
	perMetric := map[string]config.Steps{}
	for _, name := range slices.Sorted(maps.Keys(o.cfg.Metrics)) {
		perMetric[name] = o.cfg.Metrics[name].Steps
	}
	b, _ := json.Marshal(struct {
		Default  changepoint.Options
		Site     config.Steps
		ByMetric map[string]config.Steps
	}{changepoint.DefaultOptions, o.cfg.Analysis.Steps, perMetric})
	return hashParts(b)
}

// detectSteps detects the steps of d, resuming from the states the store
// kept (st may be nil: everything is computed). It returns the steps and
// the cache to save when the build succeeds.
func detectSteps(st *store.Store, d *model.Dataset, o stepOptions) ([]analysis.Step, *analysis.StepCache) {
	cache := loadSteps(st, o)
	return analysis.StepsBy(d, o.of, cache), cache
}
