package archive

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis"
)

// decoder collects the problems of one archive while a codec parses it and
// the validator turns the tree into a run.
type decoder struct {
	file     string
	opts     Options
	limits   Limits
	problems []Problem
	fatal    bool
	more     int // warnings past maxProblems, counted only
	size     int // of the document, after gunzip
}

func (d *decoder) warn(line int, format string, args ...any) {
	if len(d.problems) >= maxProblems {
		d.more++
		return
	}
	d.problems = append(d.problems, Problem{File: d.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// fail reports a problem that makes the file unusable. The first is kept
// even past maxProblems, so that callers see a Fatal problem.
func (d *decoder) fail(line int, format string, args ...any) {
	if len(d.problems) >= maxProblems && d.fatal {
		d.more++
		return
	}
	d.fatal = true
	d.problems = append(d.problems, Problem{File: d.file, Line: line, Msg: fmt.Sprintf(format, args...), Fatal: true})
}

// absent reports whether a field is missing or null: both mean "not given".
func absent(n *node) bool { return n == nil || n.kind == kNull }

// run validates the document and builds the run. Every problem is
// reported, not only the first, so that one pass over a bad file shows all
// that needs fixing; the caller drops the run if any was fatal.
func (d *decoder) run(root *node) analysis.Run {
	if root.kind != kMap {
		d.fail(root.line, "document is not an object (got %s)", root.describe())
		return analysis.Run{}
	}
	// A file of another kind (a package.json next to the archives) gets one
	// problem, not one per unknown field.
	switch sch, _ := root.get("schema"); {
	case absent(sch):
		d.fail(0, "missing schema (want %s)", Schema)
		return analysis.Run{}
	case sch.kind != kString:
		d.fail(sch.line, "schema: want a string, got %s", sch.describe())
		return analysis.Run{}
	case sch.text != Schema:
		d.fail(sch.line, "unsupported schema %q (want %s)", sch.text, Schema)
		return analysis.Run{}
	}

	var run analysis.Run
	var art, mach, ctx, res *node
	var artLine, machLine, resLine int
	for _, f := range root.fields {
		switch f.key {
		case "schema":
		case "artifact":
			art, artLine = f.val, f.line
		case "machine":
			mach, machLine = f.val, f.line
		case "context":
			ctx = f.val
		case "results":
			res, resLine = f.val, f.line
		default:
			d.warn(f.line, "unknown field %q", f.key)
		}
	}
	run.Artifact = d.artifact(art, artLine)
	run.Machine = d.machine(mach, machLine)
	if !absent(ctx) {
		run.Context = d.pairs(ctx, "context")
	}
	switch {
	case absent(res):
		d.fail(0, "missing results")
	case res.kind != kList:
		d.fail(res.line, "results: want a list, got %s", res.describe())
	case res.length() == 0:
		d.warn(resLine, "no results")
	default:
		run.Results = d.results(res)
	}
	return run
}

// text reads an optional string field of the run's header; a wrong type is
// fatal.
func (d *decoder) text(n *node, path string) string {
	if absent(n) {
		return ""
	}
	s, ok := n.asText()
	if !ok {
		d.fail(n.line, "%s: want a string, got %s", path, n.describe())
	}
	return s
}

// integer reads an optional non-negative integer field of the header.
func (d *decoder) integer(n *node, path string) int64 {
	if absent(n) {
		return 0
	}
	i, ok := intValue(n)
	switch {
	case !ok:
		d.fail(n.line, "%s: want an integer, got %s", path, n.describe())
	case i < 0:
		d.fail(n.line, "%s: must not be negative (%d)", path, i)
	}
	return i
}

// intValue accepts integers and integral floats (JavaScript writes no
// others).
func intValue(n *node) (int64, bool) {
	switch n.kind {
	case kInt:
		return n.i, true
	case kFloat:
		if n.f == math.Trunc(n.f) && math.Abs(n.f) < 1<<63 {
			return int64(n.f), true
		}
	}
	return 0, false
}

func (d *decoder) artifact(n *node, keyLine int) analysis.Artifact {
	a := analysis.Artifact{Kind: analysis.KindCommit}
	if absent(n) {
		n = &node{kind: kMap}
	} else if n.kind != kMap {
		d.fail(n.line, "artifact: want an object, got %s", n.describe())
		return a
	}
	var date *node
	for _, f := range n.fields {
		path := "artifact." + f.key
		switch f.key {
		case "id":
			a.ID = d.text(f.val, path)
		case "kind":
			if k := d.text(f.val, path); k != "" {
				a.Kind = analysis.ArtifactKind(k)
				if !a.Kind.Valid() {
					d.fail(f.val.line, "artifact.kind: unknown kind %q (want commit, try, tag or local)", k)
				}
			}
		case "date":
			date = f.val
		case "parents":
			a.Parents = d.parents(f.val)
		case "branch":
			a.Branch = d.text(f.val, path)
		case "pr":
			a.PR = int(d.integer(f.val, path))
		case "title":
			a.Title = d.text(f.val, path)
		case "author":
			a.Author = d.text(f.val, path)
		case "baseline":
			a.Baseline = d.text(f.val, path)
		default:
			d.warn(f.line, "unknown field %q", path)
		}
	}
	if a.ID == "" {
		a.ID = d.opts.DefaultArtifact
	}
	if a.ID == "" {
		d.fail(keyLine, "missing artifact.id")
	}
	switch {
	case absent(date):
		if !d.opts.DateOptional {
			d.fail(keyLine, "missing artifact.date")
		}
	case date.kind == kLocalTime:
		d.fail(date.line, "artifact.date: %s has no time zone offset (want RFC 3339, e.g. 2026-11-20T03:00:00Z)", date.text)
	case date.kind != kString && date.kind != kTime:
		d.fail(date.line, "artifact.date: want an RFC 3339 date-time, got %s", date.describe())
	default:
		t, err := time.Parse(time.RFC3339Nano, date.text)
		if err != nil {
			// RFC 3339 (§5.6, note) allows a space for the T; YAML writes one.
			t, err = time.Parse("2006-01-02 15:04:05.999999999Z07:00", date.text)
		}
		switch {
		case err != nil:
			d.fail(date.line, "artifact.date: %q is not an RFC 3339 date-time (e.g. 2026-11-20T03:00:00Z)", date.text)
		case t.IsZero() || t.UTC().Year() < 1 || t.UTC().Year() > 9999:
			// The zero time means "no date" to the rest of perfpages, and
			// other years do not survive the way back to RFC 3339.
			d.fail(date.line, "artifact.date: %s is out of range (years 0001 to 9999 in UTC)", date.text)
		}
		a.Date = t.UTC()
	}
	return a
}

func (d *decoder) parents(n *node) []string {
	if absent(n) {
		return nil
	}
	if n.kind != kList {
		d.fail(n.line, "artifact.parents: want a list of ids, got %s", n.describe())
		return nil
	}
	var ps []string
	for i := range n.length() {
		it := n.elem(i)
		s, ok := it.asText()
		switch {
		case !ok:
			d.fail(it.line, "artifact.parents[%d]: want a string, got %s", i, it.describe())
		case s == "":
			d.fail(it.line, "artifact.parents[%d]: empty id", i)
		default:
			ps = append(ps, s)
		}
	}
	return ps
}

func (d *decoder) machine(n *node, keyLine int) analysis.Machine {
	var m analysis.Machine
	if absent(n) {
		n = &node{kind: kMap}
	} else if n.kind != kMap {
		d.fail(n.line, "machine: want an object, got %s", n.describe())
		return m
	}
	for _, f := range n.fields {
		path := "machine." + f.key
		switch f.key {
		case "name":
			m.Name = d.text(f.val, path)
		case "os":
			m.OS = d.text(f.val, path)
		case "arch":
			m.Arch = d.text(f.val, path)
		case "cpu":
			m.CPU = d.text(f.val, path)
		case "cores":
			m.Cores = int(d.integer(f.val, path))
		case "memory_bytes":
			m.MemoryBytes = d.integer(f.val, path)
		case "labels":
			if !absent(f.val) {
				m.Labels = d.pairs(f.val, path)
			}
		default:
			d.warn(f.line, "unknown field %q", path)
		}
	}
	if m.Name == "" {
		d.fail(keyLine, "missing machine.name")
	}
	return m
}

// pairs reads the context or the machine's labels: an object of scalars,
// stringified like parameters. They split series, so a bad one is fatal.
func (d *decoder) pairs(n *node, path string) analysis.Params {
	if n.kind != kMap {
		d.fail(n.line, "%s: want an object, got %s", path, n.describe())
		return nil
	}
	m := make(map[string]string, len(n.fields))
	for _, f := range n.fields {
		s, ok := f.val.asParam()
		if !ok {
			d.fail(f.val.line, "%s.%s: want a string, number or boolean, got %s", path, f.key, f.val.describe())
			continue
		}
		m[f.key] = s
	}
	return analysis.NewParams(m)
}

// results validates every result, keeping the valid ones and the first of
// each set of duplicates.
func (d *decoder) results(n *node) []analysis.Result {
	for i, x := range n.nums {
		// A list of numbers: no node is built for each (there may be
		// millions).
		d.warn(int(x.line), "results[%d]: want an object, got %s; result dropped", i, x.node().describe())
	}
	items := n.items
	// Sized for the items, but for no more than the file's bytes can hold
	// valid results of (40 bytes each at least): a hostile list of a
	// million `{}` would cost a million results up front.
	size := min(len(items), d.size/40)
	out := make([]analysis.Result, 0, size)
	seen := make(map[resultKey]int, size) // → index in the file
	for i, it := range items {
		r, ok := d.result(i, it)
		if !ok {
			continue
		}
		key := keyOf(r)
		if first, dup := seen[key]; dup {
			d.warn(it.line, "%s: duplicate of results[%d]; result dropped", resultLabel(i, r, true), first)
			continue
		}
		seen[key] = i
		out = append(double(out), r)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// resultKey identifies a result within a run: two results with the same
// benchmark, parameters and metric are duplicates, whatever their category.
type resultKey struct{ benchmark, params, metric string }

func keyOf(r analysis.Result) resultKey {
	k := resultKey{benchmark: r.Case.Benchmark, metric: r.Metric}
	if len(r.Case.Params) > 0 {
		k.params = r.Case.Params.String()
	}
	return k
}

// resultLabel names results[i] in problems by whatever of it is valid:
// `results[3] (json-decode size=large wall-time)`.
func resultLabel(i int, r analysis.Result, paramsOK bool) string {
	label := "results[" + strconv.Itoa(i) + "]"
	var name []string
	if r.Case.Benchmark != "" {
		name = append(name, r.Case.Benchmark)
	}
	if paramsOK && len(r.Case.Params) > 0 {
		name = append(name, r.Case.Params.String())
	}
	if r.Metric != "" {
		name = append(name, r.Metric)
	}
	if len(name) > 0 {
		label += " (" + strings.Join(name, " ") + ")"
	}
	return label
}

// issue is a reason to drop a result, formatted only if it is reported:
// past maxProblems it is only counted, and a file of a million tiny bad
// results should not cost a million messages.
type issue struct {
	line   int
	format string
	args   []any
}

// result validates results[i]; false means it is dropped.
func (d *decoder) result(i int, n *node) (analysis.Result, bool) {
	if n.kind != kMap {
		d.warn(n.line, "results[%d]: want an object, got %s; result dropped", i, n.describe())
		return analysis.Result{}, false
	}
	var bench, cat, params, metric, unit, dir, samples, iters, errText *node
	for _, f := range n.fields {
		switch f.key {
		case "benchmark":
			bench = f.val
		case "category":
			cat = f.val
		case "params":
			params = f.val
		case "metric":
			metric = f.val
		case "unit":
			unit = f.val
		case "direction":
			dir = f.val
		case "samples":
			samples = f.val
		case "iters":
			iters = f.val
		case "error":
			errText = f.val
		default:
			d.warn(f.line, "unknown field %q", "results["+strconv.Itoa(i)+"]."+f.key)
		}
	}

	issues := make([]issue, 0, 4)
	bad := func(line int, format string, args ...any) {
		issues = append(issues, issue{line, format, args})
	}
	str := func(v *node, name string) string {
		if absent(v) {
			return ""
		}
		s, ok := v.asText()
		if !ok {
			bad(v.line, "%s: want a string, got %s", name, v.describe())
		}
		return s
	}

	r := analysis.Result{Case: analysis.TestCase{Category: analysis.Primary}}
	r.Case.Benchmark = str(bench, "benchmark")
	if r.Case.Benchmark == "" && (absent(bench) || bench.isScalar()) {
		bad(n.line, "missing benchmark")
	}
	paramsOK := true
	if !absent(params) {
		r.Case.Params, paramsOK = d.params(params, bad)
	}
	r.Metric = str(metric, "metric")
	if r.Metric == "" && (absent(metric) || metric.isScalar()) {
		bad(n.line, "missing metric")
	}
	if c := str(cat, "category"); c != "" {
		r.Case.Category = analysis.Category(c)
		if r.Case.Category != analysis.Primary && r.Case.Category != analysis.Secondary {
			bad(cat.line, "unknown category %q (want primary or secondary)", c)
		}
	}
	r.Unit = str(unit, "unit")
	if d := str(dir, "direction"); d != "" {
		r.Direction = analysis.Direction(d)
		if r.Direction != analysis.LowerIsBetter && r.Direction != analysis.HigherIsBetter {
			bad(dir.line, "unknown direction %q (want lower or higher)", d)
		}
	}
	r.Error = str(errText, "error")

	samplesOK := true
	if !absent(samples) {
		r.Samples, samplesOK = numbers(samples, "samples", func(j int, x float64) string {
			switch {
			case math.IsNaN(x):
				return fmt.Sprintf("samples[%d] is NaN", j)
			case math.IsInf(x, 0):
				return fmt.Sprintf("samples[%d] is %s", j, strconv.FormatFloat(x, 'g', -1, 64))
			case x < 0 && analysis.IsTimeOrSize(r.Unit):
				return fmt.Sprintf("samples[%d] is negative (%s) for unit %q", j, strconv.FormatFloat(x, 'g', -1, 64), r.Unit)
			}
			return ""
		}, bad)
	}
	if samplesOK && len(r.Samples) == 0 && r.Error == "" {
		bad(n.line, "no samples and no error")
	}
	if !absent(iters) {
		var itersOK bool
		r.Iters, itersOK = numbers(iters, "iters", func(j int, x float64) string {
			if !(x > 0) || math.IsInf(x, 0) {
				return fmt.Sprintf("iters[%d] is not a positive number (%s)", j, strconv.FormatFloat(x, 'g', -1, 64))
			}
			return ""
		}, bad)
		if itersOK && samplesOK && len(r.Iters) != len(r.Samples) {
			bad(iters.line, "%d iters for %d samples", len(r.Iters), len(r.Samples))
		}
	}

	if len(issues) > 0 {
		if len(d.problems) >= maxProblems {
			d.more += len(issues)
			return analysis.Result{}, false
		}
		label := resultLabel(i, r, paramsOK)
		for _, is := range issues {
			d.warn(is.line, "%s: %s; result dropped", label, fmt.Sprintf(is.format, is.args...))
		}
		return analysis.Result{}, false
	}
	if len(r.Samples) == 0 {
		r.Samples = nil
	}
	if len(r.Iters) == 0 {
		r.Iters = nil
	}
	return r, true
}

// params reads a result's parameters: an object of scalars.
func (d *decoder) params(n *node, bad func(int, string, ...any)) (analysis.Params, bool) {
	if n.kind != kMap {
		bad(n.line, "params: want an object, got %s", n.describe())
		return nil, false
	}
	ps := make(analysis.Params, 0, len(n.fields))
	ok := true
	for _, f := range n.fields {
		s, isScalar := f.val.asParam()
		if !isScalar {
			bad(f.val.line, "params.%s: want a string, number or boolean, got %s", f.key, f.val.describe())
			ok = false
			continue
		}
		ps = append(ps, analysis.Param{Key: f.key, Value: s})
	}
	return sortParams(ps), ok
}

// sortParams is analysis.NewParams for pairs with unique keys (the codecs
// guarantee that), without the map.
func sortParams(ps analysis.Params) analysis.Params {
	if len(ps) == 0 {
		return nil
	}
	slices.SortFunc(ps, func(a, b analysis.Param) int { return strings.Compare(a.Key, b.Key) })
	return ps
}

// numbers reads a list of numbers. check returns why a value is invalid,
// or "". Only the first bad value is reported: a file of a thousand
// negative samples needs one message, not a thousand.
func numbers(n *node, name string, check func(int, float64) string, bad func(int, string, ...any)) ([]float64, bool) {
	if n.kind != kList {
		bad(n.line, "%s: want a list of numbers, got %s", name, n.describe())
		return nil, false
	}
	xs := make([]float64, n.length())
	for j, x := range n.nums {
		f := x.float()
		if msg := check(j, f); msg != "" {
			bad(int(x.line), "%s", msg)
			return nil, false
		}
		xs[j] = f
	}
	for j, it := range n.items {
		if it.kind != kInt && it.kind != kFloat {
			bad(it.line, "%s[%d]: want a number, got %s", name, j, it.describe())
			return nil, false
		}
		if msg := check(j, it.f); msg != "" {
			bad(it.line, "%s", msg)
			return nil, false
		}
		xs[j] = it.f
	}
	return xs, true
}
