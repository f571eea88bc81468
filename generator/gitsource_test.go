package generator

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
	// The build says which ref and commit each git source read.
	type read struct{ Source, Ref, Commit, Note string }
	var reads []read
	for _, r := range rep.Git {
		reads = append(reads, read{strings.ReplaceAll(r.Source, root+string(filepath.Separator), ""), r.Ref, r.Commit, r.Note})
	}
	notesTip := proj.git("rev-parse", "refs/notes/perf")
	want := []read{
		{"source results/ in project", "refs/heads/perf-results", proj.git("rev-parse", "perf-results"), ""},
		{"notes source in project", "refs/notes/perf", notesTip, ""},
		{"project in project", "refs/heads/main", c3, ""},
	}
	if d := cmp.Diff(want, reads); d != "" {
		t.Errorf("Report.Git (-want +got):\n%s", d)
	}

	// compare's names: an artifact's id or prefix, else any revision git
	// resolves in [project] git to a commit with results (a git tag such as
	// v0.1 once failed).
	proj.git("tag", "v0.1", c1)
	proj.git("tag", "-a", "v0.2", "-m", "annotated", c2)
	d, _, err := s.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ ref, want string }{
		{c2[:7], c2}, {"v0.1", c1}, {"v0.2", c2}, {"main", c3}, {"main~1", c2}, {"HEAD", c3},
	} {
		if i, err := s.Resolve(context.Background(), d, tt.ref); err != nil || d.Artifacts[i].ID != tt.want {
			t.Errorf("Resolve(%q) = %d, %v; want %s", tt.ref, i, err, tt.want)
		}
	}
	for ref, want := range map[string]string{
		"v9":           `git in ` + filepath.Join(root, "project") + ` does not know it either`,
		"feature":      "which has no results",
		"pr/99":        "no results for PR #99",
		"notacommit00": `unknown artifact "notacommit00"`,
	} {
		if _, err := s.Resolve(context.Background(), d, ref); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q) = %v, want an error saying %q", ref, err, want)
		}
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
	d, warnings := loadConfig(t, filepath.Join(root, "perfpages.toml"))
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

