package foreign

import (
	"bytes"
	"encoding/json"
	"errors"

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
	root, err := asvSplit(lx, off, raw, readkit.Map)
	if err != nil {
		return nil, err
	}
	first := lx.At(int(off))
	entries := make([]asvEntry, len(root.Fields))
	for i, m := range asvMembers(root) {
		entries[i] = asvEntry{Key: m.Key, Line: first + m.Line - 1, Off: off + int64(m.Val.Off), Raw: []byte(readkit.Source(raw, m.Val)), Dup: m.Dup}
	}
	return entries, nil
}

// asvArray reads the elements of the JSON array raw, valid JSON that
// starts at off in the document lx indexes (for line numbers).
func asvArray(lx *readkit.Lines, off int64, raw []byte) ([]asvEntry, *asvSyntaxError) {
	root, err := asvSplit(lx, off, raw, readkit.List)
	if err != nil {
		return nil, err
	}
	first := lx.At(int(off))
	elems := make([]asvEntry, root.Len())
	for i, e := range root.Items {
		elems[i] = asvEntry{Line: first + e.Line - 1, Off: off + int64(e.Off), Raw: []byte(readkit.Source(raw, e))}
	}
	return elems, nil
}

// asvSplit parses raw, a value of kind at off in the document lx indexes,
// every value with its offset (no compact lists).
func asvSplit(lx *readkit.Lines, off int64, raw []byte, kind readkit.Kind) (*readkit.Node, *asvSyntaxError) {
	root, end, perr := parseJSON("", raw, readkit.JSONOptions{Trailing: true, Duplicates: true, NumberText: true, Partial: true})
	if err := asvCheck(raw, root, end, perr, kind); err != nil {
		first := lx.At(int(off))
		err.line = first + max(err.line, 1) - 1
		return nil, err
	}
	return root, nil
}

// asvShort quotes at most 40 bytes of a raw value for a message.
func asvShort(raw []byte) string { return asvShortText(string(bytes.TrimSpace(raw))) }

func asvIsNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

// asvTypeError words an encoding/json type error without Go type names.
func asvTypeError(err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return asvTypeMsg(&readkit.TypeError{Value: typ.Value, Type: typ.Type, Field: typ.Field})
	}
	return err.Error()
}
