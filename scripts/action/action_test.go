package action

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests run the action's scripts as the action does, against a
// scratch project with a bare "origin" in a temporary folder; the GitHub
// API is a local fake. Nothing touches the network.

var (
	binOnce sync.Once
	binDir  string
	binOut  string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// needTools skips the test when a tool the scripts need is missing.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range append([]string{"bash", "git"}, tools...) {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

// moduleRoot is the perfpages checkout the action is built from (its
// github.action_path).
func moduleRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// perfpages installs perfpages with install.sh, as the action does, once
// per test binary, and returns the binary.
func perfpages(t *testing.T) string {
	t.Helper()
	needTools(t, "go")
	binOnce.Do(func() {
		// The scripts run in bash and the binary is built by go build:
		// reading their files here tells go test's cache that the results
		// depend on them.
		for _, dir := range []string{"go.mod", "go.sum", "cmd", "analysis", "generator", "themes", "content", "scripts/action", "action.yml"} {
			filepath.WalkDir(filepath.Join(moduleRoot(t), dir), func(p string, d os.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && !strings.Contains(p, "testdata") {
					os.ReadFile(p)
				}
				return nil
			})
		}
		binDir, binErr = os.MkdirTemp("", "perfpages-action-bin-")
		if binErr != nil {
			return
		}
		cmd := exec.Command("bash", filepath.Join(moduleRoot(t), "scripts", "action", "install.sh"), "build")
		cmd.Env = append(os.Environ(), "PERFPAGES_BIN_DIR="+binDir, "PERFPAGES_VERSION=v0.0.0-test",
			"GITHUB_ACTION_PATH="+moduleRoot(t), "GITHUB_PATH="+filepath.Join(binDir, "github-path"))
		out, err := cmd.CombinedOutput()
		binOut = string(out)
		if err != nil {
			binErr = fmt.Errorf("install.sh build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, "perfpages")
}

// TestInstall: install.sh builds a binary that reports the action's
// version, puts its folder on GITHUB_PATH, and a second run uses the
// cached binary; the cache key is stable.
func TestInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds perfpages with go build")
	}
	bin := perfpages(t)
	if !strings.HasPrefix(binOut, "perfpages v0.0.0-test (") {
		t.Errorf("install.sh build printed %q, want the version", binOut)
	}
	if p, _ := os.ReadFile(filepath.Join(binDir, "github-path")); strings.TrimSpace(string(p)) != binDir {
		t.Errorf("GITHUB_PATH got %q, want %s", p, binDir)
	}
	cmd := exec.Command("bash", filepath.Join(moduleRoot(t), "scripts", "action", "install.sh"), "build")
	cmd.Env = append(os.Environ(), "PERFPAGES_BIN_DIR="+binDir, "GITHUB_ACTION_PATH=/nonexistent")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "using the cached "+bin) {
		t.Errorf("second install: %v\n%s", err, out)
	}
	var keys []string
	for range 2 {
		out, err := exec.Command("bash", filepath.Join(moduleRoot(t), "scripts", "action", "install.sh"), "key").Output()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, strings.TrimSpace(string(out)))
	}
	if !regexp.MustCompile(`^perfpages-bin-[A-Za-z]+-[a-z0-9_]+-[0-9a-f]{20}$`).MatchString(keys[0]) || keys[0] != keys[1] {
		t.Errorf("keys %q", keys)
	}
}

// scratch is a user's project: a bare origin and clones of it. Its
// perfpages.toml is the README's (readmeConfig): results on perf-results,
// the project's history, a 10 % budget on wall-time.
type scratch struct {
	t      *testing.T
	dir    string
	origin string
	proj   string            // the clone the project was made in
	sha    map[string]string // commit name → sha
	env    []string
	clock  time.Time
}

func newScratch(t *testing.T) *scratch {
	t.Helper()
	needTools(t)
	s := &scratch{t: t, dir: t.TempDir(), sha: map[string]string{}, clock: time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)}
	home := filepath.Join(s.dir, "home")
	os.Mkdir(home, 0o755)
	os.WriteFile(filepath.Join(home, "gitconfig"), []byte("[init]\n\tdefaultBranch = main\n"), 0o644)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GITHUB_") && !strings.HasPrefix(kv, "PP_") && !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "PERFPAGES") {
			s.env = append(s.env, kv)
		}
	}
	s.env = append(s.env, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, "gitconfig"),
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com")
	s.origin = filepath.Join(s.dir, "origin.git")
	s.proj = filepath.Join(s.dir, "proj")
	s.git("", "init", "-q", "--bare", s.origin)
	s.git("", "clone", "-q", s.origin, s.proj)
	// The README's perfpages.toml, as a new user copies it.
	os.WriteFile(filepath.Join(s.proj, "perfpages.toml"), []byte(readmeConfig(t)), 0o644)
	s.commit("c1", "Start")
	s.commit("c2", "Speed up parsing (#5)")
	s.git(s.proj, "push", "-q", "origin", "main")
	s.git(s.proj, "checkout", "-q", "-b", "feature")
	s.commit("c3", "Parse more")
	s.git(s.proj, "push", "-q", "origin", "feature")
	s.git(s.proj, "checkout", "-q", "main")
	return s
}

