package write

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// build writes one site with w: puts are Put calls, keeps are Keep calls
// of the previous site's files; it returns the manifest.
func spareBuild(t *testing.T, target string, prev map[string]FileRecord, puts map[string]string, keeps []string) (*Writer, map[string]FileRecord) {
	t.Helper()
	w, err := New(target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.SetPrevious(prev)
	for p, data := range puts {
		if err := w.Put(p, "k:"+p, []byte(data)); err != nil {
			t.Fatalf("Put %s: %v", p, err)
		}
	}
	for _, p := range keeps {
		if err := w.Keep(p, "k:"+p); err != nil {
			t.Fatalf("Keep %s: %v", p, err)
		}
	}
	m := w.Manifest()
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if ws := w.Warnings(); len(ws) > 0 {
		t.Errorf("warnings: %v", ws)
	}
	return w, m
}

// tree is every file under dir (not the marker) with its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() || rel == ".perfpages-site" {
			return nil
		}
		data, _ := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	return out
}

func stat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// TestWriterSpare: the third build starts from the first build's site
// (the spare) and ends with exactly the site it wants: the spare's files
// that are the live site's stay (same file, same time), changed ones are
// replaced without touching the live site, files and folders the new
// site lacks are gone (also one put there by hand), and a file may
// become a folder and a folder a file.
func TestWriterSpare(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "public")
	spare := filepath.Join(dir, ".public.spare")

	_, m1 := spareBuild(t, target, nil, map[string]string{
		"a.html": "1", "d/x.html": "x", "keep/k.html": "k", "f": "file", "g/i.html": "gi", "gone/old.html": "old",
	}, nil)
	_, m2 := spareBuild(t, target, m1, map[string]string{
		"a.html": "2", "d/x.html": "x", "f": "file", "g/i.html": "gi", "gone/old.html": "old",
	}, []string{"keep/k.html"})
	if got := tree(t, spare); got["a.html"] != "1" {
		t.Fatalf("the spare is not the first site: %v", got)
	}
	x2 := stat(t, filepath.Join(target, "d/x.html"))
	os.WriteFile(filepath.Join(spare, "extra.html"), []byte("by hand"), 0o644)
	// The live files as a check of the site found them (store.Outputs.
	// Check): what the writer tells the spare's links by.
	for p, r := range m2 {
		fi, err := os.Lstat(filepath.Join(target, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		r.Live = fi
		m2[p] = r
	}

	_, m3 := spareBuild(t, target, m2, map[string]string{
		"a.html": "2", "d/x.html": "x", "f/index.html": "now a folder", "g": "now a file", "n.html": "new",
	}, []string{"keep/k.html"})
	want := map[string]string{
		"a.html": "2", "d/x.html": "x", "f/index.html": "now a folder", "g": "now a file", "keep/k.html": "k", "n.html": "new",
	}
	if d := cmp.Diff(want, tree(t, target)); d != "" {
		t.Errorf("third site (-want +got):\n%s", d)
	}
	if x3 := stat(t, filepath.Join(target, "d/x.html")); !os.SameFile(x2, x3) || !x3.ModTime().Equal(x2.ModTime()) {
		t.Errorf("the unchanged file was not kept: %v %v", x2.ModTime(), x3.ModTime())
	}
	// The spare is now the second site, untouched by the third build.
	if d := cmp.Diff(map[string]string{
		"a.html": "2", "d/x.html": "x", "keep/k.html": "k", "f": "file", "g/i.html": "gi", "gone/old.html": "old",
	}, tree(t, spare)); d != "" {
		t.Errorf("the spare (-want +got):\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(target, "gone")); err == nil {
		t.Error("a folder the new site lacks survived")
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for p := range m3 {
			if !yield(p) {
				return
			}
		}
	})
	if d := cmp.Diff([]string{"a.html", "d/x.html", "f/index.html", "g", "keep/k.html", "n.html"}, keys); d != "" {
		t.Errorf("manifest (-want +got):\n%s", d)
	}
	for p, r := range m3 {
		fi := stat(t, filepath.Join(target, filepath.FromSlash(p)))
		if fi.Size() != r.Size || !fi.ModTime().Equal(r.Time) {
			t.Errorf("manifest of %s = %d bytes at %v, file has %d at %v", p, r.Size, r.Time, fi.Size(), fi.ModTime())
		}
		// Only a file left as it was (the spare's file was the live one)
		// keeps the checked file, which the manifest's identity is then
		// taken from; one linked again (a.html: the spare had the first
		// site's) or written has none.
		untouched := p == "d/x.html" || p == "keep/k.html"
		if (r.Live != nil) != untouched || untouched && !os.SameFile(r.Live, fi) {
			t.Errorf("manifest of %s: Live %v, want it only for a file left as it was", p, r.Live)
		}
	}
}

// TestWriterSpareReadOnly: a spare with a folder that cannot be written
// is not used; the build starts from nothing and succeeds.
func TestWriterSpareReadOnly(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "public")
	_, m1 := spareBuild(t, target, nil, map[string]string{"a/x.html": "1"}, nil)
	_, m2 := spareBuild(t, target, m1, map[string]string{"a/x.html": "2"}, nil)
	ro := filepath.Join(dir, ".public.spare", "a")
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	spareBuild(t, target, m2, map[string]string{"a/x.html": "3"}, nil)
	if d := cmp.Diff(map[string]string{"a/x.html": "3"}, tree(t, target)); d != "" {
		t.Errorf("site (-want +got):\n%s", d)
	}
}

