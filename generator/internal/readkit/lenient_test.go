package readkit

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestLenient(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[1, 2]`, `[1, 2]`},
		{`[NaN, Infinity, -Infinity]`, `["NaN", "Infinity", "-Infinity"]`},
		{`{"NaN": NaN, "s": "a \"NaN\" Infinity"}`, `{"NaN": "NaN", "s": "a \"NaN\" Infinity"}`},
		{`{"a\\": NaN}`, `{"a\\": "NaN"}`},
		{"[\nNaN,\nnull]", "[\n\"NaN\",\nnull]"},
		{`[-1, -Infinity]`, `[-1, "-Infinity"]`},
		{`{"x": "Infinity"}`, `{"x": "Infinity"}`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := Lenient([]byte(tt.in))
			if string(got) != tt.want {
				t.Errorf("Lenient(%s) = %s, want %s", tt.in, got, tt.want)
			}
			if bytes.Count(got, nl) != bytes.Count([]byte(tt.in), nl) {
				t.Errorf("lines moved")
			}
			if json.Valid([]byte(tt.want)) && !json.Valid(got) {
				t.Errorf("not valid JSON: %s", got)
			}
		})
	}
}

func TestLenientLeavesCleanInputAlone(t *testing.T) {
	in := []byte(`{"a": [1, 2.5e3, null]}`)
	if out := Lenient(in); &out[0] != &in[0] {
		t.Error("a document without the tokens was copied")
	}
}

func TestNonFinite(t *testing.T) {
	tests := []struct {
		raw  string
		want float64
		ok   bool
	}{
		{`NaN`, math.NaN(), true},
		{` Infinity `, math.Inf(1), true},
		{`"-Infinity"`, math.Inf(-1), true},
		{`"nan"`, 0, false},
		{`1.5`, 0, false},
		{`null`, 0, false},
	}
	for _, tt := range tests {
		n, _, p := ParseJSON("f.json", []byte(tt.raw), JSONOptions{NonFinite: true})
		if p != nil {
			t.Fatal(p)
		}
		got, ok := NonFinite(n)
		if ok != tt.ok || ok && !(got == tt.want || math.IsNaN(got) && math.IsNaN(tt.want)) {
			t.Errorf("NonFinite(%s) = %v, %v; want %v, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

// TestParseJSONNonFinite: JSONOptions.NonFinite parses a document into the
// tree that Lenient's document parses into, and rejects what it rejects.
func TestParseJSONNonFinite(t *testing.T) {
	for _, in := range []string{
		`[1, 2]`,
		`[NaN, Infinity, -Infinity]`,
		`{"NaN": NaN, "s": "a \"NaN\" Infinity"}`,
		`{"a\\": NaN}`,
		"[\nNaN,\nnull]",
		`[-1, -Infinity, 2.5]`,
		`{"x": [[0.1, NaN], [Infinity]], "y": -Infinity}`,
		`[NaNx]`,
		`[Nan]`,
		`[-Inf]`,
		`-`,
	} {
		t.Run(in, func(t *testing.T) {
			want, _, wantErr := ParseJSON("f.json", Lenient([]byte(in)), JSONOptions{})
			got, _, err := ParseJSON("f.json", []byte(in), JSONOptions{NonFinite: true})
			if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("error %v, Lenient's document %v", err, wantErr)
			}
			// Offsets differ: Lenient's document has quotes the file has not.
			if d := cmp.Diff(want, got, cmpopts.IgnoreFields(Node{}, "Off")); d != "" {
				t.Errorf("tree differs from Lenient's document's (-want +got):\n%s", d)
			}
		})
	}
}
