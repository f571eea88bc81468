package readkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/perfpages/perfpages/generator/internal/capped"
)

// JSONOptions say what [ParseJSON] accepts and keeps. The zero value
// parses one whole document, refuses duplicate keys and caps nothing but
// the nesting.
type JSONOptions struct {
	// Start is where the value starts in data (data.js puts an assignment
	// before it); lines still count from the start of data.
	Start int
	// Trailing accepts text after the value, which the caller checks
	// from the returned end offset; otherwise it is a syntax error.
	Trailing bool
	// Duplicates keeps every member of an object, repeated keys included,
	// in file order, for readers that merge or report them; otherwise the
	// first repeated key is an error naming its path.
	Duplicates bool
	// NumberText keeps the literal of every number in Node.Text (and
	// builds a node for each, no compact lists), for readers that scale
	// decimals exactly or show numbers as written.
	NumberText bool
	// NonFinite reads the bare NaN, Infinity and -Infinity tokens of
	// Python's json module (asv, pytest-benchmark) and Google Benchmark as
	// the strings "NaN", "Infinity" and "-Infinity", the tree [Lenient]
	// gives, without its pass over the document and its copy (the text
	// before Start must hold no such token).
	NonFinite bool
	// MaxValues caps the values (objects, lists, strings, numbers…);
	// MaxString the bytes of one string; MaxDepth the nesting (0: 1000,
	// a bound on the parser's stack). 0 means no cap.
	MaxValues, MaxString, MaxDepth int
	// Allowed ends the message of the MaxValues cap, saying where it
	// comes from: "allowed under max_input_bytes = 64 MiB".
	Allowed string
	// Intern, when set, returns a shared string for a key or value the
	// caller expects many times, so that parsing does not allocate it
	// again (the archive schema's field names).
	Intern func(b []byte) (string, bool)
	// Arena, when set, holds the tree's nodes and lists (see [Arena]):
	// the tree is valid until the arena's next Reset.
	Arena *Arena
	// Partial returns, beside the problem of a syntax error, the tree of
	// what was read before it, for readers that keep what a file cut
	// short holds: every list and object open at the error is in it,
	// marked Node.Partial, with the values read before the error; the
	// string, number or literal the error is in is left out. A cap still
	// returns no tree.
	Partial bool
}

// defaultMaxDepth bounds nesting when JSONOptions.MaxDepth is 0: no
// format perfpages reads nests more than 10 deep.
const defaultMaxDepth = 1000

// EncodingJSONMaxDepth is encoding/json's bound on nesting: the MaxDepth
// of the readers that decoded with encoding/json before they parsed with
// ParseJSON (generator/foreign's and generator/receipt's), so that they
// still read what they read then.
const EncodingJSONMaxDepth = 10000

