package foreign

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/archive"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// hyperfine reads the JSON that `hyperfine --export-json f` writes
// (hyperfine's src/export/json.rs):
//
//	{"results": [{"command", "mean", "stddev", "median", "user", "system",
//	              "min", "max", "times": […], "memory_usage_byte": […],
//	              "exit_codes": […], "parameters": {name: value}}]}
//
// Each element of "results" is one command (one per parameter value with
// -P/-L) and becomes these results, all in seconds unless said otherwise:
//
//   - wall-time: the "times" array, one sample per timed run (warm-up runs
//     are not in it). Files from hyperfine versions without "times" hold
//     only aggregates; then the "mean" is the one sample, with a warning.
//   - user-time and system-time: "user" and "system". hyperfine exports only
//     their means over the runs, so each is a single sample.
//   - max-rss (unit "B"): "memory_usage_byte", one sample per run, which
//     newer hyperfine versions record as the runs' maximum resident set size.
//
// The benchmark name is the command (or its -n name). With parameters,
// hyperfine has already put their values into it ("sleep 0.01" for n=1),
// so the reader puts the placeholders back ("sleep 0.0{n}") and the values
// become the test case's params: one benchmark with one series per value
// (hyperfineNames says how coincidences are resolved). A command that
// repeats an earlier one with the same parameters is skipped with a
// warning rather than merged, so that one result never mixes two batches.
//
// "exit_codes" says how the runs ended (null: killed by a signal); a
// failing run is only kept by `hyperfine -i`. When some runs failed the
// samples are kept and a warning says how many failed; when every run
// failed the command's results carry Error and no samples, as a failed
// benchmark (shown, excluded from the statistics).
//
// The file records no commit, date or machine: the run's artifact, machine
// and context come from Defaults. The statistics hyperfine derives (stddev,
// median, min, max) are recomputed from the samples and so not read;
// fields this reader does not know are ignored, as newer hyperfine
// versions add some.
var hyperfineFormat = Format{Name: "hyperfine", Read: readHyperfine, Sniff: sniffHyperfine}

func init() { register(hyperfineFormat) }

// hyperfineSniffLimit bounds how much of a file Sniff looks at: the keys
// it needs open the file.
const hyperfineSniffLimit = 64 << 10

// sniffHyperfine accepts a JSON object whose "results" array starts with
// an object holding a string "command" and one of hyperfine's measurement
// keys. It parses the file's beginning only.
func sniffHyperfine(in Input) bool {
	root := sniffJSON(in.Name, bytes.TrimPrefix(in.Data, []byte("\xef\xbb\xbf")), hyperfineSniffLimit)
	if root == nil || root.Kind != readkit.Map {
		return false
	}
	for _, f := range root.Fields {
		if f.Key != "results" {
			if f.Val.Partial {
				return false
			}
			continue
		}
		if f.Val.Kind != readkit.List || f.Val.Len() == 0 || f.Val.Elem(0).Kind != readkit.Map {
			return false
		}
		command, measured := false, false
		for _, m := range f.Val.Elem(0).Fields {
			if m.Val.Partial {
				break
			}
			switch m.Key {
			case "command":
				command = m.Val.Kind == readkit.String
			case "times", "mean", "exit_codes":
				measured = true
			}
			if command && measured {
				break
			}
		}
		return command && measured
	}
	return false
}

// hyperfineFile is the file being read.
type hyperfineFile struct {
	name string
	data []byte
}

func (f *hyperfineFile) problem(n *readkit.Node, format string, args ...any) archive.Problem {
	return problem(f.name, n.Line, format, args...)
}

// short quotes at most 40 bytes of a value, as the file has it, for a
// message.
func (f *hyperfineFile) short(n *readkit.Node) string {
	return hyperfineShort(readkit.Source(f.data, n))
}

