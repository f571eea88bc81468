package foreign

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// bmfFormat reads the Bencher Metric Format (BMF, bencher.dev/bmf.json,
// Bencher's bencher-metric-format docs): a JSON object of benchmarks,
// each an object of measures, each a metric {value, lower_value?,
// upper_value?}:
//
//	{"parse/large": {"latency": {"value": 88.0, "lower_value": 87.4, "upper_value": 88.9}}}
//
// Mapping to the model:
//
//   - benchmark name → TestCase.Benchmark, no params. A name ending in
//     Bencher's ignore suffix ("-bencher-ignore", "_bencher_ignore",
//     "BencherIgnore": tracked, but alerts suppressed) loses the suffix and
//     becomes a secondary test case, our equivalent of "shown, does not
//     decide the verdict".
//   - measure → metric and unit, for the measures Bencher defines (by slug
//     or display name, see bmfMeasures): latency → wall-time in ns,
//     throughput → throughput in ops/s, build-time → s, file-size → B, the
//     iai/gungraun counters in their own units. Result.Direction stays empty:
//     the unit decides (ops/s is higher-is-better, everything else lower),
//     and [metrics] configuration can override it. A measure named like a
//     unit ("ms", "%", "MB") is in that unit, and the metric is named for
//     its quantity (wall-time, percent, size; see unitMetric). Any other
//     measure keeps its name as the metric, with no unit. Both get one
//     warning per file.
//   - value → the result's single sample. BMF holds one number per measure,
//     whatever the harness reported (often a mean or median); it is all the
//     file has. lower_value and upper_value are bounds (a CI, min/max,
//     ±σ), not samples: they are checked and otherwise ignored.
//   - BMF records no commit, date or host: artifact, machine and context
//     all come from Defaults.
var bmfFormat = Format{Name: "bmf", Read: readBMF, Sniff: sniffBMF}

func init() { register(bmfFormat) }

// bmfMeasure is how a Bencher built-in measure maps to our metric.
type bmfMeasure struct{ metric, unit string }

// bmfMeasures are Bencher's built-in measures (lib/bencher_json
// project/measure/built_in.rs), by slug and by display name, as Bencher
// itself recognises them. Bencher attaches no direction to a measure.
var bmfMeasures = func() map[string]bmfMeasure {
	m := map[string]bmfMeasure{}
	for _, d := range []struct{ slug, name, metric, unit string }{
		{"latency", "Latency", "wall-time", "ns"},
		{"throughput", "Throughput", "throughput", "ops/s"},
		{"build-time", "Build Time", "build-time", "s"},
		{"file-size", "File Size", "file-size", "B"},
		{"allocated", "Allocated", "allocated", "B"},
		{"gen0-collects", "Gen0 Collects", "gen0-collects", "collects"},
		{"gen1-collects", "Gen1 Collects", "gen1-collects", "collects"},
		{"gen2-collects", "Gen2 Collects", "gen2-collects", "collects"},
		{"instructions", "Instructions", "instructions", "instructions"},
		{"l1-accesses", "L1 Accesses", "l1-accesses", "accesses"},
		{"l2-accesses", "L2 Accesses", "l2-accesses", "accesses"},
		{"ram-accesses", "RAM Accesses", "ram-accesses", "accesses"},
		{"estimated-cycles", "Estimated Cycles", "estimated-cycles", "cycles"},
		{"l1-hits", "L1 Hits", "l1-hits", "hits"},
		{"l2-hits", "L2 Hits", "l2-hits", "hits"},
		{"ll-hits", "LL Hits", "ll-hits", "hits"},
		{"ram-hits", "RAM Hits", "ram-hits", "hits"},
		{"total-read-write", "Total read+write", "total-read-write", "reads/writes"},
		{"total-bytes", "Total bytes", "total-bytes", "B"},
	} {
		m[d.slug] = bmfMeasure{d.metric, d.unit}
		m[d.name] = bmfMeasure{d.metric, d.unit}
	}
	return m
}()

// bmfIgnoreSuffixes mark benchmarks whose alerts Bencher suppresses.
var bmfIgnoreSuffixes = []string{"-bencher-ignore", "_bencher_ignore", "BencherIgnore"}

