package foreign

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// asv (airspeed velocity) keeps its results in a folder (asv's
// docs/source/dev.rst and asv/results.py):
//
//	results/benchmarks.json                    the suite: type, unit, params, version per benchmark
//	results/<machine>/machine.json             the machine: machine, os, arch, cpu, num_cpu, ram
//	results/<machine>/<commit>-<env>.json      one file per commit and environment
//
// The input may be the results folder or one machine folder. Each results
// file becomes one run:
//
//   - artifact: commit_hash (a commit), dated by the file's "date" (the
//     commit's time, milliseconds since the epoch), else Defaults;
//   - machine: machine.json of the file's folder, completed from the
//     file's own "params" (asv copies the machine there), the folder's name
//     and Defaults;
//   - context: env = the environment's name (env_name, or for format
//     version 1 files the file name after the commit), python = the
//     Python version;
//   - one result per benchmark and parameter combination (the cartesian
//     product of the benchmark's params, last one varying fastest, as asv
//     stores them), params named by benchmarks.json's param_names (param1,
//     param2, … without it) with Python string quotes removed from the
//     values ('a' → a);
//   - metric and unit by benchmark type: time → wall-time in "s", memory →
//     memory and peakmemory → peakmemory in "B", track → track in the
//     benchmark's own unit; without benchmarks.json the type comes from the
//     name's prefix (time_, timeraw_, mem_, peakmem_, track_), as asv
//     discovers benchmarks. asv has no notion of direction: lower is
//     better unless the unit says otherwise;
//   - samples: the recorded raw samples (asv run --record-samples, one
//     per-call time per repeat), else the one value asv keeps, which for
//     time benchmarks is the median of the samples: then the result has a
//     single sample. asv's number-of-calls per sample is not passed on as
//     iteration counts, so comparisons use the Mann–Whitney test as asv
//     does rather than Criterion's regression;
//   - a null value (the benchmark failed) is a result with the error "asv
//     recorded no result" (pages add "failed: " to any error); NaN
//     (asv's mark for a skipped combination, e.g. NotImplementedError in
//     setup) leaves the combination out;
//   - a result whose benchmark version differs from benchmarks.json's (the
//     benchmark's code changed since) is skipped with a warning, as asv
//     publish does.
//
// asv writes JSON with Python's encoder, so bare NaN, Infinity and
// -Infinity tokens appear; they are read, not rejected. Both result format
// version 2 (rows aligned with result_columns) and the older version 1
// (a dict per benchmark, benchmark_version beside it) are read.
func init() {
	register(Format{Name: "asv", Dir: true, Read: readASV, Sniff: sniffASV, Files: func(name string) bool { return path.Ext(name) == ".json" },
		Shared: asvIsShared, Open: OpenASV})
}

// asvSniffLimit bounds how much of a file Sniff looks at: asv writes
// commit_hash first.
const asvSniffLimit = 4 << 10

func sniffASV(in Input) bool {
	for rel, data := range in.Files {
		switch base := path.Base(rel); {
		case base == "machine.json":
			if bytes.Contains(data, []byte(`"machine"`)) && bytes.Contains(data, []byte(`"version"`)) {
				return true
			}
		case base == "benchmarks.json":
			if bytes.Contains(data, []byte(`"param_names"`)) {
				return true
			}
		case strings.HasSuffix(base, ".json"):
			head := data[:min(len(data), asvSniffLimit)]
			if bytes.Contains(head, []byte(`"commit_hash"`)) && (bytes.Contains(data, []byte(`"result_columns"`)) || bytes.Contains(head, []byte(`"requirements"`))) {
				return true
			}
		}
	}
	return false
}

// asvBenchmark is one entry of benchmarks.json.
type asvBenchmark struct {
	Type       string
	Unit       string
	ParamNames []string
	Version    string
	HasVersion bool
}

// asvSuite is a decoded benchmarks.json; nil when there is none.
type asvSuite map[string]asvBenchmark