func hyperfineShort(s string) string {
	if len(s) <= 40 {
		return s
	}
	i := 40
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// hyperfineEntry is one usable element of "results".
type hyperfineEntry struct {
	line    int // where the element starts
	what    string
	command string
	params  model.Params
	results []model.Result // with Case.Benchmark still unset
}

func readHyperfine(in Input, def Defaults) (_ []model.Run, problems []archive.Problem) {
	data := bytes.TrimPrefix(in.Data, []byte("\xef\xbb\xbf"))
	f := &hyperfineFile{name: in.Name, data: data}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, []archive.Problem{fatal(f.name, 0, "the file is empty")}
	}
	var probs []archive.Problem
	dropped := 0
	defer func() { problems = withDropped(problems, f.name, dropped) }()
	elems, seen, p := hyperfineElements(f, &probs)
	if p != nil {
		if len(elems) == 0 {
			p.Fatal = true
			return nil, append(probs, *p)
		}
		p.Msg += fmt.Sprintf(" (the %d results before it are kept)", len(elems))
		probs = append(probs, *p)
	}
	if !seen {
		return nil, append(probs, fatal(f.name, 0, "no \"results\" array: not a hyperfine --export-json file"))
	}
	if len(elems) == 0 && p == nil {
		return nil, append(probs, fatal(f.name, 0, "the \"results\" array is empty: hyperfine benchmarked no command"))
	}

	var entries []hyperfineEntry
	for i, el := range elems {
		e, ps := hyperfineDecode(f, i, el)
		probs = keep(probs, &dropped, ps...)
		if e != nil {
			entries = append(entries, *e)
		}
	}
	names := hyperfineNames(entries)

	run := model.Run{Artifact: def.Artifact, Machine: def.Machine, Context: def.Context}
	firstAt := map[string]int{}
	for i, e := range entries {
		tc := model.TestCase{Benchmark: names[i], Params: e.params}
		key := tc.String()
		if at, dup := firstAt[key]; dup {
			probs = keep(probs, &dropped, problem(f.name, e.line, "%s: %q is a duplicate of the command at line %d; skipped (its runs would mix with the first one's)",
				e.what, key, at))
			continue
		}
		firstAt[key] = e.line
		for _, r := range e.results {
			r.Case = tc
			run.Results = append(run.Results, r)
		}
	}
	if len(run.Results) == 0 {
		return nil, append(probs, fatal(f.name, 0, "none of the %d results is usable", len(elems)))
	}
	return []model.Run{run}, probs
}

// hyperfineElements reads the file into the elements of its "results"
// array. It returns the elements read before any syntax error, whether a
// "results" array was found, and what is wrong with the file. A second
// "results" array is ignored with a problem.
func hyperfineElements(f *hyperfineFile, probs *[]archive.Problem) ([]*readkit.Node, bool, *archive.Problem) {
	root, end, perr := parseJSON(f.name, f.data, readkit.JSONOptions{Trailing: true, Duplicates: true, Partial: true})
	var syntax *archive.Problem
	if perr != nil {
		se, line, ok := jsonSyntax(perr, f.data)
		switch {
		case !ok:
			syntax = perr
		case se.Truncated:
			syntax = &archive.Problem{File: f.name, Line: line, Msg: "truncated JSON: the file ends in the middle of a value"}
		default:
			syntax = &archive.Problem{File: f.name, Line: line, Msg: "invalid JSON: " + se.Msg}
		}
		if root == nil {
			return nil, false, syntax
		}
	}
	if root.Kind != readkit.Map {
		return nil, false, &archive.Problem{File: f.name, Line: 1, Msg: "the file is not a JSON object"}
	}
	var elems []*readkit.Node
	seen := false
	for _, m := range root.Fields {
		if m.Key == "results" && seen {
			*probs = append(*probs, f.problem(m.Val, "a second \"results\" array; ignored (the first one is read)"))
		}
		if m.Key != "results" || seen {
			continue
		}
		seen = true
		if m.Val.Kind != readkit.List {
			return nil, false, &archive.Problem{File: f.name, Line: m.Val.Line, Msg: "\"results\" is not an array"}
		}
		for _, el := range m.Val.Elems() {
			if !el.Partial {
				elems = append(elems, el)
			}
		}
	}
	if syntax != nil {
		return elems, seen, syntax
	}
	if l, ok := trailing(f.data, end, false); ok {
		return elems, seen, &archive.Problem{File: f.name, Line: l, Msg: "unexpected data after the JSON object"}
	}
	return elems, seen, nil
}