// ParseJSON parses the JSON value at o.Start of data into a tree whose
// nodes and keys carry their lines, and returns it with the offset just
// past it. file names the input in the problem returned when the value
// is not valid JSON, is empty, hits a cap or (without o.Duplicates)
// repeats a key; the problem is Fatal, and its Err is a [*SyntaxError]
// when the document is not JSON.
//
// It is a recursive-descent parser that counts lines as it goes:
// encoding/json's Decoder.Token gives the same lines at a much higher cost
// per value, which matters for archives of a few MB and data.js files of
// tens (archive's BenchmarkDecodeJSON and foreign's BenchmarkRead measure
// the readers that parse with it). On a syntax error it defers to
// encoding/json, so that validity and messages are exactly the standard
// library's (FuzzParseJSON checks that the two agree). A truncated document is reported at its last line with
// "(truncated file?)".
func ParseJSON(file string, data []byte, o JSONOptions) (*Node, int, *Problem) {
	if o.MaxDepth <= 0 {
		o.MaxDepth = defaultMaxDepth
	}
	start := min(max(o.Start, 0), len(data))
	p := &jsonParser{o: o, s: data, i: start, line: 1 + bytes.Count(data[:start], nl)}
	p.space()
	if p.i == len(p.s) {
		return nil, 0, &Problem{File: file, Msg: "empty document", Fatal: true, Err: &SyntaxError{Msg: "unexpected end of JSON input", Truncated: true}}
	}
	root := p.value()
	end := p.i
	if root != nil && !o.Trailing {
		p.space()
		if p.i < len(p.s) {
			p.syntax("invalid character after top-level value")
		}
	}
	switch {
	case p.capped && p.firstError(p.document()) == nil:
		// A file that is broken as well gets its syntax error, as
		// encoding/json would report it.
		return nil, 0, &Problem{File: file, Line: p.badLine, Msg: p.badMsg, Fatal: true}
	case p.bad:
		line, err := p.report()
		prob := &Problem{File: file, Line: line, Msg: "syntax error: " + err.Msg, Fatal: true, Err: err}
		if err.Truncated {
			prob.Msg += " (truncated file?)"
		}
		if o.Partial && !p.capped {
			return root, p.i, prob
		}
		return nil, 0, prob
	case p.dupLine > 0:
		return nil, 0, &Problem{File: file, Line: p.dupLine, Msg: p.dupMsg, Fatal: true}
	}
	return root, end, nil
}

type jsonParser struct {
	o     JSONOptions
	s     []byte
	i     int
	line  int
	depth int
	path  Path
	// bad is set at the first syntax error; parsing then unwinds.
	bad     bool
	badLine int
	badMsg  string
	// dupLine and dupMsg hold the first duplicate key, reported if there
	// is no syntax error.
	dupLine int
	dupMsg  string
	slab    []Node // nodes are allocated in blocks: a 5,000-result archive has ~100,000
	slabLen int    // the length of the last block
	// items and fields collect the children of the open lists and objects,
	// so that each gets one exactly-sized slice.
	items  []*Node
	nums   []Num
	fields []Field
	// values counts the values built, against o.MaxValues; capped is set
	// when a cap stops the parse (badLine and badMsg say which).
	values int
	capped bool
}

// SyntaxError is the cause (Problem.Err) of the problem [ParseJSON]
// returns for a document that is not JSON: encoding/json's words, for a
// reader that reports it in its own.
type SyntaxError struct {
	Msg string // "invalid character 'x' looking for beginning of value"
	// Truncated is set when the document ends inside a value (Msg is
	// then "unexpected end of JSON input"), or is empty.
	Truncated bool
}

func (e *SyntaxError) Error() string { return e.Msg }

// document is the text encoding/json judges: data, with the bare
// non-finite tokens that o.NonFinite reads turned into strings (lines do
// not move).
func (p *jsonParser) document() []byte {
	if p.o.NonFinite {
		return Lenient(p.s)
	}
	return p.s
}

// firstError is encoding/json's verdict on the value the parser read: nil
// when it is valid.
func (p *jsonParser) firstError(s []byte) error {
	doc := s[min(max(p.o.Start, 0), len(s)):]
	var v json.RawMessage // decoding validates before it builds anything
	if p.o.Trailing {
		return json.NewDecoder(bytes.NewReader(doc)).Decode(&v)
	}
	return json.Unmarshal(doc, &v)
}

// report turns the first syntax error into encoding/json's words, at the
// line of its offset.
func (p *jsonParser) report() (int, *SyntaxError) {
	s := p.document()
	err := p.firstError(s)
	start := min(max(p.o.Start, 0), len(s))
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.As(err, &se) && se.Offset >= int64(len(s)-start) && se.Error() == "unexpected end of JSON input":
		return ErrorLine(s, int64(len(s))), &SyntaxError{Msg: "unexpected end of JSON input", Truncated: true}
	case se != nil:
		return ErrorLine(s, int64(start)+se.Offset), &SyntaxError{Msg: se.Error()}
	case err != nil:
		return p.badLine, &SyntaxError{Msg: err.Error()}
	}
	return p.badLine, &SyntaxError{Msg: p.badMsg}
}

