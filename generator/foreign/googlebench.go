package foreign

// Google Benchmark JSON (`--benchmark_format=json`, or `--benchmark_out=F
// --benchmark_out_format=json`), as Google Benchmark's
// src/json_reporter.cc writes it.
//
// The mapping:
//
//   - Rows are grouped by run_name (the row name without an aggregate
//     suffix); every run_type "iteration" row of a group is one repetition
//     and gives one sample of each metric. Aggregate rows (_mean, _median,
//     _stddev, _cv, user statistics, BigO, RMS) are never samples, with one
//     exception: a benchmark that has only aggregate rows (a run with
//     --benchmark_report_aggregates_only=true) gets its "median" row (else
//     its "mean" row) as a single sample, with a warning, because that is
//     all the file says about it.
//   - real_time → metric "wall-time", cpu_time → "cpu-time", both in the
//     row's time_unit (ns, us, ms or s; another unit is kept and warned
//     about).
//   - bytes_per_second → "throughput" in "B/s" and items_per_second →
//     "throughput" in "items/s"; a benchmark that reports both keeps
//     "throughput" for bytes and calls the items metric "items_per_second",
//     so the two never collide in one series.
//   - Every other numeric key is a user counter (or a memory-manager value)
//     and becomes a metric of its own name. The JSON does not record a
//     counter's flags, so its unit is "" and its direction is left to the
//     configuration ([metrics."name"]); max_bytes_used and
//     total_allocated_bytes are bytes ("B").
//   - The name `BM_foo/8/64` is benchmark BM_foo with params arg1=8,
//     arg2=64; named arguments (`BM_foo/len:8`) keep their names; the
//     suffixes Google Benchmark appends are params under its own names:
//     threads, time_type (real_time, manual_time, process_time),
//     iterations, repeats, min_time, min_warmup_time.
//   - Result.Iters stays empty: the repetitions are independent runs of
//     a count Google Benchmark chose once, not Criterion's linear sampling,
//     so they are compared with the Mann–Whitney U test like Go's.
//   - error_occurred rows set Result.Error to error_message (skipped rows
//     of newer releases to "skipped: " + skip_message); the samples of the
//     repetitions that did run are kept beside the error.
//   - The context gives the machine (host_name → name, num_cpus → cores,
//     mhz_per_cpu → cpu "N MHz"), the artifact date (date, in UTC) and the
//     run context library_build_type (a debug build of the library times
//     differently, so its results are a series of their own). What the
//     caller's Defaults set wins over all of these.
//
// Google Benchmark writes NaN and ±Infinity as bare tokens, which are not
// JSON: they are read as such and reported as invalid samples.

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

func init() {
	register(Format{Name: "googlebench", Read: readGooglebench, Sniff: sniffGooglebench})
}

// sniffGooglebench accepts a JSON object with a "benchmarks" list and
// Google Benchmark's context keys or row keys, in the first 64 KiB.
func sniffGooglebench(in Input) bool {
	data := bytes.TrimPrefix(in.Data, []byte("\uFEFF"))
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	if len(data) > 64<<10 {
		data = data[:64<<10]
	}
	has := func(key string) bool { return bytes.Contains(data, []byte(`"`+key+`"`)) }
	if !has("benchmarks") {
		return false
	}
	return has("mhz_per_cpu") || has("library_build_type") ||
		has("real_time") && has("cpu_time") && has("time_unit")
}

// gbRow is one element of "benchmarks".
type gbRow struct {
	line      int
	name      string // run_name: the benchmark instance
	aggregate string // aggregate_name; "" for an iteration row
	repIndex  int    // repetition_index, -1 when absent
	instance  string // family_index/per_family_instance_index, "" when absent
	timeUnit  string
	real, cpu float64
	hasTimes  bool
	errText   string
	counters  []gbCounter
}

type gbCounter struct {
	name string
	val  float64
	line int
}

// gbGroup gathers the rows of one run_name.
type gbGroup struct {
	name     string
	line     int
	instance string
	iters    []gbRow
	aggs     map[string]gbRow // mean and median rows, by aggregate name
	reps     map[int]bool
	errText  string
}

type gbReader struct {
	file     string
	data     []byte
	problems []archive.Problem
	dropped  int // warnings past maxProblems
	warned   map[string]bool
}

func (r *gbReader) warn(line int, format string, args ...any) {
	if !full(r.problems, &r.dropped) {
		r.problems = append(r.problems, problem(r.file, line, format, args...))
	}
}