// git runs git in dir and returns its trimmed output.
func (s *scratch) git(dir string, args ...string) string {
	s.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = slices.Concat(s.env, []string{"GIT_COMMITTER_DATE=" + s.clock.Format(time.RFC3339), "GIT_AUTHOR_DATE=" + s.clock.Format(time.RFC3339)})
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (s *scratch) commit(name, msg string) {
	s.t.Helper()
	s.clock = s.clock.Add(24 * time.Hour)
	s.git(s.proj, "add", "-A")
	s.git(s.proj, "commit", "-q", "--allow-empty", "-m", msg)
	s.sha[name] = s.git(s.proj, "rev-parse", "HEAD")
}

// clone makes another checkout of origin, as a CI job starts with.
func (s *scratch) clone(name string) string {
	s.t.Helper()
	dir := filepath.Join(s.dir, name)
	s.git("", "clone", "-q", s.origin, dir)
	return dir
}

// benchFile writes go test -bench output whose ns/op are about ns.
func (s *scratch) benchFile(name string, ns float64) string {
	s.t.Helper()
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/proj\n")
	for _, bench := range []string{"Parse", "Encode"} {
		for i := range 5 {
			fmt.Fprintf(&b, "Benchmark%s-8   \t 1000\t %.1f ns/op\t 64 B/op\t 2 allocs/op\n", bench, ns+float64(i))
		}
	}
	b.WriteString("PASS\n")
	p := filepath.Join(s.dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// result is a script's run.
type result struct {
	err            error
	stdout, stderr string
	outputs        map[string]string // GITHUB_OUTPUT
}

// script returns a command that runs scripts/action/<name>.sh in dir
// with the given PP_… inputs.
func (s *scratch) script(name, dir string, env ...string) (*exec.Cmd, string) {
	s.t.Helper()
	out := filepath.Join(s.t.TempDir(), "github-output")
	cmd := exec.Command("bash", filepath.Join(moduleRoot(s.t), "scripts", "action", name+".sh"))
	cmd.Dir = dir
	cmd.Env = slices.Concat(s.env, []string{"PERFPAGES=" + perfpages(s.t), "GITHUB_OUTPUT=" + out, "PP_RETRY_DELAY=0"}, env)
	return cmd, out
}

func (s *scratch) run(name, dir string, env ...string) result {
	s.t.Helper()
	cmd, out := s.script(name, dir, env...)
	r := finish(capture(cmd), out, cmd.Run())
	if r.err != nil {
		s.t.Logf("%s.sh: %v\n%s", name, r.err, r.stderr)
	}
	return r
}

func finish(cmd *exec.Cmd, outFile string, err error) result {
	r := result{err: err, outputs: map[string]string{}}
	if b, ok := cmd.Stdout.(*bytes.Buffer); ok {
		r.stdout = b.String()
	}
	if b, ok := cmd.Stderr.(*bytes.Buffer); ok {
		r.stderr = b.String()
	}
	data, _ := os.ReadFile(outFile)
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			r.outputs[k] = v
		}
	}
	return r
}

// capture sets buffers for the command's output.
func capture(cmd *exec.Cmd) *exec.Cmd {
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &bytes.Buffer{}
	return cmd
}

func (s *scratch) record(dir string, env ...string) result {
	s.t.Helper()
	cmd, out := s.script("record", dir, env...)
	return finish(capture(cmd), out, cmd.Run())
}

// branchFiles lists the files on origin's results branch.
func (s *scratch) branchFiles() []string {
	s.t.Helper()
	out := s.git(s.origin, "ls-tree", "-r", "--name-only", "perf-results")
	return strings.Fields(out)
}

// TestRecordConcurrent: two jobs (two clones, two machines) record the
// same commit at the same moment; both prepare their commit on the same
// tip (a pre-push hook holds each until the other is ready), so one push
// is rejected, and its retry puts its archive on top of the other's.
// Neither loses its results, and neither checkout's work tree, index or
// HEAD changes.
func TestRecordConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the action's scripts end to end")
	}
	s := newScratch(t)
	barrier := filepath.Join(s.dir, "barrier")
	os.Mkdir(barrier, 0o755)
	hook := `#!/bin/sh
touch "` + barrier + `/$JOB"
i=0
while [ ! -f "` + barrier + `/a" ] || [ ! -f "` + barrier + `/b" ]; do
  i=$((i+1)); [ $i -gt 600 ] && exit 0
  sleep 0.05
done
`
	var cmds []*exec.Cmd
	var outs []string
	for _, job := range []string{"a", "b"} {
		dir := s.clone("job-" + job)
		os.WriteFile(filepath.Join(dir, ".git", "hooks", "pre-push"), []byte(hook), 0o755)
		cmd, out := s.script("record", dir, "JOB="+job, "PP_FILES="+s.benchFile("bench-"+job+".txt", 1000),
			"PP_ARTIFACT="+s.sha["c2"], "PP_MACHINE=linux-"+job)
		capture(cmd)
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for _, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	retried := 0
	for i, cmd := range cmds {
		r := finish(cmd, outs[i], cmd.Wait())
		if r.err != nil {
			t.Fatalf("job %d: %v\n%s", i, r.err, r.stderr)
		}
		if strings.Contains(r.stderr, "push rejected") {
			retried++
		}
		if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(r.outputs["commit"]) || r.outputs["archives"] != "1" {
			t.Errorf("job %d: outputs %v", i, r.outputs)
		}
		dir := cmd.Dir
		if st := s.git(dir, "status", "--porcelain"); st != "" {
			t.Errorf("job %d changed the work tree or index:\n%s", i, st)
		}
		if head := s.git(dir, "rev-parse", "HEAD"); head != s.sha["c2"] {
			t.Errorf("job %d moved HEAD to %s", i, head)
		}
	}
	if retried != 1 {
		t.Errorf("%d jobs retried, want exactly 1 (the hook makes them race)", retried)
	}
	files := s.branchFiles()
	if len(files) != 2 || !strings.HasPrefix(files[0], "results/linux-a/") || !strings.HasPrefix(files[1], "results/linux-b/") {
		t.Errorf("perf-results holds %q, want one archive of each machine", files)
	}
	if n := s.git(s.origin, "rev-list", "--count", "perf-results"); n != "2" {
		t.Errorf("perf-results has %s commits, want 2", n)
	}
	author := s.git(s.origin, "log", "-1", "--format=%an <%ae>", "perf-results")
	if author != "github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>" {
		t.Errorf("author %q", author)
	}
}

