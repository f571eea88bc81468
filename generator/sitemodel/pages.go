package sitemodel

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/par"
	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/generator/route"
)

func metricAnchor(name string) string { return slug.Metric(name) }

// listEntry is what lists of comparisons (the weekly reports, the
// dashboard, PR pages) show of a comparison of consecutive main-line
// commits: its ends, per-metric summaries, counts and watch. [Brief] is
// what a later build remembers of it.
type listEntry struct {
	comp   *analysis.Comparison // Rows nil
	counts Counts
	watch  *analysis.Watch // what needs a look, whatever the filter keeps
}

// PR is a PR's page: the PR's head (merge commit or latest try run)
// against its base, and every try run.
type PR struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	Link   string `json:"link,omitempty"`
	// Merged is the PR's main-line commit; its page shows the comparison,
	// this one its verdicts and a link there.
	Merged *Artifact `json:"merged,omitempty"`
	// Verdicts are the merged commit's per-metric verdicts.
	Verdicts *Recent `json:"verdicts,omitempty"`
	Tries    []Try   `json:"tries,omitempty"`
	// Comparison is the latest try run against its baseline when the PR
	// is not merged; nil when there is none.
	Comparison *Comparison `json:"comparison,omitempty"`
}

// Try is a try run of a PR.
type Try struct {
	Run        Artifact  `json:"run"`
	Base       *Artifact `json:"base,omitempty"`
	CompareURL string    `json:"compare_url,omitempty"`
}

// Redirect sends a reader (and search engines, through the canonical link)
// from a /compare/ URL to the page that shows the same comparison.
type Redirect struct {
	To string `json:"to"` // site-relative
}

// prs plans the PR pages and every /compare/ page (route.Shown): a pair
// another page shows redirects there; the others (older try runs, week
// ranges) get a page of their own.
func (p *planner) prs(ctx context.Context) error {
	d := p.d
	type prJob struct {
		number, head int
		base         int // -1: none
	}
	var jobs []prJob
	for _, pr := range d.PRs() {
		head, ok := d.PRHead(pr)
		if !ok {
			continue
		}
		j := prJob{number: pr, head: head, base: -1}
		if b, ok := d.PRBase(head); ok {
			j.base = b
		}
		jobs = append(jobs, j)
	}
	pairs := p.pairs.Pairs
	for _, pr := range pairs {
		if pos := d.MainPos(pr.Head); pos > 0 && d.MainLine[pos-1] == pr.Base {
			continue
		}
		p.formPages = append(p.formPages, FormPage{Base: d.Artifacts[pr.Base].ID, Head: d.Artifacts[pr.Head].ID, URL: pr.Page})
	}
	err := par.Each(ctx, len(jobs), func(i int) error {
		j := jobs[i]
		return p.prPage(j.number, j.head, j.base)
	})
	if err != nil {
		return err
	}
	// The pairs with a page of their own (a comparison to compute) first,
	// so that no core is left with one at the end.
	order := make([]int, 0, len(pairs))
	for i, pr := range pairs {
		if pr.Own {
			order = append(order, i)
		}
	}
	for i, pr := range pairs {
		if !pr.Own {
			order = append(order, i)
		}
	}
	return par.Each(ctx, len(order), func(i int) error {
		pr := pairs[order[i]]
		bid, hid := d.Artifacts[pr.Base].ID, d.Artifacts[pr.Head].ID
		title := "Compare " + d.Artifacts[pr.Base].Label() + " … " + d.Artifacts[pr.Head].Label()
		if !pr.Own {
			return p.out(Output{Path: p.routes.Compare(bid, hid), Layout: "redirect", Title: title, Key: pr.Page}, func(o *Output) error {
				o.Data = Redirect{To: pr.Page}
				return nil
			})
		}
		page := Output{Path: pr.Page, Layout: "compare", Title: title, Sitemap: true, Charts: true}
		return p.comparisonPage(pr.Base, pr.Head, page, func(c Comparison) any { return c })
	})
}

