// Package config decodes perfpages.toml, the site's configuration.
//
// It is the edge of the pipeline: the file is decoded once, strictly
// (unknown keys are errors that name the key), defaults are filled in and
// relative paths are resolved against the config file's folder, so that
// every later stage gets typed, validated settings. Key names are a
// contract: scripts, the README and docs/ use them.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/budget"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/capped"
	"github.com/perfpages/perfpages/generator/internal/sourcespec"
)

// FileName is the configuration file perfpages looks for.
const FileName = "perfpages.toml"

// Config is a decoded perfpages.toml.
type Config struct {
	// File names the config file in messages (as given: "perfpages.toml",
	// "ci/perfpages.toml"); "" for a configuration without one.
	File string `toml:"-"`
	// Dir is the folder of the config file; relative paths below are
	// already resolved against it.
	Dir      string                  `toml:"-"`
	Site     Site                    `toml:"site"`
	Sources  []Source                `toml:"sources"`
	Project  Project                 `toml:"project"`
	Analysis Analysis                `toml:"analysis"`
	Metrics  map[string]MetricConfig `toml:"metrics"`
	// Budgets are perfgate budgets per metric name (package
	// analysis/budget): the `check` command and the budget column of
	// comparison pages.
	Budgets map[string]Budget `toml:"budgets"`
	Triage  Triage            `toml:"triage"`
	// Machines pool machines ([[machines]], in order: the first rule
	// whose match a machine's name matches decides).
	Machines []MachineRule `toml:"machines"`
}

// MachineRule is one [[machines]] table: every machine whose name matches
// Match (the name, or a pattern with * and ? as path.Match reads it) is
// read as machine Name. CI runners that get a new host name every run —
// asv's default machine name on GitHub-hosted runners, "fv-az571-305" one
// run and "fv-az1016-236" the next — are then one machine with one
// history per benchmark (model.MachineRule has the rules).
type MachineRule struct {
	Match string `toml:"match"`
	Name  string `toml:"name"`
}

// Site is the [site] section.
type Site struct {
	Title string `toml:"title"`
	// BaseURL is where the site is published, e.g.
	// "https://example.github.io/bench/"; its path is the prefix of every
	// link, so project sites on a sub-path work. Default "/". It is an
	// absolute http(s) URL or a path starting with "/" (links then stay
	// site-absolute and documents posted elsewhere, such as the PR
	// comment, cannot link back): "example.github.io/bench" would be
	// taken for a path, so it is an error (see CheckBaseURL).
	// The -base-url flag and PERFPAGES_BASE_URL override it
	// (SetBaseURL).
	BaseURL string `toml:"base_url"`
	// Repository is the project's web home (GitHub style), used for
	// commit, PR and compare links. Optional.
	Repository string `toml:"repository"`
	// CommitURL, PRURL and CompareURL are the repository's URL patterns
	// for hosts that are not GitHub-style, with {sha}, {pr}, {base} and
	// {head} (e.g. GitLab: "https://gitlab.com/o/p/-/commit/{sha}",
	// "https://gitlab.com/o/p/-/merge_requests/{pr}",
	// "https://gitlab.com/o/p/-/compare/{base}...{head}"). Optional.
	CommitURL  string `toml:"commit_url"`
	PRURL      string `toml:"pr_url"`
	CompareURL string `toml:"compare_url"`
	// Theme names a folder themes/<name>/ next to the config whose files
	// override the embedded default theme.
	Theme string `toml:"theme"`
	// Content is the folder of Markdown pages (default "content").
	Content string `toml:"content"`
	// Output is where build writes the site (default "public").
	Output string `toml:"output"`
	// Cache is the folder of the analysis cache kept between builds
	// (Criterion's bootstrap results); default ".perfpages-cache" beside
	// the output folder, "off" for none.
	Cache string `toml:"cache"`
	// MaxInputBytes bounds the size of one input file (an archive after
	// gunzip, a foreign result file, a git blob or note) in bytes; default
	// 64 MiB (67108864). A larger file is skipped with a warning naming
	// it, before it is read whole, and the parse caps of archives follow
	// from it (archive.Limits), so that one hostile file cannot exhaust
	// memory: decoding any single file stays well under 1 GiB.
	MaxInputBytes int64 `toml:"max_input_bytes"`
	// MaxSiteFiles and MaxSiteBytes bound the site a build writes: the
	// input caps bound bytes read, not pages written, and one archive of
	// a few MB can name a hundred thousand benchmarks, each with its own
	// pages. A build that would write more fails before it writes
	// anything (see generator.checkSize), naming the inputs that made it
	// so. Defaults: 500,000 files (the L data set, 10,000 series over
	// 5,000 commits, writes 63,000) and 2 GiB (GitHub Pages refuses sites
	// over 1 GB; a build warns above that).
	MaxSiteFiles int   `toml:"max_site_files"`
	MaxSiteBytes int64 `toml:"max_site_bytes"`
}

