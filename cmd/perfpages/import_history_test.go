package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A gh-pages folder given to import -format gab: data.js is imported,
// the index.html beside it is not read, and the archives keep the
// history's order (parents) and the PR runs' baselines, so that the built
// site compares each commit with the one pushed before it.
func TestImportGabFolder(t *testing.T) {
	dir := t.TempDir()
	bench := filepath.Join(dir, "gh-pages", "dev", "bench")
	if err := os.MkdirAll(bench, 0o755); err != nil {
		t.Fatal(err)
	}
	history, err := os.ReadFile(foreignFixture(t, "gab/history.js"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"data.js": string(history), "index.html": "<!DOCTYPE html>\n<script src=\"data.js\"></script>\n"} {
		if err := os.WriteFile(filepath.Join(bench, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	results := filepath.Join(dir, "results")
	stdout, stderr, err := runCLI(t, "", "import", "-format", "gab", "-machine", "ci", "-out", results, bench)
	if err != nil {
		t.Fatalf("import: %v\n%s", err, stderr)
	}
	if n := strings.Count(stdout, ": wrote "); n != 9 {
		t.Errorf("%d archives written, want 9:\n%s", n, stdout)
	}
	if strings.Contains(stdout+stderr, "index.html") {
		t.Errorf("index.html was read:\n%s%s", stdout, stderr)
	}
	if !strings.Contains(stderr, "is listed under PR #53 and PR #54") {
		t.Errorf("no warning about the run under two PRs:\n%s", stderr)
	}
	cfg := filepath.Join(dir, "perfpages.toml")
	if err := os.WriteFile(cfg, []byte("[[sources]]\ndir = \"results\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runCLI(t, "", "build", "-strict", "-config", cfg); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	for _, tt := range []struct{ ref, base string }{
		{"2b3c4d5", "base: #48 (1a2b3c4"}, // pushed after c1, authored before it
		{"4d5e6f7", "base: #51 (3c4d5e6"}, // pushed after c3, authored before it
		{"pr/53", "base: #51 (3c4d5e6"},
	} {
		stdout, stderr, err := runCLI(t, "", "compare", "-config", cfg, tt.ref)
		if err != nil {
			t.Fatalf("compare %s: %v\n%s", tt.ref, err, stderr)
		}
		if !strings.HasPrefix(stdout, tt.base) {
			t.Errorf("compare %s:\n%s\nwant base %q", tt.ref, stdout, tt.base)
		}
	}
}
