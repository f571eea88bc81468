// Package site decides which pages a perfpages site has and what each
// shows, renders them through the theme's html/template layouts and writes
// them atomically.
//
// It is the end of the pipeline
//
//	sources → archive model → analysis → site model → rendering → files
//
// Build takes an analysis.Dataset and:
//  1. enumerates the pages of SPEC §6 (dashboard, a page per main-line
//     commit, per PR, per pre-rendered comparison, per benchmark, the
//     triage reports, the Markdown content pages, 404);
//  2. computes the comparisons each page needs (each pair once) in a pool
//     of workers, turns them into view structs (pure data, already
//     formatted), and
//  3. executes the layout for each page and writes it through a [Writer].
//
// URLs are stable (they get pasted into issues): /commit/<sha>/,
// /pr/<n>/, /compare/<a>...<b>/, /bench/<slug>/, /triage/<monday>/. Every
// link is site-absolute and starts with the base path, so the site works
// on a GitHub Pages project sub-path and 404.html works at any depth.
// Names from the data reach paths only through [Slug] and HTML only
// through html/template's escaping.
package site

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"math"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/zscore"
	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/themes"
)

// Options configure a site build.
type Options struct {
	Title      string
	BasePath   string // "/" or "/sub/path/"
	AbsURL     string // absolute base URL for the sitemap, "" when unknown
	Repository string // the project's web home, e.g. https://github.com/owner/project
	// URL patterns on the repository's site (see report.Links); empty:
	// GitHub-style URLs under Repository.
	CommitURL, PRURL, CompareURL string
	Compare                      analysis.Options
	// Tests is the cache of sample tests, perhaps with earlier builds' results
	// (nil: a new one).
	Tests *analysis.TestCache
	// TriageFilter decides which comparisons the weekly reports keep.
	TriageFilter analysis.TriageFilter
	// Theme holds user theme folders, highest priority first; the
	// embedded default theme is always the last layer.
	Theme   []fs.FS
	Content *Content
	// Warnings are the problems found while reading the sources; the
	// dashboard lists them so nobody has to read the build log.
	Warnings []string
}

// Stats says what a build produced.
type Stats struct {
	Pages       int
	Comparisons int
}

// site is the state shared by the pages of one build.
type site struct {
	d      *analysis.Dataset
	opts   Options
	theme  *Theme
	md     goldmark.Markdown
	out    *Writer
	cmp    *analysis.Comparer
	info   siteInfo
	benchs map[string]string // benchmark name → slug

	after []job // jobs that need every other job's results (triage index, dashboard)

	weekList      []analysis.Week // the triage weeks, oldest first
	weekSummaries []weekSummary   // their count lines, filled by the week jobs

	mu    sync.Mutex
	pages []string // URLs, for the sitemap
	stats Stats
}

// Build renders the whole site for d into w. It does not commit w.
func Build(ctx context.Context, d *analysis.Dataset, opts Options, w *Writer) (Stats, error) {
	if opts.BasePath == "" {
		opts.BasePath = "/"
	}
	if opts.Content == nil {
		opts.Content = &Content{TriageNotes: map[string]ContentPage{}}
	}
	s := &site{d: d, opts: opts, out: w, md: markdown(opts.BasePath), benchs: map[string]string{}}
	s.cmp = analysis.NewComparerCache(d, opts.Compare, opts.Tests)
	theme, err := LoadTheme(append(slices.Clone(opts.Theme), themes.Default), s.funcs())
	if err != nil {
		return Stats{}, err
	}
	s.theme = theme
	s.info = s.siteInfo()
	s.weekList = analysis.Weeks(d)

	for _, series := range d.Series {
		if _, ok := s.benchs[series.Case.Benchmark]; !ok {
			s.benchs[series.Case.Benchmark] = slug.Name(series.Case.Benchmark)
		}
	}

	if !opts.TriageFilter.Valid() {
		s.opts.TriageFilter = analysis.DefinitelyRelevantFilter
	}
	if err := s.run(ctx, s.jobs()); err != nil {
		return Stats{}, err
	}
	if err := s.run(ctx, s.after); err != nil {
		return Stats{}, err
	}
	for _, f := range theme.static {
		if err := w.WriteFile(path.Join("assets", f.path), f.data); err != nil {
			return Stats{}, err
		}
	}
	if err := w.WriteFile(".nojekyll", nil); err != nil {
		return Stats{}, err
	}
	if err := w.WriteFile("sitemap.xml", s.sitemap()); err != nil {
		return Stats{}, err
	}
	return s.stats, nil
}