// hyperfineObject returns the members of an object (a repeated key keeps
// its last value, as encoding/json does); ok is false when n is not an
// object.
func hyperfineObject(n *readkit.Node) (map[string]*readkit.Node, bool) {
	if n.Kind != readkit.Map {
		return nil, false
	}
	m := make(map[string]*readkit.Node, len(n.Fields))
	for _, fd := range n.Fields {
		m[fd.Key] = fd.Val
	}
	return m, true
}

// hyperfineNumbers decodes an array of numbers. Elements that are not
// finite non-negative numbers are left out and named in bad.
func (f *hyperfineFile) numbers(n *readkit.Node) (xs []float64, bad []string, ok bool) {
	if n.Kind != readkit.List {
		return nil, nil, false
	}
	var texts []string
	for i := range n.Len() {
		var x float64
		if i < len(n.Nums) {
			x, ok = n.Nums[i].Float(), true // a list of numbers only
		} else {
			x, ok = hyperfineNumber(n.Items[i])
		}
		if !ok || x < 0 {
			if texts == nil {
				texts = readkit.ElemSources(f.data, n)
			}
			bad = append(bad, fmt.Sprintf("[%d] = %s", i, hyperfineShort(texts[i])))
			continue
		}
		xs = append(xs, x)
	}
	return xs, bad, true
}

// hyperfineNumber decodes a JSON number; null and numbers out of the
// float64 range are not numbers.
func hyperfineNumber(n *readkit.Node) (float64, bool) {
	if n == nil || !n.IsNumber() || math.IsInf(n.Float, 0) {
		return 0, false
	}
	return n.Float, true
}