// Default bounds of the site (Site.MaxSiteFiles, Site.MaxSiteBytes), and
// the size above which GitHub Pages refuses a site.
const (
	DefaultMaxSiteFiles       = 500_000
	DefaultMaxSiteBytes int64 = 2 << 30
	PagesMaxBytes       int64 = 1 << 30
)

// CacheDir is the analysis cache's folder for a build into out ("" for the
// configured output), "" when the cache is off.
func (c *Config) CacheDir(out string) string {
	switch c.Site.Cache {
	case "off":
		return ""
	case "":
		if out == "" {
			out = c.Site.Output
		}
		return filepath.Join(filepath.Dir(filepath.Clean(out)), ".perfpages-cache")
	}
	return c.Site.Cache
}

// Source is one [[sources]] entry: a directory of archives, archives in a
// git repository's history, or git notes.
type Source struct {
	Dir   string `toml:"dir"`   // a directory tree of archives
	Git   string `toml:"git"`   // a git repository
	Ref   string `toml:"ref"`   // with git: the ref whose history holds archives (default HEAD)
	Path  string `toml:"path"`  // with git: the folder inside the repository ("" for all)
	Notes string `toml:"notes"` // with git: read git notes on this ref instead of files
	// Format reads the source's files as another tool's results (package
	// foreign: gobench, criterion, googlebench, pytest-benchmark,
	// hyperfine, bmf, gab, asv, perfgate, or auto); "" or "perfpages" for
	// archives.
	Format string `toml:"format"`
	// Artifact is the path pattern, relative to dir (or to path in a git
	// repository), that gives each foreign file its artifact (and
	// machine): "{sha}/{machine}.txt"; a pattern ending in
	// "/" names the folder of a directory format ("{sha}/criterion/").
	// Files that do not match are ignored. Optional for formats that
	// record the commit themselves and for git notes.
	Artifact string `toml:"artifact"`
	// KeepRemoved, for a git history source, keeps the results that later
	// versions of a file removed (an outlier a maintainer deleted, the
	// entries github-action-benchmark's max-items-in-chart dropped, a
	// file deleted since). By default the newest version of each file is
	// what its maintainer meant, and a note says how many were left out.
	KeepRemoved bool `toml:"keep_removed"`
}

// Kind is "dir", "git" or "notes".
func (s Source) Kind() string {
	switch {
	case s.Dir != "":
		return "dir"
	case s.Notes != "":
		return "notes"
	default:
		return "git"
	}
}

// Archives says the source holds perfpages' own archives (format unset
// or "perfpages"), not another tool's files.
func (s Source) Archives() bool { return s.Format == "" || s.Format == "perfpages" }

// String describes the source for messages.
func (s Source) String() string {
	switch s.Kind() {
	case "dir":
		return "directory " + s.Dir
	case "notes":
		return fmt.Sprintf("git notes %s in %s", s.Notes, s.Git)
	default:
		return fmt.Sprintf("git history of %s:%s in %s", s.Ref, s.Path, s.Git)
	}
}

// Project is the [project] section: the benchmarked project's repository,
// which supplies artifact order, parents, dates, subjects and PR numbers.
type Project struct {
	Git string `toml:"git"`
	// Branch is the main line's branch. Default: "main" for the project
	// history; without a project repository, the branch most commit
	// artifacts name.
	Branch string `toml:"branch"`
}