// warnOnce reports a problem of a kind once per file.
func (r *gbReader) warnOnce(kind string, line int, format string, args ...any) {
	if r.warned[kind] {
		return
	}
	r.warned[kind] = true
	r.warn(line, format, args...)
}

func (r *gbReader) fail(line int, format string, args ...any) ([]model.Run, []archive.Problem) {
	r.problems = append(r.problems, fatal(r.file, line, format, args...))
	return nil, r.problems
}

func readGooglebench(in Input, def Defaults) (_ []model.Run, problems []archive.Problem) {
	data := bytes.TrimPrefix(in.Data, []byte("\uFEFF"))
	r := &gbReader{file: in.Name, data: data, warned: map[string]bool{}}
	defer func() { problems = withDropped(problems, r.file, r.dropped) }()
	// Text after the object is not looked at; a file cut short keeps
	// the benchmarks before the cut.
	root, _, perr := parseJSON(in.Name, data, readkit.JSONOptions{Trailing: true, Duplicates: true, NonFinite: true, Partial: true})
	var syntax string // what is wrong with a file cut short
	syntaxLine := 0
	if perr != nil {
		se, line, ok := jsonSyntax(perr, data)
		switch {
		case !ok:
			return r.fail(perr.Line, "%s", perr.Msg)
		case root == nil:
			return r.fail(line, "not JSON: %s", gbSyntax(se))
		}
		syntax, syntaxLine = gbSyntax(se), line
	}
	if root.Kind != readkit.Map {
		return r.fail(1, "not a Google Benchmark JSON file: want an object with \"context\" and \"benchmarks\"")
	}
	var (
		run        model.Run
		sawContext bool
		entries    int
		rows       []gbRow
		sawList    bool
		listLine   int
		seen       = map[string]bool{}
	)
top:
	for _, f := range root.Fields {
		key, v := f.Key, f.Val
		if seen[key] {
			r.warn(f.Line, "key %q repeated at the top of the file; the first is kept", key)
			key = ""
		}
		seen[key] = true
		switch key {
		case "benchmarks":
			listLine = f.Line
			if v.Kind != readkit.List {
				r.warn(f.Line, "\"benchmarks\" is not a list")
				if v.Kind == readkit.Map {
					syntax = "" // the reading stops here
					break top
				}
				continue
			}
			sawList = true
			for _, e := range v.Elems() {
				if e.Partial {
					break
				}
				entries++
				if row, ok := r.row(e); ok {
					rows = append(rows, row)
				}
			}
			if v.Partial {
				syntax += "; the benchmarks before it are kept"
			}
		case "context":
			if v.Partial {
				break top
			}
			if v.Kind != readkit.Map {
				r.warn(f.Line, "\"context\" is not an object; ignored")
			}
			if !sawContext {
				run, sawContext = r.run(v.Fields, def), true
			}
		}
	}
	if syntax != "" {
		r.warn(syntaxLine, "%s", syntax)
	}
	if !sawList {
		return r.fail(0, "no \"benchmarks\" list: not a Google Benchmark JSON file")
	}
	results := r.results(rows)
	if len(results) == 0 {
		if entries == 0 {
			return r.fail(listLine, "no benchmarks in the file")
		}
		return r.fail(listLine, "no usable benchmark results")
	}
	if !sawContext {
		run = r.run(nil, def)
	}
	run.Results = results
	return []model.Run{run}, r.problems
}

// run builds the run's artifact, machine and context from the file's
// context, letting what the caller set win.
func (r *gbReader) run(ctx []readkit.Field, def Defaults) model.Run {
	run := model.Run{Artifact: def.Artifact, Machine: def.Machine}
	run.Artifact.Parents = slices.Clone(def.Artifact.Parents)
	run.Machine.Labels = slices.Clone(def.Machine.Labels)
	context := map[string]string{}
	for _, kv := range def.Context {
		context[kv.Key] = kv.Value
	}
	for _, m := range ctx {
		switch m.Key {
		case "date":
			s, ok := r.str(m, "context")
			if !ok || !run.Artifact.Date.IsZero() {
				continue
			}
			t, zoned, err := gbParseDate(s)
			switch {
			case err != nil:
				r.warn(m.Line, "context date %q: not a date; ignored", s)
			case !zoned:
				r.warn(m.Line, "context date %q has no time zone; taken as UTC", s)
				run.Artifact.Date = t
			default:
				run.Artifact.Date = t
			}
		case "host_name":
			if s, ok := r.str(m, "context"); ok && run.Machine.Name == "" {
				run.Machine.Name = s
			}
		case "num_cpus":
			if n, ok := r.count(m); ok && run.Machine.Cores == 0 {
				run.Machine.Cores = n
			}
		case "mhz_per_cpu":
			if n, ok := r.count(m); ok && run.Machine.CPU == "" && n > 0 {
				run.Machine.CPU = strconv.Itoa(n) + " MHz"
			}
		case "library_build_type":
			if s, ok := r.str(m, "context"); ok && s != "" {
				if _, set := context[m.Key]; !set {
					context[m.Key] = s
				}
			}
		}
	}
	run.Context = model.NewParams(context)
	return run
}

