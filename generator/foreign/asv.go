package foreign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// asv (airspeed velocity) keeps its results in a folder (reference/peers.md
// §1.1–1.2):
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
	register(Format{Name: "asv", Dir: true, Read: readASV, Sniff: sniffASV, Files: func(name string) bool { return path.Ext(name) == ".json" }})
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

// asvReader reads one results folder.
type asvReader struct {
	in       Input
	def      Defaults
	problems []archive.Problem
	dropped  int                          // warnings past maxProblems
	suites   map[string]asvSuite          // by folder, nil when the folder has no benchmarks.json
	machines map[string]*analysis.Machine // by folder, nil when the folder has no (usable) machine.json
	noSuite  bool                         // some result file had no benchmarks.json to go by
}

func (r *asvReader) file(rel string) string {
	return filepath.Join(r.in.Name, filepath.FromSlash(rel))
}

func (r *asvReader) warn(rel string, line int, format string, args ...any) {
	if !full(r.problems, &r.dropped) {
		r.problems = append(r.problems, problem(r.file(rel), line, format, args...))
	}
}

func readASV(in Input, def Defaults) (_ []analysis.Run, problems []archive.Problem) {
	r := &asvReader{in: in, def: def, suites: map[string]asvSuite{}, machines: map[string]*analysis.Machine{}}
	defer func() { problems = withDropped(problems, in.Name, r.dropped) }()
	var rels []string
	for rel := range in.Files {
		base := path.Base(rel)
		if strings.HasSuffix(base, ".json") && base != "machine.json" && base != "benchmarks.json" {
			rels = append(rels, rel)
		}
	}
	slices.Sort(rels)
	var runs []analysis.Run
	for _, rel := range rels {
		if run, ok := r.readResults(rel); ok {
			runs = append(runs, run)
		}
	}
	if r.noSuite {
		r.problems = append(r.problems, problem(in.Name, 0, "no benchmarks.json: benchmark types come from the names' prefixes (time_, mem_, peakmem_, track_), units are asv's defaults and parameters are named param1, param2, …"))
	}
	if len(runs) == 0 {
		msg := "no asv results: the folder has no <machine>/<commit>-<env>.json result files"
		if len(rels) > 0 {
			msg = fmt.Sprintf("no usable asv results in %d result files", len(rels))
		}
		r.problems = append(r.problems, fatal(in.Name, 0, "%s", msg))
	}
	return runs, r.problems
}

