package sitemodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// Reading back a series data file. A nightly build rewrites a benchmark's
// last data file, and when the benchmark's files are longer than the
// site's chunk (ChunkLen) it takes the rows of the chunks it keeps from
// the file the previous build wrote (benchFile). encoding/json reads such
// a file through reflection and one UnmarshalJSON call per number: at the
// asv layout's M (2,000 one-series benchmarks, 256 positions a file) that
// was 1.2 of a nightly build's 3.4 CPU-seconds of planning. The files are
// ours and of one shape — an object of two numbers and flat arrays of
// numbers, nulls and strings —, so they are read by this scanner instead:
// every array element is parsed as the field's own UnmarshalJSON (or
// strconv for plain integers) would parse it, and anything else (a key it
// does not know, an object or array where a value is wanted, bytes after
// the object) makes the file unreadable, as a decoding error did before:
// the chunk is then computed. TestDecodeSeriesData checks it against
// encoding/json on the files of whole sites.

var errDataFile = errors.New("not a series data file")

// unmarshalSeriesData reads the JSON of a series data file into d.
func unmarshalSeriesData(b []byte, d *SeriesData) error {
	s := dataScanner{b: b}
	s.space()
	if !s.byte('{') {
		return errDataFile
	}
	s.space()
	if s.byte('}') {
		return s.end()
	}
	for {
		s.space()
		key, ok := s.key()
		if !ok {
			return errDataFile
		}
		s.space()
		if !s.byte(':') {
			return errDataFile
		}
		s.space()
		var err error
		switch key {
		case "from":
			d.From, err = s.int()
		case "n":
			d.N, err = s.int()
		case "ids":
			d.IDs, err = scanArray(&s, parseString)
		case "benches":
			d.Benches, err = scanArray(&s, parseString)
		case "str":
			d.Strings, err = scanArray(&s, parseString)
		case "len":
			d.Len, err = scanArray(&s, parseInt)
		case "bench":
			d.Bench, err = scanArray(&s, parseInt)
		case "prev":
			d.Prev, err = scanArray(&s, parseExact)
		default:
			err = d.Columns.scan(key, &s)
		}
		if err != nil {
			return err
		}
		s.space()
		if s.byte('}') {
			return s.end()
		}
		if !s.byte(',') {
			return errDataFile
		}
	}
}

// scan reads the array of column key.
func (c *Columns) scan(key string, s *dataScanner) (err error) {
	var ints *[]int
	switch key {
	case "pos":
		ints = &c.Pos
	case "s":
		ints = &c.Samples
	case "k":
		ints = &c.K
	case "note":
		ints = &c.Note
	case "zr":
		ints = &c.ZR
	case "pt":
		ints = &c.PT
	case "bt":
		ints = &c.BT
	case "ack":
		ints = &c.Ack
	case "ann":
		ints = &c.Ann
	case "err":
		ints = &c.Err
	case "rng":
		ints = &c.Rng
	case "co":
		ints = &c.CO
	case "ev":
		ints = &c.EV
	case "v":
		c.V, err = scanArray(s, parseExact)
	case "b":
		c.B, err = scanArray(s, parseExact)
	case "cv":
		c.CV, err = scanArray(s, parseExact)
	case "mean":
		c.Mean, err = scanArray(s, parseRounded)
	case "std":
		c.Std, err = scanArray(s, parseRounded)
	case "t":
		c.T, err = scanArray(s, parseFixed)
	case "f":
		c.F, err = scanArray(s, parseFixed)
	case "z":
		c.Z, err = scanArray(s, parseFixed)
	case "p":
		c.P, err = scanArray(s, parseFixed)
	default:
		err = errDataFile
	}
	if ints != nil {
		*ints, err = scanArray(s, parseInt)
	}
	return err
}

// dataScanner reads the JSON of a series data file.
type dataScanner struct {
	b []byte
	i int
}

