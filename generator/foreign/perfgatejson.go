package foreign

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"

	"github.com/perfpages/perfpages/generator/internal/readkit"
)

// The JSON helpers of the perfgate receipt reader (perfgate.go), which
// splits a receipt into members here, on readkit, and decodes each member
// with encoding/json.

// asvEntry is one member of a JSON object, or element of a JSON array, in
// file order.
type asvEntry struct {
	Key  string
	Line int   // of the key (of an element, its first line), in the whole document
	Off  int64 // of the value, in the whole document
	Raw  json.RawMessage
	Dup  bool // the key appeared earlier in the object
}

// asvObject reads the members of the JSON object raw, which starts at off
// in the document lx indexes (for line numbers), with nothing after it
// (top is always true).
func asvObject(lx *readkit.Lines, off int64, raw []byte, top bool) ([]asvEntry, *asvSyntaxError) {
	a := splitArenas.Get().(*readkit.Arena)
	defer func() { a.Reset(); splitArenas.Put(a) }()
	root, err := asvSplit(lx, off, raw, a)
	if err != nil {
		return nil, err
	}
	first := lx.At(int(off))
	entries := make([]asvEntry, len(root.Fields))
	for i, m := range asvMembers(root) {
		text, _ := readkit.Span(raw, m.Val)
		entries[i] = asvEntry{Key: m.Key, Line: first + m.Line - 1, Off: off + int64(m.Val.Off), Raw: text, Dup: m.Dup}
	}
	return entries, nil
}

// asvArray reads the elements of the JSON array raw, valid JSON (a value
// asvObject returned) that starts at off in the document lx indexes (for
// line numbers).
func asvArray(lx *readkit.Lines, off int64, raw []byte) ([]asvEntry, *asvSyntaxError) {
	i := len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
	if i == len(raw) || raw[i] != '[' {
		return nil, &asvSyntaxError{line: lx.At(int(off)), msg: "not a JSON array"}
	}
	parts := readkit.Elements(raw, i)
	elems := make([]asvEntry, len(parts))
	for k, e := range parts {
		start := off + int64(e[0])
		elems[k] = asvEntry{Line: lx.At(int(start)), Off: start, Raw: raw[e[0]:e[1]:e[1]]}
	}
	return elems, nil
}

// splitArenas hold the trees asvObject splits an object with: what it
// returns are parts of the object, not of the tree.
var splitArenas = sync.Pool{New: func() any { return new(readkit.Arena) }}

// asvSplit parses raw, an object at off in the document lx indexes, in
// arena.
func asvSplit(lx *readkit.Lines, off int64, raw []byte, arena *readkit.Arena) (*readkit.Node, *asvSyntaxError) {
	root, end, perr := parseJSON("", raw, readkit.JSONOptions{Trailing: true, Duplicates: true, Partial: true, Arena: arena})
	if err := asvCheck(raw, root, end, perr, readkit.Map); err != nil {
		first := lx.At(int(off))
		err.line = first + max(err.line, 1) - 1
		return nil, err
	}
	return root, nil
}

// asvShort quotes at most 40 bytes of a raw value for a message.
func asvShort(raw []byte) string { return asvShortText(string(bytes.TrimSpace(raw))) }

// asvIsNull reports whether a raw value is null.
func asvIsNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

// asvTypeError words an encoding/json type error without Go type names.
func asvTypeError(err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return asvTypeMsg(&readkit.TypeError{Value: typ.Value, Type: typ.Type, Field: typ.Field})
	}
	return err.Error()
}
