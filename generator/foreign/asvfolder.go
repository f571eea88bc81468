package foreign

import (
	"context"
	"fmt"
	"maps"
	"math"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/par"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// Reading asv's folder file by file. A results folder holds one result
// file per commit and environment, and two kinds of file the others share:
// benchmarks.json (every benchmark's type, unit, parameter names and
// version) and each machine folder's machine.json. A result file means
// nothing without them, and nothing else: so the folder is opened once
// (openASV decodes the shared files: both are small) and each result file
// is then read on its own, on any core (asvFolder.ReadFile), into at most
// one run. A build keeps each file's run under a key of the file and the
// shared files it was read with, so that one new result file costs one
// file's decoding, not the folder's (see generator's folder inputs).
//
// A result file is decoded in one pass: readkit.ParseJSON builds its tree
// with the line of every value (Python's bare NaN and Infinity read as
// strings, JSONOptions.NonFinite), and the reader walks the tree. Nothing
// is parsed twice. Only a file that is not valid JSON is parsed again, by
// encoding/json inside readkit, for its message.

// Folder is a folder input of a format that reads its files one at a
// time against files they share (Format.Shared, Format.Open): asv's.
type Folder interface {
	// ReadFile reads the folder's file rel (slash-separated, relative to
	// the folder; not a shared file): its runs, with the caller's defaults
	// filled in, and its problems. The caps of [Read] apply to the file.
	// It may be called from several goroutines at once.
	ReadFile(rel string, data []byte) ([]model.Run, []archive.Problem)
	// Finish returns the folder's own problems once its files are read:
	// used lists the files that gave runs (an empty folder is fatal).
	Finish(used []string) []archive.Problem
	// Fold makes the problems of the folder's files that have one cause
	// one problem: the first, saying in how many more files it recurs.
	// ps are problems of its files in the order of the files; the order
	// of what is kept is theirs.
	Fold(ps []archive.Problem) []archive.Problem
}

// The warnings of a result file that every file of a folder repeats when
// the folder's benchmarks.json does not match its results: one cause,
// told once per folder (Fold).
const (
	asvGuessedMsg = " not in benchmarks.json: type and unit guessed from the name"
	asvChangedMsg = ": benchmark version differs from benchmarks.json (the benchmark's code changed since); skipped, as asv publish does"
)

// Fold implements Folder: a benchmark missing from benchmarks.json, and
// a benchmark version that differs from it, are one cause each.
func (f *asvFolder) Fold(ps []archive.Problem) []archive.Problem {
	return foldASV(ps)
}

func foldASV(ps []archive.Problem) []archive.Problem {
	first := map[string]int{} // cause → index in out
	more := map[string]int{}
	out := make([]archive.Problem, 0, len(ps))
	for _, p := range ps {
		cause := ""
		switch {
		case p.Fatal:
		case strings.HasSuffix(p.Msg, asvGuessedMsg):
			cause = asvGuessedMsg
		case strings.HasSuffix(p.Msg, asvChangedMsg):
			cause = asvChangedMsg
		}
		if cause == "" {
			out = append(out, p)
			continue
		}
		if _, ok := first[cause]; ok {
			more[cause]++
			continue
		}
		first[cause] = len(out)
		out = append(out, p)
	}
	for cause, n := range more {
		p := &out[first[cause]]
		files := fmt.Sprintf("%d more result files of the folder", n)
		if n == 1 {
			files = "1 more result file of the folder"
		}
		switch cause {
		case asvGuessedMsg:
			p.Msg += fmt.Sprintf(" (and %s name benchmarks benchmarks.json lacks)", files)
		case asvChangedMsg:
			p.Msg += fmt.Sprintf(" (and %s have results of a benchmark version benchmarks.json no longer has)", files)
		}
	}
	return out
}

// asvIsShared reports whether rel is a file asv's result files share.
func asvIsShared(rel string) bool {
	base := path.Base(rel)
	return base == "benchmarks.json" || base == "machine.json"
}

// asvIsResult reports whether rel is one of asv's result files.
func asvIsResult(rel string) bool {
	return path.Ext(rel) == ".json" && !asvIsShared(rel)
}

// asvLog collects the problems of one file, or of a folder's shared
// files, up to maxProblems (then counts them).
type asvLog struct {
	name     string // the folder input's name
	problems []archive.Problem
	dropped  int
}

func (l *asvLog) file(rel string) string {
	return filepath.Join(l.name, filepath.FromSlash(rel))
}

func (l *asvLog) warn(rel string, line int, format string, args ...any) {
	if !full(l.problems, &l.dropped) {
		l.problems = append(l.problems, problem(l.file(rel), line, format, args...))
	}
}

// asvOpener resolves what a folder's result files share, reading each
// shared file at most once.
type asvOpener struct {
	asvLog
	shared   map[string][]byte
	suites   map[string]asvSuite
	machines map[string]*model.Machine
	arena    readkit.Arena // the shared file being read
}

// asvFolder is an opened asv results folder: read-only once open, so
// that result files are read concurrently.
type asvFolder struct {
	name   string
	def    Defaults
	limits archive.Limits
	// suites and machines hold, for each folder of a result file, the
	// benchmarks.json that applies there (the nearest one in it or above
	// it; nil when there is none) and its machine.json (nil: none, or
	// unusable).
	suites   map[string]asvSuite
	machines map[string]*model.Machine
	results  int // result files
	// intern holds the strings every file repeats (benchmark names and
	// versions, column names), so that a file's parse does not allocate
	// them again.
	intern map[string]string
	arenas sync.Pool
}

// OpenASV opens an asv results folder called name for reading its result
// files one at a time: shared holds its shared files (benchmarks.json,
// machine.json; relative paths), results the paths of its result files.
// The problems are the shared files' (the caps of [Read] apply to them).
func OpenASV(name string, shared map[string][]byte, results []string, maxBytes int64, def Defaults) (Folder, []archive.Problem) {
	limits := archive.LimitsFor(maxBytes)
	var problems []archive.Problem
	checked := make(map[string][]byte, len(shared))
	for _, rel := range slices.Sorted(maps.Keys(shared)) {
		data, p, ok := checkFile(name+"/"+rel, shared[rel], limits)
		problems = append(problems, skipped(p)...)
		if ok {
			checked[rel] = data
		}
	}
	f, more := openASV(name, checked, results, limits, def)
	return f, append(problems, more...)
}

// openASV opens a folder whose shared files passed the caps.
func openASV(name string, shared map[string][]byte, results []string, limits archive.Limits, def Defaults) (*asvFolder, []archive.Problem) {
	o := &asvOpener{asvLog: asvLog{name: name}, shared: shared, suites: map[string]asvSuite{}, machines: map[string]*model.Machine{}}
	f := &asvFolder{name: name, def: def, limits: limits, suites: map[string]asvSuite{}, machines: map[string]*model.Machine{},
		results: len(results), intern: map[string]string{}}
	// In the order of the result files, as a reader of the whole folder
	// meets them: each folder's machine, then its benchmarks.
	for _, rel := range slices.Sorted(slices.Values(results)) {
		dir := path.Dir(rel)
		if _, ok := f.suites[dir]; ok {
			continue
		}
		f.machines[dir] = o.machine(dir)
		f.suites[dir] = o.suite(dir)
	}
	for _, s := range o.suites {
		for k, b := range s {
			f.intern[k] = k
			f.intern[b.Version] = b.Version
		}
	}
	for _, c := range asvColumns {
		f.intern[c] = c
	}
	return f, withDropped(o.problems, name, o.dropped)
}

// asvColumns are asv's result_columns (format version 2), interned.
var asvColumns = []string{"result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b", "stats_q_25", "stats_q_75", "stats_number", "stats_repeat", "samples", "profile"}

// ReadFile implements Folder.
func (f *asvFolder) ReadFile(rel string, data []byte) ([]model.Run, []archive.Problem) {
	data, problems, ok := checkFile(f.name+"/"+rel, data, f.limits)
	if !ok {
		return nil, skipped(problems)
	}
	run, ok, more := f.readFile(rel, data)
	problems = append(problems, more...)
	if !ok {
		return nil, problems
	}
	fillDefaults(&run, f.def)
	return []model.Run{run}, problems
}

// readFile reads a result file that passed the caps.
func (f *asvFolder) readFile(rel string, data []byte) (model.Run, bool, []archive.Problem) {
	r := &asvFileReader{asvFolder: f, asvLog: asvLog{name: f.name}}
	run, ok := r.readResults(rel, data)
	return run, ok, withDropped(r.problems, r.file(rel), r.dropped)
}

// Finish implements Folder.
func (f *asvFolder) Finish(used []string) []archive.Problem {
	var problems []archive.Problem
	if slices.ContainsFunc(used, func(rel string) bool { return f.suites[path.Dir(rel)] == nil }) {
		problems = append(problems, problem(f.name, 0, "no benchmarks.json: benchmark types come from the names' prefixes (time_, mem_, peakmem_, track_), units are asv's defaults and parameters are named param1, param2, …"))
	}
	if len(used) == 0 {
		msg := "no asv results: the folder has no <machine>/<commit>-<env>.json result files"
		if f.results > 0 {
			msg = fmt.Sprintf("no usable asv results in %d result files", f.results)
		}
		problems = append(problems, fatal(f.name, 0, "%s", msg))
	}
	return problems
}

// readASV reads a whole results folder (its files passed the caps): the
// folder opened, then its result files on every core, their runs and
// problems in the order of their names.
func readASV(in Input, def Defaults) ([]model.Run, []archive.Problem) {
	shared := map[string][]byte{}
	var rels []string
	for rel, data := range in.Files {
		switch {
		case asvIsShared(rel):
			shared[rel] = data
		case asvIsResult(rel):
			rels = append(rels, rel)
		}
	}
	slices.Sort(rels)
	f, problems := openASV(in.Name, shared, rels, archive.LimitsFor(in.MaxBytes), def)
	type file struct {
		run      model.Run
		ok       bool
		problems []archive.Problem
	}
	files := make([]file, len(rels))
	par.Each(context.Background(), len(rels), func(i int) error {
		run, ok, ps := f.readFile(rels[i], in.Files[rels[i]])
		files[i] = file{run, ok, ps}
		return nil
	})
	var runs []model.Run
	var used []string
	var fileProblems []archive.Problem
	for i, x := range files {
		fileProblems = append(fileProblems, x.problems...)
		if x.ok {
			runs = append(runs, x.run)
			used = append(used, rels[i])
		}
	}
	problems = append(problems, f.Fold(fileProblems)...)
	return runs, append(problems, f.Finish(used)...)
}

// asvFileReader reads one result file of an open folder.
type asvFileReader struct {
	*asvFolder
	asvLog
}

// asvFile is the part of a result file the reader uses.
type asvFile struct {
	commit, env, python string
	hasEnv              bool
	date                time.Time
	machine             map[string]string // the file's params: machine fields and dependency versions
	version             int
	columns             []string
	results             []asvMember
	benchVersions       map[string]string // version 1: benchmark_version
}

// readResults reads one result file into a run; ok is false when nothing
// of it can be used (the problem is reported).
func (r *asvFileReader) readResults(rel string, data []byte) (model.Run, bool) {
	arena, _ := r.arenas.Get().(*readkit.Arena)
	if arena == nil {
		arena = &readkit.Arena{}
	}
	defer func() {
		arena.Reset()
		r.arenas.Put(arena)
	}()
	f, ok := r.decodeFile(rel, data, arena)
	if !ok {
		return model.Run{}, false
	}
	dir := path.Dir(rel)
	run := model.Run{
		Artifact: r.artifact(rel, f),
		Machine:  r.runMachine(rel, dir, f),
		Context:  r.context(rel, f),
	}
	suite := r.suites[dir]
	var guessed, changed []string
	n := 0
	for _, e := range f.results {
		if !e.Dup {
			n++
		}
	}
	run.Results = make([]model.Result, 0, n)
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
		run.Results = r.results(run.Results, rel, e, bm, rec)
	}
	if len(guessed) > 0 {
		r.warn(rel, 0, "%s"+asvGuessedMsg, asvList(guessed))
	}
	if len(changed) > 0 {
		r.warn(rel, 0, "%s"+asvChangedMsg, asvList(changed))
	}
	if len(run.Results) == 0 {
		switch {
		case len(f.results) == 0:
			r.warn(rel, 0, "no benchmark results; skipped")
		case len(changed) > 0:
			// Older result files of a suite whose benchmarks all changed
			// since (Adenzler's mjwarp-asv: 14 of 77): say why, so that
			// the warning does not read as a broken file.
			r.warn(rel, 0, "no usable benchmark results (%d of them of a benchmark version benchmarks.json no longer has, as asv publish skips them); skipped", len(changed))
		default:
			r.warn(rel, 0, "no usable benchmark results; skipped")
		}
		return model.Run{}, false
	}
	slices.SortStableFunc(run.Results, func(a, b model.Result) int { return strings.Compare(a.Case.Benchmark, b.Case.Benchmark) })
	return run, true
}

