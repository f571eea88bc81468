package sitemodel

import (
	"fmt"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/report"
)

// This file is the site's side of the "Needs a look" section of the
// weekly reports (analysis/triage_watch.go): the watch of each main-line
// comparison is made with its rows, in summarize, and kept with its
// summary (listEntry, and Brief across builds), so that the weekly reports and
// the dashboard never need the rows again.

// watchKey is the part of a weekly report's key that its "Needs a look"
// options decide.
func watchKey(o analysis.WatchOptions) string {
	return fmt.Sprintf("watch %v %d", o.LargeChange, o.Limit)
}

// lookLine counts what needs a look in the comparison of b although the
// filter does not keep it: "" when the filter keeps any of its metrics
// (it is listed as relevant then) or there is nothing.
func (p *planner) lookLine(b *listEntry) string {
	for i := range b.comp.Metrics {
		if p.opts.TriageFilter.Keeps(&b.comp.Metrics[i]) {
			return ""
		}
	}
	return report.WatchLine(b.watch.Outside(b.comp, p.opts.TriageFilter, "").Count())
}