// TestSiteFromGitCorrections: a results branch where a nightly job
// commits a file, overwrites it with a corrected value (and without one of
// its results), then commits another file. The newest version of a.json
// is what was meant: the corrected value is used, the result it dropped
// for the commit it still holds is removed (kept with keep_removed), and
// each is one note naming what changed, so a strict build succeeds.
func TestSiteFromGitCorrections(t *testing.T) {
	root := t.TempDir()
	res := newGitRepo(t, filepath.Join(root, "results"))
	shaA, shaB := strings.Repeat("a", 40), strings.Repeat("b", 40)
	archive := func(sha, date string, results ...string) string {
		return `{"schema": "perfpages.run.v1", "artifact": {"id": "` + sha + `", "date": "` + date + `", "branch": "main", "title": "a commit"},
 "machine": {"name": "ci"}, "results": [` + strings.Join(results, ", ") + `]}`
	}
	parse := func(v string) string {
		return `{"benchmark": "parse", "metric": "instructions:u", "unit": "count", "samples": [` + v + `]}`
	}
	lex := `{"benchmark": "lex", "metric": "instructions:u", "unit": "count", "samples": [50]}`
	res.git("checkout", "-qb", "perf-results")
	res.write("results/a.json", archive(shaA, "2026-09-01T00:00:00Z", parse("1000"), lex))
	res.git("add", ".")
	res.git("commit", "-qm", "results for a")
	first := res.git("rev-parse", "--short=7", "HEAD")
	res.write("results/a.json", archive(shaA, "2026-09-01T00:00:00Z", parse("900")))
	res.git("commit", "-qam", "results for a, corrected")
	res.write("results/b.json", archive(shaB, "2026-09-02T00:00:00Z", parse("990"), lex))
	res.git("add", ".")
	res.git("commit", "-qm", "results for b")

	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keep_removed=%t", keep), func(t *testing.T) {
			cfgText := "[[sources]]\ngit = \"results\"\nref = \"perf-results\"\npath = \"results/\"\n"
			if keep {
				cfgText += "keep_removed = true\n"
			}
			if err := os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte(cfgText), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(root, fmt.Sprintf("public-%t", keep))
			rep := buildConfig(t, filepath.Join(root, "perfpages.toml"), BuildOptions{Strict: true, Out: out})
			src := "git history of perf-results:results/ in " + filepath.Join(root, "results")
			removed := src + ": 1 result that later versions of 1 file no longer hold (e.g. lex instructions:u on ci at aaaaaaaaaaaa, last in perf-results@" + first + ":results/a.json) are left out: " +
				"the newest version of a file is what its maintainer meant; set keep_removed = true on the source to keep them"
			if keep {
				removed = src + ": 1 result that later versions of 1 file no longer hold (e.g. lex instructions:u on ci at aaaaaaaaaaaa, last in perf-results@" + first + ":results/a.json) are kept (keep_removed = true)"
			}
			wantNotes := []string{
				removed,
				src + ": later versions of 1 file correct 1 result of older versions (e.g. parse instructions:u on ci at aaaaaaaaaaaa: [1000] → [900] (in perf-results@" + first + ":results/a.json)); the newest versions are used",
			}
			if diff := cmp.Diff(wantNotes, rep.Notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			b := &builder{t: t, dir: root, out: out}
			// 900 → 990, not 1000 → 990.
			b.AssertFileContent("commit/"+shaB+"/index.html", "&#43;10.00%", "900", "990")
			b.AssertNoFileContent("commit/"+shaB+"/index.html", "-1.00%")
			// lex of a: removed, so b's lex is new; kept, it compares.
			if keep {
				b.AssertNoFileContent("commit/"+shaB+"/index.html", "New:")
			}
		})
	}
}

// TestSiteFromGitDataJS: a github-action-benchmark data.js on gh-pages
// repeats all earlier entries in every version; read from git, the
// repeated results are neither warnings nor notes. An entry the action
// dropped from later versions (max-items-in-chart), older than every
// entry they list, is history: kept, with a note.
// gabEntry is data.js's entry of commit i (1 to 9) of a one-benchmark
// suite.
func gabEntry(i int) string {
	return `{"commit": {"id": "` + strings.Repeat(strconv.Itoa(i), 40) + `", "message": "commit ` + strconv.Itoa(i) + `", "timestamp": "2026-09-0` + strconv.Itoa(i) + `T10:00:00Z"},
 "date": 1, "tool": "customSmallerIsBetter", "benches": [{"name": "parse", "value": ` + strconv.Itoa(100+i) + `, "unit": "ns"}]}`
}

