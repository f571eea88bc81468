package foreign

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
	"github.com/perfpages/perfpages/generator/source"
)

// gabFormat reads what github-action-benchmark (its src/extract.ts and
// src/write.ts) leaves behind, two kinds of JSON:
//
//  1. The custom-tool input, a JSON array of {name, unit, value, range?,
//     extra?} — one Run with artifact, machine and context from Defaults.
//     Which way is better is the action's tool name (customBiggerIsBetter
//     or customSmallerIsBetter), which the file does not record: the caller
//     passes it as Defaults.Context[GabBetter] ("higher" or "lower", or
//     the tool names themselves). Without it the unit decides (rates such
//     as req/s are higher-is-better, everything else lower).
//  2. The history the action keeps on gh-pages: `data.js`
//     (`window.BENCHMARK_DATA = {…}`) or the same object as plain JSON
//     (external-data-json-path): {lastUpdate, repoUrl, entries: {<suite>:
//     [{commit, date, tool, benches: [...]}]}}. Each entry becomes a Run:
//     the artifact from the commit (id, message → title and PR number as
//     GitHub writes merges and squashes, author name, timestamp in UTC,
//     else the entry's date; a commit URL of the form …/pull/N/commits/…
//     marks a pull_request run: kind try, PR N), the suite name as context
//     key "suite", the machine from Defaults. Entries of one suite with the
//     same commit id (re-runs) are one Run whose samples add up. An entry
//     without a commit id is skipped: a sha is never invented. The order
//     of the entries gives the commits their parents and the PR runs their
//     baselines and dates (see gabReader.history).
//  3. The compact "version 2" history some forks of the action write
//     (runs, names, units, values: see gabReader.columnar), read into the
//     same runs as the classic layout would give.
//
// Each bench record's value is one sample: it is whatever the tool printed
// (a mean for cargo, benchmarkjs and catch2, ops = 1/mean for pytest, …),
// all the file has. Records repeated under the same name (go test -count)
// are repetitions: their values are the samples of one result.
//
// pytest's records also carry the summary statistics of the time per
// round, which the result keeps (model.SampleSummary, see gabSummary):
// the action writes range "stddev: <seconds>" and extra "mean: <x>
// <nsec|usec|msec|sec>\nrounds: <n>". Every other tool's range is not a
// standard deviation (cargo's "± N" is max − min, benchmarkjs's a
// relative margin of error): it is kept as the tool wrote it
// (model.Result.Range), for pages to show beside the value — except
// catch2's: Catch2 prints its standard deviation in a unit of its own
// choosing ("3.93 ms" beside "145.328 us"), and the action keeps the
// number without it, so a page would show ± 145.328 beside a value in
// ms. It is kept as "std dev 145.328 (unit not recorded)".
//
// Units become metrics: a time per iteration ("ns/op", "ns/iter", "us",
// "ms", …) is wall-time in that time unit ("µs" written "us"); a rate
// ("MB/s", "ops/sec", "iter/sec", "req/s", and JMH's "ops/ms" of a
// benchmark whose output time unit is not seconds: model.IsRate) is
// throughput, with "/sec" written "/s"; a unit that is only a unit symbol names its quantity
// (see unitMetric: "%" is metric percent, "MB" metric size), except under
// the go tool, whose units are metric names as in format gobench; any
// other unit is its own metric ("B/op", "allocs/op", "Megabytes"); no
// unit at all is metric "value". Like the action, a
// series keeps the time unit it first had in the file: a later value in
// another time unit (catch2 switching from us to ms) is rescaled.
//
// Direction: the entry's tool says it. customBiggerIsBetter, benchmarkjs
// and pytest are higher-is-better, the other tools lower — except that a
// rate under a named tool is left to its unit (higher): the action calls
// the go tool's MB/s and JMH's ops/s "smaller is better", a known bug
// (github-action-benchmark #365). The custom tools are the user's explicit
// choice and always win.
//
// The go tool's records are taken apart the way format gobench reads the
// same lines, so that series agree: "BenchmarkPut/size=64/sorted
// (example.com/kv) - B/op" is benchmark Put with params size=64 and
// sub2=sorted (a positional part is subN, N its position among the slash
// parts), metric B/op, in a run whose context has pkg=example.com/kv (the
// action appends the package when a run covers several); "N procs" in
// extra is param procs. ns/op and sec/op are wall-time in ns, MB/s and B/s
// throughput in B/s (Go's MB is 10⁶ bytes). Older versions of the action
// stored one record per line with the whole tail as unit ("ns/op\t96
// B/op\t2 allocs/op"); its pairs are read too, and the record is skipped
// where newer versions also wrote one record per metric. The jmh tool's
// names carry JMH's params as JSON ("x.Chain.pre ( {"chainLength":"4"} )",
// see gabJMHName): they are the case's params, so that the chain lengths
// are one benchmark's cases, not four benchmarks. The googlecpp tool's
// CPU time and the julia tool's memory and allocations, which the action
// keeps in extra, are metrics of their own (see extraValues).
//
// A source without an artifact pattern reads the data.js and .json files
// of its folder: the action writes data.js (always under that name) or
// the external JSON file, and beside data.js an index.html that is not
// data — and a site that draws its own charts, such as
// awslabs/mountpoint-s3's gh-pages, keeps its scripts there too
// (Chart.min.js, main.js: 36 warnings of files that are not data, before).
var gabFormat = Format{Name: "gab", Read: readGab, Sniff: sniffGab, Files: func(name string) bool {
	return path.Base(name) == "data.js" || path.Ext(name) == ".json"
}}

func init() { register(gabFormat) }

// GabBetter is the Defaults.Context key that gives the direction of a
// github-action-benchmark custom JSON array: "higher" (the action's
// customBiggerIsBetter) or "lower" (customSmallerIsBetter); the tool names
// are accepted too. The reader removes the key from the runs' context. It
// does not apply to data.js, whose entries name their tool.
const GabBetter = "better"

// gabHigherTools and gabLowerTools are the action's biggerIsBetter table
// (src/write: biggerIsBetter).
var (
	gabHigherTools = []string{"customBiggerIsBetter", "benchmarkjs", "pytest"}
	gabLowerTools  = []string{"customSmallerIsBetter", "cargo", "go", "benchmarkluau", "googlecpp", "catch2", "julia", "jmh", "benchmarkdotnet"}
)

