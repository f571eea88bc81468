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
	"unicode/utf8"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/archive"
)

// bmfFormat reads the Bencher Metric Format (BMF, bencher.dev/bmf.json,
// reference/peers.md §3.2): a JSON object of benchmarks, each an object of
// measures, each a metric {value, lower_value?, upper_value?}:
//
//	{"parse/large": {"latency": {"value": 88.0, "lower_value": 87.4, "upper_value": 88.9}}}
//
// Mapping to the model:
//
//   - benchmark name → TestCase.Benchmark, no params. A name ending in
//     Bencher's ignore suffix ("-bencher-ignore", "_bencher_ignore",
//     "BencherIgnore": tracked, but alerts suppressed) loses the suffix and
//     becomes a secondary test case, our equivalent of "shown, does not
//     decide the verdict".
//   - measure → metric and unit, for the measures Bencher defines (by slug
//     or display name, see bmfMeasures): latency → wall-time in ns,
//     throughput → throughput in ops/s, build-time → s, file-size → B, the
//     iai/gungraun counters in their own units. Result.Direction stays empty:
//     the unit decides (ops/s is higher-is-better, everything else lower),
//     and [metrics] configuration can override it. A measure named like a
//     unit ("ms", "%", "MB") is in that unit, and the metric is named for
//     its quantity (wall-time, percent, size; see unitMetric). Any other
//     measure keeps its name as the metric, with no unit. Both get one
//     warning per file.
//   - value → the result's single sample. BMF holds one number per measure,
//     whatever the harness reported (often a mean or median); it is all the
//     file has. lower_value and upper_value are bounds (a CI, min/max,
//     ±σ), not samples: they are checked and otherwise ignored.
//   - BMF records no commit, date or host: artifact, machine and context
//     all come from Defaults.
var bmfFormat = Format{Name: "bmf", Read: readBMF, Sniff: sniffBMF}

func init() { register(bmfFormat) }

// bmfMeasure is how a Bencher built-in measure maps to our metric.
type bmfMeasure struct{ metric, unit string }

// bmfMeasures are Bencher's built-in measures (lib/bencher_json
// project/measure/built_in.rs), by slug and by display name, as Bencher
// itself recognises them. Bencher attaches no direction to a measure.
var bmfMeasures = func() map[string]bmfMeasure {
	m := map[string]bmfMeasure{}
	for _, d := range []struct{ slug, name, metric, unit string }{
		{"latency", "Latency", "wall-time", "ns"},
		{"throughput", "Throughput", "throughput", "ops/s"},
		{"build-time", "Build Time", "build-time", "s"},
		{"file-size", "File Size", "file-size", "B"},
		{"allocated", "Allocated", "allocated", "B"},
		{"gen0-collects", "Gen0 Collects", "gen0-collects", "collects"},
		{"gen1-collects", "Gen1 Collects", "gen1-collects", "collects"},
		{"gen2-collects", "Gen2 Collects", "gen2-collects", "collects"},
		{"instructions", "Instructions", "instructions", "instructions"},
		{"l1-accesses", "L1 Accesses", "l1-accesses", "accesses"},
		{"l2-accesses", "L2 Accesses", "l2-accesses", "accesses"},
		{"ram-accesses", "RAM Accesses", "ram-accesses", "accesses"},
		{"estimated-cycles", "Estimated Cycles", "estimated-cycles", "cycles"},
		{"l1-hits", "L1 Hits", "l1-hits", "hits"},
		{"l2-hits", "L2 Hits", "l2-hits", "hits"},
		{"ll-hits", "LL Hits", "ll-hits", "hits"},
		{"ram-hits", "RAM Hits", "ram-hits", "hits"},
		{"total-read-write", "Total read+write", "total-read-write", "reads/writes"},
		{"total-bytes", "Total bytes", "total-bytes", "B"},
	} {
		m[d.slug] = bmfMeasure{d.metric, d.unit}
		m[d.name] = bmfMeasure{d.metric, d.unit}
	}
	return m
}()

// bmfIgnoreSuffixes mark benchmarks whose alerts Bencher suppresses.
var bmfIgnoreSuffixes = []string{"-bencher-ignore", "_bencher_ignore", "BencherIgnore"}