func (p *jsonParser) syntax(msg string) {
	if !p.bad {
		p.bad, p.badLine, p.badMsg = true, p.line, msg
	}
}

// limit stops the parse at a cap.
func (p *jsonParser) limit(format string, args ...any) {
	if !p.bad {
		p.syntax(fmt.Sprintf(format, args...))
		p.capped = true
	}
}

// count adds a value, false past the cap.
func (p *jsonParser) count() bool {
	if p.values++; p.o.MaxValues > 0 && p.values > p.o.MaxValues {
		msg := fmt.Sprintf("more than %d values (objects, lists, strings, numbers…)", p.o.MaxValues)
		if p.o.Allowed != "" {
			msg += ", the most " + p.o.Allowed
		}
		p.limit("%s", msg)
		return false
	}
	return true
}

// deeper enters a list or object, false past the depth cap.
func (p *jsonParser) deeper() bool {
	if p.depth++; p.depth > p.o.MaxDepth {
		p.limit("nested more than %d levels deep", p.o.MaxDepth)
		return false
	}
	return true
}

func (p *jsonParser) newNode(k Kind) *Node {
	if a := p.o.Arena; a != nil {
		n := &a.nodes.take(1)[0]
		n.Kind, n.Line = k, p.line
		return n
	}
	if len(p.slab) == 0 {
		// Blocks of 8 nodes, then twice as many up to 256: a small
		// document (a Criterion file, a go test -json event) does not
		// pay for a large one's block.
		p.slabLen = min(max(2*p.slabLen, 8), 256)
		p.slab = make([]Node, p.slabLen)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.Kind, n.Line = k, p.line
	return n
}

// keep copies a finished list of children out of the parser's scratch
// space: into the arena when there is one.
func keep[T any](a *Arena, in func(*Arena) *block[T], s []T) []T {
	if a == nil {
		return slices.Clone(s)
	}
	out := in(a).take(len(s))
	copy(out, s)
	return out
}

func fieldsOf(a *Arena) *block[Field] { return &a.fields }
func numsOf(a *Arena) *block[Num]     { return &a.nums }
func itemsOf(a *Arena) *block[*Node]  { return &a.items }

// double makes room for one more element of a scratch list, doubling it
// when full: append grows large slices by a quarter, which allocates five
// times the final size on the way, double twice.
func double[S ~[]E, E any](s S) S {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 8))
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

func (p *jsonParser) value() *Node {
	if p.i >= len(p.s) {
		p.syntax("unexpected end of JSON input")
		return nil
	}
	if !p.count() {
		return nil
	}
	at := p.i
	var n *Node
	switch c := p.s[p.i]; {
	case c == '{':
		n = p.object()
	case c == '[':
		n = p.array()
	case c == '"':
		s, ok := p.str()
		if !ok {
			return nil
		}
		n = p.newNode(String)
		n.Text = s
	case p.nonFiniteAhead(c):
		n = p.nonFinite()
	case c == '-' || '0' <= c && c <= '9':
		n = p.newNode(Float)
		if !p.number(n) {
			return nil
		}
	case c == 't':
		n = p.literal("true", Bool, true)
	case c == 'f':
		n = p.literal("false", Bool, false)
	case c == 'n':
		n = p.literal("null", Null, false)
	default:
		p.syntax("invalid character looking for beginning of value")
		return nil
	}
	if n != nil {
		n.Off = offset32(at)
	}
	return n
}

// offset32 is an offset as Node.Off keeps it: -1 past 2 GiB.
func offset32(i int) int32 {
	if i > math.MaxInt32 {
		return -1
	}
	return int32(i)
}

