package report

import "testing"

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
	}
	for _, tt := range tests {
		if got := FormatValue(tt.v, tt.unit); got != tt.want {
			t.Errorf("FormatValue(%v, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
	if got := FormatChange(0.1); got != "+10.00%" {
		t.Errorf("FormatChange(0.1) = %q", got)
	}
	if got := FormatChange(-0.0566); got != "-5.66%" {
		t.Errorf("FormatChange(-0.0566) = %q", got)
	}
}

