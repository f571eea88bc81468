package foreign

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// gobench reads the text `go test -bench` prints (the Go benchmark format
// of proposal 14313), parsed by
// golang.org/x/perf/benchfmt, and the same output wrapped in `go test
// -json` events, whose "Output" fields are put back together first (a
// result line usually arrives in two events: the name, then the numbers).
//
// Configuration lines (`key: value`) apply to the results that follow:
//
//   - goos, goarch and cpu are the machine's OS, architecture and CPU;
//   - commit is the artifact id when it holds a full sha (40 or 64 hex
//     digits; anything else is ignored with a warning, as an abbreviated
//     id cannot be matched with the project's history), branch the
//     artifact's branch, and date or commit-time its date (RFC 3339, or
//     the proposal's 2006-01-02T15:04:05-0700);
//   - pkg and every other key are the run's context, so the same benchmark
//     name in two packages gives two series.
//
// A file whose configuration changes between results (several packages,
// several machines) gives one run per distinct artifact × machine ×
// context, in the order they first appear.
//
// A result line's name is split with benchfmt's Name.Parts: the base name
// (without "Benchmark", as benchstat shows it) is the benchmark,
// `/key=value` parts are params, a positional part `/value` is param
// "subN" where N is its 1-based position among the name's slash parts
// (BenchmarkJoin/comma-8 → sub1=comma), and the trailing -N suffix is
// param procs=N (GOMAXPROCS; Go omits it when GOMAXPROCS is 1, so then
// there is no procs param). A key given twice, or a key that collides
// with a generated one, falls back to the positional form with a warning.
//
// Each value/unit pair is one metric:
//
//   - ns/op and sec/op: wall-time in unit "ns" (sec/op values are
//     converted, so series from both spellings join);
//   - MB/s and B/s: throughput in unit "B/s" (Go's MB is 10⁶ bytes);
//   - B/op, allocs/op and any unit from b.ReportMetric: a metric named
//     after the unit as written, in that unit.
//
// Values are converted in decimal, so 2719 ns/op stays exactly 2719.
// The -count repetitions of a benchmark, that is every line with the same
// name in a run, are the samples of one result; the per-line iteration
// count is not kept as Result.Iters, because Go's values are per-op means
// already and Iters would make the analysis pick Criterion's test instead
// of benchstat's Mann–Whitney U (analysis/mannwhitney).
//
// `Unit <unit> better=higher|lower` lines set Result.Direction of that unit
// wherever it occurs in the file. Without one, a unit whose direction
// neither Go nor the unit itself gives (time per op, bytes per op, a rate
// ending in /s) is kept with a warning saying that lower is assumed.
//
// A benchmark that failed (`--- FAIL: BenchmarkX`, its log lines next to
// it) or panicked (`BenchmarkX-8  panic: …`) has no numbers; it becomes a
// wall-time result with Error set, unless the same test case has samples
// from other repetitions, which are kept with a warning. Go prints failed
// names without the -N suffix, so the error result takes the procs value
// its run's results share, if they share one. A parent benchmark that
// failed only because a sub-benchmark did is not repeated.
//
// Lines benchfmt rejects become problems with their line (for -json
// input, the line of the event that started the text line); the rest of
// the file is kept.
var gobenchFormat = Format{Name: "gobench", Read: readGobench, Sniff: sniffGobench}

func init() { register(gobenchFormat) }

// gobenchSniffLimit bounds how much of a file Sniff looks at.
const gobenchSniffLimit = 64 << 10

// gobenchMaxLine is the longest line handed to benchfmt: its scanner stops
// at 64 KiB, and one overlong line must not end the file.
const gobenchMaxLine = 60 << 10

// gobenchFailUnit marks the synthetic result lines that stand for failed
// benchmarks, so that benchfmt attaches the configuration in force there.
const gobenchFailUnit = "\x00failed"

// sniffGobench accepts text holding a benchmark result line and `go test
// -json` output (test2json events, which no other tool writes).
func sniffGobench(in Input) bool {
	data := bytes.TrimPrefix(in.Data, []byte("\xef\xbb\xbf"))
	if len(data) > gobenchSniffLimit {
		data = data[:gobenchSniffLimit]
	}
	if gobenchIsJSON(data) {
		return true
	}
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		if gobenchResultLine(line) {
			return true
		}
	}
	return false
}