// nonFiniteAhead reports whether the value starting with c is a bare
// NaN, Infinity or -Infinity that o.NonFinite reads.
func (p *jsonParser) nonFiniteAhead(c byte) bool {
	return p.o.NonFinite && (c == 'N' || c == 'I' || c == '-' && p.i+1 < len(p.s) && p.s[p.i+1] == 'I')
}

// nonFinite reads a bare NaN, Infinity or -Infinity as a string.
func (p *jsonParser) nonFinite() *Node {
	for _, word := range []string{"NaN", "Infinity", "-Infinity"} {
		if bytes.HasPrefix(p.s[p.i:], []byte(word)) {
			p.i += len(word)
			n := p.newNode(String)
			n.Text = word
			return n
		}
	}
	p.syntax("invalid character looking for beginning of value")
	return nil
}

func (p *jsonParser) literal(word string, k Kind, b bool) *Node {
	if !bytes.HasPrefix(p.s[p.i:], []byte(word)) {
		p.syntax("invalid literal")
		return nil
	}
	p.i += len(word)
	n := p.newNode(k)
	n.Bool = b
	return n
}

// number reads a number into n.
func (p *jsonParser) number(n *Node) bool {
	start := p.i
	neg := p.s[p.i] == '-'
	if neg {
		p.i++
	}
	// The integer part's value is kept while its digits are read: most
	// numbers of an archive are integer samples, and then strconv is not
	// needed (up to 18 digits the value cannot overflow int64).
	var v uint64
	intDigits := 0
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
		intDigits = 1
	} else {
		for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
			v = v*10 + uint64(p.s[p.i]-'0')
			p.i++
			intDigits++
		}
		if intDigits == 0 {
			p.syntax("invalid number")
			return false
		}
	}
	plain := true // no fraction, no exponent
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		plain = false
		if p.digits() == 0 {
			p.syntax("invalid number")
			return false
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		plain = false
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			p.syntax("invalid number")
			return false
		}
	}
	lit := p.s[start:p.i]
	if plain && intDigits <= 18 {
		i := int64(v)
		if neg {
			i = -i
		}
		n.Kind, n.Int, n.Float = Int, i, float64(i)
	} else if !setNumber(n, lit, plain) {
		p.syntax("invalid number")
		return false
	}
	if p.o.NumberText || n.Kind == Float && math.IsInf(n.Float, 0) {
		n.Text = string(lit) // an out-of-range number keeps its text, for messages
	}
	return true
}