// Analysis is the [analysis] section.
type Analysis struct {
	// Model is the significance model: "perfpages" (default: a change
	// counts when it is out of its series' run-to-run noise and stays, see
	// analysis' headline), "rustc-perf" (exactly rustc-perf's, 0.2 % with
	// a short history) or "rustc-perf-2021".
	Model string `toml:"model"`
	// Value is the single value of a result: auto (default: the median
	// of noisy metrics, the best value of reliable ones), best, median or
	// mean.
	Value   string `toml:"value"`
	History int    `toml:"history"` // main-line ancestors of the threshold history (default 30)
	// ZThreshold is the lookback z-score's threshold (Conbench, default
	// 5): |z| above it indicates a regression or improvement.
	ZThreshold float64 `toml:"z_threshold"`
	// Lookback is the number of commits of the z-score's distribution
	// (Conbench's DISTRIBUTION_COMMITS, default 100).
	Lookback int `toml:"lookback"`
	// ZMinCommits is the fewest commits of history a z-score needs
	// (default 10; 2 is Conbench's own minimum).
	ZMinCommits int `toml:"z_min_commits"`
	// NResamples is the number of bootstrap resamples of the Criterion
	// analysis (default 100 000).
	NResamples int `toml:"nresamples"`
	// Alpha is the significance level of the Mann–Whitney U test and of
	// Criterion's p-value (default 0.05).
	Alpha Fraction `toml:"alpha"`
	// NoiseThreshold is Criterion's noise threshold: a significant change
	// whose confidence interval reaches inside ±NoiseThreshold is "within
	// noise" (default 0.01).
	NoiseThreshold Fraction `toml:"noise_threshold"`
	// Annotations is a YAML file of distribution changes for the z-score
	// (default annotations.yaml next to the config, when it exists).
	Annotations string `toml:"annotations"`
	// Steps tunes step detection (the regressions page, and the steps
	// that confirm the headline's changes); [metrics."name".steps]
	// overrides it per metric.
	Steps Steps `toml:"steps"`
}

// Steps is an [analysis.steps] or [metrics."name".steps] section: step
// detection's options (package changepoint), unset fields taking the
// defaults (changepoint.DefaultOptions) or, per metric, [analysis.steps].
type Steps struct {
	Window        int       `toml:"window"`         // values the test looks at (50)
	MinSegment    int       `toml:"min_segment"`    // values a step needs on each side (3)
	Alpha         *Fraction `toml:"alpha"`          // level of the rank test (0.0001)
	MinChange     *Fraction `toml:"min_change"`     // smallest step, a fraction of the level (0.002)
	NoiseMultiple *float64  `toml:"noise_multiple"` // smallest step in robust standard deviations of the window (1)
	WidthMultiple *float64  `toml:"width_multiple"` // smallest step in run-to-run widths, weighed by the values either side (4)
	Hold          int       `toml:"hold"`           // values a level must hold between opposite steps (3·min_segment)
}

// Apply returns o with the section's settings.
func (s Steps) Apply(o changepoint.Options) changepoint.Options {
	if s.Window > 0 {
		o.Window = s.Window
	}
	if s.MinSegment > 0 {
		o.MinSegment = s.MinSegment
	}
	if s.Alpha != nil {
		o.Alpha = float64(*s.Alpha)
	}
	if s.MinChange != nil {
		o.MinChange = float64(*s.MinChange)
	}
	if s.NoiseMultiple != nil {
		o.NoiseMultiple = *s.NoiseMultiple
	}
	if s.WidthMultiple != nil {
		o.WidthMultiple = *s.WidthMultiple
	}
	if s.Hold > 0 {
		o.Hold = s.Hold
	}
	return o
}

