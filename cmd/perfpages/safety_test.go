package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/generator"
)

// These tests pin that no command destroys or leaks a user's files (see
// package outdir).

// TestPerfpagesMain is not a test of its own: run by the tests below as a
// subprocess with PERFPAGES_MAIN_ARGS set, it is the perfpages command
// (main, with its signal handling), so they can kill and signal it.
func TestPerfpagesMain(t *testing.T) {
	args := os.Getenv("PERFPAGES_MAIN_ARGS")
	if args == "" {
		t.Skip("the perfpages command for the subprocess tests")
	}
	os.Args = append([]string{"perfpages"}, strings.Split(args, "\x1f")...)
	main()
	os.Exit(0)
}

// command returns the perfpages command as a subprocess in dir.
func command(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPerfpagesMain$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PERFPAGES_MAIN_ARGS="+strings.Join(args, "\x1f"))
	return cmd
}

// listing is every path under dir with its mode and content, to show that
// a refused command touched nothing.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, _ := d.Info()
		rel, _ := filepath.Rel(dir, p)
		line := rel + " " + info.Mode().String()
		if info.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			line += " " + string(data)
		}
		out = append(out, line)
		return nil
	})
	return out
}

// scratchProject is a project as a user has it: a git work tree with its
// config, results, content and an unrelated file. n archives form a main
// line of n commits.
func scratchProject(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	for _, d := range []string{".git", "results", "content"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte("[[sources]]\ndir = \"results\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "content", "about.md"), []byte("# About\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "somefile"), []byte("keep me"), 0o644)
	parent := ""
	start := time.Date(2026, 9, 7, 10, 0, 0, 0, time.UTC)
	for i := range n {
		sha := fmt.Sprintf("%040x", i+1)
		date := start.Add(time.Duration(i) * time.Hour).Format(time.RFC3339)
		os.WriteFile(filepath.Join(dir, "results", fmt.Sprintf("%03d.json", i)), []byte(archive(sha, date, parent, fmt.Sprint(100+i%7))), 0o644)
		parent = sha
	}
	return dir
}

// TestBuildRefusesToDestroy runs build into every output that would lose
// a user's files: each is refused with one line naming the folder, why and
// the fix, before anything is read or written.
func TestBuildRefusesToDestroy(t *testing.T) {
	proj := scratchProject(t, 2)
	before := listing(t, filepath.Dir(proj))
	tests := []struct {
		out, want string
	}{
		{".", "refusing to replace .: it is the current folder"},
		{proj, "refusing to replace " + proj + ": it is the current folder"},
		{"..", "refusing to replace ..: it contains the current folder"},
		{"results", "refusing to replace results: it is a source folder ([[sources]] dir); choose another output folder"},
		{"content", "refusing to replace content: it is the content folder (site.content)"},
		{"somefile", "refusing to replace somefile: it is a file, not a folder"},
		{".git/site", "it is inside a git repository's .git folder"},
	}
	for _, tt := range tests {
		t.Run(tt.out, func(t *testing.T) {
			_, stderr, err := runCLI(t, proj, "build", "-out", tt.out)
			if err == nil {
				t.Fatal("build succeeded")
			}
			if !strings.HasPrefix(stderr, "perfpages: refusing to replace "+tt.out+": ") || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr = %q, want one line with %q", stderr, tt.want)
			}
		})
	}
	if d := cmp.Diff(before, listing(t, filepath.Dir(proj))); d != "" {
		t.Errorf("a refused build touched the project (-before +after):\n%s", d)
	}
	// The config's own output = "." (and from another folder, so that it
	// is the config folder that is named).
	os.WriteFile(filepath.Join(proj, "perfpages.toml"), []byte("[site]\noutput = \".\"\n[[sources]]\ndir = \"results\"\n"), 0o644)
	before = listing(t, filepath.Dir(proj))
	_, stderr, err := runCLI(t, filepath.Dir(proj), "build", "-config", "proj/perfpages.toml")
	if want := "perfpages: refusing to replace " + proj + ": it is the config folder (it holds perfpages.toml)"; err == nil || !strings.HasPrefix(stderr, want) {
		t.Errorf("output = \".\": stderr = %q, want %q", stderr, want)
	}
	if d := cmp.Diff(before, listing(t, filepath.Dir(proj))); d != "" {
		t.Errorf("a refused build touched the project (-before +after):\n%s", d)
	}
}

// TestBuildReplacesOnlySites: a build replaces its own previous site and
// an empty folder, and refuses a folder someone filled by hand.
func TestBuildReplacesOnlySites(t *testing.T) {
	proj := scratchProject(t, 2)
	for i := range 2 {
		if _, stderr, err := runCLI(t, proj, "build", "-out", "site"); err != nil {
			t.Fatalf("build %d: %v\n%s", i, err, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, "site", ".perfpages-site")); err != nil {
		t.Errorf("the site has no marker: %v", err)
	}
	os.MkdirAll(filepath.Join(proj, "empty"), 0o755)
	if _, stderr, err := runCLI(t, proj, "build", "-out", "empty"); err != nil {
		t.Errorf("building into an empty folder: %v\n%s", err, stderr)
	}
	os.MkdirAll(filepath.Join(proj, "hand"), 0o755)
	os.WriteFile(filepath.Join(proj, "hand", "index.html"), []byte("mine"), 0o644)
	_, stderr, err := runCLI(t, proj, "build", "-out", "hand")
	if err == nil || !strings.Contains(stderr, "choose an empty folder or a previous perfpages site") {
		t.Errorf("building over a hand-made folder: %v, %q", err, stderr)
	}
}

// TestBuildContentStaysInside: links out of content/, a named pipe and a
// device are skipped with a warning naming each; nothing of them reaches
// the site, and the build neither hangs nor fails.
func TestBuildContentStaysInside(t *testing.T) {
	proj := scratchProject(t, 2)
	c := filepath.Join(proj, "content")
	os.Symlink("/etc/passwd", filepath.Join(c, "passwd.md"))
	os.Symlink("/proc/self/environ", filepath.Join(c, "environ.md"))
	os.Symlink("/dev/null", filepath.Join(c, "null.md"))
	if err := syscall.Mkfifo(filepath.Join(c, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(proj, "themes", "t", "static"), 0o755)
	os.Symlink("/etc/passwd", filepath.Join(proj, "themes", "t", "static", "passwd.txt"))
	os.Symlink("/proc/self", filepath.Join(proj, "themes", "t", "layouts"))
	os.WriteFile(filepath.Join(proj, "perfpages.toml"), []byte("[site]\ntheme = \"t\"\n[[sources]]\ndir = \"results\"\n"), 0o644)

	_, stderr, err := runCLI(t, proj, "build")
	if err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	for _, name := range []string{"content/passwd.md", "content/environ.md", "content/null.md", "content/pipe.md", "themes/t/static/passwd.txt", "themes/t/layouts"} {
		if !strings.Contains(stderr, filepath.Join(proj, name)+": ") {
			t.Errorf("no warning names %s:\n%s", name, stderr)
		}
	}
	filepath.WalkDir(filepath.Join(proj, "public"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			if strings.Contains(string(data), "root:x:0") {
				t.Errorf("%s leaks a file from outside the project", p)
			}
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(proj, "public", "about", "index.html")); err != nil {
		t.Errorf("the good page is missing: %v", err)
	}
}

// TestKilledBuildsLeaveNothing kills builds with SIGKILL while they write
// the new site, eight times, then runs one good build: no temporary
// folder, old site or lock file of the killed ones is left (only the
// spare site, which every build keeps).
func TestKilledBuildsLeaveNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a site nine times")
	}
	proj := scratchProject(t, 80)
	if _, stderr, err := runCLI(t, proj, "build"); err != nil {
		t.Fatalf("first build: %v\n%s", err, stderr)
	}
	leftovers := func() []string {
		var out []string
		entries, _ := os.ReadDir(proj)
		for _, e := range entries {
			// The spare (the site before, kept for the next build to
			// start from) is not a leftover.
			if strings.HasPrefix(e.Name(), ".public.") && e.Name() != ".public.spare" {
				out = append(out, e.Name())
			}
		}
		return out
	}
	// tmpFiles counts the files in the temporary folders (-1: none).
	tmpFiles := func(skip map[string]bool) int {
		n := -1
		for _, name := range leftovers() {
			if !strings.Contains(name, ".tmp-") || skip[name] {
				continue
			}
			n = max(n, 0)
			filepath.WalkDir(filepath.Join(proj, name), func(string, fs.DirEntry, error) error { n++; return nil })
		}
		return n
	}
	// Each build is killed once its own temporary folder holds a few more
	// files than the last one's: early (right after the folder exists) to
	// late in the writing.
	killed := 0
	for attempt := 0; killed < 8 && attempt < 40; attempt++ {
		old := map[string]bool{}
		for _, name := range leftovers() {
			old[name] = true
		}
		// -cold: the site is up to date, a plain build would write nothing.
		cmd := command(t, proj, "build", "-cold")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		threshold := killed * killed * 4
	poll:
		for {
			select {
			case <-done:
				break poll
			default:
			}
			if tmpFiles(old) >= threshold {
				cmd.Process.Kill()
				killed++
				break
			}
		}
		<-done
	}
	if killed < 8 {
		t.Fatalf("only %d builds were killed while writing", killed)
	}
	t.Logf("left by %d killed builds: %v", killed, leftovers())
	if _, stderr, err := runCLI(t, proj, "build"); err != nil {
		t.Fatalf("good build: %v\n%s", err, stderr)
	}
	if got := leftovers(); len(got) > 0 {
		t.Errorf("left after a good build: %v", got)
	}
	if _, err := os.Stat(filepath.Join(proj, "public", "index.html")); err != nil {
		t.Error(err)
	}
}

// TestServeRemovesItsFolder sends serve SIGTERM, then SIGINT: each time it
// stops and removes its temporary folder.
func TestServeRemovesItsFolder(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			proj := scratchProject(t, 2)
			tmp := t.TempDir()
			cmd := command(t, proj, "serve", "-addr", "127.0.0.1:0", "-poll", "1h")
			cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			for sc.Scan() && !strings.HasPrefix(sc.Text(), "serving ") {
			}
			if entries, _ := os.ReadDir(tmp); len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "perfpages-serve-") {
				t.Errorf("serve's folder is not in TMPDIR: %v", entries)
			}
			cmd.Process.Signal(sig)
			go func() {
				for sc.Scan() {
				}
			}()
			if err := cmd.Wait(); err != nil {
				t.Errorf("serve exited with %v", err)
			}
			if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
				t.Errorf("left in TMPDIR after %v: %v", sig, entries)
			}
		})
	}
}