var (
	gabPRURL = regexp.MustCompile(`/pull/([0-9]+)/commits/`)
	gabProcs = regexp.MustCompile(`(?m)^\s*([0-9]+) procs\s*$`)
	// gabSubKey matches the names given to positional parts.
	gabSubKey = regexp.MustCompile(`^sub[0-9]+$`)
)

var gabPrefix = []byte("window.BENCHMARK_DATA")

// gabMicro writes microseconds as the action does (canonicalizeUnit).
var gabMicro = strings.NewReplacer("µs", "us", "μs", "us")

// gabReader holds the state of one read.
type gabReader struct {
	file     string
	problems []archive.Problem
	dropped  int // warnings past maxProblems
	warned   map[string]bool
	// units is the first time unit of each wall-time series.
	units map[string]string
	runs  []*gabRun
	byKey map[string]*gabRun
}

type gabRun struct {
	run   model.Run
	index map[string]int // benchmark, params, metric → result
}

// gabValue is one number of one metric of one test case.
type gabValue struct {
	pkg     string // go tool: the package, a context key
	bench   string
	params  model.Params
	metric  string
	unit    string
	value   float64
	lit     string // value as written, for exact decimal rescaling
	line    int
	summary *model.SampleSummary // pytest's statistics, or nil
	rng     string               // the tool's range, as written (none with a summary, which holds it)
}

func readGab(in Input, def Defaults) (_ []model.Run, problems []archive.Problem) {
	g := &gabReader{file: in.Name, warned: map[string]bool{}, units: map[string]string{}, byKey: map[string]*gabRun{}}
	defer func() { problems = withDropped(problems, g.file, g.dropped) }()
	data := bytes.TrimPrefix(in.Data, utf8BOM)
	start, js, ok := g.body(data)
	if !ok {
		return nil, g.problems
	}
	root, end, perr := parseJSON(in.Name, data, readkit.JSONOptions{Start: start, Trailing: true, Duplicates: true, NumberText: true})
	if perr != nil {
		return nil, append(g.problems, *perr)
	}
	if l, ok := trailing(data, end, js); ok {
		g.warn(l, "unexpected text after the benchmark data; ignored")
	}
	ctx, dir := g.context(def.Context)
	switch {
	case root.Kind == readkit.List && !js:
		g.custom(root, def, ctx, dir)
	case root.Kind == readkit.Map:
		g.dataFile(root, def, ctx)
	default:
		want := "a JSON array of {name, unit, value} or a data.js object with entries"
		if js {
			want = "an object with entries after window.BENCHMARK_DATA ="
		}
		return nil, append(g.problems, fatal(in.Name, root.Line, "want %s, found %s", want, root.Describe()))
	}
	var runs []model.Run
	for _, r := range g.runs {
		if len(r.run.Results) > 0 {
			runs = append(runs, r.run)
		}
	}
	if slices.ContainsFunc(g.problems, func(p archive.Problem) bool { return p.Fatal }) {
		return nil, g.problems
	}
	if len(runs) == 0 {
		return nil, append(g.problems, fatal(in.Name, 0, "no usable benchmark results"))
	}
	return runs, g.problems
}

// body finds the JSON after data.js's assignment; it returns where it
// starts, whether it came from data.js and whether it is usable.
func (g *gabReader) body(data []byte) (int, bool, bool) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if !bytes.HasPrefix(trimmed, gabPrefix) {
		return 0, false, true
	}
	rest := bytes.TrimLeft(trimmed[len(gabPrefix):], " \t\r\n")
	rest, ok := bytes.CutPrefix(rest, []byte("="))
	if !ok {
		g.problems = append(g.problems, fatal(g.file, readkit.LineAt(data, len(data)-len(rest)), "want '=' after window.BENCHMARK_DATA"))
		return 0, true, false
	}
	return len(data) - len(rest), true, true
}

func (g *gabReader) warn(line int, format string, args ...any) {
	if !full(g.problems, &g.dropped) {
		g.problems = append(g.problems, problem(g.file, line, format, args...))
	}
}

// warnOnce reports a problem the first time key comes up in the file.
func (g *gabReader) warnOnce(key string, line int, format string, args ...any) {
	if !g.warned[key] {
		g.warned[key] = true
		g.warn(line, format, args...)
	}
}

// context splits the caller's context into the runs' context and the
// direction given by GabBetter.
func (g *gabReader) context(c model.Params) (map[string]string, model.Direction) {
	ctx := map[string]string{}
	var dir model.Direction
	for _, kv := range c {
		if kv.Key != GabBetter {
			ctx[kv.Key] = kv.Value
			continue
		}
		switch strings.ToLower(kv.Value) {
		case "higher", "custombiggerisbetter":
			dir = model.HigherIsBetter
		case "lower", "customsmallerisbetter":
			dir = model.LowerIsBetter
		default:
			g.warn(0, "context %s=%q: want higher or lower; ignored", GabBetter, kv.Value)
		}
	}
	return ctx, dir
}

// custom reads the custom tools' array into one run.
func (g *gabReader) custom(root *readkit.Node, def Defaults, ctx map[string]string, dir model.Direction) {
	if len(root.Items) == 0 {
		g.warn(root.Line, "empty benchmark list")
		return
	}
	tool := ""
	switch dir {
	case model.HigherIsBetter:
		tool = "customBiggerIsBetter"
	case model.LowerIsBetter:
		tool = "customSmallerIsBetter"
	}
	g.benches("", def.Artifact, def, ctx, tool, g.records(root.Items))
}

// gabEntry is one usable entry of a data file: a run of the action.
type gabEntry struct {
	suite string
	ctx   map[string]string
	art   model.Artifact
	ran   time.Time // the entry's date: when the action ran
	tool  string
	recs  []gabRecord
	line  int
}

