// Package sitemodel is the site model stage of a site build: it decides
// which pages and data files a site has and what each shows, as plain
// data (views), from the analysis' results (analysis.Results) and the
// content folder (package contentdir gives it its [Content]). It runs no
// statistics (every comparison, summary, watch, triage report and median
// is the analysis'), renders nothing and writes nothing: package render
// turns the plan's outputs into bytes, package write into files.
//
// It sits between analysis and rendering (see the architecture section of
// the README).
//
// [Plan] walks the main line in chunks of [DefaultChunk] positions. For
// each chunk it asks for the comparisons of consecutive commits once
// (analysis.Results.Consecutive), and emits from them the commit pages
// (header, summaries, the relevant rows) and the series data files of the
// chunk (every row, for the rows a page does not pre-render and for the
// history charts; a benchmark of few series has files of longer chunks,
// [ChunkLen], gathered over the chunks they span and emitted with their
// last), then the pages that need every chunk: PR and compare
// pages, benchmark pages (which only name their data files), the triage
// reports, the regressions page and its feed (the steps the caller
// detected, Options.Steps), the dashboard, lists, the sitemap and the
// feed.
//
// Every output carries a key: a hash of the inputs its bytes depend on.
// An incremental build passes the keys it wrote last time; the plan then
// skips computing an output whose key has not changed and tells the
// renderer to keep the file ([Output.Keep]).
package sitemodel

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/par"
	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/generator/route"
)

// Root is the prefix of links that leave the site (feeds, the sitemap,
// PR comments, triage Markdown): the absolute base URL when it is known,
// else the base path. The one definition of that rule.
func (o Options) Root() string { return cmp.Or(o.AbsURL, o.BasePath) }

// Options configure a plan.
type Options struct {
	Title      string
	BasePath   string // "/" or "/sub/path/"
	AbsURL     string // absolute base URL for the sitemap and feed, "" when unknown
	Repository string // the project's web home
	// URL patterns on the repository's site (see report.Links).
	CommitURL, PRURL, CompareURL string
	// TriageFilter decides which comparisons the weekly reports keep.
	TriageFilter analysis.TriageFilter
	Content      *Content
	// Watch says what the weekly reports list under "Needs a look" and
	// the dashboard among the comparisons that need a look; zero:
	// analysis.DefaultWatchOptions.
	Watch analysis.WatchOptions
	// Warnings are the problems found reading the inputs.
	Warnings []error
	// StepOptions are the step detection options of a metric's series
	// (config.Config.StepOptions); nil: changepoint.DefaultOptions. The
	// regressions page says from them how many results a step needs.
	StepOptions func(metric string) changepoint.Options
	// Chunk is the number of main-line positions per series data file
	// (DefaultChunk when 0).
	Chunk int
	// Known maps the files of the previous build's outputs (route.File of
	// their paths) to their keys: an output planned with the same key is
	// emitted with Keep set.
	Known map[string]string
	// SiteKey identifies the site-wide inputs (options, theme, the tool's
	// version): every output key includes it.
	SiteKey string
	// Chain identifies, per main-line position, everything the main line
	// up to that position depends on: the comparisons of consecutive
	// commits up to it are the same whenever their chain keys are (they
	// look back, never forward). ArtifactKeys identify each artifact's
	// metadata and results. Both nil: no output has a key, every output is
	// computed.
	Chain        []string
	ArtifactKeys []string
	// Previous returns the bytes of a file the previous build wrote that
	// are still as it wrote them (nil: none): a data file of a benchmark
	// whose chunks are longer than the site's (ChunkLen) that a build
	// rewrites takes the rows of the chunks it keeps from it. nil: no
	// file is read, such a chunk is computed.
	Previous func(path string) []byte
	// Briefs remembers what lists show of main-line comparisons (their
	// summaries) across builds, by chain key; nil: nothing is
	// remembered.
	Briefs Briefs

	// Part makes the plan one part of a sharded site (see partial.go);
	// PartWhole: the whole site.
	Part Part
	// Routes are the URL table's inputs when the dataset is not the
	// whole site's (a shard's: its benchmarks' segments must be the
	// whole site's); nil: route.ForDataset of the dataset.
	Routes *route.Input
	// Comparisons receives, in a shard's plan (PartShard), every
	// comparison the site-wide outputs show: those of consecutive
	// main-line commits from position 1 on, then the pairs with pages of
	// their own (SiteComparisons), whole true for these: their pages
	// show every row (a rows file), where a commit page pre-renders only
	// the rows it does not fold (folded). It is called from several
	// goroutines at once.
	Comparisons func(c *analysis.Comparison, whole bool)
}