func readBMF(in Input, def Defaults) ([]analysis.Run, []archive.Problem) {
	data := bytes.TrimPrefix(in.Data, utf8BOM)
	root, end, perr := ljParse(data, 1)
	if perr != nil {
		return nil, []archive.Problem{fatal(in.Name, perr.line, "%s", perr.msg)}
	}
	var probs []archive.Problem
	if l, ok := ljTrailing(data, end, 1, false); ok {
		probs = append(probs, problem(in.Name, l, "unexpected text after the JSON object; ignored"))
	}
	if root.kind != ljObject {
		return nil, append(probs, fatal(in.Name, root.line, "want a JSON object of benchmarks (Bencher Metric Format), found %s", root.kind))
	}
	if len(root.members) == 0 {
		return nil, append(probs, fatal(in.Name, root.line, "no benchmarks"))
	}
	run := analysis.Run{Artifact: def.Artifact, Machine: def.Machine, Context: def.Context}
	index := map[[2]string]int{} // (benchmark key, metric) → result
	firstBench := map[string]int{}
	warned := map[string]bool{}
	for _, b := range root.members {
		name, cat := bmfName(b.key)
		if strings.TrimSpace(name) == "" {
			probs = append(probs, problem(in.Name, b.line, "benchmark with an empty name; skipped"))
			continue
		}
		if l, dup := firstBench[b.key]; dup {
			probs = append(probs, problem(in.Name, b.line, "benchmark %q appears again (first at line %d); its measures are merged", b.key, l))
		} else {
			firstBench[b.key] = b.line
		}
		if b.val.kind != ljObject {
			probs = append(probs, problem(in.Name, b.val.line, "benchmark %q: want an object of measures, found %s; skipped", b.key, b.val.kind))
			continue
		}
		if len(b.val.members) == 0 {
			probs = append(probs, problem(in.Name, b.val.line, "benchmark %q has no measures; skipped", b.key))
			continue
		}
		seen := map[string]int{}
		for _, m := range b.val.members {
			if strings.TrimSpace(m.key) == "" {
				probs = append(probs, problem(in.Name, m.line, "benchmark %q: measure with an empty name; skipped", b.key))
				continue
			}
			meas, known := bmfMeasures[m.key]
			if q, unit := unitMetric(m.key); !known && unit {
				// A measure named like a unit ("ms", "%") measures in it.
				meas = bmfMeasure{metric: q, unit: gabMicro.Replace(strings.TrimSpace(m.key))}
				if !warned[m.key] {
					warned[m.key] = true
					probs = append(probs, problem(in.Name, m.line, "measure %q is a unit, not a Bencher built-in measure: kept as metric %q in %s", m.key, meas.metric, meas.unit))
				}
			} else if !known {
				meas = bmfMeasure{metric: m.key}
				if !warned[m.key] {
					warned[m.key] = true
					probs = append(probs, problem(in.Name, m.line, "measure %q is not a Bencher built-in measure: kept as metric %q with no unit (lower is better unless [metrics.%q] says otherwise)", m.key, m.key, m.key))
				}
			}
			v, ok, mp := bmfMetric(in.Name, b.key, m, meas.unit)
			probs = append(probs, mp...)
			if !ok {
				continue
			}
			if l, dup := seen[meas.metric]; dup {
				probs = append(probs, problem(in.Name, m.line, "benchmark %q: measure %q repeats metric %s (first at line %d); both values kept as samples", b.key, m.key, meas.metric, l))
			} else {
				seen[meas.metric] = m.line
			}
			k := [2]string{b.key, meas.metric}
			if i, ok := index[k]; ok {
				run.Results[i].Samples = append(run.Results[i].Samples, v)
				continue
			}
			index[k] = len(run.Results)
			run.Results = append(run.Results, analysis.Result{
				Case:    analysis.TestCase{Benchmark: name, Category: cat},
				Metric:  meas.metric,
				Unit:    meas.unit,
				Samples: []float64{v},
			})
		}
	}
	if len(run.Results) == 0 {
		return nil, append(probs, fatal(in.Name, 0, "no usable benchmark results"))
	}
	return []analysis.Run{run}, probs
}