// gobenchResultLine reports whether line looks like a benchmark result:
// "BenchmarkName", an iteration count, then value/unit pairs.
func gobenchResultLine(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("Benchmark")) {
		return false
	}
	f := bytes.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 {
		return false
	}
	if _, err := strconv.Atoi(string(f[1])); err != nil {
		return false
	}
	_, err := strconv.ParseFloat(string(f[2]), 64)
	return err == nil
}

// gobenchIsJSON reports whether data opens with a test2json event.
func gobenchIsJSON(data []byte) bool {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	return bytes.Contains(first, []byte(`"Action":"`)) &&
		(bytes.Contains(first, []byte(`"Package":"`)) || bytes.Contains(first, []byte(`"Time":"`)))
}

// gobenchText is the text benchfmt reads, with what the reader needs to
// map it back to the input.
type gobenchText struct {
	data  []byte
	lines []int          // input line of each text line (1-based index); nil: the same
	fails map[int]string // text line of a failure marker → the failure's message
}

func (t *gobenchText) srcLine(line int) int {
	if len(t.lines) == 0 || line < 1 {
		return line
	}
	if line > len(t.lines) {
		return t.lines[len(t.lines)-1]
	}
	return t.lines[line-1]
}

// gobenchEvent is the part of a test2json event the reader needs.
type gobenchEvent struct {
	Action  string
	Package string
	Output  *string
}

// decode reads one event, a line of the file name, parsed in arena: the
// error is encoding/json's for the same line.
func (ev *gobenchEvent) decode(name string, line []byte, arena *readkit.Arena) error {
	defer arena.Reset()
	n, _, p := parseJSON(name, line, readkit.JSONOptions{Duplicates: true, Arena: arena})
	if p != nil {
		if p.Err != nil {
			return p.Err
		}
		return errors.New(p.Msg)
	}
	return readkit.Decode(n, ev)
}

// gobenchUnwrapJSON puts the "Output" fields of `go test -json` events
// back together, one stream per package in the order packages first
// appear, remembering for each text line the event line that started it.
// Lines that are not JSON (stderr mixed in with 2>&1) are kept as text.
func gobenchUnwrapJSON(name string, data []byte) ([]byte, []int, []archive.Problem) {
	type stream struct {
		buf     []byte
		starts  []int
		atStart bool
	}
	var (
		order    []string
		streams  = map[string]*stream{}
		problems []archive.Problem
		arena    readkit.Arena // one event's tree at a time
	)
	add := func(pkg, s string, line int) {
		st := streams[pkg]
		if st == nil {
			st = &stream{atStart: true}
			streams[pkg] = st
			order = append(order, pkg)
		}
		for i := 0; i < len(s); i++ {
			if st.atStart {
				st.starts = append(st.starts, line)
				st.atStart = false
			}
			if s[i] == '\n' {
				st.atStart = true
			}
		}
		st.buf = append(st.buf, s...)
	}
	lineNo := 0
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		lineNo++
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			continue
		}
		if trimmed[0] != '{' {
			add("\x00text", string(trimmed)+"\n", lineNo)
			continue
		}
		var ev gobenchEvent
		if err := ev.decode(name, trimmed, &arena); err != nil {
			problems = append(problems, problem(name, lineNo, "not a go test -json event: %v", err))
			continue
		}
		if ev.Action == "output" && ev.Output != nil {
			add(ev.Package, *ev.Output, lineNo)
		}
	}
	var text []byte
	var lines []int
	for _, pkg := range order {
		st := streams[pkg]
		text = append(text, st.buf...)
		if !st.atStart {
			text = append(text, '\n')
		}
		lines = append(lines, st.starts...)
	}
	return text, lines, problems
}

