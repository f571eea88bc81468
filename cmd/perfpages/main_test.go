package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, dir string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errb bytes.Buffer
	err = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestBuildDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the demo site")
	}
	dir := t.TempDir()
	stdout, stderr, err := runCLI(t, dir, "build", "-strict")
	if err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "built ") || !strings.Contains(stdout, "into public") {
		t.Errorf("stdout = %q", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "index.html")); err != nil {
		t.Error(err)
	}
}

func TestBuildStrictFailsOnePerLine(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "results"), 0o755)
	os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte("[[sources]]\ndir = \"results\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "results", "bad.json"), []byte("{\n  \"schema\": \"perfpages.run.v1\",\n  oops\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "results", "bad.yaml"), []byte("schema: perfpages.run.v1\nartifact: [\n"), 0o644)

	// Without -strict: warnings, success, counted on the summary line.
	stdout, stderr, err := runCLI(t, dir, "build")
	if err != nil {
		t.Fatalf("non-strict build failed: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "perfpages: warning: ") || !strings.Contains(stderr, "bad.json:3") {
		t.Errorf("stderr = %q, want warnings naming bad.json:3", stderr)
	}
	if n := strings.Count(stderr, "perfpages: warning: "); !strings.HasSuffix(strings.TrimSpace(stdout), fmt.Sprintf("; %d warnings", n)) {
		t.Errorf("stdout = %q, want it to end with the %d warnings", stdout, n)
	}
	// One warning is one warning.
	os.Remove(filepath.Join(dir, "results", "bad.yaml"))
	if stdout, _, _ := runCLI(t, "", "build"); !strings.HasSuffix(strings.TrimSpace(stdout), "; 1 warning") {
		t.Errorf("stdout = %q, want it to end with one warning", stdout)
	}
	os.WriteFile(filepath.Join(dir, "results", "bad.yaml"), []byte("schema: perfpages.run.v1\nartifact: [\n"), 0o644)

	// With -strict: exit status 1, one line per problem, prefixed.
	_, stderr, err = runCLI(t, "", "build", "-strict")
	if err == nil {
		t.Fatal("strict build succeeded")
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 3 {
		t.Fatalf("stderr has %d lines, want 2 problems + 1 summary:\n%s", len(lines), stderr)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "perfpages: ") {
			t.Errorf("line %q lacks the perfpages: prefix", l)
		}
	}
	if !strings.Contains(lines[0], "bad.json:3") || !strings.Contains(lines[1], "bad.yaml") {
		t.Errorf("problems not named by file and line:\n%s", stderr)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `perfpages: unknown command "frobnicate"`},
		{[]string{"build", "-config", "/nonexistent/perfpages.toml"}, "perfpages: config /nonexistent/perfpages.toml: no such file"},
		{[]string{"build", "extra"}, `unexpected argument "extra"`},
		{[]string{"demo", "-size", "XL", "-out", "x"}, "perfpages: "},
		{[]string{"demo"}, "perfpages: demo: -out is required"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, err := runCLI(t, t.TempDir(), tt.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr = %q, want %q", stderr, tt.want)
			}
		})
	}
}

func TestConfigUnknownKey(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte("[[sources]]\ndir = \"r\"\n[site]\ntitel = \"x\"\n"), 0o644)
	_, stderr, err := runCLI(t, dir, "build")
	if err == nil || !strings.Contains(stderr, `unknown key "site.titel"`) {
		t.Errorf("err = %v, stderr = %q", err, stderr)
	}
}

func TestDemoSizeS(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the S data set")
	}
	dir := t.TempDir()
	stdout, stderr, err := runCLI(t, dir, "demo", "-size", "S", "-out", "data", "-format", "json", "-gzip")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "wrote ") {
		t.Errorf("stdout = %q", stdout)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "data", "results", "*", "*.json.gz"))
	if len(files) != 200 {
		t.Errorf("%d archives, want 100 artifacts × 2 machines", len(files))
	}
	_, stderr, err = runCLI(t, "", "build", "-strict", "-config", "data/perfpages.toml", "-out", "site")
	if err != nil {
		t.Fatalf("building the S data set: %v\n%s", err, stderr)
	}
}