func TestSiteFromGitDataJS(t *testing.T) {
	root := t.TempDir()
	res := newGitRepo(t, filepath.Join(root, "pages"))
	res.git("checkout", "-qb", "gh-pages")
	dataJS := func(from, to int) string {
		var entries []string
		for i := from; i <= to; i++ {
			entries = append(entries, gabEntry(i))
		}
		return "window.BENCHMARK_DATA = {\"lastUpdate\": 1, \"repoUrl\": \"https://github.com/a/b\", \"entries\": {\"Benchmark\": [" + strings.Join(entries, ",\n") + "]}}\n"
	}
	for n := 1; n <= 5; n++ {
		from := 1
		if n == 5 {
			from = 2 // the action keeps at most 4 entries
		}
		res.write("dev/bench/data.js", dataJS(from, n))
		res.git("add", ".")
		res.git("commit", "-qm", "add entry "+strconv.Itoa(n))
	}
	before := res.git("rev-parse", "--short=7", "HEAD~1") // the last version with entry 1
	cfg := "[[sources]]\ngit = \"pages\"\nref = \"gh-pages\"\npath = \"dev/bench\"\nformat = \"gab\"\n"
	if err := os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d, warnings := loadConfig(t, filepath.Join(root, "perfpages.toml"))
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	wantNotes := []string{"git history of gh-pages:dev/bench in " + filepath.Join(root, "pages") + ": 1 result of artifacts that later versions of 1 file no longer list, older than every artifact they list, are kept as history (e.g. parse wall-time on default at 111111111111, last in gh-pages@" + before + ":dev/bench/data.js)"}
	if diff := cmp.Diff(wantNotes, d.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if len(d.Artifacts) != 5 || len(d.Series) != 1 || len(d.Series[0].Points) != 5 {
		t.Errorf("%d artifacts, series %+v", len(d.Artifacts), d.Series)
	}
}

// A nightly job that commits one new archive to a results branch: the next
// build resumes from the store's checkpoint and builds what a cold build
// builds; a commit that rewrites an archive the checkpoint holds (a new
// version of its file) makes the build add every file again, with the
// same result as a cold build.
func TestSiteFromGitResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a git history site many times")
	}
	root := t.TempDir()
	proj := newGitRepo(t, filepath.Join(root, "project"))
	archive := func(sha string, v int) string {
		return `{"schema": "perfpages.run.v1", "artifact": {"id": "` + sha + `"}, "machine": {"name": "ci"},
 "results": [{"benchmark": "parse", "metric": "instructions:u", "unit": "count", "samples": [` + strconv.Itoa(v) + `, ` + strconv.Itoa(v+1) + `]}]}`
	}
	var shas []string
	commit := func(msg string) {
		if len(shas) > 0 {
			proj.git("checkout", "-q", "main")
		}
		proj.write("main.go", "package main // "+msg+"\n")
		proj.git("add", "main.go")
		proj.git("commit", "-qm", msg)
		shas = append(shas, proj.git("rev-parse", "HEAD"))
	}
	record := func(i, v int) {
		if i > 0 { // the first record is on the new orphan branch
			proj.git("checkout", "-q", "perf-results")
		}
		proj.write("results/"+shas[i]+".json", archive(shas[i], v))
		proj.git("add", "results")
		proj.git("commit", "-qm", "results for "+shas[i])
	}
	for i := range 4 {
		commit("change " + strconv.Itoa(i))
	}
	proj.git("checkout", "-q", "--orphan", "perf-results")
	proj.git("rm", "-rqf", ".")
	for i := range 4 {
		record(i, 1000+10*i)
	}
	os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte(`
[[sources]]
git = "project"
ref = "perf-results"
path = "results/"

[project]
git = "project"
branch = "main"
`), 0o644)
	build := func(out string, cold bool) (*Report, map[string]fileInfo) {
		t.Helper()
		rep, files, _ := buildIn(t, root, out, BuildOptions{Cold: cold, Strict: true})
		return rep, files
	}
	build("public", false)

	commit("change 4")
	record(4, 900)
	rep, got := build("public", false)
	if !rep.Resumed {
		t.Error("a new archive on the results branch: not resumed from the checkpoint")
	}
	_, want := build("cold", true)
	sameAsCold(t, got, want)

	// The job rewrites an old archive: a new version of a file the
	// checkpoint holds.
	proj.git("checkout", "-q", "perf-results")
	proj.write("results/"+shas[1]+".json", archive(shas[1], 2000))
	proj.git("commit", "-qam", "results for "+shas[1]+" again")
	rep, got = build("public", false)
	if rep.Resumed {
		t.Error("resumed although an archive the checkpoint holds has a new version")
	}
	_, want = build("cold", true)
	sameAsCold(t, got, want)
}