// digits skips decimal digits and returns how many there were.
func (p *jsonParser) digits() int {
	start := p.i
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

// setNumber parses a JSON number into n: an integer when it is plain (no
// fraction or exponent) and fits in int64, a float otherwise.
// Out-of-range floats become ±Inf.
func setNumber(n *Node, lit []byte, plain bool) bool {
	if plain {
		if i, err := strconv.ParseInt(string(lit), 10, 64); err == nil {
			n.Kind, n.Int, n.Float = Int, i, float64(i)
			return true
		}
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return false
	}
	n.Kind, n.Float = Float, f
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
			if p.o.MaxString > 0 && len(raw) > p.o.MaxString {
				p.limit("a string of %s, longer than the %s a value may be", capped.FormatBytes(int64(len(raw))), capped.FormatBytes(int64(p.o.MaxString)))
				return "", false
			}
			p.i++
			if simple && utf8.Valid(raw) {
				if p.o.Intern != nil {
					if s, ok := p.o.Intern(raw); ok {
						return s, true
					}
				}
				return string(raw), true
			}
			return unquote(raw), true
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

func unquote(raw []byte) string {
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

// object parses an object. The scratch state it grows (depth, path,
// fields) is restored here rather than by defers in objectBody: a defer
// per object and list was a tenth of the parse.
func (p *jsonParser) object() *Node {
	if !p.deeper() {
		return nil
	}
	base, start := len(p.path), len(p.fields)
	n := p.objectBody(base, start)
	p.depth--
	p.path, p.fields = p.path[:base], p.fields[:start]
	return n
}

func (p *jsonParser) objectBody(base, start int) *Node {
	n := p.newNode(Map)
	p.i++                   // '{'
	var seen map[string]int // key → line, built once the object is big enough to need it
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			p.syntax("invalid character looking for beginning of object key string")
			return p.cutObject(n, start)
		}
		kline := p.line
		key, ok := p.str()
		if !ok {
			return p.cutObject(n, start)
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			p.syntax("invalid character after object key")
			return p.cutObject(n, start)
		}
		p.i++
		p.space()
		if !p.o.Duplicates {
			p.path = p.path[:base].Key(key)
			first := 0
			open := p.fields[start:]
			if seen == nil && len(open) >= 8 {
				seen = make(map[string]int, 2*len(open))
				for _, f := range open {
					seen[f.Key] = f.Line
				}
			}
			if seen != nil {
				first = seen[key]
				seen[key] = kline
			} else {
				for _, f := range open {
					if f.Key == key {
						first = f.Line
					}
				}
			}
			if first > 0 && p.dupLine == 0 {
				// Reported after parsing: a syntax error later on comes first.
				p.dupLine = kline
				p.dupMsg = fmt.Sprintf("duplicate field %q (first at line %d)", p.path.String(), first)
			}
		}
		v := p.value()
		if v != nil {
			p.fields = append(double(p.fields), Field{Key: key, Line: kline, Val: v})
		}
		if p.bad {
			return p.cutObject(n, start)
		}
		p.space()
		if p.i >= len(p.s) {
			p.syntax("unexpected end of JSON input")
			return p.cutObject(n, start)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			n.Fields = keep(p.o.Arena, fieldsOf, p.fields[start:])
			return n
		default:
			p.syntax("invalid character after object key:value pair")
			return p.cutObject(n, start)
		}
	}
}

// cutObject ends an object at a syntax error: nil, or with o.Partial the
// object of the fields read before it.
func (p *jsonParser) cutObject(n *Node, start int) *Node {
	if !p.o.Partial || p.capped {
		return nil
	}
	n.Partial = true
	n.Fields = keep(p.o.Arena, fieldsOf, p.fields[start:])
	return n
}

// array parses a list, restoring the scratch state as object does.
func (p *jsonParser) array() *Node {
	if !p.deeper() {
		return nil
	}
	base, start, nstart := len(p.path), len(p.items), len(p.nums)
	n := p.arrayBody(base, start, nstart)
	p.depth--
	p.path, p.items, p.nums = p.path[:base], p.items[:start], p.nums[:nstart]
	return n
}

func (p *jsonParser) arrayBody(base, start, nstart int) *Node {
	n := p.newNode(List)
	p.i++ // '['
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n
	}
	compact := !p.o.NumberText // only numbers so far
	for idx := 0; ; idx++ {
		p.space()
		if !p.o.Duplicates {
			p.path = p.path[:base].Index(idx)
		}
		if c := p.peek(); compact && (c == '-' || '0' <= c && c <= '9') && !p.nonFiniteAhead(c) {
			at := p.i
			x := Node{Line: p.line}
			if !p.count() || !p.number(&x) {
				return p.cutArray(n, start, nstart, compact)
			}
			if x.Text == "" {
				p.nums = append(double(p.nums), NumOf(&x))
			} else {
				// Out of range: a node of its own keeps its text for
				// messages, which a Num cannot.
				p.uncompact(nstart)
				compact = false
				m := p.newNode(x.Kind)
				m.Float, m.Text, m.Off = x.Float, x.Text, offset32(at)
				p.items = append(double(p.items), m)
			}
		} else {
			if compact {
				p.uncompact(nstart)
				compact = false
			}
			v := p.value()
			if v != nil {
				p.items = append(double(p.items), v)
			}
			if p.bad {
				return p.cutArray(n, start, nstart, compact)
			}
		}
		p.space()
		if p.i >= len(p.s) {
			p.syntax("unexpected end of JSON input")
			return p.cutArray(n, start, nstart, compact)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			if compact {
				n.Nums = keep(p.o.Arena, numsOf, p.nums[nstart:])
			} else {
				n.Items = keep(p.o.Arena, itemsOf, p.items[start:])
			}
			return n
		default:
			p.syntax("invalid character after array element")
			return p.cutArray(n, start, nstart, compact)
		}
	}
}