func readBMF(in Input, def Defaults) ([]model.Run, []archive.Problem) {
	data := bytes.TrimPrefix(in.Data, utf8BOM)
	root, end, perr := parseJSON(in.Name, data, readkit.JSONOptions{Trailing: true, Duplicates: true})
	if perr != nil {
		return nil, []archive.Problem{*perr}
	}
	var probs []archive.Problem
	if l, ok := trailing(data, end, false); ok {
		probs = append(probs, problem(in.Name, l, "unexpected text after the JSON object; ignored"))
	}
	if root.Kind != readkit.Map {
		return nil, append(probs, fatal(in.Name, root.Line, "want a JSON object of benchmarks (Bencher Metric Format), found %s", root.Describe()))
	}
	if len(root.Fields) == 0 {
		return nil, append(probs, fatal(in.Name, root.Line, "no benchmarks"))
	}
	run := model.Run{Artifact: def.Artifact, Machine: def.Machine, Context: def.Context}
	index := map[[2]string]int{} // (benchmark key, metric) → result
	firstBench := map[string]int{}
	warned := map[string]bool{}
	for _, b := range root.Fields {
		name, cat := bmfName(b.Key)
		if strings.TrimSpace(name) == "" {
			probs = append(probs, problem(in.Name, b.Line, "benchmark with an empty name; skipped"))
			continue
		}
		if l, dup := firstBench[b.Key]; dup {
			probs = append(probs, problem(in.Name, b.Line, "benchmark %q appears again (first at line %d); its measures are merged", b.Key, l))
		} else {
			firstBench[b.Key] = b.Line
		}
		if b.Val.Kind != readkit.Map {
			probs = append(probs, problem(in.Name, b.Val.Line, "benchmark %q: want an object of measures, found %s; skipped", b.Key, b.Val.Describe()))
			continue
		}
		if len(b.Val.Fields) == 0 {
			probs = append(probs, problem(in.Name, b.Val.Line, "benchmark %q has no measures; skipped", b.Key))
			continue
		}
		seen := map[string]int{}
		for _, m := range b.Val.Fields {
			if strings.TrimSpace(m.Key) == "" {
				probs = append(probs, problem(in.Name, m.Line, "benchmark %q: measure with an empty name; skipped", b.Key))
				continue
			}
			meas, known := bmfMeasures[m.Key]
			if q, unit := unitMetric(m.Key); !known && unit {
				// A measure named like a unit ("ms", "%") measures in it.
				meas = bmfMeasure{metric: q, unit: gabMicro.Replace(strings.TrimSpace(m.Key))}
				if !warned[m.Key] {
					warned[m.Key] = true
					probs = append(probs, problem(in.Name, m.Line, "measure %q is a unit, not a Bencher built-in measure: kept as metric %q in %s", m.Key, meas.metric, meas.unit))
				}
			} else if !known {
				meas = bmfMeasure{metric: m.Key}
				if !warned[m.Key] {
					warned[m.Key] = true
					probs = append(probs, problem(in.Name, m.Line, "measure %q is not a Bencher built-in measure: kept as metric %q with no unit (lower is better unless [metrics.%q] says otherwise)", m.Key, m.Key, m.Key))
				}
			}
			v, ok, mp := bmfMetric(in.Name, b.Key, m, meas.unit)
			probs = append(probs, mp...)
			if !ok {
				continue
			}
			if l, dup := seen[meas.metric]; dup {
				probs = append(probs, problem(in.Name, m.Line, "benchmark %q: measure %q repeats metric %s (first at line %d); both values kept as samples", b.Key, m.Key, meas.metric, l))
			} else {
				seen[meas.metric] = m.Line
			}
			k := [2]string{b.Key, meas.metric}
			if i, ok := index[k]; ok {
				run.Results[i].Samples = append(run.Results[i].Samples, v)
				continue
			}
			index[k] = len(run.Results)
			run.Results = append(run.Results, model.Result{
				Case:    model.TestCase{Benchmark: name, Category: cat},
				Metric:  meas.metric,
				Unit:    meas.unit,
				Samples: []float64{v},
			})
		}
	}
	if len(run.Results) == 0 {
		return nil, append(probs, fatal(in.Name, 0, "no usable benchmark results"))
	}
	return []model.Run{run}, probs
}

// bmfName strips Bencher's ignore suffix: such a benchmark is secondary.
func bmfName(key string) (string, model.Category) {
	for _, s := range bmfIgnoreSuffixes {
		if name, ok := strings.CutSuffix(key, s); ok {
			return name, model.Secondary
		}
	}
	return key, ""
}