// gobenchPrepare rewrites the lines benchfmt must not see as they are:
// failures become marker results (so they get the configuration in force
// at their line) and overlong lines become empty lines. Line numbers do
// not change.
func gobenchPrepare(name string, t *gobenchText) []archive.Problem {
	var problems []archive.Problem
	lines := bytes.Split(t.data, []byte("\n"))
	isLog := func(l []byte) bool { return bytes.HasPrefix(l, []byte("    ")) }
	verbose := bytes.HasPrefix(t.data, []byte("=== RUN ")) || bytes.Contains(t.data, []byte("\n=== RUN "))
	for i, raw := range lines {
		line := bytes.TrimSuffix(raw, []byte("\r"))
		switch {
		case len(line) > gobenchMaxLine:
			problems = append(problems, problem(name, t.srcLine(i+1), "line of %d bytes is too long; skipped", len(line)))
			lines[i] = nil
		case bytes.HasPrefix(line, []byte("--- FAIL: Benchmark")):
			f := bytes.Fields(line[len("--- FAIL: "):])
			// The failure's log lines follow it in plain output and
			// precede it with -v and -json.
			var msg []string
			if !verbose {
				for j := i + 1; j < len(lines) && isLog(lines[j]); j++ {
					msg = append(msg, string(bytes.TrimSpace(lines[j])))
				}
			} else {
				j := i
				for j > 0 && isLog(lines[j-1]) {
					j--
				}
				for ; j < i; j++ {
					msg = append(msg, string(bytes.TrimSpace(lines[j])))
				}
			}
			t.mark(lines, i, f[0], strings.Join(msg, "\n"))
		case bytes.HasPrefix(line, []byte("Benchmark")):
			f := bytes.Fields(line)
			if len(f) >= 2 && string(f[1]) == "panic:" {
				_, after, _ := bytes.Cut(line, []byte("panic:"))
				t.mark(lines, i, f[0], "panic:"+string(bytes.TrimRight(after, " \t")))
			}
		}
	}
	t.data = bytes.Join(lines, []byte("\n"))
	return problems
}

// mark replaces line i by a marker result for benchmark name.
func (t *gobenchText) mark(lines [][]byte, i int, name []byte, msg string) {
	if msg == "" {
		msg = "benchmark failed"
	}
	if t.fails == nil {
		t.fails = map[int]string{}
	}
	t.fails[i+1] = msg
	lines[i] = fmt.Appendf(nil, "%s 1 1 %s", name, gobenchFailUnit)
}

// gobenchRun is a run being assembled.
type gobenchRun struct {
	run   model.Run
	index map[string]int // case + metric → index into run.Results
}

// gobenchFailure is a failed benchmark waiting for the end of the file.
type gobenchFailure struct {
	run   *gobenchRun
	name  string
	tc    model.TestCase
	procs bool // the name carried a -N suffix
	msg   string
	line  int
}

// gobenchReader holds the state of one read.
type gobenchReader struct {
	name      string
	text      *gobenchText
	runs      []*gobenchRun
	byKey     map[string]*gobenchRun
	failures  []gobenchFailure
	unitLine  map[string]int  // unit as written → its first input line
	warned    map[string]bool // one warning per message
	problems  []archive.Problem
	nameCache map[string]gobenchName
}

type gobenchName struct {
	tc    model.TestCase
	procs bool
	warn  string
}

func readGobench(in Input, def Defaults) ([]model.Run, []archive.Problem) {
	r := &gobenchReader{
		name:      in.Name,
		text:      &gobenchText{data: bytes.TrimPrefix(in.Data, []byte("\xef\xbb\xbf"))},
		byKey:     map[string]*gobenchRun{},
		unitLine:  map[string]int{},
		warned:    map[string]bool{},
		nameCache: map[string]gobenchName{},
	}
	if gobenchIsJSON(r.text.data) {
		var probs []archive.Problem
		r.text.data, r.text.lines, probs = gobenchUnwrapJSON(in.Name, r.text.data)
		r.problems = append(r.problems, probs...)
	}
	r.problems = append(r.problems, gobenchPrepare(in.Name, r.text)...)

	br := benchfmt.NewReader(bytes.NewReader(r.text.data), in.Name)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			r.problems = append(r.problems, problem(in.Name, r.text.srcLine(rec.Line), "bad benchmark line: %s", rec.Msg))
		case *benchfmt.UnitMetadata:
			if rec.Key == "better" && rec.Value != "higher" && rec.Value != "lower" {
				_, line := rec.Pos()
				r.problems = append(r.problems, problem(in.Name, r.text.srcLine(line), "unit %s: better=%s (want higher or lower); ignored", rec.OrigUnit, rec.Value))
			}
		case *benchfmt.Result:
			r.result(rec)
		}
	}
	if err := br.Err(); err != nil {
		// Overlong lines were removed, so only a reader failure gets here.
		r.problems = append(r.problems, problem(in.Name, 0, "%v", err))
	}
	r.finishFailures()
	r.finishUnits(br.Units())

	var runs []model.Run
	for _, gr := range r.runs {
		if len(gr.run.Results) == 0 {
			continue
		}
		gobenchMachineDefaults(&gr.run.Machine, def.Machine)
		fillDefaults(&gr.run, def)
		runs = append(runs, gr.run)
	}
	slices.SortStableFunc(r.problems, func(a, b archive.Problem) int { return cmp.Compare(a.Line, b.Line) })
	if len(runs) == 0 {
		r.problems = append(r.problems, fatal(in.Name, 0, `no benchmark results (want lines like "BenchmarkName-8  1000  123 ns/op" from go test -bench)`))
	}
	return runs, r.problems
}