// job renders one or more pages.
type job func() error

// run executes jobs on a pool of workers, stopping at the first error.
func (s *site) run(ctx context.Context, jobs []job) error {
	work := make(chan job)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if err := j(); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	var err error
loop:
	for _, j := range jobs {
		select {
		case work <- j:
		case err = <-errs:
			break loop
		case <-ctx.Done():
			err = ctx.Err()
			break loop
		}
	}
	close(work)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

// page renders layout with data to the page at url (site-relative, e.g.
// "commit/abc/"; "" for the home page) and records it for the sitemap.
func (s *site) page(url, layout, title string, data any) error {
	charts := layout == "bench" || layout == "commit" || layout == "compare" || layout == "pr"
	body, err := s.theme.Render(layout, pageData{Site: &s.info, Charts: charts, Title: title, URL: url, Kind: layout, Data: data})
	if err != nil {
		return fmt.Errorf("page /%s: %w", url, err)
	}
	file := path.Join(url, "index.html")
	if strings.HasSuffix(url, ".html") {
		file = url
	}
	if err := s.out.WriteFile(file, body); err != nil {
		return err
	}
	s.mu.Lock()
	s.stats.Pages++
	if layout != "404" && layout != "redirect" {
		s.pages = append(s.pages, url)
	}
	s.mu.Unlock()
	return nil
}

// pageData is what every layout gets as ".".
type pageData struct {
	Site   *siteInfo
	Charts bool // the page draws charts: load ECharts
	Title  string
	URL    string // site-relative
	Kind   string
	Data   any
}

type siteInfo struct {
	Title      string
	BasePath   string
	Repository string
	Nav        []navItem
	Warnings   []string
}

type navItem struct {
	Title, URL string
}

func (s *site) siteInfo() siteInfo {
	info := siteInfo{Title: s.opts.Title, BasePath: s.opts.BasePath, Repository: s.opts.Repository, Warnings: s.opts.Warnings}
	info.Nav = []navItem{{"Dashboard", ""}, {"Triage", "triage/"}, {"Benchmarks", "bench/"}}
	for _, p := range s.opts.Content.Pages {
		if p.Menu {
			info.Nav = append(info.Nav, navItem{p.Title, p.Slug + "/"})
		}
	}
	return info
}

func (s *site) funcs() template.FuncMap {
	return template.FuncMap{
		// url makes a site-relative path absolute under the base path.
		"url":       func(p string) string { return s.opts.BasePath + strings.TrimPrefix(p, "/") },
		"pct":       FormatChange,
		"threshold": formatThreshold,
		"factor":    formatFactor,
		"value": func(v float64, unit string) string {
			return FormatValue(v, unit)
		},
		"date": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
		"day":  func(t time.Time) string { return t.UTC().Format("2006-01-02") },
		"iso":  func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	}
}

// jobs lists the work of a build: every page, with comparisons shared by
// the pages that show the same pair.
func (s *site) jobs() []job {
	d := s.d
	var jobs []job
	// The dashboard shows the latest week's count line: it runs after the
	// week jobs.
	s.after = append(s.after, s.dashboardJob())
	jobs = append(jobs, s.notFoundJob(), s.benchIndexJob())

	// Comparisons: each pair is computed once and rendered on every page
	// that shows it (commit page, PR page, compare page).
	type pair struct{ base, head int }
	pages := map[pair][]func(comparisonView) error{}
	var order []pair
	// canonical is the page that already shows a pair (a commit or PR
	// page): its /compare/ URL then only redirects there, instead of
	// repeating the same tables (halving a large site).
	canonical := map[pair]string{}
	add := func(p pair, url string, f func(comparisonView) error) {
		if _, ok := pages[p]; !ok {
			order = append(order, p)
			pages[p] = append(pages[p], func(v comparisonView) error {
				if to, ok := canonical[p]; ok {
					return s.page(compareURL(d, p.base, p.head), "redirect", "Compare "+v.Base.Label+" … "+v.Head.Label, redirectView{To: to})
				}
				return s.page(compareURL(d, p.base, p.head), "compare", "Compare "+v.Base.Label+" … "+v.Head.Label, v)
			})
		}
		if _, ok := canonical[p]; !ok && url != "" {
			canonical[p] = url
		}
		if f != nil {
			pages[p] = append(pages[p], f)
		}
	}
	for _, a := range d.MainLine {
		if prev, ok := d.Previous(a); ok {
			add(pair{prev, a}, commitURL(d, a), func(v comparisonView) error {
				v.Prev, v.Next = s.neighbours(a)
				return s.page(commitURL(d, a), "commit", "Commit "+v.Head.Label+": "+v.Head.Title, v)
			})
		} else {
			jobs = append(jobs, s.firstCommitJob(a))
		}
	}
	// Each triage week links its revision range (first base … last head).
	for _, w := range s.weekList {
		if first, last, ok := w.Range(d); ok {
			add(pair{first, last}, "", nil)
		}
	}
	for _, pr := range d.PRs() {
		head, ok := d.PRHead(pr)
		if !ok {
			continue
		}
		pv := s.prView(pr, head)
		for _, t := range pv.Tries {
			if t.Base != nil {
				add(pair{t.BaseIndex, t.HeadIndex}, "", nil)
			}
		}
		if base, ok := d.PRBase(head); ok {
			add(pair{base, head}, prURL(pr), func(v comparisonView) error {
				p := pv
				p.Comparison = v
				return s.page(prURL(pr), "pr", fmt.Sprintf("PR #%d: %s", pr, p.Title), p)
			})
		} else {
			jobs = append(jobs, func() error { return s.page(prURL(pr), "pr", fmt.Sprintf("PR #%d: %s", pr, pv.Title), pv) })
		}
	}
	for _, p := range order {
		p := p
		jobs = append(jobs, func() error {
			v, err := s.renderedComparison(p.base, p.head)
			if err != nil {
				return err
			}
			for _, f := range pages[p] {
				if err := f(v); err != nil {
					return err
				}
			}
			return nil
		})
	}

	names := make([]string, 0, len(s.benchs))
	for name := range s.benchs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		jobs = append(jobs, s.benchJob(name))
	}
	jobs = append(jobs, s.triageJobs()...)
	for _, p := range s.opts.Content.Pages {
		jobs = append(jobs, s.contentJob(p))
	}
	return jobs
}

