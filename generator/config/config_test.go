package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDefaults(t *testing.T) {
	dir := t.TempDir()
	c, err := Parse("perfpages.toml", []byte("[[sources]]\ndir = \"results\"\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Dir:      dir,
		Site:     Site{Title: "Benchmarks", BaseURL: "/", Content: filepath.Join(dir, "content"), Output: filepath.Join(dir, "public")},
		Sources:  []Source{{Dir: filepath.Join(dir, "results")}},
		Analysis: Analysis{Model: "rustc-perf", Value: "best", History: 30},
		Triage:   Triage{Filter: "definitely-relevant"},
	}
	if d := cmp.Diff(want, c); d != "" {
		t.Errorf("config (-want +got):\n%s", d)
	}
	if got := c.BasePath(); got != "/" {
		t.Errorf("BasePath = %q, want /", got)
	}
}

func TestParseFull(t *testing.T) {
	const file = `
[site]
title = "Example benchmarks"
base_url = "https://example.github.io/bench/"
repository = "https://github.com/example/project"
theme = "mine"

[[sources]]
dir = "results"

[[sources]]
git = "."
ref = "perf-results"
path = "results/"

[[sources]]
git = "/abs/repo"
notes = "refs/notes/perf"

[project]
git = "../project"
branch = "master"

[analysis]
model = "rustc-perf-2021"
value = "median"
history = 40

[metrics."instructions:u"]
unit = "count"
direction = "lower"
noise = "reliable"

[metrics.throughput]
direction = "higher"

[triage]
filter = "deserves-attention"
`
	dir := "/site"
	c, err := Parse("perfpages.toml", []byte(file), dir)
	if err != nil {
		t.Fatal(err)
	}
	wantSources := []Source{
		{Dir: "/site/results"},
		{Git: "/site", Ref: "perf-results", Path: "results/"},
		{Git: "/abs/repo", Notes: "refs/notes/perf"},
	}
	if d := cmp.Diff(wantSources, c.Sources); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
	if c.Project.Git != "/project" || c.Project.Branch != "master" {
		t.Errorf("project = %+v", c.Project)
	}
	if got := c.BasePath(); got != "/bench/" {
		t.Errorf("BasePath = %q", got)
	}
	if got := c.AbsURL(); got != "https://example.github.io/bench/" {
		t.Errorf("AbsURL = %q", got)
	}
	bo := c.BuildOptions()
	if bo.Value != "median" || bo.MainBranch != "master" || bo.Metrics["throughput"].Direction != "higher" || bo.Metrics["instructions:u"].Noise != "reliable" {
		t.Errorf("BuildOptions = %+v", bo)
	}
	co := c.CompareOptions()
	if co.Model != "rustc-perf-2021" || co.History != 40 {
		t.Errorf("CompareOptions = %+v", co)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, file string
		want       []string // substrings of the error
	}{
		{"unknown top-level key", "titel = 1\n", []string{`perfpages.toml: unknown key "titel"`}},
		{"unknown nested key", "[site]\ntitle = \"x\"\nbaseurl = \"/\"\n", []string{`unknown key "site.baseurl"`}},
		{"unknown source key", "[[sources]]\ndir = \"r\"\nformt = \"x\"\n", []string{`unknown key "sources.formt"`}},
		{"syntax error has line", "[site]\ntitle = \n", []string{"perfpages.toml:2:"}},
		{"wrong type", "[analysis]\nhistory = \"thirty\"\n", []string{"perfpages.toml"}},
		{"dir and git", "[[sources]]\ndir = \"a\"\ngit = \"b\"\n", []string{"sources[0]: set dir or git, not both"}},
		{"empty source", "[[sources]]\n", []string{"sources[0]: set dir"}},
		{"ref with dir", "[[sources]]\ndir = \"a\"\nref = \"x\"\n", []string{"ref, path and notes go with git"}},
		{"notes with path", "[[sources]]\ngit = \".\"\nnotes = \"refs/notes/perf\"\npath = \"r\"\n", []string{"use separate sources"}},
		{"bad model", "[analysis]\nmodel = \"asv\"\n", []string{`analysis.model "asv"`}},
		{"bad value", "[analysis]\nvalue = \"max\"\n", []string{`analysis.value "max"`}},
		{"bad direction", "[metrics.x]\ndirection = \"up\"\n", []string{`metrics."x".direction "up"`}},
		{"bad noise", "[metrics.x]\nnoise = \"loud\"\n", []string{`metrics."x".noise "loud"`}},
		{"bad filter", "[triage]\nfilter = \"all\"\n", []string{`triage.filter "all"`}},
		{"bad repository", "[site]\nrepository = \"github.com/x\"\n", []string{`site.repository`}},
		{"theme escapes", "[site]\ntheme = \"../x\"\n", []string{`site.theme "../x"`}},
		{"two problems at once", "[analysis]\nmodel = \"a\"\nvalue = \"b\"\n", []string{`analysis.model "a"`, `analysis.value "b"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("perfpages.toml", []byte(tt.file), "/site")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestBasePath(t *testing.T) {
	for base, want := range map[string]string{
		"/":                              "/",
		"":                               "/",
		"https://example.org":            "/",
		"https://example.org/":           "/",
		"https://example.github.io/b":    "/b/",
		"https://example.github.io/b/c/": "/b/c/",
		"/sub":                           "/sub/",
	} {
		c := &Config{Site: Site{BaseURL: base}}
		if got := c.BasePath(); got != want {
			t.Errorf("BasePath(%q) = %q, want %q", base, got, want)
		}
	}
}
