package readkit

import (
	"strconv"
	"unicode/utf8"
)

// Problem is one thing wrong with an input file: the problem type every
// codec and reader returns (archive.Problem is this type). A problem that
// makes the file unusable is Fatal; the others are warnings and the rest
// of the file is kept.
type Problem struct {
	File  string // the file's path, or a git description ("results@abc123:run.json")
	Line  int    // 1-based; 0 when the problem has no line (or the reader cannot tell)
	Msg   string
	Fatal bool
	// Err is the cause, when the problem wraps an error that callers test
	// with errors.Is (a missing file); Msg is its text. Usually nil.
	Err error
}

// Error is "file:line: msg", or "file: msg" when Line is 0.
func (p Problem) Error() string {
	if p.Line > 0 {
		return p.File + ":" + strconv.Itoa(p.Line) + ": " + p.Msg
	}
	return p.File + ": " + p.Msg
}

// Unwrap returns the cause, if any.
func (p Problem) Unwrap() error { return p.Err }

// Wrap is a fatal problem whose message is err's, keeping err as its
// cause.
func Wrap(file string, line int, err error) *Problem {
	return &Problem{File: file, Line: line, Msg: err.Error(), Fatal: true, Err: err}
}

// ValidUTF8 returns data with every byte that is not UTF-8 replaced by
// U+FFFD, as encoding/json does inside strings, and a warning naming file
// and the line of the first (nil when data is valid): a name with a stray
// Latin-1 byte is worth keeping, but not silently (yaml.v3 and
// BurntSushi/toml would refuse the whole file; encoding/json would say
// nothing). Newlines are kept, so lines do not move.
func ValidUTF8(file string, data []byte) ([]byte, *Problem) {
	if utf8.Valid(data) {
		return data, nil
	}
	out := make([]byte, 0, len(data)+64)
	line, first, bad, lines, lastLine := 1, 0, 0, 0, 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
			bad++
			if lastLine != line {
				lines, lastLine = lines+1, line
			}
			if first == 0 {
				first = line
			}
		} else {
			out = append(out, data[i:i+size]...)
			if r == '\n' {
				line++
			}
		}
		i += size
	}
	what := "1 byte"
	if bad > 1 {
		what = strconv.Itoa(bad) + " bytes"
	}
	if lines > 1 {
		what += " on " + strconv.Itoa(lines) + " lines, the first here"
	}
	return out, &Problem{File: file, Line: first, Msg: "invalid UTF-8 (" + what + "), replaced with U+FFFD"}
}