// bmfName strips Bencher's ignore suffix: such a benchmark is secondary.
func bmfName(key string) (string, analysis.Category) {
	for _, s := range bmfIgnoreSuffixes {
		if name, ok := strings.CutSuffix(key, s); ok {
			return name, analysis.Secondary
		}
	}
	return key, ""
}

// bmfMetric checks one measure's metric object and returns its value.
func bmfMetric(file, bench string, m ljMember, unit string) (float64, bool, []archive.Problem) {
	var probs []archive.Problem
	if m.val.kind != ljObject {
		return 0, false, []archive.Problem{problem(file, m.val.line, "benchmark %q, measure %q: want an object with a value, found %s; skipped", bench, m.key, m.val.kind)}
	}
	var value, lower, upper *ljNode
	for _, f := range m.val.members {
		switch f.key {
		case "value":
			value = f.val
		case "lower_value":
			lower = f.val
		case "upper_value":
			upper = f.val
		default:
			probs = append(probs, problem(file, f.line, "benchmark %q, measure %q: unknown field %q ignored", bench, m.key, f.key))
		}
	}
	if value == nil {
		return 0, false, append(probs, problem(file, m.val.line, "benchmark %q, measure %q: no value; skipped", bench, m.key))
	}
	v, msg := ljFinite(value)
	if msg == "" && v < 0 && analysis.IsTimeOrSize(unit) {
		msg = fmt.Sprintf("is negative (%v) for unit %q", v, unit)
	}
	if msg != "" {
		return 0, false, append(probs, problem(file, value.line, "benchmark %q, measure %q: value %s; skipped", bench, m.key, msg))
	}
	for _, bound := range []struct {
		name  string
		n     *ljNode
		wrong func(b float64) bool
		side  string
	}{
		{"lower_value", lower, func(b float64) bool { return b > v }, "above"},
		{"upper_value", upper, func(b float64) bool { return b < v }, "below"},
	} {
		if bound.n == nil || bound.n.kind == ljNull {
			continue
		}
		b, msg := ljFinite(bound.n)
		switch {
		case msg != "":
			probs = append(probs, problem(file, bound.n.line, "benchmark %q, measure %q: %s %s; ignored", bench, m.key, bound.name, msg))
		case bound.wrong(b):
			probs = append(probs, problem(file, bound.n.line, "benchmark %q, measure %q: %s %v is %s the value %v", bench, m.key, bound.name, b, bound.side, v))
		}
	}
	return v, true, probs
}

// sniffBMF looks at the first measure of the first benchmark only: an
// object of objects of objects whose keys are value, lower_value and
// upper_value, with numbers. Criterion's estimates.json (objects of
// objects without "value"), Google Benchmark's and pytest-benchmark's
// context objects (strings inside) and github-action-benchmark's data
// (a number first) all fail it.
func sniffBMF(in Input) bool {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(in.Data, utf8BOM)))
	for range 2 {
		if !ljDelim(dec, '{') {
			return false
		}
		if _, ok := ljKey(dec); !ok {
			return false
		}
	}
	if !ljDelim(dec, '{') {
		return false
	}
	value := false
	for range 4 {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if tok == json.Delim('}') {
			return value
		}
		switch tok {
		case "value":
			value = true
		case "lower_value", "upper_value":
		default:
			return false
		}
		if v, err := dec.Token(); err != nil {
			return false
		} else if _, ok := v.(float64); !ok {
			return false
		}
	}
	return false
}

var utf8BOM = []byte("\xef\xbb\xbf")

// A line-tracked JSON tree, shared by bmf and gab, which report problems
// by line. Each node remembers the line it starts on, and each object
// member the line of its key. Object members keep their file order and
// their duplicates, which encoding/json would hide.

type ljKind uint8

const (
	ljNull ljKind = iota
	ljBool
	ljNumber
	ljString
	ljArray
	ljObject
)

