package foreign

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// criterion reads a Criterion.rs output folder, `target/criterion/` (the
// files Criterion's src/analysis/mod.rs writes). Every folder holding
// new/benchmark.json, at any depth, is one benchmark; its new/ files are
// the latest run. base/ and named baselines (copies of an earlier new/),
// change/ (the comparison Criterion made) and report/ (HTML, SVG) are not
// read: the analysis recomputes comparisons from the samples.
//
// Both layouts Criterion has written are read:
//
//   - current (0.3.3 and later): sample.json is {"sampling_mode": "Linear" |
//     "Flat", "iters": […], "times": […]} and estimates.json is keyed
//     "mean", "median", "median_abs_dev", "slope", "std_dev";
//   - legacy (0.3.2 and earlier): sample.json is [[iters…], [times…]] and
//     estimates.json is keyed "Mean", "Median", "MedianAbsDev", "Slope",
//     "StdDev".
//
// benchmark.json ({"group_id", "function_id", "value_str", "throughput",
// …}) names the test case: group_id is the benchmark, function_id and
// value_str become the params "function" and "value" when present.
//
// Results of one benchmark:
//
//   - wall-time (unit "ns"): one sample per Criterion sample, times[i] /
//     iters[i] (nanoseconds per iteration), with Iters = iters, so that the
//     Criterion analysis (slope over linear sampling) can run on them;
//   - throughput: when benchmark.json declares one, n / (seconds per
//     iteration) per sample, in "B/s" ({"Bytes": n}, {"BytesDecimal": n}),
//     "bit/s" ({"Bits": n}) or "elements/s" ({"Elements": n});
//     {"ElementsAndBytes": {"elements": e, "bytes": b}} gives throughput in
//     B/s and throughput-elements in elements/s. A kind this reader does
//     not know is kept, its unit being the lower-cased kind + "/s", with a
//     warning.
//
// A benchmark measured with a custom Criterion measurement (not wall time)
// is recognised by new/raw.csv (written with Criterion's csv_output
// feature), whose unit column then is not "ns": its samples come from
// raw.csv (sample_measured_value / iteration_count, in that unit), the
// metric is named after the unit and lower is better, as Criterion judges
// every measurement; no throughput is derived from it.
//
// When sample.json is missing or broken, the only values left are
// estimates.json's aggregates: the typical estimate (the slope when there
// is one, else the mean, as cargo-criterion reports it) becomes the single
// wall-time sample, without Iters, and a warning says so.
//
// A missing or broken file of one benchmark is a problem of that benchmark
// only; the folder is unusable (Fatal) only when no benchmark can be read.
// The folder records no commit, date or machine: the run's artifact,
// machine and context come from Defaults.
var criterionFormat = Format{Name: "criterion", Dir: true, Read: readCriterion, Sniff: sniffCriterion}

func init() { register(criterionFormat) }

// criterionIDFile is the file that makes a folder a Criterion benchmark.
const criterionIDFile = "new/benchmark.json"

// criterionDir returns the benchmark folder ("" for the input's root, else
// ending in "/") of a file's relative path, when the file is new/<base> of
// a benchmark.
func criterionDir(rel, base string) (string, bool) {
	f := "new/" + base
	if rel == f {
		return "", true
	}
	if strings.HasSuffix(rel, "/"+f) {
		return strings.TrimSuffix(rel, f), true
	}
	return "", false
}

// sniffCriterion accepts a folder holding a <benchmark>/new/benchmark.json
// that mentions group_id.
func sniffCriterion(in Input) bool {
	for rel, data := range in.Files {
		if _, ok := criterionDir(rel, "benchmark.json"); ok && bytes.Contains(data, []byte(`"group_id"`)) {
			return true
		}
	}
	return false
}

// criterionName is how problems name a file of the input.
func criterionName(in Input, rel string) string {
	if in.Name == "" {
		return rel
	}
	return strings.TrimSuffix(in.Name, "/") + "/" + rel
}