// uncompact turns the numbers read so far of the open list into nodes,
// once it turns out not to hold numbers only.
func (p *jsonParser) uncompact(nstart int) {
	for _, x := range p.nums[nstart:] {
		m := p.newNode(x.Kind)
		m.Line, m.Float = int(x.Line), x.Float()
		if x.Kind == Int {
			m.Int = int64(x.Bits)
		}
		p.items = append(double(p.items), m)
	}
	p.nums = p.nums[:nstart]
}

// cutArray ends a list at a syntax error: nil, or with o.Partial the list
// of the values read before it.
func (p *jsonParser) cutArray(n *Node, start, nstart int, compact bool) *Node {
	if !p.o.Partial || p.capped {
		return nil
	}
	n.Partial = true
	if compact {
		n.Nums = keep(p.o.Arena, numsOf, p.nums[nstart:])
	} else {
		n.Items = keep(p.o.Arena, itemsOf, p.items[start:])
	}
	return n
}

// Span is the text of n, a value [ParseJSON] read from data, as a part of
// data; ok is false when n has no offset (Node.Off), as a number of a
// list of numbers only has none.
func Span(data []byte, n *Node) (text []byte, ok bool) {
	if i := int(n.Off); i >= 0 && i < len(data) && startsKind(data[i], n) {
		end := skipValue(data, i)
		return data[i:end:end], true
	}
	return nil, false
}

// Source is the text of n, a value [ParseJSON] read from data, as the
// document has it: for a reader that quotes a value in a message. A
// number of a list of numbers only has no offset (Node.Off): its text is
// Node.Text when the parser kept it, else its shortest form.
func Source(data []byte, n *Node) string {
	if text, ok := Span(data, n); ok {
		return string(text)
	}
	if n.Text != "" {
		return n.Text
	}
	s, _ := n.AsParam()
	return s
}

// startsKind reports whether c can start the text of n.
func startsKind(c byte, n *Node) bool {
	switch n.Kind {
	case Map:
		return c == '{'
	case List:
		return c == '['
	case String:
		return c == '"' || c == 'N' || c == 'I' || c == '-' // or a non-finite token
	case Int, Float:
		return c == '-' || '0' <= c && c <= '9'
	case Bool:
		return c == 't' || c == 'f'
	case Null:
		return c == 'n'
	}
	return false
}

// skipValue returns the offset just past the valid JSON value at i.
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		for i++; i < len(data); i++ {
			switch data[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return i
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = skipValue(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for ; i < len(data); i++ {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}

// ElemSources is the text of each element of n, a list [ParseJSON] read
// from data, as the document has it, numbers of a list of numbers only
// included (which [Source] cannot quote exactly).
func ElemSources(data []byte, n *Node) []string {
	out := make([]string, 0, n.Len())
	if i := int(n.Off); i >= 0 && i < len(data) && data[i] == '[' {
		for _, e := range Elements(data, i) {
			out = append(out, string(data[e[0]:e[1]]))
		}
		return out
	}
	for _, e := range n.Elems() {
		out = append(out, Source(data, e))
	}
	return out
}

// Elements returns where the text of each element of the list that
// starts at data[i] starts and ends in data, for a list [ParseJSON] read
// (it is not checked again).
func Elements(data []byte, i int) [][2]int {
	var out [][2]int
	for i++; i < len(data) && data[i] != ']'; {
		switch data[i] {
		case ' ', '\t', '\r', '\n', ',':
			i++
			continue
		}
		j := skipValue(data, i)
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}
