package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readArchives returns the archives under dir by relative path.
func readArchives(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	return out
}

// TestImportASVResultFile: `import -format asv` takes one new result file
// of a results folder, as a nightly job has it, and writes the archive an
// import of the whole folder writes: the folder's benchmarks.json and the
// machine's machine.json are found beside the file (its folder's parent,
// its folder) or in -results.
func TestImportASVResultFile(t *testing.T) {
	results := foreignFixture(t, "asv/results")
	files, _ := filepath.Glob(filepath.Join(results, "cheetah", "*-*.json"))
	if len(files) != 2 {
		t.Fatalf("fixture result files: %q", files)
	}
	whole := t.TempDir()
	if _, stderr, err := runCLI(t, "", "import", "-format", "asv", "-out", whole, results); err != nil {
		t.Fatalf("import of the folder: %v\n%s", err, stderr)
	}
	want := readArchives(t, whole)
	if len(want) != 2 {
		t.Fatalf("the folder's import wrote %d archives, want 2", len(want))
	}

	one := t.TempDir()
	for _, f := range files {
		if _, stderr, err := runCLI(t, "", "import", "-format", "asv", "-out", one, f); err != nil {
			t.Fatalf("import of %s: %v\n%s", f, err, stderr)
		}
	}
	got := readArchives(t, one)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: a result file's import differs from the folder's", name)
		}
	}

	// The file copied alone: -results names its folder; without it, the
	// reader says what it lacks.
	lone := filepath.Join(t.TempDir(), "cheetah")
	os.MkdirAll(lone, 0o755)
	data, _ := os.ReadFile(files[0])
	copied := filepath.Join(lone, filepath.Base(files[0]))
	os.WriteFile(copied, data, 0o644)
	_, stderr, err := runCLI(t, "", "import", "-format", "asv", "-results", filepath.Dir(lone), "-out", t.TempDir(), copied)
	if err != nil {
		t.Fatalf("-results without benchmarks.json: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "no benchmarks.json") {
		t.Errorf("a file without the folder's benchmarks.json: stderr\n%s", stderr)
	}
	if _, stderr, err := runCLI(t, "", "import", "-format", "asv", "-results", results, "-out", t.TempDir(), copied); err == nil || !strings.Contains(stderr, "is not inside the results folder") {
		t.Errorf("a file outside -results: %v\n%s", err, stderr)
	}
	if _, stderr, err := runCLI(t, "", "import", "-format", "asv", "-out", t.TempDir(), filepath.Join(results, "benchmarks.json")); err == nil || !strings.Contains(stderr, "not a result file") {
		t.Errorf("benchmarks.json given as a result file: %v\n%s", err, stderr)
	}
	if _, _, err := runCLI(t, "", "import", "-format", "gobench", "-results", results, "-out", t.TempDir(), copied); err == nil || !strings.Contains(err.Error(), "-results is for") {
		t.Errorf("-results with a format read whole: %v", err)
	}
}
