package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden pins the output of compare and triage on the demo data
// (deterministic: generator/demo). Refresh with go test ./cmd/perfpages -update
// and review the diff.
func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: loads the demo data for each command")
	}
	tests := []struct {
		name string
		args []string
	}{
		// PR #1384: the mixed sort change (large inputs faster, small slower).
		{"compare-text", []string{"compare", "f6ce027", "pr/1384"}},
		{"compare-markdown", []string{"compare", "-format", "markdown", "f6ce027", "pr/1384"}},
		{"compare-json", []string{"compare", "-format", "json", "-metric", "instructions:u", "f6ce027", "pr/1384"}},
		{"compare-2021", []string{"compare", "-model", "rustc-perf-2021", "-metric", "instructions:u", "f6ce027", "pr/1384"}},
		// A try run against its baseline (one-argument form).
		{"compare-try", []string{"compare", "-format", "markdown", "pr/1567"}},
		// A busy week: regressions, improvements, a rollup.
		{"triage-2026-10-26", []string{"triage", "-week", "2026-10-26"}},
		// The week with no planted change.
		{"triage-2026-10-05", []string{"triage", "-week", "2026-10-05"}},
		{"triage-2026-09-28-json", []string{"triage", "-week", "2026-09-28", "-format", "json"}},
		{"triage-2026-10-19-attention", []string{"triage", "-week", "2026-10-19", "-filter", "deserves-attention"}},
	}
	t.Chdir(t.TempDir()) // no perfpages.toml: the demo data
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), tt.args, &stdout, &stderr); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			// Nothing but the note that the demo is used.
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "perfpages: note: no perfpages.toml in ") {
				t.Errorf("stderr: %s", stderr.String())
			}
			golden(t, tt.name, stdout.String())
		})
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(testdataDir, name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/perfpages -update)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s (-want +got):\n%s", path, d)
	}
}

// testdataDir is absolute: the tests change the working directory.
var testdataDir = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.Join(wd, "testdata")
}()

func TestCompareErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: loads the demo data for each command")
	}
	t.Chdir(t.TempDir())
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "zzzz", "pr/1384"}, `perfpages: compare: base: unknown artifact "zzzz"`},
		{[]string{"compare", "pr/99999"}, "perfpages: compare: head: no results for PR #99999"},
		// The demo has no [project] git: a git tag cannot be looked up, and
		// the error says what a tag is here and how to name git's.
		{[]string{"compare", "v0.1", "pr/1384"}, `perfpages: compare: base: unknown artifact "v0.1" (a tag is an artifact of kind tag with that id; set [project] git to the benchmarked repository to name its git tags and branches)`},
		{[]string{"compare", "-metric", "bogus", "f6ce027", "pr/1384"}, `no results for metric "bogus"`},
		{[]string{"compare", "-format", "yaml", "a", "b"}, `-format "yaml"`},
		{[]string{"compare", "-model", "asv", "a", "b"}, `-model "asv"`},
		{[]string{"triage"}, "-week is required"},
		{[]string{"triage", "-week", "2026-09-29"}, "is a Tuesday; weeks start on Monday (2026-09-28)"},
		{[]string{"triage", "-week", "yesterday"}, `week "yesterday"`},
		{[]string{"triage", "-week", "2026-09-28", "-filter", "all"}, `-filter "all"`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, &stdout, &stderr)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr = %q, want %q", stderr.String(), tt.want)
			}
		})
	}
}