// bmfMetric checks one measure's metric object and returns its value.
func bmfMetric(file, bench string, m readkit.Field, unit string) (float64, bool, []archive.Problem) {
	var probs []archive.Problem
	if m.Val.Kind != readkit.Map {
		return 0, false, []archive.Problem{problem(file, m.Val.Line, "benchmark %q, measure %q: want an object with a value, found %s; skipped", bench, m.Key, m.Val.Describe())}
	}
	var value, lower, upper *readkit.Node
	for _, f := range m.Val.Fields {
		switch f.Key {
		case "value":
			value = f.Val
		case "lower_value":
			lower = f.Val
		case "upper_value":
			upper = f.Val
		default:
			probs = append(probs, problem(file, f.Line, "benchmark %q, measure %q: unknown field %q ignored", bench, m.Key, f.Key))
		}
	}
	if value == nil {
		return 0, false, append(probs, problem(file, m.Val.Line, "benchmark %q, measure %q: no value; skipped", bench, m.Key))
	}
	v, msg := finite(value)
	if msg == "" && v < 0 && model.IsTimeOrSize(unit) {
		msg = fmt.Sprintf("is negative (%v) for unit %q", v, unit)
	}
	if msg != "" {
		return 0, false, append(probs, problem(file, value.Line, "benchmark %q, measure %q: value %s; skipped", bench, m.Key, msg))
	}
	for _, bound := range []struct {
		name  string
		n     *readkit.Node
		wrong func(b float64) bool
		side  string
	}{
		{"lower_value", lower, func(b float64) bool { return b > v }, "above"},
		{"upper_value", upper, func(b float64) bool { return b < v }, "below"},
	} {
		if bound.n == nil || bound.n.Kind == readkit.Null {
			continue
		}
		b, msg := finite(bound.n)
		switch {
		case msg != "":
			probs = append(probs, problem(file, bound.n.Line, "benchmark %q, measure %q: %s %s; ignored", bench, m.Key, bound.name, msg))
		case bound.wrong(b):
			probs = append(probs, problem(file, bound.n.Line, "benchmark %q, measure %q: %s %v is %s the value %v", bench, m.Key, bound.name, b, bound.side, v))
		}
	}
	return v, true, probs
}

// sniffBMF looks at the first measure of the first benchmark only: an
// object of objects of objects whose keys are value, lower_value and
// upper_value, with numbers. Criterion's estimates.json (objects of
// objects without "value"), Google Benchmark's and pytest-benchmark's
// context objects (strings inside) and github-action-benchmark's data
// (a number first) all fail it.
func sniffBMF(in Input) bool {
	root := sniffJSON(in.Name, bytes.TrimPrefix(in.Data, utf8BOM), sniffWindow)
	bench := firstValue(root)
	measure := firstValue(bench)
	if measure == nil || measure.Kind != readkit.Map || measure.Partial || len(measure.Fields) > 3 {
		return false
	}
	value := false
	for _, f := range measure.Fields {
		switch f.Key {
		case "value":
			value = true
		case "lower_value", "upper_value":
		default:
			return false
		}
		if !f.Val.IsNumber() || math.IsInf(f.Val.Float, 0) {
			return false
		}
	}
	return value
}

// firstValue is the value of the first member of an object, or nil.
func firstValue(n *readkit.Node) *readkit.Node {
	if n == nil || n.Kind != readkit.Map || len(n.Fields) == 0 {
		return nil
	}
	return n.Fields[0].Val
}

var utf8BOM = []byte("\xef\xbb\xbf")

// trailing reports the line of any text after the value that ends at
// end, other than space and, when semicolon is set, one ';' (data.js).
func trailing(data []byte, end int, semicolon bool) (int, bool) {
	rest := data[min(max(end, 0), len(data)):]
	trimmed := bytes.TrimLeft(rest, " \t\r\n")
	if semicolon {
		if t, ok := bytes.CutPrefix(trimmed, []byte(";")); ok {
			trimmed = bytes.TrimLeft(t, " \t\r\n")
		}
	}
	if len(trimmed) == 0 {
		return 0, false
	}
	return readkit.LineAt(data, len(data)-len(trimmed)), true
}

// finite is the finite number n holds; msg says what is wrong otherwise.
func finite(n *readkit.Node) (float64, string) {
	if !n.IsNumber() {
		return 0, "must be a number, found " + n.Describe()
	}
	if math.IsInf(n.Float, 0) {
		return 0, fmt.Sprintf("%s is out of range", n.Text)
	}
	return n.Float, ""
}