// decodeFile parses a result file (Python's bare NaN and Infinity read
// as strings) and reads its fields; ok is false when the file is unusable
// (the problem is reported).
func (r *asvFileReader) decodeFile(rel string, data []byte, arena *readkit.Arena) (*asvFile, bool) {
	root, err := asvParse(r.file(rel), data, arena, r.internBytes)
	if err != nil {
		r.warn(rel, err.line, "%s; skipped", err.msg)
		return nil, false
	}
	f := &asvFile{}
	var hasResults, hasColumns, hasVersion bool
	seen := make(map[string]bool, len(root.Fields))
	for _, fd := range root.Fields {
		if seen[fd.Key] {
			r.warn(rel, fd.Line, "field %q appears twice; keeping the first", fd.Key)
			continue
		}
		seen[fd.Key] = true
		v := fd.Val
		var err string // a type error, in asvTypeMsg's words
		switch fd.Key {
		case "commit_hash":
			f.commit, err = asvStringField(v)
		case "env_name":
			f.hasEnv = v.Kind != readkit.Null
			f.env, err = asvStringField(v)
		case "python":
			if v.Kind != readkit.Null {
				f.python = asvText(v)
			}
		case "date":
			f.date, err = asvDate(v)
		case "params":
			f.machine, err = asvStrings(v)
		case "version":
			hasVersion = true
			f.version, err = asvInt(v)
		case "result_columns":
			hasColumns = true
			f.columns, err = asvStringList(v)
		case "benchmark_version":
			f.benchVersions, err = asvStrings(v)
		case "results":
			hasResults = true
			if v.Kind != readkit.Map {
				r.warn(rel, v.Line, "results: not a JSON object; skipped")
				return nil, false
			}
			f.results = asvMembers(v)
		}
		if err != "" {
			r.warn(rel, fd.Line, "%s: %s", fd.Key, err)
			if fd.Key == "commit_hash" || fd.Key == "result_columns" {
				r.warn(rel, fd.Line, "not a usable asv result file; skipped")
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

// internBytes implements readkit.JSONOptions.Intern.
func (r *asvFileReader) internBytes(b []byte) (string, bool) {
	s, ok := r.intern[string(b)]
	return s, ok
}

// record decodes a benchmark's entry (a version 2 row or a version 1
// value); problems are reported, and ok is false when nothing is usable.
func (r *asvFileReader) record(rel string, f *asvFile, e asvMember) (asvRecord, bool) {
	var rec asvRecord
	var result, params, samples, version *readkit.Node
	if f.version == 2 {
		row := e.Val
		switch row.Kind {
		case readkit.Null:
			// json.Unmarshal leaves a list it finds null empty: every
			// column is missing.
		case readkit.List:
			n := row.Len()
			for i, col := range f.columns {
				if i >= n {
					break
				}
				switch col {
				case "result":
					result = row.Elem(i)
				case "params":
					params = row.Elem(i)
				case "samples":
					samples = row.Elem(i)
				case "version":
					version = row.Elem(i)
				}
			}
			if n > len(f.columns) {
				r.warn(rel, e.Line, "benchmark %q: %d values for %d result_columns; the extra ones are ignored", e.Key, n, len(f.columns))
			}
		default:
			r.warn(rel, e.Line, "benchmark %q: a JSON %s, want a list (a row of result_columns); skipped", e.Key, asvJSONKind(row))
			return rec, false
		}
	} else {
		if e.Val.Kind == readkit.Map {
			// The last of repeated keys wins, as it did in a Go map.
			for _, fd := range e.Val.Fields {
				switch fd.Key {
				case "result":
					result = fd.Val
				case "params":
					params = fd.Val
				case "samples":
					samples = fd.Val
				}
			}
		} else {
			result = e.Val
		}
		if v, ok := f.benchVersions[e.Key]; ok {
			rec.version, rec.hasVersion = v, true
		}
	}
	if version != nil && version.Kind != readkit.Null {
		rec.version, rec.hasVersion = asvText(version), true
	}

	if params != nil && params.Kind != readkit.Null {
		if params.Kind != readkit.List {
			r.warn(rel, e.Line, "benchmark %q: params: a JSON %s, want a list of lists of values; skipped", e.Key, asvJSONKind(params))
			return rec, false
		}
		for i := range params.Len() {
			l := params.Elem(i)
			switch l.Kind {
			case readkit.Null:
				rec.params = append(rec.params, []string{})
				continue
			case readkit.List:
			default:
				r.warn(rel, e.Line, "benchmark %q: params: a JSON %s, want a list of lists of values; skipped", e.Key, asvJSONKind(l))
				return rec, false
			}
			vals := make([]string, l.Len())
			for j := range vals {
				vals[j] = asvParamValue(l.Elem(j))
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

	switch {
	case result == nil || result.Kind == readkit.Null:
		// Every combination failed (asv compresses a list of nulls).
	case result.Kind == readkit.List:
		rec.values = make([]asvValue, 0, result.Len())
		for _, x := range result.Nums {
			rec.values = append(rec.values, asvValue{v: x.Float()})
		}
		for _, v := range result.Items {
			rec.values = append(rec.values, asvNumber(v))
		}
	default:
		rec.values = []asvValue{asvNumber(result)}
	}
	if rec.values != nil && len(rec.values) != n {
		if !slices.ContainsFunc(rec.values, func(v asvValue) bool { return v.kind != asvFailed }) {
			// Nulls only, fewer (or more) than the combinations: the
			// whole benchmark failed, as asv's older files say it
			// ([null] for 3 combinations in emsig/empymod-bench's);
			// asv reads every missing combination as failed.
			rec.values = nil
		} else {
			r.warn(rel, e.Line, "benchmark %q: %d results for %d parameter combinations; skipped", e.Key, len(rec.values), n)
			return rec, false
		}
	}

	if samples != nil && samples.Kind != readkit.Null {
		if samples.Kind != readkit.List || samples.Len() != n {
			r.warn(rel, e.Line, "benchmark %q: samples are not one list per parameter combination; using the results alone", e.Key)
		} else {
			rec.samples = make([][]float64, n)
			for j := range n {
				raw := samples.Elem(j)
				switch raw.Kind {
				case readkit.Null:
					continue
				case readkit.List:
				default:
					r.warn(rel, e.Line, "benchmark %q: samples of combination %d: a JSON %s, want a list; using its result alone", e.Key, j+1, asvJSONKind(raw))
					continue
				}
				xs := make([]float64, 0, raw.Len())
				for _, x := range raw.Nums {
					xs = append(xs, x.Float())
				}
				for _, x := range raw.Items {
					v := asvNumber(x)
					if v.kind != asvOK {
						r.warn(rel, e.Line, "benchmark %q: sample %s of combination %d is not a number; dropped", e.Key, asvShortNode(x), j+1)
						continue
					}
					xs = append(xs, v.v)
				}
				rec.samples[j] = xs
			}
		}
	}
	return rec, true
}

// asvJSONKind names a node's JSON type as encoding/json's type errors do.
func asvJSONKind(n *readkit.Node) string {
	switch n.Kind {
	case readkit.Null:
		return "null"
	case readkit.Bool:
		return "bool"
	case readkit.Int, readkit.Float:
		return "number"
	case readkit.String:
		return "string"
	case readkit.List:
		return "array"
	}
	return "object"
}

// asvStringField reads a string field: "" for null, a type error for
// anything else, in asvTypeMsg's words.
func asvStringField(n *readkit.Node) (string, string) {
	switch n.Kind {
	case readkit.String:
		return n.Text, ""
	case readkit.Null:
		return "", ""
	}
	return "", "a JSON " + asvJSONKind(n) + ", want a string"
}

// asvStringList reads a list of strings (nil for null).
func asvStringList(n *readkit.Node) ([]string, string) {
	switch n.Kind {
	case readkit.Null:
		return nil, ""
	case readkit.List:
	default:
		return nil, "a JSON " + asvJSONKind(n) + ", want a list"
	}
	if len(n.Nums) > 0 {
		return nil, "a JSON number, want a string"
	}
	out := make([]string, len(n.Items))
	for i, x := range n.Items {
		s, err := asvStringField(x)
		if err != "" {
			return nil, err
		}
		out[i] = s
	}
	return out, ""
}

// asvInt reads an integer field (0 for null).
func asvInt(n *readkit.Node) (int, string) {
	switch n.Kind {
	case readkit.Null:
		return 0, ""
	case readkit.Int:
		if n.Int >= math.MinInt && n.Int <= math.MaxInt {
			return int(n.Int), ""
		}
	case readkit.Float:
	default:
		return 0, "a JSON " + asvJSONKind(n) + ", want an integer"
	}
	return 0, "a JSON number " + asvText(n) + ", want an integer"
}

// asvStrings reads an object of scalars as strings, leaving out nulls (of
// repeated keys, the last).
func asvStrings(n *readkit.Node) (map[string]string, string) {
	switch n.Kind {
	case readkit.Null:
		return map[string]string{}, ""
	case readkit.Map:
	default:
		return nil, "a JSON " + asvJSONKind(n) + ", want an object"
	}
	out := make(map[string]string, len(n.Fields))
	for _, fd := range n.Fields {
		if fd.Val.Kind == readkit.Null {
			delete(out, fd.Key)
			continue
		}
		out[fd.Key] = asvText(fd.Val)
	}
	return out, ""
}

// asvDate reads a JavaScript timestamp (milliseconds since the epoch).
func asvDate(n *readkit.Node) (time.Time, string) {
	switch n.Kind {
	case readkit.Null:
		return time.Time{}, ""
	case readkit.Int, readkit.Float:
	default:
		return time.Time{}, "a JSON " + asvJSONKind(n) + ", want a number"
	}
	ms := n.Float
	if math.IsNaN(ms) || math.IsInf(ms, 0) || ms <= 0 || ms > 1e15 {
		return time.Time{}, asvText(n) + " is not a time in milliseconds since 1970"
	}
	return time.UnixMilli(int64(ms)).UTC(), ""
}

// asvText is a scalar as text: a string's content, a number as written
// when the parser kept it, else in its shortest form, true or false, and
// null as "None", as Python prints it; a list or object as compact JSON.
func asvText(n *readkit.Node) string {
	switch n.Kind {
	case readkit.String:
		return n.Text
	case readkit.Null:
		return "None"
	case readkit.Int, readkit.Float:
		if n.Text != "" {
			return n.Text
		}
	}
	if s, ok := n.AsParam(); ok {
		return s
	}
	var b strings.Builder
	asvWrite(&b, n)
	return b.String()
}

// asvWrite writes n as compact JSON.
func asvWrite(b *strings.Builder, n *readkit.Node) {
	switch n.Kind {
	case readkit.String:
		b.WriteString(strconv.Quote(n.Text))
	case readkit.List:
		b.WriteByte('[')
		for i := range n.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			asvWrite(b, n.Elem(i))
		}
		b.WriteByte(']')
	case readkit.Map:
		b.WriteByte('{')
		for i, fd := range n.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(fd.Key) + ": ")
			asvWrite(b, fd.Val)
		}
		b.WriteByte('}')
	case readkit.Null:
		b.WriteString("null")
	default:
		b.WriteString(asvText(n))
	}
}

// asvShortNode is a value's text for a message, at most 40 bytes.
func asvShortNode(n *readkit.Node) string {
	var b strings.Builder
	asvWrite(&b, n)
	return asvShortText(b.String())
}

// asvParamValue turns a parameter value, which asv stores as its Python
// repr, into the value a reader expects: 'a' → a; numbers and other reprs
// stay as they are.
func asvParamValue(n *readkit.Node) string {
	s := asvText(n)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] && !strings.ContainsAny(s[1:len(s)-1], `\'"`) {
		return s[1 : len(s)-1]
	}
	return s
}

// asvNumber reads a value; the bare NaN, Infinity and -Infinity tokens
// were parsed as strings (JSONOptions.NonFinite).
func asvNumber(n *readkit.Node) asvValue {
	switch n.Kind {
	case readkit.Null:
		return asvValue{kind: asvFailed}
	case readkit.String:
		switch n.Text {
		case "NaN":
			return asvValue{kind: asvSkipped}
		case "Infinity":
			return asvValue{v: math.Inf(1)}
		case "-Infinity":
			return asvValue{v: math.Inf(-1)}
		}
	case readkit.Int, readkit.Float:
		if !math.IsInf(n.Float, 0) {
			return asvValue{v: n.Float}
		}
	}
	return asvValue{kind: asvBad, raw: asvShortNode(n)}
}