func (k ljKind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

type ljNode struct {
	kind    ljKind
	line    int
	str     string  // ljString: the value; ljNumber: the literal
	num     float64 // ljNumber; ±Inf when out of range
	b       bool    // ljBool
	members []ljMember
	elems   []*ljNode
}

type ljMember struct {
	key  string
	line int
	val  *ljNode
}

// get returns the value of the first member called key, or nil.
func (n *ljNode) get(key string) *ljNode {
	if n == nil || n.kind != ljObject {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// ljMaxDepth bounds nesting; no format read here nests more than 6 deep.
const ljMaxDepth = 1000

type ljError struct {
	line int
	msg  string
}

// ljParser is a recursive-descent JSON parser that counts lines as it
// goes; encoding/json's Decoder.Token gives the same lines several times
// slower, which matters for data.js files of tens of megabytes. On a
// syntax error it defers to encoding/json, so validity and messages are
// the standard library's (the fuzz tests compare the two).
type ljParser struct {
	s         []byte
	i         int
	line      int
	firstLine int
	bad       *ljError
	slab      []ljNode
}

// ljParse parses the first JSON value of data, whose first byte is on line
// firstLine, and returns it with the offset just past it.
func ljParse(data []byte, firstLine int) (*ljNode, int64, *ljError) {
	p := &ljParser{s: data, line: firstLine, firstLine: firstLine}
	p.space()
	if p.i == len(p.s) {
		return nil, 0, &ljError{firstLine, "empty file"}
	}
	n := p.value(0)
	if p.bad != nil {
		return nil, 0, p.report()
	}
	return n, int64(p.i), nil
}

// report turns the first syntax error into encoding/json's message at
// the line of its offset.
func (p *ljParser) report() *ljError {
	var v json.RawMessage
	err := json.NewDecoder(bytes.NewReader(p.s)).Decode(&v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off := min(max(se.Offset, 0), int64(len(p.s)))
		if off > 0 && p.s[off-1] == '\n' {
			off-- // the error is on the line the newline ends
		}
		return &ljError{p.firstLine + bytes.Count(p.s[:off], []byte("\n")), "syntax error: " + se.Error()}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &ljError{p.firstLine + bytes.Count(p.s, []byte("\n")), "syntax error: unexpected end of JSON input (truncated file?)"}
	}
	return p.bad
}

func (p *ljParser) fail(msg string) *ljNode {
	if p.bad == nil {
		p.bad = &ljError{p.line, "syntax error: " + msg}
	}
	return nil
}

func (p *ljParser) node(k ljKind) *ljNode {
	if len(p.slab) == 0 {
		p.slab = make([]ljNode, 256)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.kind, n.line = k, p.line
	return n
}

func (p *ljParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\n':
			p.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		p.i++
	}
}

func (p *ljParser) value(depth int) *ljNode {
	if depth > ljMaxDepth {
		if p.bad == nil {
			p.bad = &ljError{p.line, fmt.Sprintf("nested more than %d levels deep", ljMaxDepth)}
		}
		return nil
	}
	if p.i >= len(p.s) {
		return p.fail("unexpected end of JSON input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		n := p.node(ljString)
		s, ok := p.str()
		if !ok {
			return nil
		}
		n.str = s
		return n
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	case c == 't', c == 'f', c == 'n':
		for _, lit := range []struct {
			word string
			kind ljKind
		}{{"true", ljBool}, {"false", ljBool}, {"null", ljNull}} {
			if bytes.HasPrefix(p.s[p.i:], []byte(lit.word)) {
				n := p.node(lit.kind)
				n.b = lit.word == "true"
				p.i += len(lit.word)
				return n
			}
		}
	}
	return p.fail("invalid character looking for beginning of value")
}

func (p *ljParser) object(depth int) *ljNode {
	n := p.node(ljObject)
	p.i++ // {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return p.fail("want an object key")
		}
		line := p.line
		key, ok := p.str()
		if !ok {
			return nil
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return p.fail("want ':' after an object key")
		}
		p.i++
		p.space()
		v := p.value(depth + 1)
		if v == nil {
			return nil
		}
		n.members = append(n.members, ljMember{key: key, line: line, val: v})
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return n
		}
		return p.fail("want ',' or '}' after an object member")
	}
}

func (p *ljParser) array(depth int) *ljNode {
	n := p.node(ljArray)
	p.i++ // [
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n
	}
	for {
		v := p.value(depth + 1)
		if v == nil {
			return nil
		}
		n.elems = append(n.elems, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return n
		}
		return p.fail("want ',' or ']' after an array element")
	}
}

