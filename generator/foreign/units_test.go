package foreign

import "testing"

func TestUnitMetric(t *testing.T) {
	tests := []struct {
		unit, metric string
		ok           bool
	}{
		{"%", "percent", true},
		{"Percent", "percent", true},
		{"ns", "wall-time", true},
		{"µs", "wall-time", true},
		{"ms/iter", "wall-time", true},
		{"ns/op", "wall-time", true},
		{"seconds", "wall-time", true},
		{"ops/sec", "throughput", true},
		{"req/s", "throughput", true},
		{"ops/ms", "throughput", true},
		{"MB", "size", true},
		{"KiB", "size", true},
		{"bytes", "size", true},
		{"x", "ratio", true},
		{"B/op", "", false},
		{"allocs/op", "", false},
		{"widgets", "", false},
		{"/s", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		metric, ok := unitMetric(tt.unit)
		if metric != tt.metric || ok != tt.ok {
			t.Errorf("unitMetric(%q) = %q, %v; want %q, %v", tt.unit, metric, ok, tt.metric, tt.ok)
		}
	}
}