// fakeGitHub is the part of the REST API comment.sh uses: list, create
// and update issue comments.
type fakeGitHub struct {
	mu       sync.Mutex
	comments []ghComment
	requests []string // "METHOD path?query"
	auth     []string
}

type ghComment struct {
	ID      int64  `json:"id"`
	Body    string `json:"body"`
	HTMLURL string `json:"html_url"`
	User    struct {
		Login string `json:"login"`
	} `json:"user"`
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Method+" "+r.URL.RequestURI())
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	w.Header().Set("Content-Type", "application/json")
	var in struct {
		Body string `json:"body"`
	}
	if r.Method != http.MethodGet {
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, `{"message":"bad json"}`, http.StatusBadRequest)
			return
		}
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/repos/o/proj/issues/7/comments":
		if r.URL.Query().Get("page") != "1" || r.URL.Query().Get("per_page") != "100" {
			w.Write([]byte("[]"))
			return
		}
		json.NewEncoder(w).Encode(f.comments)
	case r.Method == http.MethodPost && r.URL.Path == "/repos/o/proj/issues/7/comments":
		c := ghComment{ID: int64(1000 + len(f.comments)), Body: in.Body}
		c.HTMLURL = fmt.Sprintf("https://github.com/o/proj/pull/7#issuecomment-%d", c.ID)
		c.User.Login = "github-actions[bot]"
		f.comments = append(f.comments, c)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(c)
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/o/proj/issues/comments/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/repos/o/proj/issues/comments/"), 10, 64)
		for i := range f.comments {
			if f.comments[i].ID == id {
				f.comments[i].Body = in.Body
				json.NewEncoder(w).Encode(f.comments[i])
				return
			}
		}
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
	default:
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
	}
}

