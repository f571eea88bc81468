package perfgate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/generator/receipt"
)

// Export formats.
const (
	FormatCSV   = "csv"
	FormatJSONL = "jsonl"
)

// runColumns are the columns of a run export (perfgate's docs/DESIGN.md,
// "Export Formats";
// perfgate's newer code adds a median column per optional metric).
var runColumns = []string{
	"bench_name", "wall_ms_median", "wall_ms_min", "wall_ms_max",
	"max_rss_kb_median", "throughput_median", "sample_count", "timestamp",
}

// compareColumns are the columns of a compare export.
var compareColumns = []string{
	"bench_name", "metric", "baseline_value", "current_value", "regression_pct", "status", "threshold",
}

// cell is one exported value: a string, an integer, a real number or
// nothing. CSV writes reals with 6 decimals and nothing as an empty
// field; JSONL writes reals as numbers and nothing as null.
type cell struct {
	kind byte // 's' string, 'u' unsigned integer, 'f' float, 0 none
	s    string
	u    uint64
	f    float64
}

func textCell(s string) cell   { return cell{kind: 's', s: s} }
func uintCell(u uint64) cell   { return cell{kind: 'u', u: u} }
func floatCell(f float64) cell { return cell{kind: 'f', f: f} }
func optCell(u *receipt.U64Summary) cell {
	if u == nil {
		return cell{}
	}
	return uintCell(u.Median)
}

// ExportRuns writes one row per run receipt, after a CSV header.
func ExportRuns(w io.Writer, format string, runs []*receipt.Run) error {
	rows := make([][]cell, len(runs))
	for i, r := range runs {
		thr := cell{}
		if r.Stats.ThroughputPerS != nil {
			thr = floatCell(r.Stats.ThroughputPerS.Median)
		}
		measured := 0
		for _, s := range r.Samples {
			if !s.Warmup {
				measured++
			}
		}
		rows[i] = []cell{
			textCell(r.Bench.Name), uintCell(r.Stats.WallMs.Median), uintCell(r.Stats.WallMs.Min), uintCell(r.Stats.WallMs.Max),
			optCell(r.Stats.MaxRSSKB), thr, uintCell(uint64(measured)), textCell(r.Run.StartedAt),
		}
	}
	return writeRows(w, format, runColumns, rows)
}

// ExportCompares writes one row per delta of each compare receipt, sorted
// by metric: values with 6 decimals, regression_pct = pct × 100 (signed,
// as perfgate exports it), threshold × 100 (0 when the metric has no
// budget).
func ExportCompares(w io.Writer, format string, cmps []*receipt.Compare) error {
	var rows [][]cell
	for _, c := range cmps {
		for _, k := range slices.Sorted(maps.Keys(c.Deltas)) {
			d := c.Deltas[k]
			threshold := 0.0
			if b, ok := c.Budgets[k]; ok {
				threshold = b.Threshold
			}
			rows = append(rows, []cell{
				textCell(c.Bench.Name), textCell(k), floatCell(d.Baseline), floatCell(d.Current),
				floatCell(d.Pct * 100), textCell(string(d.Status)), floatCell(threshold * 100),
			})
		}
	}
	return writeRows(w, format, compareColumns, rows)
}

func writeRows(w io.Writer, format string, cols []string, rows [][]cell) error {
	bw := bufio.NewWriter(w)
	switch format {
	case FormatCSV:
		bw.WriteString(strings.Join(cols, ","))
		bw.WriteByte('\n')
		for _, row := range rows {
			for i, c := range row {
				if i > 0 {
					bw.WriteByte(',')
				}
				bw.WriteString(csvCell(c))
			}
			bw.WriteByte('\n')
		}
	case FormatJSONL:
		for _, row := range rows {
			bw.WriteByte('{')
			for i, c := range row {
				if i > 0 {
					bw.WriteByte(',')
				}
				bw.WriteString(jsonString(cols[i]))
				bw.WriteByte(':')
				bw.WriteString(jsonCell(c))
			}
			bw.WriteString("}\n")
		}
	default:
		return fmt.Errorf("export format %q: want csv or jsonl", format)
	}
	return bw.Flush()
}

// csvCell formats a field per RFC 4180: quoted when it holds a comma, a
// double quote or a line break, with quotes doubled.
func csvCell(c cell) string {
	switch c.kind {
	case 's':
		if strings.ContainsAny(c.s, ",\"\n\r") {
			return `"` + strings.ReplaceAll(c.s, `"`, `""`) + `"`
		}
		return c.s
	case 'u':
		return strconv.FormatUint(c.u, 10)
	case 'f':
		return strconv.FormatFloat(c.f, 'f', 6, 64)
	}
	return ""
}

func jsonCell(c cell) string {
	switch c.kind {
	case 's':
		return jsonString(c.s)
	case 'u':
		return strconv.FormatUint(c.u, 10)
	case 'f':
		return jsonFloat(c.f)
	}
	return "null"
}

func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonFloat writes a float as perfgate's JSON (serde_json, ryu) does:
// the shortest representation that reads back exactly, with ".0" on whole
// numbers, an exponent outside [1e-5, 1e16), and null for NaN and
// infinities.
func jsonFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	a := math.Abs(f)
	if a >= 1e-5 && a < 1e16 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.ContainsRune(s, '.') {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+16, 1.5e-07
	mant, exp, _ := strings.Cut(s, "e")
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + exp
}