// TestSiteFromGitDataJSIncremental: a nightly build of a data.js history
// reads the new version's blob alone (the store keeps the fold of the
// versions before it) and builds what a cold build builds; so does a build
// after a version that removes an entry, and one after the branch's last
// commit was rewritten (a force push).
func TestSiteFromGitDataJSIncremental(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a git history site many times")
	}
	root := t.TempDir()
	res := newGitRepo(t, filepath.Join(root, "pages"))
	res.git("checkout", "-qb", "gh-pages")
	entry := func(i int) string {
		return `{"commit": {"id": "` + fmt.Sprintf("%040x", i) + `", "message": "commit ` + strconv.Itoa(i) + `", "timestamp": "2026-08-` + fmt.Sprintf("%02d", i) + `T10:00:00Z"},
 "date": 1, "tool": "cargo", "benches": [{"name": "parse", "value": ` + strconv.Itoa(1000+i%3) + `, "range": "± 12", "unit": "ns/iter"}, {"name": "lex", "value": ` + strconv.Itoa(500+i%2) + `, "range": "± 3", "unit": "ns/iter"}]}`
	}
	commit := func(msg string, entries ...int) {
		var es []string
		for _, i := range entries {
			es = append(es, entry(i))
		}
		res.write("dev/bench/data.js", "window.BENCHMARK_DATA = {\"lastUpdate\": 1, \"repoUrl\": \"https://github.com/a/b\", \"entries\": {\"Benchmark\": ["+strings.Join(es, ",\n")+"]}}\n")
		res.git("add", ".")
		res.git("commit", "-qm", msg)
	}
	upTo := func(n int) []int {
		var out []int
		for i := 1; i <= n; i++ {
			out = append(out, i)
		}
		return out
	}
	for n := 1; n <= 12; n++ {
		commit("add entry "+strconv.Itoa(n), upTo(n)...)
	}
	os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte("[site]\ntitle = \"t\"\n\n[[sources]]\ngit = \"pages\"\nref = \"gh-pages\"\npath = \"dev/bench\"\nformat = \"gab\"\n"), 0o644)
	build := func(out string, cold bool) (*Report, map[string]fileInfo, string) {
		t.Helper()
		return buildIn(t, root, out, BuildOptions{Cold: cold, Strict: true})
	}
	if _, _, tm := build("public", false); !strings.HasPrefix(gitReads(tm), "12 blobs read") {
		t.Errorf("cold build: %s, want the 12 versions read", gitReads(tm))
	}
	check := func(what string, wantNotes []string) {
		t.Helper()
		rep, got, tm := build("public", false)
		if r := gitReads(tm); !strings.HasPrefix(r, "1 blobs read") {
			t.Errorf("%s: %s, want 1 blob read", what, r)
		}
		coldRep, want, _ := build("cold", true)
		sameAsCold(t, got, want)
		if diff := cmp.Diff(coldRep.Notes, rep.Notes); diff != "" {
			t.Errorf("%s: notes differ from a cold build's (-cold +incremental):\n%s", what, diff)
		}
		if diff := cmp.Diff(wantNotes, rep.Notes, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: notes (-want +got):\n%s", what, diff)
		}
	}
	commit("add entry 13", upTo(13)...)
	check("+1 version", nil)

	// A maintainer deletes entry 5, a spike: removed, with a note.
	commit("remove noisy benchmark spike", 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13)
	src := "git history of gh-pages:dev/bench in " + filepath.Join(root, "pages")
	removed := src + ": 2 results that later versions of 1 file no longer hold (e.g. lex wall-time on default at 000000000000, last in gh-pages@" +
		res.git("rev-parse", "--short=7", "HEAD~1") + ":dev/bench/data.js) are left out: the newest version of a file is what its maintainer meant; set keep_removed = true on the source to keep them"
	check("a version that removes an entry", []string{removed})
	if _, tree, _ := build("public", false); strings.Contains(string(tree["commits/index.html"].data), "<td>commit 5</td>") {
		t.Error("the removed entry's commit is still listed")
	}

	// The last commit rewritten (amended and force-pushed): the fold of
	// the versions before it is still good.
	res.write("dev/bench/data.js", strings.Replace(string(must(os.ReadFile(filepath.Join(root, "pages", "dev/bench/data.js")))), "\"lastUpdate\": 1", "\"lastUpdate\": 2", 1))
	res.git("commit", "-q", "--amend", "-am", "remove noisy benchmark spike (amended)")
	check("a rewritten last commit", []string{removed})
}

