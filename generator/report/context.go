package report

import (
	"slices"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

// ContextKeys returns, sorted, the context keys that tell rows apart
// which are otherwise the same test case, metric and machine: asv's
// python=2.7 and python=3.4 runs of one benchmark, a benchmark in two
// github-action-benchmark suites. A table or list of rows shows these
// keys' values beside each row's test case, or two of its lines would
// read the same. Keys whose values never tell such rows apart (a context
// every series shares, or one that only ever goes with another
// benchmark) are left out, so that a table stays as it was when no
// series differ only by context.
func ContextKeys(rows []*analysis.Row) []string {
	// Most datasets have one context: then no key can tell two series
	// apart, and the groups need not be built (a map per comparison page,
	// 800 MB per cold build at M).
	if !slices.ContainsFunc(rows, func(r *analysis.Row) bool { return r.Series.Key.Context != rows[0].Series.Key.Context }) {
		return nil
	}
	type caseKey struct{ benchmark, params, metric, machine string }
	groups := map[caseKey][]model.Params{}
	for _, r := range rows {
		k := r.Series.Key
		ck := caseKey{k.Benchmark, k.Params, k.Metric, k.Machine}
		groups[ck] = append(groups[ck], r.Series.Context)
	}
	var keys []string
	for _, ctxs := range groups {
		if len(ctxs) < 2 {
			continue
		}
		for _, c := range ctxs {
			for _, kv := range c {
				if slices.Contains(keys, kv.Key) {
					continue
				}
				for _, o := range ctxs {
					if v, ok := o.Get(kv.Key); !ok || v != kv.Value {
						keys = append(keys, kv.Key)
						break
					}
				}
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// ContextLabel is " [k=v …]": the values of keys in s's context (see
// ContextKeys), "" when s has none of them. A key s's context lacks is
// shown as k=- so that the rows still differ.
func ContextLabel(s *model.Series, keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	return " [" + ContextValues(s, keys).String() + "]"
}

// ContextValues are the values of keys in s's context, in the order of
// keys, "-" for a key s's context lacks: what ContextLabel shows, as
// parameters (the site's tables show them so).
func ContextValues(s *model.Series, keys []string) model.Params {
	if len(keys) == 0 {
		return nil
	}
	p := make(model.Params, 0, len(keys))
	for _, k := range keys {
		v, ok := s.Context.Get(k)
		if !ok {
			v = "-"
		}
		p = append(p, model.Param{Key: k, Value: v})
	}
	return p
}
