package confined

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// hostile makes a content folder with every kind of file that must not be
// read, next to two that may (a page and a link to it).
func hostile(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "content")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "about.md"), []byte("# About\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "sub", "page.md"), []byte("# Page\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "big.md"), []byte(strings.Repeat("x", 101)), 0o644))
	must(os.WriteFile(filepath.Join(dir, "big.png"), []byte(strings.Repeat("x", 101)), 0o644))
	must(os.Symlink("about.md", filepath.Join(dir, "alias.md")))
	must(os.Symlink("../about.md", filepath.Join(dir, "sub", "up.md")))
	must(os.Symlink(filepath.Join(dir, "about.md"), filepath.Join(dir, "absolute.md")))
	must(os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.md")))
	must(os.Symlink("/proc/self/environ", filepath.Join(dir, "environ.md")))
	must(os.Symlink("/dev/null", filepath.Join(dir, "null.md")))
	must(os.Symlink("../secret.md", filepath.Join(dir, "escape.md")))
	must(os.WriteFile(filepath.Join(dir, "..", "secret.md"), []byte("secret"), 0o644))
	must(os.Symlink("missing.md", filepath.Join(dir, "broken.md")))
	must(os.Symlink("/etc", filepath.Join(dir, "etc")))
	must(os.Symlink("sub", filepath.Join(dir, "loop")))
	must(syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644))
	must(syscall.Mkfifo(filepath.Join(dir, "pipe.txt"), 0o644))
	return dir
}

func TestFS(t *testing.T) {
	dir := hostile(t)
	fsys, err := Open(dir, 100, func(name string) bool { return strings.HasSuffix(name, ".md") })
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, p := range fsys.Problems() {
		problems = append(problems, strings.ReplaceAll(p.Error(), dir, "content"))
	}
	want := []string{
		"content/absolute.md: symbolic link with an absolute target, skipped (make it relative)",
		"content/big.md: 101 bytes, over the limit of 100 bytes, skipped",
		"content/broken.md: broken symbolic link, skipped",
		"content/environ.md: symbolic link points outside content, skipped",
		"content/escape.md: symbolic link points outside content, skipped",
		"content/etc: symbolic link to a folder outside content, not followed",
		"content/null.md: symbolic link points outside content, skipped",
		"content/passwd.md: symbolic link points outside content, skipped",
		"content/pipe.md: a named pipe, not a regular file, skipped",
	}
	if d := cmp.Diff(want, problems); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}

	// What is listed is exactly what may be read; fstest checks that
	// Open, ReadDir, Stat and ReadFile agree.
	if err := fstest.TestFS(fsys, "about.md", "alias.md", "sub/page.md", "sub/up.md"); err != nil {
		t.Error(err)
	}
	var listed []string
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Errorf("walk %s: %v", p, err)
		}
		listed = append(listed, p)
		return nil
	})
	if d := cmp.Diff([]string{".", "about.md", "alias.md", "sub", "sub/page.md", "sub/up.md"}, listed); d != "" {
		t.Errorf("listing (-want +got):\n%s", d)
	}
	if data, err := fs.ReadFile(fsys, "alias.md"); err != nil || string(data) != "# About\n" {
		t.Errorf("a link inside is not followed: %q, %v", data, err)
	}
	for _, name := range []string{"passwd.md", "environ.md", "null.md", "escape.md", "absolute.md", "pipe.md", "pipe.txt", "big.md", "big.png", "broken.md", "etc/passwd", "../secret.md"} {
		if data, err := fs.ReadFile(fsys, name); err == nil {
			t.Errorf("%s was read: %.40q", name, data)
		}
	}
	// A link to a folder inside is not listed (its files are, at their
	// real place) but reading through it stays inside.
	if _, err := fs.ReadFile(fsys, "loop/page.md"); err != nil {
		t.Errorf("reading through a link inside: %v", err)
	}
	if _, err := fsys.Open("passwd.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("opening an escaping link: %v, want fs.ErrNotExist (it is not listed)", err)
	}
}

// TestFSFileGrows reads a file that grows past the cap after it was
// checked: the read fails instead of running on.
func TestFSFileGrows(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.md")
	os.WriteFile(name, []byte("small"), 0o644)
	fsys, err := Open(dir, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := fsys.Open("a.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.WriteFile(name, []byte(strings.Repeat("y", 100)), 0o644)
	buf := make([]byte, 1000)
	total := 0
	for {
		n, err := f.Read(buf)
		total += n
		if err != nil {
			if err.Error() == "EOF" {
				t.Errorf("read %d bytes to EOF, want an error past the 10-byte cap", total)
			}
			break
		}
	}
	if total > 10 {
		t.Errorf("read %d bytes, cap 10", total)
	}
}