// suite returns the benchmarks.json that applies to a file in dir: the
// nearest one in dir or above it.
func (r *asvOpener) suite(dir string) asvSuite {
	for {
		s, seen := r.suites[dir]
		if !seen {
			rel := path.Join(dir, "benchmarks.json")
			if data, ok := r.shared[rel]; ok {
				s = r.readSuite(rel, data)
			}
			r.suites[dir] = s
		}
		parent := path.Dir(dir)
		if s != nil || parent == dir {
			return s
		}
		dir = parent
	}
}

func (r *asvOpener) readSuite(rel string, data []byte) asvSuite {
	defer r.arena.Reset() // what the suite keeps is copied out of the tree
	root, err := asvParse(r.file(rel), data, &r.arena, asvSuiteWord)
	if err != nil {
		r.warn(rel, err.line, "%s; benchmark types and units are guessed from names", err.msg)
		return nil
	}
	suite := asvSuite{}
	for _, e := range asvMembers(root) {
		if e.Key == "version" {
			continue
		}
		if e.Dup {
			r.warn(rel, e.Line, "benchmark %q appears twice; keeping the first", e.Key)
			continue
		}
		var b struct {
			Type       *string       `json:"type"`
			Unit       *string       `json:"unit"`
			ParamNames []string      `json:"param_names"`
			Version    *readkit.Node `json:"version"`
		}
		if err := readkit.Decode(e.Val, &b); err != nil {
			r.warn(rel, e.Line, "benchmark %q: %s; its type is guessed from its name", e.Key, asvTypeMsg(err))
			continue
		}
		bm := asvBenchmark{ParamNames: b.ParamNames}
		if b.Type != nil {
			bm.Type = *b.Type
		}
		if b.Unit != nil {
			bm.Unit = *b.Unit
		}
		if b.Version != nil {
			bm.Version, bm.HasVersion = asvString(data, b.Version), true
		}
		suite[e.Key] = bm
	}
	return suite
}

// asvSuiteWord implements readkit.JSONOptions.Intern for benchmarks.json:
// the keys and types every benchmark repeats.
func asvSuiteWord(b []byte) (string, bool) {
	switch string(b) {
	case "code":
		return "code", true
	case "name":
		return "name", true
	case "param_names":
		return "param_names", true
	case "params":
		return "params", true
	case "pretty_name":
		return "pretty_name", true
	case "type":
		return "type", true
	case "unit":
		return "unit", true
	case "version":
		return "version", true
	case "time":
		return "time", true
	case "track":
		return "track", true
	case "seconds":
		return "seconds", true
	case "bytes":
		return "bytes", true
	}
	return "", false
}

// machine returns the machine described by dir/machine.json, or nil.
func (r *asvOpener) machine(dir string) *model.Machine {
	if m, seen := r.machines[dir]; seen {
		return m
	}
	r.machines[dir] = nil
	rel := path.Join(dir, "machine.json")
	data, ok := r.shared[rel]
	if !ok {
		return nil
	}
	defer r.arena.Reset()
	root, err := asvParse(r.file(rel), data, &r.arena, nil)
	if err != nil {
		r.warn(rel, err.line, "%s; the machine is described by the result files", err.msg)
		return nil
	}
	info := map[string]string{}
	for _, e := range asvMembers(root) {
		if !e.Dup {
			info[e.Key] = asvString(data, e.Val)
		}
	}
	m := machineFrom(&r.asvLog, rel, info)
	r.machines[dir] = &m
	return &m
}

// machineFrom reads asv's machine fields (machine.json, or the params of a
// result file, which repeat them).
func machineFrom(r *asvLog, rel string, info map[string]string) model.Machine {
	m := model.Machine{Name: info["machine"], OS: info["os"], Arch: info["arch"], CPU: info["cpu"]}
	if s := info["num_cpu"]; s != "" {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n > 0 {
			m.Cores = n
		} else {
			r.warn(rel, 0, "num_cpu %q is not a number of CPUs; ignored", s)
		}
	}
	if s := info["ram"]; s != "" {
		if n, ok := asvRAM(s, m.OS); ok {
			m.MemoryBytes = n
		} else {
			r.warn(rel, 0, "ram %q is not a size (want kilobytes as asv records them, or a number with K, M, G or T); ignored", s)
		}
	}
	return m
}

