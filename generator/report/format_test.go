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
		math.Inf(-1): "n/a",
	} {
		if got := FormatChange(c); got != want {
			t.Errorf("FormatChange(%v) = %q, want %q", c, got, want)
		}
	}
}
