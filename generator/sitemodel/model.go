package sitemodel

import (
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

// Output is one file of the site: a page, rendered through a layout of
// the theme, or a data file, encoded by the renderer from its Go value.
type Output struct {
	// Path is site-relative: "commit/<sha>/" (a page: written to
	// .../index.html), "404.html", "data/series/<b>/0.json".
	Path string `json:"path"`
	// Key identifies everything the output's bytes depend on, beyond the
	// site-wide inputs (Options.SiteKey): two builds that plan the same path
	// with the same key produce the same bytes, so an incremental build
	// may keep the file it has. Empty: always render.
	Key string `json:"key,omitempty"`
	// Layout is the theme layout of a page; "" for a data file.
	Layout string `json:"layout,omitempty"`
	// Title is a page's title.
	Title string `json:"title,omitempty"`
	// Charts: the page draws charts (it loads ECharts).
	Charts bool `json:"charts,omitempty"`
	// Sitemap: the page is listed in the sitemap.
	Sitemap bool `json:"sitemap,omitempty"`
	// Data is the page's view (one of the *View types) or the data file's
	// value: JSON for .json, text for .md, a feed for .xml.
	Data any `json:"data"`
	// Keep: the plan did not compute this output because its key is
	// unchanged since the build that wrote it (Data is nil); the
	// renderer keeps the existing file.
	Keep bool `json:"keep,omitempty"`
}

// SiteView is the site-wide view: what every page shows around its
// content (title, navigation, warnings) and the settings of its script.
type SiteView struct {
	Title      string    `json:"title"`
	BasePath   string    `json:"base_path"`
	AbsURL     string    `json:"abs_url,omitempty"`
	Repository string    `json:"repository,omitempty"`
	Nav        []NavItem `json:"nav"`
	// Warnings are the problems found in the input, grouped by kind with
	// the first few of each (the dashboard lists them).
	Warnings []WarningGroup `json:"warnings,omitempty"`
	// Routes are the URL patterns of the site's data and pages for its
	// JavaScript ({name} placeholders), from package route.
	Routes map[string]string `json:"routes"`
	// ZThreshold is the lookback z-score threshold the charts' band uses.
	ZThreshold float64 `json:"z_threshold"`
	// Chunk is how many main-line positions a series data file holds.
	Chunk int `json:"chunk"`
}

// NavItem is a link of the top navigation.
type NavItem struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// WarningGroup is one kind of problem: how many there were and the first
// few, verbatim.
type WarningGroup struct {
	Kind  string   `json:"kind"`
	Count int      `json:"count"`
	First []string `json:"first"`
}

// Artifact is an artifact as pages show it.
type Artifact struct {
	ID         string    `json:"id"`
	Short      string    `json:"short"`
	Label      string    `json:"label"`
	Title      string    `json:"title,omitempty"`
	Author     string    `json:"author,omitempty"`
	Kind       string    `json:"kind"`
	Branch     string    `json:"branch,omitempty"`
	Date       time.Time `json:"date"`
	PR         int       `json:"pr,omitempty"`
	URL        string    `json:"url,omitempty"`         // its page on this site, "" if none
	CommitLink string    `json:"commit_link,omitempty"` // on the repository's web site
	PRLink     string    `json:"pr_link,omitempty"`
}

// Counts count a comparison's rows once; every count a page shows (the
// header, the tabs, the tables' headings, lists of comparisons) comes from
// one of these.
type Counts struct {
	Compared     int `json:"compared"`     // rows with a change
	Regressions  int `json:"regressions"`  // relevant regressions
	Improvements int `json:"improvements"` // relevant improvements
	Failed       int `json:"failed"`       // failed in head, not in base: a new failure
	// StillFailing counts the rows that failed in base and head alike: a
	// benchmark failing for months is one failure, listed with the commit
	// it started at on the dashboard ("failing since"), not a failure
	// again in every comparison after it.
	StillFailing int `json:"still_failing,omitempty"`
	New          int `json:"new"`   // no result in base
	Gone         int `json:"gone"`  // no result in head
	Other        int `json:"other"` // rows without a relevant change (shown on demand)

	// TooSmall counts the rows of Other whose change is significant but
	// too small to be relevant (magnitude very small, or a change of 0
	// against a flat history's threshold of 0): with the relevant ones
	// they make the metric summary's Significant.
	TooSmall int `json:"too_small,omitempty"`
	// Unconfirmed and Spikes count the rows of Other whose change is out
	// of the noise but not (yet) counted: too few later values to say
	// whether it stays, or the next values came back (analysis.State).
	Unconfirmed int `json:"unconfirmed,omitempty"`
	Spikes      int `json:"spikes,omitempty"`
}

// Relevant is the number of relevant changes.
func (c Counts) Relevant() int { return c.Regressions + c.Improvements }

// add counts one row.
func (c *Counts) add(r *analysis.Row) {
	switch {
	case r.After != nil && r.After.Failure() != "" && r.Before != nil && r.Before.Failure() != "":
		c.StillFailing++
		return
	case r.After != nil && r.After.Failure() != "":
		c.Failed++
		return
	case r.Relevant && r.Regression:
		c.Regressions++
	case r.Relevant:
		c.Improvements++
	case r.Before == nil:
		c.New++
		c.Other++
	case r.After == nil:
		c.Gone++
		c.Other++
	default:
		c.Other++
		if r.OK && r.Significant {
			c.TooSmall++
		}
		switch r.Headline.State {
		case analysis.StateUnconfirmed:
			c.Unconfirmed++
		case analysis.StateSpike:
			c.Spikes++
		}
	}
	if r.OK {
		c.Compared++
	}
}

// Comparison is what a commit, PR or compare page shows of a comparison:
// the header, the summaries, the relevant rows and where the other rows'
// data is.
type Comparison struct {
	Base       *Artifact `json:"base,omitempty"` // nil: the first commit, nothing to compare with
	Head       Artifact  `json:"head"`
	Prev       *Artifact `json:"prev,omitempty"` // neighbours on the main line (commit pages)
	Next       *Artifact `json:"next,omitempty"`
	Contiguous bool      `json:"contiguous"`
	// CompareLink is the repository's diff between the two.
	CompareLink string `json:"compare_link,omitempty"`
	// URL is the comparison's canonical page.
	URL   string `json:"url"`
	Model string `json:"model"`
	// Command is the command that prints this comparison as JSON.
	Command  string   `json:"command,omitempty"`
	Metrics  []Metric `json:"metrics"`
	Failures []Row    `json:"failures,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Counts   Counts   `json:"counts"`
	// Markdown is what `perfpages compare -format markdown` prints, for
	// "copy as Markdown".
	Markdown string `json:"markdown,omitempty"`
	// Rows is where the data of every row is: a series data file per
	// benchmark at Position (main-line comparisons) or one rows file.
	Rows RowsSource `json:"rows"`
}

// RowsSource says where a comparison's rows are, for the rows a page does
// not pre-render.
type RowsSource struct {
	// Position is the head's main-line position when the rows are in the
	// series data files (data/series/<bench>/<chunk>.json), -1 otherwise.
	// The benchmarks with a data file in the position's chunk are listed
	// once, in the chunk's artifact data (ArtifactData.Benches), not on
	// every page: at L that list was 28 MB of the commit pages.
	Position int `json:"position"`
	// File is the rows file of a comparison that is not between
	// consecutive main-line commits.
	File string `json:"file,omitempty"`
}

// severalUnits is a metric's unit in a heading when its series come in
// more than one (asv's track_ benchmarks: gflopss beside runtime (s)):
// each row shows its own.
const severalUnits = "several units"

// joinMetric folds a series' metric m into a metric's heading: the unit
// and direction every series so far has, else severalUnits and no
// direction (a unit's series may be higher-is-better where another's are
// lower: [metrics."name".units."unit"]), each row saying its own.
func joinMetric(unit, dir *string, m model.Metric) {
	if *unit != m.Unit {
		*unit = severalUnits
	}
	if *dir != string(m.Direction) {
		*dir = ""
	}
}

// Metric is one metric of a comparison: its verdict, summary table and
// relevant rows.
type Metric struct {
	Name      string  `json:"name"`
	Unit      string  `json:"unit"`
	Direction string  `json:"direction"`
	Anchor    string  `json:"anchor"`
	Summary   Summary `json:"summary"`
	// Chart is a bar chart of the relevant changes.
	Chart   *Chart `json:"chart,omitempty"`
	Primary []Row  `json:"primary,omitempty"`
	// Secondary are the relevant rows of secondary benchmarks.
	Secondary []Row  `json:"secondary,omitempty"`
	Counts    Counts `json:"counts"`
	// Folded counts the rows the page does not list but loads on demand:
	// those of Counts.Other that are not shown with the relevant ones
	// (unconfirmed changes and changes of series too young to judge are).
	Folded int `json:"folded,omitempty"`
}

// Summary is a metric's summary: rustc-perf's direction, relevance and
// summary table.
type Summary struct {
	Direction          string       `json:"direction"`
	Relevance          string       `json:"relevance"`
	Confidence         string       `json:"confidence"`
	DeservesAttention  bool         `json:"deserves_attention"`
	DefinitelyRelevant bool         `json:"definitely_relevant"`
	Significant        int          `json:"significant"`
	Rows               []SummaryRow `json:"rows"`
	Markdown           string       `json:"markdown"` // the table as rustc-perf writes it

	// Significant above is the analysis' count of significant changes;
	// the page says it as Relevant (the rows its tables list) and
	// TooSmall, both from the metric's Counts, which add up to it.
	Relevant int `json:"relevant"`
	TooSmall int `json:"too_small,omitempty"`
}

// SummaryRow is a line of the summary table.
type SummaryRow struct {
	Label string `json:"label"`
	Class string `json:"class"`
	Count int    `json:"count"`
	Mean  string `json:"mean"`
	Range string `json:"range"`
}

// Row is one row of a comparison table, every cell formatted: the
// pre-rendered rows of a page and the rows its script builds from the data
// files carry the same fields.
type Row struct {
	Anchor    string       `json:"anchor"`
	Series    string       `json:"series"` // the series' id in data files and charts
	Benchmark string       `json:"benchmark"`
	BenchURL  string       `json:"bench_url"`
	Params    model.Params `json:"params,omitempty"`
	Context   model.Params `json:"context,omitempty"`
	// ContextShown are the context values that tell this series apart
	// from others of its test case, metric and machine (python=2.7 and
	// python=3.4), shown beside its parameters; none when no other series
	// shares them.
	ContextShown model.Params `json:"context_shown,omitempty"`
	Metric       string       `json:"metric"`
	Unit         string       `json:"unit,omitempty"`
	// Better is the series' direction ("lower", "higher") where its
	// metric's series differ (mixedDirections) and the metric's heading
	// cannot say it; empty elsewhere.
	Better   string `json:"better,omitempty"`
	Category string `json:"category"`
	Machine  string `json:"machine"`
	Before   string `json:"before,omitempty"`
	After    string `json:"after,omitempty"`
	// Change is the relative change when HasChange (sorting, filters).
	Change    float64 `json:"change,omitempty"`
	HasChange bool    `json:"has_change,omitempty"`
	Factor    float64 `json:"factor,omitempty"`
	// Class colours the row: regression or improvement when relevant.
	Class string `json:"class,omitempty"`
	// Dir is the direction of any change, relevant or not (filters).
	Dir       string `json:"dir,omitempty"`
	Note      string `json:"note,omitempty"`
	Relevant  bool   `json:"relevant,omitempty"`
	Dodgy     bool   `json:"dodgy,omitempty"`
	Magnitude string `json:"magnitude,omitempty"`

	ChangeText    string `json:"change_text,omitempty"`
	ThresholdText string `json:"threshold_text,omitempty"`
	FactorText    string `json:"factor_text,omitempty"`

	// The other engines: text for the cell, a title that explains it (or
	// why there is none), a class for its colour.
	Z           string `json:"z,omitempty"`
	ZTitle      string `json:"z_title,omitempty"`
	ZClass      string `json:"z_class,omitempty"`
	P           string `json:"p,omitempty"`
	PTitle      string `json:"p_title,omitempty"`
	PClass      string `json:"p_class,omitempty"`
	Budget      string `json:"budget,omitempty"` // status: pass, warn, fail, skip
	BudgetText  string `json:"budget_text,omitempty"`
	BudgetTitle string `json:"budget_title,omitempty"`
	Ack         string `json:"ack,omitempty"` // notes of acknowledged changes at the head

	// Basis is what decided whether the change is significant
	// (analysis.SignificanceBasis, the JSON's significance_basis), State
	// the headline's state (analysis.State, model perfpages). A badge
	// beside the threshold says what the threshold alone does not, with
	// BasisText and BasisTitle (rowBadge: a headline state, too little
	// history, rustc-perf's short-history default; site.js's renderRow
	// has the same table).
	Basis      string `json:"basis,omitempty"`
	State      string `json:"state,omitempty"`
	BasisText  string `json:"basis_text,omitempty"`
	BasisTitle string `json:"basis_title,omitempty"`
	// Evidence is the end of BasisTitle that gives a headline verdict's
	// evidence (badgeEvidence), for the data files.
	Evidence string `json:"-"`
}

// Chart is a chart a page draws: its kind and what it needs, not its
// data (history and overview charts fetch the series data files).
type Chart struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // ChartHistory, ChartOverview or ChartChanges
	Unit string `json:"unit,omitempty"`
	// Bench is the benchmark's path segment: its series data files hold
	// the data of history and overview charts.
	Bench string `json:"bench,omitempty"`
	// Series are the ids of the series drawn, with their names in the
	// legend (overview charts).
	Series []ChartSeries `json:"series,omitempty"`
	// Bars are the bars of a changes chart, and Shared what every one of
	// them has in its name (see Bar.Parts), "" when nothing is or the
	// chart has one bar: "compile scenario=full · linux-x64", shown once
	// above the chart instead of on every bar.
	Bars   []Bar  `json:"bars,omitempty"`
	Shared string `json:"shared,omitempty"`
	// Steps are the step changes a history chart marks (benchmark pages).
	Steps []ChartStep `json:"steps,omitempty"`
}

// ChartStep is a step change marked on a history chart: at the main-line
// position of the first value after it.
type ChartStep struct {
	Pos   int    `json:"pos"`
	Text  string `json:"text"`  // the label: "step +1.50%"
	Class string `json:"class"` // regression or improvement
}

// The chart kinds.
const (
	ChartHistory  = "history"
	ChartOverview = "overview"
	ChartChanges  = "changes"
)

// Axis is a prefix a value axis is drawn in: values are divided by Factor.
type Axis struct {
	Factor float64 `json:"factor"`
	Name   string  `json:"name"`
}

// ChartSeries is a series on a chart.
type ChartSeries struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// Bar is one bar of a changes chart: a relevant change in percent.
type Bar struct {
	// Label names the bar's test case whole (benchmark, parameters,
	// [context] · machine): its tooltip.
	Label string `json:"label"`
	// Parts and Machine are what tells the bar from the others of its
	// chart, which is what the chart writes beside it: the benchmark,
	// parameters and context values of Label that not every bar has
	// (Chart.Shared names those), and the machine, "" when every bar ran
	// on the same one. Where the names are too long for the chart's
	// width, the script puts the machine on a line of its own, then
	// writes a parameter whose key every bar has by its value alone
	// (BarPart.Common), before it cuts anything.
	Parts      []BarPart `json:"parts,omitempty"`
	Machine    string    `json:"machine,omitempty"`
	Percent    float64   `json:"percent"`
	Text       string    `json:"text"`
	Regression bool      `json:"regression,omitempty"`
	// New marks a change from 0 ("+∞%"): Percent is only its sign (±1),
	// and the chart draws the bar to the end of its axis, labelled "new",
	// instead of stretching the scale.
	New bool `json:"new,omitempty"`
}

// BarPart is a part of a bar's name: the benchmark (no Key), a parameter
// or a context value (Context).
type BarPart struct {
	Key     string `json:"k,omitempty"`
	Value   string `json:"v"`
	Context bool   `json:"ctx,omitempty"`
	// Common: every bar of the chart has a part of this key (with
	// different values), so its value alone tells the bars apart.
	Common bool `json:"common,omitempty"`
}