// TestServeWatchesAnnotations: serve watches annotations.yaml beside the
// config, even one created after it started.
func TestServeWatchesAnnotations(t *testing.T) {
	proj := scratchProject(t, 2)
	t.Chdir(proj)
	s, err := generator.Open("")
	if err != nil {
		t.Fatal(err)
	}
	before := fingerprint(t.Context(), s, "")
	os.WriteFile(filepath.Join(proj, "annotations.yaml"), []byte("acknowledged: []\n"), 0o644)
	if fingerprint(t.Context(), s, "") == before {
		t.Error("creating annotations.yaml does not change the fingerprint")
	}
}

// TestImportOut: import adds archives to its folder, keeping what is
// there, and refuses a plain file, .git and a site (whose files the next
// build would delete).
func TestImportOut(t *testing.T) {
	proj := scratchProject(t, 2)
	in := foreignFixture(t, "gobench/sort.txt")
	os.MkdirAll(filepath.Join(proj, "public"), 0o755)
	os.WriteFile(filepath.Join(proj, "public", ".perfpages-site"), nil, 0o644)
	before := listing(t, proj)
	for out, want := range map[string]string{
		"somefile":    "perfpages: import: refusing to write into somefile: it is a file, not a folder",
		".git/x":      "it is inside a git repository's .git folder",
		"public/data": "perfpages: import: refusing to write archives into public/data: it is inside the perfpages site " + filepath.Join(proj, "public") + ", which the next build replaces",
	} {
		_, stderr, err := runCLI(t, proj, "import", "-artifact", strings.Repeat("c", 40), "-date", "2026-09-09", "-out", out, in)
		if err == nil || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("import -out %s: %v, stderr %q, want %q", out, err, stderr, want)
		}
	}
	if d := cmp.Diff(before, listing(t, proj)); d != "" {
		t.Errorf("a refused import touched the project (-before +after):\n%s", d)
	}
	if _, stderr, err := runCLI(t, proj, "import", "-artifact", strings.Repeat("c", 40), "-date", "2026-09-09", "-out", "results", in); err != nil {
		t.Fatalf("import into the results folder: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(proj, "results", "000.json")); err != nil {
		t.Errorf("import lost an existing archive: %v", err)
	}
}

