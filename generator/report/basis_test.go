package report

import (
	"testing"

	"github.com/perfpages/perfpages/analysis"
)

func TestBasisNote(t *testing.T) {
	opts := analysis.Options{History: 30, Alpha: 0.05}
	row := func(relevant bool, b analysis.SignificanceBasis, st analysis.State, width float64) *analysis.Row {
		return &analysis.Row{OK: true, Significant: relevant, Relevant: relevant, Basis: b, Headline: analysis.Verdict{State: st, Width: width}}
	}
	tests := []struct {
		name string
		rows []*analysis.Row
		want string
	}{
		{"nothing", []*analysis.Row{row(false, analysis.BasisHistory, "", 0)}, ""},
		{"model 2021", []*analysis.Row{row(true, analysis.Basis2021, "", 0)}, ""},
		{"rustc-perf, one short", []*analysis.Row{row(true, analysis.BasisShort, "", 0)},
			"the relevant change had fewer than 30 values of history: 0.2 % decided it"},
		{"rustc-perf, some short", []*analysis.Row{row(true, analysis.BasisShort, "", 0), row(true, analysis.BasisHistory, "", 0)},
			"1 of the 2 relevant changes had fewer than 30 values of history: 0.2 % decided them"},
		{"persistence", []*analysis.Row{row(true, analysis.BasisPersistence, analysis.StateConfirmed, 0.02), row(false, analysis.BasisPersistence, analysis.StateUnconfirmed, 0.02),
			row(false, analysis.BasisPersistence, analysis.StateSpike, 0.02), row(false, analysis.BasisYoung, analysis.StateYoung, 0)},
			"a change counts when it is out of its series' run-to-run noise (4 widths) and stays: step detection confirms it on later values; 1 change is unconfirmed (too few later values yet); 1 was a spike (the next values came back); 1 series has too little history for a noise model (fewer than 5 values)"},
		{"noise", []*analysis.Row{row(true, analysis.BasisNoise, "", 0.01), row(false, analysis.BasisNoise, "", 0.03)},
			"judged against the base's run-to-run noise: a change counts at 4 widths of it (a median width of 2.0%, so changes from about 8.3%)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := basisNote(tt.rows, opts); got != tt.want {
				t.Errorf("basisNote = %q\nwant        %q", got, tt.want)
			}
		})
	}
}