// str reads a string; strings without escapes (nearly all) are sliced,
// the others decoded by encoding/json.
func (p *ljParser) str() (string, bool) {
	start := p.i
	p.i++ // "
	plain := true
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '"':
			p.i++
			raw := p.s[start:p.i]
			if !utf8.Valid(raw) {
				plain = false
			} else if plain {
				return string(raw[1 : len(raw)-1]), true
			} else if s, ok := ljUnescape(raw[1 : len(raw)-1]); ok {
				return s, true
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				p.fail("invalid string")
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			p.i += 2
			continue
		case c < 0x20:
			p.fail("invalid character in string literal")
			return "", false
		}
		p.i++
	}
	p.fail("unexpected end of JSON input")
	return "", false
}

// ljUnescape decodes the escapes of a valid UTF-8 string body; it leaves
// anything unusual (a lone surrogate, a bad escape) to encoding/json.
func ljUnescape(b []byte) (string, bool) {
	var out strings.Builder
	out.Grow(len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			out.WriteByte(c)
			continue
		}
		if i+1 >= len(b) {
			return "", false
		}
		i++
		switch b[i] {
		case '"', '\\', '/':
			out.WriteByte(b[i])
		case 'n':
			out.WriteByte('\n')
		case 't':
			out.WriteByte('\t')
		case 'r':
			out.WriteByte('\r')
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'u':
			if i+4 >= len(b) {
				return "", false
			}
			r, err := strconv.ParseUint(string(b[i+1:i+5]), 16, 32)
			if err != nil || 0xd800 <= r && r < 0xe000 {
				return "", false
			}
			out.WriteRune(rune(r))
			i += 4
		default:
			return "", false
		}
	}
	return out.String(), true
}

// number reads a number as JSON's grammar has it.
func (p *ljParser) number() *ljNode {
	start := p.i
	digits := func() int {
		k := 0
		for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
			p.i++
			k++
		}
		return k
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return p.fail("invalid number")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return p.fail("invalid number")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return p.fail("invalid number")
		}
	}
	n := p.node(ljNumber)
	n.str = string(p.s[start:p.i])
	n.num, _ = strconv.ParseFloat(n.str, 64) // ±Inf when out of range
	return n
}

// ljTrailing reports the line of any text after the value that ends at
// end, other than space and, when semicolon is set, one ';' (data.js).
func ljTrailing(data []byte, end int64, firstLine int, semicolon bool) (int, bool) {
	rest := data[min(max(end, 0), int64(len(data))):]
	trimmed := bytes.TrimLeft(rest, " \t\r\n")
	if semicolon {
		if t, ok := bytes.CutPrefix(trimmed, []byte(";")); ok {
			trimmed = bytes.TrimLeft(t, " \t\r\n")
		}
	}
	if len(trimmed) == 0 {
		return 0, false
	}
	at := len(data) - len(trimmed)
	return firstLine + bytes.Count(data[:at], []byte("\n")), true
}

// ljFinite is the finite number n holds; msg says what is wrong otherwise.
func ljFinite(n *ljNode) (float64, string) {
	if n.kind != ljNumber {
		return 0, "must be a number, found " + n.kind.String()
	}
	if math.IsInf(n.num, 0) {
		return 0, fmt.Sprintf("%s is out of range", n.str)
	}
	return n.num, ""
}

// ljDelim reads the next token and reports whether it is d.
func ljDelim(dec *json.Decoder, d json.Delim) bool {
	tok, err := dec.Token()
	return err == nil && tok == d
}

// ljKey reads an object key.
func ljKey(dec *json.Decoder) (string, bool) {
	tok, err := dec.Token()
	if err != nil {
		return "", false
	}
	s, ok := tok.(string)
	return s, ok
}
