package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTree copies the file or folder from to to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// siteFiles reads every file of a built site but its marker.
func siteFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".perfpages-site" {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	return out
}

// TestImportEqualsDirect: one archive format carries everything a reader
// knows (samples, iteration counts, errors, pytest's summary statistics,
// the tools' ranges), so that for every reader, `perfpages import`
// followed by a build of the archives gives the same site as a build
// reading the tool's files directly, byte for byte. Files that record no
// commit are laid out as {date}/{sha}/{machine} for the direct source and
// imported with -date, -artifact and -machine; files that record their
// commits are read as they are.
func TestImportEqualsDirect(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a site per format twice")
	}
	for _, tt := range []struct {
		format, fixture string
		ownCommits      bool
	}{
		{format: "gobench", fixture: "gobench/sort.txt"},
		{format: "gobench", fixture: "gobench/fail.txt"},
		{format: "criterion", fixture: "criterion/current"},
		{format: "googlebench", fixture: "googlebench/repetitions.json"},
		{format: "pytest-benchmark", fixture: "pytest-benchmark/unversioned.json"},
		{format: "hyperfine", fixture: "hyperfine/param.json"},
		{format: "bmf", fixture: "bmf/harness.json"},
		{format: "gab", fixture: "gab/custom-smaller.json"},
		{format: "gab", fixture: "gab/history.js", ownCommits: true}, // cargo's ± ranges, a PR's runs
		{format: "gab", fixture: "gab/pytest.js", ownCommits: true},  // pytest's summary statistics
		{format: "asv", fixture: "asv/results", ownCommits: true},
		{format: "perfgate", fixture: "perfgate/work.json"},
	} {
		t.Run(tt.format+"/"+filepath.Base(tt.fixture), func(t *testing.T) {
			dir := t.TempDir()
			fixture := foreignFixture(t, tt.fixture)
			info, err := os.Stat(fixture)
			if err != nil {
				t.Fatal(err)
			}
			ext := filepath.Ext(fixture)
			// The direct source.
			in := filepath.Join(dir, "in")
			direct := "[site]\ntitle = \"t\"\n\n[[sources]]\ndir = \"in\"\nformat = \"" + tt.format + "\"\n"
			commits := []struct{ sha, date string }{{strings.Repeat("a", 40), "2026-11-19"}, {strings.Repeat("b", 40), "2026-11-20"}}
			switch {
			case tt.ownCommits && info.IsDir():
				copyTree(t, fixture, in)
			case tt.ownCommits && tt.format == "gab" && ext == ".js":
				// The action's data file is data.js: a source without a
				// pattern reads that name of the folder's .js files.
				copyTree(t, fixture, filepath.Join(in, "data.js"))
			case tt.ownCommits:
				copyTree(t, fixture, filepath.Join(in, filepath.Base(fixture)))
			case info.IsDir():
				for _, c := range commits {
					copyTree(t, fixture, filepath.Join(in, c.date, c.sha, "ci"))
				}
				direct += "artifact = \"{date}/{sha}/{machine}/\"\n"
			default:
				for _, c := range commits {
					copyTree(t, fixture, filepath.Join(in, c.date, c.sha, "ci"+ext))
				}
				direct += "artifact = \"{date}/{sha}/{machine}" + ext + "\"\n"
			}
			// The imported archives.
			results := filepath.Join(dir, "results")
			if tt.ownCommits {
				if _, stderr, err := runCLI(t, "", "import", "-format", tt.format, "-out", results, fixture); err != nil {
					t.Fatalf("import: %v\n%s", err, stderr)
				}
			} else {
				for _, c := range commits {
					if _, stderr, err := runCLI(t, "", "import", "-format", tt.format, "-artifact", c.sha, "-date", c.date, "-machine", "ci", "-out", results, fixture); err != nil {
						t.Fatalf("import: %v\n%s", err, stderr)
					}
				}
			}
			build := func(name, cfg string) (map[string][]byte, string) {
				t.Helper()
				path := filepath.Join(dir, name+".toml")
				if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, name)
				_, stderr, err := runCLI(t, "", "build", "-cache", "off", "-config", path, "-out", out)
				if err != nil {
					t.Fatalf("build %s: %v\n%s", name, err, stderr)
				}
				return siteFiles(t, out), stderr
			}
			want, directLog := build("direct", direct)
			got, importedLog := build("imported", "[site]\ntitle = \"t\"\n\n[[sources]]\ndir = \"results\"\n")
			// The dashboard lists the build's warnings, which name the
			// files they are about: the tool's in one build, the
			// archives in the other. Everything else is the same.
			if strings.Contains(directLog, "warning") || strings.Contains(importedLog, "warning") {
				delete(want, "index.html")
				delete(got, "index.html")
			}
			if len(got) != len(want) {
				t.Errorf("imported: %d files, direct: %d", len(got), len(want))
			}
			differ := 0
			for p, w := range want {
				if g, ok := got[p]; !ok || !bytes.Equal(g, w) {
					differ++
					if differ <= 5 {
						t.Errorf("%s: the imported site's differs from the direct source's", p)
					}
				}
			}
			if differ > 5 {
				t.Errorf("… and %d more files differ", differ-5)
			}
		})
	}
}