// TestRecordBuildComment is the ten-minute path of a new user: results
// of two main-line commits and of a PR that slows parsing down by 30 %
// are recorded; a fresh CI clone, which has the results branch only as
// origin/perf-results, builds the site; the PR gets one comment, updated
// on the next run, and the job fails on the budget.
func TestRecordBuildComment(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the action's scripts end to end")
	}
	needTools(t, "curl", "jq")
	s := newScratch(t)
	for _, c := range []string{"c1", "c2"} {
		r := s.record(s.proj, "PP_FILES="+s.benchFile(c+".txt", 1000), "PP_ARTIFACT="+s.sha[c], "PP_MACHINE=ci-linux")
		if r.err != nil {
			t.Fatalf("record %s: %v\n%s", c, r.err, r.stderr)
		}
	}
	// The PR's run, as the action records it on a pull_request event.
	pr := s.record(s.proj, "PP_FILES="+s.benchFile("c3.txt", 1300), "PP_ARTIFACT="+s.sha["c3"], "PP_MACHINE=ci-linux",
		"PP_PR=7", "PP_KIND=try", "PP_BASELINE="+s.sha["c2"], "PP_BRANCH=feature", "PP_TITLE=Parse more")
	if pr.err != nil {
		t.Fatalf("record the PR: %v\n%s", pr.err, pr.stderr)
	}
	// The same results again (a re-run job): nothing to commit.
	again := s.record(s.proj, "PP_FILES="+filepath.Join(s.dir, "c2.txt"), "PP_ARTIFACT="+s.sha["c2"], "PP_MACHINE=ci-linux")
	if again.err != nil || !strings.Contains(again.stderr, "already holds these results") || again.outputs["commit"] != "" {
		t.Errorf("recording the same results again: %v, outputs %v\n%s", again.err, again.outputs, again.stderr)
	}
	if n := len(s.branchFiles()); n != 3 {
		t.Errorf("perf-results holds %d archives, want 3", n)
	}

	// The CI job of the PR: a fresh clone, detached at the PR head, with
	// no local main or perf-results branch.
	ci := s.clone("ci")
	s.git(ci, "checkout", "-q", "--detach", s.sha["c3"])
	s.git(ci, "branch", "-D", "main")
	b := s.run("build", ci, "PP_OUT=public", "PP_BASE_URL=https://example.github.io/proj/")
	if b.err != nil {
		t.Fatalf("build: %v", b.err)
	}
	for _, page := range []string{"index.html", "commit/" + s.sha["c2"] + "/index.html", "pr/7/index.html"} {
		if _, err := os.Stat(filepath.Join(ci, "public", page)); err != nil {
			t.Errorf("the site lacks %s: %v", page, err)
		}
	}

	gh := &fakeGitHub{}
	// Someone else's comment comes first; it is left alone.
	gh.comments = append(gh.comments, ghComment{ID: 1, Body: "LGTM"})
	srv := httptest.NewServer(gh)
	defer srv.Close()
	commentEnv := []string{"PP_PR=7", "PP_BASE=" + s.sha["c2"], "PP_HEAD=" + s.sha["c3"],
		"GITHUB_REPOSITORY=o/proj", "GITHUB_TOKEN=t0ken", "GITHUB_API_URL=" + srv.URL}

	cmd, out := s.script("comment", ci, commentEnv...)
	r := finish(capture(cmd), out, cmd.Run())
	if r.err == nil || !strings.Contains(r.stderr, "a budget failed") {
		t.Errorf("comment on a failed budget: err %v, want a failure saying so\n%s", r.err, r.stderr)
	}
	if r.outputs["budget"] != "fail" || r.outputs["base"] != s.sha["c2"] || r.outputs["comment-url"] != "https://github.com/o/proj/pull/7#issuecomment-1001" {
		t.Errorf("outputs %v", r.outputs)
	}
	wantReq := []string{"GET /repos/o/proj/issues/7/comments?per_page=100&page=1", "POST /repos/o/proj/issues/7/comments"}
	if !slices.Equal(gh.requests, wantReq) {
		t.Errorf("requests %q, want %q", gh.requests, wantReq)
	}
	for _, a := range gh.auth {
		if a != "Bearer t0ken" {
			t.Errorf("Authorization %q", a)
		}
	}
	if len(gh.comments) != 2 {
		t.Fatalf("%d comments, want LGTM and ours", len(gh.comments))
	}
	body := gh.comments[1].Body
	for _, want := range []string{
		"<!-- perfpages -->\n",
		// The PR's page shows the pair (c2 is its base).
		"[comparison URL](https://example.github.io/proj/pr/7/)",
		"| `Encode procs=8` | wall-time | 1.002 µs → 1.302 µs | +29.94% | not enough history |",
		"### Budgets: 2 failed, 0 warned",
		"| ❌ fail | Encode procs=8 | wall-time | ci-linux | 29.9% | 10.0% |",
		"| ❌ fail | Parse procs=8 | wall-time | ci-linux | 29.9% | 10.0% |",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}

	// The next push to the PR: the same comment is updated, and
	// fail-on: never keeps the job green.
	gh.requests = nil
	cmd, out = s.script("comment", ci, append(commentEnv, "PP_FAIL_ON=never")...)
	r = finish(capture(cmd), out, cmd.Run())
	if r.err != nil {
		t.Errorf("fail-on never: %v\n%s", r.err, r.stderr)
	}
	wantReq = []string{"GET /repos/o/proj/issues/7/comments?per_page=100&page=1", "PATCH /repos/o/proj/issues/comments/1001"}
	if !slices.Equal(gh.requests, wantReq) || len(gh.comments) != 2 {
		t.Errorf("requests %q, %d comments; want %q and still 2", gh.requests, len(gh.comments), wantReq)
	}

	// main moved on to c4, whose benchmarks have not run: the comment
	// compares with c2, the nearest first-parent ancestor with results.
	s.git(ci, "checkout", "-q", "--detach", s.sha["c2"])
	s.git(ci, "commit", "-q", "--allow-empty", "-m", "Docs")
	c4 := s.git(ci, "rev-parse", "HEAD")
	cmd, out = s.script("comment", ci, append(commentEnv, "PP_BASE="+c4)...)
	r = finish(capture(cmd), out, cmd.Run())
	if r.outputs["base"] != s.sha["c2"] || !strings.Contains(gh.comments[1].Body, "The base "+c4[:12]+" has no results yet; compared with its nearest ancestor that has: "+s.sha["c2"][:12]) {
		t.Errorf("base without results: outputs %v\n%s\n%s", r.outputs, r.stderr, gh.comments[1].Body)
	}

	// A head without results is an error that says what to do.
	cmd, out = s.script("comment", ci, append(commentEnv, "PP_HEAD="+c4)...)
	r = finish(capture(cmd), out, cmd.Run())
	if r.err == nil || !strings.Contains(r.stderr, "no results for the PR head "+c4+": record them first") {
		t.Errorf("head without results: %v\n%s", r.err, r.stderr)
	}
}