// hyperfineDecode reads element i of "results" into an entry; nil when
// the element cannot be used (the problems say why).
func hyperfineDecode(f *hyperfineFile, i int, el *readkit.Node) (*hyperfineEntry, []archive.Problem) {
	var probs []archive.Problem
	what := fmt.Sprintf("results[%d]", i)
	m, ok := hyperfineObject(el)
	if !ok {
		return nil, []archive.Problem{f.problem(el, "%s is %s, not an object; skipped", what, f.short(el))}
	}
	cmd, ok := m["command"]
	if !ok {
		return nil, []archive.Problem{f.problem(el, "%s has no \"command\"; skipped", what)}
	}
	e := &hyperfineEntry{line: el.Line}
	if e.command = cmd.Str(); e.command == "" {
		return nil, []archive.Problem{f.problem(cmd, "%s: \"command\" is %s, not a non-empty string; skipped", what, f.short(cmd))}
	}
	e.what = fmt.Sprintf("%s (%q)", what, e.command)
	what = e.what

	if p, ok := m["parameters"]; ok && p.Kind != readkit.Null {
		raw, ok := hyperfineObject(p)
		if !ok {
			return nil, []archive.Problem{f.problem(p, "%s: \"parameters\" is %s, not an object; skipped", what, f.short(p))}
		}
		params := make(map[string]string, len(raw))
		for _, fd := range p.Fields {
			k, v := fd.Key, fd.Val
			if raw[k] != v {
				continue // repeated: the last one counts
			}
			var s string
			switch {
			case v.Kind == readkit.String, v.Kind == readkit.Null:
				s = v.Text
			case v.IsNumber():
				s = readkit.Source(f.data, v) // a number written by hand: keep its text
			default:
				return nil, []archive.Problem{f.problem(p, "%s: parameter %q is %s, not a string; skipped", what, k, f.short(v))}
			}
			params[k] = s
		}
		e.params = model.NewParams(params)
	}

	// Error is set when every run failed.
	var runErr string
	if x, ok := m["exit_codes"]; ok {
		var codes []*int
		if readkit.Decode(x, &codes) != nil {
			probs = append(probs, f.problem(x, "%s: \"exit_codes\" is %s, not an array of integers; ignored", what, f.short(x)))
		} else if failed, how := hyperfineFailures(codes); failed == len(codes) && failed > 0 {
			runErr = fmt.Sprintf("all %d runs failed (%s)", failed, how)
		} else if failed > 0 {
			probs = append(probs, f.problem(x, "%s: %d of %d runs failed (%s); their times are kept", what, failed, len(codes), how))
		}
	}

	add := func(metric, unit string, samples []float64) {
		r := model.Result{Metric: metric, Unit: unit, Samples: samples}
		if runErr != "" {
			r.Samples, r.Error = nil, runErr
		}
		e.results = append(e.results, r)
	}

	if t, ok := m["times"]; ok {
		xs, bad, ok := f.numbers(t)
		switch {
		case !ok:
			return nil, append(probs, f.problem(t, "%s: \"times\" is %s, not an array of numbers; skipped", what, f.short(t)))
		case len(bad) > 0:
			probs = append(probs, f.problem(t, "%s: \"times\" has values that are not durations in seconds, left out: %s", what, strings.Join(bad, ", ")))
		}
		if len(xs) == 0 {
			return nil, append(probs, f.problem(t, "%s: \"times\" holds no run; skipped", what))
		}
		add("wall-time", "s", xs)
	} else {
		mean, ok := m["mean"]
		x, isNum := hyperfineNumber(mean)
		if !ok || !isNum || x < 0 {
			return nil, append(probs, f.problem(el, "%s has neither \"times\" nor a \"mean\" duration; skipped", what))
		}
		probs = append(probs, f.problem(mean, "%s has no \"times\" (hyperfine before 1.2?); its mean is the only wall-time sample", what))
		add("wall-time", "s", []float64{x})
	}

	for _, k := range []struct{ key, metric string }{{"user", "user-time"}, {"system", "system-time"}} {
		v, ok := m[k.key]
		if !ok {
			continue
		}
		x, isNum := hyperfineNumber(v)
		if !isNum || x < 0 {
			probs = append(probs, f.problem(v, "%s: %q is %s, not a duration in seconds; %s left out", what, k.key, f.short(v), k.metric))
			continue
		}
		add(k.metric, "s", []float64{x})
	}

	if v, ok := m["memory_usage_byte"]; ok && v.Kind != readkit.Null {
		xs, bad, ok := f.numbers(v)
		switch {
		case !ok:
			probs = append(probs, f.problem(v, "%s: \"memory_usage_byte\" is %s, not an array of numbers; max-rss left out", what, f.short(v)))
		case len(bad) > 0:
			probs = append(probs, f.problem(v, "%s: \"memory_usage_byte\" has values that are not byte counts, left out: %s", what, strings.Join(bad, ", ")))
		}
		if len(xs) > 0 {
			add("max-rss", "B", xs)
		}
	}
	return e, probs
}

// hyperfineFailures counts the failed runs and describes how they failed:
// "exit code 3", "exit codes 1, 2 and a signal".
func hyperfineFailures(codes []*int) (int, string) {
	failed, signal := 0, false
	var nonzero []int
	for _, c := range codes {
		switch {
		case c == nil:
			failed++
			signal = true
		case *c != 0:
			failed++
			if !slices.Contains(nonzero, *c) {
				nonzero = append(nonzero, *c)
			}
		}
	}
	slices.Sort(nonzero)
	var parts []string
	if len(nonzero) > 0 {
		s := make([]string, len(nonzero))
		for i, c := range nonzero {
			s[i] = strconv.Itoa(c)
		}
		word := "exit code "
		if len(nonzero) > 1 {
			word = "exit codes "
		}
		parts = append(parts, word+strings.Join(s, ", "))
	}
	if signal {
		parts = append(parts, "killed by a signal")
	}
	return failed, strings.Join(parts, "; ")
}

