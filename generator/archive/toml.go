package archive

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// parseTOML parses with BurntSushi/toml, whose values carry no positions,
// and takes the line of every key from a scan of the (by then known valid)
// text.
func (d *decoder) parseTOML(data []byte) *readkit.Node {
	if len(bytes.TrimSpace(data)) == 0 {
		d.fail(0, "empty document")
		return nil
	}
	// BurntSushi/toml spends up to ~1 KB per value and time and memory
	// quadratic in the depth of dotted keys and inline tables: check both
	// before it runs.
	switch tokens, deep := tomlShape(data, d.limits.Depth); {
	case deep > 0:
		d.fail(deep, "nested more than %d levels deep", d.limits.Depth)
		return nil
	case tokens > d.limits.Tokens:
		d.fail(0, "%d separators (`,[{=.` and newlines), more than the %d %s for a TOML archive", tokens, d.limits.Tokens, d.limits.Allowed())
		return nil
	}
	var m map[string]any
	err := safely("toml", func() error {
		_, err := toml.Decode(string(data), &m)
		return err
	})
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			d.fail(pe.Position.Line, "syntax error: %s", pe.Message)
		} else {
			d.fail(0, "syntax error: %s", strings.TrimPrefix(err.Error(), "toml: "))
		}
		return nil
	}
	c := tomlConverter{d: d}
	c.lines, c.multi = tomlLines(data)
	n := c.value(m, "", 0)
	if d.fatal {
		return nil
	}
	return n
}

// tomlShape measures what makes BurntSushi/toml expensive, without
// allocating: the separators outside strings and comments (`,[{=.` and
// newlines; every value needs one) and the nesting. Depth counts as in
// JSON, the document being level 1: `[a.b]` opens level 3, `[[r]]` level 3
// (the array and its table), `x.y = {}` in it level 5. deep is the line
// where maxDepth is first exceeded, else 0; the scan stops there. It
// understands strings, comments, headers and dotted keys and skips
// anything else: BurntSushi reports syntax errors.
func tomlShape(data []byte, maxDepth int) (tokens, deep int) {
	type open struct {
		c     byte // '[' or '{'
		depth int  // the container's level
	}
	var stack []open
	line := 1
	table := 1        // level of the current [table]
	expectKey := true // at the start of a line or inside an inline table
	dots := 0         // dots of the key being read
	val := 1          // level a container opened now would have
	i := 0
	// skipString skips the string starting at i, counting its lines.
	skipString := func() {
		q := data[i]
		if i+2 < len(data) && data[i+1] == q && data[i+2] == q {
			for i += 3; i < len(data); i++ {
				switch {
				case data[i] == '\\' && q == '"':
					i++
				case data[i] == '\n':
					line++
				case data[i] == q && i+2 < len(data) && data[i+1] == q && data[i+2] == q:
					i += 3
					for i < len(data) && data[i] == q {
						i++
					}
					return
				}
			}
			return
		}
		for i++; i < len(data) && data[i] != '\n'; i++ {
			switch data[i] {
			case '\\':
				if q == '"' {
					i++
				}
			case q:
				i++
				return
			}
		}
	}
	tooDeep := func(level int) bool {
		if level > maxDepth {
			deep = line
			return true
		}
		return false
	}
	for i < len(data) {
		switch c := data[i]; c {
		case '"', '\'':
			skipString()
			continue
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			continue
		case '\n':
			tokens++
			line++
			if len(stack) == 0 {
				expectKey, dots = true, 0
			}
		case '.':
			tokens++
			if expectKey {
				dots++
			}
		case '=':
			tokens++
			base := table
			if len(stack) > 0 {
				base = stack[len(stack)-1].depth
			}
			val = base + dots + 1
			if tooDeep(base + dots) { // the tables a dotted key creates
				return tokens, deep
			}
			expectKey, dots = false, 0
		case ',':
			tokens++
			if len(stack) > 0 {
				if top := stack[len(stack)-1]; top.c == '{' {
					expectKey, dots = true, 0
				} else {
					val = top.depth + 1
				}
			}
		case '[', '{':
			tokens++
			if c == '[' && len(stack) == 0 && expectKey {
				// A [table] or [[array of tables]] header.
				aot := i+1 < len(data) && data[i+1] == '['
				hdots := 0
				for i++; i < len(data) && data[i] != ']' && data[i] != '\n'; {
					switch data[i] {
					case '"', '\'':
						skipString()
						continue
					case '.':
						hdots++
					}
					i++
				}
				table = 1 + hdots + 1
				if aot {
					table++
				}
				if tooDeep(table) {
					return tokens, deep
				}
				continue
			}
			if tooDeep(val) {
				return tokens, deep
			}
			stack = append(stack, open{c, val})
			if c == '{' {
				expectKey, dots = true, 0
			} else {
				val++
			}
		case ']', '}':
			tokens++
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && stack[len(stack)-1].c == '[' {
				val = stack[len(stack)-1].depth + 1
			}
		}
		i++
	}
	return tokens, 0
}

