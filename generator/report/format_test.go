package report

import (
	"math"
	"testing"
)

func TestFormatChange(t *testing.T) {
	if got := FormatChange(0.1); got != "+10.00%" {
		t.Errorf("FormatChange(0.1) = %q", got)
	}
	for c, want := range map[float64]string{
		-0.0566:      "-5.66%",
		0:            "+0.00%",
		1e308:        "+1.00e+310%",
		9999:         "+999900.00%",
		math.NaN():   "n/a",
		math.Inf(1):  "+∞%", // a change from 0
		math.Inf(-1): "-∞%",
	} {
		if got := FormatChange(c); got != want {
			t.Errorf("FormatChange(%v) = %q, want %q", c, got, want)
		}
	}
}

// z-scores keep Conbench's four significant figures, no more than two
// decimals (Conbench's test vectors, and the −38,880 of a two-commit
// distribution that the README's Analysis section quotes).
func TestFormatZ(t *testing.T) {
	for z, want := range map[float64]string{
		-4.949747468305833: "-4.95",
		-2.186:             "-2.19",
		0.70710678:         "+0.71",
		0:                  "+0.00",
		10:                 "+10.00",
		-9.99999:           "-10.00",
		// Beyond ±10, capped (ZShown): an instruction count's z of
		// −791.9 for a 0.5 % change is no alarm.
		13.435:             "> +10",
		-10.01:             "< -10",
		-791.9:             "< -10",
		-38890.16585829323: "< -10",
		-2.5e7:             "< -10",
		math.Inf(1):        "> +10",
		math.NaN():         "n/a",
	} {
		if got := FormatZ(z); got != want {
			t.Errorf("FormatZ(%v) = %q, want %q", z, got, want)
		}
	}
}
