package foreign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
// under .benchmarks/<machine id>/ (the same document; reference/peers.md
// §6.4):
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
	lines    *readkit.Lines
	problems []archive.Problem
	dropped  int // warnings past maxProblems
}

// pytestField is one member of a JSON object and where its value starts.
type pytestField struct {
	raw json.RawMessage
	off int
}

// pytestEntry is one benchmark of the file, read but not yet named.
type pytestEntry struct {
	line     int
	name     string // the test's name without the [id] suffix
	fullname string // the fullname without the suffix
	params   model.Params
	samples  []float64
}

func readPytest(in Input, def Defaults) (_ []model.Run, problems []archive.Problem) {
	r := &pytestReader{file: in.Name, data: readkit.Lenient(bytes.TrimPrefix(in.Data, []byte("\uFEFF")))}
	r.lines = readkit.NewLines(r.data)
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
func (r *pytestReader) document() (map[string]pytestField, []pytestField, bool) {
	dec := json.NewDecoder(bytes.NewReader(r.data))
	tok, err := dec.Token()
	if err != nil {
		r.fail(r.syntaxLine(), "not JSON: %v", r.syntaxMsg(err))
		return nil, nil, false
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		r.fail(r.line(r.skip(0)), "not a pytest-benchmark file: the document is not an object")
		return nil, nil, false
	}
	top := map[string]pytestField{}
	var benches []pytestField
	sawBenchmarks := false
	broken := false
	for !broken && dec.More() {
		tok, err := dec.Token()
		if err != nil {
			broken = true
			break
		}
		key, _ := tok.(string)
		off := r.skip(int(dec.InputOffset()))
		if key != "benchmarks" || off >= len(r.data) || r.data[off] != '[' {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				broken = true
				break
			}
			if key == "benchmarks" {
				sawBenchmarks = true
				if !bytes.Equal(raw, []byte("null")) {
					r.fail(r.line(off), "benchmarks: want a list, got %s", jsonKind(raw))
					return nil, nil, false
				}
			}
			top[key] = pytestField{raw, off}
			continue
		}
		sawBenchmarks = true
		top[key] = pytestField{nil, off}
		if _, err := dec.Token(); err != nil {
			broken = true
			break
		}
		for dec.More() {
			boff := r.skip(int(dec.InputOffset()))
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				broken = true
				break
			}
			benches = append(benches, pytestField{raw, boff})
		}
		if !broken {
			if _, err := dec.Token(); err != nil {
				broken = true
			}
		}
	}
	if !broken {
		if _, err := dec.Token(); err != nil {
			broken = true
		} else if _, err := dec.Token(); err != io.EOF {
			r.warn(r.line(r.skip(int(dec.InputOffset()))), "data after the end of the document ignored")
		}
	}
	if broken {
		msg := "malformed JSON"
		if err := json.Unmarshal(r.data, new(json.RawMessage)); err != nil {
			msg = r.syntaxMsg(err)
		}
		if len(benches) == 0 {
			r.fail(r.syntaxLine(), "%s", msg)
			return nil, nil, false
		}
		r.warn(r.syntaxLine(), "%s; kept the %d benchmarks before it", msg, len(benches))
	}
	switch {
	case !sawBenchmarks:
		r.fail(0, "not a pytest-benchmark file: no benchmarks list")
		return nil, nil, false
	case len(benches) == 0:
		r.fail(r.line(top["benchmarks"].off), "the benchmarks list is empty (pytest-benchmark leaves out the benchmarks of failed tests)")
		return nil, nil, false
	}
	return top, benches, true
}

