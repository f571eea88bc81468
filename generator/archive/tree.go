package archive

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// kind is the type of a tree node: the common ground of JSON, YAML and TOML.
type kind uint8

const (
	kNull kind = iota
	kBool
	kInt
	kFloat
	kString
	kTime      // a TOML offset date-time; text holds it in RFC 3339
	kLocalTime // a TOML local date, time or date-time (no offset)
	kList
	kMap
)

// node is one value of a parsed document with the line it starts on (0 when
// the codec cannot tell).
type node struct {
	kind kind
	b    bool
	line int
	// text is the value of a string or date, or the source text of a YAML
	// number (empty for other numbers: asText formats them).
	text  string
	i     int64   // kInt
	f     float64 // kInt and kFloat
	items []*node // kList
	// nums holds a JSON list made only of numbers instead of items: samples
	// are most of an archive, and a node per number would triple the
	// memory a decode needs.
	nums   []numItem
	fields []field // kMap, in document order, keys unique
}

// numItem is one number of a compact list, in 16 bytes: a list of numbers
// is most of a real archive, and all of a hostile one.
type numItem struct {
	v    uint64 // the int64 of a kInt, the bits of the float64 of a kFloat
	line int32
	kind kind // kInt or kFloat
}

func numOf(n *node, line int) numItem {
	if n.kind == kInt {
		return numItem{v: uint64(n.i), line: int32(line), kind: kInt}
	}
	return numItem{v: math.Float64bits(n.f), line: int32(line), kind: kFloat}
}

func (x numItem) float() float64 {
	if x.kind == kInt {
		return float64(int64(x.v))
	}
	return math.Float64frombits(x.v)
}

// node returns the number as a node of its own.
func (x numItem) node() *node {
	n := &node{kind: x.kind, line: int(x.line), f: x.float()}
	if x.kind == kInt {
		n.i = int64(x.v)
	}
	return n
}

// length is the number of elements of a list.
func (n *node) length() int { return len(n.items) + len(n.nums) }

// elems returns the elements of a list, building nodes for a compact one.
func (n *node) elems() []*node {
	if len(n.nums) == 0 {
		return n.items
	}
	out := make([]*node, len(n.nums))
	for j, x := range n.nums {
		out[j] = x.node()
	}
	return out
}

// elem returns element i of a list, building a node for a number of a
// compact one.
func (n *node) elem(i int) *node {
	if i < len(n.nums) {
		return n.nums[i].node()
	}
	return n.items[i-len(n.nums)]
}

// field is one key of a map with the line of the key.
type field struct {
	key  string
	line int
	val  *node
}

// get returns the value of key and the line of the key, or nil.
func (n *node) get(key string) (*node, int) {
	for i := range n.fields {
		if n.fields[i].key == key {
			return n.fields[i].val, n.fields[i].line
		}
	}
	return nil, 0
}

// describe names a node's type for messages: "want a string, got a list".
func (n *node) describe() string {
	if n == nil {
		return "nothing"
	}
	switch n.kind {
	case kNull:
		return "null"
	case kBool:
		return "a boolean"
	case kInt:
		return "an integer"
	case kFloat:
		return "a number"
	case kString:
		return "a string"
	case kTime, kLocalTime:
		return "a date-time"
	case kList:
		return "a list"
	default:
		return "an object"
	}
}

// isScalar reports whether n is a string, number, boolean or date.
func (n *node) isScalar() bool {
	switch n.kind {
	case kBool, kInt, kFloat, kString, kTime, kLocalTime:
		return true
	}
	return false
}

// text returns the text of a scalar used where the schema wants a string
// (ids, names): what the file says, so that an unquoted YAML sha made of
// digits keeps its leading zeros.
func (n *node) asText() (string, bool) {
	switch n.kind {
	case kString, kTime, kLocalTime:
		return n.text, true
	case kInt, kFloat:
		if n.text != "" {
			return n.text, true
		}
		return n.asParam()
	case kBool:
		return strconv.FormatBool(n.b), true
	}
	return "", false
}

// asParam returns the canonical string of a scalar used as a parameter,
// context or label value: integers in decimal, floats in the shortest 'g'
// form, booleans as true/false, so that `n: 1000`, `n = 1000` and
// `"n": 1000` are the same parameter in every format.
func (n *node) asParam() (string, bool) {
	switch n.kind {
	case kString, kTime, kLocalTime:
		return n.text, true
	case kInt:
		return strconv.FormatInt(n.i, 10), true
	case kFloat:
		return strconv.FormatFloat(n.f, 'g', -1, 64), true
	case kBool:
		return strconv.FormatBool(n.b), true
	}
	return "", false
}

// setNumber parses a JSON number into n: an integer when it has no
// fraction or exponent and fits in int64, a float otherwise. Out-of-range
// floats become ±Inf, which validation rejects as samples.
func setNumber(n *node, text string) bool {
	if !strings.ContainsAny(text, ".eE") {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			n.kind, n.i, n.f = kInt, i, float64(i)
			return true
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return false
	}
	n.kind, n.f = kFloat, f
	return true
}

// pathBuilder tracks where a codec is in the document so that problems
// found while parsing (duplicate keys) name the field as the validator does:
// `results[0].metric`. Segments are formatted only when a problem needs
// them.
type pathBuilder []pathSeg

type pathSeg struct {
	key   string
	index int // when key is ""
	isKey bool
}

func (p pathBuilder) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case !s.isKey:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case i > 0:
			b.WriteString("." + s.key)
		default:
			b.WriteString(s.key)
		}
	}
	return b.String()
}

func (p pathBuilder) key(k string) pathBuilder { return append(p, pathSeg{key: k, isKey: true}) }

func (p pathBuilder) index(i int) pathBuilder { return append(p, pathSeg{index: i}) }
