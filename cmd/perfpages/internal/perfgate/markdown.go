package perfgate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/receipt"
	"github.com/perfpages/perfpages/internal/mdtext"
)

// markdown renders a compare receipt as perfgate's pull-request comment
// (its `md` command and comment.md): a header by verdict ("✅ perfgate: pass"), the
// bench, a table with one row per delta (metric, baseline, current,
// change, budget, status) and a Notes bullet per verdict reason. units
// gives the display unit of keys that are not perfgate metrics (archive
// results); perfgate metrics use their own.
//
// The bench name, metric keys, units and reason tokens come from the
// receipts and archives: they go through mdtext, as in every Markdown
// perfpages writes (FuzzCommentMarkdown).
func markdown(c *receipt.Compare, units map[string]string) string {
	var b strings.Builder
	b.WriteString(verdictHeader(c.Verdict.Status))
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "**Bench:** %s\n\n", mdtext.Code(c.Bench.Name))
	b.WriteString("| metric | baseline (median) | current (median) | delta | budget | status |\n")
	b.WriteString("|---|---:|---:|---:|---:|---|\n")
	for _, key := range slices.Sorted(maps.Keys(c.Deltas)) {
		d := c.Deltas[key]
		budgetCol, dirCol := "", ""
		if bud, ok := c.Budgets[key]; ok {
			budgetCol, dirCol = analysis.FormatPercent(bud.Threshold, 1), mdtext.Text(string(bud.Direction))
		}
		status := statusIcon(d.Status)
		if noisy(d) {
			status += " (noisy)"
		}
		name := key
		if d.Statistic != "" && d.Statistic != budget.Median {
			name += " (" + string(d.Statistic) + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s (%s) | %s |\n",
			mdtext.CodeCell(name), withUnit(value(key, d.Baseline, units)), withUnit(value(key, d.Current, units)),
			formatPct(d.Pct), budgetCol, dirCol, status)
	}
	if len(c.Verdict.Reasons) > 0 {
		b.WriteString("\n**Notes:**\n")
		for _, r := range c.Verdict.Reasons {
			b.WriteString(reasonLine(c, r))
		}
	}
	return b.String()
}

// verdictHeader is the comment's first line: the status' icon and name
// (skip for any status that is not pass, warn or fail, as the icon).
func verdictHeader(s budget.Status) string {
	switch s {
	case budget.Pass, budget.Warn, budget.Fail:
	default:
		s = budget.Skip
	}
	return statusIcon(s) + " perfgate: " + string(s)
}

func statusIcon(s budget.Status) string {
	switch s {
	case budget.Pass:
		return "✅"
	case budget.Warn:
		return "⚠️"
	case budget.Fail:
		return "❌"
	}
	return "⏭️"
}

func noisy(d receipt.Delta) bool {
	return d.CV != nil && d.NoiseThreshold != nil && *d.CV > *d.NoiseThreshold
}

// reasonLine renders one verdict reason as a Notes bullet.
func reasonLine(c *receipt.Compare, token string) string {
	i := strings.LastIndexByte(token, '_')
	if i > 0 {
		metric, status := token[:i], budget.Status(token[i+1:])
		d, dok := c.Deltas[metric]
		b, bok := c.Budgets[metric]
		if dok && bok {
			noise := ""
			if noisy(d) {
				noise = fmt.Sprintf(" [NOISY: CV %s > limit %s]", analysis.FormatPercent(*d.CV, 2), analysis.FormatPercent(*d.NoiseThreshold, 2))
			}
			switch status {
			case budget.Warn:
				return fmt.Sprintf("- %s: %s (warn >= %s, fail > %s)%s\n", mdtext.Text(token), formatPct(d.Pct),
					analysis.FormatPercent(b.WarnThreshold, 2), analysis.FormatPercent(b.Threshold, 2), noise)
			case budget.Fail:
				return fmt.Sprintf("- %s: %s (fail > %s)\n", mdtext.Text(token), formatPct(d.Pct), analysis.FormatPercent(b.Threshold, 2))
			case budget.Skip:
				return fmt.Sprintf("- %s: skipped%s\n", mdtext.Text(token), noise)
			}
		}
	}
	return "- " + mdtext.Text(token) + "\n"
}

// value is a compared value and its unit as perfgate's tables show them:
// perfgate's own metrics as perfgate prints them (whole numbers,
// throughput with 3 decimals; from 1e15 on — beyond any real count of
// milliseconds or bytes — in exponent form with 6 significant digits,
// "1e+308", not 309 digits) in their unit; archive results (their units in
// units, by key) as perfpages prints every value, with a prefix:
// analysis.ValueParts, "16.3 k cpu-ns/op", never 16300 or 1.63e+04. NaN
// and ±Inf are "n/a".
func value(key string, v float64, units map[string]string) (number, unit string) {
	m, ok := receipt.MetricByName(key)
	switch {
	case !ok:
		return analysis.ValueParts(v, units[key])
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a", m.Unit
	case math.Abs(v) >= 1e15:
		return strconv.FormatFloat(v, 'g', 6, 64), m.Unit
	case m.Name == "throughput_per_s":
		return strconv.FormatFloat(v, 'f', 3, 64), m.Unit
	}
	return strconv.FormatFloat(v, 'f', 0, 64), m.Unit
}

// withUnit is a formatted value and its unit (from the data, escaped)
// for a Markdown table cell.
func withUnit(v, unit string) string {
	if mdtext.Line(unit) == "" {
		return v
	}
	return v + " " + mdtext.Text(unit)
}

// valueRow is one line of the current results shown when there is no
// baseline.
type valueRow struct {
	Metric, Value, Unit string
}

// runValues are a run receipt's medians in the order perfgate lists them
// when there is no baseline.
func runValues(r *receipt.Run) []valueRow {
	var rows []valueRow
	for _, name := range []string{"wall_ms", "cpu_ms", "page_faults", "ctx_switches", "max_rss_kb", "binary_bytes", "throughput_per_s"} {
		if v, ok := r.Stats.Median(name); ok {
			num, unit := value(name, v, nil)
			rows = append(rows, valueRow{Metric: name, Value: num, Unit: unit})
		}
	}
	return rows
}

// archiveValues are an archive's results (with samples, without error)
// and their medians, by key.
func archiveValues(run *model.Run) []valueRow {
	res, _ := archiveResults(run, "")
	var rows []valueRow
	for _, k := range slices.Sorted(maps.Keys(res)) {
		r := res[k]
		num, unit := analysis.ValueParts(budget.MedianF64(r.samples), r.unit)
		rows = append(rows, valueRow{Metric: k, Value: num, Unit: unit})
	}
	return rows
}

// noBaselineMarkdown is the comment of a check that found no baseline:
// the current results and the warnings.
func noBaselineMarkdown(bench string, rows []valueRow, warnings []string) string {
	var b strings.Builder
	b.WriteString("## perfgate: no baseline\n\n")
	fmt.Fprintf(&b, "**Bench:** %s\n\n", mdtext.Code(bench))
	b.WriteString("No baseline found for comparison. This run will establish a new baseline.\n\n")
	b.WriteString("### Current Results\n\n")
	b.WriteString("| metric | value |\n")
	b.WriteString("|---|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s |\n", mdtext.CodeCell(r.Metric), withUnit(r.Value, r.Unit))
	}
	if len(warnings) > 0 {
		b.WriteString("\n**Warnings:**\n")
		for _, w := range warnings {
			fmt.Fprintf(&b, "- %s\n", mdtext.Text(w))
		}
	}
	return b.String()
}