// Part is which outputs of the site a plan emits.
type Part int

// The parts of a site.
const (
	// PartWhole is every output of the site.
	PartWhole Part = iota
	// PartShard is the outputs of each benchmark of the dataset alone:
	// its series data files, series index and page. The site-wide
	// outputs are not computed; their comparisons go to
	// Options.Comparisons instead.
	PartShard
	// PartSiteWide is every output but those of PartShard: a merge's,
	// which takes the benchmarks' files from the shards.
	PartSiteWide
)

// Briefs is a memory of main-line comparisons' summaries.
type Briefs interface {
	Brief(key string) (Brief, bool)
	PutBrief(key string, b Brief)
}

// Brief is what a build remembers for later builds of what the triage
// reports, the dashboard and PR pages show of a comparison of consecutive
// main-line commits: its ends by artifact id, its per-metric summaries,
// counts and watch.
type Brief struct {
	Base, Head string // artifact ids
	Metrics    []analysis.MetricSummary
	Counts     Counts
	// Watch is what the comparison holds that needs a look (with the
	// options it was made with: a brief made with others is not used).
	Watch *analysis.Watch
}

// Content is the Markdown side of a site, as the plan needs it.
type Content struct {
	Pages []ContentPage
	// Home is the dashboard's introduction (content/_index.md), or nil.
	Home *ContentPage
	// TriageNotes are the maintainers' notes per week (yyyy-mm-dd).
	TriageNotes map[string]ContentPage
}

// ContentPage is one Markdown file.
type ContentPage struct {
	Source      string // file name for messages and keys
	Slug        string // URL path below the base, e.g. "about" or "guide/setup"
	Title       string
	Description string
	Menu        bool
	Body        []byte // Markdown without the front matter
}

// Emit receives the outputs of a plan. It is called from several
// goroutines at once.
type Emit func(Output) error

// Stats say what a plan did.
type Stats struct {
	Pages       int
	Comparisons int // comparisons computed
	Kept        int // outputs kept from the previous build
	// Consecutive is the wall time the plan waited for the analysis'
	// comparisons of consecutive main-line commits (Results.Consecutive,
	// on every core): the analysis' part of the plan's time.
	Consecutive time.Duration
}

// planner is the state of one plan.
type planner struct {
	d      *model.Dataset
	opts   Options
	res    *analysis.Results
	routes *route.Table
	// pairs are the comparisons the site pre-renders and their pages.
	pairs *route.Shown
	links report.Links
	view  SiteView
	chunk int
	emit  Emit

	mu    sync.Mutex
	stats Stats
	pages []string // sitemap entries

	// summaries[pos] is the summary-only comparison of the main-line
	// commit at pos with its predecessor (nil at 0), for the triage
	// reports and the dashboard.
	summaries []*listEntry
	benchSegs []string // benchmark segments, sorted by benchmark name
	weekList  []Week   // the triage weeks, oldest first
	// formPages are the pre-rendered comparisons the compare form opens
	// (every one but those of consecutive main-line commits).
	formPages []FormPage
	// groupOf is each benchmark segment's data group: the segment
	// itself, or its pack's group (packGroup) for a benchmark of few
	// series, which shares its data files with the others of its pack
	// (dataLayout); groups are the groups, sorted. Every data file
	// below is a group's.
	groupOf map[string]string
	groups  []string
	// dataChunks are, by data group, the chunks that have a series data
	// file (noteSeriesData).
	dataChunks map[string][]int
	// chunkLen is each data group's chunk length (ChunkLen of its
	// series), rowChunks the site's chunks (of chunk positions) at which
	// it has rows, in order: which data files it has, known before any
	// is computed.
	chunkLen  map[string]int
	rowChunks map[string][]bool
	// files are the data files being gathered of the groups whose
	// chunks are longer than the site's (benchFile), by group.
	files map[string]*benchFile
	// byID are the series by data group and id (seriesByID).
	byID     map[[2]string]*model.Series
	byIDOnce sync.Once

	// seriesRows are the rows of every series of the dataset
	// (seriesRow), made before the plan runs and only read after.
	seriesRows map[*model.Series]*Row
	// mixedDir are the metrics whose series are not all better the same
	// way (mixedDirections).
	mixedDir map[string]bool
	// shown are the context values that tell series of one test case,
	// metric and machine apart (contextShown).
	shown map[*model.Series]model.Params

	// stepsOf are the steps of each series (Options.Steps).
	stepsOf map[*model.Series][]analysis.Step
}