// str reads a string member (null is ""), reporting another type.
func (r *gbReader) str(m readkit.Field, where string) (string, bool) {
	s, ok := gbString(m.Val)
	if !ok {
		r.warn(m.Line, "%s %q: want a string, got %s; ignored", where, m.Key, jsonKind(m.Val))
	}
	return s, ok
}

// gbString is a string value; null is "".
func gbString(n *readkit.Node) (string, bool) {
	switch n.Kind {
	case readkit.String:
		return n.Text, true
	case readkit.Null:
		return "", true
	}
	return "", false
}

// count reads a non-negative integer member of the context (null is 0).
func (r *gbReader) count(m readkit.Field) (int, bool) {
	f, ok := 0.0, m.Val.Kind == readkit.Null
	if m.Val.IsNumber() && !math.IsInf(m.Val.Float, 0) {
		f, ok = m.Val.Float, true
	}
	if !ok || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		r.warn(m.Line, "context %q: want a non-negative integer, got %s; ignored", m.Key, r.show(m.Val))
		return 0, false
	}
	return int(f), true
}

// gbAggregateSuffixes are the statistics Google Benchmark appends to
// aggregate rows' names; used only by files old enough to lack run_type.
var gbAggregateSuffixes = []string{"mean", "median", "stddev", "cv"}

