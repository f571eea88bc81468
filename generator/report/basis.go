package report

import (
	"fmt"
	"strings"

	"github.com/perfpages/perfpages/analysis"
)

// basisNote is the footnote of a comparison whose relevant changes were,
// some of them, judged by a short-history rule (analysis.SignificanceBasis):
// "3 of the 5 relevant changes had fewer than 30 values of history: 2
// short-history+samples (0.2 % and the samples' test at alpha 0.05), 1
// short-history-dodgy (no samples: 1 % for a noisy metric)". A reader of
// the text or the PR comment sees thresholds, not how much history stood
// behind them; the rows' basis is in the JSON (significance_basis). It is
// "" when every relevant change had its history.
func basisNote(rows []*analysis.Row, opts analysis.Options) string {
	order := []analysis.SignificanceBasis{analysis.BasisSamples, analysis.BasisSummary, analysis.BasisShortDodgy, analysis.BasisShort}
	counts := map[analysis.SignificanceBasis]int{}
	relevant, short := 0, 0
	for _, r := range rows {
		if !r.Relevant {
			continue
		}
		relevant++
		for _, b := range order {
			if r.Basis == b {
				counts[b]++
				short++
			}
		}
	}
	if short == 0 {
		return ""
	}
	what := map[analysis.SignificanceBasis]string{
		analysis.BasisSamples:    fmt.Sprintf("0.2 %% and the samples' test at alpha %g", opts.Alpha),
		analysis.BasisSummary:    fmt.Sprintf("summary statistics: 1 %% for a noisy metric, else 0.2 %%, and Welch's test at alpha %g", opts.Alpha),
		analysis.BasisShortDodgy: "no samples the test can judge: 1 % for a noisy metric",
		analysis.BasisShort:      "0.2 %",
	}
	var parts []string
	for _, b := range order {
		if n := counts[b]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s (%s)", n, b, what[b]))
		}
	}
	switch {
	case relevant == 1:
		return fmt.Sprintf("the relevant change had fewer than %d values of history: %s", opts.History, strings.Join(parts, ", "))
	case short == relevant:
		return fmt.Sprintf("all %d relevant changes had fewer than %d values of history: %s", relevant, opts.History, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%d of the %d relevant changes had fewer than %d values of history: %s", short, relevant, opts.History, strings.Join(parts, ", "))
}