// gobenchMachineDefaults fills what the file did not say about the
// machine from the caller's defaults.
func gobenchMachineDefaults(m *model.Machine, def model.Machine) {
	m.OS = cmp.Or(m.OS, def.OS)
	m.Arch = cmp.Or(m.Arch, def.Arch)
	m.CPU = cmp.Or(m.CPU, def.CPU)
	m.Cores = cmp.Or(m.Cores, def.Cores)
	m.MemoryBytes = cmp.Or(m.MemoryBytes, def.MemoryBytes)
	if len(m.Labels) == 0 {
		m.Labels = def.Labels
	}
}

// runFor returns the run that a result with configuration cfg belongs to.
func (r *gobenchReader) runFor(res *benchfmt.Result, line int) *gobenchRun {
	var run model.Run
	ctx := map[string]string{}
	for _, c := range res.Config {
		v := string(c.Value)
		switch c.Key {
		case "goos":
			run.Machine.OS = v
		case "goarch":
			run.Machine.Arch = v
		case "cpu":
			run.Machine.CPU = v
		case "commit":
			if id := strings.ToLower(v); (len(id) == 40 || len(id) == 64) && model.IsSHA(id) {
				run.Artifact.ID, run.Artifact.Kind = id, model.KindCommit
			} else {
				r.warnOnce(line, "commit: %q is not a full commit id; ignored", v)
			}
		case "branch":
			run.Artifact.Branch = v
		case "date", "commit-time":
			if t, ok := gobenchDate(v); ok {
				run.Artifact.Date = t
			} else {
				r.warnOnce(line, "%s: %q is not a date (want RFC 3339); ignored", c.Key, v)
			}
		default:
			ctx[c.Key] = v
		}
	}
	run.Context = model.NewParams(ctx)
	a, m := run.Artifact, run.Machine
	key := strings.Join([]string{a.ID, a.Branch, a.Date.Format(time.RFC3339Nano), m.OS, m.Arch, m.CPU, run.Context.String()}, "\x00")
	gr := r.byKey[key]
	if gr == nil {
		gr = &gobenchRun{run: run, index: map[string]int{}}
		r.byKey[key] = gr
		r.runs = append(r.runs, gr)
	}
	return gr
}