// TestSiteFromGitNotesIncremental: a nightly build of a notes source reads
// the new note's blob alone (the others are known to the store by their
// blob ids) and builds what a cold build builds, gzip and YAML notes among
// them; a note edited in place is read again.
func TestSiteFromGitNotesIncremental(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a git notes site several times")
	}
	root := t.TempDir()
	proj := newGitRepo(t, filepath.Join(root, "project"))
	var shas []string
	for i := range 8 {
		proj.write("main.go", "package main // "+strconv.Itoa(i)+"\n")
		proj.git("add", ".")
		proj.git("commit", "-qm", "change "+strconv.Itoa(i))
		shas = append(shas, proj.git("rev-parse", "HEAD"))
	}
	note := func(i int, v int) {
		body := `{"schema": "perfpages.run.v1", "artifact": {"kind": "commit"}, "machine": {"name": "ci"},
 "results": [{"benchmark": "parse", "metric": "wall-time", "unit": "ns", "samples": [` + strconv.Itoa(v) + `, ` + strconv.Itoa(v+3) + `]}]}`
		switch i % 3 {
		case 1: // a gzip note
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write([]byte(body))
			zw.Close()
			os.WriteFile(filepath.Join(root, "note"), b.Bytes(), 0o644)
		case 2: // a YAML note
			body = "schema: perfpages.run.v1\nartifact: {kind: commit}\nmachine: {name: ci}\nresults:\n  - {benchmark: parse, metric: wall-time, unit: ns, samples: [" + strconv.Itoa(v) + ", " + strconv.Itoa(v+3) + "]}\n"
			os.WriteFile(filepath.Join(root, "note"), []byte(body), 0o644)
		default:
			os.WriteFile(filepath.Join(root, "note"), []byte(body), 0o644)
		}
		// -C takes the blob as it is (-F would clean up the text).
		blob := proj.git("hash-object", "-w", filepath.Join(root, "note"))
		proj.git("notes", "--ref=perf", "add", "-f", "-C", blob, shas[i])
	}
	for i := range 7 {
		note(i, 1000+i%2)
	}
	os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte("[site]\ntitle = \"t\"\n\n[[sources]]\ngit = \"project\"\nnotes = \"refs/notes/perf\"\n\n[project]\ngit = \"project\"\n"), 0o644)
	build := func(out string, cold bool) (*Report, map[string]fileInfo, string) {
		t.Helper()
		return buildIn(t, root, out, BuildOptions{Cold: cold, Strict: true})
	}
	if _, _, tm := build("public", false); !strings.HasPrefix(gitReads(tm), "7 blobs read") {
		t.Errorf("cold build: %s, want the 7 notes read", gitReads(tm))
	}
	check := func(what, reads string) {
		t.Helper()
		rep, got, tm := build("public", false)
		if r := gitReads(tm); !strings.HasPrefix(r, reads) {
			t.Errorf("%s: %s, want %s", what, r, reads)
		}
		if rep.Artifact != 8 {
			t.Errorf("%s: %d artifacts, want 8", what, rep.Artifact)
		}
		_, want, _ := build("cold", true)
		sameAsCold(t, got, want)
	}
	note(7, 1500)
	check("+1 note", "1 blobs read")
	// A note edited in place changes a file the checkpoint holds: the
	// build adds every note again, and the store keeps no copy of the
	// runs a checkpoint holds (store.SaveCheckpoint), so it reads the
	// seven notes the checkpoint held (the eighth, added since, has its
	// entry).
	note(3, 990)
	check("a note edited in place", "7 blobs read")
	// The next note is read alone again.
	proj.write("main.go", "package main // 8\n")
	proj.git("add", ".")
	proj.git("commit", "-qm", "change 8")
	shas = append(shas, proj.git("rev-parse", "HEAD"))
	note(8, 1200)
	rep, _, tm := build("public", false)
	if r := gitReads(tm); !strings.HasPrefix(r, "1 blobs read") || rep.Artifact != 9 {
		t.Errorf("+1 note after the edit: %s, %d artifacts; want 1 blob read, 9 artifacts", r, rep.Artifact)
	}
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

