package archive

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// decoder collects the problems of one archive while a codec parses it and
// the validator turns the tree into a run.
type decoder struct {
	file     string
	opts     Options
	limits   Limits
	problems []Problem
	fatal    bool
	more     int            // warnings past maxProblems, counted only
	size     int            // of the document, after gunzip
	arena    *readkit.Arena // where parseJSON builds the tree, nil: the heap
	floats   []float64      // where results' samples and iters are kept (see results)
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
func absent(n *readkit.Node) bool { return n == nil || n.Kind == readkit.Null }

// run validates the document and builds the run. Every problem is
// reported, not only the first, so that one pass over a bad file shows all
// that needs fixing; the caller drops the run if any was fatal.
func (d *decoder) run(root *readkit.Node) model.Run {
	if root.Kind != readkit.Map {
		d.fail(root.Line, "document is not an object (got %s)", root.Describe())
		return model.Run{}
	}
	// A file of another kind (a package.json next to the archives) gets one
	// problem, not one per unknown field.
	switch sch, _ := root.Lookup("schema"); {
	case absent(sch):
		d.fail(0, "missing schema (want %s)", Schema)
		return model.Run{}
	case sch.Kind != readkit.String:
		d.fail(sch.Line, "schema: want a string, got %s", sch.Describe())
		return model.Run{}
	case sch.Text != Schema:
		d.fail(sch.Line, "unsupported schema %q (want %s)", sch.Text, Schema)
		return model.Run{}
	}

	var run model.Run
	var art, mach, ctx, res *readkit.Node
	var artLine, machLine, resLine int
	for _, f := range root.Fields {
		switch f.Key {
		case "schema":
		case "artifact":
			art, artLine = f.Val, f.Line
		case "machine":
			mach, machLine = f.Val, f.Line
		case "context":
			ctx = f.Val
		case "results":
			res, resLine = f.Val, f.Line
		default:
			d.warn(f.Line, "unknown field %q", f.Key)
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
	case res.Kind != readkit.List:
		d.fail(res.Line, "results: want a list, got %s", res.Describe())
	case res.Len() == 0:
		d.warn(resLine, "no results")
	default:
		run.Results = d.results(res)
	}
	return run
}

// text reads an optional string field of the run's header; a wrong type is
// fatal.
func (d *decoder) text(n *readkit.Node, path string) string {
	if absent(n) {
		return ""
	}
	s, ok := n.AsText()
	if !ok {
		d.fail(n.Line, "%s: want a string, got %s", path, n.Describe())
	}
	return s
}

// integer reads an optional non-negative integer field of the header.
func (d *decoder) integer(n *readkit.Node, path string) int64 {
	if absent(n) {
		return 0
	}
	i, ok := intValue(n)
	switch {
	case !ok:
		d.fail(n.Line, "%s: want an integer, got %s", path, n.Describe())
	case nonNegative(path, i) != "":
		d.fail(n.Line, "%s", nonNegative(path, i))
	}
	return i
}

// intValue accepts integers and integral floats (JavaScript writes no
// others).
func intValue(n *readkit.Node) (int64, bool) {
	switch n.Kind {
	case readkit.Int:
		return n.Int, true
	case readkit.Float:
		if n.Float == math.Trunc(n.Float) && math.Abs(n.Float) < 1<<63 {
			return int64(n.Float), true
		}
	}
	return 0, false
}

func (d *decoder) artifact(n *readkit.Node, keyLine int) model.Artifact {
	a := model.Artifact{Kind: model.KindCommit}
	if absent(n) {
		n = &readkit.Node{Kind: readkit.Map}
	} else if n.Kind != readkit.Map {
		d.fail(n.Line, "artifact: want an object, got %s", n.Describe())
		return a
	}
	var date *readkit.Node
	for _, f := range n.Fields {
		path := "artifact." + f.Key
		switch f.Key {
		case "id":
			a.ID = d.text(f.Val, path)
		case "kind":
			if k := d.text(f.Val, path); k != "" {
				a.Kind = model.ArtifactKind(k)
				if msg := kindRule(a.Kind); msg != "" {
					d.fail(f.Val.Line, "%s", msg)
				}
			}
		case "date":
			date = f.Val
		case "parents":
			a.Parents = d.parents(f.Val)
		case "branch":
			a.Branch = d.text(f.Val, path)
		case "pr":
			a.PR = int(d.integer(f.Val, path))
		case "title":
			a.Title = d.text(f.Val, path)
		case "author":
			a.Author = d.text(f.Val, path)
		case "baseline":
			a.Baseline = d.text(f.Val, path)
		default:
			d.warn(f.Line, "unknown field %q", path)
		}
	}
	if a.ID == "" {
		a.ID = d.opts.DefaultArtifact
	}
	if a.ID == "" {
		d.fail(keyLine, missingArtifactID)
	}
	switch {
	case absent(date):
		if !d.opts.DateOptional {
			d.fail(keyLine, "missing artifact.date")
		}
	case date.Kind == readkit.LocalTime:
		d.fail(date.Line, "artifact.date: %s has no time zone offset (want RFC 3339, e.g. 2026-11-20T03:00:00Z)", date.Text)
	case date.Kind != readkit.String && date.Kind != readkit.Time:
		d.fail(date.Line, "artifact.date: want an RFC 3339 date-time, got %s", date.Describe())
	default:
		t, err := time.Parse(time.RFC3339Nano, date.Text)
		if err != nil {
			// RFC 3339 (§5.6, note) allows a space for the T; YAML writes one.
			t, err = time.Parse("2006-01-02 15:04:05.999999999Z07:00", date.Text)
		}
		switch {
		case err != nil:
			d.fail(date.Line, "artifact.date: %q is not an RFC 3339 date-time (e.g. 2026-11-20T03:00:00Z)", date.Text)
		case dateRule(t, date.Text) != "":
			d.fail(date.Line, "%s", dateRule(t, date.Text))
		}
		a.Date = t.UTC()
	}
	return a
}

func (d *decoder) parents(n *readkit.Node) []string {
	if absent(n) {
		return nil
	}
	if n.Kind != readkit.List {
		d.fail(n.Line, "artifact.parents: want a list of ids, got %s", n.Describe())
		return nil
	}
	var ps []string
	for i := range n.Len() {
		it := n.Elem(i)
		s, ok := it.AsText()
		switch {
		case !ok:
			d.fail(it.Line, "artifact.parents[%d]: want a string, got %s", i, it.Describe())
		case parentRule(i, s) != "":
			d.fail(it.Line, "%s", parentRule(i, s))
		default:
			ps = append(ps, s)
		}
	}
	return ps
}

func (d *decoder) machine(n *readkit.Node, keyLine int) model.Machine {
	var m model.Machine
	if absent(n) {
		n = &readkit.Node{Kind: readkit.Map}
	} else if n.Kind != readkit.Map {
		d.fail(n.Line, "machine: want an object, got %s", n.Describe())
		return m
	}
	for _, f := range n.Fields {
		path := "machine." + f.Key
		switch f.Key {
		case "name":
			m.Name = d.text(f.Val, path)
		case "os":
			m.OS = d.text(f.Val, path)
		case "arch":
			m.Arch = d.text(f.Val, path)
		case "cpu":
			m.CPU = d.text(f.Val, path)
		case "cores":
			m.Cores = int(d.integer(f.Val, path))
		case "memory_bytes":
			m.MemoryBytes = d.integer(f.Val, path)
		case "labels":
			if !absent(f.Val) {
				m.Labels = d.pairs(f.Val, path)
			}
		default:
			d.warn(f.Line, "unknown field %q", path)
		}
	}
	if m.Name == "" {
		d.fail(keyLine, missingMachineName)
	}
	return m
}

// pairs reads the context or the machine's labels: an object of scalars,
// stringified like parameters. They split series, so a bad one is fatal.
func (d *decoder) pairs(n *readkit.Node, path string) model.Params {
	if n.Kind != readkit.Map {
		d.fail(n.Line, "%s: want an object, got %s", path, n.Describe())
		return nil
	}
	m := make(map[string]string, len(n.Fields))
	for _, f := range n.Fields {
		s, ok := f.Val.AsParam()
		if !ok {
			d.fail(f.Val.Line, "%s.%s: want a string, number or boolean, got %s", path, f.Key, f.Val.Describe())
			continue
		}
		m[f.Key] = s
	}
	return model.NewParams(m)
}

// results validates every result, keeping the valid ones and the first of
// each set of duplicates.
func (d *decoder) results(n *readkit.Node) []model.Result {
	for i, x := range n.Nums {
		// A list of numbers: no node is built for each (there may be
		// millions).
		d.warn(int(x.Line), "results[%d]: want an object, got %s; result dropped", i, x.Node().Describe())
	}
	items := n.Items
	// Sized for the items, but for no more than the file's bytes can hold
	// valid results of (40 bytes each at least): a hostile list of a
	// million `{}` would cost a million results up front.
	size := min(len(items), d.size/40)
	out := make([]model.Result, 0, size)
	seen := make(map[resultKey]int, size) // → index in the file
	// Every result's samples and iteration counts go in one array: a
	// build keeps them for its whole length (they become the dataset's
	// points), and one object per archive instead of two per result is
	// less for the allocator and the garbage collector to track.
	floats := 0
	for _, it := range items {
		for _, key := range [...]string{"samples", "iters"} {
			if v, _ := it.Lookup(key); v != nil && v.Kind == readkit.List {
				floats += v.Len()
			}
		}
	}
	d.floats = make([]float64, 0, min(floats, d.size/2))
	for i, it := range items {
		r, ok := d.result(i, it)
		if !ok {
			continue
		}
		key := keyOf(r)
		if first, dup := seen[key]; dup {
			d.warn(it.Line, "%s: %s; result dropped", resultLabel(i, r, true), duplicateRule(first))
			continue
		}
		seen[key] = i
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// resultKey identifies a result within a run: two results with the same
// benchmark, parameters and metric are duplicates, whatever their category.
type resultKey struct{ benchmark, params, metric string }

func keyOf(r model.Result) resultKey {
	k := resultKey{benchmark: r.Case.Benchmark, metric: r.Metric}
	if len(r.Case.Params) > 0 {
		k.params = r.Case.Params.String()
	}
	return k
}

// resultLabel names results[i] in problems by whatever of it is valid:
// `results[3] (json-decode size=large wall-time)`.
func resultLabel(i int, r model.Result, paramsOK bool) string {
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
func (d *decoder) result(i int, n *readkit.Node) (model.Result, bool) {
	if n.Kind != readkit.Map {
		d.warn(n.Line, "results[%d]: want an object, got %s; result dropped", i, n.Describe())
		return model.Result{}, false
	}
	var bench, cat, params, metric, unit, dir, samples, iters, errText, summary, spread *readkit.Node
	for _, f := range n.Fields {
		switch f.Key {
		case "benchmark":
			bench = f.Val
		case "category":
			cat = f.Val
		case "params":
			params = f.Val
		case "metric":
			metric = f.Val
		case "unit":
			unit = f.Val
		case "direction":
			dir = f.Val
		case "samples":
			samples = f.Val
		case "iters":
			iters = f.Val
		case "error":
			errText = f.Val
		case "summary":
			summary = f.Val
		case "range":
			spread = f.Val
		default:
			d.warn(f.Line, "unknown field %q", "results["+strconv.Itoa(i)+"]."+f.Key)
		}
	}

	issues := make([]issue, 0, 4)
	bad := func(line int, format string, args ...any) {
		issues = append(issues, issue{line, format, args})
	}
	str := func(v *readkit.Node, name string) string {
		if absent(v) {
			return ""
		}
		s, ok := v.AsText()
		if !ok {
			bad(v.Line, "%s: want a string, got %s", name, v.Describe())
		}
		return s
	}

	r := model.Result{Case: model.TestCase{Category: model.Primary}}
	r.Case.Benchmark = str(bench, "benchmark")
	if r.Case.Benchmark == "" && (absent(bench) || bench.IsScalar()) {
		bad(n.Line, missingBenchmark)
	}
	paramsOK := true
	if !absent(params) {
		r.Case.Params, paramsOK = d.params(params, bad)
	}
	r.Metric = str(metric, "metric")
	if r.Metric == "" && (absent(metric) || metric.IsScalar()) {
		bad(n.Line, missingMetric)
	}
	if c := str(cat, "category"); c != "" {
		r.Case.Category = model.Category(c)
		if msg := categoryRule(r.Case.Category); msg != "" {
			bad(cat.Line, "%s", msg)
		}
	}
	r.Unit = str(unit, "unit")
	if d := str(dir, "direction"); d != "" {
		r.Direction = model.Direction(d)
		if msg := directionRule(r.Direction); msg != "" {
			bad(dir.Line, "%s", msg)
		}
	}
	r.Error = str(errText, "error")
	r.Range = str(spread, "range")
	if !absent(summary) {
		r.Summary = d.summary(i, summary, bad)
	}

	samplesOK := true
	if !absent(samples) {
		r.Samples, samplesOK = d.numbers(samples, "samples", func(j int, x float64) string {
			return sampleRule(j, x, r.Unit)
		}, bad)
	}
	if samplesOK && len(r.Samples) == 0 && r.Error == "" {
		bad(n.Line, noSamples)
	}
	if !absent(iters) {
		var itersOK bool
		r.Iters, itersOK = d.numbers(iters, "iters", iterRule, bad)
		if msg := countRule(len(r.Iters), len(r.Samples)); itersOK && samplesOK && msg != "" {
			bad(iters.Line, "%s", msg)
		}
	}

	if len(issues) > 0 {
		if len(d.problems) >= maxProblems {
			d.more += len(issues)
			return model.Result{}, false
		}
		label := resultLabel(i, r, paramsOK)
		for _, is := range issues {
			d.warn(is.line, "%s: %s; result dropped", label, fmt.Sprintf(is.format, is.args...))
		}
		return model.Result{}, false
	}
	if len(r.Samples) == 0 {
		r.Samples = nil
	}
	if len(r.Iters) == 0 {
		r.Iters = nil
	}
	return r, true
}

// summary reads a result's summary statistics: an object of mean,
// stddev and n (see model.SampleSummary), all three required.
func (d *decoder) summary(i int, n *readkit.Node, bad func(int, string, ...any)) *model.SampleSummary {
	if n.Kind != readkit.Map {
		bad(n.Line, "summary: want an object of mean, stddev and n, got %s", n.Describe())
		return nil
	}
	var s model.SampleSummary
	var seen [3]bool
	for _, f := range n.Fields {
		num := func() (float64, bool) {
			if f.Val.Kind != readkit.Int && f.Val.Kind != readkit.Float {
				bad(f.Val.Line, "summary.%s: want a number, got %s", f.Key, f.Val.Describe())
				return 0, false
			}
			return f.Val.Float, true
		}
		switch f.Key {
		case "mean":
			s.Mean, seen[0] = num()
		case "stddev":
			s.StdDev, seen[1] = num()
		case "n":
			if f.Val.Kind != readkit.Int {
				bad(f.Val.Line, "summary.n: want a whole number, got %s", f.Val.Describe())
				return nil
			}
			if f.Val.Int > math.MaxInt32 {
				bad(f.Val.Line, "summary.n: %d is out of range", f.Val.Int)
				return nil
			}
			s.N, seen[2] = int(f.Val.Int), true
		default:
			d.warn(f.Line, "unknown field %q", "results["+strconv.Itoa(i)+"].summary."+f.Key)
		}
	}
	for k, name := range [...]string{"mean", "stddev", "n"} {
		if !seen[k] {
			bad(n.Line, "summary: missing %s", name)
			return nil
		}
	}
	if msg := summaryRule(s); msg != "" {
		bad(n.Line, "%s", msg)
		return nil
	}
	return &s
}

// params reads a result's parameters: an object of scalars.
func (d *decoder) params(n *readkit.Node, bad func(int, string, ...any)) (model.Params, bool) {
	if n.Kind != readkit.Map {
		bad(n.Line, "params: want an object, got %s", n.Describe())
		return nil, false
	}
	ps := make(model.Params, 0, len(n.Fields))
	ok := true
	for _, f := range n.Fields {
		s, isScalar := f.Val.AsParam()
		if !isScalar {
			bad(f.Val.Line, "params.%s: want a string, number or boolean, got %s", f.Key, f.Val.Describe())
			ok = false
			continue
		}
		ps = append(ps, model.Param{Key: f.Key, Value: s})
	}
	return sortParams(ps), ok
}

// sortParams is model.NewParams for pairs with unique keys (the codecs
// guarantee that), without the map.
func sortParams(ps model.Params) model.Params {
	if len(ps) == 0 {
		return nil
	}
	slices.SortFunc(ps, func(a, b model.Param) int { return strings.Compare(a.Key, b.Key) })
	return ps
}

// numbers reads a list of numbers. check returns why a value is invalid,
// or "". Only the first bad value is reported: a file of a thousand
// negative samples needs one message, not a thousand.
func (d *decoder) numbers(n *readkit.Node, name string, check func(int, float64) string, bad func(int, string, ...any)) ([]float64, bool) {
	if n.Kind != readkit.List {
		bad(n.Line, "%s: want a list of numbers, got %s", name, n.Describe())
		return nil, false
	}
	var xs []float64
	if k := len(d.floats); k+n.Len() <= cap(d.floats) {
		d.floats = d.floats[:k+n.Len()]
		xs = d.floats[k:len(d.floats):len(d.floats)]
	} else {
		xs = make([]float64, n.Len())
	}
	for j, x := range n.Nums {
		f := x.Float()
		if msg := check(j, f); msg != "" {
			bad(int(x.Line), "%s", msg)
			return nil, false
		}
		xs[j] = f
	}
	for j, it := range n.Items {
		if it.Kind != readkit.Int && it.Kind != readkit.Float {
			bad(it.Line, "%s[%d]: want a number, got %s", name, j, it.Describe())
			return nil, false
		}
		if msg := check(j, it.Float); msg != "" {
			bad(it.Line, "%s", msg)
			return nil, false
		}
		xs[j] = it.Float
	}
	return xs, true
}
