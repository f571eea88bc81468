package source

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOpenGitErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	notRepo := t.TempDir()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dir  string
		want string
	}{
		{"not a repository", notRepo, notRepo + " is not a git repository (git said: fatal: not a git repository"},
		{"missing folder", filepath.Join(notRepo, "missing"), "opening git repository " + filepath.Join(notRepo, "missing") + ": no such file or directory"},
		{"file", file, "opening git repository " + file + ": not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := OpenGit(context.Background(), tt.dir)
			if err == nil {
				g.Close()
				t.Fatalf("OpenGit(%q) succeeded", tt.dir)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("OpenGit(%q) error:\n%v\nwant it to contain:\n%s", tt.dir, err, tt.want)
			}
		})
	}
}

func TestOpenGitWithoutGit(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := OpenGit(context.Background(), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "git is not installed or not in PATH") {
		t.Errorf("OpenGit without git: error %v, want one saying git is not installed", err)
	}
}

func TestShallowClone(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: clones repositories")
	}
	r, _ := nightlyRepo(t)
	r.git("checkout", "-q", "--orphan", "main")
	r.git("rm", "-rqf", ".")
	r.commit("project 1")
	r.commit("project 2")
	clone := filepath.Join(t.TempDir(), "clone")
	r.runIn("", "clone", "-q", "--depth", "1", "--branch", "main", "file://"+r.dir, clone)
	g := openGit(t, clone)
	ctx := context.Background()

	wantText := "git repository " + clone + " is a shallow clone, so the history of main is incomplete: " +
		`fetch all of it with "git fetch --unshallow" (in GitHub Actions, use actions/checkout with "fetch-depth: 0")`
	t.Run("ProjectHistory", func(t *testing.T) {
		_, err := g.ProjectHistory(ctx, "main")
		var se *ShallowError
		if !errors.As(err, &se) || err.Error() != wantText {
			t.Errorf("ProjectHistory error:\n%v\nwant:\n%s", err, wantText)
		}
	})
	t.Run("History", func(t *testing.T) {
		_, err := g.History(ctx, "main", "", nil)
		if err == nil || err.Error() != wantText {
			t.Errorf("History error:\n%v\nwant:\n%s", err, wantText)
		}
	})
	t.Run("complete branch in a shallow clone", func(t *testing.T) {
		// CI checks out the project at depth 1, then fetches the whole
		// results branch, which shares no history with it.
		r.runIn(clone, "fetch", "-q", "origin", "perf-results:perf-results")
		files, err := g.History(ctx, "perf-results", "results", isJSON)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 7 {
			t.Errorf("History returned %d files, want 7", len(files))
		}
	})
}