// asvRAM reads asv's ram field. asv fills it from the machine
// (asv/util.py get_memsize): on Linux MemTotal of /proc/meminfo, which
// asv before 0.6.6 wrote as meminfo's number of kilobytes (KiB, whatever
// its "kB" says) and 0.6.6 on (its commit 3341d01, "Memory from meminfo
// is reported in kB not B") multiplies into bytes; on macOS (os "Darwin
// …") sysctl hw.memsize, bytes. machine.json does not say which asv
// wrote it, so a plain Linux number is read by its size: from 2³⁰ on it
// is bytes (as kilobytes it would be a terabyte or more: Unidata's
// MetPy-benchmark records "405086031872", a 377 GiB server, which read as
// kilobytes showed as 377 TiB), below it kilobytes (as bytes, less than a
// gigabyte). A size typed by hand at `asv machine` carries its unit:
// "8GB", "8.2G", "16 GiB", "16384000 kB" (powers of 1024, as memory is
// sized).
func asvRAM(s, os string) (int64, bool) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(c rune) bool { return !(c >= '0' && c <= '9' || c == '.') })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.ToUpper(strings.TrimSpace(s[i:]))
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || x <= 0 {
		return 0, false
	}
	if unit == "" && !strings.HasPrefix(strings.TrimSpace(os), "Darwin") && x < 1<<30 {
		unit = "K"
	}
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	mult := map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}[unit]
	if mult == 0 || x*mult >= math.MaxInt64 {
		return 0, false
	}
	return int64(x * mult), true
}

