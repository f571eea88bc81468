package readkit

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func TestNotResults(t *testing.T) {
	le := func(s string) []byte {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return b
	}
	pointer := "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"
	for _, tt := range []struct {
		name string
		data []byte
		want string // "" for no problem
	}{
		{"JSON", []byte(`{"schema": "perfpages.run.v1"}`), ""},
		{"go test -bench output", []byte("goos: linux\nBenchmarkX-8 100 10 ns/op\n"), ""},
		{"empty", nil, ""},
		{"one character", []byte("{"), ""},
		{"UTF-8 BOM", []byte("\uFEFF{}"), ""},
		{"a NUL here and there", []byte("{\"a\": \"x\x00y\", \"b\": \"\x00\"}"), ""},
		{"starts like a pointer, but large", []byte(pointer + strings.Repeat("x", 1024)), ""},
		{"an LFS pointer", []byte(pointer), "f.json: " + LFSPointerMsg},
		{"an early LFS pointer", []byte("version https://hawser.github.com/spec/v1\noid sha256:00\nsize 1\n"), "f.json: " + LFSPointerMsg},
		{"UTF-16LE BOM", append([]byte{0xFF, 0xFE}, le("{}")...), "f.json: " + UTF16Msg},
		{"UTF-16BE BOM", []byte{0xFE, 0xFF, 0, '{', 0, '}'}, "f.json: " + UTF16Msg},
		{"UTF-16LE without BOM", le(`{"schema": "perfpages.run.v1"}`), "f.json: " + UTF16Msg},
		{"UTF-16LE, Japanese names", le(`{"name": "ベンチマーク", "unit": "ns", "value": 12.5}`), "f.json: " + UTF16Msg},
		{"UTF-16BE without BOM", []byte{0, '{', 0, '"', 0, 'a', 0, '"', 0, '}'}, "f.json: " + UTF16Msg},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := NotResults("f.json", tt.data)
			switch {
			case tt.want == "" && p != nil:
				t.Errorf("NotResults = %v, want nil", p)
			case tt.want != "" && (p == nil || p.Error() != tt.want || !p.Fatal):
				t.Errorf("NotResults = %v, want fatal %q", p, tt.want)
			}
		})
	}
}
