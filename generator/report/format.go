package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/zscore"
)

// FormatValue shows a measured value with its unit, scaled to a readable
// prefix: nanoseconds become µs/ms/s, bytes KiB/MiB/GiB, counts k/M/G.
// Four significant digits are enough to see a 0.1 % change on a table and
// keep columns narrow; the exact value is in the data files.
//
// Huge values keep four significant digits in exponent form ("1e+299 s");
// NaN and ±Inf are "n/a" (analysis.FormatFixed's rule).
func FormatValue(v float64, unit string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	switch strings.ToLower(unit) {
	case "ns", "ns/op":
		return scaled(v, []scale{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}})
	case "s", "sec", "seconds", "sec/op":
		return scaled(v, []scale{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}})
	case "ms":
		return scaled(v, []scale{{1e3, "s"}, {1, "ms"}, {1e-3, "µs"}})
	case "b", "byte", "bytes", "b/op":
		return scaled(v, []scale{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}, {1, "B"}})
	case "count", "", "instructions", "cycles":
		s := scaled(v, []scale{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}})
		if unit != "" && unit != "count" {
			s += " " + unit
		}
		return strings.TrimSpace(s)
	default:
		return sig4(v) + " " + unit
	}
}

type scale struct {
	factor float64
	suffix string
}

func scaled(v float64, scales []scale) string {
	a := math.Abs(v)
	for _, s := range scales {
		if a >= s.factor {
			return strings.TrimSpace(sig4(v/s.factor) + " " + s.suffix)
		}
	}
	last := scales[len(scales)-1]
	return strings.TrimSpace(sig4(v/last.factor) + " " + last.suffix)
}

// sig4 prints four significant digits without exponent for the usual
// range and without trailing zeros. The number of decimals follows from
// the value's decimal exponent, read exactly from its shortest decimal
// form (math.Log10 can be off by one just above a power of ten), so that
// the site's script, which formats the data files' values the same way
// (site.js, formatValue), always agrees.
func sig4(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e4 || a < 1e-3 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	digits := max(3-decimalExponent(a), 0)
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// decimalExponent is ⌊log₁₀ a⌋ for a finite a > 0, exactly.
func decimalExponent(a float64) int {
	s := strconv.FormatFloat(a, 'e', -1, 64)
	e, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	return e
}

// FormatChange shows a relative change (a fraction) as a signed percent
// with two decimals, as rustc-perf's compare page does; from 1 000 000 %
// on in exponent form ("+1.00e+310%"), "n/a" for NaN
// (analysis.FormatPercent). A change from 0 (analysis.Row.FromZero) is
// infinite and shows as such, "+∞%" (or "-∞%" for a negative value):
// the base was 0, so no percentage describes it, and every reader knows
// the sign.
func FormatChange(c float64) string {
	switch {
	case math.IsInf(c, 1):
		return "+∞%"
	case math.IsInf(c, -1):
		return "-∞%"
	}
	return analysis.FormatPercentSigned(c, 2)
}

// FormatThreshold shows a significance threshold as rustc-perf does: a
// percent with two decimals, "-" when it is 0.
func FormatThreshold(t float64) string {
	if t == 0 {
		return "-"
	}
	return analysis.FormatPercent(t, 2)
}

// FormatFactor shows a significance factor ("2.50x", "-" when 0).
func FormatFactor(f float64) string {
	if f == 0 {
		return "-"
	}
	return analysis.FormatFixed(f, 2) + "x"
}

// FormatP shows a p-value with three decimals, as benchstat does.
func FormatP(p float64) string {
	if p < 0.001 && p > 0 {
		return "<0.001"
	}
	return analysis.FormatFixed(p, 3)
}

// FormatPercent1 shows a fraction as a percent with one decimal, as
// rustc-perf's summary tables do ("1.5%").
func FormatPercent1(x float64) string { return analysis.FormatPercent(x, 1) }

// FormatZ shows a z-score with a sign and Conbench's four significant
// figures, but no more than two decimals: "+4.95", "-12.02", "-123.5",
// "-38890" (a huge z from a tiny spread is not made to look precise by
// ".00"), in exponent form from 1 000 000 on (analysis.FormatFixed).
func FormatZ(z float64) string {
	r := zscore.Round4(z)
	decimals := 2
	switch a := math.Abs(r); {
	case a >= 1000:
		decimals = 0
	case a >= 100:
		decimals = 1
	}
	return analysis.FormatSigned(r, decimals)
}