// row decodes one element of "benchmarks"; it reports what is wrong and
// returns false for rows that cannot be used.
func (r *gbReader) row(e *readkit.Node) (gbRow, bool) {
	line := e.Line
	if e.Kind != readkit.Map {
		r.warn(line, "benchmark entry is not an object (got %s); skipped", jsonKind(e))
		return gbRow{line: line, repIndex: -1}, false
	}
	// Declared here, not above: it escapes, and a list of a million
	// numbers should not cost a million rows.
	row := gbRow{line: line, repIndex: -1}
	var (
		name, runName, runType string
		realV, cpuV            *float64
		errOccurred, skipped   bool
		errMsg, skipMsg        string
		family, instance       = -1, -1
		bad                    *readkit.Field // the first field that makes the row unusable
		badWhy                 string
	)
	badField := func(m readkit.Field, why string) {
		if bad == nil {
			bad, badWhy = &m, why
		}
	}
	seen := map[string]bool{}
	for _, m := range e.Fields {
		if seen[m.Key] {
			r.warn(m.Line, "key %q repeated in one benchmark entry; the first is kept", m.Key)
			continue
		}
		seen[m.Key] = true
		text := func(dst *string) {
			s, ok := gbString(m.Val)
			switch {
			case ok && m.Val.Kind == readkit.String:
				*dst = s
			case ok:
			case m.Key == "name", m.Key == "run_name", m.Key == "run_type", m.Key == "time_unit":
				badField(m, "want a string, got "+jsonKind(m.Val))
			default:
				r.warn(m.Line, "%q: want a string, got %s; ignored", m.Key, jsonKind(m.Val))
			}
		}
		integer := func(dst *int) {
			f, ok := gbNumber(m.Val)
			if !ok || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
				r.warn(m.Line, "%q: want a non-negative integer, got %s; ignored", m.Key, r.show(m.Val))
				return
			}
			*dst = int(f)
		}
		flag := func(dst *bool) {
			switch m.Val.Kind {
			case readkit.Bool:
				*dst = m.Val.Bool
			case readkit.Null:
			default:
				r.warn(m.Line, "%q: want true or false, got %s; taken as true", m.Key, r.show(m.Val))
				*dst = true
			}
		}
		switch m.Key {
		case "name":
			text(&name)
		case "run_name":
			text(&runName)
		case "run_type":
			text(&runType)
		case "aggregate_name":
			text(&row.aggregate)
		case "time_unit":
			text(&row.timeUnit)
		case "error_message":
			text(&errMsg)
		case "skip_message":
			text(&skipMsg)
		case "error_occurred":
			flag(&errOccurred)
		case "skipped":
			flag(&skipped)
		case "repetition_index":
			integer(&row.repIndex)
		case "family_index":
			integer(&family)
		case "per_family_instance_index":
			integer(&instance)
		case "real_time", "cpu_time":
			f, ok := gbNumber(m.Val)
			if !ok {
				badField(m, "want a number, got "+r.show(m.Val))
				continue
			}
			if m.Key == "real_time" {
				realV = &f
			} else {
				cpuV = &f
			}
		case "label", "aggregate_unit", "big_o", "repetitions", "threads", "iterations",
			"cpu_coefficient", "real_coefficient", "rms":
			// Descriptive fields: a row's label is free text that may change
			// from run to run; the others are repeated in the name or are
			// not measurements.
		default:
			f, ok := gbNumber(m.Val)
			if !ok {
				r.warnOnce("key "+m.Key, m.Line, "unknown key %q (%s) ignored", m.Key, jsonKind(m.Val))
				continue
			}
			row.counters = append(row.counters, gbCounter{name: m.Key, val: f, line: m.Line})
		}
	}
	if bad != nil {
		who := runName
		if who == "" {
			who = name
		}
		if who != "" {
			who += ": "
		}
		r.warn(bad.Line, "%s%q: %s; entry skipped", who, bad.Key, badWhy)
		return row, false
	}
	if runName == "" {
		runName = name
		if row.aggregate != "" {
			runName = strings.TrimSuffix(name, "_"+row.aggregate)
		}
	}
	if runType == "" && row.aggregate == "" {
		// Releases before run_type named aggregates only by a suffix.
		for _, s := range gbAggregateSuffixes {
			if base, ok := strings.CutSuffix(runName, "_"+s); ok && base != "" {
				runName, row.aggregate = base, s
				break
			}
		}
	}
	switch runType {
	case "", "iteration":
		if runType == "iteration" {
			row.aggregate = ""
		}
	case "aggregate":
		if row.aggregate == "" {
			row.aggregate = "?"
		}
	default:
		r.warn(row.line, "%s: unknown run_type %q; skipped", runName, runType)
		return row, false
	}
	row.name = runName
	if row.name == "" {
		r.warn(row.line, "benchmark entry without a name; skipped")
		return row, false
	}
	if family >= 0 && instance >= 0 {
		row.instance = strconv.Itoa(family) + "/" + strconv.Itoa(instance)
	}
	switch {
	case errOccurred:
		row.errText = errMsg
		if row.errText == "" {
			row.errText = "error occurred"
		}
	case skipped:
		row.errText = "skipped"
		if skipMsg != "" {
			row.errText += ": " + skipMsg
		}
	}
	if row.aggregate != "" && row.aggregate != "mean" && row.aggregate != "median" {
		return row, true // never read beyond its name
	}
	if row.errText == "" {
		if realV == nil || cpuV == nil {
			r.warn(row.line, "%s: entry without real_time and cpu_time; skipped", row.name)
			return row, false
		}
		row.real, row.cpu, row.hasTimes = *realV, *cpuV, true
		if row.timeUnit == "" {
			r.warnOnce("no unit", row.line, "%s: no time_unit; taken as ns (Google Benchmark's default)", row.name)
			row.timeUnit = "ns"
		}
	}
	return row, true
}

