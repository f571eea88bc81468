package generator

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/internal/nearest"
	"github.com/perfpages/perfpages/generator/receipt"
)

// Names in the configuration and in annotations.yaml that select metrics,
// machines or benchmarks are checked against the loaded dataset: a
// misspelt one ([budgets.walltime] for wall-time) selects nothing and
// would otherwise be accepted without a word, the budget never applied.
// Each is one warning of the build (so -strict fails on it) naming the
// nearest name the results have (package nearest).

// datasetNames are the names of a dataset's series, each kind sorted.
type datasetNames struct {
	metrics, machines, benchmarks []string
}

func namesOf(d *model.Dataset) datasetNames {
	metrics, machines, benchmarks := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range d.Series {
		metrics[s.Key.Metric] = true
		machines[s.Key.Machine] = true
		benchmarks[s.Key.Benchmark] = true
	}
	return datasetNames{slices.Sorted(maps.Keys(metrics)), slices.Sorted(maps.Keys(machines)), slices.Sorted(maps.Keys(benchmarks))}
}

// unitsOf are the units of metric's series in d, sorted.
func unitsOf(d *model.Dataset, metric string) []string {
	units := map[string]bool{}
	for _, s := range d.Series {
		if s.Key.Metric == metric {
			units[s.Metric.Unit] = true
		}
	}
	return slices.Sorted(maps.Keys(units))
}

// configNameWarnings are the warnings of cfg's [metrics."name"] and
// [budgets."name"] sections that name no metric of d. A dataset without
// series (a first run before anything was recorded) has nothing to check
// against. A budget named after one of perfgate's receipt metrics (wall_ms,
// max_rss_kb, …) is for `perfpages check` on run receipts, and is not
// expected among the archives' metrics.
func configNameWarnings(cfg *config.Config, d *model.Dataset) []error {
	if len(d.Series) == 0 {
		return nil
	}
	names := namesOf(d)
	file := cfg.File
	if file == "" {
		file = "the configuration"
	}
	var out []error
	for _, name := range slices.Sorted(maps.Keys(cfg.Metrics)) {
		if !slices.Contains(names.metrics, name) {
			out = append(out, fmt.Errorf("%s: [metrics.%s]: %s", file, tomlKey(name), unknownName("metric", name, names.metrics)))
			continue
		}
		units := unitsOf(d, name)
		for _, unit := range slices.Sorted(maps.Keys(cfg.Metrics[name].Units)) {
			if !slices.Contains(units, unit) {
				out = append(out, fmt.Errorf("%s: [metrics.%s.units.%s]: %s", file, tomlKey(name), tomlKey(unit), unknownName("unit", unit, units)))
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Budgets)) {
		if slices.Contains(names.metrics, name) {
			continue
		}
		if _, ok := receipt.MetricByName(name); ok {
			continue
		}
		out = append(out, fmt.Errorf("%s: [budgets.%s]: %s", file, tomlKey(name), unknownName("metric", name, names.metrics)))
	}
	return out
}

// annotationNameWarnings are the warnings of annotations whose benchmark,
// metric or machine selector names nothing in d: such an entry selects no
// series, and its note is shown nowhere.
func annotationNameWarnings(d *model.Dataset, list []model.Annotation) []error {
	if len(d.Series) == 0 {
		return nil
	}
	names := namesOf(d)
	var out []error
	for _, a := range list {
		for _, sel := range []struct {
			kind, name string
			known      []string
		}{{"benchmark", a.Benchmark, names.benchmarks}, {"metric", a.Metric, names.metrics}, {"machine", a.Machine, names.machines}} {
			if sel.name != "" && !slices.Contains(sel.known, sel.name) {
				out = append(out, fmt.Errorf("%s: %s", a.Origin, unknownName(sel.kind, sel.name, sel.known)))
			}
		}
	}
	return out
}

// unknownName says that name is no kind ("metric") of the results, with
// the nearest name they have, or the names when none is near and there
// are few.
func unknownName(kind, name string, known []string) string {
	if near, ok := nearest.Name(name, known); ok {
		return fmt.Sprintf("no %s %s; did you mean %s?", kind, quoteName(name), quoteName(near))
	}
	const shown = 8
	list := make([]string, 0, shown)
	for _, k := range known[:min(len(known), shown)] {
		list = append(list, quoteName(k))
	}
	more := ""
	if len(known) > shown {
		more = fmt.Sprintf(" and %d more", len(known)-shown)
	}
	return fmt.Sprintf("no %s %s (the results have %s%s)", kind, quoteName(name), strings.Join(list, ", "), more)
}

// quoteName shows a name as it is when it is plain, else quoted (with
// its control characters escaped).
func quoteName(name string) string {
	if name != "" && strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:/+", r))
	}) < 0 {
		return name
	}
	return fmt.Sprintf("%q", name)
}

// tomlKey is name as a TOML key: bare when it can be, else quoted.
func tomlKey(name string) string {
	if name != "" && strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) < 0 {
		return name
	}
	return fmt.Sprintf("%q", name)
}
