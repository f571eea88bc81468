package readkit

import (
	"bytes"
	"math"
)

// Lenient turns the bare NaN, Infinity and -Infinity tokens that Python's
// json module (asv, pytest-benchmark) and Google Benchmark write for
// non-finite numbers into the JSON strings "NaN", "Infinity" and
// "-Infinity", so that encoding/json reads the document; text inside
// strings is left alone. No newline is added or removed, so every line
// stays the file's (offsets after a token move by two bytes: readers
// index the returned document). A reader expecting a number takes those
// strings back with [NonFinite]. data is returned as it is when it holds
// no such token.
func Lenient(data []byte) []byte {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data
	}
	var out []byte
	last := 0
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		var token string
		switch {
		case c == '"':
			inString = true
			continue
		case c == 'N' && bytes.HasPrefix(data[i:], []byte("NaN")):
			token = "NaN"
		case c == 'I' && bytes.HasPrefix(data[i:], []byte("Infinity")):
			token = "Infinity"
		case c == '-' && bytes.HasPrefix(data[i:], []byte("-Infinity")):
			token = "-Infinity"
		default:
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(data)+64)
		}
		out = append(out, data[last:i]...)
		out = append(out, '"')
		out = append(out, token...)
		out = append(out, '"')
		i += len(token) - 1
		last = i + 1
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// NonFinite reads a value that [JSONOptions.NonFinite] (or [Lenient])
// may have made of a non-finite number: the string "NaN", "Infinity" or
// "-Infinity". ok is false for anything else.
func NonFinite(n *Node) (x float64, ok bool) {
	if n.Kind != String {
		return 0, false
	}
	switch n.Text {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	return 0, false
}