// TOML paths in the line table: "\x00key" per key and "\x01index" per
// array element, so that no key text can be mistaken for structure.
func tomlKey(p, k string) string       { return p + "\x00" + k }
func tomlIndex(p string, i int) string { return p + "\x01" + strconv.Itoa(i) }

type tomlConverter struct {
	d     *decoder
	lines map[string]int
	multi map[string]bool
}

// value converts v, found at path; line is the line of the value when the
// caller knows it (an element on its array's line), else 0.
func (c *tomlConverter) value(v any, path string, line int) *readkit.Node {
	if line == 0 {
		line = c.lines[path]
	}
	n := &readkit.Node{Line: line}
	switch v := v.(type) {
	case map[string]any:
		n.Kind = readkit.Map
		n.Fields = make([]readkit.Field, 0, len(v))
		for k, val := range v {
			kp := tomlKey(path, k)
			n.Fields = append(n.Fields, readkit.Field{Key: k, Line: c.lines[kp], Val: c.value(val, kp, 0)})
		}
		// Document order as far as the scan knows it; keys without a line
		// last, by name: problems come out in a stable order.
		slices.SortFunc(n.Fields, func(a, b readkit.Field) int {
			if (a.Line == 0) != (b.Line == 0) {
				return cmp.Compare(b.Line, a.Line) // 0 sorts after any line
			}
			return cmp.Or(cmp.Compare(a.Line, b.Line), strings.Compare(a.Key, b.Key))
		})
	case []map[string]any:
		n.Kind = readkit.List
		n.Items = make([]*readkit.Node, len(v))
		for i, val := range v {
			n.Items[i] = c.value(val, tomlIndex(path, i), 0)
		}
	case []any:
		n.Kind = readkit.List
		n.Items = make([]*readkit.Node, len(v))
		multi := c.multi[path]
		for i, val := range v {
			switch val.(type) {
			case map[string]any, []any, []map[string]any:
				n.Items[i] = c.value(val, tomlIndex(path, i), 0)
			default:
				l := line
				if multi {
					l = cmp.Or(c.lines[tomlIndex(path, i)], line)
				}
				n.Items[i] = c.value(val, "", l)
			}
		}
	case string:
		n.Kind, n.Text = readkit.String, v
		if l := c.d.limits.String; len(v) > l && !c.d.fatal {
			c.d.fail(line, "a string of %s, longer than the %s a value may be", capped.FormatBytes(int64(len(v))), capped.FormatBytes(int64(l)))
		}
	case int64:
		n.Kind, n.Int, n.Float, n.Text = readkit.Int, v, float64(v), strconv.FormatInt(v, 10)
	case float64:
		n.Kind, n.Float, n.Text = readkit.Float, v, strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		n.Kind, n.Bool = readkit.Bool, v
	case time.Time:
		switch v.Location().String() {
		case "datetime-local":
			n.Kind, n.Text = readkit.LocalTime, v.Format("2006-01-02T15:04:05.999999999")
		case "date-local":
			n.Kind, n.Text = readkit.LocalTime, v.Format("2006-01-02")
		case "time-local":
			n.Kind, n.Text = readkit.LocalTime, v.Format("15:04:05.999999999")
		default:
			n.Kind, n.Text = readkit.Time, v.Format(time.RFC3339Nano)
		}
	case nil:
		n.Kind = readkit.Null
	default:
		n.Kind, n.Text = readkit.String, fmt.Sprint(v)
	}
	return n
}

// tomlScanner finds the line of every key, table header and array element
// of a valid TOML document. It understands just enough TOML to do that:
// keys, headers, strings of all four kinds, arrays, inline tables and
// comments. Should it meet something it does not understand it stops, and
// the keys after that point have no line.
type tomlScanner struct {
	s     []byte
	i     int
	line  int
	lines map[string]int
	aot   map[string]int  // array of tables → index of its last element
	multi map[string]bool // arrays whose elements do not all sit on the line that opens them
}