// hyperfineNames gives each entry its benchmark name: the command with its
// parameter values turned back into {name} placeholders. hyperfine does
// not export the template, and a value may also occur in the command by
// coincidence ("a" in "cp a a.bak"), so the reader tries templates: every
// choice of which occurrences to replace in the first command of each set
// of parameter names (up to hyperfineMaxChoices occurrences), and for the
// other commands the one replacing them all. Each command gets the
// template that reproduces it and the most other commands of its set, then
// the one with the most placeholders, then the first tried.
func hyperfineNames(entries []hyperfineEntry) []string {
	names := make([]string, len(entries))
	groups := map[string][]int{}
	var order []string
	for i, e := range entries {
		if len(e.params) == 0 {
			names[i] = e.command
			continue
		}
		keys := make([]string, len(e.params))
		for j, p := range e.params {
			keys[j] = p.Key
		}
		g := strings.Join(keys, "\x00")
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], i)
	}
	type candidate struct {
		template string
		holes    int
		fits     []bool
		score    int
	}
	for _, g := range order {
		members := groups[g]
		var cands []*candidate
		seen := map[string]bool{}
		try := func(t string, holes int) {
			if !seen[t] {
				seen[t] = true
				cands = append(cands, &candidate{template: t, holes: holes})
			}
		}
		for n, i := range members {
			ms := hyperfineMatches(entries[i].command, entries[i].params)
			all := uint64(1)<<len(ms) - 1
			if n == 0 && len(ms) <= hyperfineMaxChoices {
				for mask := all; ; mask-- {
					try(hyperfineApply(entries[i].command, ms, mask), bits.OnesCount64(mask))
					if mask == 0 {
						break
					}
				}
			} else {
				try(hyperfineApply(entries[i].command, ms, all), len(ms))
			}
		}
		for _, c := range cands {
			c.fits = make([]bool, len(members))
			for j, i := range members {
				if hyperfineInstantiate(c.template, entries[i].params) == entries[i].command {
					c.fits[j] = true
					c.score++
				}
			}
		}
		slices.SortStableFunc(cands, func(a, b *candidate) int {
			if a.score != b.score {
				return b.score - a.score
			}
			return b.holes - a.holes
		})
		for j, i := range members {
			for _, c := range cands {
				if c.fits[j] {
					names[i] = c.template
					break
				}
			}
		}
	}
	return names
}

// hyperfineMaxChoices bounds the occurrences of parameter values in one
// command whose every choice is tried (2^n templates).
const hyperfineMaxChoices = 10

// hyperfineMatch is an occurrence of parameter key's value at cmd[at:end].
type hyperfineMatch struct {
	at, end int
	key     string
}

// hyperfineMatches finds the occurrences of parameter values in cmd, left
// to right without overlaps, the longer value first where several start.
func hyperfineMatches(cmd string, params model.Params) []hyperfineMatch {
	ps := slices.Clone(params)
	slices.SortStableFunc(ps, func(a, b model.Param) int { return len(b.Value) - len(a.Value) })
	var ms []hyperfineMatch
	for i := 0; i < len(cmd); {
		matched := false
		for _, p := range ps {
			if p.Value != "" && strings.HasPrefix(cmd[i:], p.Value) {
				ms = append(ms, hyperfineMatch{i, i + len(p.Value), p.Key})
				i += len(p.Value)
				matched = true
				break
			}
		}
		if !matched {
			i++
		}
	}
	return ms
}

// hyperfineApply replaces the occurrences chosen by mask (bit i for ms[i])
// by "{key}".
func hyperfineApply(cmd string, ms []hyperfineMatch, mask uint64) string {
	var b strings.Builder
	last := 0
	for i, m := range ms {
		if mask&(1<<i) == 0 {
			continue
		}
		b.WriteString(cmd[last:m.at])
		b.WriteString("{" + m.key + "}")
		last = m.end
	}
	b.WriteString(cmd[last:])
	return b.String()
}

// hyperfineInstantiate is what hyperfine does to a command template: each
// "{name}" becomes the parameter's value.
func hyperfineInstantiate(t string, params model.Params) string {
	var b strings.Builder
	for i := 0; i < len(t); {
		matched := false
		if t[i] == '{' {
			for _, p := range params {
				if strings.HasPrefix(t[i:], "{"+p.Key+"}") {
					b.WriteString(p.Value)
					i += len(p.Key) + 2
					matched = true
					break
				}
			}
		}
		if !matched {
			b.WriteByte(t[i])
			i++
		}
	}
	return b.String()
}