// TestSiteFromGitWarnsOnce: a data.js whose every version lists a commit
// under two PRs is one problem, warned once (for the newest version), not
// once per version: a strict build of three versions reports one warning.
func TestSiteFromGitWarnsOnce(t *testing.T) {
	root := t.TempDir()
	res := newGitRepo(t, filepath.Join(root, "pages"))
	res.git("checkout", "-qb", "gh-pages")
	data := string(must(os.ReadFile(filepath.Join("foreign", "testdata", "gab", "history.js"))))
	for i := range 3 {
		res.write("dev/bench/data.js", strings.Replace(data, "window.BENCHMARK_DATA = {", "window.BENCHMARK_DATA = {\"lastUpdate\": "+strconv.Itoa(i)+",", 1))
		res.git("add", ".")
		res.git("commit", "-qm", "version "+strconv.Itoa(i))
	}
	os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte("[[sources]]\ngit = \"pages\"\nref = \"gh-pages\"\npath = \"dev/bench\"\nformat = \"gab\"\n"), 0o644)
	cfg, err := config.Load(filepath.Join(root, "perfpages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Build(context.Background(), BuildOptions{Strict: true})
	var listed []string
	for _, w := range rep.Warnings {
		if strings.Contains(w.Error(), "is listed under PR #53 and PR #54") {
			listed = append(listed, w.Error())
		}
	}
	if len(listed) != 1 || !strings.HasPrefix(listed[0], "gh-pages@"+res.git("rev-parse", "--short=7", "HEAD")+":") {
		t.Errorf("the commit in two PRs is warned %d times, want once for the newest version: %q", len(listed), listed)
	}
	if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("%d problems", len(rep.Warnings))) {
		t.Errorf("strict build: %v", err)
	}
}

// TestSiteFromGitASVRemoved: an asv results branch where a maintainer
// deletes the results of one environment ("Remove 3.3 results"): they are
// left out, with a note saying how many files, unless keep_removed.
func TestSiteFromGitASVRemoved(t *testing.T) {
	const (
		c1 = "a1b2c3d4e5f60718293a4b5c6d7e8f9001122334"
		c2 = "b2c3d4e5f60718293a4b5c6d7e8f900112233445"
	)
	root := t.TempDir()
	res := newGitRepo(t, filepath.Join(root, "bench"))
	res.write("results/benchmarks.json", `{"bench.time_parse": {"name": "bench.time_parse", "param_names": [], "params": [], "type": "time", "unit": "seconds", "version": "1"},
 "bench.time_read": {"name": "bench.time_read", "param_names": [], "params": [], "type": "time", "unit": "seconds", "version": "1"}, "version": 2}`)
	res.write("results/cheetah/machine.json", `{"arch": "x86_64", "cpu": "AMD EPYC 7B13", "machine": "cheetah", "num_cpu": "2", "os": "Linux", "ram": "16318900", "version": 1}`)
	for _, c := range []struct {
		sha  string
		date int64
	}{{c1, 1763600000000}, {c2, 1763700000000}} {
		res.write("results/cheetah/"+c.sha[:8]+"-virtualenv-py2.7.json", asvResult(c.sha, "2.7", c.date, 0.010, false))
		res.write("results/cheetah/"+c.sha[:8]+"-virtualenv-py3.3.json", asvResult(c.sha, "3.3", c.date, 0.012, false))
		res.git("add", ".")
		res.git("commit", "-qm", "results for "+c.sha[:8])
	}
	res.git("rm", "-q", "results/cheetah/"+c1[:8]+"-virtualenv-py3.3.json", "results/cheetah/"+c2[:8]+"-virtualenv-py3.3.json")
	res.git("commit", "-qm", "Remove 3.3 results")
	for _, keep := range []bool{false, true} {
		cfg := "[[sources]]\ngit = \"bench\"\nref = \"main\"\npath = \"results\"\nformat = \"asv\"\n"
		if keep {
			cfg += "keep_removed = true\n"
		}
		os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte(cfg), 0o644)
		d, _ := loadConfig(t, filepath.Join(root, "perfpages.toml"))
		py33 := 0
		for _, sr := range d.Series {
			if strings.Contains(sr.Key.Context, "python=3.3") {
				py33++
			}
		}
		if keep != (py33 > 0) {
			t.Errorf("keep_removed=%t: %d series of python 3.3", keep, py33)
		}
		found := slices.ContainsFunc(d.Notes, func(n string) bool {
			return strings.Contains(n, "2 files deleted since (e.g. main@") && strings.Contains(n, map[bool]string{false: "are left out", true: "are kept (keep_removed = true)"}[keep])
		})
		if !found {
			t.Errorf("keep_removed=%t: notes %q", keep, d.Notes)
		}
	}
}