// TestCheckOutDir: check refuses a plain file as -out-dir before reading
// anything.
func TestCheckOutDir(t *testing.T) {
	proj := scratchProject(t, 1)
	_, stderr, err := runCLI(t, proj, "check", "-current", "missing.json", "-out-dir", "somefile")
	if want := "perfpages: check: -out-dir: refusing to write into somefile: it is a file, not a folder; give a folder\n"; err == nil || stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
	if data, _ := os.ReadFile(filepath.Join(proj, "somefile")); string(data) != "keep me" {
		t.Error("somefile changed")
	}
}

// TestDemoOut: demo writes into a new or empty folder or over an earlier
// demo, never into a folder with other files.
func TestDemoOut(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: writes and builds the demo data")
	}
	proj := scratchProject(t, 1)
	before := listing(t, proj)
	for _, out := range []string{".", "results", "somefile"} {
		_, stderr, err := runCLI(t, proj, "demo", "-size", "S", "-out", out)
		if err == nil || !strings.HasPrefix(stderr, "perfpages: demo: refusing to write") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("demo -out %s: %v, stderr %q", out, err, stderr)
		}
	}
	if d := cmp.Diff(before, listing(t, proj)); d != "" {
		t.Errorf("a refused demo touched the project (-before +after):\n%s", d)
	}
	os.MkdirAll(filepath.Join(proj, "empty"), 0o755)
	for _, out := range []string{"new", "empty", "new"} {
		if _, stderr, err := runCLI(t, proj, "demo", "-size", "S", "-out", out); err != nil {
			t.Errorf("demo -out %s: %v\n%s", out, err, stderr)
		}
	}
	// An earlier demo that became a git work tree is a project now.
	os.MkdirAll(filepath.Join(proj, "new", ".git"), 0o755)
	if _, stderr, err := runCLI(t, proj, "demo", "-size", "S", "-out", "new"); err == nil || !strings.Contains(stderr, "it is a git work tree") {
		t.Errorf("demo -out over a git work tree: %v, stderr %q", err, stderr)
	}
}
