package outdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tree lists every path under dir with its kind and size, to show that a
// refusal touched nothing.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, _ := d.Info()
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel+" "+info.Mode().String())
		return nil
	})
	return out
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// project makes a scratch project: a git work tree with a config, a
// source folder, content, a plain file, an old site and odd outputs.
func project(t *testing.T) (root, proj string) {
	root = t.TempDir()
	proj = filepath.Join(root, "proj")
	write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(proj, "perfpages.toml"), "[[sources]]\ndir = \"results\"\n")
	write(t, filepath.Join(proj, "results", "a.json"), "{}")
	write(t, filepath.Join(proj, "content", "about.md"), "# About\n")
	write(t, filepath.Join(proj, "somefile"), "keep me")
	write(t, filepath.Join(proj, "site", Marker), "")
	write(t, filepath.Join(proj, "site", "index.html"), "old")
	write(t, filepath.Join(proj, "gitsite", Marker), "")
	write(t, filepath.Join(proj, "gitsite", "deploy", ".git", "HEAD"), "x")
	write(t, filepath.Join(proj, "hand", "index.html"), "hand-made")
	// A worktree's .git file deep in a site of many folders, with a
	// shallower one in another branch: the shallowest is named.
	write(t, filepath.Join(proj, "deepsite", Marker), "")
	for i := range 40 {
		write(t, filepath.Join(proj, "deepsite", "bench", strconv.Itoa(i), "index.html"), "page")
	}
	write(t, filepath.Join(proj, "deepsite", "a", "b", "c", "d", ".git"), "gitdir: /elsewhere")
	write(t, filepath.Join(proj, "deepsite", "bench", "7", "x", ".git"), "gitdir: /elsewhere")
	os.MkdirAll(filepath.Join(proj, "empty"), 0o755)
	os.Symlink(proj, filepath.Join(root, "link-to-proj"))
	os.Symlink("nowhere", filepath.Join(proj, "dangling"))
	if err := syscall.Mkfifo(filepath.Join(proj, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, proj
}

func TestCheckSite(t *testing.T) {
	root, proj := project(t)
	keep := []Protected{
		{Path: proj, What: "the config folder"},
		{Path: filepath.Join(proj, "results"), What: "a source folder"},
		{Path: filepath.Join(proj, "content"), What: "the content folder"},
	}
	t.Chdir(t.TempDir()) // the current folder is kept too; keep it out of the way
	tests := []struct {
		name, out string
		err       string // "" for allowed
	}{
		{"the project", proj, "it is the config folder; choose another output folder"},
		{"the project through a link", filepath.Join(root, "link-to-proj"), "it is the config folder"},
		{"the project with dot", proj + "/results/..", "it is the config folder"},
		{"a parent of the project", root, "it contains the config folder, " + proj},
		{"a source", filepath.Join(proj, "results"), "it is a source folder"},
		{"the content", filepath.Join(proj, "content"), "it is the content folder"},
		{"a plain file", filepath.Join(proj, "somefile"), "it is a file, not a folder; choose a folder"},
		{"a named pipe", filepath.Join(proj, "fifo"), "it is a named pipe, not a folder"},
		{"a dangling link", filepath.Join(proj, "dangling"), "symbolic link to nothing"},
		{"a hand-made site", filepath.Join(proj, "hand"), "it is not empty and is not a site perfpages built (it has no .perfpages-site file); choose an empty folder or a previous perfpages site"},
		{"a site with a git checkout inside", filepath.Join(proj, "gitsite"), "it contains a git work tree (" + filepath.Join(proj, "gitsite", "deploy", ".git") + ")"},
		{"a site with a worktree deep inside", filepath.Join(proj, "deepsite"), "it contains a git work tree (" + filepath.Join(proj, "deepsite", "bench", "7", "x", ".git") + ")"},
		{"inside .git", filepath.Join(proj, ".git", "site"), "it is inside a git repository's .git folder"},
		{"the root", "/", "it is the root of the file system"},
		{"a new folder", filepath.Join(proj, "public"), ""},
		{"a new nested folder", filepath.Join(proj, "a", "b", "public"), ""},
		{"an empty folder", filepath.Join(proj, "empty"), ""},
		{"a previous site", filepath.Join(proj, "site"), ""},
		{"a previous site through a link", filepath.Join(root, "link-to-proj", "site"), ""},
	}
	before := tree(t, root)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSite(tt.out, keep)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("CheckSite(%s) = %v, want no error", tt.out, err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("CheckSite(%s) = %v, want %q", tt.out, err, tt.err)
			case err != nil:
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error is not one line: %q", err)
				}
				if !strings.HasPrefix(err.Error(), "refusing to replace "+tt.out+": ") {
					t.Errorf("error does not name the folder: %q", err)
				}
			}
		})
	}
	if d := cmp.Diff(before, tree(t, root)); d != "" {
		t.Errorf("CheckSite changed the tree (-before +after):\n%s", d)
	}
}

func TestCheckSiteKeepsTheCurrentFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, out := range []string{".", dir, filepath.Dir(dir)} {
		if err := CheckSite(out, nil); err == nil || !strings.Contains(err.Error(), "the current folder") {
			t.Errorf("CheckSite(%s) = %v, want a refusal naming the current folder", out, err)
		}
	}
}

func TestCheckFolder(t *testing.T) {
	root, proj := project(t)
	tests := []struct {
		name, dir string
		err       string
	}{
		{"a source", filepath.Join(proj, "results"), ""},
		{"a new folder", filepath.Join(proj, "new", "deeper"), ""},
		{"a git work tree", proj, ""},
		{"a link to a folder", filepath.Join(root, "link-to-proj"), ""},
		{"a plain file", filepath.Join(proj, "somefile"), "refusing to write into " + filepath.Join(proj, "somefile") + ": it is a file, not a folder"},
		{"a named pipe", filepath.Join(proj, "fifo"), "it is a named pipe, not a folder"},
		{"a dangling link", filepath.Join(proj, "dangling"), "symbolic link to nothing"},
		{"inside .git", filepath.Join(proj, ".git", "objects"), "inside a git repository's .git folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckFolder(tt.dir)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("CheckFolder(%s) = %v, want %q", tt.dir, err, tt.err)
			}
		})
	}
	if got := SiteAround(filepath.Join(proj, "site", "sub", "new")); got != filepath.Join(proj, "site") {
		t.Errorf("SiteAround(site/sub/new) = %q, want the site", got)
	}
	if got := SiteAround(filepath.Join(proj, "results")); got != "" {
		t.Errorf("SiteAround(results) = %q, want none", got)
	}
}

func TestCleanLeftovers(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	p := func(name string) string { return filepath.Join(parent, name) }
	// What killed builds leave: temporary sites and old sites moved
	// aside, with the marker, possibly read-only, possibly emptied.
	write(t, p(".public.tmp-1/"+Marker), string(MarkerContent))
	write(t, p(".public.tmp-1/commit/abc/index.html"), "x")
	write(t, p(".public.tmp-2.old/"+Marker), string(MarkerContent))
	write(t, p(".public.tmp-2.old/ro/deep/index.html"), "x")
	os.MkdirAll(p(".public.tmp-3"), 0o755)
	// What is not perfpages': kept.
	write(t, p(".public.tmp-mine/notes.txt"), "mine")
	write(t, p(".public.tmp-file"), "a file")
	write(t, p("elsewhere/"+Marker), string(MarkerContent))
	os.Symlink(p("elsewhere"), p(".public.tmp-link"))
	write(t, p(".other.tmp-1/"+Marker), string(MarkerContent))
	chmodTree(t, p(".public.tmp-2.old/ro"), 0o555)
	t.Cleanup(func() { chmodTree(t, parent, 0o755) })

	if w := CleanLeftovers(out); len(w) > 0 {
		t.Errorf("warnings: %v", w)
	}
	var got []string
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{".other.tmp-1", ".public.tmp-file", ".public.tmp-link", ".public.tmp-mine", "elsewhere"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("left after cleaning (-want +got):\n%s", d)
	}
	if !IsSite(p("elsewhere")) {
		t.Error("the target of a link was touched")
	}
}