// dataFile reads data.js's object: one run per suite and commit. It reads
// in three steps: every entry's commit, then the history they make (see
// history), then the benchmark records.
func (g *gabReader) dataFile(root *readkit.Node, def Defaults, ctx map[string]string) {
	if v := root.Get("version"); v != nil {
		if !v.IsNumber() || v.Float != 2 {
			g.problems = append(g.problems, fatal(g.file, v.Line, "data file version %s: this reader knows the classic layout (no version) and version 2", cmp.Or(v.Text, v.Describe())))
			return
		}
		g.columnar(root, def, ctx)
		return
	}
	var entries *readkit.Node
	for _, m := range root.Fields {
		switch m.Key {
		case "entries":
			if entries == nil {
				entries = m.Val
			}
		case "lastUpdate", "repoUrl":
		default:
			g.warnOnce("top:"+m.Key, m.Line, "unknown field %q ignored", m.Key)
		}
	}
	if entries == nil {
		g.problems = append(g.problems, fatal(g.file, root.Line, "no \"entries\": not a github-action-benchmark data file"))
		return
	}
	if entries.Kind != readkit.Map {
		g.problems = append(g.problems, fatal(g.file, entries.Line, "entries: want an object of suites, found %s", entries.Describe()))
		return
	}
	if len(entries.Fields) == 0 {
		g.warn(entries.Line, "no benchmark suites")
		return
	}
	seen := map[string]int{}
	var list []*gabEntry
	for _, s := range entries.Fields {
		if l, dup := seen[s.Key]; dup {
			g.warn(s.Line, "suite %q appears again (first at line %d); its entries are merged", s.Key, l)
		} else {
			seen[s.Key] = s.Line
		}
		if s.Val.Kind != readkit.List {
			g.warn(s.Val.Line, "suite %q: want an array of entries, found %s; skipped", s.Key, s.Val.Describe())
			continue
		}
		if len(s.Val.Items) == 0 {
			g.warn(s.Val.Line, "suite %q has no entries", s.Key)
			continue
		}
		sctx := map[string]string{}
		for k, v := range ctx {
			sctx[k] = v
		}
		sctx["suite"] = s.Key
		for _, e := range s.Val.Items {
			if ge := g.entry(s.Key, e, def); ge != nil {
				ge.ctx = sctx
				list = append(list, ge)
			}
		}
	}
	for _, e := range g.history(list, def) {
		g.benches(e.suite, e.art, def, e.ctx, e.tool, e.recs)
	}
}

// columnar reads the compact layout some github-action-benchmark forks
// write ("version": 2; gofiber's reusable benchmark workflow keeps months
// of history in a few MB with it): {version, lastUpdate, repoUrl, runs:
// [{id, timestamp, url, message, author?, branch?, date?}], names: [...],
// units: [...], values: [[...]]} — values[j][i] is series names[j]
// (unit units[j]) in run i, null where that run did not measure it. The
// layout names no tool and no suite: a file whose every name is a go
// record ("Benchmark… - unit", as the go tool's newer records are) is
// read as tool go, anything else by its units (with one warning). A run
// is a commit object as in the classic layout and goes through the same
// history rules (order, PRs, re-runs).
func (g *gabReader) columnar(root *readkit.Node, def Defaults, ctx map[string]string) {
	var runs, names, units, values *readkit.Node
	for _, m := range root.Fields {
		switch m.Key {
		case "runs":
			runs = m.Val
		case "names":
			names = m.Val
		case "units":
			units = m.Val
		case "values":
			values = m.Val
		case "version", "lastUpdate", "repoUrl":
		default:
			g.warnOnce("top:"+m.Key, m.Line, "unknown field %q ignored", m.Key)
		}
	}
	for _, f := range []struct {
		name string
		n    *readkit.Node
	}{{"runs", runs}, {"names", names}, {"units", units}, {"values", values}} {
		if f.n == nil || f.n.Kind != readkit.List {
			found := "nothing"
			if f.n != nil {
				found = f.n.Describe()
			}
			g.problems = append(g.problems, fatal(g.file, root.Line, "version 2 data file: want an array %q, found %s", f.name, found))
			return
		}
	}
	if len(names.Items) != len(values.Items) || len(units.Items) != len(names.Items) {
		g.problems = append(g.problems, fatal(g.file, values.Line, "version 2 data file: %d names, %d units and %d value rows; they must match", len(names.Items), len(units.Items), len(values.Items)))
		return
	}
	tool := "go"
	for j, n := range names.Items {
		if _, ok := gabCutUnit(strings.TrimSpace(n.Str()), strings.TrimSpace(units.Items[j].Str())); !ok || !strings.HasPrefix(n.Str(), "Benchmark") {
			tool = ""
			g.warn(n.Line, "version 2 data file: %q is not a go benchmark record and the layout names no tool; directions follow the units", n.Str())
			break
		}
	}
	recs := make([][]gabRecord, len(runs.Items))
	for j, row := range values.Items {
		name, unit := strings.TrimSpace(names.Items[j].Str()), strings.TrimSpace(units.Items[j].Str())
		if name == "" {
			g.warn(names.Items[j].Line, "version 2 data file: series %d has no name; skipped", j)
			continue
		}
		if row.Kind != readkit.List {
			g.warn(row.Line, "series %q: want an array of values, found %s; skipped", name, row.Describe())
			continue
		}
		if len(row.Items) != len(runs.Items) {
			g.warn(row.Line, "series %q: %d values for %d runs; the values past the runs are ignored, the runs past the values have none", name, len(row.Items), len(runs.Items))
		}
		for i, v := range row.Items[:min(len(row.Items), len(runs.Items))] {
			if v.Kind == readkit.Null {
				continue
			}
			x, msg := finite(v)
			if msg == "" && math.IsNaN(x) {
				msg = "is not a number"
			}
			if msg != "" {
				g.warn(v.Line, "series %q, run %d: value %s; skipped", name, i+1, msg)
				continue
			}
			recs[i] = append(recs[i], gabRecord{name: name, unit: unit, value: x, lit: strings.TrimSpace(v.Text), line: v.Line})
		}
	}
	var list []*gabEntry
	for i, r := range runs.Items {
		if r.Kind != readkit.Map {
			g.warn(r.Line, "run %d: want an object, found %s; skipped", i+1, r.Describe())
			continue
		}
		if strings.TrimSpace(r.Get("id").Str()) == "" {
			g.warn(r.Line, "run %d without a commit id; skipped", i+1)
			continue
		}
		if len(recs[i]) == 0 {
			continue
		}
		art, ran, ok := g.commit("", r, r.Get("date"), def)
		if ok {
			list = append(list, &gabEntry{ctx: ctx, art: art, ran: ran, tool: tool, recs: recs[i], line: r.Line})
		}
	}
	for _, e := range g.history(list, def) {
		g.benches(e.suite, e.art, def, e.ctx, e.tool, e.recs)
	}
}

