package readkit

import "bytes"

// LineAt is the 1-based line of the byte at offset off of data: one plus
// the newlines before it, so a newline belongs to the line it ends. An
// offset at or past the end is the last byte's line (a file that ends in a
// newline has no line after it); a negative one is line 1. This is the
// one rule every reader uses.
func LineAt(data []byte, off int) int {
	off = min(off, len(data)-1)
	if off <= 0 {
		return 1
	}
	return 1 + bytes.Count(data[:off], nl)
}

// ErrorLine is the line of an error found after reading n bytes of data
// (encoding/json's SyntaxError.Offset, a decoder's InputOffset): the line
// of the last byte read. The end of the input is its last line.
func ErrorLine(data []byte, n int64) int {
	return LineAt(data, int(min(n, int64(len(data))))-1)
}

var nl = []byte("\n")