// results groups the rows by run name and turns each group into results.
func (r *gbReader) results(rows []gbRow) []model.Result {
	var groups []*gbGroup
	byName := map[string]*gbGroup{}
	for _, row := range rows {
		g := byName[row.name]
		if g == nil {
			g = &gbGroup{name: row.name, line: row.line, instance: row.instance, aggs: map[string]gbRow{}, reps: map[int]bool{}}
			byName[row.name] = g
			groups = append(groups, g)
		}
		if row.instance != "" && g.instance != "" && row.instance != g.instance {
			r.warn(row.line, "%s: duplicated benchmark name (first on line %d); this entry is skipped", row.name, g.line)
			continue
		}
		if row.aggregate != "" {
			if row.aggregate == "mean" || row.aggregate == "median" {
				if _, dup := g.aggs[row.aggregate]; dup {
					r.warn(row.line, "%s: duplicated %s aggregate; the first is kept", row.name, row.aggregate)
					continue
				}
				g.aggs[row.aggregate] = row
			}
			continue
		}
		if row.repIndex >= 0 {
			if g.reps[row.repIndex] {
				r.warn(row.line, "%s: repetition %d appears twice; this entry is skipped", row.name, row.repIndex)
				continue
			}
			g.reps[row.repIndex] = true
		}
		if row.errText != "" && g.errText == "" {
			g.errText = row.errText
		}
		if len(g.iters) > 0 && row.hasTimes && g.iters[0].hasTimes && row.timeUnit != g.iters[0].timeUnit {
			r.warn(row.line, "%s: time_unit %q differs from the first repetition's %q; this entry is skipped", row.name, row.timeUnit, g.iters[0].timeUnit)
			continue
		}
		g.iters = append(g.iters, row)
	}
	var (
		out      []model.Result
		aggsOnly []string
		aggsLine int
	)
	for _, g := range groups {
		if len(g.iters) == 0 {
			agg, ok := g.aggs["median"]
			if !ok {
				agg, ok = g.aggs["mean"]
			}
			if !ok {
				continue // only statistics such as BigO, RMS or stddev
			}
			if len(aggsOnly) == 0 {
				aggsLine = agg.line
			}
			aggsOnly = append(aggsOnly, g.name)
			agg.aggregate = ""
			g.iters = []gbRow{agg}
		}
		out = append(out, r.groupResults(g)...)
	}
	if len(aggsOnly) > 0 {
		r.warn(aggsLine, "%d benchmark(s) have only aggregate rows (--benchmark_report_aggregates_only?): their median (else mean) is used as a single sample: %s",
			len(aggsOnly), strings.Join(aggsOnly, ", "))
	}
	return out
}

// gbMetric collects the samples of one metric of a benchmark.
type gbMetric struct {
	key        string // the JSON key it comes from
	name, unit string
	samples    []float64
}

// gbKnownUnits are the time units Google Benchmark writes.
var gbKnownUnits = map[string]bool{"ns": true, "us": true, "ms": true, "s": true}

// groupResults turns the repetitions of one benchmark into one result per
// metric.
func (r *gbReader) groupResults(g *gbGroup) []model.Result {
	bench, params := gbSplitName(g.name)
	tc := model.TestCase{Benchmark: bench, Params: params, Category: model.Primary}
	unit := ""
	for _, row := range g.iters {
		if row.timeUnit != "" {
			unit = row.timeUnit
			break
		}
	}
	if unit != "" && !gbKnownUnits[unit] {
		r.warn(g.line, "%s: unknown time_unit %q; kept as it is", g.name, unit)
	}
	wall := &gbMetric{key: "real_time", name: "wall-time", unit: unit}
	cpu := &gbMetric{key: "cpu_time", name: "cpu-time", unit: unit}
	counters := map[string]*gbMetric{}
	var counterNames []string
	for _, row := range g.iters {
		if row.errText != "" {
			continue
		}
		if row.hasTimes {
			r.sample(g.name, wall, row.real, row.line, true)
			r.sample(g.name, cpu, row.cpu, row.line, true)
		}
		for _, c := range row.counters {
			m := counters[c.name]
			if m == nil {
				m = &gbMetric{key: c.name, name: c.name, unit: gbCounterUnit(c.name)}
				counters[c.name] = m
				counterNames = append(counterNames, c.name)
			}
			r.sample(g.name, m, c.val, c.line, model.IsTimeOrSize(m.unit))
		}
	}
	_, hasBytes := counters["bytes_per_second"]
	if m, ok := counters["items_per_second"]; ok && !hasBytes {
		m.name = "throughput"
	}
	if m, ok := counters["bytes_per_second"]; ok {
		m.name = "throughput"
	}
	sort.Strings(counterNames)
	ms := []*gbMetric{wall, cpu}
	for _, n := range counterNames {
		ms = append(ms, counters[n])
	}
	var out []model.Result
	for _, m := range ms {
		if len(m.samples) == 0 && g.errText == "" {
			continue
		}
		if len(m.samples) == 0 && m != wall && m != cpu {
			continue
		}
		out = append(out, model.Result{Case: tc, Metric: m.name, Unit: m.unit, Samples: m.samples, Error: g.errText})
	}
	return out
}

