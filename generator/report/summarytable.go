package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis"
)

// SummaryTable renders rustc-perf's Markdown summary table
// (write_summary_table in site/src/comparison.rs) byte for byte: five rows
// (regressions primary and secondary, improvements primary and secondary,
// all primary) by mean, range and count, cells padded to the widest cell of
// their column, where ❌ and ✅ count as two columns. Every line ends in
// "\n".
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
// binary value and exact ties to even. Rust's {:.1} is believed to do the
// same (not verified on ties); the upstream vectors, including the exact
// tie 43.75 → 43.8, agree.
func SummaryTable(primary, secondary analysis.CategorySummary, metric string) string {
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

// Changes from 0 (analysis.ChangeStats.FromZero) are counted, not averaged: the
// mean and range are those of the finite changes ("-" when there are
// none) and the count cell says how many came from 0, "3 (1 from 0)" or
// "1 from 0". Without them the cells are upstream's.

func tableMean(s analysis.ChangeStats) string {
	if s.Count == s.FromZero {
		return "-"
	}
	return analysis.FormatPercent(s.Mean, 1)
}

func tableRange(s analysis.ChangeStats) string {
	if s.Count == s.FromZero {
		return "-"
	}
	return "[" + analysis.FormatPercent(s.Min, 1) + ", " + analysis.FormatPercent(s.Max, 1) + "]"
}

func tableCount(s analysis.ChangeStats) string {
	switch s.FromZero {
	case 0:
		return strconv.Itoa(s.Count)
	case s.Count:
		return strconv.Itoa(s.Count) + " from 0"
	}
	return fmt.Sprintf("%d (%d from 0)", s.Count, s.FromZero)
}