func TestMissingRef(t *testing.T) {
	r, _ := nightlyRepo(t)
	g := r.open()
	ctx := context.Background()
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{
			name: "History",
			call: func() error { _, err := g.History(ctx, "results-branch", "", nil); return err },
			want: `ref "results-branch" not found in git repository ` + r.dir + `: fetch it with "git fetch origin results-branch"`,
		},
		{
			name: "History of a remote branch",
			call: func() error { _, err := g.History(ctx, "origin/perf", "", nil); return err },
			want: `ref "origin/perf" not found in git repository ` + r.dir + `: fetch it with "git fetch origin perf"`,
		},
		{
			name: "ProjectHistory",
			call: func() error { _, err := g.ProjectHistory(ctx, "trunk"); return err },
			want: `ref "trunk" not found in git repository ` + r.dir + `: fetch it with "git fetch origin trunk"`,
		},
		{
			name: "Notes",
			call: func() error { _, err := g.Notes(ctx, "refs/notes/perf"); return err },
			want: `notes ref "refs/notes/perf" not found in git repository ` + r.dir + `: fetch it with "git fetch origin refs/notes/perf:refs/notes/perf"`,
		},
		{
			name: "Notes by short name",
			call: func() error { _, err := g.Notes(ctx, "perf"); return err },
			want: `notes ref "refs/notes/perf" not found in git repository ` + r.dir + `: fetch it with "git fetch origin refs/notes/perf:refs/notes/perf"`,
		},
		{
			name: "option-like ref",
			call: func() error { _, err := g.History(ctx, "--all", "", nil); return err },
			want: `git repository ` + r.dir + `: invalid ref "--all"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tt.want)
			}
		})
	}
}

func TestEmptyRepository(t *testing.T) {
	r := newTestRepo(t)
	g := r.open()
	_, err := g.ProjectHistory(context.Background(), "")
	want := "git repository " + r.dir + " has no commits: HEAD does not name a commit"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}

func TestCommandErrorIncludesStderr(t *testing.T) {
	r, _ := nightlyRepo(t)
	g := r.open()
	_, err := g.output(context.Background(), "log", "--no-such-option")
	want := "git log in " + r.dir + ": fatal: unrecognized argument: --no-such-option (exit status 128)"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}

func TestCancel(t *testing.T) {
	r, c := nightlyRepo(t)
	r.git("notes", "--ref=perf", "add", "-m", "{}", c[0])
	g := r.open()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]func() error{
		"History":        func() error { _, err := g.History(ctx, "perf-results", "", nil); return err },
		"Notes":          func() error { _, err := g.Notes(ctx, "perf"); return err },
		"ProjectHistory": func() error { _, err := g.ProjectHistory(ctx, "perf-results"); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v, want context.Canceled", name, err)
		}
	}
}

func TestCatFileKilledOnCancel(t *testing.T) {
	r, _ := nightlyRepo(t)
	g := r.open()
	blob := r.git("rev-parse", "perf-results:results/latest.json")

	// Stand in for a cat-file that never answers, so that the read is
	// certainly under way when the context ends.
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	cmd := exec.Command(sleep, "60")
	requests, stdin := io.Pipe()
	stuck := &catFile{cmd: cmd, stdin: stdin, stderr: &tailWriter{}}
	stdout, _ := cmd.StdoutPipe()
	stuck.stdout = bufio.NewReader(stdout)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	g.cat = stuck
	g.mu.Unlock()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, _, err := g.readBlobs(ctx, []string{blob})
		done <- err
	}()
	// Once the request arrives the read is under way.
	if line, err := bufio.NewReader(requests).ReadString('\n'); err != nil || line != blob+"\n" {
		t.Fatalf("request %q, %v", line, err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("readBlobs cancelled mid-read: error %v, want context.Canceled", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.Success() {
		t.Errorf("the child process was not killed: %v", cmd.ProcessState)
	}
	// The next read starts a new cat-file.
	data, _, err := g.readBlobs(context.Background(), []string{blob})
	if err != nil || string(data[0]) != "L1" {
		t.Fatalf("readBlobs after a cancelled read = %q, %v", data, err)
	}
}

func TestReadBlobErrors(t *testing.T) {
	r, _ := nightlyRepo(t)
	g := r.open()
	ctx := context.Background()
	tree := r.git("rev-parse", "perf-results^{tree}")
	tests := []struct {
		name string
		ids  []string
		want string
	}{
		{"missing", []string{strings.Repeat("ab", 20)}, "git cat-file in " + r.dir + ": blob " + strings.Repeat("ab", 20) + ": object missing"},
		{"not a blob", []string{tree}, "git cat-file in " + r.dir + ": reading blob " + tree + ": object is a tree"},
		{"not an id", []string{"HEAD\nHEAD"}, "git cat-file in " + r.dir + `: invalid object id "HEAD\nHEAD"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := g.readBlobs(ctx, tt.ids)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tt.want)
			}
		})
	}
	// After an error the next read starts afresh.
	blob := r.git("rev-parse", "perf-results:results/latest.json")
	if data, _, err := g.readBlobs(ctx, []string{blob}); err != nil || string(data[0]) != "L1" {
		t.Errorf("readBlobs after errors = %q, %v", data, err)
	}
}

func TestConcurrentUse(t *testing.T) {
	r, _ := nightlyRepo(t)
	g := r.open()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			files, err := g.History(context.Background(), "perf-results", "results", isJSON)
			if err != nil || len(files) != 7 {
				t.Errorf("History = %d files, %v; want 7 files", len(files), err)
			}
		})
	}
	wg.Wait()
}