func tomlLines(data []byte) (lines map[string]int, multi map[string]bool) {
	sc := &tomlScanner{s: data, line: 1, lines: map[string]int{}, aot: map[string]int{}, multi: map[string]bool{}}
	sc.document()
	return sc.lines, sc.multi
}

func (sc *tomlScanner) at(off int) byte {
	if sc.i+off < len(sc.s) {
		return sc.s[sc.i+off]
	}
	return 0
}

func (sc *tomlScanner) eof() bool { return sc.i >= len(sc.s) }

// advance moves n bytes on, counting newlines.
func (sc *tomlScanner) advance(n int) {
	for ; n > 0 && sc.i < len(sc.s); n-- {
		if sc.s[sc.i] == '\n' {
			sc.line++
		}
		sc.i++
	}
}

func (sc *tomlScanner) set(path string) {
	if _, ok := sc.lines[path]; !ok {
		sc.lines[path] = sc.line
	}
}

// space skips blanks and, with nl, newlines and comments too.
func (sc *tomlScanner) space(nl bool) {
	for !sc.eof() {
		switch c := sc.s[sc.i]; {
		case c == ' ' || c == '\t':
			sc.i++
		case nl && (c == '\n' || c == '\r'):
			sc.advance(1)
		case nl && c == '#':
			for !sc.eof() && sc.s[sc.i] != '\n' {
				sc.i++
			}
		default:
			return
		}
	}
}

// endOfLine skips blanks and a comment; it fails if anything else follows.
func (sc *tomlScanner) endOfLine() bool {
	sc.space(false)
	if sc.at(0) == '#' {
		for !sc.eof() && sc.s[sc.i] != '\n' {
			sc.i++
		}
	}
	if sc.at(0) == '\r' {
		sc.i++
	}
	return sc.eof() || sc.at(0) == '\n'
}

func (sc *tomlScanner) document() {
	table := ""
	for {
		sc.space(true)
		if sc.eof() {
			return
		}
		if sc.at(0) == '[' {
			aot := sc.at(1) == '['
			start := sc.line
			if aot {
				sc.advance(2)
			} else {
				sc.advance(1)
			}
			keys, ok := sc.keys()
			if !ok {
				return
			}
			if aot {
				if sc.at(0) != ']' || sc.at(1) != ']' {
					return
				}
				sc.advance(2)
			} else {
				if sc.at(0) != ']' {
					return
				}
				sc.advance(1)
			}
			if !sc.endOfLine() {
				return
			}
			table = sc.header(keys, aot, start)
			continue
		}
		keys, ok := sc.keys()
		if !ok || sc.at(0) != '=' {
			return
		}
		sc.advance(1)
		if !sc.value(sc.keyPath(table, keys)) || !sc.endOfLine() {
			return
		}
	}
}

// header records a [table] or [[array]] header and returns the table's path.
func (sc *tomlScanner) header(keys []string, aot bool, line int) string {
	p := ""
	for j, k := range keys {
		p = tomlKey(p, k)
		if _, ok := sc.lines[p]; !ok {
			sc.lines[p] = line
		}
		last := j == len(keys)-1
		if n, ok := sc.aot[p]; ok && !(aot && last) {
			p = tomlIndex(p, n) // a dotted header descends into the array's last element
		}
	}
	if aot {
		n, ok := sc.aot[p]
		if !ok {
			n = -1
		}
		n++
		sc.aot[p] = n
		p = tomlIndex(p, n)
		sc.lines[p] = line
	}
	return p
}

// keyPath records a (dotted) key of a key/value pair and returns its path.
func (sc *tomlScanner) keyPath(table string, keys []string) string {
	p := table
	for _, k := range keys {
		p = tomlKey(p, k)
		sc.set(p)
	}
	return p
}

// keys reads a dotted key: bare, "basic" or 'literal' parts.
func (sc *tomlScanner) keys() ([]string, bool) {
	var ks []string
	for {
		sc.space(false)
		var k string
		switch c := sc.at(0); {
		case c == '"':
			raw, ok := sc.basicString()
			if !ok {
				return nil, false
			}
			if k, ok = unescapeTOML(raw); !ok {
				return nil, false
			}
		case c == '\'':
			raw, ok := sc.literalString()
			if !ok {
				return nil, false
			}
			k = raw
		case isBareKeyChar(c):
			start := sc.i
			for !sc.eof() && isBareKeyChar(sc.s[sc.i]) {
				sc.i++
			}
			k = string(sc.s[start:sc.i])
		default:
			return nil, false
		}
		ks = append(ks, k)
		sc.space(false)
		if sc.at(0) != '.' {
			return ks, true
		}
		sc.i++
	}
}