// TestRecordNoPush: push: false commits to the local branch only, which
// ref = "perf-results" then finds before origin's (a PR job that compares
// without write access).
func TestRecordNoPush(t *testing.T) {
	s := newScratch(t)
	r := s.record(s.proj, "PP_FILES="+s.benchFile("c1.txt", 1000), "PP_ARTIFACT="+s.sha["c1"], "PP_PUSH=false")
	if r.err != nil {
		t.Fatalf("%v\n%s", r.err, r.stderr)
	}
	if got := s.git(s.proj, "rev-parse", "refs/heads/perf-results"); got != r.outputs["commit"] {
		t.Errorf("local perf-results = %s, want %s", got, r.outputs["commit"])
	}
	if out := s.git(s.origin, "branch", "--list", "perf-results"); out != "" {
		t.Errorf("origin got perf-results with push: false")
	}
	// The machine defaults to ci-<os>-<arch>.
	if files := s.git(s.proj, "ls-tree", "-r", "--name-only", "perf-results"); !strings.HasPrefix(files, "results/ci-") {
		t.Errorf("archive %q, want it under results/ci-<os>-<arch>/", files)
	}
}

// TestRecordNotes: results as git notes on the benchmarked commits, two
// jobs at once (each note on its own commit), and the limits of notes.
func TestRecordNotes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the action's scripts end to end")
	}
	s := newScratch(t)
	a, b := s.clone("job-a"), s.clone("job-b")
	s.git(b, "fetch", "-q", "origin", "feature")
	barrier := filepath.Join(s.dir, "barrier")
	os.Mkdir(barrier, 0o755)
	hook := "#!/bin/sh\ntouch \"" + barrier + "/$JOB\"\ni=0\nwhile [ ! -f \"" + barrier + "/a\" ] || [ ! -f \"" + barrier + "/b\" ]; do i=$((i+1)); [ $i -gt 600 ] && exit 0; sleep 0.05; done\n"
	var cmds []*exec.Cmd
	var outs []string
	for job, dir := range map[string]string{"a": a, "b": b} {
		os.WriteFile(filepath.Join(dir, ".git", "hooks", "pre-push"), []byte(hook), 0o755)
		c := map[string]string{"a": "c1", "b": "c3"}[job]
		cmd, out := s.script("record", dir, "JOB="+job, "PP_NOTES_REF=perf", "PP_FILES="+s.benchFile("n-"+job+".txt", 1000), "PP_ARTIFACT="+s.sha[c])
		capture(cmd)
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for _, cmd := range cmds {
		cmd.Start()
	}
	for i, cmd := range cmds {
		r := finish(cmd, outs[i], cmd.Wait())
		if r.err != nil {
			t.Fatalf("job %d: %v\n%s", i, r.err, r.stderr)
		}
	}
	for _, c := range []string{"c1", "c3"} {
		if note := s.git(s.origin, "notes", "--ref=perf", "show", s.sha[c]); !strings.Contains(note, `"schema": "perfpages.run.v1"`) {
			t.Errorf("note on %s: %q", c, note)
		}
	}
	// Other results for a commit that has a note: notes hold one run.
	r := s.record(a, "PP_NOTES_REF=refs/notes/perf", "PP_FILES="+s.benchFile("n-c.txt", 2000), "PP_ARTIFACT="+s.sha["c1"])
	if r.err == nil || !strings.Contains(r.stderr, "already has another note on refs/notes/perf") {
		t.Errorf("a second note: %v\n%s", r.err, r.stderr)
	}
	// Two packages (two contexts) make two archives: not a note.
	two := s.benchFile("n-d.txt", 1000)
	os.WriteFile(filepath.Join(s.dir, "n-e.txt"), []byte(strings.Replace(string(must(os.ReadFile(two))), "pkg: example.com/proj", "pkg: example.com/other", 1)), 0o644)
	r = s.record(a, "PP_NOTES_REF=perf", "PP_FILES="+s.benchFile("n-f.txt", 1000)+" "+filepath.Join(s.dir, "n-e.txt"), "PP_ARTIFACT="+s.sha["c2"])
	if r.err == nil || !strings.Contains(r.stderr, "a git note holds one archive per commit") {
		t.Errorf("two archives as a note: %v\n%s", r.err, r.stderr)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestRecordErrors: the messages a misconfigured job gets.
func TestRecordErrors(t *testing.T) {
	s := newScratch(t)
	tests := []struct {
		name string
		dir  string
		env  []string
		want string
	}{
		{"no files", s.proj, nil, "record: no files given"},
		{"not a repository", s.dir, []string{"PP_FILES=x.txt"}, "is not a git repository"},
		{"unreadable file", s.proj, []string{"PP_FILES=" + filepath.Join(s.dir, "missing.txt")}, "record: perfpages import failed"},
		{"no remote", s.proj, []string{"PP_FILES=" + s.benchFile("e.txt", 1), "PP_REMOTE=nowhere"}, "cannot reach remote nowhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.record(tt.dir, tt.env...)
			if r.err == nil || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("err %v, stderr %q, want %q", r.err, r.stderr, tt.want)
			}
		})
	}
}