// asvList names up to three benchmarks: "x", "x, y and 4 more benchmarks".
func asvList(names []string) string {
	if len(names) == 1 {
		return strconv.Quote(names[0])
	}
	var b strings.Builder
	for i, n := range names[:min(len(names), 3)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	if len(names) > 3 {
		fmt.Fprintf(&b, " and %d more", len(names)-3)
	}
	return fmt.Sprintf("%d benchmarks (%s)", len(names), b.String())
}

func (r *asvFileReader) artifact(rel string, f *asvFile) model.Artifact {
	d := r.def.Artifact
	a := model.Artifact{ID: f.commit, Kind: model.KindCommit, Date: f.date}
	switch {
	case d.ID == "" || d.ID == f.commit:
		// The caller describes this very commit (or artifacts in
		// general): keep what it knows beside the file's facts.
		a = d
		a.ID = f.commit
		a.Parents = slices.Clone(d.Parents)
		if a.Kind == "" {
			a.Kind = model.KindCommit
		}
		if !f.date.IsZero() {
			a.Date = f.date
		}
	default:
		r.warn(rel, 0, "the file is for commit %s, not the given artifact %s; using the file's commit", f.commit, d.ID)
		if a.Date.IsZero() {
			a.Date = d.Date
		}
	}
	return a
}

// runMachine is the file folder's machine.json, completed from the file's
// params, the folder's name and the caller's machine.
func (r *asvFileReader) runMachine(rel, dir string, f *asvFile) model.Machine {
	var m model.Machine
	if mj := r.machines[dir]; mj != nil {
		m = *mj
	}
	fromFile := machineFrom(&r.asvLog, rel, f.machine)
	if m.Name != "" && fromFile.Name != "" && fromFile.Name != m.Name {
		r.warn(rel, 0, "params say machine %q but machine.json says %q; using machine.json", fromFile.Name, m.Name)
	}
	for _, fill := range []struct{ dst, a, b *string }{
		{&m.Name, &fromFile.Name, &r.def.Machine.Name},
		{&m.OS, &fromFile.OS, &r.def.Machine.OS},
		{&m.Arch, &fromFile.Arch, &r.def.Machine.Arch},
		{&m.CPU, &fromFile.CPU, &r.def.Machine.CPU},
	} {
		if *fill.dst == "" {
			*fill.dst = *fill.a
		}
		if *fill.dst == "" {
			*fill.dst = *fill.b
		}
	}
	if m.Name == "" && dir != "." {
		m.Name = path.Base(dir)
	}
	if m.Cores == 0 {
		m.Cores = cmp0(fromFile.Cores, r.def.Machine.Cores)
	}
	if m.MemoryBytes == 0 {
		m.MemoryBytes = cmp0(fromFile.MemoryBytes, r.def.Machine.MemoryBytes)
	}
	m.Labels = slices.Clone(r.def.Machine.Labels)
	return m
}

// cmp0 is a unless it is zero, else b.
func cmp0[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}

// context is env (the environment's name) and python, then the caller's
// context on top.
func (r *asvFileReader) context(rel string, f *asvFile) model.Params {
	m := map[string]string{}
	env := f.env
	if !f.hasEnv {
		// Version 1 files have no env_name; asv names the file
		// <commit[:8]>-<env_name>.json.
		base := strings.TrimSuffix(path.Base(rel), ".json")
		if _, after, ok := strings.Cut(base, "-"); ok {
			env = after
		}
	}
	if env != "" {
		m["env"] = env
	}
	if f.python != "" {
		m["python"] = f.python
	}
	for _, kv := range r.def.Context {
		m[kv.Key] = kv.Value
	}
	return model.NewParams(m)
}

// asvMaxCombinations bounds the parameter combinations of one benchmark,
// so that a small hostile file cannot ask for millions of results; real
// suites stay far below it.
const asvMaxCombinations = 1 << 16

// asvRecord is one benchmark's entry in a result file, either version.
type asvRecord struct {
	params     [][]string  // one list of values per parameter; empty when not parameterized
	values     []asvValue  // one per combination; nil when the whole benchmark failed
	samples    [][]float64 // one per combination (nil entries: none recorded); nil when none at all
	version    string
	hasVersion bool
}

// results appends one benchmark's record to out as results, one per
// parameter combination.
func (r *asvFileReader) results(out []model.Result, rel string, e asvMember, bm asvBenchmark, rec asvRecord) []model.Result {
	metric, unit, ok := asvMetric(bm)
	switch {
	case !ok && bm.Type == "":
		r.warn(rel, e.Line, "benchmark %q: type unknown (no time_, mem_, peakmem_ or track_ prefix); kept as metric %q", e.Key, metric)
	case !ok:
		r.warn(rel, e.Line, "benchmark %q: unknown benchmark type %q; kept as metric %q", e.Key, bm.Type, metric)
	default:
		if u := strings.ToLower(bm.Unit); bm.Type != "track" && u != "" && u != "seconds" && u != "bytes" {
			r.warn(rel, e.Line, "benchmark %q: unit %q is unusual for a %s benchmark; kept", e.Key, bm.Unit, bm.Type)
		}
	}
	names := bm.ParamNames
	if len(names) != len(rec.params) || asvHasDup(names) {
		if len(names) > 0 {
			r.warn(rel, e.Line, "benchmark %q: %d param_names for %d params; naming them param1, param2, …", e.Key, len(names), len(rec.params))
		}
		names = make([]string, len(rec.params))
		for i := range names {
			names[i] = "param" + strconv.Itoa(i+1)
		}
	}
	combos := asvProduct(rec.params)
	for j, combo := range combos {
		var params model.Params
		if len(combo) > 0 {
			p := make(map[string]string, len(combo))
			for i, v := range combo {
				p[names[i]] = v
			}
			params = model.NewParams(p)
		}
		res := model.Result{
			Case:   model.TestCase{Benchmark: e.Key, Params: params, Category: model.Primary},
			Metric: metric,
			Unit:   unit,
		}
		v := asvValue{kind: asvFailed}
		if rec.values != nil {
			v = rec.values[j]
		}
		switch v.kind {
		case asvSkipped:
			continue
		case asvFailed:
			// The analysis says "failed: " itself (Row.Note).
			res.Error = "asv recorded no result"
			out = append(out, res)
			continue
		case asvBad:
			r.warn(rel, e.Line, "benchmark %q%s: result %s is not a number; skipped", e.Key, asvWhich(res.Case.Params), v.raw)
			continue
		}
		var xs []float64 // the record's own: kept as they are when all are valid
		if rec.samples != nil {
			xs = rec.samples[j]
		}
		if len(xs) == 0 {
			xs = []float64{v.v}
		}
		if slices.ContainsFunc(xs, func(x float64) bool { return asvInvalid(x, unit) }) {
			kept := xs[:0:0]
			for _, x := range xs {
				switch {
				case math.IsNaN(x) || math.IsInf(x, 0):
					r.warn(rel, e.Line, "benchmark %q%s: value %v is not finite; dropped", e.Key, asvWhich(res.Case.Params), x)
				case x < 0 && model.IsTimeOrSize(unit):
					r.warn(rel, e.Line, "benchmark %q%s: negative %s %v; dropped", e.Key, asvWhich(res.Case.Params), metric, x)
				default:
					kept = append(kept, x)
				}
			}
			xs = kept
		}
		if len(xs) == 0 {
			continue
		}
		res.Samples = xs
		out = append(out, res)
	}
	return out
}

// asvInvalid reports whether x is no sample of a metric in unit: not
// finite, or a negative time or size.
func asvInvalid(x float64, unit string) bool {
	return math.IsNaN(x) || math.IsInf(x, 0) || x < 0 && model.IsTimeOrSize(unit)
}

func asvWhich(p model.Params) string {
	if len(p) == 0 {
		return ""
	}
	return " (" + p.String() + ")"
}

func asvHasDup(names []string) bool {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return true
		}
		seen[n] = true
	}
	return false
}