// benchmark reads one element of the benchmarks list. fromMin reports that
// the sample is stats.min for want of stats.data.
func (r *pytestReader) benchmark(b pytestField) (e pytestEntry, fromMin, ok bool) {
	e.line = r.line(b.off)
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
	if f, ok := fields["params"]; ok && !pytestNull(f.raw) {
		obj, err := r.object(f)
		if err != nil {
			r.warn(r.line(f.off), "%s: params: %v; ignored", label, err)
		}
		for k, v := range obj {
			pm[k] = pytestParamValue(v.raw)
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
	if !ok || pytestNull(st.raw) {
		r.warn(e.line, "%s: no stats; skipped", label)
		return e, false, false
	}
	stats, err := r.object(st)
	if err != nil {
		r.warn(r.line(st.off), "%s: stats: %v; skipped", label, err)
		return e, false, false
	}
	if d, ok := stats["data"]; ok && !pytestNull(d.raw) {
		var n int
		e.samples, n = r.samples(d, label)
		if len(e.samples) > 0 {
			return e, false, true
		}
		if n > 0 {
			r.warn(r.line(d.off), "%s: stats.data holds no valid sample; skipped", label)
			return e, false, false
		}
	}
	m, ok := stats["min"]
	if !ok || pytestNull(m.raw) {
		r.warn(r.line(st.off), "%s: neither stats.data nor stats.min; skipped", label)
		return e, false, false
	}
	x, msg := pytestDuration(m.raw)
	if msg != "" {
		r.warn(r.line(m.off), "%s: stats.min %s; skipped", label, msg)
		return e, false, false
	}
	e.samples = []float64{x}
	return e, true, true
}

// samples reads stats.data, dropping (and reporting) the values that are
// not durations; n is the number of values the list holds.
func (r *pytestReader) samples(f pytestField, label string) (out []float64, n int) {
	dec := json.NewDecoder(bytes.NewReader(f.raw))
	dec.UseNumber()
	var vals []any
	if err := dec.Decode(&vals); err != nil {
		r.warn(r.line(f.off), "%s: stats.data: want a list of numbers, got %s", label, jsonKind(f.raw))
		return nil, 1
	}
	out = make([]float64, 0, len(vals))
	var bad []string
	for i, v := range vals {
		n, isNum := v.(json.Number)
		if s, isStr := v.(string); isStr {
			if _, ok := readkit.NonFinite([]byte(strconv.Quote(s))); ok {
				n, isNum = json.Number(strconv.Quote(s)), true
			}
		}
		if !isNum {
			bad = append(bad, fmt.Sprintf("[%d] is %s", i, pytestKindOf(v)))
			continue
		}
		x, msg := pytestDuration(json.RawMessage(n))
		if msg != "" {
			bad = append(bad, fmt.Sprintf("[%d] %s", i, msg))
			continue
		}
		out = append(out, x)
	}
	if nbad := len(bad); nbad > 0 {
		const show = 3
		more := ""
		if nbad > show {
			more = fmt.Sprintf(" and %d more", nbad-show)
			bad = bad[:show]
		}
		r.warn(r.line(f.off), "%s: dropped %d invalid samples of stats.data: %s%s", label, nbad, strings.Join(bad, ", "), more)
	}
	return out, len(vals)
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
func (r *pytestReader) artifact(top map[string]pytestField, def model.Artifact) model.Artifact {
	art := def
	art.Parents = append([]string(nil), def.Parents...)
	var ci map[string]pytestField
	if f, ok := top["commit_info"]; ok && !pytestNull(f.raw) {
		var err error
		if ci, err = r.object(f); err != nil {
			r.warn(r.line(f.off), "commit_info: %v; ignored", err)
		}
	}
	id, _ := r.stringField(ci, "id", "commit_info")
	id = strings.TrimSpace(id)
	switch {
	case pytestFullSHA(strings.ToLower(id)):
		id = strings.ToLower(id)
		if def.ID != "" && def.ID != id {
			r.warn(r.line(ci["id"].off), "commit_info.id %s is not the given artifact %s; using the file's", id, def.ID)
			art = model.Artifact{}
		}
		art.ID = id
		if art.Kind == "" {
			art.Kind = model.KindCommit
		}
		if s, _ := r.stringField(ci, "time", "commit_info"); s != "" {
			if t, err := pytestTime(s); err != nil {
				r.warn(r.line(ci["time"].off), "commit_info.time %q is not a date; ignored", s)
			} else {
				art.Date = t
			}
		}
		if b, _ := r.stringField(ci, "branch", "commit_info"); b != "" && b != "(unknown)" && b != "(detached head)" && b != "HEAD" {
			art.Branch = b
		}
		if f, ok := ci["dirty"]; ok && bytes.Equal(bytes.TrimSpace(f.raw), []byte("true")) {
			r.warn(r.line(f.off), "measured on a working tree with uncommitted changes (commit_info.dirty); results attributed to commit %s", id)
		}
	case def.ID != "":
	case id == "" || id == "unversioned" || id == "unknown":
		r.warn(r.line(top["commit_info"].off), "the file names no commit (commit_info.id %q) and no artifact was given", id)
	default:
		r.warn(r.line(ci["id"].off), "commit_info.id %q is not a full commit sha and no artifact was given", id)
	}
	if art.Date.IsZero() {
		if s, _ := r.stringField(top, "datetime", "document"); s != "" {
			if t, err := pytestTime(s); err != nil {
				r.warn(r.line(top["datetime"].off), "datetime %q is not a date; ignored", s)
			} else {
				art.Date = t
			}
		}
	}
	return art
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

func (r *pytestReader) machine(f pytestField, def model.Machine) model.Machine {
	m := def
	var mi map[string]pytestField
	if f.raw != nil && !pytestNull(f.raw) {
		var err error
		if mi, err = r.object(f); err != nil {
			r.warn(r.line(f.off), "machine_info: %v; ignored", err)
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
	var cpu map[string]pytestField
	if c, ok := mi["cpu"]; ok && !pytestNull(c.raw) {
		var err error
		if cpu, err = r.object(c); err != nil {
			r.warn(r.line(c.off), "machine_info.cpu: %v; ignored", err)
		}
	}
	brand, _ := r.stringField(cpu, "brand_raw", "machine_info.cpu")
	if brand == "" {
		brand, _ = r.stringField(cpu, "brand", "machine_info.cpu")
	}
	if brand = strings.TrimSpace(brand); brand != "" && brand != "unknown" {
		m.CPU = brand
	}
	if c, ok := cpu["count"]; ok && !pytestNull(c.raw) {
		if n, err := strconv.Atoi(string(bytes.TrimSpace(c.raw))); err == nil && n > 0 {
			m.Cores = n
		} else {
			r.warn(r.line(c.off), "machine_info.cpu.count %s is not a number of cores; ignored", bytes.TrimSpace(c.raw))
		}
	}
	if m.Name == "" {
		r.warn(r.line(f.off), "the file names no machine (machine_info.node) and no machine was given")
	}
	return m
}

func (r *pytestReader) context(f pytestField, def model.Params) model.Params {
	ctx := map[string]string{}
	for _, kv := range def {
		ctx[kv.Key] = kv.Value
	}
	if _, set := ctx["python"]; !set && f.raw != nil && !pytestNull(f.raw) {
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

// object splits a JSON object (from a decoder, so valid) into its
// members, noting where each value starts.
func (r *pytestReader) object(f pytestField) (map[string]pytestField, error) {
	raw := bytes.TrimSpace(f.raw)
	kind, parts := splitJSON(raw)
	if kind != '{' {
		return nil, fmt.Errorf("want an object, got %s", jsonKind(raw))
	}
	out := make(map[string]pytestField, len(parts))
	for _, p := range parts {
		out[p.Key] = pytestField{p.Raw, f.off + p.Off}
	}
	return out, nil
}

// stringField returns a string member; a member of another type is
// reported and treated as absent. ok is false when the member is absent,
// null or not a string.
func (r *pytestReader) stringField(obj map[string]pytestField, key, where string) (string, bool) {
	f, present := obj[key]
	if !present || pytestNull(f.raw) {
		return "", false
	}
	var s string
	if err := json.Unmarshal(f.raw, &s); err != nil {
		r.warn(r.line(f.off), "%s: %s: want a string, got %s; ignored", where, key, jsonKind(f.raw))
		return "", false
	}
	return s, true
}

func (r *pytestReader) warn(line int, format string, args ...any) {
	if !full(r.problems, &r.dropped) {
		r.problems = append(r.problems, problem(r.file, line, format, args...))
	}
}

func (r *pytestReader) fail(line int, format string, args ...any) {
	r.problems = append(r.problems, fatal(r.file, line, format, args...))
}

// line is the 1-based line of byte offset off.
func (r *pytestReader) line(off int) int { return r.lines.At(off) }

// skip returns the offset of the first byte at or after off that is not
// white space or a separator (':' or ',').
func (r *pytestReader) skip(off int) int { return pytestSkip(r.data, off) }

func pytestSkip(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// syntaxLine is the line of the file's first syntax error (the last line
// for a truncated file).
func (r *pytestReader) syntaxLine() int {
	var se *json.SyntaxError
	if err := json.Unmarshal(r.data, new(json.RawMessage)); errors.As(err, &se) {
		return r.lines.Error(se.Offset)
	}
	return r.lines.Count()
}

func (r *pytestReader) syntaxMsg(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected end of JSON input") {
		return "file ends in the middle of the JSON document (truncated?)"
	}
	return "malformed JSON: " + err.Error()
}

// pytestParamValue writes a parameter's value as text: a string as itself,
// anything else as compact JSON with sorted keys and numbers as written.
func pytestParamValue(raw json.RawMessage) string {
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '"' && json.Valid(t) {
		return jsonKey(t) // the common case, without a decoder's buffers
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(bytes.TrimSpace(raw))
	}
	if s, ok := v.(string); ok {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(bytes.TrimSpace(raw))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// pytestDuration reads a number of seconds; msg says what is wrong with it.
func pytestDuration(raw json.RawMessage) (x float64, msg string) {
	s := string(bytes.TrimSpace(raw))
	if _, ok := readkit.NonFinite(raw); ok {
		return 0, "is " + strings.Trim(s, `"`)
	}
	x, err := strconv.ParseFloat(s, 64)
	switch {
	case s == "null":
		return 0, "is null"
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, "is " + jsonKind(raw) + ", not a number"
	case math.IsInf(x, 0) || math.IsNaN(x):
		return 0, "is " + s + ", out of range"
	case x < 0:
		return 0, "is " + s + ", a negative duration"
	}
	return x, ""
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

func pytestNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

func pytestKindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "a number"
}