// entry reads one run of the action, without its benchmark records; nil
// when it is unusable (the problem is reported).
func (g *gabReader) entry(suite string, e *readkit.Node, def Defaults) *gabEntry {
	if e.Kind != readkit.Map {
		g.warn(e.Line, "suite %q: an entry must be an object, found %s; skipped", suite, e.Describe())
		return nil
	}
	for _, m := range e.Fields {
		switch m.Key {
		case "commit", "date", "tool", "benches":
		default:
			g.warnOnce("entry:"+m.Key, m.Line, "suite %q: unknown entry field %q ignored", suite, m.Key)
		}
	}
	art, ran, ok := g.artifact(suite, e, def)
	if !ok {
		return nil
	}
	tool := ""
	if t := e.Get("tool"); t != nil && t.Kind == readkit.String {
		tool = t.Text
	}
	if !slices.Contains(gabHigherTools, tool) && !slices.Contains(gabLowerTools, tool) {
		g.warnOnce("tool:"+tool, e.Line, "suite %q: unknown tool %q; directions follow the units", suite, tool)
	}
	benches := e.Get("benches")
	if benches == nil || benches.Kind != readkit.List {
		g.warn(e.Line, "suite %q, commit %s: no benches array; skipped", suite, art.ID)
		return nil
	}
	if len(benches.Items) == 0 {
		g.warn(benches.Line, "suite %q, commit %s: empty benchmark list", suite, art.ID)
		return nil
	}
	return &gabEntry{suite: suite, art: art, ran: ran, tool: tool, recs: g.records(benches.Items), line: e.Line}
}

// history settles the artifacts of a data file's entries, which the
// action appends in the order it ran (its newer versions insert a run
// after its nearest benchmarked ancestor instead: the file's order is the
// history's either way), and returns the entries to read.
//
//   - Order. A push run's commit date is the head commit's author date,
//     which goes backwards whenever a commit is pushed later than it was
//     written (rebases, merges of old branches), so dates cannot order the
//     main line. The file's order does: each commit of a push run gets
//     as first parent the commit of the run before it, so that without
//     the project's history the main line follows the file (see
//     model.Dataset.MainLine). Suites are merged into one order that
//     keeps every suite's own (runs that only some suites have fit in by
//     the time they ran); a re-run of a commit keeps its first place.
//     Commits with another branch (a commit.branch, which the action does
//     not write) are chained apart. A configured [project] history
//     overrides these parents with the real ones. These parents mean "the
//     run before", not the git parent: a push of several commits is one
//     run, so the commits between two runs are not known.
//   - Pull requests. A pull_request run (commit URL …/pull/N/commits/sha)
//     is a try run of PR N. The action records neither the PR's base nor a
//     commit date (its "timestamp" is the head repository's updated_at),
//     so the run is dated when it ran, and its baseline is the latest
//     push run (of the main branch) before it in its suite — the main
//     line as the PR saw it; none when the PR ran before any push.
//   - One commit, several PRs. A sha run under two PRs (the same branch
//     opened against two bases) is one artifact and cannot be both: the
//     lowest PR number keeps it, as when two archives disagree, and the
//     other PRs' runs of that commit are skipped with a warning naming
//     both PRs. A sha that ran on a push and in a PR is the push's commit
//     (on the main line), with the PR's number if its message has none.
func (g *gabReader) history(list []*gabEntry, def Defaults) []*gabEntry {
	commits := map[string]*gabCommit{}
	for i, e := range list {
		c := commits[e.art.ID]
		if c == nil {
			c = &gabCommit{art: e.art, first: i}
			commits[e.art.ID] = c
		}
		if !e.ran.IsZero() && (c.ran.IsZero() || e.ran.Before(c.ran)) {
			c.ran = e.ran
		}
		if e.art.Kind != model.KindTry {
			if !c.push {
				c.push, c.art = true, e.art
			}
			continue
		}
		if !slices.Contains(c.prs, e.art.PR) {
			c.prs = append(c.prs, e.art.PR)
			slices.Sort(c.prs)
		}
		if !c.push && e.art.PR < c.art.PR {
			c.art = e.art // the lowest PR's first run describes it
		}
	}
	for _, c := range commits {
		if c.push && c.art.PR == 0 && len(c.prs) > 0 {
			c.art.PR = c.prs[0]
		}
	}

	// Keep the lowest PR of each commit.
	kept := make([]*gabEntry, 0, len(list))
	warned := map[string]bool{}
	for _, e := range list {
		c := commits[e.art.ID]
		if e.art.Kind == model.KindTry && len(c.prs) > 1 && e.art.PR != c.prs[0] {
			if key := e.art.ID + "\x00" + strconv.Itoa(e.art.PR); !warned[key] {
				warned[key] = true
				g.warn(e.line, "%scommit %s is listed under PR #%d and PR #%d; its runs under #%d are skipped (the lowest PR number keeps the commit)",
					suitePrefix(e.suite), e.art.ID, c.prs[0], e.art.PR, e.art.PR)
			}
			continue
		}
		kept = append(kept, e)
	}

	// The main line: every suite's push runs, in the file's order.
	var ids []string // in order of first appearance
	edges := map[string][]string{}
	indeg := map[string]int{}
	last := map[string]string{} // suite → its latest push commit so far
	inSuite := map[[2]string]bool{}
	for _, e := range kept {
		c := commits[e.art.ID]
		if !c.push {
			continue
		}
		if !c.listed {
			c.listed = true
			ids = append(ids, e.art.ID)
		}
		// Runs on another branch (a commit.branch the action does not
		// write, or -branch) make a line of their own.
		line := e.suite + "\x00" + c.art.Branch
		if inSuite[[2]string{line, e.art.ID}] {
			continue // a re-run of a commit the suite has already
		}
		inSuite[[2]string{line, e.art.ID}] = true
		if prev, ok := last[line]; ok && !slices.Contains(edges[prev], e.art.ID) {
			edges[prev] = append(edges[prev], e.art.ID)
			indeg[e.art.ID]++
		}
		last[line] = e.art.ID
	}
	order := gabOrder(ids, edges, indeg, func(a, b string) bool {
		x, y := commits[a], commits[b]
		if !x.ran.IsZero() && !y.ran.IsZero() && !x.ran.Equal(y.ran) {
			return x.ran.Before(y.ran)
		}
		return x.first < y.first
	})
	pos := make(map[string]int, len(ids))
	for i, id := range order {
		pos[id] = i
	}
	if len(order) < len(ids) {
		var rest []string
		for _, id := range ids {
			if _, ok := pos[id]; !ok {
				pos[id] = len(order) + len(rest)
				rest = append(rest, id)
			}
		}
		g.warn(0, "the suites list %d commits in contradicting orders (e.g. %s); they are placed last, in the order they first appear", len(rest), rest[0])
		order = append(order, rest...)
	}
	latest := map[string]string{} // branch → its latest commit in order
	for _, id := range order {
		a := &commits[id].art
		if p, ok := latest[a.Branch]; ok {
			a.Parents = []string{p}
		}
		latest[a.Branch] = id
	}

	// Pull request runs: dated when they ran, compared with the latest
	// push run before them.
	base := map[string]int{} // try commit → position of its baseline
	prev := map[string]string{}
	for _, e := range kept {
		c := commits[e.art.ID]
		if c.push {
			if c.art.Branch == def.Artifact.Branch {
				prev[e.suite] = e.art.ID
			}
			continue
		}
		if b, ok := prev[e.suite]; ok {
			if p, have := base[e.art.ID]; !have || pos[b] > p {
				base[e.art.ID] = pos[b]
			}
		}
	}
	for id, c := range commits {
		if c.push {
			continue
		}
		if !c.ran.IsZero() {
			c.art.Date = c.ran
		}
		if p, ok := base[id]; ok {
			c.art.Baseline = order[p]
		}
	}
	for _, e := range kept {
		e.art = commits[e.art.ID].art
	}
	return kept
}

