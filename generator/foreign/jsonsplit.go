package foreign

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// jsonPart is one member of a JSON object (Key set) or one element of a
// JSON array, with the offsets, in the split value, of its key's opening
// quote and of its value.
type jsonPart struct {
	Key    string
	KeyOff int
	Off    int
	Raw    []byte
}

// splitJSON splits a JSON object or array into its members or elements,
// in order; kind is '{' or '[', or 0 when raw is neither. raw must be
// valid JSON (a json.RawMessage from a decoder, or checked with
// json.Valid): it is not checked again.
//
// The readers used to do this with a json.Decoder per value, whose buffers
// cost ~2 KB each: for a hostile list of a million tiny elements that was
// nearly all of the memory a file took (1,500 bytes per byte of input).
// This costs the parts and nothing else.
func splitJSON(raw []byte) (kind byte, parts []jsonPart) {
	i := jsonSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' && raw[i] != '[' {
		return 0, nil
	}
	kind = raw[i]
	i = jsonSpace(raw, i+1)
	if i < len(raw) && (raw[i] == '}' || raw[i] == ']') {
		return kind, nil
	}
	// Count the parts first, so that the list is allocated once.
	n := 0
	for j := i; j < len(raw); {
		if kind == '{' {
			j = jsonSpace(raw, jsonSkip(raw, j)+1) // the key, ':'
		}
		j = jsonSpace(raw, jsonSkip(raw, j))
		n++
		if j >= len(raw) || raw[j] != ',' {
			break
		}
		j = jsonSpace(raw, j+1)
	}
	parts = make([]jsonPart, 0, n)
	for i < len(raw) {
		var p jsonPart
		if kind == '{' {
			end := jsonSkip(raw, i)
			p.KeyOff, p.Key = i, jsonKey(raw[i:end])
			i = jsonSpace(raw, jsonSpace(raw, end)+1) // ':'
		}
		end := jsonSkip(raw, i)
		p.Off, p.Raw = i, raw[i:end:end]
		parts = append(parts, p)
		i = jsonSpace(raw, end)
		if i >= len(raw) || raw[i] != ',' {
			break
		}
		i = jsonSpace(raw, i+1)
	}
	return kind, parts
}

// jsonSpace returns the offset of the first byte at or after i that is
// not JSON white space.
func jsonSpace(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// jsonSkip returns the offset just past the valid JSON value at i.
func jsonSkip(raw []byte, i int) int {
	if i >= len(raw) {
		return i
	}
	switch raw[i] {
	case '"':
		for i++; i < len(raw); i++ {
			switch raw[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return i
	case '{', '[':
		depth := 0
		for ; i < len(raw); i++ {
			switch raw[i] {
			case '"':
				i = jsonSkip(raw, i) - 1
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
	for ; i < len(raw); i++ {
		switch raw[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}

// jsonKey decodes a JSON string, quotes included, as encoding/json does
// (invalid UTF-8 becomes U+FFFD).
func jsonKey(quoted []byte) string {
	if len(quoted) >= 2 && bytes.IndexByte(quoted, '\\') < 0 && utf8.Valid(quoted) {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	_ = json.Unmarshal(quoted, &s)
	return s
}
