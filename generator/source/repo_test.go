package source

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testRepo builds a real git repository in a temporary folder. Names,
// emails and dates are fixed, so commits are the same on every run; the
// clock moves one hour per commit.
type testRepo struct {
	t     testing.TB
	dir   string
	clock time.Time
	zone  *time.Location // the zone commit dates are written in
	home  string
}

func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &testRepo{
		t:     t,
		dir:   filepath.Join(t.TempDir(), "repo"),
		clock: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC),
		zone:  time.UTC,
		home:  t.TempDir(),
	}
	r.runIn("", "-c", "init.defaultBranch=main", "init", "-q", r.dir)
	return r
}

// env isolates git from the user's configuration and fixes identities
// and dates.
func (r *testRepo) env() []string {
	date := r.clock.In(r.zone).Format(time.RFC3339)
	return append(os.Environ(),
		"HOME="+r.home,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+filepath.Join(r.home, "gitconfig"),
		"GIT_AUTHOR_NAME=Ada Author", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Cy Committer", "GIT_COMMITTER_EMAIL=cy@example.com", "GIT_COMMITTER_DATE="+date,
	)
}

// git runs git in the repository and returns its trimmed output.
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	return r.runIn(r.dir, args...)
}

func (r *testRepo) runIn(dir string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = r.env()
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// change is a file to write, or with del set, to remove.
type change struct {
	path, data string
	del        bool
}

func put(path, data string) change { return change{path: path, data: data} }
func del(path string) change       { return change{path: path, del: true} }

func (r *testRepo) apply(changes []change) {
	r.t.Helper()
	for _, c := range changes {
		p := filepath.Join(r.dir, filepath.FromSlash(c.path))
		if c.del {
			if err := os.Remove(p); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// commit applies changes, commits them with message msg (subject, blank
// line, body) and returns the new commit's sha.
func (r *testRepo) commit(msg string, changes ...change) string {
	r.t.Helper()
	r.apply(changes)
	r.clock = r.clock.Add(time.Hour)
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// merge merges branch into the current branch with a merge commit and
// returns its sha.
func (r *testRepo) merge(branch, msg string) string {
	r.t.Helper()
	r.clock = r.clock.Add(time.Hour)
	r.git("merge", "-q", "--no-ff", "-m", msg, branch)
	return r.git("rev-parse", "HEAD")
}

// open opens the repository with OpenGit and closes it after the test.
func (r *testRepo) open() *Git {
	r.t.Helper()
	return openGit(r.t, r.dir)
}

func openGit(t testing.TB, dir string) *Git {
	t.Helper()
	g, err := OpenGit(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := g.Close(); err != nil {
			t.Error(err)
		}
	})
	return g
}