// gabCommit gathers what a data file's entries say about one commit.
type gabCommit struct {
	art    model.Artifact
	push   bool      // it ran on a push: a main-line commit
	listed bool      // it is in the main line's list
	first  int       // index of its first entry
	ran    time.Time // its earliest run
	prs    []int     // the PRs it ran under, ascending
}

// gabOrder is a topological order of ids along edges, taking among the
// ready ones the least by less (the ready set is small: about one per
// suite); ids on a cycle are left out.
func gabOrder(ids []string, edges map[string][]string, indeg map[string]int, less func(a, b string) bool) []string {
	var ready []string
	order := make([]string, 0, len(ids))
	for _, id := range ids {
		if indeg[id] == 0 {
			ready = append(ready, id)
		}
	}
	for len(ready) > 0 {
		i := 0
		for j := range ready {
			if less(ready[j], ready[i]) {
				i = j
			}
		}
		id := ready[i]
		ready = slices.Delete(ready, i, i+1)
		order = append(order, id)
		for _, next := range edges[id] {
			if indeg[next]--; indeg[next] == 0 {
				ready = append(ready, next)
			}
		}
	}
	return order
}

// run returns the run of (suite, go package, artifact id), creating it in
// file order.
func (g *gabReader) run(suite, pkg string, art model.Artifact, def Defaults, ctx map[string]string) *gabRun {
	key := suite + "\x00" + pkg + "\x00" + art.ID
	if r, ok := g.byKey[key]; ok {
		return r
	}
	if pkg != "" {
		c := map[string]string{"pkg": pkg}
		for k, v := range ctx {
			c[k] = v
		}
		ctx = c
	}
	r := &gabRun{run: model.Run{Artifact: art, Machine: def.Machine, Context: model.NewParams(ctx)}, index: map[string]int{}}
	g.byKey[key] = r
	g.runs = append(g.runs, r)
	return r
}

// artifact reads an entry's commit, and when the entry ran (its date).
func (g *gabReader) artifact(suite string, e *readkit.Node, def Defaults) (model.Artifact, time.Time, bool) {
	c := e.Get("commit")
	if c == nil || c.Kind != readkit.Map {
		g.warn(e.Line, "suite %q: entry without a commit object; skipped", suite)
		return model.Artifact{}, time.Time{}, false
	}
	return g.commit(suite, c, e.Get("date"), def)
}

// commit reads a commit object ({id, message, url, author, timestamp,
// branch}) and the date its run has (date, milliseconds since 1970, or
// nil).
func (g *gabReader) commit(suite string, c, d *readkit.Node, def Defaults) (model.Artifact, time.Time, bool) {
	id := strings.TrimSpace(c.Get("id").Str())
	if id == "" {
		g.warn(c.Line, "suite %q: entry without a commit id; skipped", suite)
		return model.Artifact{}, time.Time{}, false
	}
	a := model.Artifact{ID: id, Kind: model.KindCommit, Branch: c.Get("branch").Str()}
	msg := strings.TrimSpace(c.Get("message").Str())
	subject, body, _ := strings.Cut(msg, "\n")
	a.PR, a.Title = source.TitleAndPR(strings.TrimSpace(subject), body)
	if m := gabPRURL.FindStringSubmatch(c.Get("url").Str()); m != nil {
		// A pull_request run: the PR's head commit, and the message is
		// the PR's title.
		a.Kind, a.PR, a.Title, a.Branch = model.KindTry, source.PRNumber(m[1]), strings.TrimSpace(subject), ""
	}
	if au := c.Get("author"); au != nil {
		a.Author = strings.TrimSpace(au.Get("name").Str())
		if a.Author == "" {
			a.Author = strings.TrimSpace(au.Get("username").Str())
		}
	}
	if ts := c.Get("timestamp"); ts != nil && ts.Kind == readkit.String && ts.Text != "" {
		if t, err := time.Parse(time.RFC3339, ts.Text); err == nil {
			a.Date = t.UTC()
		} else {
			g.warn(ts.Line, "commit %s: timestamp %q is not an RFC 3339 date; using the entry's date", id, ts.Text)
		}
	}
	var ran time.Time
	if d != nil && d.IsNumber() && !math.IsInf(d.Float, 0) && d.Float > 0 && d.Float < gabMaxMillis {
		ran = time.UnixMilli(int64(d.Float)).UTC()
	}
	if a.Date.IsZero() {
		a.Date = ran
	}
	if a.Kind == model.KindCommit && a.Branch == "" {
		a.Branch = def.Artifact.Branch
	}
	return a, ran, true
}

// suitePrefix starts a message about a suite's entries ("" for the
// columnar layout, which has no suites).
func suitePrefix(suite string) string {
	if suite == "" {
		return ""
	}
	return fmt.Sprintf("suite %q: ", suite)
}

// gabMaxMillis bounds an entry's date (milliseconds since 1970): the year
// 10000, past which time.UnixMilli's result has no RFC 3339 form.
const gabMaxMillis = 253402300800000