func readCriterion(in Input, def Defaults) ([]model.Run, []archive.Problem) {
	if in.Files == nil {
		return nil, []archive.Problem{fatal(in.Name, 0, "a Criterion result is a folder (target/criterion), not a file")}
	}
	var dirs []string
	orphans := map[string]bool{}
	for rel := range in.Files {
		if d, ok := criterionDir(rel, "benchmark.json"); ok {
			dirs = append(dirs, d)
			continue
		}
		for _, base := range []string{"sample.json", "estimates.json"} {
			if d, ok := criterionDir(rel, base); ok {
				if _, ok := in.Files[d+criterionIDFile]; !ok {
					orphans[d] = true
				}
			}
		}
	}
	slices.Sort(dirs)
	var problems []archive.Problem
	for _, d := range criterionSortedKeys(orphans) {
		problems = append(problems, problem(criterionName(in, d+criterionIDFile), 0, "missing: the benchmark's samples cannot be named, so it is skipped"))
	}
	if len(dirs) == 0 {
		problems = append(problems, fatal(in.Name, 0, "no Criterion benchmark in the folder (no <benchmark>/%s)", criterionIDFile))
		return nil, problems
	}

	var results []model.Result
	seen := map[string]string{} // test case → folder that gave it
	for _, d := range dirs {
		rs, ps := readCriterionBenchmark(in, d)
		problems = append(problems, ps...)
		if len(rs) == 0 {
			continue
		}
		key := rs[0].Case.String()
		if prev, ok := seen[key]; ok {
			problems = append(problems, problem(criterionName(in, d+criterionIDFile), 0, "benchmark %q is also in %s; this copy is skipped", key, criterionName(in, prev+criterionIDFile)))
			continue
		}
		seen[key] = d
		results = append(results, rs...)
	}
	if len(results) == 0 {
		problems = append(problems, fatal(in.Name, 0, "none of the %d Criterion benchmarks could be read", len(dirs)))
		return nil, problems
	}
	run := model.Run{
		Artifact: def.Artifact,
		Machine:  def.Machine,
		Context:  def.Context,
		Results:  results,
	}
	return []model.Run{run}, problems
}

// criterionID is new/benchmark.json. Criterion writes further fields
// (full_id, directory_name, title) that are derived from these.
type criterionID struct {
	GroupID    *string       `json:"group_id"`
	FunctionID *string       `json:"function_id"`
	ValueStr   *string       `json:"value_str"`
	Throughput *readkit.Node `json:"throughput"`
}

// criterionSampleFile is the current layout of new/sample.json.
type criterionSampleFile struct {
	SamplingMode *string   `json:"sampling_mode"`
	Iters        []float64 `json:"iters"`
	Times        []float64 `json:"times"`
}

// criterionEstimates holds the two estimates of new/estimates.json the
// reader can use. readkit.Decode matches keys case-insensitively, as
// encoding/json does, so the legacy "Mean" and "Slope" land here too.
type criterionEstimates struct {
	Mean  *criterionEstimate `json:"mean"`
	Slope *criterionEstimate `json:"slope"`
}

type criterionEstimate struct {
	PointEstimate *float64 `json:"point_estimate"`
}

// criterionMeasured is what one benchmark's samples are.
type criterionMeasured struct {
	metric, unit string
	samples      []float64
	iters        []float64
	custom       bool // a custom measurement, not wall time
}