// check returns the errors of the section's fractions.
func (s Steps) check(where string) []error {
	var errs []error
	for _, f := range []struct {
		key string
		val *Fraction
	}{{"alpha", s.Alpha}, {"min_change", s.MinChange}} {
		if err := checkFraction(where, f.key, f.val); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// StepOptions returns the step detection options of metric (the site's
// defaults, [analysis.steps], then [metrics."metric".steps]).
func (c *Config) StepOptions(metric string) changepoint.Options {
	o := c.Analysis.Steps.Apply(changepoint.DefaultOptions)
	if m, ok := c.Metrics[metric]; ok {
		o = m.Steps.Apply(o)
	}
	return o
}

// Budget is a [budgets."metric"] section: a perfgate budget (perfgate's
// docs/DESIGN.md).
// Unset fields take perfgate's defaults: threshold 0.20, warn_factor
// 0.90, the metric's own direction, statistic median, no noise threshold
// and noise policy warn.
type Budget struct {
	Threshold      *Fraction `toml:"threshold"`
	WarnFactor     *Fraction `toml:"warn_factor"`
	Direction      string    `toml:"direction"`       // lower | higher
	Statistic      string    `toml:"statistic"`       // median | p95
	NoiseThreshold *Fraction `toml:"noise_threshold"` // coefficient of variation above which noise_policy applies
	NoisePolicy    string    `toml:"noise_policy"`    // warn | skip | ignore
	// FailWithinNoise fails a regression over the threshold even when the
	// change cannot be told from the series' noise (perfgate's own rule;
	// by default such a regression only warns: see analysis' headline).
	FailWithinNoise bool `toml:"fail_within_noise"`
}

// ThresholdOr returns the budget's threshold or the default
// (budget.DefaultThreshold: the budget package holds perfgate's defaults).
func (b Budget) ThresholdOr() float64 {
	if b.Threshold == nil {
		return budget.DefaultThreshold
	}
	return float64(*b.Threshold)
}

// WarnFactorOr returns the budget's warn factor or the default.
func (b Budget) WarnFactorOr() float64 {
	if b.WarnFactor == nil {
		return budget.DefaultWarnFactor
	}
	return float64(*b.WarnFactor)
}

// MetricConfig is a [metrics."name"] section.
type MetricConfig struct {
	Unit      string `toml:"unit"`
	Direction string `toml:"direction"` // lower | higher
	Noise     string `toml:"noise"`     // reliable | noisy
	// Steps tunes step detection for this metric (see Steps).
	Steps Steps `toml:"steps"`
	// Units are the [metrics."name".units."unit"] sections: the direction
	// and noise class of the metric's series in one unit, for a metric
	// whose series come in several (asv's track_ benchmarks are all
	// metric track, in whatever unit each declares: gflopss, where higher
	// is better, beside runtime (s)).
	Units map[string]MetricUnit `toml:"units"`
}

// MetricUnit is a [metrics."name".units."unit"] section; unset fields take
// the metric's.
type MetricUnit struct {
	Direction string `toml:"direction"` // lower | higher
	Noise     string `toml:"noise"`     // reliable | noisy
}

// Triage is the [triage] section.
type Triage struct {
	// Filter keeps a week's comparisons that are definitely-relevant
	// (default), probably-relevant or deserves-attention.
	Filter string `toml:"filter"`
	// LargeChange is the size (a fraction) from which a significant
	// change on any machine is listed in a week's "Needs a look" section
	// even when the filter does not keep its comparison; 0 lists none.
	// Unset: analysis.DefaultLargeChange (0.05). At most 1: the key is a
	// fraction, and 5 would mean 500 %, not 5 % ("5%" is 0.05).
	LargeChange *Fraction `toml:"large_change"`
}

// Watch is the "Needs a look" options of the weekly reports.
func (t Triage) Watch() analysis.WatchOptions {
	o := analysis.DefaultWatchOptions
	if t.LargeChange != nil {
		o.LargeChange = float64(*t.LargeChange)
	}
	return o
}

// Triage filters.
var triageFilters = []string{"definitely-relevant", "probably-relevant", "deserves-attention"}

// MinInputBytes is the smallest site.max_input_bytes: a smaller limit
// would refuse even the smallest real archive.
const MinInputBytes = 1 << 10

// Default returns the configuration a site without a config file gets
// (it still needs sources).
func Default() *Config {
	c := &Config{}
	c.fill()
	return c
}

func (c *Config) fill() {
	if c.Site.Title == "" {
		c.Site.Title = "Benchmarks"
	}
	if c.Site.BaseURL == "" {
		c.Site.BaseURL = "/"
	}
	if c.Site.Content == "" {
		c.Site.Content = "content"
	}
	if c.Site.Output == "" {
		c.Site.Output = "public"
	}
	if c.Site.MaxInputBytes == 0 {
		c.Site.MaxInputBytes = capped.Default
	}
	if c.Site.MaxSiteFiles == 0 {
		c.Site.MaxSiteFiles = DefaultMaxSiteFiles
	}
	if c.Site.MaxSiteBytes == 0 {
		c.Site.MaxSiteBytes = DefaultMaxSiteBytes
	}
	for i := range c.Sources {
		if c.Sources[i].Git != "" && c.Sources[i].Notes == "" && c.Sources[i].Ref == "" {
			c.Sources[i].Ref = "HEAD"
		}
	}
}

// Load reads and validates the config file at path. A missing file is an
// error (never a fallback to defaults or the demo: a typo in -config must
// not build something else).
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("config %s: no such file", path)
		}
		return nil, fmt.Errorf("reading config: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, filepath.Dir(abs))
}

// Parse decodes a config file's content. name is used in errors; dir is
// the folder relative paths are resolved against.
func Parse(name string, data []byte, dir string) (*Config, error) {
	var c Config
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			if pe.LastKey != "" && !strings.Contains(pe.Message, pe.LastKey) {
				return nil, fmt.Errorf("%s:%d: %s: %s", name, pe.Position.Line, pe.LastKey, pe.Message)
			}
			return nil, fmt.Errorf("%s:%d: %s", name, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if un := md.Undecoded(); len(un) > 0 {
		var errs []error
		for _, k := range un {
			errs = append(errs, fmt.Errorf("%s: unknown key %q", name, k.String()))
		}
		return nil, errors.Join(errs...)
	}
	c.File, c.Dir = name, dir
	c.fill()
	if errs := c.validate(); len(errs) > 0 {
		for i, err := range errs {
			errs[i] = fmt.Errorf("%s: %w", name, err) // every line names the file
		}
		return nil, errors.Join(errs...)
	}
	c.resolve()
	return &c, nil
}

// validate returns every problem of the configuration, each naming its key.
func (c *Config) validate() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if err := CheckBaseURL(c.Site.BaseURL); err != nil {
		bad("site.base_url %w", err)
	}
	if c.Site.Repository != "" {
		if u, err := url.Parse(c.Site.Repository); err != nil || (u.Scheme != "https" && u.Scheme != "http") {
			bad("site.repository %q: want an http(s) URL such as https://github.com/owner/project", c.Site.Repository)
		}
	}
	for _, u := range []struct{ key, val, need string }{
		{"commit_url", c.Site.CommitURL, "{sha}"}, {"pr_url", c.Site.PRURL, "{pr}"}, {"compare_url", c.Site.CompareURL, "{head}"},
	} {
		if u.val == "" {
			continue
		}
		if p, err := url.Parse(strings.NewReplacer("{sha}", "x", "{pr}", "1", "{base}", "x", "{head}", "x").Replace(u.val)); err != nil || (p.Scheme != "https" && p.Scheme != "http") || !strings.Contains(u.val, u.need) {
			bad("site.%s %q: want an http(s) URL pattern with %s", u.key, u.val, u.need)
		}
	}
	if c.Site.MaxInputBytes < MinInputBytes {
		bad("site.max_input_bytes %d: want a size in bytes of at least %d (default %d, 64 MiB)", c.Site.MaxInputBytes, MinInputBytes, capped.Default)
	}
	if c.Site.MaxSiteFiles < 100 {
		bad("site.max_site_files %d: want a number of files of at least 100 (default %d)", c.Site.MaxSiteFiles, DefaultMaxSiteFiles)
	}
	if c.Site.MaxSiteBytes < 1<<20 {
		bad("site.max_site_bytes %d: want a size in bytes of at least %d (default %d, 2 GiB)", c.Site.MaxSiteBytes, 1<<20, DefaultMaxSiteBytes)
	}
	if c.Site.Theme != "" && (strings.ContainsAny(c.Site.Theme, `/\`) || c.Site.Theme == "." || c.Site.Theme == "..") {
		bad("site.theme %q: want the name of a folder under themes/", c.Site.Theme)
	}
	for i, s := range c.Sources {
		where := fmt.Sprintf("sources[%d]", i)
		switch {
		case s.Dir != "" && s.Git != "":
			bad("%s: set dir or git, not both", where)
		case s.Dir == "" && s.Git == "":
			bad("%s: set dir (a folder of archives) or git (a repository)", where)
		case s.Dir != "" && (s.Ref != "" || s.Path != "" || s.Notes != ""):
			bad("%s: ref, path and notes go with git, not dir", where)
		case s.Notes != "" && (s.Ref != "" || s.Path != ""):
			bad("%s: notes reads git notes; ref and path read files from history: use separate sources", where)
		case s.KeepRemoved && s.Kind() != "git":
			bad("%s: keep_removed keeps what later versions of a file along a git ref removed: it goes with git (and ref, path), not dir or notes", where)
		}
		if !s.Archives() && s.Format != "auto" {
			if !sourcespec.IsFormat(s.Format) {
				bad("%s: format %q: want perfpages, auto or one of %s", where, s.Format, strings.Join(sourcespec.Formats, ", "))
			}
		}
		if s.Artifact != "" {
			if s.Archives() {
				bad("%s: artifact names the path pattern of foreign files: set format too", where)
			} else if _, err := sourcespec.ParsePatternFor(s.Format, s.Artifact); err != nil {
				bad("%s: %v", where, err)
			}
		}
	}
	for i, m := range c.Machines {
		where := fmt.Sprintf("machines[%d]", i)
		if _, err := path.Match(m.Match, ""); m.Match == "" || err != nil {
			bad("%s: match %q: want a machine name, or a pattern such as \"fv-az*\" (* for any characters, ? for one)", where, m.Match)
		}
		if strings.TrimSpace(m.Name) == "" {
			bad("%s: name %q: want the name of the machine its runners are read as, such as \"github-hosted\"", where, m.Name)
		}
	}
	// The rules on the other [analysis] keys are analysis's own
	// (Options.Validate), whose errors name the key: config keeps no copy
	// that could accept what analysis refuses (a copy once let nresamples
	// = 20000000 pass here; analysis refused it and the build silently
	// used the defaults).
	// Fractions first: a percentage written as a number (alpha = 5) gets
	// the error that says how to write it, not analysis's general one.
	fractionBad := map[string]bool{}
	for _, f := range []struct {
		key string
		val Fraction
	}{{"alpha", c.Analysis.Alpha}, {"noise_threshold", c.Analysis.NoiseThreshold}} {
		if err := checkFraction("[analysis]", f.key, &f.val); err != nil {
			errs = append(errs, err)
			fractionBad[f.key] = true
		}
	}
	opts := c.CompareOptions()
	opts.Budgets = nil // checked below, key by key
	if err := opts.Validate(); err != nil {
		for _, e := range unjoin(err) {
			if oe, ok := e.(*analysis.OptionError); ok && fractionBad[oe.Key] {
				continue
			}
			bad("[analysis] %v", e)
		}
	}
	errs = append(errs, c.Analysis.Steps.check("[analysis.steps]")...)
	if !model.ValueKind(c.Analysis.Value).Valid() {
		bad("[analysis] value = %q: want auto, best, median or mean", c.Analysis.Value)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Budgets)) {
		b := c.Budgets[name]
		where := fmt.Sprintf("[budgets.%q]", name)
		for _, f := range []struct {
			key string
			val *Fraction
		}{{"threshold", b.Threshold}, {"warn_factor", b.WarnFactor}, {"noise_threshold", b.NoiseThreshold}} {
			if err := checkFraction(where, f.key, f.val); err != nil {
				errs = append(errs, err)
			}
		}
		if b.Direction != "" && !budget.Direction(b.Direction).Valid() {
			bad("%s direction = %q: want lower or higher", where, b.Direction)
		}
		if b.Statistic != "" && b.Statistic != string(budget.Median) && b.Statistic != string(budget.P95) {
			bad("%s statistic = %q: want median or p95", where, b.Statistic)
		}
		if b.NoisePolicy != "" && !budget.NoisePolicy(b.NoisePolicy).Valid() {
			bad("%s noise_policy = %q: want warn, skip or ignore", where, b.NoisePolicy)
		}
	}
	names := make([]string, 0, len(c.Metrics))
	for name := range c.Metrics {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		m := c.Metrics[name]
		if m.Direction != "" && m.Direction != "lower" && m.Direction != "higher" {
			bad("metrics.%q.direction %q: want lower or higher", name, m.Direction)
		}
		if m.Noise != "" && m.Noise != "reliable" && m.Noise != "noisy" {
			bad("metrics.%q.noise %q: want reliable or noisy", name, m.Noise)
		}
		for _, unit := range slices.Sorted(maps.Keys(m.Units)) {
			u := m.Units[unit]
			if u.Direction != "" && u.Direction != "lower" && u.Direction != "higher" {
				bad("metrics.%q.units.%q.direction %q: want lower or higher", name, unit, u.Direction)
			}
			if u.Noise != "" && u.Noise != "reliable" && u.Noise != "noisy" {
				bad("metrics.%q.units.%q.noise %q: want reliable or noisy", name, unit, u.Noise)
			}
		}
		errs = append(errs, m.Steps.check(fmt.Sprintf("[metrics.%q.steps]", name))...)
	}
	if c.Triage.Filter != "" && !slices.Contains(triageFilters, c.Triage.Filter) {
		bad("triage.filter %q: want one of %s", c.Triage.Filter, strings.Join(triageFilters, ", "))
	}
	if err := checkFraction("[triage]", "large_change", c.Triage.LargeChange); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// unjoin is the errors joined in err (err itself when it is not a join).
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// Relative is path p (resolved by Load) relative to the config's folder
// when it lies inside it, else p as it is: for keys that must not change
// when a project is moved whole.
func (c *Config) Relative(p string) string {
	if p == "" || c.Dir == "" {
		return p
	}
	if rel, err := filepath.Rel(c.Dir, p); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return p
}

func (c *Config) resolve() {
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(c.Dir, p)
	}
	for i := range c.Sources {
		c.Sources[i].Dir = abs(c.Sources[i].Dir)
		c.Sources[i].Git = abs(c.Sources[i].Git)
	}
	c.Project.Git = abs(c.Project.Git)
	c.Site.Content = abs(c.Site.Content)
	c.Site.Output = abs(c.Site.Output)
	if c.Site.Cache != "off" {
		c.Site.Cache = abs(c.Site.Cache)
	}
	if c.Analysis.Annotations != "" {
		c.Analysis.Annotations = abs(c.Analysis.Annotations)
	} else if c.Dir != "" {
		if p := filepath.Join(c.Dir, "annotations.yaml"); fileExists(p) {
			c.Analysis.Annotations = p
		}
	}
}

// CheckBaseURL returns an error, starting with the quoted URL, when u is
// not a base URL: an absolute http(s) URL with a host
// ("https://example.github.io/bench/") or a path from the root ("/bench/").
// Without a scheme, "example.github.io/bench/" would be read as a relative
// path and every link would break.
func CheckBaseURL(u string) error {
	p, err := url.Parse(u)
	switch {
	case err != nil:
		return fmt.Errorf("%q: %v", u, errors.Unwrap(err))
	case p.RawQuery != "" || p.Fragment != "" || strings.HasSuffix(u, "?") || strings.HasSuffix(u, "#"):
		return fmt.Errorf("%q: must not have a query or fragment", u)
	case p.Scheme == "" && p.Host == "" && strings.HasPrefix(u, "/"):
		return nil
	case p.Scheme == "":
		example := strings.TrimLeft(u, "/")
		if host, _, _ := strings.Cut(example, "/"); !strings.Contains(host, ".") {
			example = "example.github.io/" + example // "bench/" is a path
		}
		return fmt.Errorf("%q has no scheme: want an absolute URL such as https://%s (or a path such as /bench/)", u, example)
	case p.Scheme != "http" && p.Scheme != "https":
		return fmt.Errorf("%q: want an http or https URL", u)
	case p.Host == "":
		return fmt.Errorf("%q has no host: want an absolute URL such as https://example.github.io/bench/", u)
	case p.User != nil:
		return fmt.Errorf("%q: must not hold a user name or password", u)
	}
	return nil
}

// SetBaseURL overrides site.base_url (the -base-url flag,
// PERFPAGES_BASE_URL), with the same rules.
func (c *Config) SetBaseURL(u string) error {
	if err := CheckBaseURL(u); err != nil {
		return err
	}
	c.Site.BaseURL = u
	return nil
}

// CheckSources returns an error when the configuration has no
// [[sources]]: such a site would build empty pages, which looks like a
// site whose archives were all skipped. (Load accepts it: check reads only
// [budgets].)
func (c *Config) CheckSources() error {
	if len(c.Sources) > 0 {
		return nil
	}
	name := c.File
	if name == "" {
		name = "the configuration"
	}
	return fmt.Errorf("%s: no [[sources]]: add one that says where the results are: "+
		`dir = "results" (a folder of archives) or git = ".", ref = "perf-results", path = "results/" (a results branch)`, name)
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// BasePath is the path part of the base URL, with a leading and trailing
// slash ("/" or "/bench/"): the prefix of every link on the site.
func (c *Config) BasePath() string {
	u, err := url.Parse(c.Site.BaseURL)
	if err != nil || u.Path == "" {
		return "/"
	}
	p := "/" + strings.Trim(u.Path, "/") + "/"
	if p == "//" {
		p = "/"
	}
	return p
}

// AbsURL is the base URL when it has a scheme and host (for the sitemap
// and feeds), else "".
func (c *Config) AbsURL() string {
	u, err := url.Parse(c.Site.BaseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.TrimSuffix(u.Scheme+"://"+u.Host+c.BasePath(), "/") + "/"
}

// BuildOptions turns the analysis and metrics sections into the dataset
// builder's options.
func (c *Config) BuildOptions() model.BuildOptions {
	opts := model.BuildOptions{Value: model.ValueKind(c.Analysis.Value)}
	if len(c.Metrics) > 0 {
		opts.Metrics = map[string]model.Metric{}
		for _, name := range slices.Sorted(maps.Keys(c.Metrics)) {
			m := c.Metrics[name]
			opts.Metrics[name] = model.Metric{Name: name, Unit: m.Unit, Direction: model.Direction(m.Direction), Noise: model.Noise(m.Noise)}
			for _, unit := range slices.Sorted(maps.Keys(m.Units)) {
				u := m.Units[unit]
				opts.UnitMetrics = append(opts.UnitMetrics, model.Metric{Name: name, Unit: unit, Direction: model.Direction(u.Direction), Noise: model.Noise(u.Noise)})
			}
		}
	}
	opts.MainBranch = c.Project.Branch
	for _, m := range c.Machines {
		opts.Machines = append(opts.Machines, model.MachineRule{Match: m.Match, Name: m.Name})
	}
	return opts
}

// CompareOptions turns the analysis section into comparison options. An
// unset key stays zero, which the analysis reads as its default
// (analysis.DefaultOptions, filled in once, when a comparer is built), so
// that the defaults are written and filled in one place.
func (c *Config) CompareOptions() analysis.Options {
	o := analysis.Options{
		Model:          c.Analysis.Model,
		History:        c.Analysis.History,
		ZThreshold:     c.Analysis.ZThreshold,
		Lookback:       c.Analysis.Lookback,
		ZMinCommits:    c.Analysis.ZMinCommits,
		Alpha:          float64(c.Analysis.Alpha),
		NResamples:     c.Analysis.NResamples,
		NoiseThreshold: float64(c.Analysis.NoiseThreshold),
	}
	if len(c.Budgets) > 0 {
		o.Budgets = map[string]budget.Budget{}
		for name, b := range c.Budgets {
			o.Budgets[name] = b.Budget()
		}
	}
	return o
}

// Budget turns the section into a budget; an empty direction is left for
// the metric's own.
func (b Budget) Budget() budget.Budget {
	out := budget.New(b.ThresholdOr(), b.WarnFactorOr(), budget.Direction(b.Direction))
	out.Statistic = budget.Statistic(b.Statistic)
	out.NoiseThreshold = b.NoiseThreshold.ptrFloat()
	out.NoisePolicy = budget.NoisePolicy(b.NoisePolicy)
	out.FailWithinNoise = b.FailWithinNoise
	if out.NoisePolicy == "" {
		out.NoisePolicy = budget.Default().NoisePolicy
	}
	return out
}