// gabRecord is one element of a benches array.
type gabRecord struct {
	name, unit, extra string
	rng               string // the range field, as written
	rngLine           int
	value             float64
	lit               string // the value as written
	line              int
}

// records checks the elements of a benches array.
func (g *gabReader) records(elems []*readkit.Node) []gabRecord {
	var recs []gabRecord
	for _, n := range elems {
		if rec, ok := g.record(n); ok {
			recs = append(recs, rec)
		}
	}
	return recs
}

// benches adds one run's bench records to the runs of art.
func (g *gabReader) benches(suite string, art model.Artifact, def Defaults, ctx map[string]string, tool string, recs []gabRecord) {
	goTool := tool == "go"
	// Newer versions of the go tool write "Name - unit" records next to
	// the combined one; the combined one is then a duplicate.
	split := map[string]bool{}
	if goTool {
		for _, rec := range recs {
			if base, ok := gabCutUnit(rec.name, rec.unit); ok {
				split[base] = true
			}
		}
	}
	for _, rec := range recs {
		var vals []gabValue
		if goTool {
			vals = g.goValues(rec, split)
		} else {
			metric, unit := gabMetric(rec.unit)
			if q, ok := unitMetric(unit); ok && metric == unit {
				metric = q
			}
			v := gabValue{bench: rec.name, metric: metric, unit: unit, value: rec.value, lit: rec.lit, line: rec.line, summary: g.summary(rec)}
			if tool == "jmh" {
				v.bench, v.params = gabJMHName(rec.name)
			}
			if v.summary == nil {
				v.rng = strings.TrimSpace(rec.rng)
			}
			if tool == "catch2" && v.rng != "" {
				v.rng = "std dev " + strings.TrimSpace(strings.TrimPrefix(v.rng, "±")) + " (unit not recorded)"
			}
			vals = append([]gabValue{v}, g.extraValues(tool, rec, v)...)
		}
		for _, v := range vals {
			g.add(g.run(suite, v.pkg, art, def, ctx), suite, tool, v)
		}
	}
}

// record checks one bench record; like the action it takes numbers
// written as strings.
func (g *gabReader) record(n *readkit.Node) (gabRecord, bool) {
	if n.Kind != readkit.Map {
		g.warn(n.Line, "a benchmark result must be an object, found %s; skipped", n.Describe())
		return gabRecord{}, false
	}
	rec := gabRecord{line: n.Line}
	var value *readkit.Node
	for _, m := range n.Fields {
		switch m.Key {
		case "name":
			rec.name = strings.TrimSpace(gabText(m.Val))
		case "unit":
			rec.unit = strings.TrimSpace(gabText(m.Val))
		case "extra":
			rec.extra = gabText(m.Val)
		case "value":
			value = m.Val
		case "range":
			rec.rng, rec.rngLine = gabText(m.Val), m.Line
		default:
			g.warnOnce("bench:"+m.Key, m.Line, "unknown benchmark result field %q ignored", m.Key)
		}
	}
	if rec.name == "" {
		g.warn(n.Line, "benchmark result without a name; skipped")
		return gabRecord{}, false
	}
	if value == nil {
		g.warn(n.Line, "benchmark %q: no value; skipped", rec.name)
		return gabRecord{}, false
	}
	if value.Kind == readkit.String {
		f, err := strconv.ParseFloat(strings.TrimSpace(value.Text), 64)
		if err != nil {
			g.warn(value.Line, "benchmark %q: value %q is not a number; skipped", rec.name, value.Text)
			return gabRecord{}, false
		}
		value = &readkit.Node{Kind: readkit.Float, Line: value.Line, Text: value.Text, Float: f}
	}
	v, msg := finite(value)
	if msg == "" && math.IsNaN(v) {
		msg = "is not a number"
	}
	if msg != "" {
		g.warn(value.Line, "benchmark %q: value %s; skipped", rec.name, msg)
		return gabRecord{}, false
	}
	rec.value, rec.lit = v, strings.TrimSpace(value.Text)
	return rec, true
}

// goValues takes a go tool record apart.
func (g *gabReader) goValues(rec gabRecord, split map[string]bool) []gabValue {
	fields := strings.Fields(rec.unit)
	name := rec.name
	type pair struct {
		v         float64
		lit, unit string
	}
	var pairs []pair
	if len(fields) > 1 {
		if split[name] {
			return nil
		}
		pairs = append(pairs, pair{rec.value, rec.lit, fields[0]})
		for i := 1; i < len(fields); i += 2 {
			if i+1 == len(fields) {
				g.warn(rec.line, "benchmark %q: unit %q ends in a value without a unit; ignored", name, rec.unit)
				break
			}
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				g.warn(rec.line, "benchmark %q: %q in unit %q is not a number; ignored", name, fields[i], rec.unit)
				continue
			}
			pairs = append(pairs, pair{v, fields[i], fields[i+1]})
		}
	} else {
		if base, ok := gabCutUnit(name, rec.unit); ok {
			name = base
		}
		pairs = append(pairs, pair{rec.value, rec.lit, rec.unit})
	}
	pkg, bench, params, clash := gabGoName(name, rec.extra)
	if clash != "" {
		g.warnOnce("clash:"+name, rec.line, "benchmark %q: sub-benchmark key %q given twice or reserved; kept as a positional part", name, clash)
	}
	vals := make([]gabValue, 0, len(pairs))
	for _, p := range pairs {
		v, lit, unit := p.v, p.lit, p.unit
		switch unit {
		case "sec/op":
			v, lit, unit = gabScale(v, lit, 9), "", "ns/op"
		case "MB/s":
			v, lit, unit = gabScale(v, lit, 6), "", "B/s"
		}
		metric, unit := gabMetric(unit)
		vals = append(vals, gabValue{pkg: pkg, bench: bench, params: params, metric: metric, unit: unit, value: v, lit: lit, line: rec.line})
	}
	return vals
}

// Metrics in a record's extra: the googlecpp tool writes each
// benchmark's CPU time there ("cpu: 1234.5 ns", real_time being the
// value), and the julia tool the memory allocated and the allocations of
// its estimate ("memory=4096\nallocs=12"), which the action charts
// nowhere.
var (
	gabCPU      = regexp.MustCompile(`(?m)^cpu: (\S+) (ns|us|ms|s)$`)
	gabJuliaMem = regexp.MustCompile(`(?m)^(memory|allocs)=(\S+)$`)
)