// readCriterionBenchmark reads the new/ files of the benchmark in folder
// dir. It returns no results when the benchmark cannot be used.
func readCriterionBenchmark(in Input, dir string) ([]model.Result, []archive.Problem) {
	rel := func(base string) string { return dir + "new/" + base }
	name := func(base string) string { return criterionName(in, rel(base)) }

	idFile := name("benchmark.json")
	idData := in.Files[rel("benchmark.json")]
	var id criterionID
	idRoot, p, ok := criterionDecode(idFile, idData, &id)
	if !ok {
		return nil, []archive.Problem{p}
	}
	if id.GroupID == nil || *id.GroupID == "" {
		return nil, []archive.Problem{problem(idFile, 0, "no group_id: the benchmark has no name, so it is skipped")}
	}
	params := map[string]string{}
	if id.FunctionID != nil && *id.FunctionID != "" {
		params["function"] = *id.FunctionID
	}
	if id.ValueStr != nil && *id.ValueStr != "" {
		params["value"] = *id.ValueStr
	}
	tc := model.TestCase{Benchmark: *id.GroupID, Params: model.NewParams(params)}

	var problems []archive.Problem
	m, ok := criterionCustom(name("raw.csv"), in.Files[rel("raw.csv")], &problems)
	if !ok {
		m, ok = criterionSamples(name("sample.json"), in.Files[rel("sample.json")], &problems)
	}
	if !ok {
		m, ok = criterionTypical(name("estimates.json"), in.Files[rel("estimates.json")], &problems)
		if ok {
			problems = append(problems, problem(name("sample.json"), 0, "missing or unusable: the typical estimate of estimates.json is the benchmark's one sample"))
		}
	}
	if !ok {
		problems = append(problems, problem(idFile, 0, "benchmark %q has no usable sample.json or estimates.json, so it is skipped", tc.String()))
		return nil, problems
	}
	results := []model.Result{{Case: tc, Metric: m.metric, Unit: m.unit, Samples: m.samples, Iters: m.iters}}
	if m.custom {
		results[0].Direction = model.LowerIsBetter
		return results, problems
	}
	rates, warn := criterionThroughput(idData, id.Throughput)
	if warn != "" {
		_, line := idRoot.Lookup("throughput")
		problems = append(problems, problem(idFile, line, "%s", warn))
	}
rates:
	for _, r := range rates {
		samples := make([]float64, len(m.samples))
		for i, ns := range m.samples {
			samples[i] = r.n * 1e9 / ns
			if math.IsInf(samples[i], 0) {
				problems = append(problems, problem(idFile, 0, "%s: %v per %v ns is beyond any number; not kept", r.metric, r.n, ns))
				continue rates
			}
		}
		results = append(results, model.Result{Case: tc, Metric: r.metric, Unit: r.unit, Samples: samples})
	}
	return results, problems
}

// criterionSamples reads new/sample.json in either layout into wall-time
// samples in ns per iteration. A problem is added when the file is there
// but unusable.
func criterionSamples(file string, data []byte, problems *[]archive.Problem) (criterionMeasured, bool) {
	if data == nil {
		return criterionMeasured{}, false
	}
	var iters, times []float64
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		var legacy [][]float64
		if _, p, ok := criterionDecode(file, data, &legacy); !ok {
			*problems = append(*problems, p)
			return criterionMeasured{}, false
		}
		if len(legacy) != 2 {
			*problems = append(*problems, problem(file, 1, "want [[iters…], [times…]], got an array of %d arrays", len(legacy)))
			return criterionMeasured{}, false
		}
		iters, times = legacy[0], legacy[1]
	} else {
		var cur criterionSampleFile
		root, p, ok := criterionDecode(file, data, &cur)
		if !ok {
			*problems = append(*problems, p)
			return criterionMeasured{}, false
		}
		if mode := cur.SamplingMode; mode != nil && *mode != "Linear" && *mode != "Flat" {
			_, line := root.Lookup("sampling_mode")
			*problems = append(*problems, problem(file, line, "unknown sampling_mode %q (want Linear or Flat); samples read all the same", *mode))
		}
		iters, times = cur.Iters, cur.Times
	}
	if len(times) == 0 {
		*problems = append(*problems, problem(file, 0, "no samples"))
		return criterionMeasured{}, false
	}
	if len(iters) != len(times) {
		*problems = append(*problems, problem(file, 0, "%d iteration counts for %d times", len(iters), len(times)))
		return criterionMeasured{}, false
	}
	samples := make([]float64, len(times))
	for i := range times {
		if err := criterionPositive(iters[i]); err != nil {
			*problems = append(*problems, problem(file, 0, "sample %d: iteration count %v %v", i, iters[i], err))
			return criterionMeasured{}, false
		}
		if err := criterionPositive(times[i]); err != nil {
			*problems = append(*problems, problem(file, 0, "sample %d: time %v %v", i, times[i], err))
			return criterionMeasured{}, false
		}
		samples[i] = times[i] / iters[i]
		if err := criterionPositive(samples[i]); err != nil {
			*problems = append(*problems, problem(file, 0, "sample %d: time per iteration %v / %v %v", i, times[i], iters[i], err))
			return criterionMeasured{}, false
		}
	}
	return criterionMeasured{metric: "wall-time", unit: "ns", samples: samples, iters: iters}, true
}

