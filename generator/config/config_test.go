package config

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/model"
)

func TestParseDefaults(t *testing.T) {
	dir := t.TempDir()
	c, err := Parse("perfpages.toml", []byte("[[sources]]\ndir = \"results\"\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		File: "perfpages.toml",
		Dir:  dir,
		Site: Site{Title: "Benchmarks", BaseURL: "/", Content: filepath.Join(dir, "content"), Output: filepath.Join(dir, "public"), MaxInputBytes: 64 << 20,
			MaxSiteFiles: DefaultMaxSiteFiles, MaxSiteBytes: DefaultMaxSiteBytes},
		Sources:  []Source{{Dir: filepath.Join(dir, "results")}},
		Analysis: Analysis{},
		Triage:   Triage{},
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
max_input_bytes = 1048576

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
z_threshold = 4.5
lookback = 50
z_min_commits = 2
nresamples = 20000
alpha = 0.01
noise_threshold = 0.02
annotations = "notes/annotations.yaml"

[budgets.wall-time]
threshold = 0.10
warn_factor = 0.5
statistic = "p95"
noise_threshold = 0.3
noise_policy = "skip"

[budgets.max-rss]
direction = "lower"

[metrics."instructions:u"]
unit = "count"
direction = "lower"
noise = "reliable"

[metrics.throughput]
direction = "higher"

[metrics.track.units.gflopss]
direction = "higher"

[metrics.track.units."runtime (s)"]
noise = "reliable"

[triage]
filter = "deserves-attention"
large_change = 0.1
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
	if c.Site.MaxInputBytes != 1<<20 {
		t.Errorf("site.max_input_bytes = %d, want 1048576", c.Site.MaxInputBytes)
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
	wantUnits := []model.Metric{{Name: "track", Unit: "gflopss", Direction: "higher"}, {Name: "track", Unit: "runtime (s)", Noise: "reliable"}}
	if d := cmp.Diff(wantUnits, bo.UnitMetrics); d != "" {
		t.Errorf("BuildOptions.UnitMetrics (-want +got):\n%s", d)
	}
	wantAnalysis := Analysis{Model: "rustc-perf-2021", Value: "median", History: 40, ZThreshold: 4.5, Lookback: 50, ZMinCommits: 2, NResamples: 20000, Alpha: 0.01, NoiseThreshold: 0.02, Annotations: "/site/notes/annotations.yaml"}
	if d := cmp.Diff(wantAnalysis, c.Analysis); d != "" {
		t.Errorf("analysis (-want +got):\n%s", d)
	}
	if b := c.Budgets["wall-time"]; b.ThresholdOr() != 0.10 || b.WarnFactorOr() != 0.5 || b.Statistic != "p95" || *b.NoiseThreshold != 0.3 || b.NoisePolicy != "skip" {
		t.Errorf("budgets.wall-time = %+v", b)
	}
	if b := c.Budgets["max-rss"]; b.ThresholdOr() != budget.DefaultThreshold || b.WarnFactorOr() != budget.DefaultWarnFactor || b.Direction != "lower" {
		t.Errorf("budgets.max-rss = %+v", b)
	}
	co := c.CompareOptions()
	if co.Model != "rustc-perf-2021" || co.History != 40 || co.ZMinCommits != 2 {
		t.Errorf("CompareOptions = %+v", co)
	}
	if w := c.Triage.Watch(); w.LargeChange != 0.1 || w.Limit != 10 {
		t.Errorf("Triage.Watch() = %+v, want large change 0.1, limit 10", w)
	}
}

// TestLargeChange: triage.large_change is a fraction; 0 turns the large
// changes off (it is not "unset").
func TestLargeChange(t *testing.T) {
	for file, want := range map[string]float64{
		"":                                           0.05,
		"[triage]\nlarge_change = 0\n":               0,
		"[triage]\nlarge_change = 0.2\n":             0.2,
		"[triage]\nlarge_change = 1\n":               1,
		"[triage]\nlarge_change = 1e-3\n":            0.001,
		"[triage]\nfilter = \"probably-relevant\"\n": 0.05,
	} {
		c, err := Parse("perfpages.toml", []byte("[[sources]]\ndir = \"r\"\n"+file), "/site")
		if err != nil {
			t.Errorf("%q: %v", file, err)
			continue
		}
		if got := c.Triage.Watch().LargeChange; got != want {
			t.Errorf("%q: large change %v, want %v", file, got, want)
		}
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
		{"bad model", "[analysis]\nmodel = \"asv\"\n", []string{`perfpages.toml: [analysis] model = "asv": unknown model (want perfpages, rustc-perf or rustc-perf-2021)`}},
		{"bad value", "[analysis]\nvalue = \"max\"\n", []string{`perfpages.toml: [analysis] value = "max": want auto, best, median or mean`}},
		{"bad direction", "[metrics.x]\ndirection = \"up\"\n", []string{`metrics."x".direction "up"`}},
		{"bad noise", "[metrics.x]\nnoise = \"loud\"\n", []string{`metrics."x".noise "loud"`}},
		{"bad unit direction", "[metrics.track.units.gflopss]\ndirection = \"up\"\nnoise = \"loud\"\n", []string{`metrics."track".units."gflopss".direction "up"`, `metrics."track".units."gflopss".noise "loud"`}},
		{"bad filter", "[triage]\nfilter = \"all\"\n", []string{`triage.filter "all"`}},
		{"large change in percent", "[triage]\nlarge_change = 5\n", []string{`perfpages.toml: [triage] large_change = 5 reads as 500 %; write 0.05 or "5%"`}},
		{"negative large change", "[triage]\nlarge_change = -0.05\n", []string{`[triage] large_change = -0.05: want a fraction between 0 and 1, such as 0.10 or "10%"`}},
		{"large change nan", "[triage]\nlarge_change = nan\n", []string{`[triage] large_change = NaN`}},
		{"large change as words", "[triage]\nlarge_change = \"five\"\n", []string{`perfpages.toml:2: triage.large_change: "five": want a fraction such as 0.10 or a percentage such as "10%"`}},
		{"large change over 100 %", "[triage]\nlarge_change = \"500%\"\n", []string{`perfpages.toml:2: triage.large_change: "500%": want a percentage of at most 100 %`}},
		{"large change as a date", "[triage]\nlarge_change = 2026-01-01\n", []string{`perfpages.toml:2: triage.large_change:`, `want a fraction such as 0.10`}},
		{"bad repository", "[site]\nrepository = \"github.com/x\"\n", []string{`site.repository`}},
		{"theme escapes", "[site]\ntheme = \"../x\"\n", []string{`site.theme "../x"`}},
		{"negative max input", "[site]\nmax_input_bytes = -1\n", []string{`site.max_input_bytes -1: want a size in bytes of at least 1024`}},
		{"tiny max input", "[site]\nmax_input_bytes = 100\n", []string{`site.max_input_bytes 100`}},
		{"max input as text", "[site]\nmax_input_bytes = \"64MiB\"\n", []string{`perfpages.toml`}},
		{"bad z threshold", "[analysis]\nz_threshold = -1\n", []string{`perfpages.toml: [analysis] z_threshold = -1: want a positive number`}},
		{"bad alpha", "[analysis]\nalpha = 5\n", []string{`perfpages.toml: [analysis] alpha = 5 reads as 500 %; write 0.05 or "5%"`}},
		{"alpha of 1.5", "[analysis]\nalpha = 1.5\n", []string{`perfpages.toml: [analysis] alpha = 1.5 reads as 150 %; write 0.015 or "1.5%"`}},
		{"negative alpha", "[analysis]\nalpha = -0.05\n", []string{`perfpages.toml: [analysis] alpha = -0.05: want a fraction between 0 and 1`}},
		{"bad nresamples", "[analysis]\nnresamples = -5\n", []string{`perfpages.toml: [analysis] nresamples = -5: want a positive number of bootstrap resamples`}},
		{"bad lookback", "[analysis]\nlookback = 1\n", []string{`perfpages.toml: [analysis] lookback = 1: too short (want at least 2 commits)`}},
		{"bad z minimum", "[analysis]\nz_min_commits = 1\n", []string{`perfpages.toml: [analysis] z_min_commits = 1: want at least 2 commits`}},
		{"bad budget", "[budgets.wall-time]\nwarn_factor = 2.5\nstatistic = \"p99\"\nnoise_policy = \"loud\"\ndirection = \"up\"\n",
			[]string{`perfpages.toml: [budgets."wall-time"] warn_factor = 2.5 reads as 250 %; write 0.025 or "2.5%"`, `perfpages.toml: [budgets."wall-time"] statistic = "p99"`, `perfpages.toml: [budgets."wall-time"] noise_policy = "loud"`, `perfpages.toml: [budgets."wall-time"] direction = "up"`}},
		{"negative budget threshold", "[budgets.x]\nthreshold = -0.1\n", []string{`perfpages.toml: [budgets."x"] threshold = -0.1: want a fraction between 0 and 1`}},
		// Meant 10 %, read as 1000 %.
		{"budget threshold in percent", "[budgets.wall-time]\nthreshold = 10\n", []string{`perfpages.toml: [budgets."wall-time"] threshold = 10 reads as 1000 %; write 0.10 or "10%"`}},
		{"budget threshold of 2 %", "[budgets.wall-time]\nthreshold = 2\n", []string{`perfpages.toml: [budgets."wall-time"] threshold = 2 reads as 200 %; write 0.02 or "2%"`}},
		{"budget threshold far too large", "[budgets.wall-time]\nthreshold = 1000\n", []string{`perfpages.toml: [budgets."wall-time"] threshold = 1000: want a fraction between 0 and 1, such as 0.10 or "10%"`}},
		{"budget threshold infinite", "[budgets.wall-time]\nthreshold = inf\n", []string{`[budgets."wall-time"] threshold = +Inf: want a fraction between 0 and 1`}},
		{"budget noise threshold in percent", "[budgets.x]\nnoise_threshold = 30\n", []string{`[budgets."x"] noise_threshold = 30 reads as 3000 %; write 0.30 or "30%"`}},
		{"step alpha in percent", "[analysis.steps]\nalpha = 1\nmin_change = 2\n", []string{`perfpages.toml: [analysis.steps] min_change = 2 reads as 200 %; write 0.02 or "2%"`}},
		{"metric step change in percent", "[metrics.x]\nsteps = {min_change = 5}\n", []string{`perfpages.toml: [metrics."x".steps] min_change = 5 reads as 500 %; write 0.05 or "5%"`}},
		{"negative budget noise threshold", "[budgets.x]\nnoise_threshold = -1\n", []string{`perfpages.toml: [budgets."x"] noise_threshold = -1`}},
		// Config once accepted this while analysis refused it, and every
		// comparison silently used the default model and budgets.
		{"too many resamples", "[analysis]\nnresamples = 20000000\n", []string{`perfpages.toml: [analysis] nresamples = 20000000: must be ≤ 10000000`}},
		{"bad history", "[analysis]\nhistory = 1\n", []string{`perfpages.toml: [analysis] history = 1: too short (want at least 2 values)`}},
		{"negative history", "[analysis]\nhistory = -4\n", []string{`perfpages.toml: [analysis] history = -4`}},
		{"bad noise threshold", "[analysis]\nnoise_threshold = -0.5\n", []string{`perfpages.toml: [analysis] noise_threshold = -0.5: want a fraction between 0 and 1`}},
		{"nan z threshold", "[analysis]\nz_threshold = nan\n", []string{`perfpages.toml: [analysis] z_threshold = NaN`}},
		{"alpha of zero is the default, alpha of 1 is not", "[analysis]\nalpha = 1\n", []string{`perfpages.toml: [analysis] alpha = 1:`}},
		{"unknown budget key", "[budgets.wall-time]\nthreshhold = 0.1\n", []string{`unknown key "budgets.wall-time.threshhold"`}},
		{"bad commit url", "[site]\ncommit_url = \"gitlab.com/x/{sha}\"\npr_url = \"https://x/mr\"\n", []string{`site.commit_url "gitlab.com/x/{sha}"`, `site.pr_url "https://x/mr": want an http(s) URL pattern with {pr}`}},
		{"a pattern without {sha} for a format that records no commit", "[[sources]]\ndir = \"r\"\nformat = \"gobench\"\nartifact = \"{machine}/bench.txt\"\n", []string{`no {sha}`, `gab, asv and pytest-benchmark`}},
		{"machines without a valid pattern or a name", "[[machines]]\nmatch = \"fv-az[\"\nname = \"ci\"\n[[machines]]\nmatch = \"x\"\n", []string{`perfpages.toml: machines[0]: match "fv-az[": want a machine name, or a pattern`, `perfpages.toml: machines[1]: name "": want the name`}},
		{"unknown machines key", "[[machines]]\nmatch = \"x\"\nname = \"y\"\nrename = \"z\"\n", []string{`unknown key "machines.rename"`}},
		{"two problems at once", "[analysis]\nmodel = \"a\"\nvalue = \"b\"\n", []string{"perfpages.toml: [analysis] model = \"a\"", "\nperfpages.toml: [analysis] value = \"b\""}},
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

// TestCheckBaseURL: a base URL is an absolute http(s) URL or a path from
// the root; "example.github.io/bench/" (no scheme) would make every link
// relative to the page and break, so it is an error that shows the fix.
func TestCheckBaseURL(t *testing.T) {
	tests := []struct {
		url  string
		want string // "" for valid, else a substring of the error
	}{
		{"/", ""},
		{"/bench/", ""},
		{"/bench", ""},
		{"https://example.github.io/bench/", ""},
		{"https://example.github.io/bench", ""},
		{"http://localhost:8080/", ""},
		{"https://example.org", ""},
		{"example.github.io/bench/", `"example.github.io/bench/" has no scheme: want an absolute URL such as https://example.github.io/bench/ (or a path such as /bench/)`},
		{"bench/", `"bench/" has no scheme: want an absolute URL such as https://example.github.io/bench/`},
		{"//example.github.io/bench/", `has no scheme: want an absolute URL such as https://example.github.io/bench/`},
		{"ftp://example.org/", `want an http or https URL`},
		{"https:///bench/", `has no host`},
		{"https://user:pw@example.org/", `must not hold a user name or password`},
		{"https://example.org/?x=1", `must not have a query or fragment`},
		{"https://example.org/#top", `must not have a query or fragment`},
		{"https://exa mple.org/", `"https://exa mple.org/"`},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			err := CheckBaseURL(tt.url)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	// The config names the key; SetBaseURL (flag, environment) applies
	// the same rule and leaves the config alone on an error.
	_, err := Parse("perfpages.toml", []byte("[site]\nbase_url = \"example.github.io/bench/\"\n[[sources]]\ndir = \"r\"\n"), "/site")
	if err == nil || !strings.Contains(err.Error(), `perfpages.toml: site.base_url "example.github.io/bench/" has no scheme`) {
		t.Errorf("Parse: %v", err)
	}
	c := Default()
	if err := c.SetBaseURL("example.org"); err == nil || c.Site.BaseURL != "/" {
		t.Errorf("SetBaseURL(example.org) = %v, base_url %q", err, c.Site.BaseURL)
	}
	if err := c.SetBaseURL("https://o.github.io/r/"); err != nil || c.BasePath() != "/r/" || c.AbsURL() != "https://o.github.io/r/" {
		t.Errorf("SetBaseURL: %v, BasePath %q, AbsURL %q", err, c.BasePath(), c.AbsURL())
	}
}

// TestCheckSources: a config without sources parses (check reads only
// [budgets]) but cannot build a site.
func TestCheckSources(t *testing.T) {
	c, err := Parse("ci/perfpages.toml", []byte("[budgets.wall-time]\nthreshold = 0.1\n"), "/site/ci")
	if err != nil {
		t.Fatal(err)
	}
	err = c.CheckSources()
	if err == nil || !strings.HasPrefix(err.Error(), `ci/perfpages.toml: no [[sources]]: add one that says where the results are: dir = "results"`) {
		t.Errorf("CheckSources = %v", err)
	}
	c, _ = Parse("perfpages.toml", []byte("[[sources]]\ndir = \"r\"\n"), "/site")
	if err := c.CheckSources(); err != nil {
		t.Errorf("with a source: %v", err)
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "missing.toml"))
	if err == nil || !strings.Contains(err.Error(), "missing.toml: no such file") {
		t.Errorf("Load(missing) = %v", err)
	}
}

// TestDefaultsAreAnalysis: a config without [analysis] leaves every key
// unset, and the comparisons made with it use analysis.DefaultOptions,
// the one place the defaults are written and filled in; budgets take
// budget's defaults.
func TestDefaultsAreAnalysis(t *testing.T) {
	if d := cmp.Diff(analysis.Options{}, Default().CompareOptions()); d != "" {
		t.Errorf("Default().CompareOptions() (-unset +got):\n%s", d)
	}
	res := analysis.Analyze(model.NewBuilder(model.BuildOptions{}).Dataset(), analysis.AnalyzeOptions{Compare: Default().CompareOptions()})
	if d := cmp.Diff(analysis.DefaultOptions, res.Options()); d != "" {
		t.Errorf("options the analysis used (-analysis.DefaultOptions +got):\n%s", d)
	}
	want := budget.New(budget.DefaultThreshold, budget.DefaultWarnFactor, "")
	want.NoisePolicy = budget.NoiseWarn
	if d := cmp.Diff(want, Budget{}.Budget()); d != "" {
		t.Errorf("Budget{}.Budget() (-want +got):\n%s", d)
	}
}

// TestFractions: every fraction key takes a number or a percentage in a
// string ("threshold = 10" meant 10 % and read as 1000 %).
func TestFractions(t *testing.T) {
	c, err := Parse("perfpages.toml", []byte(`
[[sources]]
dir = "r"
[analysis]
alpha = "5%"
noise_threshold = "1 %"
[analysis.steps]
min_change = "0.2%"
[budgets.wall-time]
threshold = "10%"
warn_factor = "90%"
noise_threshold = 0.3
[budgets.max-rss]
threshold = 0.25
[triage]
large_change = "2.5%"
`), "/site")
	if err != nil {
		t.Fatal(err)
	}
	o := c.CompareOptions()
	for _, tt := range []struct {
		name      string
		got, want float64
	}{
		{"analysis.alpha", o.Alpha, 0.05},
		{"analysis.noise_threshold", o.NoiseThreshold, 0.01},
		{"analysis.steps.min_change", c.StepOptions("wall-time").MinChange, 0.002},
		{"budgets.wall-time.threshold", o.Budgets["wall-time"].Threshold, 0.10},
		{"budgets.wall-time.warn_threshold", o.Budgets["wall-time"].WarnThreshold, 0.09},
		{"budgets.wall-time.noise_threshold", *o.Budgets["wall-time"].NoiseThreshold, 0.3},
		{"budgets.max-rss.threshold", o.Budgets["max-rss"].Threshold, 0.25},
		{"triage.large_change", c.Triage.Watch().LargeChange, 0.025},
	} {
		if math.Abs(tt.got-tt.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestParseFraction(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		err  string
	}{
		{"10%", 0.10, ""},
		{" 2.5 % ", 0.025, ""},
		{"100%", 1, ""},
		{"0%", 0, ""},
		{"0.1", 0.1, ""},
		{"101%", 0, `"101%": want a percentage of at most 100 %`},
		{"ten", 0, `"ten": want a fraction such as 0.10 or a percentage such as "10%"`},
		{"%", 0, `want a fraction`},
		{"NaN%", 0, `want a fraction`},
		{"", 0, `want a fraction`},
	} {
		got, err := ParseFraction(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseFraction(%q) = %v, %v; want error %q", tt.in, got, err, tt.err)
		case tt.err == "" && (err != nil || math.Abs(got-tt.want) > 1e-12):
			t.Errorf("ParseFraction(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// A source of a format that records its commit may name only the machine
// in its pattern: a data.js per runner.
func TestPatternWithoutSHA(t *testing.T) {
	c, err := Parse("perfpages.toml", []byte("[[sources]]\ndir = \"dev/bench\"\nformat = \"gab\"\nartifact = \"{machine}/data.js\"\n"), "/site")
	if err != nil {
		t.Fatal(err)
	}
	if c.Sources[0].Artifact != "{machine}/data.js" {
		t.Errorf("artifact %q", c.Sources[0].Artifact)
	}
}