// chmodTree sets the permissions of every folder under dir.
func chmodTree(t *testing.T, dir string, perm fs.FileMode) {
	t.Helper()
	var dirs []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	if perm&0o200 == 0 {
		slices.Reverse(dirs) // deepest first, while the parents are still writable
	}
	for _, d := range dirs {
		os.Chmod(d, perm)
	}
}

func TestRemoveSiteReadOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "old")
	write(t, filepath.Join(dir, Marker), "")
	write(t, filepath.Join(dir, "a", "b", "index.html"), "x")
	chmodTree(t, dir, 0o555)
	os.Chmod(filepath.Join(dir, "a", "b", "index.html"), 0o444)
	if err := RemoveSite(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("old site still there: %v", err)
	}
}

func TestLock(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	unlock, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(out); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "wait for it to finish") {
		t.Errorf("second Lock = %v, want ErrBusy", err)
	}
	unlock()
	if _, err := os.Lstat(lockPath(out)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lock file left behind: %v", err)
	}
	unlock, err = Lock(out)
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	unlock()
}

// TestSwapNeverMissing swaps sites while a reader looks for the output
// folder's marker: on Linux (renameat2 exchange) it must always find one.
func TestSwapNeverMissing(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	probe := [2]string{filepath.Join(parent, "a"), filepath.Join(parent, "b")}
	os.Mkdir(probe[0], 0o755)
	os.Mkdir(probe[1], 0o755)
	if err := exchange(probe[0], probe[1]); err != nil {
		t.Skipf("no atomic exchange here (%v): the swap is two renames", err)
	}
	write(t, filepath.Join(out, Marker), "")
	stop := make(chan struct{})
	missing := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				missing <- n
				return
			default:
			}
			if _, err := os.Stat(filepath.Join(out, Marker)); err != nil {
				n++
			}
		}
	}()
	for i := range 300 {
		tmp, err := os.MkdirTemp(parent, TempPrefix(out))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(tmp, Marker), "")
		old, err := Swap(tmp, out)
		if err != nil {
			t.Fatalf("swap %d: %v", i, err)
		}
		if err := RemoveSite(old); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	if n := <-missing; n > 0 {
		t.Errorf("the output was missing %d times during the swaps", n)
	}
}

func TestSwap(t *testing.T) {
	for _, atomic := range []bool{true, false} {
		t.Run(map[bool]string{true: "exchange", false: "two renames"}[atomic], func(t *testing.T) {
			if !atomic {
				defer func(f func(a, b string) error) { atomicExchange = f }(atomicExchange)
				atomicExchange = func(a, b string) error { return errors.ErrUnsupported }
			}
			parent := t.TempDir()
			out := filepath.Join(parent, "public")
			site := func(content string) string {
				tmp, err := os.MkdirTemp(parent, TempPrefix(out))
				if err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(tmp, Marker), "")
				write(t, filepath.Join(tmp, "index.html"), content)
				return tmp
			}
			// The first build: nothing to move aside.
			if old, err := Swap(site("one"), out); err != nil || old != "" {
				t.Fatalf("first swap = %q, %v", old, err)
			}
			old, err := Swap(site("two"), out)
			if err != nil {
				t.Fatal(err)
			}
			if data, _ := os.ReadFile(filepath.Join(old, "index.html")); string(data) != "one" {
				t.Errorf("the previous site is not at %s: %q", old, data)
			}
			if data, _ := os.ReadFile(filepath.Join(out, "index.html")); string(data) != "two" {
				t.Errorf("the new site is not in place: %q", data)
			}
			if !strings.HasPrefix(filepath.Base(old), TempPrefix(out)) {
				t.Errorf("the previous site is at %s, which CleanLeftovers would not find", old)
			}
		})
	}
}