// A spare that is a link to a folder — another site, or the live output
// itself — is not used and its target keeps every file, even when the
// build then fails.
func TestWriterSpareLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "public")
	_, m1 := spareBuild(t, target, nil, map[string]string{"a.html": "1", "b/c.html": "c"}, nil)
	other := filepath.Join(dir, "other")
	spareBuild(t, other, nil, map[string]string{"o.html": "o"}, nil)
	for name, to := range map[string]string{"the live output": target, "another site": other} {
		t.Run(name, func(t *testing.T) {
			before := tree(t, to)
			os.RemoveAll(filepath.Join(dir, ".public.spare"))
			if err := os.Symlink(to, filepath.Join(dir, ".public.spare")); err != nil {
				t.Fatal(err)
			}
			w, err := New(target, Options{})
			if err != nil {
				t.Fatal(err)
			}
			w.SetPrevious(m1)
			w.Put("a.html", "k", []byte("2"))
			w.Abort() // the build fails
			if d := cmp.Diff(before, tree(t, to)); d != "" {
				t.Errorf("the link's target changed (-want +got):\n%s", d)
			}
			fi, err := os.Lstat(filepath.Join(dir, ".public.spare"))
			if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Error("the link at the spare's path is gone")
			}
		})
	}
}

// A spare file of the right size and time that is not the live file
// itself (edited in place, its time restored) is not reused.
func TestWriterSpareEditedFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "public")
	_, m1 := spareBuild(t, target, nil, map[string]string{"a.html": "1111"}, nil)
	_, m2 := spareBuild(t, target, m1, map[string]string{"b.html": "b"}, []string{"a.html"})
	// The spare's a.html is the live one (a hard link). Replace it with a
	// copy of other bytes, same size and time.
	sp := filepath.Join(dir, ".public.spare", "a.html")
	fi := stat(t, sp)
	os.Remove(sp)
	os.WriteFile(sp, []byte("2222"), 0o644)
	os.Chtimes(sp, fi.ModTime(), fi.ModTime())
	spareBuild(t, target, m2, nil, []string{"a.html", "b.html"})
	if got := tree(t, target)["a.html"]; got != "1111" {
		t.Errorf("a.html = %q, want the live site's 1111", got)
	}
}
