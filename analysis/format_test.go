package analysis

import (
	"math"
	"testing"
)

// TestFormatNumbers pins the formatting of huge and non-finite numbers:
// fixed decimals below FixedLimit, the same decimals in exponent form from
// there on, never a 300-digit string, "n/a" for NaN and ±Inf.
func TestFormatNumbers(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{FormatFixed(2.5, 2), "2.50"},
		{FormatFixed(-0.0001, 2), "-0.00"},
		{FormatFixed(math.Copysign(0, -1), 2), "0.00"},
		{FormatFixed(999999.994, 2), "999999.99"},
		{FormatFixed(1e6, 2), "1.00e+06"},
		{FormatFixed(-1e308, 2), "-1.00e+308"},
		{FormatFixed(math.MaxFloat64, 0), "2e+308"},
		{FormatFixed(math.NaN(), 2), "n/a"},
		{FormatFixed(math.Inf(-1), 2), "n/a"},
		{FormatSigned(0, 2), "+0.00"},
		{FormatSigned(12.345, 2), "+12.35"},
		{FormatSigned(-3, 1), "-3.0"},
		{FormatSigned(1e308, 2), "+1.00e+308"},
		{FormatSigned(math.Inf(1), 2), "n/a"},
		{FormatSigned(math.NaN(), 2), "n/a"},
		{FormatPercent(0.1234, 1), "12.3%"},
		{FormatPercent(-0.05, 2), "-5.00%"},
		{FormatPercent(9999.99, 2), "999999.00%"},
		{FormatPercent(1e4, 2), "1.00e+06%"},
		{FormatPercent(1e308, 2), "1.00e+310%"},
		{FormatPercent(math.MaxFloat64, 1), "1.8e+310%"},
		{FormatPercent(-5e307, 1), "-5.0e+309%"},
		{FormatPercent(1e-300, 2), "0.00%"},
		{FormatPercent(math.Inf(1), 2), "n/a"},
		{FormatPercentSigned(0, 2), "+0.00%"},
		{FormatPercentSigned(1e308, 2), "+1.00e+310%"},
		{FormatPercentSigned(-0.0566, 2), "-5.66%"},
		{FormatPercentSigned(math.NaN(), 2), "n/a"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
