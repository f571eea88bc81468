package inert_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/perfpages/perfpages/generator/inert"
)

func TestLine(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"plain name unchanged", "json-decode{size=large}", "json-decode{size=large}"},
		{"unicode letters unchanged", "café 😀 日本", "café 😀 日本"},
		{"backslash unchanged", `C:\results\run.json`, `C:\results\run.json`},
		{"zero-width space unchanged", "@\u200badmin", "@\u200badmin"},
		{"newline forging a log line", "x\nperfpages: note: all good", `x\nperfpages: note: all good`},
		{"carriage return and tab", "a\rb\tc", `a\rb\tc`},
		{"terminal escape", "esc\x1b[31mred\x1b]0;title\x07", `esc\x1b[31mred\x1b]0;title\x07`},
		{"NUL and DEL", "nul\x00del\x7f", `nul\x00del\x7f`},
		{"C1 controls", "nel\u0085csi\u009b", `nel\u0085csi\u009b`},
		{"line and paragraph separators", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"right-to-left override", "evil\u202etxt.exe", `evil\u202etxt.exe`},
		{"every bidi control", "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
			`\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c`},
		{"invalid UTF-8", "bad\xffutf8\xc3", `bad\xffutf8\xc3`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := inert.Line(tt.in); got != tt.want {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPageAndJSON(t *testing.T) {
	page := []byte("<td title=\"a\u202eb\">c\u2067d\u061c</td> … – ±")
	if got, want := string(inert.Page(page)), `<td title="a\u202eb">c\u2067d\u061c</td> … – ±`; got != want {
		t.Errorf("Page = %q, want %q", got, want)
	}
	clean := []byte("<p>nothing … to do – here</p>")
	if got := inert.Page(clean); &got[0] != &clean[0] {
		t.Error("Page copied a page without bidirectional characters")
	}
	enc, err := json.Marshal(map[string]string{"name": "evil\u202etxt.exe\u200f"})
	if err != nil {
		t.Fatal(err)
	}
	var dec map[string]string
	if err := json.Unmarshal(inert.JSON(enc), &dec); err != nil {
		t.Fatalf("JSON made invalid JSON: %v (%s)", err, inert.JSON(enc))
	}
	if got, want := dec["name"], `evil\u202etxt.exe\u200f`; got != want {
		t.Errorf("JSON decodes to %q, want %q", got, want)
	}
}

// checkLine fails when line could act on a terminal or split a log.
func checkLine(t *testing.T, in, line string) {
	t.Helper()
	if !utf8.ValidString(line) {
		t.Fatalf("Line(%q) = %q: not UTF-8", in, line)
	}
	for _, r := range line {
		if inert.Escaped(r) {
			t.Fatalf("Line(%q) = %q: holds %U", in, line, r)
		}
	}
}

func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "json-decode", "a\nb", "\x1b[2J", "\u202eabc", "\xff\xfe", "a\u2028b", `\x1b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line := inert.Line(s)
		checkLine(t, s, line)
		if again := inert.Line(line); again != line {
			t.Fatalf("Line is not idempotent on %q: %q then %q", s, line, again)
		}
		// A string with nothing to escape comes back as it is.
		if !strings.ContainsFunc(s, inert.Escaped) && utf8.ValidString(s) && line != s {
			t.Fatalf("Line(%q) = %q changed a clean string", s, line)
		}
		for _, out := range [][]byte{inert.Page([]byte(s)), inert.JSON([]byte(s))} {
			for i := 0; i < len(out); {
				r, size := utf8.DecodeRune(out[i:])
				if inert.IsBidi(r) {
					t.Fatalf("Page or JSON of %q kept %U: %q", s, r, out)
				}
				i += size
			}
		}
		enc, _ := json.Marshal(s)
		var dec string
		if err := json.Unmarshal(inert.JSON(enc), &dec); err != nil {
			t.Fatalf("JSON(%s) is not JSON: %v", enc, err)
		}
		if strings.ContainsFunc(dec, inert.IsBidi) {
			t.Fatalf("JSON of %q decodes to %q, with a bidirectional character", s, dec)
		}
	})
}