// A Plan is the plan of one site: [NewPlan] sets it up (the URL table, the
// site-wide view), [Plan.Run] computes and emits its outputs.
type Plan struct{ p *planner }

// NewPlan prepares the plan of the site of the analysis res (the
// analysis stage's value: its dataset, comparisons, steps and headline
// verdicts). The steps are the regressions page's and its feed's, the
// benchmark pages' history charts mark them and each weekly triage report
// lists those that begin in its week. Outputs that show steps or
// headline verdicts have no key or one that includes them, since a new
// commit may confirm, move or withdraw a step behind it.
func NewPlan(res *analysis.Results, opts Options) *Plan {
	d := res.Dataset()
	if opts.BasePath == "" {
		opts.BasePath = "/"
	}
	if opts.Content == nil {
		opts.Content = &Content{}
	}
	if opts.Content.TriageNotes == nil {
		opts.Content.TriageNotes = map[string]ContentPage{}
	}
	opts.TriageFilter = opts.TriageFilter.OrDefault()
	if opts.Watch == (analysis.WatchOptions{}) {
		opts.Watch = analysis.DefaultWatchOptions
	}
	if opts.Watch.Limit <= 0 {
		opts.Watch.Limit = analysis.DefaultWatchLimit
	}
	p := &planner{d: d, opts: opts, chunk: opts.Chunk}
	if p.chunk <= 0 {
		p.chunk = DefaultChunk
	}
	in := route.ForDataset(d)
	if opts.Routes != nil {
		in = *opts.Routes
		in.Pages = slices.Clone(in.Pages)
	}
	for _, cp := range opts.Content.Pages {
		in.Pages = append(in.Pages, route.Named{Name: cp.Slug, Origin: cp.Source})
	}
	p.routes = route.New(in)
	p.pairs = p.routes.Shown(d)
	p.links = report.Links{Site: opts.Root(), Repository: opts.Repository, Routes: p.routes, Shown: p.pairs,
		CommitPattern: opts.CommitURL, PRPattern: opts.PRURL, ComparePattern: opts.CompareURL}
	p.res = res
	p.view = p.siteView()
	p.summaries = make([]*listEntry, len(d.MainLine))
	p.shown = contextShown(d.Series)
	p.mixedDir = mixedDirections(d.Series)
	p.seriesRows = make(map[*model.Series]*Row, len(d.Series))
	for _, s := range d.Series {
		row := p.makeSeriesRow(s)
		p.seriesRows[s] = &row
	}
	p.stepsOf = map[*model.Series][]analysis.Step{}
	for _, st := range res.Steps() {
		s := d.Series[st.Series]
		p.stepsOf[s] = append(p.stepsOf[s], st)
	}
	seen := map[string]bool{}
	var names []string
	for _, s := range d.Series {
		if !seen[s.Case.Benchmark] {
			seen[s.Case.Benchmark] = true
			names = append(names, s.Case.Benchmark)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		p.benchSegs = append(p.benchSegs, p.routes.BenchSegment(n))
	}
	p.dataLayout()
	return &Plan{p}
}

// SiteView is the site-wide view every page is rendered with.
func (pl *Plan) SiteView() *SiteView { return &pl.p.view }

// Warnings are the decisions the URL table made to keep two inputs from
// sharing a path, each naming the input.
func (pl *Plan) Warnings() []error { return pl.p.routes.Warnings }

// Run computes the outputs and sends each to emit. A panic while planning
// (a bug) is returned as a *par.PanicError, which fails the build.
func (pl *Plan) Run(ctx context.Context, emit Emit) (_ Stats, err error) {
	defer par.Recover(&err)
	p := pl.p
	p.emit = emit
	if err := p.mainLine(ctx); err != nil {
		return p.stats, err
	}
	steps := []func(context.Context) error{p.prs, p.weeks, p.benches, p.regressions, p.dashboard, p.lists, p.contentPages, p.fixed}
	if p.opts.Part == PartShard {
		steps = []func(context.Context) error{p.pairComparisons, p.benches}
	}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return p.stats, err
		}
		if err := step(ctx); err != nil {
			return p.stats, err
		}
	}
	return p.stats, nil
}

