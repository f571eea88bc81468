package source

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// isArchiveName accepts the native archive extensions.
func isArchiveName(name string) bool {
	for _, ext := range []string{".json", ".json.gz", ".yaml", ".yml", ".toml"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// writeTree creates files (path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symbolic links: %v", err)
	}
}

func TestDir(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "results")
	outside := filepath.Join(base, "outside")
	writeTree(t, root, map[string]string{
		"a.json":                "a",
		"linux/b.json.gz":       "b",
		"linux/deep/er/c.yaml":  "c",
		"linux/deep/er/d.toml":  "d",
		"readme.txt":            "not an archive",
		"a.json.bak":            "not an archive",
		".git/config.json":      "git's, skipped",
		"sub/.git/x.json":       "a nested repository's, skipped",
		"in/target.json":        "reached through a link",
		"name with spaces.json": "spaces",
		// A site perfpages built into the source folder, and its spare
		// (one still marked, one mid-rename without its marker): the
		// site's own data, skipped; a dot folder of results is read.
		"site/.perfpages-site":            "perfpages",
		"site/data/meta.json":             "the site's, skipped",
		".site.spare/data/meta.json":      "the spare's, skipped",
		".site.tmp-123/data/meta.json":    "a build's temporary folder, skipped",
		"other/.perfpages-site":           "perfpages",
		"other/x.json":                    "another site's, skipped",
		".benchmarks/Linux/0001_run.json": "pytest-benchmark's",
		".nosite.spare/results.json":      "named like a spare, no site beside it",
	})
	writeTree(t, outside, map[string]string{"secret.json": "secret", "dir/x.json": "x"})
	symlink(t, "in/target.json", filepath.Join(root, "link-inside.json"))
	symlink(t, filepath.Join(outside, "secret.json"), filepath.Join(root, "escape.json"))
	symlink(t, "../outside/secret.json", filepath.Join(root, "escape-relative.json"))
	symlink(t, filepath.Join(outside, "dir"), filepath.Join(root, "linked-dir"))
	symlink(t, "in", filepath.Join(root, "linked-dir-inside"))
	symlink(t, "missing.json", filepath.Join(root, "broken.json"))
	symlink(t, "/etc/passwd", filepath.Join(root, "readme-link.txt")) // not an archive name: ignored
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.json"), 0o644); err != nil {
		t.Logf("no named pipe: %v", err)
	}

	files, problems, err := Dir(root, isArchiveName, 0)
	if err != nil {
		t.Fatal(err)
	}
	file := func(name, data string) File {
		return File{Name: name, Origin: filepath.Join(root, filepath.FromSlash(name)), Data: []byte(data)}
	}
	want := []File{
		file(".benchmarks/Linux/0001_run.json", "pytest-benchmark's"),
		file(".nosite.spare/results.json", "named like a spare, no site beside it"),
		file("a.json", "a"),
		file("in/target.json", "reached through a link"),
		file("link-inside.json", "reached through a link"),
		file("linux/b.json.gz", "b"),
		file("linux/deep/er/c.yaml", "c"),
		file("linux/deep/er/d.toml", "d"),
		file("name with spaces.json", "spaces"),
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
	var got []string
	for _, p := range problems {
		got = append(got, strings.ReplaceAll(p.Error(), root, "ROOT"))
	}
	wantProblems := []string{
		"ROOT/broken.json: broken symbolic link: no such file or directory",
		"ROOT/escape-relative.json: symbolic link points outside ROOT, skipped",
		"ROOT/escape.json: symbolic link points outside ROOT, skipped",
		"ROOT/linked-dir: symbolic link to a folder outside ROOT, not followed",
	}
	if _, err := os.Stat(filepath.Join(root, "pipe.json")); err == nil {
		wantProblems = append(wantProblems, "ROOT/pipe.json: a named pipe, not a regular file")
	}
	if diff := cmp.Diff(wantProblems, got); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
}

func TestDirNilIsArchive(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"b.txt": "b", "a/x": "x"})
	files, problems, err := Dir(root, nil, 0)
	if err != nil || len(problems) != 0 {
		t.Fatalf("Dir: %v, problems %v", err, problems)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"a/x", "b.txt"}, names); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
}

func TestDirUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode; TestDir covers links escaping the root instead")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.json": "ok", "secret.json": "s", "locked/x.json": "x"})
	if err := os.Chmod(filepath.Join(root, "secret.json"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "locked"), 0o755) })
	files, problems, err := Dir(root, isArchiveName, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Name != "ok.json" {
		t.Errorf("files = %v, want only ok.json", files)
	}
	var got []string
	for _, p := range problems {
		got = append(got, strings.ReplaceAll(p.Error(), root, "ROOT"))
	}
	want := []string{
		"ROOT/locked: permission denied",
		"ROOT/secret.json: permission denied",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
}

func TestDirErrors(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file.json")
	writeTree(t, base, map[string]string{"file.json": "{}"})
	tests := []struct {
		name, root, want string
	}{
		{"missing root", filepath.Join(base, "missing"), "reading directory " + filepath.Join(base, "missing") + ": no such file or directory"},
		{"root is a file", file, "reading directory " + file + ": not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Dir(tt.root, isArchiveName, 0)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Dir(%q) error = %v, want %q", tt.root, err, tt.want)
			}
		})
	}
}

func TestDirRootIsSymlink(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"real/a.json": "a", "real/in/b.json": "b"})
	symlink(t, filepath.Join(base, "real"), filepath.Join(base, "link"))
	symlink(t, "in/b.json", filepath.Join(base, "real", "c.json"))
	files, problems, err := Dir(filepath.Join(base, "link"), isArchiveName, 0)
	if err != nil || len(problems) != 0 {
		t.Fatalf("Dir: %v, problems %v", err, problems)
	}
	if len(files) != 3 {
		t.Errorf("Dir through a linked root returned %d files, want 3", len(files))
	}
}
