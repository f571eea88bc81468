package foreign

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// Every JSON reader of this package parses with readkit.ParseJSON, under
// the caps of [Read] (size and separators, before any parsing) and
// jsonMaxDepth, and walks the tree it builds, in which every value
// carries its line: parseJSON is where a reader's JSON comes from.

// jsonMaxDepth bounds the nesting of a JSON file: encoding/json's limit,
// which the readers had before they parsed with readkit, so that a deep
// value in one entry costs that entry, not the file.
const jsonMaxDepth = readkit.EncodingJSONMaxDepth

// parseJSON parses a file that passed the caps of [Read] (o says what
// else it accepts, as readkit.JSONOptions do). The problem is Fatal;
// with o.Partial the tree of what was read comes with it.
func parseJSON(file string, data []byte, o readkit.JSONOptions) (*readkit.Node, int, *readkit.Problem) {
	o.MaxDepth = jsonMaxDepth
	return readkit.ParseJSON(file, data, o)
}

// jsonSyntax returns what a reader words its own way of a problem of
// parseJSON that is a syntax error (not a cap): encoding/json's message
// and whether the document ends inside a value, and the problem's line
// (an empty document's is its last line).
func jsonSyntax(p *readkit.Problem, data []byte) (*readkit.SyntaxError, int, bool) {
	se, ok := p.Err.(*readkit.SyntaxError)
	if !ok {
		return nil, p.Line, false
	}
	line := p.Line
	if line == 0 {
		line = readkit.ErrorLine(data, int64(len(data)))
	}
	return se, line, true
}

// jsonKind names the JSON type of a value for messages: "an object", "a
// list", "a string", "a boolean", "null" or "a number".
func jsonKind(n *readkit.Node) string {
	if n.IsNumber() {
		return "a number"
	}
	return n.Describe()
}

// writeCompact writes n as encoding/json writes the value it decodes
// from it: compact, object keys sorted (of a repeated key, the last
// value), numbers as written (n parsed with readkit's NumberText), and
// without escaping <, > and &.
func writeCompact(b *strings.Builder, n *readkit.Node) {
	switch n.Kind {
	case readkit.Map:
		last := make(map[string]*readkit.Node, len(n.Fields))
		for _, f := range n.Fields {
			last[f.Key] = f.Val
		}
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(last)) {
			if i > 0 {
				b.WriteByte(',')
			}
			writeQuoted(b, k)
			b.WriteByte(':')
			writeCompact(b, last[k])
		}
		b.WriteByte('}')
	case readkit.List:
		b.WriteByte('[')
		for i, e := range n.Elems() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCompact(b, e)
		}
		b.WriteByte(']')
	case readkit.String:
		writeQuoted(b, n.Text)
	case readkit.Int, readkit.Float:
		b.WriteString(n.Text)
	case readkit.Bool:
		b.WriteString(strconv.FormatBool(n.Bool))
	default:
		b.WriteString("null")
	}
}

// writeQuoted writes s as a JSON string, escaping what encoding/json
// escapes when it does not escape HTML.
func writeQuoted(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20, r == '\u2028', r == '\u2029':
			b.WriteString(`\u`)
			b.WriteByte(hex[r>>12&0xF])
			b.WriteByte(hex[r>>8&0xF])
			b.WriteByte(hex[r>>4&0xF])
			b.WriteByte(hex[r&0xF])
		default:
			b.WriteRune(r) // s is UTF-8: the parser's strings are
		}
	}
	b.WriteByte('"')
}

// sniffWindow is how much of a file the Sniff of bmf and gab parses
// (sniffJSON): what they look at is at its start.
const sniffWindow = 16 << 10

// sniffJSON parses the first window bytes of a file, what a format's
// Sniff looks at: the tree of what is there (nil when it does not start
// with JSON), the lists and objects the window or an error cuts marked
// Partial.
func sniffJSON(name string, data []byte, window int) *readkit.Node {
	root, _, _ := parseJSON(name, data[:min(len(data), window)], readkit.JSONOptions{Trailing: true, Duplicates: true, Partial: true})
	return root
}
