package readkit

import (
	"bytes"
	"sort"
)

// LineAt is the 1-based line of the byte at offset off of data: one plus
// the newlines before it, so a newline belongs to the line it ends. An
// offset at or past the end is the last byte's line (a file that ends in a
// newline has no line after it); a negative one is line 1. This is the
// one rule every reader uses; [Lines] is the same rule indexed.
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

// Lines finds the line of an offset in O(log lines), for readers that
// look up many: counting newlines from the start for every value is
// quadratic in the size of a file of tiny values. The rule is [LineAt]'s.
type Lines struct {
	size     int
	newlines []int // offsets of the '\n' bytes
}

// NewLines indexes data.
func NewLines(data []byte) *Lines {
	l := &Lines{size: len(data), newlines: make([]int, 0, bytes.Count(data, nl))}
	for i, c := range data {
		if c == '\n' {
			l.newlines = append(l.newlines, i)
		}
	}
	return l
}

// At is [LineAt] of the indexed data.
func (l *Lines) At(off int) int {
	off = min(off, l.size-1)
	if off <= 0 {
		return 1
	}
	return 1 + sort.SearchInts(l.newlines, off)
}