func (s *dataScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte consumes c if it is next.
func (s *dataScanner) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end says whether only white space follows.
func (s *dataScanner) end() error {
	s.space()
	if s.i != len(s.b) {
		return errDataFile
	}
	return nil
}

// key reads an object key: the files' keys are plain ASCII.
func (s *dataScanner) key() (string, bool) {
	tok, ok := s.token()
	if !ok || len(tok) < 2 || tok[0] != '"' || bytes.IndexByte(tok, '\\') >= 0 {
		return "", false
	}
	return string(tok[1 : len(tok)-1]), true
}

// int reads a number that is an integer.
func (s *dataScanner) int() (int, error) {
	tok, ok := s.token()
	if !ok {
		return 0, errDataFile
	}
	return parseInt(tok)
}

// token returns the next scalar: a string with its quotes, or the bytes
// of a number or literal up to the next delimiter.
func (s *dataScanner) token() ([]byte, bool) {
	start := s.i
	if s.i >= len(s.b) {
		return nil, false
	}
	if s.b[s.i] == '"' {
		for s.i++; s.i < len(s.b); s.i++ {
			switch s.b[s.i] {
			case '\\':
				s.i++
			case '"':
				s.i++
				return s.b[start:s.i], true
			}
		}
		return nil, false
	}
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', ']', '}', ':', ' ', '\t', '\n', '\r':
			return s.b[start:s.i], s.i > start
		case '[', '{', '"':
			return nil, false
		}
		s.i++
	}
	return s.b[start:s.i], s.i > start
}

// scanArray reads a flat array, each element parsed by parse. An empty
// array is an empty slice and null is nil, as encoding/json reads them.
func scanArray[T any](s *dataScanner, parse func([]byte) (T, error)) ([]T, error) {
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += len("null")
		return nil, nil
	}
	if !s.byte('[') {
		return nil, errDataFile
	}
	// Room for the array's elements at once: its commas up to the first
	// ']' (a guess for an array of strings holding one; a bad guess only
	// costs a growth).
	rest := s.b[s.i:]
	if end := bytes.IndexByte(rest, ']'); end >= 0 {
		rest = rest[:end]
	}
	out := make([]T, 0, bytes.Count(rest, []byte{','})+1)
	s.space()
	if s.byte(']') {
		return out, nil
	}
	for {
		s.space()
		tok, ok := s.token()
		if !ok {
			return nil, errDataFile
		}
		x, err := parse(tok)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
		s.space()
		if s.byte(']') {
			return out, nil
		}
		if !s.byte(',') {
			return nil, errDataFile
		}
	}
}

func parseInt(tok []byte) (int, error) {
	if !jsonNumber(tok) {
		return 0, errDataFile
	}
	return strconv.Atoi(string(tok))
}

func parseExact(tok []byte) (Exact, error) {
	f, err := parseNumber(tok)
	return Exact(f), err
}

func parseRounded(tok []byte) (Rounded, error) {
	f, err := parseNumber(tok)
	return Rounded(f), err
}

// parseNumber is unmarshalNumber of a JSON number or null.
func parseNumber(tok []byte) (float64, error) {
	if string(tok) != "null" && !jsonNumber(tok) {
		return 0, errDataFile
	}
	return unmarshalNumber(tok)
}

func parseFixed(tok []byte) (Fixed, error) {
	var f Fixed
	if tok[0] != '"' && string(tok) != "null" && !jsonNumber(tok) {
		return f, errDataFile
	}
	err := f.UnmarshalJSON(tok)
	return f, err
}

// jsonNumber says whether tok is a number in JSON's grammar (which
// strconv's is wider than: "+1", "Inf", "0x10", "1_0").
func jsonNumber(tok []byte) bool {
	i := 0
	if i < len(tok) && tok[i] == '-' {
		i++
	}
	switch {
	case i < len(tok) && tok[i] == '0':
		i++
	case i < len(tok) && tok[i] >= '1' && tok[i] <= '9':
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		if i >= len(tok) || tok[i] < '0' || tok[i] > '9' {
			return false
		}
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		if i >= len(tok) || tok[i] < '0' || tok[i] > '9' {
			return false
		}
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
	}
	return i == len(tok)
}

// parseString reads a JSON string: without escapes and valid UTF-8, its
// bytes; otherwise as encoding/json reads it.
func parseString(tok []byte) (string, error) {
	if len(tok) < 2 || tok[0] != '"' {
		return "", errDataFile
	}
	inner := tok[1 : len(tok)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) && !hasControl(inner) {
		return string(inner), nil
	}
	var t string
	err := json.Unmarshal(tok, &t)
	return t, err
}

// hasControl says whether b holds a byte JSON does not allow in a string.
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}
