package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/perfpages/perfpages/generator/internal/capped"
)

// jsonParser is a small recursive-descent JSON parser that builds a tree
// and counts lines as it goes. encoding/json's Token API gives the same
// lines but is several times slower; on a syntax error the parser defers to
// encoding/json, so messages and validity are exactly the standard
// library's (FuzzDecodeJSON checks that the two agree).
type jsonParser struct {
	d     *decoder
	s     []byte
	i     int
	line  int
	depth int
	path  pathBuilder
	// bad is set at the first syntax error; parsing then unwinds.
	bad     bool
	badLine int
	badMsg  string
	// dupLine and dupMsg hold the first duplicate key, reported if there
	// is no syntax error.
	dupLine int
	dupMsg  string
	slab    []node // nodes are allocated in blocks: a 5,000-result file has ~100,000
	// items and fields collect the children of the open lists and objects,
	// so that each gets one exactly-sized slice.
	items  []*node
	nums   []numItem
	fields []field
	// values counts the values built, against d.limits.Values; capped is
	// set when a parse cap stops the parse (badLine and badMsg say which).
	values int
	capped bool
}

func (d *decoder) parseJSON(data []byte) *node {
	p := &jsonParser{d: d, s: data, line: 1}
	p.space()
	if p.i == len(p.s) {
		d.fail(0, "empty document")
		return nil
	}
	root := p.value()
	if root != nil {
		p.space()
		if p.i < len(p.s) {
			p.syntax("invalid character after top-level value")
		}
	}
	if p.capped && json.Valid(p.s) {
		// A file that is broken as well gets its syntax error, as
		// encoding/json would report it.
		d.fail(p.badLine, "%s", p.badMsg)
		return nil
	}
	if p.bad {
		p.report()
		return nil
	}
	if p.dupLine > 0 {
		d.fail(p.dupLine, "%s", p.dupMsg)
		return nil
	}
	return root
}

// report turns the first syntax error into a problem, in encoding/json's
// words and at the line of its offset.
func (p *jsonParser) report() {
	var v json.RawMessage // Unmarshal validates before it decodes anything
	err := json.Unmarshal(p.s, &v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		p.d.fail(lineAt(p.s, se.Offset), "syntax error: %s", se.Error())
	case err != nil:
		p.d.fail(p.badLine, "syntax error: %v", err)
	default:
		p.d.fail(p.badLine, "syntax error: %s", p.badMsg)
	}
}

// lineAt is the 1-based line of byte offset off; an offset just past a
// newline still belongs to the line the newline ends.
func lineAt(data []byte, off int64) int {
	off = max(0, min(off, int64(len(data))))
	if off > 0 && data[off-1] == '\n' {
		off--
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

func (p *jsonParser) syntax(msg string) {
	if !p.bad {
		p.bad, p.badLine, p.badMsg = true, p.line, msg
	}
}

// limit stops the parse at a parse cap (see [Limits]).
func (p *jsonParser) limit(format string, args ...any) {
	if !p.bad {
		p.syntax(fmt.Sprintf(format, args...))
		p.capped = true
	}
}

// count adds a value, false past the cap.
func (p *jsonParser) count() bool {
	if p.values++; p.values > p.d.limits.Values {
		p.limit("more than %d values (objects, lists, strings, numbers…), the most %s", p.d.limits.Values, p.d.limits.Allowed())
		return false
	}
	return true
}

// deeper enters a list or object, false past the depth cap.
func (p *jsonParser) deeper() bool {
	if p.depth++; p.depth > p.d.limits.Depth {
		p.limit("nested more than %d levels deep", p.d.limits.Depth)
		return false
	}
	return true
}

func (p *jsonParser) newNode(k kind) *node {
	if len(p.slab) == 0 {
		p.slab = make([]node, 256)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.kind, n.line = k, p.line
	return n
}

// double makes room for one more element of a scratch list, doubling it
// when full: append grows large slices by a quarter, which allocates five
// times the final size on the way, double twice.
func double[S ~[]E, E any](s S) S {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 64))
}

// peek returns the next byte, 0 at the end.
func (p *jsonParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *jsonParser) space() {
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

func (p *jsonParser) value() *node {
	if p.i >= len(p.s) {
		p.syntax("unexpected end of JSON input")
		return nil
	}
	if !p.count() {
		return nil
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil
		}
		n := p.newNode(kString)
		n.text = s
		return n
	case c == '-' || '0' <= c && c <= '9':
		n := p.newNode(kFloat)
		if !p.number(n) {
			return nil
		}
		return n
	case c == 't':
		return p.literal("true", kBool, true)
	case c == 'f':
		return p.literal("false", kBool, false)
	case c == 'n':
		return p.literal("null", kNull, false)
	}
	p.syntax("invalid character looking for beginning of value")
	return nil
}

func (p *jsonParser) literal(word string, k kind, b bool) *node {
	if !bytes.HasPrefix(p.s[p.i:], []byte(word)) {
		p.syntax("invalid literal")
		return nil
	}
	p.i += len(word)
	n := p.newNode(k)
	n.b = b
	return n
}

// number reads a number into n.
func (p *jsonParser) number(n *node) bool {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		p.syntax("invalid number")
		return false
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			p.syntax("invalid number")
			return false
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.syntax("invalid number")
			return false
		}
	}
	if !setNumber(n, string(p.s[start:p.i])) {
		p.syntax("invalid number")
		return false
	}
	return true
}