// TestShardedBuildMerge: the matrix of a sharded build (build.sh with
// PP_SHARD in two jobs) and its merge job (merge.sh) write the site the
// plain build does, byte for byte.
func TestShardedBuildMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the action's scripts end to end")
	}
	s := newScratch(t)
	for i, c := range []string{"c1", "c2", "c3"} {
		r := s.record(s.proj, "PP_FILES="+s.benchFile(c+".txt", 1000+100*float64(i)), "PP_ARTIFACT="+s.sha[c], "PP_MACHINE=ci-linux")
		if r.err != nil {
			t.Fatalf("record %s: %v\n%s", c, r.err, r.stderr)
		}
	}
	ci := s.clone("ci")
	env := []string{"PP_BASE_URL=https://example.github.io/proj/"}
	if b := s.run("build", ci, append(env, "PP_OUT=public")...); b.err != nil {
		t.Fatalf("build: %v", b.err)
	}
	for _, sh := range []string{"1/2", "2/2"} {
		if b := s.run("build", ci, append(env, "PP_OUT=shard-"+sh[:1], "PP_SHARD="+sh)...); b.err != nil {
			t.Fatalf("build shard %s: %v", sh, b.err)
		}
	}
	m := s.run("merge", ci, append(env, "PP_OUT=site", "PP_SHARDS=shard-*")...)
	if m.err != nil {
		t.Fatalf("merge: %v", m.err)
	}
	if m.outputs["out"] != "site" {
		t.Errorf("merge's output out = %q, want site", m.outputs["out"])
	}
	want, got := tree(t, filepath.Join(ci, "public")), tree(t, filepath.Join(ci, "site"))
	if len(want) < 10 || len(got) != len(want) {
		t.Errorf("the merged site has %d files, the plain build's %d", len(got), len(want))
	}
	for p, data := range want {
		if !bytes.Equal(got[p], data) {
			t.Errorf("%s: differs from the plain build's", p)
		}
	}
	if b := s.run("merge", ci, append(env, "PP_OUT=site", "PP_SHARDS=shard-1")...); b.err == nil || !strings.Contains(b.stderr, "missing") {
		t.Errorf("a merge of one of two shards: %v\n%s", b.err, b.stderr)
	}
}

// tree reads every file under root, by slash path.
func tree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
