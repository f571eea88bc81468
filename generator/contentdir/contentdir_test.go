package contentdir

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/internal/confined"
)

// hostileContent is a content folder with one good page and everything
// that must not be read: links out of the folder, a named pipe (opening it
// would block forever), a link to a device, an oversized page.
func hostileContent(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "content")
	os.MkdirAll(filepath.Join(dir, "triage"), 0o755)
	os.WriteFile(filepath.Join(dir, "about.md"), []byte("---\ntitle: About\n---\nhello\n"), 0o644)
	os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.md"))
	os.Symlink("/proc/self/environ", filepath.Join(dir, "triage", "2026-09-14.md"))
	os.Symlink("/dev/null", filepath.Join(dir, "null.md"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create(filepath.Join(dir, "big.md"))
	f.Truncate(MaxFileSize + 1)
	f.Close()
	return dir
}

func TestLoadHostile(t *testing.T) {
	dir := hostileContent(t)
	fsys, err := confined.Open(dir, MaxFileSize, func(n string) bool { return strings.HasSuffix(n, ".md") })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range fsys.Problems() {
		got = append(got, strings.ReplaceAll(p.Error(), dir, "content"))
	}
	c, problems := Load(fsys, dir)
	for _, p := range problems {
		got = append(got, strings.ReplaceAll(p.Error(), dir, "content"))
	}
	want := []string{
		"content/big.md: 8388609 bytes, over the limit of 8 MiB, skipped",
		"content/null.md: symbolic link points outside content, skipped",
		"content/passwd.md: symbolic link points outside content, skipped",
		"content/pipe.md: a named pipe, not a regular file, skipped",
		"content/triage/2026-09-14.md: symbolic link points outside content, skipped",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(c.Pages) != 1 || c.Pages[0].Slug != "about" || len(c.TriageNotes) != 0 {
		t.Errorf("pages = %+v, notes = %v; want only about", c.Pages, c.TriageNotes)
	}
}

// TestLoadAnyFS: given a plain os.DirFS, Load still never
// opens a pipe, follows a link or reads an oversized page.
func TestLoadAnyFS(t *testing.T) {
	dir := hostileContent(t)
	c, problems := Load(os.DirFS(dir), "content")
	var got []string
	for _, p := range problems {
		got = append(got, p.Error())
	}
	want := []string{
		"content/big.md: 8388609 bytes, over the limit of 8 MiB, skipped",
		"content/null.md: not a regular file, skipped",
		"content/passwd.md: not a regular file, skipped",
		"content/pipe.md: not a regular file, skipped",
		"content/triage/2026-09-14.md: not a regular file, skipped",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if len(c.Pages) != 1 || c.Pages[0].Source != "content/about.md" {
		t.Errorf("pages = %+v", c.Pages)
	}
}

// FuzzLoad loads a content folder holding one fuzzed file, seeded
// with the demo's pages (content/): whatever the name and bytes, loading
// never panics, every problem names the file, and a page's URL stays a
// clean relative path outside the site's own routes. (That no Markdown
// brings a script into a page is render's FuzzSiteMarkdown.)
func FuzzLoad(f *testing.F) {
	root := filepath.Join("..", "..", "content")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		f.Add(filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("guide/index.md", []byte("+++\ntitle = \"G\"\nweight = -3\n+++\n# x\n<script>alert(1)</script>\n"))
	f.Add("commit/x.md", []byte("---\nmenu: true\n---\n"))
	f.Add("triage/2026-13-99.md", []byte("---\ndraft: false\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if !fs.ValidPath(name) || name == "." {
			return
		}
		c, problems := Load(fstest.MapFS{name: {Data: data}}, "content")
		for _, p := range problems {
			if !strings.HasPrefix(p.Error(), "content/") {
				t.Errorf("problem does not name the file: %v", p)
			}
		}
		pages := c.Pages
		if c.Home != nil {
			pages = append(pages, *c.Home)
		}
		for _, n := range c.TriageNotes {
			pages = append(pages, n)
		}
		if len(pages) > 1 {
			t.Fatalf("one file gave %d pages", len(pages))
		}
		for _, p := range pages {
			if p.Source != path.Join("content", name) {
				t.Errorf("Source = %q, want content/%s", p.Source, name)
			}
			if p.Slug != "" {
				if !fs.ValidPath(p.Slug) || strings.HasPrefix(p.Slug, ".") {
					t.Errorf("slug %q is not a clean relative path", p.Slug)
				}
				for _, r := range reservedSlugs {
					if p.Slug == r || strings.HasPrefix(p.Slug, r+"/") {
						t.Errorf("slug %q shadows the site's /%s/", p.Slug, r)
					}
				}
			}
		}
	})
}
