package readkit

import (
	"errors"
	"io/fs"
	"testing"
)

func TestProblemError(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{File: "r.json", Line: 3, Msg: "bad"}, "r.json:3: bad"},
		{Problem{File: "r.json", Msg: "bad"}, "r.json: bad"},
		{Problem{File: "r.json", Line: 2, Msg: "bad", Fatal: true}, "r.json:2: bad"},
	}
	for _, tt := range tests {
		if got := tt.p.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestWrap(t *testing.T) {
	p := Wrap("base.json", 0, fs.ErrNotExist)
	if !errors.Is(p, fs.ErrNotExist) || !p.Fatal || p.Error() != "base.json: file does not exist" {
		t.Errorf("Wrap = %+v (%v)", p, p)
	}
}

func TestValidUTF8(t *testing.T) {
	out, p := ValidUTF8("f", []byte("ok\nb\xffd\n\xfe\xfe"))
	if string(out) != "ok\nb\uFFFDd\n\uFFFD\uFFFD" {
		t.Errorf("out = %q", out)
	}
	if p == nil || p.Line != 2 || p.Msg != "invalid UTF-8 (3 bytes on 2 lines, the first here), replaced with U+FFFD" {
		t.Errorf("problem = %+v", p)
	}
	if out, p := ValidUTF8("f", []byte("fine")); p != nil || string(out) != "fine" {
		t.Errorf("valid input: %q, %+v", out, p)
	}
}