// TestSiteFromGitMissingBlobs: a repository that lacks some versions'
// blobs (a damaged clone, or a copy that left its largest files out, as a
// fetched snapshot of authzed/spicedb's gh-pages did for 163 of its
// data.js versions) builds from the versions it has: one warning for the
// older ones missing, and the newest it has stands for a missing newest.
func TestSiteFromGitMissingBlobs(t *testing.T) {
	root := t.TempDir()
	res := newGitRepo(t, filepath.Join(root, "pages"))
	res.git("checkout", "-qb", "gh-pages")
	var blobs []string
	for n := 1; n <= 5; n++ {
		var entries []string
		for i := 1; i <= n; i++ {
			entries = append(entries, gabEntry(i))
		}
		res.write("dev/bench/data.js", "window.BENCHMARK_DATA = {\"lastUpdate\": 1, \"repoUrl\": \"https://github.com/a/b\", \"entries\": {\"Benchmark\": ["+strings.Join(entries, ",\n")+"]}}\n")
		res.git("add", ".")
		res.git("commit", "-qm", "add entry "+strconv.Itoa(n))
		blobs = append(blobs, res.git("rev-parse", "HEAD:dev/bench/data.js"))
	}
	drop := func(blob string) { // loose objects: the repository was never packed
		if err := os.Remove(filepath.Join(res.dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
			t.Fatal(err)
		}
	}
	drop(blobs[1])
	drop(blobs[2])
	cfg := "[[sources]]\ngit = \"pages\"\nref = \"gh-pages\"\npath = \"dev/bench\"\nformat = \"gab\"\n"
	if err := os.WriteFile(filepath.Join(root, "perfpages.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	d, warnings := loadConfig(t, filepath.Join(root, "perfpages.toml"))
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "2 older versions of the file are not in the repository") {
		t.Errorf("warnings %v, want one of 2 older versions missing", warnings)
	}
	if len(d.Artifacts) != 5 {
		t.Errorf("%d artifacts, want 5", len(d.Artifacts))
	}

	drop(blobs[4]) // the newest too: the newest it has stands
	d, warnings = loadConfig(t, filepath.Join(root, "perfpages.toml"))
	got := fmt.Sprint(warnings)
	for _, part := range []string{"is not in the repository (a damaged clone", "; file skipped", "the newest readable version is used instead", "2 older versions"} {
		if !strings.Contains(got, part) {
			t.Errorf("warnings %s lack %q", got, part)
		}
	}
	if strings.Contains(got, "file skipped; file skipped") {
		t.Errorf("warnings %s say it twice", got)
	}
	if len(d.Artifacts) != 4 {
		t.Errorf("%d artifacts, want the 4 of the newest version there is", len(d.Artifacts))
	}
}