func isBareKeyChar(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// basicString reads a one-line "basic string" and returns its raw content.
func (sc *tomlScanner) basicString() (string, bool) {
	sc.i++ // opening quote
	start := sc.i
	for !sc.eof() {
		switch sc.s[sc.i] {
		case '\\':
			sc.i += 2
		case '"':
			sc.i++
			return string(sc.s[start : sc.i-1]), true
		case '\n':
			return "", false
		default:
			sc.i++
		}
	}
	return "", false
}

// literalString reads a one-line 'literal string'.
func (sc *tomlScanner) literalString() (string, bool) {
	sc.i++
	start := sc.i
	for !sc.eof() {
		switch sc.s[sc.i] {
		case '\'':
			sc.i++
			return string(sc.s[start : sc.i-1]), true
		case '\n':
			return "", false
		default:
			sc.i++
		}
	}
	return "", false
}

// multiline skips a """ or ”' string; escapes only count in the former.
// Up to two quotes right before the closing delimiter belong to the string.
func (sc *tomlScanner) multiline(q byte) bool {
	sc.advance(3)
	for !sc.eof() {
		switch c := sc.s[sc.i]; {
		case c == '\\' && q == '"':
			sc.advance(2)
		case c == q && sc.at(1) == q && sc.at(2) == q:
			sc.advance(3)
			for extra := 0; extra < 2 && sc.at(0) == q; extra++ {
				sc.advance(1)
			}
			return true
		default:
			sc.advance(1)
		}
	}
	return false
}

// value skips the value at path, recording the lines of array elements and
// inline-table keys below it.
func (sc *tomlScanner) value(path string) bool {
	sc.space(false)
	switch c := sc.at(0); c {
	case '"', '\'':
		if sc.at(1) == c && sc.at(2) == c {
			return sc.multiline(c)
		}
		var ok bool
		if c == '"' {
			_, ok = sc.basicString()
		} else {
			_, ok = sc.literalString()
		}
		return ok
	case '[':
		open := sc.line
		sc.advance(1)
		for idx := 0; ; idx++ {
			sc.space(true)
			if sc.at(0) == ']' {
				sc.advance(1)
				return true
			}
			// Most arrays are samples on one line: their elements need
			// no entry (and no path) of their own.
			var p string
			if c := sc.at(0); c == '[' || c == '{' || sc.line != open {
				p = tomlIndex(path, idx)
				sc.set(p)
				if sc.line != open {
					sc.multi[path] = true
				}
			}
			if !sc.value(p) {
				return false
			}
			sc.space(true)
			switch sc.at(0) {
			case ',':
				sc.advance(1)
			case ']':
				sc.advance(1)
				return true
			default:
				return false
			}
		}
	case '{':
		sc.advance(1)
		for {
			sc.space(true)
			if sc.at(0) == '}' {
				sc.advance(1)
				return true
			}
			keys, ok := sc.keys()
			if !ok || sc.at(0) != '=' {
				return false
			}
			sc.advance(1)
			if !sc.value(sc.keyPath(path, keys)) {
				return false
			}
			sc.space(true)
			switch sc.at(0) {
			case ',':
				sc.advance(1)
			case '}':
				sc.advance(1)
				return true
			default:
				return false
			}
		}
	}
	// A number, boolean or date: up to whatever ends it. A date may hold a
	// space ("1979-05-27 07:32:00Z"), so blanks do not.
	start := sc.i
	for !sc.eof() && !strings.ContainsRune(",]}\n\r#", rune(sc.s[sc.i])) {
		sc.i++
	}
	return sc.i > start
}

// unescapeTOML decodes the escapes of a basic string (TOML 1.1).
func unescapeTOML(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		i++
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case '"', '\\':
			b.WriteByte(s[i])
		case 'x', 'u', 'U':
			n := 2
			switch s[i] {
			case 'u':
				n = 4
			case 'U':
				n = 8
			}
			if i+1+n > len(s) {
				return "", false
			}
			r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(r)) {
				return "", false
			}
			b.WriteRune(rune(r))
			i += n
		default:
			return "", false
		}
	}
	return b.String(), true
}