// asvProduct is the cartesian product of the parameter lists, the last
// one varying fastest (itertools.product); one empty combination when
// there are no parameters.
func asvProduct(lists [][]string) [][]string {
	out := [][]string{nil}
	for _, l := range lists {
		next := make([][]string, 0, len(out)*len(l))
		for _, prefix := range out {
			for _, v := range l {
				next = append(next, append(slices.Clip(prefix), v))
			}
		}
		out = next
	}
	return out
}

// asvTypeOf guesses a benchmark's type from its name, as asv's discovery
// does from the function's prefix.
func asvTypeOf(name string) string {
	last := name[strings.LastIndexByte(name, '.')+1:]
	for _, p := range []struct{ prefix, typ string }{
		{"timeraw_", "time"}, {"time_", "time"}, {"peakmem_", "peakmemory"}, {"mem_", "memory"}, {"track_", "track"},
	} {
		if strings.HasPrefix(last, p.prefix) {
			return p.typ
		}
	}
	return ""
}

// asvMetric maps a benchmark type to a metric and unit; ok is false for a
// type asv does not define.
func asvMetric(bm asvBenchmark) (metric, unit string, ok bool) {
	unit = bm.Unit
	switch bm.Type {
	case "time":
		if unit == "" || unit == "seconds" {
			unit = "s"
		}
		return "wall-time", unit, true
	case "memory", "peakmemory":
		if unit == "" || unit == "bytes" {
			unit = "B"
		}
		return bm.Type, unit, true
	case "track":
		return "track", unit, true
	case "":
		return "track", unit, false
	}
	return bm.Type, unit, false
}

// asvString is a JSON value as text: a string's content, else the value's
// JSON text (numbers, booleans; null is "None" as Python prints it).
func asvString(data []byte, n *readkit.Node) string {
	switch n.Kind {
	case readkit.String:
		return n.Text
	case readkit.Null:
		return "None"
	}
	return readkit.Source(data, n)
}

