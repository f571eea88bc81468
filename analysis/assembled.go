package analysis

import (
	"fmt"

	"github.com/perfpages/perfpages/analysis/model"
)

// This file is the other way to a Results: from comparisons computed
// elsewhere. A sharded build (see generator/sitemodel's partial site
// model) analyses each shard's series on its own machine; the merge puts
// the classified rows of every shard back together and reads them through
// the same Results the site model reads of one build. Nothing here runs
// a statistic: the rows come classified, their steps detected, and a
// comparison's per-metric summaries are summed from its rows
// (summarizeMetrics), exactly as Compare sums them.

// Assembled returns the Results of dataset d whose comparisons and steps
// were computed elsewhere: compare returns the comparison of base with
// head (AssembleComparison) when it is asked for (Compare, Summary and
// Consecutive; it may be called from several goroutines at once), and
// false for a comparison it does not have, which is a bug of the caller
// and panics; steps are the steps of every series in series order. opts
// are the resolved options (ResolveOptions).
func Assembled(d *model.Dataset, opts Options, steps []Step, compare func(base, head int) (*Comparison, bool)) *Results {
	return &Results{d: d, opts: opts, parts: compare, steps: steps}
}

// part is the assembled comparison of base with head.
func (r *Results) part(base, head int) *Comparison {
	c, ok := r.parts(base, head)
	if !ok {
		panic(fmt.Sprintf("analysis: assembled results have no comparison of %s with %s", r.d.Artifacts[base].ID, r.d.Artifacts[head].ID))
	}
	return c
}

// AssembleComparison is the comparison of base with head made of rows
// classified elsewhere (in series order, each with its Series and
// points): its per-metric summaries are summed from them as Compare sums
// its own. opts are the resolved options the rows were classified with,
// historyFrom and warnings the comparison's own.
func AssembleComparison(base, head int, opts Options, historyFrom int, rows []Row, warnings []error) *Comparison {
	return &Comparison{Base: base, Head: head, Rows: rows, Options: opts, HistoryFrom: historyFrom,
		Warnings: warnings, Metrics: summarizeMetrics(rows, opts.Model)}
}

// ResolveOptions fills in the defaults of o as Analyze does; invalid
// options are replaced by DefaultOptions, with the warning every
// comparison made with them carries.
func ResolveOptions(o Options) (Options, error) { return o.resolve() }
