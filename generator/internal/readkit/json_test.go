package readkit

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// toAny converts a tree to what encoding/json decodes with UseNumber (the
// last of duplicated keys wins, as there). Numbers are compared by value.
func toAny(n *Node) any {
	switch n.Kind {
	case Map:
		m := map[string]any{}
		for _, f := range n.Fields {
			m[f.Key] = toAny(f.Val)
		}
		return m
	case List:
		a := []any{}
		for _, e := range n.Elems() {
			a = append(a, toAny(e))
		}
		return a
	case String:
		return n.Text
	case Int, Float:
		return n.Float
	case Bool:
		return n.Bool
	}
	return nil
}

func stdAny(t *testing.T, data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var conv func(v any) any
	conv = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				v[k] = conv(x)
			}
		case []any:
			for i, x := range v {
				v[i] = conv(x)
			}
		case json.Number:
			f, _ := strconv.ParseFloat(string(v), 64) // ±Inf out of range, as the parser
			return f
		}
		return v
	}
	return conv(v)
}

// FuzzParseJSON checks the parser against encoding/json: the same
// validity and the same values, in every mode.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"schema": "perfpages.run.v1", "results": [{"benchmark": "a", "samples": [1, 2.5, -3e2]}]}`,
		`{"parse/large": {"latency": {"value": 88.0, "lower_value": 87.4, "upper_value": 88.9}}}`,
		`[{"name": "a", "unit": "ns/iter", "value": 12}]`,
		`"a\u00e9\ud83d\ude00\n"`, `{"a":1,"a":2}`, `[1e999, -0, 0.5e-3, true, false, null]`, "\"\xff\"",
		`01`, `{"a" 1}`, `[1,]`, `[1, "x", 2]`, "[\"\\ud800\"]", `{} x`, ` `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range []JSONOptions{{}, {Duplicates: true, NumberText: true, Trailing: true}, {Duplicates: true, Partial: true}} {
			n, end, p := ParseJSON("f.json", data, o)
			if p != nil && strings.Contains(p.Msg, "levels deep") {
				return // encoding/json allows deeper nesting
			}
			if p != nil && (p.File != "f.json" || !p.Fatal || p.Line < 0 || p.Line > LineAt(data, len(data))) {
				t.Fatalf("bad problem %+v", p)
			}
			valid := json.Valid(data)
			ok := p == nil
			if ok && o.Trailing && len(bytes.TrimLeft(data[end:], " \t\r\n")) > 0 {
				ok = false
			}
			if dup := p != nil && strings.HasPrefix(p.Msg, "duplicate field"); dup {
				if !valid {
					t.Fatalf("duplicate reported before the syntax error: %v", p)
				}
				continue
			}
			if ok != valid {
				t.Fatalf("options %+v: ok=%v (problem %v), json.Valid %v", o, ok, p, valid)
			}
			if !valid {
				continue
			}
			if diff := cmp.Diff(stdAny(t, data), toAny(n)); diff != "" {
				t.Fatalf("values differ (-encoding/json +ParseJSON):\n%s", diff)
			}
		}
	})
}