// sample appends v to m unless it is not a finite number (or, for times
// and sizes, negative).
func (r *gbReader) sample(bench string, m *gbMetric, v float64, line int, nonNegative bool) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		r.warn(line, "%s: %s is %v: not a valid sample; dropped", bench, m.key, v)
	case nonNegative && v < 0:
		r.warn(line, "%s: %s is negative (%v): not a valid sample; dropped", bench, m.key, v)
	default:
		m.samples = append(m.samples, v)
	}
}

// gbCounterUnit is the unit of a counter that Google Benchmark defines.
func gbCounterUnit(name string) string {
	switch name {
	case "bytes_per_second":
		return "B/s"
	case "items_per_second":
		return "items/s"
	case "max_bytes_used", "total_allocated_bytes":
		return "B"
	}
	return ""
}

// gbFlagKeys are the "key:value" suffixes Google Benchmark adds to a name
// after the arguments (benchmark_name.cc).
var gbFlagKeys = map[string]bool{"min_time": true, "min_warmup_time": true, "iterations": true, "repeats": true, "threads": true}

// gbTimeTypes are the bare suffixes naming how time was measured.
var gbTimeTypes = map[string]bool{"process_time": true, "real_time": true, "manual_time": true}

var gbArg = regexp.MustCompile(`^(?:[^:/]+:)?-?[0-9]+$`)

// gbSplitName splits a run name into the family name and its parameters:
// positional arguments become arg1, arg2, …; named ones keep their names;
// the suffixes threads, time_type, iterations, repeats, min_time and
// min_warmup_time keep Google Benchmark's names. A name whose parts cannot
// be told apart without a clash stays whole.
func gbSplitName(s string) (string, model.Params) {
	parts := strings.Split(s, "/")
	m := map[string]string{}
	var timeTypes []string
	i := len(parts)
	for ; i > 1; i-- {
		p := parts[i-1]
		if gbTimeTypes[p] {
			if slices.Contains(timeTypes, p) {
				break
			}
			timeTypes = append([]string{p}, timeTypes...)
			continue
		}
		k, v, ok := strings.Cut(p, ":")
		if _, dup := m[k]; !ok || dup || !gbFlagKeys[k] || v == "" {
			break
		}
		m[k] = v
	}
	if len(timeTypes) > 0 {
		m["time_type"] = strings.Join(timeTypes, "/")
	}
	j := i
	for j > 1 && gbArg.MatchString(parts[j-1]) {
		j--
	}
	for n, p := range parts[j:i] {
		pos := "arg" + strconv.Itoa(n+1)
		k, v, named := strings.Cut(p, ":")
		if !named {
			k, v = pos, p
		} else if _, dup := m[k]; dup {
			k = pos
		}
		if _, dup := m[k]; dup {
			return s, nil
		}
		m[k] = v
	}
	return strings.Join(parts[:j], "/"), model.NewParams(m)
}

// gbParseDate reads the context's date: "2026-11-21T14:30:13+00:00" in
// current releases, "2019-04-11 17:03:06" (local time, no zone) and
// "04/11/16 17:03:06" in old ones. zoned is false when the date has no
// time zone (it is then taken as UTC).
func gbParseDate(s string) (t time.Time, zoned bool, err error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05-0700", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05-0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true, nil
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "01/02/06 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), false, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("unknown date format")
}

// gbNumber reads a JSON number, or one of the bare non-finite tokens
// (read as strings, readkit.JSONOptions.NonFinite); a number out of the
// float64 range is none, and null is 0 (as encoding/json reads it).
func gbNumber(n *readkit.Node) (float64, bool) {
	switch {
	case n.Kind == readkit.Null:
		return 0, true
	case n.IsNumber():
		return n.Float, !math.IsInf(n.Float, 0)
	}
	return readkit.NonFinite(n)
}

// gbSyntax describes what is wrong with a file that is not JSON.
func gbSyntax(se *readkit.SyntaxError) string {
	if se.Truncated {
		return "truncated file: unexpected end of JSON"
	}
	return "malformed JSON: " + se.Msg
}

// show quotes a short value for a message, as the file has it.
func (r *gbReader) show(n *readkit.Node) string {
	s := readkit.Source(r.data, n)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