func TestClose(t *testing.T) {
	r, _ := nightlyRepo(t)
	g, err := OpenGit(context.Background(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.History(context.Background(), "perf-results", "", nil); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := g.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	_, err = g.History(context.Background(), "perf-results", "", nil)
	if want := "git repository " + r.dir + ": read after Close"; err == nil || err.Error() != want {
		t.Errorf("History after Close: error %v, want %q", err, want)
	}
}

// TestRemoteBranchFallback: a plain branch name the clone has only as a
// remote-tracking branch (actions/checkout, git clone) resolves to it, so
// ref = "perf-results" works in CI; a local branch still wins.
func TestRemoteBranchFallback(t *testing.T) {
	r, c := nightlyRepo(t)
	// A clone of r: perf-results exists only as origin/perf-results, and
	// main as origin/main.
	r.git("checkout", "-q", "--orphan", "main")
	r.git("rm", "-rfq", ".")
	mainTip := r.commit("project start")
	clone := filepath.Join(t.TempDir(), "clone")
	r.runIn("", "clone", "-q", "--no-checkout", r.dir, clone)
	r.runIn(clone, "update-ref", "-d", "refs/heads/main") // as in a PR checkout: no local main
	g := openGit(t, clone)
	ctx := context.Background()

	files, err := g.History(ctx, "perf-results", "results", nil)
	if err != nil {
		t.Fatalf("History(perf-results) in a clone: %v", err)
	}
	if len(files) == 0 || !strings.HasPrefix(files[0].Origin, "perf-results@") {
		t.Errorf("files = %v, want versions named perf-results@…", files)
	}
	if h, err := g.ProjectHistory(ctx, "main"); err != nil || len(h.Main) != 1 || h.Main[0].ID != mainTip || h.Main[0].Branch != "main" {
		t.Errorf("ProjectHistory(main) = %+v, %v; want origin/main's one commit %s on branch main", h, err, mainTip)
	}

	tests := []struct {
		ref     string
		want    string // sha, or "" when an error is expected
		wantErr string
	}{
		{ref: "perf-results", want: c[3]},
		{ref: "origin/perf-results", want: c[3]},
		{ref: "refs/remotes/origin/perf-results", want: c[3]},
		{ref: "main", want: mainTip},
		// Full refs and revision expressions are taken as written.
		{ref: "refs/heads/perf-results", wantErr: `ref "refs/heads/perf-results" not found`},
		{ref: "perf-results~1", wantErr: `ref "perf-results~1" not found`},
		{ref: "nope", wantErr: `ref "nope" not found in git repository ` + clone + `: fetch it with "git fetch origin nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			got, err := g.resolve(ctx, tt.ref)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("resolve(%q) = %q, %v; want an error with %q", tt.ref, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("resolve(%q) = %q, %v; want %s", tt.ref, got, err, tt.want)
			}
		})
	}

	// A local branch of the name wins over the remote one, as in git.
	r.runIn(clone, "branch", "perf-results", c[0])
	if got, err := g.resolve(ctx, "perf-results"); err != nil || got != c[0] {
		t.Errorf("with a local branch: resolve = %q, %v; want the local %s", got, err, c[0])
	}
	r.runIn(clone, "branch", "-D", "perf-results")

	// Another remote is used when it is the only one with the branch;
	// two remotes without origin's are ambiguous.
	r.runIn(clone, "update-ref", "refs/remotes/fork/only-fork", c[1])
	if got, err := g.resolve(ctx, "only-fork"); err != nil || got != c[1] {
		t.Errorf("only-fork = %q, %v; want fork's %s", got, err, c[1])
	}
	r.runIn(clone, "update-ref", "refs/remotes/upstream/only-fork", c[2])
	if _, err := g.resolve(ctx, "only-fork"); err == nil || !strings.Contains(err.Error(), `no branch "only-fork" but several remotes do (fork/only-fork, upstream/only-fork)`) {
		t.Errorf("ambiguous remotes: err = %v", err)
	}
	// origin's wins over the others.
	r.runIn(clone, "update-ref", "refs/remotes/upstream/perf-results", c[2])
	if got, err := g.resolve(ctx, "perf-results"); err != nil || got != c[3] {
		t.Errorf("perf-results with two remotes = %q, %v; want origin's %s", got, err, c[3])
	}
}

// TestResolveSaysWhichRef: Resolve names the ref and commit a source
// reads, and says why when the name could mean another: only origin's
// remote-tracking branch exists (as of the last fetch), or a local branch
// that differs from origin's is read (a local build once silently read a
// stale refs/remotes/origin/perf-results).
func TestResolveSaysWhichRef(t *testing.T) {
	r, c := nightlyRepo(t) // perf-results: c[0] … c[3], dated 2026-03-01
	r.git("tag", "v0.1", c[1])
	clone := filepath.Join(t.TempDir(), "clone")
	r.runIn("", "clone", "-q", "--no-checkout", r.dir, clone)
	g := openGit(t, clone)
	ctx := context.Background()
	resolve := func(ref string) RefRead {
		t.Helper()
		got, err := g.Resolve(ctx, ref)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", ref, err)
		}
		return got
	}
	const date = "2026-03-01"

	// The clone checked out perf-results; remove the local branch, as a
	// clone of another branch or actions/checkout leaves it.
	r.runIn(clone, "update-ref", "--no-deref", "HEAD", c[0])
	r.runIn(clone, "update-ref", "-d", "refs/heads/perf-results")
	want := RefRead{Asked: "perf-results", Ref: "refs/remotes/origin/perf-results", Commit: c[3], Date: date,
		Note: "there is no local branch perf-results, so the remote-tracking branch origin/perf-results is read, as of the last fetch (git fetch origin perf-results for the newest)"}
	if d := cmp.Diff(want, resolve("perf-results")); d != "" {
		t.Errorf("only origin's (-want +got):\n%s", d)
	}
	if got := resolve("perf-results").String(); got != "perf-results → refs/remotes/origin/perf-results at "+c[3][:7]+" ("+date+"): "+want.Note {
		t.Errorf("String() = %q", got)
	}

	for _, tt := range []struct {
		name, local string
		want        string // the note
	}{
		{"the same as origin's", c[3], ""},
		{"behind origin's", c[1], "the local branch perf-results is read, as git reads it; origin/perf-results (at " + c[3][:7] + ") is 2 commits ahead of it: to read them, fast-forward it (git fetch origin perf-results:perf-results, or git pull where it is checked out)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r.runIn(clone, "update-ref", "refs/heads/perf-results", tt.local)
			want := RefRead{Asked: "perf-results", Ref: "refs/heads/perf-results", Commit: tt.local, Date: date, Note: tt.want}
			if d := cmp.Diff(want, resolve("perf-results")); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	// A local commit origin does not have yet, then origin moving on too.
	r.runIn(clone, "update-ref", "refs/heads/perf-results", c[3])
	tree := r.runIn(clone, "rev-parse", c[3]+"^{tree}")
	mine := r.runIn(clone, "commit-tree", "-p", c[3], "-m", "local run", tree)
	r.runIn(clone, "update-ref", "refs/heads/perf-results", mine)
	if got := resolve("perf-results"); got.Commit != mine || got.Note != "the local branch perf-results is read, as git reads it; it is 1 commit ahead of origin/perf-results (at "+c[3][:7]+"), not pushed yet" {
		t.Errorf("ahead: %+v", got)
	}
	theirs := r.runIn(clone, "commit-tree", "-p", c[3], "-m", "CI run", tree)
	r.runIn(clone, "update-ref", "refs/remotes/origin/perf-results", theirs)
	if got := resolve("perf-results"); got.Note != "the local branch perf-results is read, as git reads it; it and origin/perf-results (at "+theirs[:7]+") have diverged: 1 commit only here, 1 commit only there" {
		t.Errorf("diverged: %+v", got)
	}

	// Names that are not branches are read as written, with their full
	// name when they have one.
	for _, tt := range []struct{ ref, full, commit string }{
		{"v0.1", "refs/tags/v0.1", c[1]},
		{c[2], c[2], c[2]},
		{"refs/remotes/origin/perf-results", "refs/remotes/origin/perf-results", theirs},
		{"HEAD", "HEAD", c[0]}, // detached
	} {
		if got := resolve(tt.ref); got.Ref != tt.full || got.Commit != tt.commit || got.Note != "" {
			t.Errorf("Resolve(%q) = %+v, want %s at %s", tt.ref, got, tt.full, tt.commit)
		}
	}
}