func TestParseJSONLines(t *testing.T) {
	data := []byte("{\n  \"a\": [1,\n    2],\n  \"b\": {\"c\": \"x\"},\n  \"d\":\n    null\n}\n")
	n, end, p := ParseJSON("f.json", data, JSONOptions{})
	if p != nil {
		t.Fatal(p)
	}
	if end != len(data)-1 {
		t.Errorf("end = %d, want %d", end, len(data)-1)
	}
	type pos struct {
		key        string
		keyLine    int
		valueLine  int
		valueLines []int
	}
	var got []pos
	for _, f := range n.Fields {
		q := pos{key: f.Key, keyLine: f.Line, valueLine: f.Val.Line}
		for _, x := range f.Val.Nums {
			q.valueLines = append(q.valueLines, int(x.Line))
		}
		got = append(got, q)
	}
	want := []pos{{"a", 2, 2, []int{2, 3}}, {"b", 4, 4, nil}, {"d", 5, 6, nil}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(pos{})); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestParseJSONProblems(t *testing.T) {
	tests := []struct {
		name string
		data string
		o    JSONOptions
		want string // "" for none
	}{
		{"empty", " \n ", JSONOptions{}, "f: empty document"},
		{"syntax error in encoding/json's words", "{\n\"a\": 1,\n}", JSONOptions{}, `f:3: syntax error: invalid character '}' looking for beginning of object key string`},
		{"truncated: the last line", "{\"a\": [1,\n", JSONOptions{}, "f:1: syntax error: unexpected end of JSON input (truncated file?)"},
		{"truncated with trailing allowed", "[\n1,\n", JSONOptions{Trailing: true}, "f:2: syntax error: unexpected end of JSON input (truncated file?)"},
		{"trailing text refused", "{}\nx", JSONOptions{}, "f:2: syntax error: invalid character 'x' after top-level value"},
		{"trailing text allowed", "{}\nx", JSONOptions{Trailing: true}, ""},
		{"duplicate key with its path", "{\"r\": [{\"m\": 1,\n\"m\": 2}]}", JSONOptions{}, `f:2: duplicate field "r[0].m" (first at line 1)`},
		{"duplicates kept", `{"m": 1, "m": 2}`, JSONOptions{Duplicates: true}, ""},
		{"a syntax error comes before a duplicate", "{\"m\": 1, \"m\": 2,\n]", JSONOptions{}, "f:2: syntax error: invalid character ']' looking for beginning of object key string"},
		{"too many values", `[[1], [2]]`, JSONOptions{MaxValues: 3, Allowed: "allowed here"}, "f:1: more than 3 values (objects, lists, strings, numbers…), the most allowed here"},
		{"too deep", `[[[1]]]`, JSONOptions{MaxDepth: 2}, "f:1: nested more than 2 levels deep"},
		{"too long a string", `["abcdef"]`, JSONOptions{MaxString: 4}, "f:1: a string of 6 bytes, longer than the 4 bytes a value may be"},
		{"a cap on a broken file gives the syntax error", `[[1], [2]`, JSONOptions{MaxValues: 3}, "f:1: syntax error: unexpected end of JSON input (truncated file?)"},
		{"start past a prefix", "x = \n[1,\n2]", JSONOptions{Start: 5}, ""},
		{"start past a prefix, error line counts from the file", "x = \n[1,\n2,]", JSONOptions{Start: 5}, "f:3: syntax error: invalid character ']' looking for beginning of value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, p := ParseJSON("f", []byte(tt.data), tt.o)
			got := ""
			if p != nil {
				got = p.Error()
				if !p.Fatal {
					t.Error("not fatal")
				}
			}
			if got != tt.want {
				t.Errorf("problem = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseJSONNumbers(t *testing.T) {
	n, _, p := ParseJSON("f", []byte(`[1, 2.50, 1e999, -0]`), JSONOptions{NumberText: true})
	if p != nil {
		t.Fatal(p)
	}
	var got []string
	for _, e := range n.Elems() {
		got = append(got, e.Describe()+" "+e.Text+" "+strconv.FormatFloat(e.Float, 'g', -1, 64))
	}
	want := []string{"an integer 1 1", "a number 2.50 2.5", "a number 1e999 +Inf", "an integer -0 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Without NumberText a list of numbers is compact, and only an
	// out-of-range number keeps its text (for messages), in a node.
	n, _, _ = ParseJSON("f", []byte(`[1, 2]`), JSONOptions{})
	if len(n.Nums) != 2 || len(n.Items) != 0 {
		t.Fatalf("not compact: %+v", n)
	}
	n, _, _ = ParseJSON("f", []byte(`[1, 1e999]`), JSONOptions{})
	if len(n.Nums) != 0 || len(n.Items) != 2 || n.Items[0].Int != 1 || n.Items[1].Text != "1e999" || Source([]byte(`[1, 1e999]`), n.Items[1]) != "1e999" {
		t.Fatalf("compact with an out-of-range number: %+v", n)
	}
	n, _, _ = ParseJSON("f", []byte(`{"x": 1e999, "y": 2.50}`), JSONOptions{})
	if n.Get("x").Text != "1e999" || n.Get("y").Text != "" {
		t.Errorf("texts %q, %q", n.Get("x").Text, n.Get("y").Text)
	}
}

func TestParseJSONIntern(t *testing.T) {
	calls := 0
	intern := func(b []byte) (string, bool) {
		calls++
		return "", false
	}
	if _, _, p := ParseJSON("f", []byte(`{"a": "b", "c": "d\n"}`), JSONOptions{Intern: intern}); p != nil {
		t.Fatal(p)
	}
	if calls != 3 { // "d\n" has an escape: decoded, not interned
		t.Errorf("intern called %d times, want 3", calls)
	}
}