// The stable URLs of commit, comparison and PR pages (site-relative).
var (
	commitURL  = report.CommitPath
	compareURL = report.ComparePath
	prURL      = report.PRPath
)

// dataURL is the machine-readable comparison: /data/compare/<a>...<b>.json.
func dataURL(d *analysis.Dataset, a, b int) string {
	return "data/compare/" + slug.Artifact(d.Artifacts[a].ID) + "..." + slug.Artifact(d.Artifacts[b].ID) + ".json"
}

// artifactURL is the page that best represents an artifact: its commit
// page on the main line, its PR page otherwise, else "".
func artifactURL(d *analysis.Dataset, a int) string {
	if d.MainPos(a) >= 0 {
		return commitURL(d, a)
	}
	if pr := d.Artifacts[a].PR; pr > 0 {
		return prURL(pr)
	}
	return ""
}

// artifactView is an artifact as pages show it.
type artifactView struct {
	ID, Short, Label, Title, Author, Kind, Branch string
	Date                                          time.Time
	PR                                            int
	URL                                           string // its page on this site, "" if none
	CommitLink, PRLink                            string // on the repository's web site
}

func (s *site) artifactView(a int) artifactView {
	x := s.d.Artifacts[a]
	v := artifactView{
		ID: x.ID, Short: x.Short(), Label: x.Label(), Title: x.Title, Author: x.Author,
		Kind: string(x.Kind), Branch: x.Branch, Date: x.Date, PR: x.PR, URL: artifactURL(s.d, a),
	}
	links := s.links()
	if analysis.IsSHA(x.ID) {
		v.CommitLink = links.RepoCommit(x.ID)
	}
	if x.PR > 0 {
		v.PRLink = links.RepoPR(x.PR)
	}
	return v
}

// comparisonView is what the commit, PR and compare pages show.
type comparisonView struct {
	Base, Head  artifactView
	Prev, Next  *artifactView // neighbours on the main line (commit pages)
	Contiguous  bool
	CompareLink string // the repository's diff between the two
	URL         string // the canonical /compare/ page
	Model       string
	Metrics     []metricView
	Failures    []rowView // benchmarks that failed in head
	Warnings    []string
	Counts      changeCounts
	// Data is the comparison as JSON (site-relative URL), the schema of
	// perfpages compare -format json.
	Data string
	// Body is the rendered "comparison-body" partial (failures and the
	// tables of every metric), rendered once per comparison and shared by
	// the pages that show it.
	Body template.HTML
	// Markdown is the PR-comment text of the comparison (what `perfpages
	// compare -format markdown` prints), for "copy as Markdown".
	Markdown string
}

