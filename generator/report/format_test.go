package report

import (
	"math"
	"testing"
)

func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{1203.5, "ns", "1.204 µs"},
		{999, "ns", "999 ns"},
		{2.5e9, "ns", "2.5 s"},
		{4096000, "bytes", "3.906 MiB"},
		{512, "bytes", "512 B"},
		{1234567890, "count", "1.235 G"},
		{950, "count", "950"},
		{123.456, "MB/s", "123.5 MB/s"},
		{0.5, "s", "500 ms"},
		{0, "ns", "0 ns"},
		// Huge and non-finite values (analysis.FormatFixed's rule).
		{1e308, "ns", "1e+299 s"},
		{math.MaxFloat64, "bytes", "1.674e+299 GiB"},
		{-1e308, "MB/s", "-1e+308 MB/s"},
		{1e300, "count", "1e+291 G"},
		{math.NaN(), "ns", "n/a"},
		{math.Inf(1), "bytes", "n/a"},
	}
	for _, tt := range tests {
		if got := FormatValue(tt.v, tt.unit); got != tt.want {
			t.Errorf("FormatValue(%v, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
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
// decimals (Conbench's test vectors and the verdicts issue's −38,880).
func TestFormatZ(t *testing.T) {
	for z, want := range map[float64]string{
		-4.949747468305833: "-4.95",
		13.435:             "+13.44",
		-2.186:             "-2.19",
		0.70710678:         "+0.71",
		0:                  "+0.00",
		-123.456:           "-123.5",
		-38890.16585829323: "-38890",
		99999.4:            "+100000",
		-2.5e7:             "-2e+07",
		math.NaN():         "n/a",
	} {
		if got := FormatZ(z); got != want {
			t.Errorf("FormatZ(%v) = %q, want %q", z, got, want)
		}
	}
}