// suite returns the benchmarks.json that applies to a file in dir: the
// nearest one in dir or above it.
func (r *asvReader) suite(dir string) asvSuite {
	for {
		s, seen := r.suites[dir]
		if !seen {
			rel := path.Join(dir, "benchmarks.json")
			if data, ok := r.in.Files[rel]; ok {
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

func (r *asvReader) readSuite(rel string, data []byte) asvSuite {
	doc := readkit.Lenient(data)
	entries, err := asvObject(readkit.NewLines(doc), 0, doc, true)
	if err != nil {
		r.warn(rel, err.line, "%s; benchmark types and units are guessed from names", err.msg)
		return nil
	}
	suite := asvSuite{}
	for _, e := range entries {
		if e.Key == "version" {
			continue
		}
		if e.Dup {
			r.warn(rel, e.Line, "benchmark %q appears twice; keeping the first", e.Key)
			continue
		}
		var b struct {
			Type       *string         `json:"type"`
			Unit       *string         `json:"unit"`
			ParamNames []string        `json:"param_names"`
			Version    json.RawMessage `json:"version"`
		}
		if err := json.Unmarshal(e.Raw, &b); err != nil {
			r.warn(rel, e.Line, "benchmark %q: %s; its type is guessed from its name", e.Key, asvTypeError(err))
			continue
		}
		bm := asvBenchmark{ParamNames: b.ParamNames}
		if b.Type != nil {
			bm.Type = *b.Type
		}
		if b.Unit != nil {
			bm.Unit = *b.Unit
		}
		if len(b.Version) > 0 && !asvIsNull(b.Version) {
			bm.Version, bm.HasVersion = asvString(b.Version), true
		}
		suite[e.Key] = bm
	}
	return suite
}

// machine returns the machine described by dir/machine.json, or nil.
func (r *asvReader) machine(dir string) *analysis.Machine {
	if m, seen := r.machines[dir]; seen {
		return m
	}
	r.machines[dir] = nil
	rel := path.Join(dir, "machine.json")
	data, ok := r.in.Files[rel]
	if !ok {
		return nil
	}
	doc := readkit.Lenient(data)
	entries, err := asvObject(readkit.NewLines(doc), 0, doc, true)
	if err != nil {
		r.warn(rel, err.line, "%s; the machine is described by the result files", err.msg)
		return nil
	}
	info := map[string]string{}
	for _, e := range entries {
		if !e.Dup {
			info[e.Key] = asvString(e.Raw)
		}
	}
	m := r.machineFrom(rel, info)
	r.machines[dir] = &m
	return &m
}

// machineFrom reads asv's machine fields (machine.json, or the params of a
// result file, which repeat them).
func (r *asvReader) machineFrom(rel string, info map[string]string) analysis.Machine {
	m := analysis.Machine{Name: info["machine"], OS: info["os"], Arch: info["arch"], CPU: info["cpu"]}
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
// (asv/util.py get_memsize): on Linux MemTotal of /proc/meminfo, a number
// of kilobytes (KiB, whatever meminfo's "kB" says), so a plain number is
// kilobytes; on macOS (os "Darwin …") sysctl hw.memsize, bytes. A size
// typed by hand at `asv machine` carries its unit: "8GB", "8.2G",
// "16 GiB", "16384000 kB" (powers of 1024, as memory is sized).
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
	if unit == "" && !strings.HasPrefix(strings.TrimSpace(os), "Darwin") {
		unit = "K"
	}
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	mult := map[string]float64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}[unit]
	if mult == 0 || x*mult >= math.MaxInt64 {
		return 0, false
	}
	return int64(x * mult), true
}

// asvFile is the part of a result file the reader uses.
type asvFile struct {
	commit, env, python string
	hasEnv              bool
	date                time.Time
	machine             map[string]string // the file's params: machine fields and dependency versions
	version             int
	columns             []string
	results             []asvEntry
	benchVersions       map[string]string // version 1: benchmark_version
}

// readResults reads one result file into a run; ok is false when nothing
// of it can be used (the problem is reported).
func (r *asvReader) readResults(rel string) (analysis.Run, bool) {
	doc := readkit.Lenient(r.in.Files[rel])
	f, ok := r.decodeFile(rel, doc)
	if !ok {
		return analysis.Run{}, false
	}
	dir := path.Dir(rel)
	run := analysis.Run{
		Artifact: r.artifact(rel, f),
		Machine:  r.runMachine(rel, dir, f),
		Context:  r.context(rel, f),
	}
	suite := r.suite(dir)
	if suite == nil {
		r.noSuite = true
	}
	var guessed, changed []string
	for _, e := range f.results {
		if e.Dup {
			r.warn(rel, e.Line, "benchmark %q appears twice; keeping the first", e.Key)
			continue
		}
		rec, ok := r.record(rel, f, e)
		if !ok {
			continue
		}
		bm, known := suite[e.Key]
		if !known {
			bm = asvBenchmark{Type: asvTypeOf(e.Key)}
			if suite != nil {
				guessed = append(guessed, e.Key)
			}
		}
		if known && bm.HasVersion && rec.hasVersion && rec.version != bm.Version {
			changed = append(changed, e.Key)
			continue
		}
		run.Results = append(run.Results, r.results(rel, e, bm, rec)...)
	}
	if len(guessed) > 0 {
		r.warn(rel, 0, "%s not in benchmarks.json: type and unit guessed from the name", asvList(guessed))
	}
	if len(changed) > 0 {
		r.warn(rel, 0, "%s: benchmark version differs from benchmarks.json (the benchmark's code changed since); skipped, as asv publish does", asvList(changed))
	}
	if len(run.Results) == 0 {
		if len(f.results) == 0 {
			r.warn(rel, 0, "no benchmark results; skipped")
		} else {
			r.warn(rel, 0, "no usable benchmark results; skipped")
		}
		return analysis.Run{}, false
	}
	slices.SortStableFunc(run.Results, func(a, b analysis.Result) int { return strings.Compare(a.Case.Benchmark, b.Case.Benchmark) })
	return run, true
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

func (r *asvReader) decodeFile(rel string, doc []byte) (*asvFile, bool) {
	lx := readkit.NewLines(doc)
	entries, err := asvObject(lx, 0, doc, true)
	if err != nil {
		r.warn(rel, err.line, "%s; skipped", err.msg)
		return nil, false
	}
	f := &asvFile{}
	var hasResults, hasColumns, hasVersion bool
	for _, e := range entries {
		if e.Dup {
			r.warn(rel, e.Line, "field %q appears twice; keeping the first", e.Key)
			continue
		}
		var err error
		switch e.Key {
		case "commit_hash":
			err = json.Unmarshal(e.Raw, &f.commit)
		case "env_name":
			f.hasEnv = !asvIsNull(e.Raw)
			err = json.Unmarshal(e.Raw, &f.env)
		case "python":
			if !asvIsNull(e.Raw) {
				f.python = asvString(e.Raw)
			}
		case "date":
			f.date, err = asvDate(e.Raw)
		case "params":
			f.machine, err = asvStrings(e.Raw)
		case "version":
			hasVersion = true
			err = json.Unmarshal(e.Raw, &f.version)
		case "result_columns":
			hasColumns = true
			err = json.Unmarshal(e.Raw, &f.columns)
		case "benchmark_version":
			f.benchVersions, err = asvStrings(e.Raw)
		case "results":
			hasResults = true
			var oerr *asvSyntaxError
			f.results, oerr = asvObject(lx, e.Off, e.Raw, false)
			if oerr != nil {
				r.warn(rel, oerr.line, "results: %s; skipped", oerr.msg)
				return nil, false
			}
		}
		if err != nil {
			r.warn(rel, e.Line, "%s: %s", e.Key, asvTypeError(err))
			if e.Key == "commit_hash" || e.Key == "result_columns" || e.Key == "results" {
				r.warn(rel, e.Line, "not a usable asv result file; skipped")
				return nil, false
			}
		}
	}
	switch {
	case f.commit == "" && !hasResults:
		r.warn(rel, 0, "not an asv result file (no commit_hash and results); skipped")
		return nil, false
	case f.commit == "":
		r.warn(rel, 0, "no commit_hash: the results cannot be placed in history; skipped")
		return nil, false
	case !hasResults:
		r.warn(rel, 0, "no results; skipped")
		return nil, false
	}
	switch {
	case f.version == 2 && !hasColumns:
		r.warn(rel, 0, "format version 2 without result_columns; skipped")
		return nil, false
	case f.version == 1 || f.version == 2:
	case hasVersion:
		if hasColumns {
			f.version = 2
		} else {
			f.version = 1
		}
		r.warn(rel, 0, "unknown asv result format version; read as version %d by its shape", f.version)
	case hasColumns:
		f.version = 2
	default:
		f.version = 1
	}
	return f, true
}

// asvDate reads a JavaScript timestamp (milliseconds since the epoch).
func asvDate(raw json.RawMessage) (time.Time, error) {
	if asvIsNull(raw) {
		return time.Time{}, nil
	}
	var ms float64
	if err := json.Unmarshal(raw, &ms); err != nil {
		return time.Time{}, err
	}
	if math.IsNaN(ms) || ms <= 0 || ms > 1e15 {
		return time.Time{}, fmt.Errorf("%s is not a time in milliseconds since 1970", bytes.TrimSpace(raw))
	}
	return time.UnixMilli(int64(ms)).UTC(), nil
}

func (r *asvReader) artifact(rel string, f *asvFile) analysis.Artifact {
	d := r.def.Artifact
	a := analysis.Artifact{ID: f.commit, Kind: analysis.KindCommit, Date: f.date}
	switch {
	case d.ID == "" || d.ID == f.commit:
		// The caller describes this very commit (or artifacts in
		// general): keep what it knows beside the file's facts.
		a = d
		a.ID = f.commit
		a.Parents = slices.Clone(d.Parents)
		if a.Kind == "" {
			a.Kind = analysis.KindCommit
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
func (r *asvReader) runMachine(rel, dir string, f *asvFile) analysis.Machine {
	var m analysis.Machine
	if mj := r.machine(dir); mj != nil {
		m = *mj
	}
	fromFile := r.machineFrom(rel, f.machine)
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
func (r *asvReader) context(rel string, f *asvFile) analysis.Params {
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
	return analysis.NewParams(m)
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

// record decodes a benchmark's entry (a version 2 row or a version 1
// value); problems are reported, and ok is false when nothing is usable.
func (r *asvReader) record(rel string, f *asvFile, e asvEntry) (asvRecord, bool) {
	var rec asvRecord
	var result, params, samples, version json.RawMessage
	if f.version == 2 {
		var row []json.RawMessage
		if err := json.Unmarshal(e.Raw, &row); err != nil {
			r.warn(rel, e.Line, "benchmark %q: %s (a row of result_columns); skipped", e.Key, asvTypeError(err))
			return rec, false
		}
		for i, col := range f.columns {
			if i >= len(row) {
				break
			}
			switch col {
			case "result":
				result = row[i]
			case "params":
				params = row[i]
			case "samples":
				samples = row[i]
			case "version":
				version = row[i]
			}
		}
		if len(row) > len(f.columns) {
			r.warn(rel, e.Line, "benchmark %q: %d values for %d result_columns; the extra ones are ignored", e.Key, len(row), len(f.columns))
		}
	} else {
		trimmed := bytes.TrimSpace(e.Raw)
		if len(trimmed) > 0 && trimmed[0] == '{' {
			var v map[string]json.RawMessage
			if err := json.Unmarshal(e.Raw, &v); err != nil {
				r.warn(rel, e.Line, "benchmark %q: %s; skipped", e.Key, asvTypeError(err))
				return rec, false
			}
			result, params, samples = v["result"], v["params"], v["samples"]
		} else {
			result = e.Raw
		}
		if v, ok := f.benchVersions[e.Key]; ok {
			rec.version, rec.hasVersion = v, true
		}
	}
	if len(version) > 0 && !asvIsNull(version) {
		rec.version, rec.hasVersion = asvString(version), true
	}

	if len(params) > 0 && !asvIsNull(params) {
		var lists [][]json.RawMessage
		if err := json.Unmarshal(params, &lists); err != nil {
			r.warn(rel, e.Line, "benchmark %q: params: %s of lists of values; skipped", e.Key, asvTypeError(err))
			return rec, false
		}
		for _, l := range lists {
			vals := make([]string, len(l))
			for i, v := range l {
				vals[i] = asvParamValue(v)
			}
			rec.params = append(rec.params, vals)
		}
	}
	n := 1
	for _, l := range rec.params {
		n *= len(l)
		if n > asvMaxCombinations {
			r.warn(rel, e.Line, "benchmark %q: more than %d parameter combinations; skipped", e.Key, asvMaxCombinations)
			return rec, false
		}
	}

	switch trimmed := bytes.TrimSpace(result); {
	case len(trimmed) == 0 || asvIsNull(trimmed):
		// Every combination failed (asv compresses a list of nulls).
	case trimmed[0] == '[':
		var vals []json.RawMessage
		if err := json.Unmarshal(trimmed, &vals); err != nil {
			r.warn(rel, e.Line, "benchmark %q: result: %s; skipped", e.Key, asvTypeError(err))
			return rec, false
		}
		for _, v := range vals {
			rec.values = append(rec.values, asvNumber(v))
		}
	default:
		rec.values = []asvValue{asvNumber(trimmed)}
	}
	if rec.values != nil && len(rec.values) != n {
		r.warn(rel, e.Line, "benchmark %q: %d results for %d parameter combinations; skipped", e.Key, len(rec.values), n)
		return rec, false
	}

	if len(samples) > 0 && !asvIsNull(samples) {
		var per []json.RawMessage
		if err := json.Unmarshal(samples, &per); err != nil || len(per) != n {
			r.warn(rel, e.Line, "benchmark %q: samples are not one list per parameter combination; using the results alone", e.Key)
		} else {
			rec.samples = make([][]float64, n)
			for j, raw := range per {
				if asvIsNull(raw) {
					continue
				}
				var xs []json.RawMessage
				if err := json.Unmarshal(raw, &xs); err != nil {
					r.warn(rel, e.Line, "benchmark %q: samples of combination %d: %s; using its result alone", e.Key, j+1, asvTypeError(err))
					continue
				}
				for _, x := range xs {
					v := asvNumber(x)
					if v.kind != asvOK {
						r.warn(rel, e.Line, "benchmark %q: sample %s of combination %d is not a number; dropped", e.Key, asvShort(x), j+1)
						continue
					}
					rec.samples[j] = append(rec.samples[j], v.v)
				}
			}
		}
	}
	return rec, true
}

// results turns one benchmark's record into results, one per parameter
// combination.
func (r *asvReader) results(rel string, e asvEntry, bm asvBenchmark, rec asvRecord) []analysis.Result {
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
	var out []analysis.Result
	for j, combo := range combos {
		p := map[string]string{}
		for i, v := range combo {
			p[names[i]] = v
		}
		res := analysis.Result{
			Case:   analysis.TestCase{Benchmark: e.Key, Params: analysis.NewParams(p), Category: analysis.Primary},
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
		var xs []float64
		if rec.samples != nil {
			xs = rec.samples[j]
		}
		if len(xs) == 0 {
			xs = []float64{v.v}
		}
		kept := xs[:0:0]
		for _, x := range xs {
			switch {
			case math.IsNaN(x) || math.IsInf(x, 0):
				r.warn(rel, e.Line, "benchmark %q%s: value %v is not finite; dropped", e.Key, asvWhich(res.Case.Params), x)
			case x < 0 && analysis.IsTimeOrSize(unit):
				r.warn(rel, e.Line, "benchmark %q%s: negative %s %v; dropped", e.Key, asvWhich(res.Case.Params), metric, x)
			default:
				kept = append(kept, x)
			}
		}
		if len(kept) == 0 {
			continue
		}
		res.Samples = kept
		out = append(out, res)
	}
	return out
}

func asvWhich(p analysis.Params) string {
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

// asvParamValue turns a parameter value, which asv stores as its Python
// repr, into the value a reader expects: 'a' → a; numbers and other reprs
// stay as they are.
func asvParamValue(raw json.RawMessage) string {
	s := asvString(raw)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] && !strings.ContainsAny(s[1:len(s)-1], `\'"`) {
		return s[1 : len(s)-1]
	}
	return s
}

// asvString is a JSON value as text: a string's content, else the value's
// JSON text (numbers, booleans; null is "None" as Python prints it).
func asvString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if asvIsNull(raw) {
		return "None"
	}
	return string(raw)
}

// asvStrings decodes an object of scalars as strings, leaving out nulls.
func asvStrings(raw json.RawMessage) (map[string]string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for k, v := range m {
		if !asvIsNull(v) {
			out[k] = asvString(v)
		}
	}
	return out, nil
}

func asvIsNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

func asvShort(raw []byte) string {
	s := string(bytes.TrimSpace(raw))
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

// asvNumber reads a value after readkit.Lenient, which turned the bare
// NaN, Infinity and -Infinity tokens into strings.
func asvNumber(raw json.RawMessage) asvValue {
	if asvIsNull(raw) {
		return asvValue{kind: asvFailed}
	}
	if x, ok := readkit.NonFinite(raw); ok {
		if math.IsNaN(x) {
			return asvValue{kind: asvSkipped}
		}
		return asvValue{v: x}
	}
	var x float64
	if err := json.Unmarshal(raw, &x); err != nil {
		return asvValue{kind: asvBad, raw: asvShort(raw)}
	}
	return asvValue{v: x}
}

// asvEntry is one member of a JSON object, in file order.
type asvEntry struct {
	Key  string
	Line int   // of the key, in the whole document
	Off  int64 // of the value, in the whole document
	Raw  json.RawMessage
	Dup  bool // the key appeared earlier in the object
}

type asvSyntaxError struct {
	line int
	msg  string
}

// asvObject reads the members of the JSON object raw, which starts at off
// in the document lx indexes (for line numbers). top requires nothing
// after the object; raw need be valid JSON only when it is not top.
func asvObject(lx *readkit.Lines, off int64, raw []byte, top bool) ([]asvEntry, *asvSyntaxError) {
	if top && !json.Valid(raw) {
		return nil, asvSyntax(lx, off, raw, '{')
	}
	kind, parts := splitJSON(raw)
	if kind != '{' {
		return nil, &asvSyntaxError{line: lx.At(int(off)), msg: "not a JSON object"}
	}
	entries := make([]asvEntry, len(parts))
	seen := make(map[string]bool, len(parts))
	for i, p := range parts {
		entries[i] = asvEntry{Key: p.Key, Line: lx.At(int(off + int64(p.KeyOff))), Off: off + int64(p.Off), Raw: p.Raw, Dup: seen[p.Key]}
		seen[p.Key] = true
	}
	return entries, nil
}

// asvSyntax describes what is wrong with raw, which is not valid JSON, in
// encoding/json's words, at the line it is wrong.
func asvSyntax(lx *readkit.Lines, off int64, raw []byte, want json.Delim) *asvSyntaxError {
	dec := json.NewDecoder(bytes.NewReader(raw))
	fail := func(err error) *asvSyntaxError {
		at := off + dec.InputOffset()
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			at = off + syn.Offset
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return &asvSyntaxError{line: lx.Count(), msg: "invalid JSON: unexpected end of file"}
		}
		return &asvSyntaxError{line: lx.Error(at), msg: "invalid JSON: " + err.Error()}
	}
	tok, err := dec.Token()
	if err != nil {
		return fail(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		if want == '{' {
			return &asvSyntaxError{line: lx.At(int(off)), msg: "not a JSON object"}
		}
		return &asvSyntaxError{line: lx.At(int(off)), msg: "not a JSON array"}
	}
	var v json.RawMessage
	for dec.More() {
		if want == '{' {
			if _, err := dec.Token(); err != nil {
				return fail(err)
			}
		}
		if err := dec.Decode(&v); err != nil {
			return fail(err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &asvSyntaxError{line: lx.At(int(off + dec.InputOffset())), msg: "invalid JSON: data after the top-level object"}
	}
	return &asvSyntaxError{line: lx.At(int(off)), msg: "invalid JSON"}
}

// asvTypeError words an encoding/json type error without Go type names.
func asvTypeError(err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
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
	return err.Error()
}

// asvArray reads the elements of the JSON array raw, valid JSON that
// starts at off in the document lx indexes (for line numbers); Line is
// each element's first line.
func asvArray(lx *readkit.Lines, off int64, raw []byte) ([]asvEntry, *asvSyntaxError) {
	kind, parts := splitJSON(raw)
	if kind != '[' {
		return nil, &asvSyntaxError{line: lx.At(int(off)), msg: "not a JSON array"}
	}
	elems := make([]asvEntry, len(parts))
	for i, p := range parts {
		start := off + int64(p.Off)
		elems[i] = asvEntry{Line: lx.At(int(start)), Off: start, Raw: p.Raw}
	}
	return elems, nil
}