// str reads a string, decoding escapes as encoding/json does (bad UTF-8
// and lone surrogates become U+FFFD).
func (p *jsonParser) str() (string, bool) {
	p.i++ // opening quote
	start := p.i
	simple := true
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '"':
			raw := p.s[start:p.i]
			if len(raw) > p.d.limits.String {
				p.limit("a string of %s, longer than the %s a value may be", capped.FormatBytes(int64(len(raw))), capped.FormatBytes(int64(p.d.limits.String)))
				return "", false
			}
			p.i++
			if simple && utf8.Valid(raw) {
				return intern(raw), true
			}
			return unquoteJSON(raw), true
		case c == '\\':
			if !p.escapeOK(p.i) {
				p.syntax("invalid character in string escape code")
				return "", false
			}
			simple = false
			p.i += 2
		case c < 0x20:
			p.syntax("invalid character in string literal")
			return "", false
		default:
			p.i++
		}
	}
	p.syntax("unexpected end of JSON input")
	return "", false
}

// intern returns the schema's field names without allocating.
func intern(b []byte) string {
	switch string(b) {
	case "benchmark":
		return "benchmark"
	case "category":
		return "category"
	case "params":
		return "params"
	case "metric":
		return "metric"
	case "unit":
		return "unit"
	case "direction":
		return "direction"
	case "samples":
		return "samples"
	case "iters":
		return "iters"
	case "error":
		return "error"
	case "primary":
		return "primary"
	case "secondary":
		return "secondary"
	}
	return string(b)
}

func unquoteJSON(raw []byte) string {
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			r, size := utf8.DecodeRune(raw[i:])
			b = utf8.AppendRune(b, r) // RuneError for a bad byte
			i += size
			continue
		}
		if i+1 >= len(raw) {
			break
		}
		i += 2
		switch raw[i-1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(raw, i)
			if !ok {
				return string(b) // the parser rejects this before; unreachable
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok := hex4(raw, i+2)
				if ok && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						b = utf8.AppendRune(b, dec)
						i += 6
						break
					}
				}
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
		default: // '"', '\\', '/'
			b = append(b, raw[i-1])
		}
	}
	return string(b)
}

func hex4(raw []byte, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(raw[i:i+4]), 16, 32)
	return rune(v), err == nil
}

// escapeOK checks the escape at p.s[i] without decoding it.
func (p *jsonParser) escapeOK(i int) bool {
	if i+1 >= len(p.s) {
		return false
	}
	switch p.s[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		if i+6 > len(p.s) {
			return false
		}
		for _, c := range p.s[i+2 : i+6] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
		return true
	}
	return false
}

func (p *jsonParser) object() *node {
	if !p.deeper() {
		return nil
	}
	defer func() { p.depth-- }()
	n := p.newNode(kMap)
	p.i++                   // '{'
	var seen map[string]int // key → line, built once the object is big enough to need it
	base := len(p.path)
	defer func() { p.path = p.path[:base] }()
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n
	}
	start := len(p.fields)
	defer func() { p.fields = p.fields[:start] }()
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			p.syntax("invalid character looking for beginning of object key string")
			return nil
		}
		kline := p.line
		key, ok := p.str()
		if !ok {
			return nil
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			p.syntax("invalid character after object key")
			return nil
		}
		p.i++
		p.space()
		p.path = p.path[:base].key(key)
		first := 0
		open := p.fields[start:]
		if seen == nil && len(open) >= 8 {
			seen = make(map[string]int, 2*len(open))
			for _, f := range open {
				seen[f.key] = f.line
			}
		}
		if seen != nil {
			first = seen[key]
			seen[key] = kline
		} else {
			for _, f := range open {
				if f.key == key {
					first = f.line
				}
			}
		}
		if first > 0 && p.dupLine == 0 {
			// Reported after parsing: a syntax error later on comes first.
			p.dupLine = kline
			p.dupMsg = fmt.Sprintf("duplicate field %q (first at line %d)", p.path.String(), first)
		}
		v := p.value()
		if v == nil {
			return nil
		}
		p.fields = append(double(p.fields), field{key: key, line: kline, val: v})
		p.space()
		if p.i >= len(p.s) {
			p.syntax("unexpected end of JSON input")
			return nil
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			n.fields = slices.Clone(p.fields[start:])
			return n
		default:
			p.syntax("invalid character after object key:value pair")
			return nil
		}
	}
}

func (p *jsonParser) array() *node {
	if !p.deeper() {
		return nil
	}
	defer func() { p.depth-- }()
	n := p.newNode(kList)
	p.i++ // '['
	base := len(p.path)
	defer func() { p.path = p.path[:base] }()
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n
	}
	start, nstart := len(p.items), len(p.nums)
	defer func() { p.items, p.nums = p.items[:start], p.nums[:nstart] }()
	compact := true // only numbers so far
	for idx := 0; ; idx++ {
		p.space()
		p.path = p.path[:base].index(idx)
		if c := p.peek(); compact && (c == '-' || '0' <= c && c <= '9') {
			var x node
			if !p.count() || !p.number(&x) {
				return nil
			}
			p.nums = append(double(p.nums), numOf(&x, p.line))
		} else {
			if compact {
				for _, x := range p.nums[nstart:] {
					m := p.newNode(x.kind)
					m.line, m.f = int(x.line), x.float()
					if x.kind == kInt {
						m.i = int64(x.v)
					}
					p.items = append(double(p.items), m)
				}
				p.nums, compact = p.nums[:nstart], false
			}
			v := p.value()
			if v == nil {
				return nil
			}
			p.items = append(double(p.items), v)
		}
		p.space()
		if p.i >= len(p.s) {
			p.syntax("unexpected end of JSON input")
			return nil
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			if compact {
				n.nums = slices.Clone(p.nums[nstart:])
			} else {
				n.items = slices.Clone(p.items[start:])
			}
			return n
		default:
			p.syntax("invalid character after array element")
			return nil
		}
	}
}
