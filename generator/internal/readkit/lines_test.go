package readkit

import (
	"encoding/json"
	"errors"
	"testing"
)

// The one edge rule: a byte is on the line it is on, a newline on the line
// it ends, the end of the input on the last byte's line.
func TestLineAt(t *testing.T) {
	const doc = "ab\ncd\n\nef\n" // lines: "ab", "cd", "", "ef"
	tests := []struct {
		name string
		data string
		off  int
		want int
	}{
		{"first byte", doc, 0, 1},
		{"last byte of a line", doc, 1, 1},
		{"a newline ends its line", doc, 2, 1},
		{"first byte after a newline", doc, 3, 2},
		{"an empty line is its newline", doc, 6, 3},
		{"last line", doc, 7, 4},
		{"the final newline", doc, 9, 4},
		{"the end is the last byte's line, not one after", doc, 10, 4},
		{"past the end", doc, 99, 4},
		{"negative", doc, -5, 1},
		{"no final newline: the end is the last line", "ab\ncd", 5, 2},
		{"empty input", "", 0, 1},
		{"a lone newline", "\n", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LineAt([]byte(tt.data), tt.off); got != tt.want {
				t.Errorf("LineAt(%q, %d) = %d, want %d", tt.data, tt.off, got, tt.want)
			}
		})
	}
}

// An error found after reading n bytes is on the line of the last byte
// read: encoding/json's offsets count the offending byte.
func TestErrorLine(t *testing.T) {
	tests := []struct {
		name, data string
		want       int
	}{
		{"bad byte at the start of line 2", "{\n x}", 2},
		{"bad byte right after a newline", "[1,\n]", 2},
		{"truncated after a final newline", "{\"a\": [1,\n", 1},
		{"truncated on line 3", "[\n1,\n2", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			err := json.Unmarshal([]byte(tt.data), &v)
			var se *json.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("no syntax error: %v", err)
			}
			if got := ErrorLine([]byte(tt.data), se.Offset); got != tt.want {
				t.Errorf("ErrorLine(%q, %d) (%v) = %d, want %d", tt.data, se.Offset, se, got, tt.want)
			}
		})
	}
}