// A lock path taken by something that is not a perfpages lock is refused
// and left alone: a link (whose target must not be created), a file with
// other content, a named pipe (which must not hang the build).
func TestLockNotOurs(t *testing.T) {
	for name, plant := range map[string]func(path, elsewhere string) error{
		"link":        func(p, e string) error { return os.Symlink(filepath.Join(e, "created"), p) },
		"link to dir": func(p, e string) error { return os.Symlink(e, p) },
		"other file":  func(p, e string) error { return os.WriteFile(p, []byte("my notes\n"), 0o644) },
		"fifo":        func(p, e string) error { return syscall.Mkfifo(p, 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			dir, elsewhere := t.TempDir(), t.TempDir()
			out := filepath.Join(dir, "public")
			if err := plant(lockPath(out), elsewhere); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Lstat(lockPath(out))
			done := make(chan error, 1)
			go func() {
				_, err := Lock(out)
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || errors.Is(err, ErrBusy) {
					t.Fatalf("Lock = %v, want a refusal", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Lock hangs")
			}
			if _, err := os.Lstat(filepath.Join(elsewhere, "created")); err == nil {
				t.Error("Lock created the link's target")
			}
			if after, err := os.Lstat(lockPath(out)); err != nil || !os.SameFile(before, after) {
				t.Error("the file at the lock path was replaced or removed")
			}
		})
	}
	// A killed build's lock (ours, or empty) is taken over.
	out := filepath.Join(t.TempDir(), "public")
	os.WriteFile(lockPath(out), lockContent, 0o644)
	unlock, err := Lock(out)
	if err != nil {
		t.Fatalf("a killed build's lock: %v", err)
	}
	unlock()
}

// RemoveSite never follows a link to a folder: the folder it points to
// (another site, or the live output) keeps its files.
func TestRemoveSiteLink(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "public")
	write(t, filepath.Join(live, Marker), string(MarkerContent))
	write(t, filepath.Join(live, "index.html"), "live")
	link := filepath.Join(dir, ".public.spare")
	os.Symlink(live, link)
	if err := RemoveSite(link); err == nil {
		t.Error("RemoveSite of a link succeeded")
	}
	if IsSite(link) || IsOwnSite(link) {
		t.Error("a link to a site is taken for a site")
	}
	if _, err := os.Stat(filepath.Join(live, "index.html")); err != nil {
		t.Error("the link's target lost its files")
	}
	// A hand-made marker is a site for the output's guard, but never
	// perfpages' own (nothing beside the output is removed for it).
	hand := filepath.Join(dir, "hand")
	write(t, filepath.Join(hand, Marker), "")
	if !IsSite(hand) || IsOwnSite(hand) {
		t.Errorf("hand-made marker: IsSite %v, IsOwnSite %v", IsSite(hand), IsOwnSite(hand))
	}
}

// TestOwnerOf: the names of an output's spare and temporary folders give
// the output back (one definition with SparePath and TempPrefix); other
// names give nothing.
func TestOwnerOf(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	for _, name := range []string{filepath.Base(SparePath(out)), TempPrefix(out) + "123", TempPrefix(out) + "spare"} {
		if got, ok := OwnerOf(name); !ok || got != "public" {
			t.Errorf("OwnerOf(%q) = %q, %v", name, got, ok)
		}
	}
	for _, name := range []string{"public", ".spare", "..spare", ".public", "public.spare", ".tmp-1", ".benchmarks"} {
		if got, ok := OwnerOf(name); ok {
			t.Errorf("OwnerOf(%q) = %q, want none", name, got)
		}
	}
}
