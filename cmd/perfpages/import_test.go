package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// foreignFixture is a fixture of generator/foreign, made by the real tool.
func foreignFixture(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "generator", "foreign", "testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Import detects each file's format and says which, writes archives named
// by machine, date and artifact, and the archives build a site whose pages
// compare the two imported commits.
func TestImportAndBuild(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	const shaA, shaB = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	for _, tt := range []struct{ sha, date, file, format string }{
		{shaA, "2026-11-19", "gobench/sort.txt", "gobench"},
		{shaB, "2026-11-20", "gobench/sort.txt", "gobench"},
		{shaA, "2026-11-19", "hyperfine/basic.json", "hyperfine"},
		{shaB, "2026-11-20", "hyperfine/basic.json", "hyperfine"},
	} {
		stdout, stderr, err := runCLI(t, "", "import", "-artifact", tt.sha, "-date", tt.date, "-machine", "ci", "-out", results, foreignFixture(t, tt.file))
		if err != nil {
			t.Fatalf("import %s: %v\n%s", tt.file, err, stderr)
		}
		if !strings.Contains(stdout, "format "+tt.format+" (detected)") || !strings.Contains(stdout, "wrote ") {
			t.Errorf("import %s said:\n%s", tt.file, stdout)
		}
	}
	files, _ := filepath.Glob(filepath.Join(results, "ci", "*.json"))
	if len(files) != 4 {
		t.Fatalf("%d archives written, want 4: %v", len(files), files)
	}
	cfg := "[site]\ntitle = \"imported\"\n\n[[sources]]\ndir = \"results\"\n"
	if err := os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runCLI(t, "", "build", "-strict", "-config", filepath.Join(dir, "perfpages.toml")); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	// The commit page has the metrics; the benchmarks' data files (the
	// rows a page does not pre-render) have every imported series.
	page, err := os.ReadFile(filepath.Join(dir, "public", "commit", shaB, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wall-time", "allocs/op"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("commit page lacks %q", want)
		}
	}
	index, _ := filepath.Glob(filepath.Join(dir, "public", "data", "index", "*.json.gz"))
	var all string
	for _, f := range index {
		b, _ := os.ReadFile(f)
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		b, _ = io.ReadAll(zr)
		all += string(b)
	}
	if !strings.Contains(all, "sleep 0.01") {
		t.Errorf("no series of %q in the data files' indexes", "sleep 0.01")
	}
}

// A file of no known format is an error that lists the formats tried; the
// other files are still imported and the status says how many failed.
func TestImportBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.txt")
	if err := os.WriteFile(junk, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	_, stderr, err := runCLI(t, "", "import", "-artifact", strings.Repeat("c", 40), "-date", "2026-11-20", "-out", out,
		junk, foreignFixture(t, "hyperfine/basic.json"))
	if err == nil || !strings.Contains(err.Error(), "1 of 2 inputs could not be imported") {
		t.Errorf("error %v", err)
	}
	if !strings.Contains(stderr, "junk.txt: not a result file of any known format (tried ") || !strings.Contains(stderr, "hyperfine") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*", "*.json")); len(files) != 1 {
		t.Errorf("archives %v, want the hyperfine one", files)
	}
	// Without an artifact, a file that records none cannot be imported.
	_, stderr, err = runCLI(t, "", "import", "-date", "2026-11-20", "-out", out, foreignFixture(t, "hyperfine/basic.json"))
	if err == nil || !strings.Contains(stderr, "give -artifact") {
		t.Errorf("no artifact: %v\n%s", err, stderr)
	}
	// An unknown -format names the known ones.
	_, stderr, err = runCLI(t, "", "import", "-format", "jmh", "-artifact", "x", "-date", "2026-11-20", "-out", out, junk)
	if err == nil || !strings.Contains(stderr, `unknown format "jmh"`) {
		t.Errorf("unknown format: %v\n%s", err, stderr)
	}
}

