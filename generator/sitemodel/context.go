package sitemodel

import (
	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/report"
)

// contextShown finds, for every series that shares its test case, metric
// and machine with another series (asv's python=2.7 and python=3.4 runs of
// one benchmark, a benchmark in two github-action-benchmark suites), the
// context values that tell it apart: the keys report.ContextKeys picks for
// the group (report.ContextValues: "-" where the series lacks one, as
// compare's text and Markdown show it). Every table, list and chart label of the site shows these
// beside the test case, or two of its lines would read the same.
//
// The decision is made per group over the whole dataset, not per table:
// a series is labelled the same on every page, and the script, which
// builds rows from the benchmark's series index, shows what the generator
// shows without knowing the other rows of the table. A series alone in its
// group has no label, so a site without such series looks as it did.
func contextShown(series []*model.Series) map[*model.Series]model.Params {
	type caseKey struct{ benchmark, params, metric, machine string }
	groups := map[caseKey][]*model.Series{}
	for _, s := range series {
		k := caseKey{s.Key.Benchmark, s.Key.Params, s.Key.Metric, s.Key.Machine}
		groups[k] = append(groups[k], s)
	}
	out := map[*model.Series]model.Params{}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		rows := make([]*analysis.Row, len(g))
		for i, s := range g {
			rows[i] = &analysis.Row{Series: s}
		}
		keys := report.ContextKeys(rows)
		if len(keys) == 0 {
			continue
		}
		for _, s := range g {
			out[s] = report.ContextValues(s, keys)
		}
	}
	return out
}