// changeCounts count relevant changes (significant and at least small).
type changeCounts struct {
	Compared, Regressions, Improvements, Failed, New, Gone int
}

// add counts one row of a comparison.
func (c *changeCounts) add(r *analysis.Row) {
	switch {
	case r.After != nil && r.After.Error != "":
		c.Failed++
		return
	case r.Relevant && r.Regression:
		c.Regressions++
	case r.Relevant:
		c.Improvements++
	case r.Before == nil:
		c.New++
	case r.After == nil:
		c.Gone++
	}
	if r.OK {
		c.Compared++
	}
}

type metricView struct {
	Name, Unit, Direction string
	Anchor                string
	Chart                 template.HTML // bar chart of the relevant changes
	Summary               summaryView
	Primary, Secondary    []rowView // relevant rows, by |change| descending
	Other                 []rowView // the rest, not relevant
	Counts                changeCounts
}

// summaryView is a metric's summary: rustc-perf's direction, relevance
// and summary table.
type summaryView struct {
	Direction          string // improvement, regression, mixed, none
	Relevance          string // high, medium, low
	Confidence         string
	DeservesAttention  bool
	DefinitelyRelevant bool
	Significant        int
	Rows               []summaryRow
	Markdown           string // the table as rustc-perf writes it
}

type summaryRow struct {
	Label, Class string
	Count        int
	Mean, Range  string
}

// rowView is one row of a comparison table. Its cells are formatted here
// rather than in the template: a comparison has thousands of rows, and
// html/template's per-call cost dominated the build.
type rowView struct {
	Anchor      string
	Benchmark   string
	BenchURL    string // site-relative
	BenchHref   string // with the base path
	Params      analysis.Params
	ParamsHTML  template.HTML
	Category    string
	Machine     string
	Before      string
	After       string
	Change      float64
	HasChange   bool
	Class       string // "regression", "improvement" or "" (colour)
	Note        string
	Threshold   float64
	Factor      float64
	Significant bool
	Relevant    bool
	Magnitude   string
	Dodgy       bool

	ChangeText, ThresholdText, FactorText string
	// Dir is the direction for filters: "regression", "improvement" or
	// "" (no change or none to speak of), whether relevant or not.
	Dir string
	// ChartID finds the series' history chart data in its benchmark's
	// data file, for the row's expandable chart (the page derives the
	// file from the benchmark link: /bench/<b>/ → /data/bench/<b>.json).
	ChartID string

	// The other engines: text for the cell, a title explaining it (or
	// why there is none), and a class for the cell's colour.
	ZText, ZTitle, ZClass           string
	PText, PTitle, PClass           string
	BudgetText, BudgetTitle, Budget string // Budget is the status: pass, warn, fail, skip or ""
	Ack                             string // notes of acknowledged changes at the head
}

// renderedComparison computes the comparison of base and head and renders
// its body once.
func (s *site) renderedComparison(base, head int) (comparisonView, error) {
	c := s.cmp.Compare(base, head)
	v := s.comparisonView(c)
	if base != head {
		// Compact: the site publishes one of these per comparison.
		data, err := json.Marshal(report.NewCompareJSON(s.d, c, ""))
		if err != nil {
			return v, err
		}
		if err := s.out.WriteFile(dataURL(s.d, base, head), append(data, '\n')); err != nil {
			return v, err
		}
		v.Data = dataURL(s.d, base, head)
	}
	if base != head {
		var md strings.Builder
		if err := report.WriteMarkdown(&md, s.d, c, "", s.links()); err != nil {
			return v, err
		}
		v.Markdown = md.String()
	}
	s.mu.Lock()
	s.stats.Comparisons++
	s.mu.Unlock()
	body, err := s.theme.RenderPartial("comparison-body", pageData{Site: &s.info, Data: v})
	v.Body = body
	return v, err
}

// neighbours are the commit pages before and after main-line commit a.
func (s *site) neighbours(a int) (prev, next *artifactView) {
	if p, ok := s.d.Previous(a); ok {
		if pp, ok := s.d.Previous(p); ok {
			v := s.artifactView(pp)
			prev = &v
		}
	}
	if n, ok := s.d.Next(a); ok {
		v := s.artifactView(n)
		next = &v
	}
	return prev, next
}

