package report

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/perfpages/perfpages/analysis"
)

// basisNote is the footnote that says what a comparison's verdicts rest
// on, which a reader of the text or the PR comment sees nowhere else:
//
//   - under model perfpages, the headline's rule (a change counts when it
//     is out of its series' run-to-run noise and stays, or for a pull
//     request when it is out of the base's noise), and the changes it did
//     not count: unconfirmed, spikes, series with too little history;
//   - under model rustc-perf, how many relevant changes had fewer than
//     History values of history (0.2 % decided them, not the IQR fence).
//
// The rows' basis is in the JSON (significance_basis) and their state
// (state). It is "" when there is nothing to say.
func basisNote(rows []*analysis.Row, opts analysis.Options) string {
	var persistence, noise, young, unconfirmed, spikes, relevant, short int
	var widths []float64
	for _, r := range rows {
		if !r.OK {
			continue
		}
		switch r.Basis {
		case analysis.BasisPersistence:
			persistence++
		case analysis.BasisNoise:
			noise++
		case analysis.BasisYoung:
			young++
		}
		switch r.Headline.State {
		case analysis.StateUnconfirmed:
			unconfirmed++
		case analysis.StateSpike:
			spikes++
		}
		if r.Relevant {
			relevant++
			if r.Basis == analysis.BasisShort {
				short++
			}
		}
		if r.Basis == analysis.BasisNoise && r.Headline.Width > 0 {
			widths = append(widths, r.Headline.Width)
		}
	}
	z := opts.Headline.Z
	if z == 0 {
		z = analysis.DefaultHeadline.Z
	}
	var parts []string
	switch {
	case persistence > 0:
		parts = append(parts, fmt.Sprintf("a change counts when it is out of its series' run-to-run noise (%g widths) and stays: step detection confirms it on later values", z))
	case noise > 0:
		s := fmt.Sprintf("judged against the base's run-to-run noise: a change counts at %g widths of it", z)
		if len(widths) > 0 {
			s += fmt.Sprintf(" (a median width of %s, so changes from about %s)", FormatPercent1(analysis.MedianOf(widths)), FormatPercent1(math.Expm1(z*analysis.MedianOf(widths))))
		}
		parts = append(parts, s)
	}
	if unconfirmed > 0 {
		parts = append(parts, count(unconfirmed, "change is", "changes are")+" unconfirmed (too few later values yet)")
	}
	if spikes > 0 {
		parts = append(parts, count(spikes, "was a spike", "were spikes")+" (the next values came back)")
	}
	if young > 0 {
		parts = append(parts, count(young, "series has", "series have")+fmt.Sprintf(" too little history for a noise model (fewer than %d values)", cmp.Or(opts.Headline.MinHistory, analysis.DefaultHeadline.MinHistory)))
	}
	if short > 0 {
		switch {
		case relevant == 1:
			parts = append(parts, fmt.Sprintf("the relevant change had fewer than %d values of history: 0.2 %% decided it", opts.History))
		case short == relevant:
			parts = append(parts, fmt.Sprintf("all %d relevant changes had fewer than %d values of history: 0.2 %% decided them", relevant, opts.History))
		default:
			parts = append(parts, fmt.Sprintf("%d of the %d relevant changes had fewer than %d values of history: 0.2 %% decided them", short, relevant, opts.History))
		}
	}
	return strings.Join(parts, "; ")
}

// count is "1 change is" or "3 changes are": n and the noun phrase.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
