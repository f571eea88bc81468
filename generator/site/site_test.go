package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
)

func TestParseFrontMatter(t *testing.T) {
	tests := []struct {
		name, in string
		want     FrontMatter
		body     string
		err      string
	}{
		{"none", "# Hi\n", FrontMatter{}, "# Hi\n", ""},
		{"yaml", "---\ntitle: About\nweight: 2\nmenu: true\n---\nbody\n", FrontMatter{Title: "About", Weight: 2, Menu: true}, "body\n", ""},
		{"toml", "+++\ntitle = \"About\"\ndraft = true\n+++\nbody\n", FrontMatter{Title: "About", Draft: true}, "body\n", ""},
		{"crlf", "---\r\ntitle: A\r\n---\r\nbody\r\n", FrontMatter{Title: "A"}, "body\n", ""},
		{"empty yaml", "---\n---\nbody", FrontMatter{}, "body", ""},
		{"unknown yaml key", "---\ntitle: A\ntitel: B\n---\n", FrontMatter{}, "", `page.md:3: front matter: unknown key "titel"`},
		{"unknown toml key", "+++\ntitel = \"B\"\n+++\n", FrontMatter{}, "", `page.md: front matter: unknown key "titel"`},
		{"bad toml", "+++\ntitle = \n+++\n", FrontMatter{}, "", "page.md:2: front matter:"},
		{"unclosed", "---\ntitle: A\n", FrontMatter{}, "", "page.md:1: front matter opened with --- is never closed"},
		{"bad yaml type", "---\nweight: heavy\n---\n", FrontMatter{}, "", "page.md:2: front matter: cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, body, err := ParseFrontMatter("page.md", []byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, fm); d != "" {
				t.Errorf("front matter (-want +got):\n%s", d)
			}
			if string(body) != tt.body {
				t.Errorf("body = %q, want %q", body, tt.body)
			}
		})
	}
}

func FuzzParseFrontMatter(f *testing.F) {
	for _, s := range []string{"---\ntitle: A\n---\nx", "+++\ntitle = \"A\"\n+++\n", "# x", "---\n", "+++\n+++", "---\n---"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, body, err := ParseFrontMatter("f.md", data)
		if err != nil && !strings.HasPrefix(err.Error(), "f.md") {
			t.Errorf("error does not name the file: %v", err)
		}
		if err == nil && len(body) > len(data) {
			t.Errorf("body longer than the input")
		}
	})
}

func TestWriterRejectsUnsafePaths(t *testing.T) {
	dir := t.TempDir()
	w, err := NewWriter(filepath.Join(dir, "public"), WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for _, p := range []string{"", "/etc/passwd", "../x", "a/../../x", "a\\b", "a\x00b", "./a", "a//b"} {
		if err := w.WriteFile(p, nil); err == nil {
			t.Errorf("WriteFile(%q) succeeded", p)
		}
	}
	if err := w.WriteFile("a/b/index.html", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile("a/b/index.html", []byte("y")); err == nil {
		t.Error("writing a path twice succeeded")
	}
}

func TestWriterSwapsAtomically(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "public")
	os.MkdirAll(target, 0o755)
	os.WriteFile(filepath.Join(target, "old.html"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(target, ".perfpages-site"), nil, 0o644) // a previous site

	// An aborted build leaves the old site and no temporary folder.
	w, _ := NewWriter(target, WriterOptions{})
	w.WriteFile("new.html", []byte("new"))
	w.Abort()
	if _, err := os.Stat(filepath.Join(target, "old.html")); err != nil {
		t.Errorf("abort lost the old site: %v", err)
	}
	// A committed build replaces it completely.
	w, _ = NewWriter(target, WriterOptions{})
	w.WriteFile("new.html", []byte("new"))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(target, "old.html")); err == nil {
		t.Error("old file survived the swap")
	}
	if data, _ := os.ReadFile(filepath.Join(target, "new.html")); string(data) != "new" {
		t.Error("new file missing")
	}
	// Beside it only the spare: the old site, kept for the next build.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 || entries[0].Name() != ".public.spare" {
		t.Errorf("left behind: %v", entries)
	}
}

func TestWeekStart(t *testing.T) {
	for in, want := range map[string]string{
		"2026-09-07T00:00:00Z": "2026-09-07", // a Monday
		"2026-09-13T23:59:59Z": "2026-09-07", // Sunday night
		"2026-09-14T00:00:00Z": "2026-09-14",
		"2026-09-10T12:00:00Z": "2026-09-07",
	} {
		tm, _ := time.Parse(time.RFC3339, in)
		if got := analysis.WeekStart(tm).Format("2006-01-02"); got != want {
			t.Errorf("weekStart(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestMarkdownRawHTML(t *testing.T) {
	md := markdown("/sub/")
	got, err := renderMarkdown(md, []byte("| a | b |\n|---|---|\n| x <br /> y | <script>alert(1)</script> |\n\n[c](/commit/x/) <img src=x onerror=alert(1)>\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"x <br /> y", `<a href="/sub/commit/x/">c</a>`, "<!-- raw HTML omitted -->"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	for _, bad := range []string{"<script>", "<img", "onerror"} {
		if strings.Contains(string(got), bad) {
			t.Errorf("raw HTML %q passed through:\n%s", bad, got)
		}
	}
}