func (s *site) comparisonView(c *analysis.Comparison) comparisonView {
	d := s.d
	v := comparisonView{
		Base: s.artifactView(c.Base), Head: s.artifactView(c.Head),
		Contiguous: d.Contiguous(c.Base, c.Head),
		URL:        compareURL(d, c.Base, c.Head),
		Model:      c.Options.Model,
	}
	if analysis.IsSHA(v.Base.ID) && analysis.IsSHA(v.Head.ID) {
		v.CompareLink = s.links().RepoCompare(v.Base.ID, v.Head.ID)
	}
	for _, w := range c.Warnings {
		v.Warnings = append(v.Warnings, w.Error())
	}
	byMetric := map[string]*metricView{}
	var names []string
	for i := range c.Rows {
		r := &c.Rows[i]
		m := r.Series.Metric
		mv := byMetric[m.Name]
		if mv == nil {
			mv = &metricView{Name: m.Name, Unit: m.Unit, Direction: string(m.Direction), Anchor: slug.Metric(m.Name)}
			if sum, ok := c.Metric(m.Name); ok {
				mv.Summary = summarize(sum)
			}
			byMetric[m.Name] = mv
			names = append(names, m.Name)
		}
		row := s.rowView(r)
		v.Counts.add(r)
		mv.Counts.add(r)
		if r.After != nil && r.After.Error != "" {
			v.Failures = append(v.Failures, row)
			continue
		}
		switch {
		case !r.Relevant:
			mv.Other = append(mv.Other, row)
		case r.Series.Case.Category == analysis.Secondary:
			mv.Secondary = append(mv.Secondary, row)
		default:
			mv.Primary = append(mv.Primary, row)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		mv := byMetric[n]
		sortRows(mv.Primary)
		sortRows(mv.Secondary)
		sortRows(mv.Other)
		var labels []string
		var changes []float64
		var regression []bool
		for _, r := range append(slices.Clone(mv.Primary), mv.Secondary...) {
			label := r.Benchmark
			for _, p := range r.Params {
				label += " " + p.Key + "=" + p.Value
			}
			labels = append(labels, label+" · "+r.Machine)
			changes = append(changes, r.Change*100)
			regression = append(regression, r.Class == "regression")
		}
		if chart, err := ChangesChart(ChartID("changes "+n), labels, changes, regression); err == nil {
			mv.Chart = chart
		} else {
			v.Warnings = append(v.Warnings, fmt.Sprintf("chart of %s: %v", n, err))
		}
		v.Metrics = append(v.Metrics, *mv)
	}
	return v
}

func summarize(m *analysis.MetricSummary) summaryView {
	v := summaryView{
		Direction: m.Direction.String(), Relevance: m.Relevance.String(), Confidence: m.Confidence.String(),
		DeservesAttention: m.DeservesAttention, DefinitelyRelevant: m.DefinitelyRelevant, Significant: m.Significant,
		Markdown: analysis.SummaryTable(m.Primary, m.Secondary, ""),
	}
	row := func(label, class string, st analysis.ChangeStats) summaryRow {
		r := summaryRow{Label: label, Class: class, Count: st.Count, Mean: "-", Range: "-"}
		if st.Count > 0 {
			r.Mean = fmt.Sprintf("%.1f%%", st.Mean*100)
			r.Range = fmt.Sprintf("[%.1f%%, %.1f%%]", st.Min*100, st.Max*100)
		}
		return r
	}
	v.Rows = []summaryRow{
		row("Regressions (primary)", "regression", m.Primary.Regressions),
		row("Regressions (secondary)", "regression", m.Secondary.Regressions),
		row("Improvements (primary)", "improvement", m.Primary.Improvements),
		row("Improvements (secondary)", "improvement", m.Secondary.Improvements),
		row("All (primary)", "", m.Primary.All),
	}
	return v
}

// sortRows orders rows by |change| descending (rustc-perf's compare page),
// rows without a change last, ties by anchor for a stable order.
func sortRows(rows []rowView) {
	slices.SortStableFunc(rows, func(a, b rowView) int {
		if a.HasChange != b.HasChange {
			if a.HasChange {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(abs(b.Change), abs(a.Change)); c != 0 {
			return c
		}
		return strings.Compare(a.Anchor, b.Anchor)
	})
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func (s *site) rowView(r *analysis.Row) rowView {
	k := r.Series.Key
	row := rowView{
		Anchor:     "row-" + slug.Name(strings.Join([]string{k.Benchmark, k.Params, k.Metric, k.Machine, k.Context}, " ")),
		Benchmark:  r.Series.Case.Benchmark,
		BenchURL:   "bench/" + s.benchs[r.Series.Case.Benchmark] + "/",
		Params:     r.Series.Case.Params,
		ParamsHTML: paramsHTML(r.Series.Case.Params),
		Category:   string(r.Series.Case.Category),
		Machine:    k.Machine,
		Note:       r.Note,
	}
	row.BenchHref = s.opts.BasePath + row.BenchURL
	row.ChartID = ChartID(seriesChartKey(k))
	unit := r.Series.Metric.Unit
	if r.Before != nil && r.Before.OK {
		row.Before = FormatValue(r.Before.Value, unit)
	}
	if r.After != nil && r.After.OK {
		row.After = FormatValue(r.After.Value, unit)
	}
	if r.OK {
		row.Change, row.HasChange = r.Change, true
		row.Threshold, row.Factor = r.Threshold, r.Factor
		row.Significant, row.Relevant, row.Dodgy = r.Significant, r.Relevant, r.Dodgy
		row.Magnitude = r.Magnitude.String()
		row.ChangeText = FormatChange(r.Change)
		row.ThresholdText = formatThreshold(r.Threshold)
		row.FactorText = formatFactor(r.Factor)
		switch {
		case r.Regression:
			row.Class = "regression"
		case r.Change != 0:
			row.Class = "improvement"
		}
		row.Dir = row.Class
		if !r.Relevant {
			row.Class = ""
		}
	}
	engineCells(&row, r)
	if s.d.Annotations != nil && r.After != nil {
		var notes []string
		for _, a := range s.d.Annotations.For(r.Series, r.After.Artifact) {
			if a.Kind == analysis.Acknowledged {
				notes = append(notes, cmp.Or(a.Note, "acknowledged"))
			}
		}
		row.Ack = strings.Join(notes, "; ")
	}
	return row
}

// engineCells fills the z-score, p-value and budget cells of a row.
func engineCells(row *rowView, r *analysis.Row) {
	if z := r.Z; z.OK {
		row.ZText = fmt.Sprintf("%+.2f", zscore.Round4(z.Z))
		row.ZTitle = "mean " + FormatValue(z.Mean, r.Series.Metric.Unit) + " ± " + FormatValue(z.Std, r.Series.Metric.Unit)
		switch {
		case z.Regression:
			row.ZClass = "regression"
		case z.Improvement:
			row.ZClass = "improvement"
		}
	} else if z.Reason != "" {
		row.ZText, row.ZTitle = "–", "no z-score: "+z.Reason
	}
	if t := r.Test; t.OK {
		row.PText = formatP(t.P)
		switch t.Method {
		case analysis.MethodCriterion:
			c := t.Criterion
			row.PText += " " + string(t.Verdict)
			row.PTitle = fmt.Sprintf("Criterion: t = %.3f, mean change %s [%s, %s] at %g %%, %d resamples; %s", finiteOr0(c.T), FormatChange(c.Mean.Point), FormatChange(c.Mean.Lower), FormatChange(c.Mean.Upper), c.Mean.ConfidenceLevel*100, c.NResamples, t.Verdict)
			switch t.Verdict {
			case criterion.Regressed:
				row.PClass = "regression"
			case criterion.Improved:
				row.PClass = "improvement"
			}
		default:
			if t.Significant {
				row.PClass = "significant"
			}
		}
	} else if t.Reason != "" {
		row.PText, row.PTitle = "–", "no test: "+t.Reason
	}
	if b := r.Budget; b != nil {
		row.Budget = string(b.Delta.Status)
		row.BudgetText = row.Budget
		row.BudgetTitle = fmt.Sprintf("budget: fail above %.1f %%, warn from %.1f %% (%s is better, %s); regression %.2f %%", b.Budget.Threshold*100, b.Budget.WarnThreshold*100, b.Budget.Direction, b.Budget.Stat(), b.Delta.Regression*100)
		if b.Reason != "" {
			row.BudgetTitle += "; " + b.Reason
		}
	}
}

// formatP shows a p-value with three decimals, as benchstat does.
func formatP(p float64) string {
	if p < 0.001 && p > 0 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}

func finiteOr0(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// firstCommitJob renders the page of the first main-line commit, which has
// nothing to compare with: it lists its results.
func (s *site) firstCommitJob(a int) job {
	return func() error {
		v, err := s.renderedComparison(a, a)
		if err != nil {
			return err
		}
		v.Base = artifactView{}
		v.Prev, v.Next = s.neighbours(a)
		return s.page(commitURL(s.d, a), "commit", "Commit "+v.Head.Label+": "+v.Head.Title, v)
	}
}

// prView is a PR page: the PR's head (merge commit or latest try run)
// against its base, and every try run.
type prView struct {
	Number     int
	Title      string
	Link       string
	Merged     *artifactView
	Tries      []tryView
	Comparison comparisonView
	HasCompare bool
}

type tryView struct {
	Run                  artifactView
	Base                 *artifactView
	BaseIndex, HeadIndex int
	CompareURL           string
}

func (s *site) prView(pr, head int) prView {
	d := s.d
	h := d.Artifacts[head]
	v := prView{Number: pr, Title: h.Title}
	v.Link = s.links().RepoPR(pr)
	if d.MainPos(head) >= 0 {
		a := s.artifactView(head)
		v.Merged = &a
	}
	for i, a := range d.Artifacts {
		if a.PR != pr || a.Kind != analysis.KindTry {
			continue
		}
		t := tryView{Run: s.artifactView(i), HeadIndex: i}
		if b, ok := d.PRBase(i); ok {
			bv := s.artifactView(b)
			t.Base, t.BaseIndex = &bv, b
			t.CompareURL = compareURL(d, b, i)
		}
		v.Tries = append(v.Tries, t)
		if v.Title == "" {
			v.Title = a.Title
		}
	}
	_, v.HasCompare = d.PRBase(head)
	return v
}

func (s *site) contentJob(p ContentPage) job {
	return func() error {
		html, err := renderMarkdown(s.md, p.Body)
		if err != nil {
			return fmt.Errorf("%s: %w", p.Source, err)
		}
		return s.page(p.Slug+"/", "page", p.Title, contentView{Title: p.Title, Description: p.Description, HTML: html})
	}
}

// redirectView sends a reader (and search engines, through the canonical
// link) from a /compare/ URL to the page that shows the same comparison.
type redirectView struct {
	To string // site-relative
}

type contentView struct {
	Title, Description string
	HTML               template.HTML
}

func (s *site) notFoundJob() job {
	return func() error { return s.page("404.html", "404", "Page not found", nil) }
}

// sitemap lists every page (not 404) with absolute URLs when the base URL
// is absolute, else site-absolute paths.
func (s *site) sitemap() []byte {
	urls := slices.Clone(s.pages)
	slices.Sort(urls)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	prefix := s.opts.AbsURL
	if prefix == "" {
		prefix = s.opts.BasePath
	}
	for _, u := range urls {
		fmt.Fprintf(&b, "  <url><loc>%s</loc></url>\n", xmlEscape(prefix+u))
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

func xmlEscape(s string) string {
	var b strings.Builder
	template.HTMLEscape(&b, []byte(s))
	return b.String()
}

// formatThreshold shows a significance threshold as rustc-perf does: a
// percent with two decimals, "-" when it is 0.
func formatThreshold(t float64) string {
	if t == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", t*100)
}

// formatFactor shows a significance factor ("2.50x", "-" when 0).
func formatFactor(f float64) string {
	if f == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", f)
}

// paramsHTML renders parameters as the "params" partial does, escaped.
func paramsHTML(p analysis.Params) template.HTML {
	var b strings.Builder
	for i, kv := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(`<span class="param"><span class="param-key">`)
		b.WriteString(html.EscapeString(kv.Key))
		b.WriteString(`</span>=<span class="param-value">`)
		b.WriteString(html.EscapeString(kv.Value))
		b.WriteString(`</span></span>`)
	}
	return template.HTML(b.String())
}

func (s *site) links() report.Links {
	base := s.opts.AbsURL
	if base == "" {
		base = s.opts.BasePath
	}
	return report.Links{Site: base, Repository: s.opts.Repository,
		CommitPattern: s.opts.CommitURL, PRPattern: s.opts.PRURL, ComparePattern: s.opts.CompareURL}
}