// Every format's real (or documented) fixture imports and builds a site
// that shows its benchmarks. Files that record no commit are imported
// twice, as two commits, so that the site has a comparison to show.
func TestImportEveryFormatBuilds(t *testing.T) {
	for _, tt := range []struct {
		format, fixture string
		extra           []string // import flags
		ownCommits      bool     // the file records its commits
		bench           string   // a benchmark the site must show
	}{
		{format: "gobench", fixture: "gobench/sort.txt", bench: "Sort"},
		{format: "criterion", fixture: "criterion/current", bench: "checksum"},
		{format: "googlebench", fixture: "googlebench/repetitions.json", bench: "BM_"},
		{format: "pytest-benchmark", fixture: "pytest-benchmark/unversioned.json", bench: "test_"},
		{format: "hyperfine", fixture: "hyperfine/param.json", bench: "sleep 0.0{n}"},
		{format: "bmf", fixture: "bmf/harness.json"},
		{format: "gab", fixture: "gab/custom-bigger.json", extra: []string{"-better", "higher"}},
		{format: "gab", fixture: "gab/data.js", ownCommits: true},
		{format: "asv", fixture: "asv/results", ownCommits: true},
		{format: "perfgate", fixture: "perfgate/work.json", bench: "work"},
	} {
		t.Run(tt.format+"/"+filepath.Base(tt.fixture), func(t *testing.T) {
			dir := t.TempDir()
			results := filepath.Join(dir, "results")
			imports := [][]string{{"-artifact", strings.Repeat("a", 40), "-date", "2026-11-19"}, {"-artifact", strings.Repeat("b", 40), "-date", "2026-11-20"}}
			if tt.ownCommits {
				imports = [][]string{nil}
			}
			for _, who := range imports {
				args := append([]string{"import", "-format", tt.format, "-machine", "ci", "-out", results}, who...)
				args = append(append(args, tt.extra...), foreignFixture(t, tt.fixture))
				if _, stderr, err := runCLI(t, "", args...); err != nil {
					t.Fatalf("import: %v\n%s", err, stderr)
				}
			}
			cfg := filepath.Join(dir, "perfpages.toml")
			if err := os.WriteFile(cfg, []byte("[[sources]]\ndir = \"results\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, stderr, err := runCLI(t, "", "build", "-config", cfg); err != nil {
				t.Fatalf("build: %v\n%s", err, stderr)
			}
			index, err := os.ReadFile(filepath.Join(dir, "public", "bench", "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			if tt.bench != "" && !strings.Contains(string(index), tt.bench) {
				t.Errorf("benchmark index lacks %q", tt.bench)
			}
			commits, _ := filepath.Glob(filepath.Join(dir, "public", "commit", "*", "index.html"))
			if len(commits) < 2 {
				t.Errorf("%d commit pages, want at least 2", len(commits))
			}
		})
	}
}

// archiveName keeps the names earlier imports wrote where they were
// unambiguous, and is injective otherwise.
func TestArchiveName(t *testing.T) {
	date := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	sha := "3f2a9e1c0b7d3f2a9e1c0b7d3f2a9e1c0b7d3f2a"
	run := func(machine, id string, ctx model.Params) model.Run {
		return model.Run{Artifact: model.Artifact{ID: id, Date: date}, Machine: model.Machine{Name: machine}, Context: ctx}
	}
	tests := []struct {
		name string
		run  model.Run
		want string
	}{
		{"sha kept as before", run("ci-linux", sha, nil), "ci-linux/2026-11-20T030000-3f2a9e1c0b7d.json"},
		{"context hash as before", run("ci", sha, model.Params{{Key: "go", Value: "1.26"}}), "ci/2026-11-20T030000-3f2a9e1c0b7d-" + shortHash("go=1.26") + ".json"},
		{"short tag kept", run("ci", "v1.2.3", nil), "ci/2026-11-20T030000-v1.2.3.json"},
		{"space", run("ci linux", sha, nil), "ci_linux~" + shortHash("ci linux") + "/2026-11-20T030000-3f2a9e1c0b7d.json"},
		{"slash", run("ci/linux", sha, nil), "ci_linux~" + shortHash("ci/linux") + "/2026-11-20T030000-3f2a9e1c0b7d.json"},
		{"underscore kept", run("ci_linux", sha, nil), "ci_linux/2026-11-20T030000-3f2a9e1c0b7d.json"},
		{"traversal", run("../..", sha, nil), "_~" + shortHash("../..") + "/2026-11-20T030000-3f2a9e1c0b7d.json"},
		{"empty machine", run("", sha, nil), "_~" + shortHash("") + "/2026-11-20T030000-3f2a9e1c0b7d.json"},
		{"long tag", run("ci", "release-2026-01", nil), "ci/2026-11-20T030000-release-2026~" + shortHash("release-2026-01") + ".json"},
		{"tilde is never kept", run("a~b", sha, nil), "a_b~" + shortHash("a~b") + "/2026-11-20T030000-3f2a9e1c0b7d.json"},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		got := filepath.ToSlash(archiveName(tt.run))
		if got != tt.want {
			t.Errorf("%s: archiveName = %q, want %q", tt.name, got, tt.want)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("%s and %s share %s", tt.name, other, got)
		}
		seen[got] = tt.name
	}
}

// Import never overwrites an archive silently: machines "ci linux" and
// "ci/linux" get two folders; the same import again is "unchanged"; other
// results for the same machine and artifact are refused, naming the input
// and the archive, unless -force.
func TestImportNeverOverwrites(t *testing.T) {
	out := t.TempDir()
	sha := strings.Repeat("a", 40)
	imp := func(machine, fixture string, extra ...string) (string, string, error) {
		args := append([]string{"import", "-format", "hyperfine", "-artifact", sha, "-date", "2026-11-20", "-machine", machine, "-out", out}, extra...)
		return runCLI(t, "", append(args, foreignFixture(t, fixture))...)
	}
	for _, m := range []string{"ci linux", "ci/linux"} {
		if _, stderr, err := imp(m, "hyperfine/basic.json"); err != nil {
			t.Fatalf("import -machine %q: %v\n%s", m, err, stderr)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*", "*.json")); len(files) != 2 {
		t.Errorf("archives %v, want one per machine", files)
	}

	stdout, stderr, err := imp("ci linux", "hyperfine/basic.json")
	if err != nil || !strings.Contains(stdout, " unchanged (") {
		t.Errorf("same import again: %v\n%s%s", err, stdout, stderr)
	}

	param := foreignFixture(t, "hyperfine/param.json")
	archive := filepath.Join(out, "ci_linux~"+shortHash("ci linux"), "2026-11-20T000000-aaaaaaaaaaaa.json")
	before, _ := os.ReadFile(archive)
	_, stderr, err = imp("ci linux", "hyperfine/param.json")
	wantMsg := "perfpages: " + param + ": not written: " + archive + ` exists with other results for machine "ci linux", artifact ` + sha + " and the same context (-force overwrites it)\n"
	if err == nil || !strings.Contains(stderr, wantMsg) || !strings.Contains(stderr, "1 of 1 runs not written") {
		t.Errorf("conflicting import: %v\n%s\nwant %s", err, stderr, wantMsg)
	}
	if after, _ := os.ReadFile(archive); !bytes.Equal(before, after) {
		t.Error("the refused import changed the archive")
	}

	stdout, stderr, err = imp("ci linux", "hyperfine/param.json", "-force")
	if err != nil || !strings.Contains(stdout, "wrote "+archive) {
		t.Errorf("-force: %v\n%s%s", err, stdout, stderr)
	}
	if after, _ := os.ReadFile(archive); bytes.Equal(before, after) {
		t.Error("-force did not overwrite the archive")
	}
}
