package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// criterionArchive is a run with Criterion-style samples (iteration
// counts), so that a build has bootstrap results to cache.
func criterionArchive(sha, parent, date string, scale float64) string {
	parents := "[]"
	if parent != "" {
		parents = `["` + parent + `"]`
	}
	var samples, iters []string
	for i := 1; i <= 10; i++ {
		samples = append(samples, fmt.Sprint(float64(i*100)*scale+float64(i%3)))
		iters = append(iters, fmt.Sprint(i))
	}
	return `{"schema": "perfpages.run.v1",
"artifact": {"id": "` + sha + `", "kind": "commit", "date": "` + date + `", "branch": "main", "parents": ` + parents + `},
"machine": {"name": "ci"},
"results": [{"benchmark": "parse", "metric": "wall-time", "unit": "ns",
  "samples": [` + strings.Join(samples, ", ") + `], "iters": [` + strings.Join(iters, ", ") + `]}]}
`
}

// smallSite writes a site of two commits with the given perfpages.toml.
func smallSite(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	files := map[string]string{
		"perfpages.toml": config,
		"results/a.json": criterionArchive(a, "", "2026-03-02T00:00:00Z", 1),
		"results/b.json": criterionArchive(b, a, "2026-03-03T00:00:00Z", 1.3),
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const smallConfig = "[analysis]\nnresamples = 200\n[[sources]]\ndir = \"results\"\n"

// TestConfigTraps: what used to build the wrong thing, or a broken site,
// without a word.
func TestConfigTraps(t *testing.T) {
	tests := []struct {
		name   string
		config string // perfpages.toml ("" for none; "/dir" for a folder of that name)
		args   []string
		env    string // PERFPAGES_BASE_URL
		stderr string // want in stderr
		ok     bool
	}{
		{name: "missing -config is an error, not the demo", config: smallConfig,
			args: []string{"build", "-config", "missing.toml"}, stderr: "perfpages: config missing.toml: no such file\n"},
		{name: "no perfpages.toml builds the demo and says so",
			args: []string{"compare", "-format", "json", "f6ce027", "pr/1384"}, stderr: "perfpages: note: no perfpages.toml in ", ok: true},
		{name: "perfpages.toml that is a folder is an error", config: "/dir",
			args: []string{"build"}, stderr: "perfpages: reading config: read perfpages.toml: is a directory"},
		{name: "no sources", config: "[site]\ntitle = \"x\"\n",
			args: []string{"build"}, stderr: "perfpages: perfpages.toml: no [[sources]]: add one"},
		{name: "base_url without a scheme", config: "[site]\nbase_url = \"example.github.io/bench/\"\n" + smallConfig,
			args: []string{"build"}, stderr: `perfpages: perfpages.toml: site.base_url "example.github.io/bench/" has no scheme: want an absolute URL such as https://example.github.io/bench/`},
		{name: "bad -base-url", config: smallConfig,
			args: []string{"build", "-base-url", "example.org/x"}, stderr: `perfpages: -base-url "example.org/x" has no scheme`},
		{name: "bad PERFPAGES_BASE_URL", config: smallConfig, env: "ftp://example.org/",
			args: []string{"build"}, stderr: `perfpages: $PERFPAGES_BASE_URL "ftp://example.org/": want an http or https URL`},
		{name: "-base-url wins over a bad PERFPAGES_BASE_URL", config: smallConfig, env: "example.org",
			args: []string{"build", "-base-url", "https://o.github.io/r/"}, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := smallSite(t, smallConfig)
			os.Remove(filepath.Join(dir, "perfpages.toml"))
			switch {
			case tt.config == "/dir":
				os.Mkdir(filepath.Join(dir, "perfpages.toml"), 0o755)
			case tt.config != "":
				os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte(tt.config), 0o644)
			}
			t.Setenv(baseURLEnv, tt.env)
			_, stderr, err := runCLI(t, dir, tt.args...)
			if (err == nil) != tt.ok || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("err = %v, stderr = %q; want ok %v and stderr with %q", err, stderr, tt.ok, tt.stderr)
			}
			if !tt.ok {
				if _, err := os.Stat(filepath.Join(dir, "public")); err == nil {
					t.Error("a failed build wrote public/")
				}
			}
		})
	}
}

