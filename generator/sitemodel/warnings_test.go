package sitemodel

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWarningKind(t *testing.T) {
	tests := []struct{ in, want string }{
		{`results/a.json:12:3: unknown field "colour"`, `unknown field "…"`},
		{`demo:linux/x.json: duplicate result for json-decode [size=large] wall-time on m at 3f2a9c1`, `duplicate result for json-decode [size=large] wall-time on m at N`},
		{`perf-results@631d196:results/a.json: file skipped`, `file skipped`},
		{`no location here`, `no location here`},
	}
	for _, tt := range tests {
		if got := WarningKind(tt.in); got != tt.want {
			t.Errorf("WarningKind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A million identical warnings (a data.js history read from git) are one
// group with a count, and the first few messages verbatim, once each.
func TestGroupWarnings(t *testing.T) {
	var errs []error
	for i := range 100000 {
		errs = append(errs, fmt.Errorf("results/v%d.json:3: unknown field \"x\"", i%7))
	}
	errs = append(errs, errors.New("annotations.yaml:2: unknown artifact \"v9\""))
	got := GroupWarnings(errs, 3)
	want := []WarningGroup{
		{Kind: `unknown field "…"`, Count: 100000, First: []string{`results/v0.json:3: unknown field "x"`, `results/v1.json:3: unknown field "x"`, `results/v2.json:3: unknown field "x"`}},
		{Kind: `unknown artifact "…"`, Count: 1, First: []string{`annotations.yaml:2: unknown artifact "v9"`}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("GroupWarnings (-want +got):\n%s", d)
	}
	if WarningTotal(got) != 100001 || got[0].More() != 99997 {
		t.Errorf("total %d, more %d", WarningTotal(got), got[0].More())
	}
}