// gobenchDate parses the dates that configuration lines hold.
func gobenchDate(v string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05-0700", "2006-01-02 15:04:05 -0700", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

func (r *gobenchReader) warnOnce(line int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if r.warned[msg] {
		return
	}
	r.warned[msg] = true
	r.problems = append(r.problems, problem(r.name, line, "%s", msg))
}

// testCase splits a full benchmark name into a test case.
func (r *gobenchReader) testCase(name benchfmt.Name) gobenchName {
	if n, ok := r.nameCache[string(name)]; ok {
		return n
	}
	base, parts := name.Parts()
	params := map[string]string{}
	var n gobenchName
	for i, p := range parts {
		positional := "sub" + strconv.Itoa(i+1)
		var key, value string
		if p[0] == '-' {
			key, value = "procs", string(p[1:])
		} else {
			part := string(p[1:])
			k, v, ok := strings.Cut(part, "=")
			if !ok || k == "" {
				k, v = positional, part
			}
			if _, dup := params[k]; dup {
				n.warn = fmt.Sprintf("benchmark %s: sub-benchmark key %q given twice; the later one is param %s", name, k, positional)
				k, v = positional, part
			}
			key, value = k, v
		}
		if _, dup := params[key]; dup {
			n.warn = fmt.Sprintf("benchmark %s: the name does not split into distinct params (%s twice); the whole name is the benchmark", name, key)
			n.tc = model.TestCase{Benchmark: string(name), Category: model.Primary}
			n.procs = false
			r.nameCache[string(name)] = n
			return n
		}
		params[key] = value
		n.procs = n.procs || p[0] == '-'
	}
	n.tc = model.TestCase{Benchmark: string(base), Params: model.NewParams(params), Category: model.Primary}
	r.nameCache[string(name)] = n
	return n
}

// result adds one result line.
func (r *gobenchReader) result(res *benchfmt.Result) {
	_, textLine := res.Pos()
	line := r.text.srcLine(textLine)
	if len(res.Name) == 0 {
		r.problems = append(r.problems, problem(r.name, line, "benchmark line without a name; skipped"))
		return
	}
	if msg, ok := r.text.fails[textLine]; ok && len(res.Values) == 1 && res.Values[0].Unit == gobenchFailUnit {
		gr := r.runFor(res, line)
		n := r.testCase(res.Name)
		r.failures = append(r.failures, gobenchFailure{run: gr, name: res.Name.String(), tc: n.tc, procs: n.procs, msg: msg, line: line})
		return
	}
	if res.Iters <= 0 {
		r.problems = append(r.problems, problem(r.name, line, "benchmark %s: iteration count %d; skipped", res.Name, res.Iters))
		return
	}
	gr := r.runFor(res, line)
	n := r.testCase(res.Name)
	if n.warn != "" {
		r.warnOnce(line, "%s", n.warn)
	}
	seen := map[string]bool{}
	for _, v := range res.Values {
		orig, val := v.OrigUnit, v.OrigValue
		if orig == "" {
			orig, val = v.Unit, v.Value
		}
		metric, unit := orig, orig
		switch orig {
		case "ns/op":
			metric, unit = "wall-time", "ns"
		case "sec/op":
			metric, unit, val = "wall-time", "ns", gobenchScale(val, 9)
		case "MB/s":
			metric, unit, val = "throughput", "B/s", gobenchScale(val, 6)
		case "B/s":
			metric = "throughput"
		}
		if seen[metric] {
			r.problems = append(r.problems, problem(r.name, line, "benchmark %s: %s given twice on one line; the first kept", res.Name, orig))
			continue
		}
		seen[metric] = true
		if math.IsNaN(val) || math.IsInf(val, 0) {
			r.problems = append(r.problems, problem(r.name, line, "benchmark %s: invalid %s value %v; skipped", res.Name, orig, val))
			continue
		}
		if val < 0 && (metric != orig || orig == "B/op" || orig == "allocs/op") {
			r.problems = append(r.problems, problem(r.name, line, "benchmark %s: negative %s value %v; skipped", res.Name, orig, val))
			continue
		}
		key := n.tc.String() + "\x00" + metric
		i, ok := gr.index[key]
		if !ok {
			i = len(gr.run.Results)
			gr.index[key] = i
			gr.run.Results = append(gr.run.Results, model.Result{Case: n.tc, Metric: metric, Unit: unit})
			if _, ok := r.unitLine[orig]; !ok {
				r.unitLine[orig] = line
			}
		}
		gr.run.Results[i].Samples = append(gr.run.Results[i].Samples, val)
	}
}

// gobenchScale multiplies x by 10^exp in decimal, so that 2.719e-06 sec
// becomes exactly 2719 ns.
func gobenchScale(x float64, exp int) float64 {
	s := strconv.FormatFloat(x, 'e', -1, 64)
	mant, e, _ := strings.Cut(s, "e")
	n, err := strconv.Atoi(e)
	if err != nil {
		return x * math.Pow10(exp)
	}
	v, err := strconv.ParseFloat(mant+"e"+strconv.Itoa(n+exp), 64)
	if err != nil {
		return x * math.Pow10(exp)
	}
	return v
}

// gobenchKnownUnit reports whether the direction of a unit is clear
// without a Unit line: Go's own units, time or bytes per something, rates.
func gobenchKnownUnit(unit string) bool {
	switch unit {
	case "ns/op", "sec/op", "MB/s", "B/s", "B/op", "allocs/op":
		return true
	}
	_, tidy := benchunit.Tidy(1, unit)
	return strings.HasPrefix(tidy, "sec/") || strings.HasPrefix(tidy, "B/") || strings.HasSuffix(unit, "/s")
}

// finishUnits sets directions from Unit lines and warns about units of
// unknown direction, once each, at their first use.
func (r *gobenchReader) finishUnits(meta benchfmt.UnitMetadataMap) {
	units := make([]string, 0, len(r.unitLine))
	for u := range r.unitLine {
		units = append(units, u)
	}
	slices.Sort(units)
	dirs := map[string]model.Direction{}
	for _, u := range units {
		var d model.Direction
		if m := meta.Get(u, "better"); m != nil {
			switch m.Value {
			case "higher":
				d = model.HigherIsBetter
			case "lower":
				d = model.LowerIsBetter
			}
		}
		if d == "" && !gobenchKnownUnit(u) {
			r.problems = append(r.problems, problem(r.name, r.unitLine[u],
				"unit %s has no direction (add a line \"Unit %s better=higher\" or better=lower); kept, lower is better assumed", u, u))
		}
		dirs[u] = d
	}
	for _, gr := range r.runs {
		for i := range gr.run.Results {
			res := &gr.run.Results[i]
			if res.Error != "" {
				continue
			}
			u := res.Unit
			switch res.Metric {
			case "wall-time":
				u = "ns/op"
				if _, ok := dirs[u]; !ok {
					u = "sec/op"
				}
			case "throughput":
				u = "B/s"
				if _, ok := dirs[u]; !ok {
					u = "MB/s"
				}
			}
			res.Direction = dirs[u]
		}
	}
}

// finishFailures turns failed benchmarks into error results.
func (r *gobenchReader) finishFailures() {
	// Names that have a sub-benchmark of their own (failed or measured).
	parents := map[*gobenchRun]map[string]bool{}
	for _, f := range r.failures {
		for i := len(f.name) - 1; i > 0; i-- {
			if f.name[i] == '/' {
				if parents[f.run] == nil {
					parents[f.run] = map[string]bool{}
				}
				parents[f.run][f.name[:i]] = true
			}
		}
	}
	for _, f := range r.failures {
		if parents[f.run][f.name] {
			continue // failed because a sub-benchmark did
		}
		gr := f.run
		tc := f.tc
		if !f.procs {
			if procs, ok := gobenchSharedProcs(gr.run.Results); ok {
				m := map[string]string{"procs": procs}
				for _, kv := range tc.Params {
					m[kv.Key] = kv.Value
				}
				if _, clash := tc.Params.Get("procs"); !clash {
					tc.Params = model.NewParams(m)
				}
			}
		}
		measured := false
		errIndex := -1
		for i, res := range gr.run.Results {
			if res.Case.String() == tc.String() {
				if res.Error != "" {
					errIndex = i
				} else if len(res.Samples) > 0 {
					measured = true
				}
			}
		}
		first, _, _ := strings.Cut(f.msg, "\n")
		switch {
		case measured:
			r.problems = append(r.problems, problem(r.name, f.line, "benchmark %s failed in one repetition (%s); the other samples are kept", f.name, first))
		case errIndex >= 0:
			// Failed again in a later repetition: one error result is enough.
		default:
			gr.index[tc.String()+"\x00wall-time"] = len(gr.run.Results)
			gr.run.Results = append(gr.run.Results, model.Result{Case: tc, Metric: "wall-time", Unit: "ns", Error: f.msg})
		}
	}
}

// gobenchSharedProcs returns the procs param that all measured results
// share, if they share one.
func gobenchSharedProcs(results []model.Result) (string, bool) {
	procs, found := "", false
	for _, res := range results {
		if res.Error != "" {
			continue
		}
		p, ok := res.Case.Params.Get("procs")
		if !ok || found && p != procs {
			return "", false
		}
		procs, found = p, true
	}
	return procs, found
}