// TestBaseURLOverride: -base-url beats PERFPAGES_BASE_URL beats
// site.base_url, for the site and for compare's links.
func TestBaseURLOverride(t *testing.T) {
	cfg := "[site]\nbase_url = \"https://config.example/c/\"\n" + smallConfig
	tests := []struct {
		env, flag, want string
	}{
		{want: "https://config.example/c/"},
		{env: "https://env.example/e/", want: "https://env.example/e/"},
		{env: "https://env.example/e/", flag: "https://flag.example/f", want: "https://flag.example/f/"},
		{flag: "/sub/", want: "/sub/"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			dir := smallSite(t, cfg)
			t.Setenv(baseURLEnv, tt.env)
			args := []string{"build", "-out", "site"}
			cargs := []string{"compare", "-format", "markdown", "aaaa", "bbbb"}
			if tt.flag != "" {
				args = append(args, "-base-url", tt.flag)
				cargs = append(cargs, "-base-url", tt.flag)
			}
			if _, stderr, err := runCLI(t, dir, args...); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			index, err := os.ReadFile(filepath.Join(dir, "site", "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			path := tt.want
			if i := strings.Index(path, "://"); i >= 0 {
				path = path[i+3:]
				path = path[strings.Index(path, "/"):]
			}
			if !strings.Contains(string(index), `href="`+path+`assets/`) {
				t.Errorf("index.html does not link under %s", path)
			}
			md, stderr, err := runCLI(t, "", cargs...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if !strings.Contains(md, "]("+tt.want+"commit/") {
				t.Errorf("compare's links do not start with %s:\n%s", tt.want, md)
			}
		})
	}
}

// TestCacheFlag: -cache puts the analysis cache where CI can keep it
// (actions/cache), and -cache off keeps none.
func TestCacheFlag(t *testing.T) {
	dir := smallSite(t, smallConfig)
	if _, stderr, err := runCLI(t, dir, "build", "-out", "site", "-cache", "ci-cache"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "ci-cache", "*")); len(files) == 0 {
		t.Error("-cache ci-cache: nothing cached there")
	}
	if _, err := os.Stat(filepath.Join(dir, ".perfpages-cache")); err == nil {
		t.Error("the default cache folder was written too")
	}
	if _, stderr, err := runCLI(t, "", "build", "-out", "site2", "-cache", "off"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".perfpages-cache")); err == nil {
		t.Error("-cache off wrote .perfpages-cache")
	}
}

// TestBuildSaysWhichRef: build prints the ref and commit each git source
// read, and says so when the local branch it reads is behind origin's
// (a local build once silently read a stale
// refs/remotes/origin/perf-results, and nothing said which).
func TestBuildSaysWhichRef(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	readme, err := os.ReadFile(readmePath) // before runCLI changes the folder
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+root,
			"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.org", "GIT_AUTHOR_DATE=2026-11-20T03:00:00Z",
			"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.org", "GIT_COMMITTER_DATE=2026-11-20T03:00:00Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// Upstream: a perf-results branch with two nights of results.
	up := filepath.Join(root, "upstream")
	os.MkdirAll(filepath.Join(up, "results"), 0o755)
	git(up, "-c", "init.defaultBranch=perf-results", "init", "-q")
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	for _, c := range []struct{ sha, parent, date string }{{a, "", "2026-03-02T00:00:00Z"}, {b, a, "2026-03-03T00:00:00Z"}} {
		os.WriteFile(filepath.Join(up, "results", c.sha[:1]+".json"), []byte(criterionArchive(c.sha, c.parent, c.date, 1)), 0o644)
		git(up, "add", ".")
		git(up, "commit", "-qm", "results "+c.sha[:1])
	}
	first, tip := git(up, "rev-parse", "HEAD~1"), git(up, "rev-parse", "HEAD")
	// A clone whose local perf-results is one night behind origin's.
	clone := filepath.Join(root, "clone")
	git(root, "clone", "-q", up, clone)
	git(clone, "reset", "-q", "--hard", first)
	os.WriteFile(filepath.Join(clone, "perfpages.toml"), []byte("[analysis]\nnresamples = 200\n[[sources]]\ngit = \".\"\nref = \"perf-results\"\npath = \"results/\"\n"), 0o644)

	_, stderr, err := runCLI(t, clone, "build", "-out", filepath.Join(root, "public"))
	if err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	want := "perfpages: git: source results/ in " + clone + ": perf-results → refs/heads/perf-results at " + first[:7] + " (2026-11-20): " +
		"the local branch perf-results is read, as git reads it; origin/perf-results (at " + tip[:7] + ") is 1 commit ahead of it: " +
		"to read them, fast-forward it (git fetch origin perf-results:perf-results, or git pull where it is checked out)\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr = %q\nwant a line %q", stderr, want)
	}
	// The README shows this line, with another folder and commits.
	shown := strings.NewReplacer(clone, "/src/proj", first[:7], "1a2b3c4", tip[:7], "5d6e7f8").Replace(want)
	if !strings.Contains(string(readme), "\n"+shown) {
		t.Errorf("the README does not show the line\n%s", shown)
	}
	// Up to date with origin: the line names the ref and commit, no more.
	git(clone, "reset", "-q", "--hard", tip)
	_, stderr, err = runCLI(t, clone, "build", "-out", filepath.Join(root, "public"))
	if want := "perfpages: git: source results/ in " + clone + ": perf-results → refs/heads/perf-results at " + tip[:7] + " (2026-11-20)\n"; err != nil || !strings.Contains(stderr, want) {
		t.Errorf("build: %v; stderr = %q\nwant a line %q", err, stderr, want)
	}
}