// out emits one output, or keeps it when the previous build wrote the same
// key: make is only called when the output has to be computed.
func (p *planner) out(o Output, make func(*Output) error) error {
	if o.Key != "" {
		o.Key = hashKey(p.opts.SiteKey, o.Path, o.Key)
		if k, ok := p.opts.Known[route.File(o.Path)]; ok && k == o.Key {
			o.Keep = true
			p.mu.Lock()
			p.stats.Kept++
			if o.Sitemap {
				p.pages = append(p.pages, o.Path)
			}
			if o.Layout != "" {
				p.stats.Pages++
			}
			p.mu.Unlock()
			return p.emit(o)
		}
	}
	if make != nil {
		if err := make(&o); err != nil {
			return fmt.Errorf("%s: %w", o.Path, err)
		}
	}
	p.mu.Lock()
	if o.Layout != "" {
		p.stats.Pages++
	}
	if o.Sitemap {
		p.pages = append(p.pages, o.Path)
	}
	p.mu.Unlock()
	return p.emit(o)
}

// outByData emits an output whose key is its own data: make is called on
// every build, and the file is kept when the data's JSON, with the
// output's layout, title and charts, is what the previous build rendered.
// It is for outputs whose inputs are many but cheap to gather and whose
// rendering is the cost (a benchmark's page and series index: a nightly
// changes few of the two thousand of asv's layout, and rendering them all
// was a quarter of its time). Every field a page shows must be in the
// data's JSON (no `json:"-"` field read by the template), as it is for
// Bench and SeriesIndex.
func (p *planner) outByData(o Output, make func(*Output) error) error {
	if err := make(&o); err != nil {
		return fmt.Errorf("%s: %w", o.Path, err)
	}
	b, err := json.Marshal(o.Data)
	if err != nil {
		return fmt.Errorf("%s: %w", o.Path, err)
	}
	data := o.Data
	o.Data, o.Key = nil, hashKey("data", o.Layout, o.Title, strconv.FormatBool(o.Charts), string(b))
	return p.out(o, func(o *Output) error {
		o.Data = data
		return nil
	})
}

func (p *planner) siteView() SiteView {
	s := SiteView{Title: p.opts.Title, BasePath: p.opts.BasePath, AbsURL: p.opts.AbsURL, Repository: p.opts.Repository,
		Chunk: p.chunk, ZThreshold: p.res.Options().ZThreshold,
		Routes: route.Patterns()}
	if s.ZThreshold == 0 {
		s.ZThreshold = analysis.DefaultZThreshold
	}
	s.Nav = []NavItem{{"Dashboard", route.Home}, {"Commits", route.CommitsIndex}, {"PRs", route.PRsIndex}, {"Triage", route.TriageIndex},
		{"Regressions", route.Regressions}, {"Benchmarks", route.BenchIndex}, {"Compare", route.CompareIndex}}
	for _, cp := range p.opts.Content.Pages {
		if u := p.routes.Page(cp.Source); cp.Menu && u != "" {
			s.Nav = append(s.Nav, NavItem{cp.Title, u})
		}
	}
	warnings := slices.Clone(p.opts.Warnings)
	warnings = append(warnings, p.routes.Warnings...)
	s.Warnings = GroupWarnings(warnings, 5)
	return s
}

// artifact is an artifact as pages show it.
func (p *planner) artifact(a int) Artifact {
	x := p.d.Artifacts[a]
	v := Artifact{ID: x.ID, Short: x.Short(), Label: x.Label(), Title: x.Title, Author: x.Author,
		Kind: string(x.Kind), Branch: x.Branch, Date: x.Date, PR: x.PR, URL: p.artifactURL(a)}
	if model.IsSHA(x.ID) {
		v.CommitLink = p.links.RepoCommit(x.ID)
	}
	if x.PR > 0 {
		v.PRLink = p.links.RepoPR(x.PR)
	}
	return v
}

// artifactURL is the page that best represents an artifact: its commit
// page on the main line, its PR page otherwise, else "".
func (p *planner) artifactURL(a int) string {
	if p.d.MainPos(a) >= 0 {
		return p.routes.Commit(p.d.Artifacts[a].ID)
	}
	if pr := p.d.Artifacts[a].PR; pr > 0 {
		return route.PR(pr)
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }
