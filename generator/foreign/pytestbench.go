package foreign

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// pytest-benchmark files: the JSON that `pytest --benchmark-json=FILE`
// writes, and the files `--benchmark-save`/`--benchmark-autosave` keep
// under .benchmarks/<machine id>/ (the same document; pytest-benchmark's
// session.py and stats.py):
//
//	{"machine_info": {node, processor, machine, system, python_*, cpu: {…}},
//	 "commit_info": {id, time, author_time, dirty, project, branch},
//	 "benchmarks": [{group, name, fullname, params, param, extra_info,
//	                 options, stats: {min, max, mean, …, data: […], iterations}}],
//	 "datetime": "…", "version": "…"}
//
// The mapping:
//
//   - each benchmark gives one result of metric wall-time, unit "s": its
//     samples are stats.data, one value per round, each already the round's
//     time divided by its iterations (seconds per iteration). Iters is left
//     empty: every round of a benchmark runs the same calibrated number of
//     iterations, so the counts would add nothing to per-iteration samples.
//   - Saved files hold stats.data only with --benchmark-save-data. Without
//     it the file has nothing but aggregates; the reader then uses stats.min
//     as the one sample of each benchmark (min, because it is what the
//     default single value "best" takes from the rounds when they are
//     there, and what pytest-benchmark itself compares by default) and says
//     so in one problem per file.
//   - The benchmark is the test's name without its "[id]" suffix
//     ("test_fib[10]" → "test_fib"); params are the test's parameters, with
//     values that are not strings written as compact JSON ({"n": 10} →
//     n=10, {"x": [1, 2]} → x=[1,2], true → true, null → null) so the same
//     value always gives the same text. A parametrized test whose params are
//     missing keeps its id as param "param". The benchmark group
//     (`@pytest.mark.benchmark(group=…)`) is param "group": groups are how
//     pytest-benchmark users tell related benchmarks apart, not a
//     primary/secondary ranking, so every result is primary. When two tests
//     of one file share a name and parameters (the same test name in two
//     modules or classes), those tests are named by their fullname without
//     the suffix ("tests/test_a.py::TestX::test_fib") instead.
//   - machine_info gives the machine: os from "system", arch from "machine"
//     (in Go's spelling: x86_64 → amd64), cpu from cpu.brand_raw or
//     cpu.brand, cores from cpu.count (pytest-benchmark 4 and later; 3.x
//     keeps only vendor_id, hardware and brand of py-cpuinfo's answer).
//     Its name is the caller's machine name when one is given, else "node"
//     (the host name): CI runners get a new host name on every run, and the
//     machine's name is what keeps a series together.
//   - the context gets python = "<implementation> <major.minor>" (the
//     interpreter is the toolchain; pytest-benchmark's own storage splits
//     results by it in the same way), unless the caller's context sets
//     python.
//   - commit_info gives the artifact when its id is a full commit sha (git
//     or Mercurial; pytest-benchmark writes "unversioned" outside a
//     repository): id, kind commit, date from "time" (the commit time),
//     branch. Otherwise the caller's artifact is used. A "dirty" working
//     tree is reported, and the results stay with the commit. The run's
//     "datetime" is the date of last resort.
//
// pytest-benchmark leaves failed tests out of the file, so a result never
// carries an error. Its unit is always seconds.

// init registers the format under its contract name.
func init() {
	register(Format{Name: "pytest-benchmark", Read: readPytest, Sniff: sniffPytest})
}

// pytestSniffWindow bounds how much of a file Sniff looks at: machine_info
// and commit_info come first in every file pytest-benchmark writes, and
// even a long CPU flag list fits well inside.
const pytestSniffWindow = 64 << 10

func sniffPytest(in Input) bool {
	data := in.Data
	if len(data) > pytestSniffWindow {
		data = data[:pytestSniffWindow]
	}
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\uFEFF")), " \t\r\n")
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	return bytes.Contains(data, []byte(`"machine_info"`)) &&
		(bytes.Contains(data, []byte(`"commit_info"`)) || bytes.Contains(data, []byte(`"fullname"`)))
}

// pytestReader holds the state of reading one file.
type pytestReader struct {
	file     string
	data     []byte
	problems []archive.Problem
	dropped  int // warnings past maxProblems
}

// pytestObject is the members of a JSON object by key (of a repeated
// key, the last).
type pytestObject map[string]*readkit.Node

// pytestEntry is one benchmark of the file, read but not yet named.
type pytestEntry struct {
	line     int
	name     string // the test's name without the [id] suffix
	fullname string // the fullname without the suffix
	params   model.Params
	samples  []float64
}

func readPytest(in Input, def Defaults) (_ []model.Run, problems []archive.Problem) {
	r := &pytestReader{file: in.Name, data: bytes.TrimPrefix(in.Data, []byte("\uFEFF"))}
	defer func() { problems = withDropped(problems, r.file, r.dropped) }()
	top, benches, ok := r.document()
	if !ok {
		return nil, r.problems
	}

	run := model.Run{
		Artifact: r.artifact(top, def.Artifact),
		Machine:  r.machine(top["machine_info"], def.Machine),
		Context:  r.context(top["machine_info"], def.Context),
	}
	var entries []pytestEntry
	usedMin := 0
	for _, b := range benches {
		if e, fromMin, ok := r.benchmark(b); ok {
			entries = append(entries, e)
			if fromMin {
				usedMin++
			}
		}
	}
	if usedMin > 0 {
		r.warn(0, "%d of %d benchmarks have no per-round samples (stats.data, saved only with --benchmark-save-data); their stats.min is used as the only sample", usedMin, len(entries))
	}
	run.Results = r.results(entries)
	if len(run.Results) == 0 {
		r.fail(0, "no usable benchmarks")
		return nil, r.problems
	}
	return []model.Run{run}, r.problems
}

// document reads the top-level object, keeping its members and the
// benchmarks that precede any syntax error: a truncated file still gives
// the benchmarks written before the cut.
func (r *pytestReader) document() (pytestObject, []*readkit.Node, bool) {
	root, end, perr := parseJSON(r.file, r.data, readkit.JSONOptions{Trailing: true, Duplicates: true, NonFinite: true, Partial: true})
	msg, syntaxLine := "", 0
	if perr != nil {
		se, line, ok := jsonSyntax(perr, r.data)
		switch {
		case !ok:
			msg = perr.Msg
		case se.Truncated:
			msg = "file ends in the middle of the JSON document (truncated?)"
		default:
			msg = "malformed JSON: " + se.Msg
		}
		syntaxLine = line
		if root == nil {
			r.fail(syntaxLine, "not JSON: %s", msg)
			return nil, nil, false
		}
	}
	if root.Kind != readkit.Map {
		r.fail(root.Line, "not a pytest-benchmark file: the document is not an object")
		return nil, nil, false
	}
	top := pytestObject{}
	var benches []*readkit.Node
	sawBenchmarks := false
	for _, f := range root.Fields {
		v := f.Val
		if f.Key != "benchmarks" || v.Kind != readkit.List {
			if v.Partial {
				break
			}
			if f.Key == "benchmarks" {
				sawBenchmarks = true
				if v.Kind != readkit.Null {
					r.fail(v.Line, "benchmarks: want a list, got %s", jsonKind(v))
					return nil, nil, false
				}
			}
			top[f.Key] = v
			continue
		}
		sawBenchmarks = true
		top[f.Key] = v
		for _, b := range v.Elems() {
			if !b.Partial {
				benches = append(benches, b)
			}
		}
	}
	if perr == nil {
		if l, ok := trailing(r.data, end, false); ok {
			r.warn(l, "data after the end of the document ignored")
		}
	} else {
		if len(benches) == 0 {
			r.fail(syntaxLine, "%s", msg)
			return nil, nil, false
		}
		r.warn(syntaxLine, "%s; kept the %d benchmarks before it", msg, len(benches))
	}
	switch {
	case !sawBenchmarks:
		r.fail(0, "not a pytest-benchmark file: no benchmarks list")
		return nil, nil, false
	case len(benches) == 0:
		r.fail(top["benchmarks"].Line, "the benchmarks list is empty (pytest-benchmark leaves out the benchmarks of failed tests)")
		return nil, nil, false
	}
	return top, benches, true
}

// benchmark reads one element of the benchmarks list. fromMin reports that
// the sample is stats.min for want of stats.data.
func (r *pytestReader) benchmark(b *readkit.Node) (e pytestEntry, fromMin, ok bool) {
	e.line = b.Line
	fields, err := r.object(b)
	if err != nil {
		r.warn(e.line, "benchmark: %v; skipped", err)
		return e, false, false
	}
	name, _ := r.stringField(fields, "name", "benchmark")
	full, _ := r.stringField(fields, "fullname", "benchmark")
	label := name
	if label == "" {
		label = full
	}
	if label == "" {
		r.warn(e.line, "benchmark without a name; skipped")
		return e, false, false
	}
	if name == "" {
		// fullname is "path::[Class::]test[id]"; the test's name is its last part.
		name = full[strings.LastIndex(full, "::")+1:]
		name = strings.TrimPrefix(name, ":")
	}
	id := ""
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		// A Python function's name never holds '[', so the first one opens
		// the parametrization id, whatever the id itself contains.
		name, id = name[:i], name[i+1:len(name)-1]
	}
	e.name = name
	e.fullname = full
	if i := strings.IndexByte(full, '['); i > 0 && strings.HasSuffix(full, "]") {
		e.fullname = full[:i]
	}
	if e.fullname == "" {
		e.fullname = e.name
	}

	pm := map[string]string{}
	if f, ok := fields["params"]; ok && f.Kind != readkit.Null {
		obj, err := r.object(f)
		if err != nil {
			r.warn(f.Line, "%s: params: %v; ignored", label, err)
		}
		for k, v := range obj {
			pm[k] = r.paramValue(v)
		}
	}
	if len(pm) == 0 && id != "" {
		pm["param"] = id
	}
	if g, ok := r.stringField(fields, "group", label); ok && g != "" {
		if _, clash := pm["group"]; clash {
			r.warn(e.line, "%s: the test has a parameter called group; benchmark group %q not recorded", label, g)
		} else {
			pm["group"] = g
		}
	}
	e.params = model.NewParams(pm)

	st, ok := fields["stats"]
	if !ok || st.Kind == readkit.Null {
		r.warn(e.line, "%s: no stats; skipped", label)
		return e, false, false
	}
	stats, err := r.object(st)
	if err != nil {
		r.warn(st.Line, "%s: stats: %v; skipped", label, err)
		return e, false, false
	}
	if d, ok := stats["data"]; ok && d.Kind != readkit.Null {
		var n int
		e.samples, n = r.samples(d, label)
		if len(e.samples) > 0 {
			return e, false, true
		}
		if n > 0 {
			r.warn(d.Line, "%s: stats.data holds no valid sample; skipped", label)
			return e, false, false
		}
	}
	m, ok := stats["min"]
	if !ok || m.Kind == readkit.Null {
		r.warn(st.Line, "%s: neither stats.data nor stats.min; skipped", label)
		return e, false, false
	}
	x, msg := pytestDuration(m, readkit.Source(r.data, m))
	if msg != "" {
		r.warn(m.Line, "%s: stats.min %s; skipped", label, msg)
		return e, false, false
	}
	e.samples = []float64{x}
	return e, true, true
}

// samples reads stats.data, dropping (and reporting) the values that are
// not durations; n is the number of values the list holds.
func (r *pytestReader) samples(d *readkit.Node, label string) (out []float64, n int) {
	if d.Kind != readkit.List {
		r.warn(d.Line, "%s: stats.data: want a list of numbers, got %s", label, jsonKind(d))
		return nil, 1
	}
	out = make([]float64, 0, d.Len())
	for _, x := range d.Nums { // a list of numbers only
		if f := x.Float(); f >= 0 {
			out = append(out, f)
		}
	}
	var bad []string
	if len(out) < d.Len() {
		out = out[:0]
		texts := readkit.ElemSources(r.data, d)
		for i := range d.Len() {
			v := d.Elem(i)
			if _, nonFinite := readkit.NonFinite(v); !v.IsNumber() && !nonFinite {
				bad = append(bad, fmt.Sprintf("[%d] is %s", i, jsonKind(v)))
				continue
			}
			x, msg := pytestDuration(v, texts[i])
			if msg != "" {
				bad = append(bad, fmt.Sprintf("[%d] %s", i, msg))
				continue
			}
			out = append(out, x)
		}
	}
	if nbad := len(bad); nbad > 0 {
		const show = 3
		more := ""
		if nbad > show {
			more = fmt.Sprintf(" and %d more", nbad-show)
			bad = bad[:show]
		}
		r.warn(d.Line, "%s: dropped %d invalid samples of stats.data: %s%s", label, nbad, strings.Join(bad, ", "), more)
	}
	return out, d.Len()
}

// results names the entries and drops duplicates.
func (r *pytestReader) results(entries []pytestEntry) []model.Result {
	type key struct{ name, params string }
	fulls := map[key]map[string]bool{}
	for _, e := range entries {
		k := key{e.name, e.params.String()}
		if fulls[k] == nil {
			fulls[k] = map[string]bool{}
		}
		fulls[k][e.fullname] = true
	}
	first := map[key]int{}
	var out []model.Result
	for _, e := range entries {
		name := e.name
		if len(fulls[key{e.name, e.params.String()}]) > 1 {
			name = e.fullname
		}
		k := key{name, e.params.String()}
		tc := model.TestCase{Benchmark: name, Params: e.params, Category: model.Primary}
		if line, dup := first[k]; dup {
			r.warn(e.line, "duplicate benchmark %s (first at line %d); kept the first", tc, line)
			continue
		}
		first[k] = e.line
		out = append(out, model.Result{Case: tc, Metric: "wall-time", Unit: "s", Samples: e.samples})
	}
	return out
}

// artifact takes the commit from commit_info when it names one, else the
// caller's artifact.
func (r *pytestReader) artifact(top pytestObject, def model.Artifact) model.Artifact {
	art := def
	art.Parents = append([]string(nil), def.Parents...)
	var ci pytestObject
	if f, ok := top["commit_info"]; ok && f.Kind != readkit.Null {
		var err error
		if ci, err = r.object(f); err != nil {
			r.warn(f.Line, "commit_info: %v; ignored", err)
		}
	}
	id, _ := r.stringField(ci, "id", "commit_info")
	id = strings.TrimSpace(id)
	switch {
	case pytestFullSHA(strings.ToLower(id)):
		id = strings.ToLower(id)
		if def.ID != "" && def.ID != id {
			r.warn(ci["id"].Line, "commit_info.id %s is not the given artifact %s; using the file's", id, def.ID)
			art = model.Artifact{}
		}
		art.ID = id
		if art.Kind == "" {
			art.Kind = model.KindCommit
		}
		if s, _ := r.stringField(ci, "time", "commit_info"); s != "" {
			if t, err := pytestTime(s); err != nil {
				r.warn(ci["time"].Line, "commit_info.time %q is not a date; ignored", s)
			} else {
				art.Date = t
			}
		}
		if b, _ := r.stringField(ci, "branch", "commit_info"); b != "" && b != "(unknown)" && b != "(detached head)" && b != "HEAD" {
			art.Branch = b
		}
		if f, ok := ci["dirty"]; ok && f.Kind == readkit.Bool && f.Bool {
			r.warn(f.Line, "measured on a working tree with uncommitted changes (commit_info.dirty); results attributed to commit %s", id)
		}
	case def.ID != "":
	case id == "" || id == "unversioned" || id == "unknown":
		r.warn(pytestLine(top["commit_info"]), "the file names no commit (commit_info.id %q) and no artifact was given", id)
	default:
		r.warn(ci["id"].Line, "commit_info.id %q is not a full commit sha and no artifact was given", id)
	}
	if art.Date.IsZero() {
		if s, _ := r.stringField(top, "datetime", "document"); s != "" {
			if t, err := pytestTime(s); err != nil {
				r.warn(top["datetime"].Line, "datetime %q is not a date; ignored", s)
			} else {
				art.Date = t
			}
		}
	}
	return art
}

// pytestLine is the line of a member, 1 when it is missing.
func pytestLine(n *readkit.Node) int {
	if n == nil {
		return 1
	}
	return n.Line
}

// pytestArch maps Python's platform.machine() to Go's GOARCH names, the
// spelling the other readers and the native format use.
var pytestArch = map[string]string{
	"x86_64": "amd64", "amd64": "amd64", "x64": "amd64",
	"aarch64": "arm64", "arm64": "arm64", "armv8l": "arm64",
	"i386": "386", "i486": "386", "i586": "386", "i686": "386", "x86": "386",
	"armv6l": "arm", "armv7l": "arm",
	"ppc64le": "ppc64le", "ppc64": "ppc64", "s390x": "s390x", "riscv64": "riscv64",
}

func (r *pytestReader) machine(f *readkit.Node, def model.Machine) model.Machine {
	m := def
	var mi pytestObject
	if f != nil && f.Kind != readkit.Null {
		var err error
		if mi, err = r.object(f); err != nil {
			r.warn(f.Line, "machine_info: %v; ignored", err)
		}
	}
	if m.Name == "" {
		m.Name, _ = r.stringField(mi, "node", "machine_info")
	}
	if s, _ := r.stringField(mi, "system", "machine_info"); s != "" {
		m.OS = strings.ToLower(s)
	}
	if s, _ := r.stringField(mi, "machine", "machine_info"); s != "" {
		s = strings.ToLower(s)
		if a, ok := pytestArch[s]; ok {
			s = a
		}
		m.Arch = s
	}
	var cpu pytestObject
	if c, ok := mi["cpu"]; ok && c.Kind != readkit.Null {
		var err error
		if cpu, err = r.object(c); err != nil {
			r.warn(c.Line, "machine_info.cpu: %v; ignored", err)
		}
	}
	brand, _ := r.stringField(cpu, "brand_raw", "machine_info.cpu")
	if brand == "" {
		brand, _ = r.stringField(cpu, "brand", "machine_info.cpu")
	}
	if brand = strings.TrimSpace(brand); brand != "" && brand != "unknown" {
		m.CPU = brand
	}
	if c, ok := cpu["count"]; ok && c.Kind != readkit.Null {
		text := readkit.Source(r.data, c)
		if n, err := strconv.Atoi(text); err == nil && n > 0 {
			m.Cores = n
		} else {
			r.warn(c.Line, "machine_info.cpu.count %s is not a number of cores; ignored", text)
		}
	}
	if m.Name == "" {
		r.warn(pytestLine(f), "the file names no machine (machine_info.node) and no machine was given")
	}
	return m
}

