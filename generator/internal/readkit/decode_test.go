package readkit

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decodeTarget is what FuzzDecode decodes into: every kind of Go value
// Decode fills.
type decodeTarget struct {
	S     string             `json:"s"`
	P     *string            `json:"p"`
	F     float64            `json:"f"`
	I     int                `json:"i"`
	U     uint32             `json:"u"`
	B     bool               `json:"b"`
	L     []float64          `json:"l"`
	LL    [][]string         `json:"ll"`
	M     map[string]float64 `json:"m"`
	Inner *struct {
		X *float64 `json:"point_estimate"`
	} `json:"mean"`
	Name    string // no tag: its Go name
	Skipped string `json:"-"`
}

// FuzzDecode checks Decode against encoding/json's Unmarshal: the same
// values, and the same type error (value, type and field) when there is
// one.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"s": "a", "p": "b", "f": 1.5, "i": -3, "u": 7, "b": true, "l": [1, 2], "ll": [["a"], null], "m": {"x": 1}, "mean": {"point_estimate": 2}, "name": "n", "Skipped": "x"}`,
		`{"S": "case", "MEAN": {"POINT_ESTIMATE": 1}}`,
		`{"s": 1}`, `{"i": 1.5}`, `{"u": -1}`, `{"f": 1e999}`, `{"l": [1, "x"]}`, `{"mean": {"point_estimate": "x"}}`,
		`{"ll": [[1]]}`, `{"m": []}`, `{"s": null, "p": null, "l": null}`, `{"b": 0}`, `[1]`, `"x"`, `{"i": 99999999999999999999}`,
		`{"s": "a", "s": "b"}`, `{"mean": {"point_estimate": 1}, "mean": {}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		var want decodeTarget
		wantErr := json.Unmarshal(data, &want)
		// Without NumberText, a number that does not fit is named in its
		// shortest form rather than as written.
		for _, o := range []JSONOptions{{Duplicates: true, NumberText: true}, {Duplicates: true}} {
			n, _, p := ParseJSON("f.json", data, o)
			if p != nil {
				return // a cap
			}
			var got decodeTarget
			gotErr := Decode(n, &got)
			var we *json.UnmarshalTypeError
			var ge *TypeError
			switch {
			case wantErr == nil && gotErr == nil:
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("values differ (-encoding/json +Decode):\n%s", diff)
				}
			case errors.As(wantErr, &we) && errors.As(gotErr, &ge):
				value := we.Value
				if !o.NumberText {
					value, _, _ = strings.Cut(value, " ")
					ge.Value, _, _ = strings.Cut(ge.Value, " ")
				}
				if value != ge.Value || we.Type != ge.Type || we.Field != ge.Field || we.Struct != ge.Struct {
					t.Fatalf("encoding/json: %s %s %q %q; Decode: %s %s %q %q", we.Value, we.Type, we.Field, we.Struct, ge.Value, ge.Type, ge.Field, ge.Struct)
				}
				if o.NumberText && we.Error() != ge.Error() {
					t.Fatalf("encoding/json: %v; Decode: %v", we, ge)
				}
			default:
				t.Fatalf("encoding/json: %v; Decode: %v", wantErr, gotErr)
			}
		}
	})
}

func TestDecodeNode(t *testing.T) {
	data := []byte("{\"a\": 1,\n \"rest\": {\"x\": [1, 2]}}")
	n, _, p := ParseJSON("f.json", data, JSONOptions{})
	if p != nil {
		t.Fatal(p)
	}
	var v struct {
		A    int
		Rest *Node `json:"rest"`
	}
	if err := Decode(n, &v); err != nil {
		t.Fatal(err)
	}
	if v.A != 1 || v.Rest == nil || v.Rest.Line != 2 || Source(data, v.Rest) != `{"x": [1, 2]}` {
		t.Errorf("got %+v", v)
	}
	var s string
	err := Decode(v.Rest, &s)
	var te *TypeError
	if !errors.As(err, &te) || te.Line != 2 || te.Value != "object" {
		t.Errorf("Decode(object, string) = %v", err)
	}
}

// TestDecodeNumberText: with the numbers' text kept, a number is read as
// encoding/json reads it, beyond int64 and at -0 too.
func TestDecodeNumberText(t *testing.T) {
	type target struct {
		U uint64  `json:"u"`
		I int64   `json:"i"`
		B uint8   `json:"b"`
		F float64 `json:"f"`
		G float32 `json:"g"`
	}
	for _, doc := range []string{
		`{"u": 18446744073709551615}`, `{"u": 18446744073709551616}`, `{"u": 9223372036854775808}`, `{"u": -0}`,
		`{"u": 1e3}`, `{"u": 1.0}`, `{"i": -0}`, `{"i": 9223372036854775808}`, `{"i": -9223372036854775808}`,
		`{"i": -9223372036854775809}`, `{"b": 255}`, `{"b": 256}`, `{"b": -1}`, `{"f": -0}`, `{"f": 1e400}`,
		`{"g": 1e39}`, `{"g": 16777217}`, `{"g": 0.1}`,
	} {
		var want, got target
		wantErr := json.Unmarshal([]byte(doc), &want)
		n, _, p := ParseJSON("f.json", []byte(doc), JSONOptions{NumberText: true})
		if p != nil {
			t.Fatal(p)
		}
		gotErr := Decode(n, &got)
		switch {
		case wantErr == nil && gotErr == nil:
			if got != want || math.Signbit(got.F) != math.Signbit(want.F) {
				t.Errorf("%s: Decode %+v, encoding/json %+v", doc, got, want)
			}
		case wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error():
			t.Errorf("%s: Decode: %v; encoding/json: %v", doc, gotErr, wantErr)
		}
	}
}

func TestSource(t *testing.T) {
	data := []byte(`{"a": [1, 2.50, "x"], "b": {"c" : null}, "n": [1, 2], "d": -1e3, "e": "q\"\\"}`)
	n, _, p := ParseJSON("f.json", data, JSONOptions{})
	if p != nil {
		t.Fatal(p)
	}
	for _, tt := range []struct {
		n    *Node
		want string
	}{
		{n, string(data)},
		{n.Get("a"), `[1, 2.50, "x"]`},
		{n.Get("a").Elem(1), "2.5"}, // a number of the compact start of the list: no offset
		{n.Get("a").Elem(2), `"x"`},
		{n.Get("b"), `{"c" : null}`},
		{n.Get("b").Get("c"), "null"},
		{n.Get("n").Elem(0), "1"},
		{n.Get("d"), "-1e3"},
		{n.Get("e"), `"q\"\\"`},
	} {
		if got := Source(data, tt.n); got != tt.want {
			t.Errorf("Source = %s, want %s", got, tt.want)
		}
	}
	for _, tt := range []struct {
		n    *Node
		want []string
	}{
		{n.Get("a"), []string{"1", "2.50", `"x"`}},
		{n.Get("n"), []string{"1", "2"}},
	} {
		if got := ElemSources(data, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("ElemSources = %q, want %q", got, tt.want)
		}
	}
}

func TestParseJSONPartial(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		want string // the tree, as toAny prints it, with the partial nodes
		line int
		msg  string
	}{
		{"{\"a\": [1, 2], \"b\": [{\"c\": 1}, {\"c\":", "{a:[1 2] b:[{c:1} {}*]*}*", 1, "syntax error: unexpected end of JSON input (truncated file?)"},
		{"[1, 2,\n x]", "[1 2]*", 2, "syntax error: invalid character 'x' looking for beginning of value"},
		{`{"a": "b`, "{}*", 1, "syntax error: unexpected end of JSON input (truncated file?)"},
		{`[{"a": 1} 2]`, "[{a:1}]*", 1, "syntax error: invalid character '2' after array element"},
		{`[1] x`, "[1]", 1, "syntax error: invalid character 'x' after top-level value"},
		{`x`, "<nil>", 1, "syntax error: invalid character 'x' looking for beginning of value"},
	} {
		n, _, p := ParseJSON("f.json", []byte(tt.doc), JSONOptions{Partial: true, Duplicates: true})
		if got := partialString(n); got != tt.want {
			t.Errorf("%s: tree %s, want %s", tt.doc, got, tt.want)
		}
		var se *SyntaxError
		if p == nil || p.Line != tt.line || p.Msg != tt.msg || !errors.As(p, &se) || se.Truncated != (tt.msg == "syntax error: unexpected end of JSON input (truncated file?)") {
			t.Errorf("%s: problem %+v, want line %d: %s", tt.doc, p, tt.line, tt.msg)
		}
	}
}

// partialString prints a tree compactly, a * after a partial node.
func partialString(n *Node) string {
	if n == nil {
		return "<nil>"
	}
	s := ""
	switch n.Kind {
	case Map:
		s = "{"
		for i, f := range n.Fields {
			if i > 0 {
				s += " "
			}
			s += f.Key + ":" + partialString(f.Val)
		}
		s += "}"
	case List:
		s = "["
		for i, e := range n.Elems() {
			if i > 0 {
				s += " "
			}
			s += partialString(e)
		}
		s += "]"
	default:
		s, _ = n.AsParam()
	}
	if n.Partial {
		s += "*"
	}
	return s
}