// asvShortText is at most 40 bytes of a value's text, for a message.
func asvShortText(s string) string {
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// asvValue is one result value: a number, null (failed), NaN (skipped) or
// something else.
type asvValue struct {
	v    float64
	kind asvKind
	raw  string // for asvBad
}

type asvKind int

const (
	asvOK asvKind = iota
	asvFailed
	asvSkipped
	asvBad
)

type asvSyntaxError struct {
	line int
	msg  string
}

// asvParse parses a file of an asv folder (Python's bare NaN and Infinity
// read as strings), in arena when it is not nil, and checks that it is one
// JSON object; the error says what is wrong, in the words the reader
// used when it parsed with encoding/json.
func asvParse(file string, data []byte, arena *readkit.Arena, intern func([]byte) (string, bool)) (*readkit.Node, *asvSyntaxError) {
	root, end, perr := parseJSON(file, data, readkit.JSONOptions{Trailing: true, Duplicates: true, NonFinite: true, Partial: true, Arena: arena, Intern: intern})
	if err := asvCheck(data, root, end, perr, readkit.Map); err != nil {
		return nil, err
	}
	return root, nil
}

// asvCheck says what is wrong with a document that parseJSON parsed with
// o.Trailing and o.Partial, or whose value is not of kind (an object or
// a list), in the words the asv and perfgate readers used when they
// parsed with encoding/json; nil when nothing is.
func asvCheck(data []byte, root *readkit.Node, end int, perr *readkit.Problem, kind readkit.Kind) *asvSyntaxError {
	notKind := &asvSyntaxError{line: 1, msg: "not a JSON object"}
	if kind == readkit.List {
		notKind.msg = "not a JSON array"
	}
	if perr != nil {
		se, line, ok := jsonSyntax(perr, data)
		switch {
		case !ok:
			return &asvSyntaxError{line: perr.Line, msg: perr.Msg}
		case root != nil && root.Kind != kind:
			return notKind
		case se.Truncated:
			return &asvSyntaxError{line: line, msg: "invalid JSON: unexpected end of file"}
		}
		return &asvSyntaxError{line: line, msg: "invalid JSON: " + se.Msg}
	}
	if root.Kind != kind {
		return notKind
	}
	if l, ok := trailing(data, end, false); ok {
		return &asvSyntaxError{line: l, msg: "invalid JSON: data after the top-level object"}
	}
	return nil
}

// asvMember is one member of a JSON object of a parsed file, in file
// order.
type asvMember struct {
	Key  string
	Line int // of the key
	Val  *readkit.Node
	Dup  bool // the key appeared earlier in the object
}

// asvMembers lists the members of an object, marking repeated keys.
func asvMembers(n *readkit.Node) []asvMember {
	out := make([]asvMember, len(n.Fields))
	seen := make(map[string]bool, len(n.Fields))
	for i, f := range n.Fields {
		out[i] = asvMember{Key: f.Key, Line: f.Line, Val: f.Val, Dup: seen[f.Key]}
		seen[f.Key] = true
	}
	return out
}

// asvTypeMsg words a type error of readkit.Decode without Go type names.
func asvTypeMsg(err error) string {
	var typ *readkit.TypeError
	if !errors.As(err, &typ) {
		return err.Error()
	}
	kind := typ.Type.Kind().String()
	what := "a " + kind
	switch {
	case kind == "slice" || kind == "array":
		what = "a list"
	case kind == "map" || kind == "struct":
		what = "an object"
	case strings.HasPrefix(kind, "float"):
		what = "a number"
	case strings.HasPrefix(kind, "uint"):
		what = "a non-negative integer"
	case strings.HasPrefix(kind, "int"):
		what = "an integer"
	}
	if typ.Field != "" {
		return fmt.Sprintf("%s is a JSON %s, want %s", typ.Field, typ.Value, what)
	}
	return fmt.Sprintf("a JSON %s, want %s", typ.Value, what)
}