// extraValues are the metrics of rec's extra beside its value v (see
// gabCPU): googlecpp's cpu time as metric cpu-time in the value's time
// unit, as format googlebench reads cpu_time; julia's memory and
// allocations as metrics B/op and allocs/op, the names the go tool gives
// the same quantities. A number that does not parse is warned about and
// left out; the record's value stays.
func (g *gabReader) extraValues(tool string, rec gabRecord, v gabValue) []gabValue {
	var out []gabValue
	add := func(metric, unit, lit string) {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			g.warn(rec.line, "benchmark %q: %s %q in extra is not a number; ignored", rec.name, metric, lit)
			return
		}
		out = append(out, gabValue{pkg: v.pkg, bench: v.bench, params: v.params, metric: metric, unit: unit, value: f, lit: lit, line: rec.line})
	}
	switch tool {
	case "googlecpp":
		if m := gabCPU.FindStringSubmatch(rec.extra); m != nil && v.metric == "wall-time" {
			add("cpu-time", m[2], m[1])
		}
	case "julia":
		for _, m := range gabJuliaMem.FindAllStringSubmatch(rec.extra, -1) {
			if m[1] == "memory" {
				add("B/op", "B/op", m[2])
			} else {
				add("allocs/op", "allocs/op", m[2])
			}
		}
	}
	return out
}

// gabJMHName splits a jmh record's name as the action writes it,
// "<benchmark> ( <params> )" with JMH's params object as JSON
// (extractJmhResult: JSON.stringify of an object of strings), into the
// benchmark and its params, so that a benchmark's cases are one
// benchmark's, as with format gobench's sub-benchmarks. A name of any
// other shape is the benchmark whole.
func gabJMHName(name string) (string, model.Params) {
	base, rest, ok := strings.Cut(name, " ( {")
	obj, ok2 := strings.CutSuffix(rest, "} )")
	if !ok || !ok2 || strings.TrimSpace(base) == "" {
		return name, nil
	}
	doc := []byte("{" + obj + "}")
	n, end, prob := readkit.ParseJSON("", doc, readkit.JSONOptions{})
	if prob != nil || end != len(doc) || n.Kind != readkit.Map || len(n.Fields) == 0 {
		return name, nil
	}
	m := make(map[string]string, len(n.Fields))
	for _, f := range n.Fields {
		if f.Val.Kind != readkit.String {
			return name, nil
		}
		m[f.Key] = f.Val.Text
	}
	return base, model.NewParams(m)
}

// gabCutUnit strips the " - unit" suffix of the go tool's per-metric
// records.
func gabCutUnit(name, unit string) (string, bool) {
	if unit == "" || strings.ContainsAny(unit, " \t") {
		return name, false
	}
	base, ok := strings.CutSuffix(name, " - "+unit)
	return base, ok && base != ""
}

// gabGoName splits a go benchmark name as the action writes it
// ("BenchmarkPut/size=64/sorted (example.com/kv)", GOMAXPROCS in extra)
// into the package, the benchmark and its params, as format gobench
// names them (see readGab). clash is a key that had to fall back to the
// positional form.
func gabGoName(name, extra string) (pkg, bench string, params model.Params, clash string) {
	if strings.HasSuffix(name, ")") {
		if i := strings.LastIndex(name, " ("); i > 0 {
			pkg = name[i+2 : len(name)-1]
			name = name[:i]
		}
	}
	parts := strings.Split(name, "/")
	bench = parts[0]
	if b := strings.TrimPrefix(bench, "Benchmark"); b != "" {
		bench = b
	}
	m := map[string]string{}
	if p := gabProcs.FindStringSubmatch(extra); p != nil {
		m["procs"] = p[1]
	}
	for i, p := range parts[1:] {
		pos := "sub" + strconv.Itoa(i+1)
		k, v, ok := strings.Cut(p, "=")
		if ok && k != "" {
			if _, taken := m[k]; !taken && !gabSubKey.MatchString(k) {
				m[k] = v
				continue
			}
			clash = k
		}
		m[pos] = p
	}
	return pkg, bench, model.NewParams(m), clash
}

// gabTimeExp is the power of ten of nanoseconds per unit of the time
// units the action's tools print.
var gabTimeExp = map[string]int{"ns": 0, "us": 3, "ms": 6, "s": 9}

// gabScale is v × 10^exp, computed in decimal from the literal when there
// is one, so that 157.61 MB/s is exactly 157610000 B/s.
func gabScale(v float64, lit string, exp int) float64 {
	if lit != "" && !strings.ContainsAny(lit, "eE") {
		if f, err := strconv.ParseFloat(lit+"e"+strconv.Itoa(exp), 64); err == nil {
			return f
		}
	}
	return v * math.Pow(10, float64(exp))
}

// gabMetric maps a unit to our metric and unit.
func gabMetric(unit string) (metric, u string) {
	t := unit
	for _, suffix := range []string{"/op", "/iter"} {
		if s, ok := strings.CutSuffix(t, suffix); ok {
			t = s
			break
		}
	}
	t = gabMicro.Replace(t)
	if _, ok := gabTimeExp[t]; ok {
		return "wall-time", t
	}
	for _, suffix := range []string{"/sec", "/second"} {
		if s, ok := strings.CutSuffix(unit, suffix); ok && s != "" {
			return "throughput", s + "/s"
		}
	}
	if model.IsRate(unit) {
		return "throughput", unit // "MB/s", JMH's "ops/ms"
	}
	if unit == "" {
		return "value", ""
	}
	return unit, unit
}