func (r *pytestReader) context(f *readkit.Node, def model.Params) model.Params {
	ctx := map[string]string{}
	for _, kv := range def {
		ctx[kv.Key] = kv.Value
	}
	if _, set := ctx["python"]; !set && f != nil && f.Kind != readkit.Null {
		mi, _ := r.object(f) // already reported by machine
		impl, _ := r.stringField(mi, "python_implementation", "machine_info")
		ver, _ := r.stringField(mi, "python_version", "machine_info")
		if parts := strings.SplitN(ver, ".", 3); len(parts) >= 2 {
			ver = parts[0] + "." + parts[1]
		}
		if v := strings.TrimSpace(impl + " " + ver); v != "" {
			ctx["python"] = v
		}
	}
	return model.NewParams(ctx)
}

// object returns the members of a JSON object.
func (r *pytestReader) object(n *readkit.Node) (pytestObject, error) {
	if n.Kind != readkit.Map {
		return nil, fmt.Errorf("want an object, got %s", jsonKind(n))
	}
	out := make(pytestObject, len(n.Fields))
	for _, f := range n.Fields {
		out[f.Key] = f.Val
	}
	return out, nil
}

// stringField returns a string member; a member of another type is
// reported and treated as absent. ok is false when the member is absent,
// null or not a string.
func (r *pytestReader) stringField(obj pytestObject, key, where string) (string, bool) {
	f, present := obj[key]
	if !present || f.Kind == readkit.Null {
		return "", false
	}
	if f.Kind != readkit.String {
		r.warn(f.Line, "%s: %s: want a string, got %s; ignored", where, key, jsonKind(f))
		return "", false
	}
	return f.Text, true
}

func (r *pytestReader) warn(line int, format string, args ...any) {
	if !full(r.problems, &r.dropped) {
		r.problems = append(r.problems, problem(r.file, line, format, args...))
	}
}

func (r *pytestReader) fail(line int, format string, args ...any) {
	r.problems = append(r.problems, fatal(r.file, line, format, args...))
}

// paramValue writes a parameter's value as text: a string as itself,
// anything else as compact JSON with sorted keys and numbers as written.
func (r *pytestReader) paramValue(n *readkit.Node) string {
	if n.Kind == readkit.String {
		return n.Text
	}
	// Parsed again from its text, every number keeps how it is written.
	text := readkit.Source(r.data, n)
	v, _, p := readkit.ParseJSON(r.file, []byte(text), readkit.JSONOptions{Duplicates: true, NumberText: true, NonFinite: true})
	if p != nil {
		return text
	}
	var b strings.Builder
	writeCompact(&b, v)
	return b.String()
}

// pytestDuration reads a number of seconds, text as the file writes it;
// msg says what is wrong with it.
func pytestDuration(n *readkit.Node, text string) (x float64, msg string) {
	if _, ok := readkit.NonFinite(n); ok {
		return 0, "is " + n.Text
	}
	switch {
	case n.Kind == readkit.Null:
		return 0, "is null"
	case !n.IsNumber():
		return 0, "is " + jsonKind(n) + ", not a number"
	case math.IsInf(n.Float, 0):
		return 0, "is " + text + ", out of range"
	case n.Float < 0:
		return 0, "is " + text + ", a negative duration"
	}
	return n.Float, ""
}

// pytestTime reads commit_info.time (ISO 8601 with an offset, from git's
// %cI) or datetime (UTC without an offset in pytest-benchmark 3, with
// "+00:00" in later releases).
func pytestTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	t, err := time.Parse("2006-01-02T15:04:05.999999999", s)
	if err != nil {
		t, err = time.Parse("2006-01-02 15:04:05.999999999", s)
	}
	return t.UTC(), err
}

// pytestFullSHA reports whether s is a full git (SHA-1 or SHA-256) or
// Mercurial commit id.
func pytestFullSHA(s string) bool {
	return (len(s) == 40 || len(s) == 64) && model.IsSHA(s)
}
