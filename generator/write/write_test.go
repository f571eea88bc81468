package write

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator/outdir"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestWriterMarksEverySite: every site carries the marker, and a second
// build may replace the first.
func TestWriterMarksEverySite(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "public")
	for i := range 2 {
		w, err := New(target, Options{})
		if err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
		if err := w.WriteFile(outdir.Marker, nil); err == nil {
			t.Error("a page could overwrite the marker")
		}
		w.WriteFile("index.html", []byte("x"))
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		if len(w.Warnings()) > 0 {
			t.Errorf("warnings: %v", w.Warnings())
		}
		if !outdir.IsSite(target) {
			t.Fatalf("build %d wrote no marker", i)
		}
	}
	if d := cmp.Diff([]string{".public.spare", "public"}, names(t, dir)); d != "" {
		t.Errorf("beside the site (-want +got):\n%s", d)
	}
}

// TestWriterRefuses: a writer never replaces what is not a site, and
// touches nothing when it refuses.
func TestWriterRefuses(t *testing.T) {
	dir := t.TempDir()
	hand := filepath.Join(dir, "hand")
	os.MkdirAll(hand, 0o755)
	os.WriteFile(filepath.Join(hand, "index.html"), []byte("mine"), 0o644)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("mine"), 0o644)
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	for _, target := range []string{hand, file, repo} {
		if _, err := New(target, Options{}); err == nil {
			t.Errorf("New(%s, Options{}) succeeded", target)
		}
	}
	if d := cmp.Diff([]string{"file", "hand", "repo"}, names(t, dir)); d != "" {
		t.Errorf("a refusal touched the folder (-want +got):\n%s", d)
	}

	// Files put into an empty output during the build are not swapped away.
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	w, err := New(empty, Options{})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("mine"), 0o644)
	if err := w.Commit(); err == nil {
		t.Error("Commit replaced a folder that got files during the build")
	}
	w.Abort()
	if data, _ := os.ReadFile(filepath.Join(empty, "notes.txt")); string(data) != "mine" {
		t.Error("the user's file is gone")
	}
}

// TestWriterCleansLeftovers: the temporary and old folders of killed
// builds go with the next build; other files stay.
func TestWriterCleansLeftovers(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "public")
	for _, name := range []string{".public.tmp-1", ".public.tmp-2.old", ".public.tmp-3/sub"} {
		os.MkdirAll(filepath.Join(dir, name), 0o755)
	}
	os.WriteFile(filepath.Join(dir, ".public.tmp-1", outdir.Marker), outdir.MarkerContent, 0o644)
	os.WriteFile(filepath.Join(dir, ".public.tmp-2.old", outdir.Marker), outdir.MarkerContent, 0o644)
	os.WriteFile(filepath.Join(dir, ".public.tmp-2.old", "index.html"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, ".public.tmp-3", "sub", "mine.txt"), nil, 0o644) // no marker: not ours
	w, err := New(target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{".public.tmp-3", "public"}, names(t, dir)); d != "" {
		t.Errorf("left (-want +got):\n%s", d)
	}
}

// TestWriterOldSiteUnremovable: once the new site is live, failing to
// remove the old one is a warning, not a failed build.
func TestWriterOldSiteUnremovable(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "public")
	w, _ := New(target, Options{})
	w.WriteFile("index.html", []byte("old"))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	defer func(f func(string) error) { removeOld = f }(removeOld)
	removeOld = func(string) error { return errors.New("permission denied") }
	// Where the old site would be kept as the spare there is a file of
	// someone else's: it stays, and the old site is removed instead.
	os.WriteFile(filepath.Join(dir, ".public.spare"), []byte("mine"), 0o644)
	w, _ = New(target, Options{})
	w.WriteFile("index.html", []byte("new"))
	if err := w.Commit(); err != nil {
		t.Fatalf("Commit = %v, want success with a warning", err)
	}
	if data, _ := os.ReadFile(filepath.Join(target, "index.html")); string(data) != "new" {
		t.Errorf("new site not live: %q", data)
	}
	ws := w.Warnings()
	if len(ws) != 2 || !strings.Contains(ws[0].Error(), ".public.spare is not a spare site perfpages made") ||
		!strings.Contains(ws[1].Error(), "the new site is in place, but the previous one could not be removed") {
		t.Errorf("warnings = %v", ws)
	}
}

func TestWriterRejectsUnsafePaths(t *testing.T) {
	dir := t.TempDir()
	w, err := New(filepath.Join(dir, "public"), Options{})
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
	w, _ := New(target, Options{})
	w.WriteFile("new.html", []byte("new"))
	w.Abort()
	if _, err := os.Stat(filepath.Join(target, "old.html")); err != nil {
		t.Errorf("abort lost the old site: %v", err)
	}
	// A committed build replaces it completely.
	w, _ = New(target, Options{})
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