// criterionTypical reads the typical estimate of new/estimates.json (the
// slope, else the mean) as a single wall-time sample.
func criterionTypical(file string, data []byte, problems *[]archive.Problem) (criterionMeasured, bool) {
	if data == nil {
		*problems = append(*problems, problem(file, 0, "missing"))
		return criterionMeasured{}, false
	}
	var est criterionEstimates
	if _, p, ok := criterionDecode(file, data, &est); !ok {
		*problems = append(*problems, p)
		return criterionMeasured{}, false
	}
	for _, e := range []*criterionEstimate{est.Slope, est.Mean} {
		if e == nil || e.PointEstimate == nil {
			continue
		}
		if err := criterionPositive(*e.PointEstimate); err != nil {
			*problems = append(*problems, problem(file, 0, "point estimate %v %v", *e.PointEstimate, err))
			return criterionMeasured{}, false
		}
		return criterionMeasured{metric: "wall-time", unit: "ns", samples: []float64{*e.PointEstimate}}, true
	}
	*problems = append(*problems, problem(file, 0, "neither a slope nor a mean point_estimate"))
	return criterionMeasured{}, false
}

// criterionCustom reads new/raw.csv when it shows a custom measurement:
// a unit other than ns. ok is false when the file is absent, measures wall
// time (sample.json is then read, as it holds the same values unrounded),
// or is unusable (with a warning).
func criterionCustom(file string, data []byte, problems *[]archive.Problem) (criterionMeasured, bool) {
	if data == nil {
		return criterionMeasured{}, false
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	if err != nil {
		line := 0
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			line, err = pe.Line, pe.Err
		}
		*problems = append(*problems, problem(file, line, "unreadable CSV (%v); the samples come from sample.json", err))
		return criterionMeasured{}, false
	}
	if len(records) < 2 {
		return criterionMeasured{}, false
	}
	col := map[string]int{}
	for i, h := range records[0] {
		col[h] = i
	}
	ui, uok := col["unit"]
	vi, vok := col["sample_measured_value"]
	ii, iok := col["iteration_count"]
	if !uok {
		// The older header (sample_time_nanos) is wall time.
		return criterionMeasured{}, false
	}
	if !vok || !iok {
		*problems = append(*problems, problem(file, 1, "header lacks sample_measured_value or iteration_count; the samples come from sample.json"))
		return criterionMeasured{}, false
	}
	rows := records[1:]
	unit := ""
	if len(rows[0]) > ui {
		unit = rows[0][ui]
	}
	if unit == "ns" {
		return criterionMeasured{}, false
	}
	if unit == "" {
		*problems = append(*problems, problem(file, 2, "empty unit; the samples come from sample.json"))
		return criterionMeasured{}, false
	}
	m := criterionMeasured{metric: unit, unit: unit, custom: true}
	for i, row := range rows {
		line := i + 2
		if len(row) <= max(ui, vi, ii) {
			*problems = append(*problems, problem(file, line, "%d fields, want at least %d; the samples come from sample.json", len(row), max(ui, vi, ii)+1))
			return criterionMeasured{}, false
		}
		if row[ui] != unit {
			*problems = append(*problems, problem(file, line, "unit %q after %q; the samples come from sample.json", row[ui], unit))
			return criterionMeasured{}, false
		}
		v, err1 := strconv.ParseFloat(row[vi], 64)
		n, err2 := strconv.ParseFloat(row[ii], 64)
		if err := errors.Join(err1, err2, criterionPositive(v), criterionPositive(n)); err != nil {
			*problems = append(*problems, problem(file, line, "bad sample %q × %q; the samples come from sample.json", row[vi], row[ii]))
			return criterionMeasured{}, false
		}
		m.samples = append(m.samples, v/n)
		m.iters = append(m.iters, n)
	}
	*problems = append(*problems, problem(file, 2, "custom measurement in unit %q (not wall time): kept as metric %q, lower is better", unit, unit))
	return m, true
}

// criterionRate is one throughput metric: n units per iteration.
type criterionRate struct {
	metric, unit string
	n            float64
}

