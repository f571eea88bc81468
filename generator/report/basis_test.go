package report

import (
	"testing"

	"github.com/perfpages/perfpages/analysis"
)

func TestBasisNote(t *testing.T) {
	opts := analysis.Options{History: 30, Alpha: 0.05}
	row := func(relevant bool, b analysis.SignificanceBasis) *analysis.Row {
		return &analysis.Row{OK: true, Significant: relevant, Relevant: relevant, Basis: b}
	}
	tests := []struct {
		name string
		rows []*analysis.Row
		want string
	}{
		{"no relevant change", []*analysis.Row{row(false, analysis.BasisSamples)}, ""},
		{"history decided", []*analysis.Row{row(true, analysis.BasisHistory), row(false, analysis.BasisShort)}, ""},
		{"model 2021", []*analysis.Row{row(true, analysis.Basis2021)}, ""},
		{"one", []*analysis.Row{row(true, analysis.BasisShortDodgy)},
			"the relevant change had fewer than 30 values of history: 1 short-history-dodgy (no samples the test can judge: 1 % for a noisy metric)"},
		{"all", []*analysis.Row{row(true, analysis.BasisSamples), row(true, analysis.BasisSamples)},
			"all 2 relevant changes had fewer than 30 values of history: 2 short-history+samples (0.2 % and the samples' test at alpha 0.05)"},
		{"some", []*analysis.Row{row(true, analysis.BasisShort), row(true, analysis.BasisHistory), row(true, analysis.BasisSamples), row(false, analysis.BasisShortDodgy)},
			"2 of the 3 relevant changes had fewer than 30 values of history: 1 short-history+samples (0.2 % and the samples' test at alpha 0.05), 1 short-history (0.2 %)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := basisNote(tt.rows, opts); got != tt.want {
				t.Errorf("basisNote = %q\nwant        %q", got, tt.want)
			}
		})
	}
}
