package analysis

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FormatValue shows a measured value with its unit, scaled to a readable
// prefix: nanoseconds become µs/ms/s, bytes KiB/MiB/GiB/TiB/PiB, byte
// rates kB/s…TB/s (decimal, as network and disk rates are quoted: a Go
// benchmark's 823.4 MB/s stays "823.4 MB/s", 12345 MB/s is "12.35
// GB/s"), and every other unit — counts, instructions, a custom
// "cpu-ns/op" — takes an SI prefix before the unit: "16.3 k cpu-ns/op",
// "1.235 G instructions", "950". Four significant digits are enough to see
// a 0.1 % change on a table and keep columns narrow; the exact value is in
// the data files. A value beyond the largest prefix is grouped by
// thousands ("12,345 s"), and from 1e15 on in exponent form with four
// significant digits ("1e+299 s"); values below 1e-6 of the smallest
// prefix are in exponent form too. NaN and ±Inf are "n/a"
// (FormatFixed's rule). A percentage ("%") takes no prefix.
//
// This is the one formatting of values: the site's tables, the PR
// comment, the text and triage reports and perfgate's comment all use it,
// and the site's script (site.js, formatValue) does the same to the
// digit, which a browser test checks.
func FormatValue(v float64, unit string) string {
	num, u := ValueParts(v, unit)
	if u == "" {
		return num
	}
	return num + " " + u
}

// ValueParts is FormatValue in two parts: the number (digits, a point,
// commas, a sign, an exponent) and the unit with its prefix ("k
// cpu-ns/op", "MiB", "" for a count), for writers that escape the unit,
// which comes from the data, but not the number.
func ValueParts(v float64, unit string) (number, prefixed string) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a", ""
	}
	scales, ok := unitScales[strings.ToLower(unit)]
	switch {
	case ok:
	case unit == "%":
		return sig4(v), unit
	default:
		scales = siScales
	}
	s := scales[len(scales)-1]
	for _, x := range scales {
		if math.Abs(v) >= x.Factor {
			s = x
			break
		}
	}
	if ok {
		return sig4(v / s.Factor), s.Name
	}
	// An SI prefix before a unit of the data's ("k cpu-ns/op"), as
	// Scales names it.
	return sig4(v / s.Factor), strings.TrimSpace(s.Name + " " + shownUnit(unit))
}

// shownUnit is the unit as values show it: none for a count, nor for
// asv's "unit", the unit of a track_ benchmark that names none (1.961,
// not "1.961 unit"). The site's script (20-format.js, formatValue) has
// the same rule.
func shownUnit(unit string) string {
	if unit == "count" || unit == "unit" {
		return ""
	}
	return unit
}

// Scale is one prefix of a unit: values of at least Factor (in the unit
// the data gives) are shown divided by it, followed by Name.
type Scale struct {
	Factor float64
	Name   string
}

// Scales returns the prefixes FormatValue picks from for unit, largest
// first, each named with the unit it shows ("ms", "k cpu-ns/op"): a value
// axis is drawn in the first its largest value reaches, as FormatValue
// picks one per value. A percentage has one, itself.
func Scales(unit string) []Scale {
	if s, ok := unitScales[strings.ToLower(unit)]; ok {
		return s
	}
	if unit == "%" {
		return []Scale{{1, unit}}
	}
	unit = shownUnit(unit)
	out := make([]Scale, len(siScales))
	for i, s := range siScales {
		out[i] = Scale{s.Factor, strings.TrimSpace(s.Name + " " + unit)}
	}
	return out
}

// ScaledUnits are the units (lower case) that Scales scales to other
// units, as opposed to putting an SI prefix before them.
func ScaledUnits() []string { return slices.Sorted(maps.Keys(unitScales)) }

// siScales are the prefixes of every unit FormatValue knows nothing
// about; the unit follows the prefix.
var siScales = []Scale{{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}}

// unitScales are the units FormatValue scales to other units, by lower
// case name, largest first.
var unitScales = func() map[string][]Scale {
	m := map[string][]Scale{}
	put := func(units []string, scales []Scale) {
		for _, u := range units {
			m[u] = scales
		}
	}
	put([]string{"ns", "ns/op"}, []Scale{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}})
	put([]string{"s", "sec", "seconds", "sec/op"}, []Scale{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}})
	put([]string{"ms"}, []Scale{{1e3, "s"}, {1, "ms"}, {1e-3, "µs"}})
	put([]string{"b", "byte", "bytes", "b/op"}, []Scale{{1 << 50, "PiB"}, {1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}, {1, "B"}})
	put([]string{"b/s", "byte/s", "bytes/s"}, []Scale{{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "kB/s"}, {1, "B/s"}})
	put([]string{"mb/s"}, []Scale{{1e6, "TB/s"}, {1e3, "GB/s"}, {1, "MB/s"}, {1e-3, "kB/s"}, {1e-6, "B/s"}})
	return m
}()

// sig4 prints four significant digits without exponent for the usual
// range and without trailing zeros; from 10,000 on, the integer grouped
// by thousands (a value beyond its unit's largest prefix), from 1e15 on
// and below 1e-6 in exponent form. The number of decimals follows from
// the value's decimal exponent, read exactly from its shortest decimal
// form (math.Log10 can be off by one just above a power of ten), so that
// the site's script, which formats the data files' values the same way
// (site.js, formatValue), always agrees.
func sig4(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	switch {
	case a >= 1e15 || a < 1e-6:
		return strconv.FormatFloat(v, 'g', 4, 64)
	case a >= 1e4:
		return groupThousands(strconv.FormatFloat(v, 'f', 0, 64))
	}
	digits := max(3-decimalExponent(a), 0)
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// groupThousands puts a comma between each group of three digits of an
// integer ("-1234567" → "-1,234,567").
func groupThousands(s string) string {
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}

// decimalExponent is ⌊log₁₀ a⌋ for a finite a > 0, exactly.
func decimalExponent(a float64) int {
	s := strconv.FormatFloat(a, 'e', -1, 64)
	e, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	return e
}