// add puts one value into its run: a new result, or one more sample.
func (g *gabReader) add(r *gabRun, suite, tool string, v gabValue) {
	if v.unit == "" {
		g.warnOnce("nounit", v.line, "benchmark %q has no unit; kept as metric %q", v.bench, v.metric)
	}
	ps := v.params.String()
	series := strings.Join([]string{suite, v.pkg, v.bench, ps, v.metric}, "\x00")
	if v.metric == "wall-time" || v.metric == "cpu-time" {
		if first, ok := g.units[series]; !ok {
			g.units[series] = v.unit
		} else if first != v.unit {
			v.value = gabScale(v.value, v.lit, gabTimeExp[v.unit]-gabTimeExp[first])
			if v.rng != "" && tool != "catch2" {
				v.rng += " " + v.unit // the range stays in the unit it was written in
			}
			v.unit = first
		}
	}
	if v.value < 0 && model.IsTimeOrSize(v.unit) {
		g.warn(v.line, "benchmark %q: value %v is negative for unit %q; skipped", v.bench, v.value, v.unit)
		return
	}
	dir := gabDirection(tool, v.metric)
	if dir == "" && tool == "" && v.metric != "wall-time" && v.metric != "throughput" {
		g.warnOnce("dir:"+v.unit, v.line, "unit %q does not say which way is better: lower is assumed (pass context %s=higher for customBiggerIsBetter)", v.unit, GabBetter)
	}
	key := v.bench + "\x00" + ps + "\x00" + v.metric
	if i, ok := r.index[key]; ok {
		res := &r.run.Results[i]
		res.Samples = append(res.Samples, v.value)
		// Each repetition's range, as the tool wrote it.
		if v.rng != "" && v.rng != res.Range && !strings.HasSuffix(res.Range, ", "+v.rng) {
			res.Range = strings.TrimPrefix(res.Range+", "+v.rng, ", ")
		}
		// A repetition (a re-run of the commit) adds its rounds to the
		// summary; a summary is kept only while every repetition has one.
		if res.Summary != nil && v.summary != nil {
			pooled := res.Summary.Pool(*v.summary)
			res.Summary = &pooled
		} else {
			res.Summary = nil
		}
		return
	}
	r.index[key] = len(r.run.Results)
	r.run.Results = append(r.run.Results, model.Result{
		Case:      model.TestCase{Benchmark: v.bench, Params: v.params},
		Metric:    v.metric,
		Unit:      v.unit,
		Samples:   []float64{v.value},
		Direction: dir,
		Summary:   v.summary,
		Range:     v.rng,
	})
}

// gabMeanExp is the power of ten of seconds per unit of the mean in
// pytest's extra: the action writes the mean in the largest of these
// units that keeps it at least 1 (getHumanReadableUnitValue).
var gabMeanExp = map[string]int{"nsec": -9, "usec": -6, "msec": -3, "sec": 0}

var (
	gabStdDev = regexp.MustCompile(`^\s*stddev:\s*(\S+)\s*$`)
	gabMean   = regexp.MustCompile(`(?m)^\s*mean:\s*(\S+)\s+(\S+)\s*$`)
	gabRounds = regexp.MustCompile(`(?m)^\s*rounds:\s*(\S+)\s*$`)
)

// summary reads the summary statistics of a pytest-shaped record (see
// readGab): mean and stddev in seconds, rounds as N. A record of another
// shape has none (nil, silently: its range is another tool's); a
// pytest-shaped record whose numbers are unusable (not finite, a negative
// stddev or mean, rounds not a positive integer) keeps its value and
// loses its summary, with a warning.
func (g *gabReader) summary(rec gabRecord) *model.SampleSummary {
	sd := gabStdDev.FindStringSubmatch(rec.rng)
	mean := gabMean.FindStringSubmatch(rec.extra)
	rounds := gabRounds.FindStringSubmatch(rec.extra)
	if sd == nil || mean == nil || rounds == nil {
		return nil
	}
	exp, ok := gabMeanExp[mean[2]]
	if !ok {
		return nil
	}
	bad := func(what, text string) *model.SampleSummary {
		line := rec.line
		if what == "stddev" {
			line = rec.rngLine
		}
		g.warn(line, "benchmark %q: %s %q is not usable; its summary statistics are ignored", rec.name, what, text)
		return nil
	}
	s, err := strconv.ParseFloat(sd[1], 64)
	if err != nil || math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return bad("stddev", sd[1])
	}
	m, err := strconv.ParseFloat(mean[1], 64)
	if err != nil || math.IsNaN(m) || math.IsInf(m, 0) || m < 0 {
		return bad("mean", mean[1])
	}
	n, err := strconv.Atoi(rounds[1])
	if err != nil || n < 1 {
		return bad("rounds", rounds[1])
	}
	return &model.SampleSummary{Mean: gabScale(m, mean[1], exp), StdDev: s, N: n}
}

// gabDirection is the direction a tool gives a metric (see readGab).
func gabDirection(tool, metric string) model.Direction {
	switch {
	case tool == "customBiggerIsBetter":
		return model.HigherIsBetter
	case tool == "customSmallerIsBetter":
		return model.LowerIsBetter
	case metric == "throughput":
		return ""
	case slices.Contains(gabHigherTools, tool):
		return model.HigherIsBetter
	case slices.Contains(gabLowerTools, tool):
		return model.LowerIsBetter
	}
	return ""
}

// gabText is a string or number field as text (the action coerces).
func gabText(n *readkit.Node) string {
	switch n.Kind {
	case readkit.String, readkit.Int, readkit.Float:
		return n.Text
	}
	return ""
}

// sniffGab accepts data.js (by its assignment), a data object whose first
// key is one the action writes first (lastUpdate, repoUrl, entries), and
// an array whose first element has name, unit and value with plain values.
func sniffGab(in Input) bool {
	data := bytes.TrimLeft(bytes.TrimPrefix(in.Data, utf8BOM), " \t\r\n")
	if bytes.HasPrefix(data, gabPrefix) {
		return true
	}
	root := sniffJSON(in.Name, data, sniffWindow)
	switch {
	case root == nil:
		return false
	case root.Kind == readkit.Map:
		for i, f := range root.Fields {
			if i == 4 {
				break
			}
			v := f.Val
			switch f.Key {
			case "lastUpdate":
				if !v.IsNumber() || math.IsInf(v.Float, 0) {
					return false
				}
			case "repoUrl":
				if v.Kind != readkit.String {
					return false
				}
			case "entries":
				return v.Kind == readkit.Map
			case "version":
				if !v.IsNumber() || v.Float != 2 {
					return false
				}
			case "runs":
				return v.Kind == readkit.List // the columnar layout
			default:
				return false
			}
		}
	case root.Kind == readkit.List && root.Len() > 0:
		first := root.Elem(0)
		if first.Kind != readkit.Map || first.Partial || len(first.Fields) > 15 {
			return false
		}
		have := map[string]bool{}
		for _, f := range first.Fields {
			if f.Val.Kind == readkit.Map || f.Val.Kind == readkit.List || f.Val.IsNumber() && math.IsInf(f.Val.Float, 0) {
				return false
			}
			have[f.Key] = true
		}
		return have["name"] && have["unit"] && have["value"]
	}
	return false
}
