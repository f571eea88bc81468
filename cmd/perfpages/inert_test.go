package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/generator/inert"
)

// hostileArchive is an archive whose names hold a forged log line, terminal
// escapes and bidirectional overrides, and one negative sample so that
// the build warns about the benchmark by name.
func hostileArchive(sha, parent, date string) string {
	parents, evil := "", `"samples": [100, 101, 99]`
	if parent != "" {
		// Failed in the head: every comparison lists it.
		parents, evil = `"parents": ["`+parent+`"], `, `"error": "boom\u001b[2J\u202e"`
	}
	return `{"schema": "perfpages.run.v1",
 "artifact": {"id": "` + sha + `", "date": "` + date + `", ` + parents + `"branch": "main", "title": "t\u001b]0;pwned\u0007\u202e"},
 "machine": {"name": "m\nperfpages: note: forged machine"},
 "results": [
  {"benchmark": "evil\u202etxt.exe\u001b[2J", "metric": "wall-time", "unit": "ns", ` + evil + `},
  {"benchmark": "bad\nperfpages: note: forged bench", "metric": "wall-time", "unit": "ns", "samples": [-1]}
 ]}`
}

// checkLog fails unless every line of a command's stderr is one of its own
// ("perfpages: …") with no control or bidirectional character: no name
// forged a line or reached the terminal raw.
func checkLog(t *testing.T, stderr string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "perfpages: ") || strings.HasPrefix(line, "perfpages: note: forged") {
			t.Errorf("forged or foreign log line %q in\n%s", line, stderr)
		}
		if i := strings.IndexFunc(line, inert.Escaped); i >= 0 {
			t.Errorf("raw %q in log line %q", line[i:], line)
		}
	}
}

func TestNamesInertInLogsAndText(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	os.MkdirAll(results, 0o755)
	os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte("[[sources]]\ndir = \"results\"\n"), 0o644)
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	os.WriteFile(filepath.Join(results, "1.json"), []byte(hostileArchive(a, "", "2026-09-07T10:00:00Z")), 0o644)
	os.WriteFile(filepath.Join(results, "2.json"), []byte(hostileArchive(b, a, "2026-09-08T10:00:00Z")), 0o644)
	// A file whose name forges a note and holds a broken archive.
	os.WriteFile(filepath.Join(results, "x\nperfpages: note: forged file\u202e.json"), []byte("{"), 0o644)

	_, stderr, err := runCLI(t, dir, "build")
	if err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	checkLog(t, stderr)
	for _, want := range []string{`x\nperfpages: note: forged file\u202e.json`, `bad\nperfpages: note: forged bench`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not show %q escaped:\n%s", want, stderr)
		}
	}

	for _, format := range []string{"text", "markdown"} {
		stdout, stderr, err := runCLI(t, "", "compare", "-format", format, a, b)
		if err != nil && exitCode(err) != 1 {
			t.Fatalf("compare -format %s: %v\n%s", format, err, stderr)
		}
		checkLog(t, stderr)
		for i, r := range stdout {
			if r != '\n' && inert.Escaped(r) {
				t.Errorf("compare -format %s: %U at byte %d of\n%s", format, r, i, stdout)
				break
			}
		}
		if !strings.Contains(stdout, `evil\u202etxt.exe\x1b[2J`) {
			t.Errorf("compare -format %s does not show the name escaped:\n%s", format, stdout)
		}
	}
}

func TestErrorLines(t *testing.T) {
	forged := errors.New("x.json\nperfpages: note: forged")
	joined := errors.Join(errors.New("a.toml: unknown key \"x\""), errors.New("a.toml: unknown key \"y\u202e\""))
	for _, tt := range []struct {
		name string
		err  error
		want []string
	}{
		{"one error, a newline in a name", fmt.Errorf("reading %w", forged), []string{`reading x.json\nperfpages: note: forged`}},
		{"joined errors, a line each", joined, []string{`a.toml: unknown key "x"`, `a.toml: unknown key "y\u202e"`}},
		{"joined errors in a joined error", errors.Join(joined, forged), []string{`a.toml: unknown key "x"`, `a.toml: unknown key "y\u202e"`, `x.json\nperfpages: note: forged`}},
		{"a wrapped join, split at its newlines", fmt.Errorf("config: %w", joined), []string{`config: a.toml: unknown key "x"`, `a.toml: unknown key "y\u202e"`}},
		{"several %w are one error", fmt.Errorf("%w and %w", forged, forged), []string{`x.json\nperfpages: note: forged and x.json\nperfpages: note: forged`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := errorLines(tt.err)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("errorLines = %q, want %q", got, tt.want)
			}
		})
	}
}
