package analysis

import (
	"math"
	"slices"
	"testing"
)

// TestFormatValue: every unit prints with a prefix or grouped, never as
// 1.63e+04: time and bytes scale to their units, byte rates to
// decimal ones, any other unit takes an SI prefix before it.
func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{1203.5, "ns", "1.204 µs"},
		{999, "ns", "999 ns"},
		{2.5e9, "ns", "2.5 s"},
		{0.5, "s", "500 ms"},
		{0, "ns", "0 ns"},
		{12345.6, "s", "12,346 s"}, // beyond the largest prefix: grouped
		{4096000, "bytes", "3.906 MiB"},
		{512, "bytes", "512 B"},
		{3 << 40, "B/op", "3 TiB"},
		// Counts and custom units: an SI prefix before the unit.
		{1234567890, "count", "1.235 G"},
		{950, "count", "950"},
		{1.961, "unit", "1.961"}, // asv's track_ benchmarks without a unit
		{2314, "unit", "2.314 k"},
		{16300, "cpu-ns/op", "16.3 k cpu-ns/op"},
		{-16300, "", "-16.3 k"},
		{2.5e13, "instructions", "25 T instructions"},
		{0.75, "allocs/op", "0.75 allocs/op"},
		{0.0000125, "ratio", "0.0000125 ratio"},
		// Byte rates, decimal: a Go benchmark's MB/s stays MB/s until it
		// is a GB/s.
		{8.234e8, "B/s", "823.4 MB/s"},
		{123.456, "MB/s", "123.5 MB/s"},
		{12345, "MB/s", "12.35 GB/s"},
		{0.5, "MB/s", "500 kB/s"},
		{42.5, "%", "42.5 %"},
		{123456, "%", "123,456 %"},
		// Huge, tiny and non-finite values.
		{1e308, "ns", "1e+299 s"},
		{math.MaxFloat64, "bytes", "1.597e+293 PiB"},
		{-1e308, "MB/s", "-1e+302 TB/s"},
		{1e300, "count", "1e+282 E"},
		{5e-324, "ns", "4.941e-324 ns"},
		{math.NaN(), "ns", "n/a"},
		{math.Inf(1), "bytes", "n/a"},
	}
	for _, tt := range tests {
		if got := FormatValue(tt.v, tt.unit); got != tt.want {
			t.Errorf("FormatValue(%v, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
	if n, u := ValueParts(16300, "cpu-ns/op"); n != "16.3" || u != "k cpu-ns/op" {
		t.Errorf("ValueParts = %q, %q", n, u)
	}
}

// TestScales: a value axis picks from the prefixes FormatValue picks from.
func TestScales(t *testing.T) {
	names := func(ss []Scale) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return out
	}
	if got := names(Scales("cpu-ns/op")); !slices.Equal(got, []string{"E cpu-ns/op", "P cpu-ns/op", "T cpu-ns/op", "G cpu-ns/op", "M cpu-ns/op", "k cpu-ns/op", "cpu-ns/op"}) {
		t.Errorf("Scales(cpu-ns/op) = %q", got)
	}
	if got := names(Scales("count")); got[5] != "k" || got[6] != "" {
		t.Errorf("Scales(count) = %q", got)
	}
	if got := names(Scales("NS")); !slices.Equal(got, []string{"s", "ms", "µs", "ns"}) {
		t.Errorf("Scales(NS) = %q", got)
	}
	for _, u := range ScaledUnits() {
		for _, s := range Scales(u) {
			if got := FormatValue(s.Factor, u); got != "1 "+s.Name {
				t.Errorf("FormatValue(%v, %q) = %q, want 1 %s", s.Factor, u, got, s.Name)
			}
		}
	}
}
