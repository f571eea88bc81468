package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestREADMEOpens: the README opens with what a new user needs, in this
// order: what perfpages is, a screenshot of a real page (a
// small PNG in docs/), the two commands, then how to use it in your own
// repository; the reference sections come after.
func TestREADMEOpens(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	var sections []string
	for _, m := range regexp.MustCompile(`(?m)^## (.+)$`).FindAllStringSubmatch(readme, -1) {
		sections = append(sections, m[1])
	}
	if len(sections) < 3 || sections[0] != "Try it" || sections[1] != "Use it in your repository" {
		t.Errorf("sections %q, want Try it, Use it in your repository, then the rest", sections)
	}
	intro, _, _ := strings.Cut(readme, "\n## ")
	if !strings.Contains(intro, "static-site generator for continuous benchmarking") {
		t.Error("the README does not open by saying what perfpages is")
	}
	img := regexp.MustCompile(`!\[[^\]]+\]\((docs/[^)]+\.png)\)`).FindStringSubmatch(intro)
	if img == nil {
		t.Fatal("no screenshot before the first section")
	}
	png, err := os.ReadFile(filepath.Join("..", "..", img[1]))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) > 150<<10 {
		t.Errorf("%s: %d bytes, PNG %t; want a PNG of at most 150 KiB", img[1], len(png), bytes.HasPrefix(png, []byte("\x89PNG")))
	}

	// The two commands, and CI runs the same test command.
	_, try, _ := strings.Cut(readme, "\n## Try it\n")
	_, block, _ := strings.Cut(try, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		cmd, _, _ := strings.Cut(l, "#")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	if want := []string{"go run ./cmd/perfpages serve", "go test ./..."}; !slices.Equal(cmds, want) {
		t.Errorf("Try it: commands %q, want %q", cmds, want)
	}
	ci, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), "\ngo test ./...\n") {
		t.Error(".ci/run does not run go test ./..., the README's test command")
	}
}

// TestREADMELinks: every link from the README or docs/ to a file of the
// repository names one that exists, and an anchor a heading there.
func TestREADMELinks(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)\s]*)?\)`)
	for _, doc := range append([]string{readmePath}, docs...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target, anchor := m[1], strings.TrimPrefix(m[2], "#")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			p := filepath.Join(filepath.Dir(doc), target)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Errorf("%s: link to %s: %v", doc, target, err)
				continue
			}
			if anchor != "" && !slices.Contains(headingAnchors(string(data)), anchor) {
				t.Errorf("%s: link to %s#%s: no such heading (has %q)", doc, target, anchor, headingAnchors(string(data)))
			}
		}
	}
}

// headingAnchors are the anchors GitHub gives a Markdown file's headings.
func headingAnchors(md string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^#+ (.+)$`).FindAllStringSubmatch(md, -1) {
		a := strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
				return r
			case r >= 'A' && r <= 'Z':
				return r + 'a' - 'A'
			case r == ' ':
				return '-'
			}
			return -1
		}, m[1])
		out = append(out, a)
	}
	return out
}

// TestCompareDocumentsNotPublished: the README and docs/ say once that the
// site does not publish /data/compare/ (it was once documented both as
// published and as not), and a build indeed writes none.
func TestCompareDocumentsNotPublished(t *testing.T) {
	docs, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	for _, doc := range append([]string{readmePath}, docs...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		// Paragraphs that name the path say it is not published.
		for _, para := range strings.Split(string(data), "\n\n") {
			if strings.Contains(para, "/data/compare/") && !strings.Contains(para, "no longer published") {
				t.Errorf("%s: a paragraph names /data/compare/ without saying it is not published:\n%s", doc, para)
			}
		}
	}
	dir := smallSite(t, smallConfig)
	if _, stderr, err := runCLI(t, dir, "build", "-out", "site"); err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "site", "data")); err != nil {
		t.Fatalf("the site has no data/: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "site", "data", "compare")); !os.IsNotExist(err) {
		t.Errorf("the site has data/compare/ (%v)", err)
	}
}
