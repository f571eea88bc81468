package site

import (
	"math"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis"
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
// range and without trailing zeros.
func sig4(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a >= 1e4 || a < 1e-3 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	digits := 3 - int(math.Floor(math.Log10(a)))
	if digits < 0 {
		digits = 0
	}
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// FormatChange shows a relative change (a fraction) as a signed percent
// with two decimals, as rustc-perf's compare page does; from 1 000 000 %
// on in exponent form ("+1.00e+310%"), "n/a" when not finite
// (analysis.FormatPercent).
func FormatChange(c float64) string {
	return analysis.FormatPercentSigned(c, 2)
}
