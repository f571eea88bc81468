package analysis

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SummaryTable renders rustc-perf's Markdown summary table (write_summary_table,
// reference/rustc-perf.md §1.9) byte for byte: five rows (regressions primary
// and secondary, improvements primary and secondary, all primary) by mean,
// range and count, cells padded to the widest cell of their column, where ❌
// and ✅ count as two columns. Every line ends in "\n".
//
// metric is the label column's header: "(metric)" as in triage reports, or
// "" for ten spaces as in the PR bot's comment. It is written as given, so
// a name from the data must come escaped for Markdown (the generator's
// mdtext.Text); widths count it as written. Like upstream, which takes
// the name from the first relevant change, the header is ten spaces too
// when neither category has a relevant change.
//
// Percentages are formatted with Go's %.1f (through FormatPercent, which
// switches to exponent form from 1 000 000 % on), which rounds the exact
// binary value and exact ties to even. Rust's {:.1} is believed to do the same
// (reference §8 leaves ties unverified); the upstream vectors, including
// the exact tie 43.75 → 43.8, agree.
func SummaryTable(primary, secondary CategorySummary, metric string) string {
	header := strings.Repeat(" ", 10)
	if metric != "" && (primary.All.Count > 0 || secondary.All.Count > 0) {
		header = "(" + metric + ")"
	}
	labels := [4]string{header, "mean", "range", "count"}
	rows := [5][4]string{
		{"Regressions ❌ <br /> (primary)", tableMean(primary.Regressions), tableRange(primary.Regressions), tableCount(primary.Regressions)},
		{"Regressions ❌ <br /> (secondary)", tableMean(secondary.Regressions), tableRange(secondary.Regressions), tableCount(secondary.Regressions)},
		{"Improvements ✅ <br /> (primary)", tableMean(primary.Improvements), tableRange(primary.Improvements), tableCount(primary.Improvements)},
		{"Improvements ✅ <br /> (secondary)", tableMean(secondary.Improvements), tableRange(secondary.Improvements), tableCount(secondary.Improvements)},
		{"All ❌✅ (primary)", tableMean(primary.All), tableRange(primary.All), tableCount(primary.All)},
	}

	var widths [4]int
	for c := range labels {
		widths[c] = tableCellWidth(labels[c])
		for _, r := range rows {
			widths[c] = max(widths[c], tableCellWidth(r[c]))
		}
	}

	var b strings.Builder
	line := func(cells [4]string) {
		for c, s := range cells {
			b.WriteString("| ")
			b.WriteString(s)
			b.WriteString(strings.Repeat(" ", widths[c]-tableCellWidth(s)))
			b.WriteByte(' ')
		}
		b.WriteString("|\n")
	}
	line(labels)
	for _, w := range widths {
		b.WriteString("|:")
		b.WriteString(strings.Repeat("-", w))
		b.WriteByte(':')
	}
	b.WriteString("|\n")
	for _, r := range rows {
		line(r)
	}
	return b.String()
}

// tableCellWidth is upstream's display width: one per character, two for the two
// emoji the table uses.
func tableCellWidth(s string) int {
	n := 0
	for _, r := range s {
		if r == '❌' || r == '✅' {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Changes from 0 (ChangeStats.FromZero) are counted, not averaged: the
// mean and range are those of the finite changes ("-" when there are
// none) and the count cell says how many came from 0, "3 (1 from 0)" or
// "1 from 0". Without them the cells are upstream's.

func tableMean(s ChangeStats) string {
	if s.Count == s.FromZero {
		return "-"
	}
	return FormatPercent(s.Mean, 1)
}

func tableRange(s ChangeStats) string {
	if s.Count == s.FromZero {
		return "-"
	}
	return "[" + FormatPercent(s.Min, 1) + ", " + FormatPercent(s.Max, 1) + "]"
}

// Numbers in reports (Markdown, text, the site's tables, perfgate's
// comment) are printed with a fixed number of decimals, as rustc-perf and
// perfgate print them, up to FixedLimit. A change from 1 to 1e308 must not
// print as a 310-digit string, so from FixedLimit on the same number of
// decimals is kept in exponent form: "+1.00e+310%", "2.5e+07x". Exponent
// form was chosen over a capped form (">+999 %") because it still says
// how large the change is, keeps the sign and sorts. NaN and ±Inf print as
// "n/a": no finite number describes them.
const FixedLimit = 1e6

// FormatFixed formats x with the given decimals like fmt's %.Nf, in
// exponent form from |x| ≥ FixedLimit on, "n/a" when x is not finite.
// −0 prints as 0.
func FormatFixed(x float64, decimals int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if x == 0 {
		x = 0 // −0
	}
	if math.Abs(x) < FixedLimit {
		return strconv.FormatFloat(x, 'f', decimals, 64)
	}
	return strconv.FormatFloat(x, 'e', decimals, 64)
}

// FormatSigned is FormatFixed with a '+' before values ≥ 0 (rustc-perf's
// "+1.00%"; "+0.00" for zero).
func FormatSigned(x float64, decimals int) string {
	s := FormatFixed(x, decimals)
	if x >= 0 && !math.IsInf(x, 1) {
		return "+" + s
	}
	return s
}

// FormatPercent formats a fraction as a percent, FormatFixed(x×100)
// followed by "%" ("n/a" without one), computed so that x×100 does not
// overflow: 1e307 is "1.00e+309%", not "+Inf%".
func FormatPercent(x float64, decimals int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if math.Abs(x) < FixedLimit/100 {
		return FormatFixed(x*100, decimals) + "%"
	}
	// The decimal digits of x×100 are those of x; only the exponent moves.
	s := strconv.FormatFloat(x, 'e', decimals, 64)
	i := strings.LastIndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[i+1:])
	return fmt.Sprintf("%se%+03d%%", s[:i], exp+2)
}

// FormatPercentSigned is FormatPercent with a '+' before values ≥ 0.
func FormatPercentSigned(x float64, decimals int) string {
	s := FormatPercent(x, decimals)
	if x >= 0 && !math.IsInf(x, 1) {
		return "+" + s
	}
	return s
}

func tableCount(s ChangeStats) string {
	switch s.FromZero {
	case 0:
		return strconv.Itoa(s.Count)
	case s.Count:
		return strconv.Itoa(s.Count) + " from 0"
	}
	return fmt.Sprintf("%d (%d from 0)", s.Count, s.FromZero)
}