// criterionThroughput reads benchmark.json's throughput, a value of the
// file data. warn is set when it is there but not fully understood.
func criterionThroughput(data []byte, n *readkit.Node) (rates []criterionRate, warn string) {
	if n == nil || n.Kind == readkit.Null {
		return nil, ""
	}
	var kinds map[string]*readkit.Node
	if err := readkit.Decode(n, &kinds); err != nil || len(kinds) != 1 {
		return nil, fmt.Sprintf("throughput %s is not one of {\"Bytes\": n}, {\"BytesDecimal\": n}, {\"Bits\": n}, {\"Elements\": n}, {\"ElementsAndBytes\": {…}}; only wall-time is kept", criterionShort(data, n))
	}
	for kind, v := range kinds {
		if kind == "ElementsAndBytes" {
			var both struct {
				Elements *float64 `json:"elements"`
				Bytes    *float64 `json:"bytes"`
			}
			if readkit.Decode(v, &both) != nil || both.Elements == nil || both.Bytes == nil ||
				criterionCount(*both.Elements) != nil || criterionCount(*both.Bytes) != nil {
				return nil, fmt.Sprintf("throughput ElementsAndBytes %s: want {\"elements\": n, \"bytes\": m} with counts; only wall-time is kept", criterionShort(data, v))
			}
			return []criterionRate{{"throughput", "B/s", *both.Bytes}, {"throughput-elements", "elements/s", *both.Elements}}, ""
		}
		var n float64
		if err := readkit.Decode(v, &n); err != nil || criterionCount(n) != nil {
			return nil, fmt.Sprintf("throughput %s %s is not a count; only wall-time is kept", kind, criterionShort(data, v))
		}
		switch kind {
		case "Bytes", "BytesDecimal":
			return []criterionRate{{"throughput", "B/s", n}}, ""
		case "Bits":
			return []criterionRate{{"throughput", "bit/s", n}}, ""
		case "Elements":
			return []criterionRate{{"throughput", "elements/s", n}}, ""
		}
		unit := strings.ToLower(kind) + "/s"
		return []criterionRate{{"throughput", unit, n}}, fmt.Sprintf("unknown throughput kind %q: kept as unit %q", kind, unit)
	}
	return nil, ""
}

// criterionDecode parses a JSON file into v and returns its tree, or a
// problem naming the file and line.
func criterionDecode(file string, data []byte, v any) (*readkit.Node, archive.Problem, bool) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, problem(file, 0, "empty file"), false
	}
	root, _, perr := parseJSON(file, data, readkit.JSONOptions{Duplicates: true})
	if perr != nil {
		se, line, ok := jsonSyntax(perr, data)
		switch {
		case !ok:
			return nil, *perr, false
		case se.Truncated:
			return nil, problem(file, line, "invalid JSON: truncated JSON"), false
		}
		return nil, problem(file, line, "invalid JSON: %s", se.Msg), false
	}
	err := readkit.Decode(root, v)
	var te *readkit.TypeError
	switch {
	case errors.As(err, &te):
		where := ""
		if te.Field != "" {
			where = fmt.Sprintf("field %q: ", te.Field)
		}
		return nil, problem(file, te.Line, "%sa JSON %s where %s belongs", where, te.Value, criterionKind(te.Type)), false
	case err != nil:
		return nil, problem(file, 0, "invalid JSON: %v", err), false
	}
	return root, archive.Problem{}, true
}

// criterionKind names a Go type as the JSON value it decodes.
func criterionKind(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Float64, reflect.Float32, reflect.Int, reflect.Int64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.String()
}

// criterionPositive accepts the values the Criterion analysis can work
// with: positive numbers within [criterion.MinValue, criterion.MaxValue].
func criterionPositive(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		return errors.New("is not a positive number")
	}
	if x < criterion.MinValue || x > criterion.MaxValue {
		return fmt.Errorf("is outside %g to %g", criterion.MinValue, criterion.MaxValue)
	}
	return nil
}

func criterionCount(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return errors.New("is not a count")
	}
	return nil
}

// criterionShort quotes at most 60 bytes of a value of data for a
// message.
func criterionShort(data []byte, n *readkit.Node) string {
	s := readkit.Source(data, n)
	if len(s) > 60 {
		s = strings.ToValidUTF8(s[:60], "") + "…"
	}
	return s
}

func criterionSortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
