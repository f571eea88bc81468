package readkit

import (
	"math"
	"strconv"
	"strings"
)

// Kind is the type of a tree node: the common ground of JSON, YAML and
// TOML.
type Kind uint8

// The kinds of node.
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	Time      // a TOML offset date-time; Text holds it in RFC 3339
	LocalTime // a TOML local date, time or date-time (no offset)
	List
	Map
)

// Node is one value of a parsed document with the line it starts on (0
// when the codec cannot tell). The archive codecs and the JSON readers of
// foreign formats build it; validators read it.
type Node struct {
	Kind Kind
	Bool bool
	// Partial marks a JSON list or object that a syntax error cut short
	// ([JSONOptions.Partial]): it holds the values read before the error.
	Partial bool
	// Off is where a JSON value starts in its document: its source text
	// is [Source]. The numbers of a list of numbers only ([Node.Nums])
	// have none; [JSONOptions.NumberText] keeps their text instead.
	Off  int32
	Line int
	// Text is the value of a string or date, the source text of a YAML or
	// TOML number, and of a JSON number when the parser keeps it
	// ([JSONOptions.NumberText]) or when it is out of range.
	Text  string
	Int   int64   // Int
	Float float64 // Int and Float; ±Inf for a number out of range
	Items []*Node // List
	// Nums holds a list made only of numbers (in the float64 range: one
	// out of it keeps its text, in a node) instead of Items: samples
	// are most of an archive, and a node per number would triple the
	// memory a decode needs. A list has Items or Nums, not both.
	Nums   []Num
	Fields []Field // Map, in document order
}

// Num is one number of a compact list, in 16 bytes: a list of numbers is
// most of a real archive, and all of a hostile one.
type Num struct {
	Bits uint64 // the int64 of an Int, the bits of the float64 of a Float
	Line int32
	Kind Kind // Int or Float
}

// NumOf packs a number node.
func NumOf(n *Node) Num {
	if n.Kind == Int {
		return Num{Bits: uint64(n.Int), Line: int32(n.Line), Kind: Int}
	}
	return Num{Bits: math.Float64bits(n.Float), Line: int32(n.Line), Kind: Float}
}

// Float is the number's value.
func (x Num) Float() float64 {
	if x.Kind == Int {
		return float64(int64(x.Bits))
	}
	return math.Float64frombits(x.Bits)
}

// Node returns the number as a node of its own.
func (x Num) Node() *Node {
	n := &Node{Kind: x.Kind, Line: int(x.Line), Float: x.Float()}
	if x.Kind == Int {
		n.Int = int64(x.Bits)
	}
	return n
}

// Field is one key of a map with the line of the key.
type Field struct {
	Key  string
	Line int
	Val  *Node
}

// Len is the number of elements of a list.
func (n *Node) Len() int { return len(n.Items) + len(n.Nums) }

// Elems returns the elements of a list, building nodes for a compact one.
func (n *Node) Elems() []*Node {
	if len(n.Nums) == 0 {
		return n.Items
	}
	out := make([]*Node, len(n.Nums))
	for j, x := range n.Nums {
		out[j] = x.Node()
	}
	return out
}

// Elem returns element i of a list, building a node for a number of a
// compact one.
func (n *Node) Elem(i int) *Node {
	if i < len(n.Nums) {
		return n.Nums[i].Node()
	}
	return n.Items[i-len(n.Nums)]
}

// Lookup returns the value of the first field called key and the line of
// the key, or nil, 0.
func (n *Node) Lookup(key string) (*Node, int) {
	if n == nil {
		return nil, 0
	}
	for i := range n.Fields {
		if n.Fields[i].Key == key {
			return n.Fields[i].Val, n.Fields[i].Line
		}
	}
	return nil, 0
}

// Get returns the value of the first field called key, or nil (also for
// a nil node or one that is not a map).
func (n *Node) Get(key string) *Node {
	v, _ := n.Lookup(key)
	return v
}

// Last returns the value of the last field called key, the one
// encoding/json keeps of a repeated key, or nil (also for a nil node or
// one that is not a map).
func (n *Node) Last(key string) *Node {
	if n == nil {
		return nil
	}
	for i := len(n.Fields) - 1; i >= 0; i-- {
		if n.Fields[i].Key == key {
			return n.Fields[i].Val
		}
	}
	return nil
}

// IsNumber reports whether n is an integer or another number.
func (n *Node) IsNumber() bool { return n.Kind == Int || n.Kind == Float }

// Str is n's string value, "" for anything else (or nil).
func (n *Node) Str() string {
	if n == nil || n.Kind != String {
		return ""
	}
	return n.Text
}

// Describe names a node's type for messages: "want a string, got a list".
func (n *Node) Describe() string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case Null:
		return "null"
	case Bool:
		return "a boolean"
	case Int:
		return "an integer"
	case Float:
		return "a number"
	case String:
		return "a string"
	case Time, LocalTime:
		return "a date-time"
	case List:
		return "a list"
	default:
		return "an object"
	}
}

// IsScalar reports whether n is a string, number, boolean or date.
func (n *Node) IsScalar() bool {
	switch n.Kind {
	case Bool, Int, Float, String, Time, LocalTime:
		return true
	}
	return false
}

// AsText returns the text of a scalar used where a string is wanted
// (ids, names): what the file says, so that an unquoted YAML sha made of
// digits keeps its leading zeros.
func (n *Node) AsText() (string, bool) {
	switch n.Kind {
	case String, Time, LocalTime:
		return n.Text, true
	case Int, Float:
		if n.Text != "" {
			return n.Text, true
		}
		return n.AsParam()
	case Bool:
		return strconv.FormatBool(n.Bool), true
	}
	return "", false
}

// AsParam returns the canonical string of a scalar used as a parameter,
// context or label value: integers in decimal, floats in the shortest 'g'
// form, booleans as true/false, so that `n: 1000`, `n = 1000` and
// `"n": 1000` are the same parameter in every format.
func (n *Node) AsParam() (string, bool) {
	switch n.Kind {
	case String, Time, LocalTime:
		return n.Text, true
	case Int:
		return strconv.FormatInt(n.Int, 10), true
	case Float:
		return strconv.FormatFloat(n.Float, 'g', -1, 64), true
	case Bool:
		return strconv.FormatBool(n.Bool), true
	}
	return "", false
}

// Path tracks where a codec is in the document so that problems found
// while parsing (duplicate keys) name the field as validators do:
// `results[0].metric`. Segments are formatted only when a problem needs
// them.
type Path []PathSeg

// PathSeg is one step of a [Path]: a key, or an index when IsKey is
// false.
type PathSeg struct {
	Key   string
	Index int
	IsKey bool
}

func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case !s.IsKey:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case i > 0:
			b.WriteString("." + s.Key)
		default:
			b.WriteString(s.Key)
		}
	}
	return b.String()
}

// Key returns p with key k appended.
func (p Path) Key(k string) Path { return append(p, PathSeg{Key: k, IsKey: true}) }

// Index returns p with index i appended.
func (p Path) Index(i int) Path { return append(p, PathSeg{Index: i}) }