// SiteComparisons are the comparisons other than those of consecutive
// main-line commits that the site's pages show whole (base, head): the
// latest try run of each PR that is not merged against its base, and
// every pair the URL table gives a page of its own (route.Shown).
func (p *planner) siteComparisons() [][2]int {
	d := p.d
	var out [][2]int
	seen := map[[2]int]bool{}
	add := func(base, head int) {
		if k := [2]int{base, head}; !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, pr := range d.PRs() {
		head, ok := d.PRHead(pr)
		if !ok || d.MainPos(head) >= 0 {
			continue
		}
		if b, ok := d.PRBase(head); ok {
			add(b, head)
		}
	}
	for _, pr := range p.pairs.Pairs {
		if pr.Own {
			add(pr.Base, pr.Head)
		}
	}
	return out
}

// pairComparisons computes, in a shard's plan, the comparisons of
// siteComparisons and hands them to Options.Comparisons.
func (p *planner) pairComparisons(ctx context.Context) error {
	pairs := p.siteComparisons()
	return par.Each(ctx, len(pairs), func(i int) error {
		c := p.res.Compare(pairs[i][0], pairs[i][1])
		p.mu.Lock()
		p.stats.Comparisons++
		p.mu.Unlock()
		if p.opts.Comparisons != nil {
			p.opts.Comparisons(c, true)
		}
		return nil
	})
}

// isKnown reports whether the previous build wrote o from the same inputs.
func (p *planner) isKnown(o Output) bool {
	if o.Key == "" {
		return false
	}
	k, ok := p.opts.Known[route.File(o.Path)]
	return ok && k == hashKey(p.opts.SiteKey, o.Path, o.Key)
}

// compareKey is the key of a comparison that is not between consecutive
// main-line commits: each side's own results and, for a side on the main
// line, the chain up to it (its history); a side off the main line brings
// the artifacts of its branch (the z-score's ancestry) and, conservatively,
// the whole main line.
func (p *planner) compareKey(base, head int) string {
	if p.opts.Chain == nil {
		return ""
	}
	d := p.d
	parts := []string{"compare"}
	for _, a := range []int{base, head} {
		parts = append(parts, p.artifactKey(a))
		if pos := d.MainPos(a); pos >= 0 {
			parts = append(parts, p.chainKey(pos))
			continue
		}
		parts = append(parts, p.chainKey(len(d.MainLine)-1))
		x := d.Artifacts[a]
		for i, y := range d.Artifacts {
			if i != a && d.MainPos(i) < 0 && (x.PR != 0 && y.PR == x.PR || x.PR == 0 && x.Branch != "" && y.Branch == x.Branch) {
				parts = append(parts, p.artifactKey(i))
			}
		}
	}
	return strings.Join(parts, " ")
}

// comparisonPage plans the page of a comparison that is not between
// consecutive main-line commits, and its rows file: page gets the view
// wrap makes of the comparison. When the previous build wrote both from the
// same inputs, nothing is computed.
func (p *planner) comparisonPage(base, head int, page Output, wrap func(Comparison) any) error {
	key := p.compareKey(base, head)
	rows := Output{Path: p.routes.RowsData(p.d.Artifacts[base].ID, p.d.Artifacts[head].ID), Key: key}
	if key != "" {
		page.Key = key + " " + page.Key
	}
	if p.isKnown(page) && p.isKnown(rows) {
		if err := p.out(rows, nil); err != nil {
			return err
		}
		return p.out(page, nil)
	}
	v, err := p.fullComparison(base, head, rows)
	if err != nil {
		return err
	}
	return p.out(page, func(o *Output) error {
		o.Data = wrap(v)
		return nil
	})
}

// fullComparison computes a comparison that is not between consecutive
// main-line commits, emits its rows file and returns its view.
func (p *planner) fullComparison(base, head int, rowsFile Output) (Comparison, error) {
	c := p.res.Compare(base, head)
	p.mu.Lock()
	p.stats.Comparisons++
	p.mu.Unlock()
	v := p.comparison(c, -1)
	v.Rows.File = rowsFile.Path
	err := p.out(rowsFile, func(o *Output) error {
		points := make([]seriesPoint, len(c.Rows))
		for k := range c.Rows {
			points[k] = p.point(0, &c.Rows[k])
		}
		o.Data = p.rowsData(points)
		return nil
	})
	return v, err
}

func (p *planner) prPage(pr, head, base int) error {
	d := p.d
	h := d.Artifacts[head]
	v := PR{Number: pr, Title: h.Title, Link: p.links.RepoPR(pr)}
	if pos := d.MainPos(head); pos >= 0 {
		a := p.artifact(head)
		v.Merged = &a
		if b := p.listEntryAt(pos); b != nil {
			r := p.recent(b)
			v.Verdicts = &r
		}
	}
	for i, a := range d.Artifacts {
		if a.PR != pr || a.Kind != model.KindTry {
			continue
		}
		t := Try{Run: p.artifact(i)}
		if b, ok := d.PRBase(i); ok {
			bv := p.artifact(b)
			t.Base = &bv
			t.CompareURL = p.routes.Compare(d.Artifacts[b].ID, a.ID)
		}
		v.Tries = append(v.Tries, t)
		if v.Title == "" {
			v.Title = a.Title
		}
	}
	page := Output{Path: route.PR(pr), Layout: "pr", Title: fmt.Sprintf("PR #%d: %s", pr, v.Title), Sitemap: true}
	if p.opts.Chain != nil {
		// The PR's artifacts, the tries' bases and the merged commit's
		// comparison.
		parts := []string{"pr"}
		for i, a := range d.Artifacts {
			if a.PR == pr {
				parts = append(parts, p.artifactKey(i))
			}
		}
		for _, t := range v.Tries {
			if t.Base != nil {
				b, _ := d.Index(t.Base.ID)
				parts = append(parts, p.artifactKey(b))
			}
		}
		if pos := d.MainPos(head); pos >= 0 {
			parts = append(parts, p.chainKey(pos))
		}
		page.Key = strings.Join(parts, " ")
	}
	if v.Merged == nil && base >= 0 {
		page.Charts = true
		return p.comparisonPage(base, head, page, func(c Comparison) any {
			w := v
			w.Comparison = &c
			return w
		})
	}
	return p.out(page, func(o *Output) error {
		o.Data = v
		return nil
	})
}

// listEntryAt returns the list entry of the main-line comparison ending at
// pos.
func (p *planner) listEntryAt(pos int) *listEntry {
	if pos <= 0 || pos >= len(p.summaries) {
		return nil
	}
	return p.summaries[pos]
}

// Recent is a comparison in a list: its ends, counts and per-metric
// verdicts, not its tables.
type Recent struct {
	Commit     Artifact      `json:"commit"`
	Base       Artifact      `json:"base"`
	URL        string        `json:"url"`
	Contiguous bool          `json:"contiguous"`
	Counts     Counts        `json:"counts"`
	Metrics    []MetricBrief `json:"metrics,omitempty"` // metrics with a change
	// Look says what needs a look although the filter does not keep the
	// comparison ("4 new failures, 1 large change"); set in the
	// dashboard's list of them only.
	Look string `json:"look,omitempty"`
}

// MetricBrief is one metric's verdict in a list of comparisons.
type MetricBrief struct {
	Name       string `json:"name"`
	Anchor     string `json:"anchor"`
	Direction  string `json:"direction"`
	Relevance  string `json:"relevance"`
	Definitely bool   `json:"definitely"`
}

func (p *planner) recent(b *listEntry) Recent {
	c := b.comp
	r := Recent{Commit: p.artifact(c.Head), Base: p.artifact(c.Base), URL: p.routes.Commit(p.d.Artifacts[c.Head].ID),
		Contiguous: p.d.Contiguous(c.Base, c.Head), Counts: b.counts}
	for _, m := range c.Metrics {
		if m.Direction != analysis.DirectionNone {
			r.Metrics = append(r.Metrics, MetricBrief{m.Metric, metricAnchor(m.Metric), m.Direction.String(), m.Relevance.String(), m.DefinitelyRelevant})
		}
	}
	return r
}

// Week names one triage week.
type Week struct {
	Date    string    `json:"date"` // the Monday, yyyy-mm-dd
	URL     string    `json:"url"`
	Start   time.Time `json:"start"`
	Updated time.Time `json:"updated"` // the date of its latest comparison
	Pairs   int       `json:"pairs"`   // comparisons made in the week
	Counts  string    `json:"counts"`  // "2 Regressions, 1 Improvement, 0 Mixed; 0 of them in rollups"
	// Look counts its "Needs a look" section: "4 new failures, 1 large
	// change"; "" when it is empty.
	Look string `json:"look,omitempty"`
}

// TriageWeek is one week's report, rendered from its Markdown.
type TriageWeek struct {
	Week     Week   `json:"week"`
	Prev     *Week  `json:"prev,omitempty"`
	Next     *Week  `json:"next,omitempty"`
	Markdown string `json:"markdown"` // site-relative URL of the Markdown source
	Source   string `json:"source"`   // the Markdown itself
}

// TriageIndex lists the weekly reports, newest first.
type TriageIndex struct {
	Weeks  []Week `json:"weeks"`
	Filter string `json:"filter"`
}

// Feed is the Atom feed of the weekly reports.
type Feed struct {
	Title   string      `json:"title"`
	ID      string      `json:"id"`
	Self    string      `json:"self"`
	Updated time.Time   `json:"updated"`
	Entries []FeedEntry `json:"entries"`
}

// FeedEntry is one entry of a feed: a week in the triage reports' feed.
type FeedEntry struct {
	// ID is the entry's id when it is not its URL (the regressions
	// feed's entries link where they are best read, which may change).
	ID      string    `json:"id,omitempty"`
	Title   string    `json:"title"`
	URL     string    `json:"url"` // absolute when the base URL is
	Updated time.Time `json:"updated"`
	Summary string    `json:"summary"`
}

// weeks plans the triage reports, their index and feed.
func (p *planner) weeks(ctx context.Context) error {
	d := p.d
	list := p.res.Weeks()
	weeks := make([]Week, len(list))
	sources := make([]string, len(list))
	keys := make([]string, len(list))
	known := make([]bool, len(list))
	for i, w := range list {
		if p.opts.Chain == nil || len(w.Heads) == 0 {
			continue
		}
		date := w.Monday.Format("2006-01-02")
		// A week's steps depend on the commits after it too (a step is
		// confirmed, re-measured or withdrawn as values arrive): the key
		// holds what the report shows of them.
		var sec bytes.Buffer
		report.WriteTriageSteps(&sec, d, p.res.WeekSteps(w), p.links)
		parts := []string{"week", p.chainKey(d.MainPos(w.Heads[len(w.Heads)-1])), string(p.opts.TriageFilter), watchKey(p.opts.Watch), hashKey(sec.String())}
		if n, ok := p.opts.Content.TriageNotes[date]; ok {
			parts = append(parts, hashKey(string(n.Body)))
		}
		for _, j := range []int{i - 1, i + 1} {
			if j >= 0 && j < len(list) {
				parts = append(parts, list[j].Monday.Format("2006-01-02"))
			}
		}
		keys[i] = strings.Join(parts, " ")
		known[i] = p.isKnown(Output{Path: route.Triage(date), Key: keys[i]}) && p.isKnown(Output{Path: route.TriageMarkdown(date), Key: keys[i]})
	}
	err := par.Each(ctx, len(list), func(i int) error {
		w := list[i]
		date := w.Monday.Format("2006-01-02")
		wk := Week{Date: date, URL: route.Triage(date), Start: w.Monday, Updated: w.Monday, Pairs: len(w.Heads)}
		for _, a := range w.Heads {
			if t := d.Artifacts[a].Date; t.After(wk.Updated) {
				wk.Updated = t
			}
		}
		// The comparisons of consecutive commits and their watches, made
		// for the commit pages: all a report needs (its summary is its
		// entries').
		r := p.res.Triage(w, analysis.TriageOptions{Filter: p.opts.TriageFilter, Watch: p.opts.Watch, Known: p.known})
		wk.Counts = report.CountLine(r)
		wk.Look = report.NeedsLookLine(r.NeedsLook)
		weeks[i] = wk
		if known[i] {
			return nil
		}
		notes := ""
		if n, ok := p.opts.Content.TriageNotes[date]; ok {
			notes = string(n.Body)
		}
		var md bytes.Buffer
		if err := report.WriteTriageMarkdown(&md, d, r, p.links, notes); err != nil {
			return err
		}
		sources[i] = md.String()
		return nil
	})
	if err != nil {
		return err
	}
	err = par.Each(ctx, len(weeks), func(i int) error {
		v := TriageWeek{Week: weeks[i], Markdown: route.TriageMarkdown(weeks[i].Date), Source: sources[i]}
		if i > 0 {
			v.Prev = &weeks[i-1]
		}
		if i+1 < len(weeks) {
			v.Next = &weeks[i+1]
		}
		if err := p.out(Output{Path: v.Markdown, Key: keys[i]}, func(o *Output) error {
			o.Data = v.Source
			return nil
		}); err != nil {
			return err
		}
		return p.out(Output{Path: v.Week.URL, Key: keys[i], Layout: "triage-week", Title: "Triage report for the week of " + v.Week.Date, Sitemap: true}, func(o *Output) error {
			o.Data = v
			return nil
		})
	})
	if err != nil {
		return err
	}
	p.weekList = weeks
	idx := TriageIndex{Filter: string(p.opts.TriageFilter)}
	for i := len(weeks) - 1; i >= 0; i-- {
		idx.Weeks = append(idx.Weeks, weeks[i])
	}
	if err := p.out(Output{Path: route.TriageIndex, Layout: "triage", Title: "Triage reports", Sitemap: true}, func(o *Output) error {
		o.Data = idx
		return nil
	}); err != nil {
		return err
	}
	abs := p.opts.Root()
	feed := Feed{Title: p.opts.Title + ": triage reports", ID: abs + route.TriageIndex, Self: abs + route.TriageFeed, Updated: time.Unix(0, 0).UTC()}
	if n := len(d.MainLine); n > 0 {
		feed.Updated = d.Artifacts[d.MainLine[n-1]].Date
	}
	for _, w := range idx.Weeks {
		summary := fmt.Sprintf("%s. %d artifact comparisons made in total.", w.Counts, w.Pairs)
		if w.Look != "" {
			summary += " " + report.NeedsLookTitle + ": " + w.Look + "."
		}
		feed.Entries = append(feed.Entries, FeedEntry{Title: "Triage report for the week of " + w.Date, URL: abs + w.URL, Updated: w.Updated, Summary: summary})
	}
	return p.out(Output{Path: route.TriageFeed, Layout: "feed.xml"}, func(o *Output) error {
		o.Data = feed
		return nil
	})
}

// known returns the summary comparison of base and head and its watch
// made for the commit page when they are consecutive on the main line,
// else nil.
func (p *planner) known(base, head int) (*analysis.Comparison, *analysis.Watch) {
	if pos := p.d.MainPos(head); pos > 0 && p.d.MainLine[pos-1] == base {
		if b := p.listEntryAt(pos); b != nil {
			return b.comp, b.watch
		}
	}
	return nil, nil
}

// Bench is a benchmark's page: the history of each of its series. The
// charts and the history tables are drawn from the series data files.
type Bench struct {
	Name     string `json:"name"`
	Category string `json:"category"`
	Segment  string `json:"segment"` // the benchmark's data files: data/series/<segment>/
	// Overviews draw every test case of a metric on a machine together,
	// when the benchmark has several.
	Overviews []Overview   `json:"overviews,omitempty"`
	Series    []SeriesView `json:"series"`
}

// Overview is the chart of every test case of a metric on a machine.
type Overview struct {
	Anchor  string       `json:"anchor"`
	Metric  string       `json:"metric"`
	Machine string       `json:"machine"`
	Context model.Params `json:"context,omitempty"`
	Cases   int          `json:"cases"`
	Chart   Chart        `json:"chart"`
}

// SeriesView is one series on its benchmark's page.
type SeriesView struct {
	Anchor    string       `json:"anchor"`
	ID        string       `json:"id"`
	Chart     Chart        `json:"chart"`
	Params    model.Params `json:"params,omitempty"`
	Metric    string       `json:"metric"`
	Unit      string       `json:"unit"`
	Direction string       `json:"direction"`
	Machine   string       `json:"machine"`
	Context   model.Params `json:"context,omitempty"`
	// ContextShown: see Row.
	ContextShown model.Params `json:"context_shown,omitempty"`
	// Short: the series has at most ShortHistory main-line results, and
	// its history table starts open. (A flag, not the count: the page's
	// bytes, and so its key (outByData), change when the table does, not
	// with every result a nightly adds.)
	Short bool `json:"short,omitempty"`
	// Snippet is the annotations.yaml entry that marks a distribution
	// change of this series, with @ARTIFACT@ for the artifact's id (the
	// page fills it in for the point under the pointer).
	Snippet string `json:"snippet"`
	// Steps are the series' step changes, oldest first (the chart marks
	// them too).
	Steps []SeriesStep `json:"steps,omitempty"`
}

// ShortHistory is the most main-line results a series' history table
// starts open with on its benchmark's page.
const ShortHistory = 30

// SeriesStep is a step change of a series, as its benchmark page lists it.
type SeriesStep struct {
	Artifact Artifact `json:"artifact"` // the first main-line artifact after it
	Change   string   `json:"change"`
	Class    string   `json:"class"`       // regression or improvement
	URL      string   `json:"compare_url"` // compares the two sides
	// Acknowledged: annotations.yaml acknowledges it.
	Acknowledged bool `json:"acknowledged,omitempty"`
}

// BenchIndex lists every benchmark.
type BenchIndex struct {
	Benchmarks []BenchLink `json:"benchmarks"`
}

// BenchLink is a benchmark in the index.
type BenchLink struct {
	Name     string   `json:"name"`
	URL      string   `json:"url"`
	Category string   `json:"category"`
	Cases    int      `json:"cases"`
	Metrics  []string `json:"metrics"`
}

// benches plans the benchmark pages and their index.
func (p *planner) benches(ctx context.Context) error {
	d := p.d
	byName := map[string][]*model.Series{}
	var names []string
	for _, s := range d.Series {
		if _, ok := byName[s.Case.Benchmark]; !ok {
			names = append(names, s.Case.Benchmark)
		}
		byName[s.Case.Benchmark] = append(byName[s.Case.Benchmark], s)
	}
	slices.Sort(names)
	var idx BenchIndex
	for _, name := range names {
		l := BenchLink{Name: name, URL: p.routes.Bench(name)}
		cases := map[string]bool{}
		for _, s := range byName[name] {
			l.Category = string(s.Case.Category)
			cases[s.Key.Params] = true
			if !slices.Contains(l.Metrics, s.Key.Metric) {
				l.Metrics = append(l.Metrics, s.Key.Metric)
			}
		}
		l.Cases = len(cases)
		slices.Sort(l.Metrics)
		idx.Benchmarks = append(idx.Benchmarks, l)
	}
	if p.opts.Part != PartShard {
		if err := p.out(Output{Path: route.BenchIndex, Layout: "benchmarks", Title: "Benchmarks", Sitemap: true}, func(o *Output) error {
			o.Data = idx
			return nil
		}); err != nil {
			return err
		}
	}
	if p.opts.Part == PartSiteWide {
		// The shards wrote the benchmarks' pages; the sitemap lists them.
		p.mu.Lock()
		for _, name := range names {
			p.pages = append(p.pages, p.routes.Bench(name))
			p.stats.Pages++
		}
		p.mu.Unlock()
		return nil
	}
	return par.Each(ctx, len(names), func(i int) error {
		name := names[i]
		series := byName[name]
		err := p.outByData(Output{Path: route.SeriesIndex(p.routes.BenchSegment(name))}, func(o *Output) error {
			var idx SeriesIndex
			for _, s := range series {
				idx.Series = append(idx.Series, p.seriesRow(s))
			}
			slices.SortFunc(idx.Series, func(a, b Row) int { return strings.Compare(a.Anchor, b.Anchor) })
			g := p.groupOf[p.routes.BenchSegment(name)]
			p.mu.Lock()
			idx.Chunks = slices.Sorted(slices.Values(p.dataChunks[g]))
			p.mu.Unlock()
			if idx.Chunks == nil {
				idx.Chunks = []int{}
			}
			idx.Chunk = p.lenOf(g)
			if n, ok := packOf(g); ok {
				idx.Pack = &n
			}
			o.Data = idx
			return nil
		})
		if err != nil {
			return err
		}
		return p.outByData(Output{Path: p.routes.Bench(name), Layout: "bench", Title: name, Sitemap: true, Charts: true}, func(o *Output) error {
			o.Data = p.bench(name, series)
			return nil
		})
	})
}

func (p *planner) bench(name string, series []*model.Series) Bench {
	d := p.d
	seg := p.routes.BenchSegment(name)
	v := Bench{Name: name, Segment: seg}
	type group struct {
		metric, machine, unit string
		context               model.Params
		lines                 []ChartSeries
	}
	groups := map[string]*group{}
	var order []string
	for _, s := range series {
		v.Category = string(s.Case.Category)
		points := 0
		for _, pt := range s.Points {
			if d.MainPos(int(pt.Artifact)) >= 0 {
				points++
			}
		}
		id := seriesID(s.Key)
		sv := SeriesView{
			Anchor: seriesAnchor(s.Key), ID: id,
			Chart:  Chart{ID: id, Kind: ChartHistory, Unit: s.Metric.Unit, Bench: seg, Series: []ChartSeries{{ID: id}}},
			Params: s.Case.Params, Metric: s.Metric.Name, Unit: s.Metric.Unit, Direction: string(s.Metric.Direction),
			Machine: s.Key.Machine, Context: s.Context, ContextShown: p.shown[s], Short: points <= ShortHistory, Snippet: annotationSnippet(s),
		}
		for _, st := range p.stepsOf[s] {
			class := "improvement"
			if st.Regression {
				class = "regression"
			}
			change := report.FormatStepChange(st.Change)
			sv.Chart.Steps = append(sv.Chart.Steps, ChartStep{Pos: st.Index, Text: "step " + change, Class: class})
			sv.Steps = append(sv.Steps, SeriesStep{Artifact: p.artifact(st.Artifact), Change: change, Class: class,
				URL: report.StepComparePath(d, p.routes, st), Acknowledged: len(st.Acknowledgements(d)) > 0})
		}
		v.Series = append(v.Series, sv)
		gk := s.Key.Metric + "\x00" + s.Key.Machine + "\x00" + s.Key.Context
		g := groups[gk]
		if g == nil {
			g = &group{metric: s.Key.Metric, machine: s.Key.Machine, unit: s.Metric.Unit, context: s.Context}
			groups[gk] = g
			order = append(order, gk)
		}
		if points > 0 {
			g.lines = append(g.lines, ChartSeries{ID: id, Name: cmp.Or(s.Key.Params, s.Case.Benchmark)})
		}
	}
	slices.Sort(order)
	for _, gk := range order {
		g := groups[gk]
		if len(g.lines) < 2 {
			continue // no overview
		}
		key := strings.Join([]string{"overview", g.metric, g.machine, gk}, " ")
		v.Overviews = append(v.Overviews, Overview{
			Anchor: "overview-" + slug.Name(strings.ReplaceAll(gk, "\x00", " ")), Metric: g.metric, Machine: g.machine,
			Context: g.context, Cases: len(g.lines),
			Chart: Chart{ID: ChartID(key), Kind: ChartOverview, Unit: g.unit, Bench: seg, Series: g.lines},
		})
	}
	return v
}

// annotationSnippet is the annotations.yaml entry for a distribution
// change of series sr; every string is double-quoted (Go quoting is valid
// YAML for them).
func annotationSnippet(sr *model.Series) string {
	var b strings.Builder
	q := strconv.Quote
	b.WriteString("distribution_changes:\n  - artifact: @ARTIFACT@\n")
	b.WriteString("    benchmark: " + q(sr.Case.Benchmark) + "\n")
	if len(sr.Case.Params) > 0 {
		parts := make([]string, len(sr.Case.Params))
		for i, kv := range sr.Case.Params {
			parts[i] = q(kv.Key) + ": " + q(kv.Value)
		}
		b.WriteString("    params: {" + strings.Join(parts, ", ") + "}\n")
	}
	b.WriteString("    metric: " + q(sr.Key.Metric) + "\n")
	b.WriteString("    machine: " + q(sr.Key.Machine) + "\n")
	b.WriteString("    note: \"\"\n")
	return b.String()
}

// axisUnits are the prefixes a value axis can be drawn in, by unit (lower
// case), largest first: analysis.Scales, from which analysis.FormatValue
// picks one per value. The chart picks the first whose factor its largest
// value reaches (else the last), so the axis reads "ms" instead of
// "1,500,000 ns". The entry "*" holds the SI prefixes of every other
// unit, which the script puts before the unit's name ("k cpu-ns/op").
var axisUnits = func() map[string][]Axis {
	m := map[string][]Axis{}
	axes := func(unit string) []Axis {
		var out []Axis
		for _, s := range analysis.Scales(unit) {
			out = append(out, Axis{s.Factor, s.Name})
		}
		return out
	}
	for _, u := range append(analysis.ScaledUnits(), "count", "", "instructions", "cycles") {
		m[u] = axes(u)
	}
	m["*"] = axes("")
	return m
}()

// AxisUnits returns the table of value-axis prefixes by unit.
func AxisUnits() map[string][]Axis { return axisUnits }
