package generator

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/generator/config"
)

// gitRepo runs git in dir with a fixed identity and clock.
type gitRepo struct {
	t    *testing.T
	dir  string
	tick int
}

func newGitRepo(t *testing.T, dir string) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	os.MkdirAll(dir, 0o755)
	g := &gitRepo{t: t, dir: dir}
	g.git("-c", "init.defaultBranch=main", "init", "-q")
	return g
}

func (g *gitRepo) git(args ...string) string {
	g.t.Helper()
	g.tick++
	date := "2026-09-0" + string(rune('1'+g.tick/10)) + "T1" + string(rune('0'+g.tick%10)) + ":00:00Z"
	cmd := exec.Command("git", args...)
	cmd.Dir = g.dir
	cmd.Env = append(os.Environ(),
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.org", "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.org", "GIT_COMMITTER_DATE="+date,
		"GIT_CONFIG_NOSYSTEM=1", "HOME="+g.dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (g *gitRepo) write(name, content string) {
	g.t.Helper()
	p := filepath.Join(g.dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

// TestSiteFromGit builds a site whose archives live in a results branch's
// history (one file overwritten every night) and in git notes, and whose
// order, dates, titles and PR numbers come from the project's own history:
// the archives carry only the sha.
func TestSiteFromGit(t *testing.T) {
	root := t.TempDir()
	proj := newGitRepo(t, filepath.Join(root, "project"))

	// The project: a root commit, a merged PR (merge commit), a squash merge.
	proj.write("main.go", "package main\n")
	proj.git("add", ".")
	proj.git("commit", "-qm", "Initial commit")
	c1 := proj.git("rev-parse", "HEAD")
	proj.git("checkout", "-qb", "feature")
	proj.write("parser.go", "package main\n")
	proj.git("add", ".")
	proj.git("commit", "-qm", "Add a parser")
	proj.git("checkout", "-q", "main")
	proj.git("merge", "-q", "--no-ff", "feature", "-m", "Merge pull request #21 from ada/feature\n\nSpeed up the parser")
	c2 := proj.git("rev-parse", "HEAD")
	proj.write("lexer.go", "package main\n")
	proj.git("add", ".")
	proj.git("commit", "-qm", "Rewrite the lexer (#22)")
	c3 := proj.git("rev-parse", "HEAD")

	// Results: a perf-results branch where the nightly job overwrites
	// results/latest.json, plus a note on c3.
	archive := func(sha string, v float64) string {
		return `{"schema": "perfpages.run.v1", "artifact": {"id": "` + sha + `"}, "machine": {"name": "ci"},
 "results": [{"benchmark": "parse", "metric": "instructions:u", "unit": "count", "samples": [` + strconv.FormatFloat(v, 'g', -1, 64) + `]}]}`
	}
	proj.git("checkout", "-q", "--orphan", "perf-results")
	proj.git("rm", "-rqf", ".")
	proj.write("results/latest.json", archive(c1, 1000))
	proj.git("add", "results")
	proj.git("commit", "-qm", "results for c1")
	proj.write("results/latest.json", archive(c2, 900))
	proj.git("commit", "-qam", "results for c2")
	proj.git("checkout", "-q", "main")
	proj.git("notes", "--ref=perf", "add", "-m", strings.Replace(archive("", 990), `"id": ""`, `"kind": "commit"`, 1), c3)

	os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte(`
[site]
repository = "https://github.com/ada/project"

[[sources]]
git = "project"
ref = "perf-results"
path = "results/"

[[sources]]
git = "project"
notes = "refs/notes/perf"

[project]
git = "project"
branch = "main"
`), 0o644)
	cfg, err := config.Load(filepath.Join(root, "perfpages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Build(context.Background(), BuildOptions{Strict: true})
	if err != nil {
		t.Fatalf("build: %v (warnings %v)", err, rep.Warnings)
	}
	b := &builder{t: t, dir: root, out: filepath.Join(root, "public")}
	// The overwritten file's two versions both count: c1 → c2 is a page.
	b.AssertFileContent("commit/"+c2+"/index.html", "Speed up the parser", "#21", "-10.00%", "1 k", "900")
	// The note's result compares with c2; the squash merge's PR number and
	// subject come from the project history.
	b.AssertFileContent("commit/"+c3+"/index.html", "Rewrite the lexer (#22)", "#22", "&#43;10.00%")
	b.AssertFileContent("pr/21/index.html", "Speed up the parser", `href="https://github.com/ada/project/pull/21"`)
	b.AssertFileContent("pr/22/index.html", "Rewrite the lexer (#22)")
}

// Another tool's files committed to a results branch and attached as git
// notes: the branch's path pattern (relative to path) names each file's
// commit; a note's commit is the one it is attached to. The project's
// history gives dates and order.
func TestSiteFromGitForeign(t *testing.T) {
	root := t.TempDir()
	proj := newGitRepo(t, filepath.Join(root, "project"))
	var shas []string
	for i, msg := range []string{"Initial commit", "Parse faster (#5)", "Parse slower (#6)"} {
		proj.write("f.go", "package main // "+strconv.Itoa(i)+"\n")
		proj.git("add", ".")
		proj.git("commit", "-qm", msg)
		shas = append(shas, proj.git("rev-parse", "HEAD"))
	}
	bench := func(ns int) string {
		return "goos: linux\ngoarch: amd64\nBenchmarkParse-8 \t1000\t" + strconv.Itoa(ns) + " ns/op\nBenchmarkParse-8 \t1000\t" + strconv.Itoa(ns) + " ns/op\n"
	}
	res := newGitRepo(t, filepath.Join(root, "results"))
	res.write("README.md", "results\n")
	res.write("bench/"+shas[0]+"/ci.txt", bench(1000))
	res.write("bench/"+shas[1]+"/ci.txt", bench(800))
	res.git("add", ".")
	res.git("commit", "-qm", "results")
	// The third commit's results as a note on the project.
	proj.write("note.txt", bench(1200))
	proj.git("notes", "--ref", "perf", "add", "-F", "note.txt", shas[2])
	os.Remove(filepath.Join(proj.dir, "note.txt"))

	cfg := `[[sources]]
git = "results"
ref = "main"
path = "bench/"
format = "gobench"
artifact = "{sha}/{machine}.txt"

[[sources]]
git = "project"
notes = "refs/notes/perf"
format = "gobench"

[project]
git = "project"
`
	if err := os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(filepath.Join(root, "perfpages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromConfig(c)
	if err != nil {
		t.Fatal(err)
	}
	d, warnings, err := s.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	if len(d.MainLine) != 3 {
		t.Fatalf("main line of %d artifacts, want 3", len(d.MainLine))
	}
	for i, want := range []float64{1000, 800, 1200} {
		a, _ := d.Index(shas[i])
		var got float64
		for _, sr := range d.Series {
			if p := sr.At(a); p != nil && sr.Key.Metric == "wall-time" {
				got = p.Value
				if sr.Key.Machine != "ci" && i < 2 {
					t.Errorf("machine %q, want ci from the path", sr.Key.Machine)
				}
			}
		}
		if got != want {
			t.Errorf("commit %d: wall-time %v, want %v", i, got, want)
		}
	}
}
