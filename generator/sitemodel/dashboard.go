package sitemodel

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/par"
	"github.com/perfpages/perfpages/generator/route"
)

// Dashboard is the home page.
type Dashboard struct {
	// Intro is the Markdown of content/_index.md, or "".
	Intro    string        `json:"intro,omitempty"`
	Machines []MachineView `json:"machines"`
	Relevant []Recent      `json:"relevant"` // recent comparisons that pass the triage filter
	Recent   []Recent      `json:"recent"`   // the latest comparisons
	Filter   string        `json:"filter"`
	Triage   *Week         `json:"triage,omitempty"`
	Noisiest []Noisy       `json:"noisiest,omitempty"`
	Failing  []Failing     `json:"failing,omitempty"` // benchmarks failing at their machine's latest commit
	Counts   struct {
		Artifacts  int `json:"artifacts"`
		MainLine   int `json:"main_line"`
		Series     int `json:"series"`
		Benchmarks int `json:"benchmarks"`
		PRs        int `json:"prs"`
	} `json:"counts"`

	// NeedsLook are recent comparisons the filter does not keep that have
	// new failures or large changes (the weekly reports' "Needs a look").
	NeedsLook []Recent `json:"needs_look,omitempty"`
}

// MachineView is a machine with its latest main-line result.
type MachineView struct {
	model.Machine
	// Hardware describes the machine in one line from what its archives
	// say ("linux/amd64, AMD EPYC, 16 cores, 64 GiB RAM"); "" when they
	// say nothing (a github-action-benchmark machine).
	Hardware string    `json:"hardware,omitempty"`
	Latest   *Artifact `json:"latest,omitempty"`
	Results  int       `json:"results"` // results of the latest artifact on this machine
	Failed   int       `json:"failed"`
	// Changes counts the latest artifact's relevant changes on this
	// machine against its main-line predecessor; URL is that comparison.
	Changes   Counts `json:"changes"`
	Direction string `json:"direction"` // none, improvement, regression, mixed
	URL       string `json:"url,omitempty"`
}

// Noisy is a series with a high significance threshold.
type Noisy struct {
	Benchmark string       `json:"benchmark"`
	BenchURL  string       `json:"bench_url"`
	Metric    string       `json:"metric"`
	Machine   string       `json:"machine"`
	Params    model.Params `json:"params,omitempty"`
	// ContextShown: see Row.
	ContextShown model.Params `json:"context_shown,omitempty"`
	// Threshold is the series' significance threshold at its machine's
	// latest commit (Q3 + 3·IQR of its recent percent changes).
	Threshold float64 `json:"threshold"`
}

// Failing is a series failing at its machine's latest main-line commit,
// and since when.
type Failing struct {
	Benchmark string       `json:"benchmark"`
	BenchURL  string       `json:"bench_url"`
	Metric    string       `json:"metric"`
	Machine   string       `json:"machine"`
	Error     string       `json:"error"`
	Params    model.Params `json:"params,omitempty"`
	// ContextShown: see Row.
	ContextShown model.Params `json:"context_shown,omitempty"`
	Since        Artifact     `json:"since"` // the first commit of the failing streak
	New          bool         `json:"new"`   // the streak starts at the latest commit
}

func (p *planner) dashboard(ctx context.Context) error {
	d := p.d
	v := Dashboard{Filter: string(p.opts.TriageFilter)}
	if h := p.opts.Content.Home; h != nil {
		v.Intro = string(h.Body)
	}
	v.Counts.Artifacts, v.Counts.MainLine, v.Counts.Series = len(d.Artifacts), len(d.MainLine), len(d.Series)
	v.Counts.Benchmarks, v.Counts.PRs = len(p.benchSegs), len(d.PRs())

	// Latest main-line artifact per machine.
	latest := map[string]int{}
	for _, sr := range d.Series {
		for i := len(sr.Points) - 1; i >= 0; i-- {
			pt := sr.Points[i]
			if d.MainPos(int(pt.Artifact)) >= 0 {
				if cur, ok := latest[sr.Key.Machine]; !ok || d.MainPos(int(pt.Artifact)) > d.MainPos(cur) {
					latest[sr.Key.Machine] = int(pt.Artifact)
				}
				break
			}
		}
	}
	for _, m := range d.Machines {
		mv := MachineView{Machine: m, Hardware: hardware(m), Direction: analysis.DirectionNone.String()}
		if a, ok := latest[m.Name]; ok {
			av := p.artifact(a)
			mv.Latest = &av
			for _, sr := range d.Series {
				if sr.Key.Machine != m.Name {
					continue
				}
				if pt := sr.At(a); pt != nil {
					mv.Results++
					if pt.Failure() != "" {
						mv.Failed++
					}
				}
			}
			if prev, ok := d.Previous(a); ok {
				p.latestOnMachine(&v, &mv, prev, a)
			}
		}
		v.Machines = append(v.Machines, mv)
	}
	slices.SortStableFunc(v.Noisiest, func(a, b Noisy) int { return cmp.Compare(b.Threshold, a.Threshold) })
	v.Noisiest = v.Noisiest[:min(10, len(v.Noisiest))]
	slices.SortStableFunc(v.Failing, func(a, b Failing) int { return b.Since.Date.Compare(a.Since.Date) })

	// The ten most recent comparisons that pass the triage filter, among
	// the last 200 main-line commits, and the latest five whatever they
	// show.
	for pos := len(d.MainLine) - 1; pos >= max(1, len(d.MainLine)-200) && len(v.Relevant) < 10; pos-- {
		b := p.listEntryAt(pos)
		if b == nil {
			continue
		}
		for j := range b.comp.Metrics {
			if p.opts.TriageFilter.Keeps(&b.comp.Metrics[j]) {
				v.Relevant = append(v.Relevant, p.recent(b))
				break
			}
		}
	}
	// The same for the comparisons the filter does not keep but that need
	// a look.
	for pos := len(d.MainLine) - 1; pos >= max(1, len(d.MainLine)-200) && len(v.NeedsLook) < 10; pos-- {
		if b := p.listEntryAt(pos); b != nil {
			if look := p.lookLine(b); look != "" {
				r := p.recent(b)
				r.Look = look
				v.NeedsLook = append(v.NeedsLook, r)
			}
		}
	}
	// The latest commits, down to the first one (nothing to compare it
	// with: a first run's dashboard lists it).
	for pos := len(d.MainLine) - 1; pos >= 0 && len(v.Recent) < 5; pos-- {
		if pos == 0 {
			v.Recent = append(v.Recent, p.recentAt(0))
		} else if b := p.listEntryAt(pos); b != nil {
			v.Recent = append(v.Recent, p.recent(b))
		}
	}
	if n := len(p.weekList); n > 0 {
		w := p.weekList[n-1]
		v.Triage = &w
	}
	return p.out(Output{Path: route.Home, Layout: "dashboard", Title: p.opts.Title, Sitemap: true}, func(o *Output) error {
		o.Data = v
		return nil
	})
}

// hardware is MachineView.Hardware: the parts of m that are known, then
// its labels, so that a machine known by its name alone shows nothing,
// not "/".
func hardware(m model.Machine) string {
	var parts []string
	if osArch := strings.Trim(m.OS+"/"+m.Arch, "/"); osArch != "" {
		parts = append(parts, osArch)
	}
	if m.CPU != "" {
		parts = append(parts, m.CPU)
	}
	if m.Cores > 0 {
		parts = append(parts, strconv.Itoa(m.Cores)+" cores")
	}
	if m.MemoryBytes > 0 {
		parts = append(parts, analysis.FormatValue(float64(m.MemoryBytes), "bytes")+" RAM")
	}
	for _, l := range m.Labels {
		parts = append(parts, l.Key+": "+l.Value) // a pool's "runners: fv-az*" (model.MachineRule), an instance type
	}
	return strings.Join(parts, ", ")
}

// latestOnMachine fills a machine's row of the dashboard from the
// comparison of its latest main-line commit a with prev: the relevant
// changes on this machine, and adds the machine's series to the noisiest
// (by significance threshold, when the threshold comes from a full
// history) and failing lists.
func (p *planner) latestOnMachine(v *Dashboard, mv *MachineView, prev, a int) {
	d := p.d
	c := p.res.Summary(prev, a)
	mv.URL = p.routes.Commit(d.Artifacts[a].ID)
	var rows []*analysis.Row
	for i := range c.Rows {
		r := &c.Rows[i]
		if r.Series.Key.Machine != mv.Name {
			continue
		}
		rows = append(rows, r)
		mv.Changes.add(r)
		bench := r.Series.Case.Benchmark
		if r.OK && r.History >= c.Options.History {
			v.Noisiest = append(v.Noisiest, Noisy{Benchmark: bench, BenchURL: p.routes.Bench(bench),
				Metric: r.Series.Key.Metric, Machine: mv.Name, Params: r.Series.Case.Params, ContextShown: p.shown[r.Series], Threshold: r.Threshold})
		}
		if r.After == nil || r.After.Failure() == "" {
			continue
		}
		// Walk back to the first failure of the streak.
		since := a
		for pos := d.MainPos(a) - 1; pos >= 0; pos-- {
			pt := r.Series.At(d.MainLine[pos])
			if pt == nil || pt.Failure() == "" {
				break
			}
			since = d.MainLine[pos]
		}
		v.Failing = append(v.Failing, Failing{Benchmark: bench, BenchURL: p.routes.Bench(bench),
			Metric: r.Series.Key.Metric, Machine: mv.Name, Error: r.After.Failure(), Params: r.Series.Case.Params, ContextShown: p.shown[r.Series],
			Since: p.artifact(since), New: since == a})
	}
	mv.Direction = p.res.MetricSummary(rows).Direction.String()
}

// ContentView is a Markdown page of the content folder.
type ContentView struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Source      string `json:"source"` // file name, for messages
	Markdown    string `json:"markdown"`
}

func (p *planner) contentPages(ctx context.Context) error {
	pages := p.opts.Content.Pages
	return par.Each(ctx, len(pages), func(i int) error {
		cp := pages[i]
		u := p.routes.Page(cp.Source)
		if u == "" {
			return nil // refused: the route table warned
		}
		return p.out(Output{Path: u, Layout: "page", Title: cp.Title, Sitemap: true}, func(o *Output) error {
			o.Data = ContentView{Title: cp.Title, Description: cp.Description, Source: cp.Source, Markdown: string(cp.Body)}
			return nil
		})
	})
}

// ListPage is how many commits or PRs a page of a list shows.
const ListPage = 100

// CommitList is a page of the list of every main-line commit, newest
// first: the index (Page 0, the newest ListPage commits) or page n of the
// pages numbered from the oldest (stable: a new commit changes only the
// last page and the index).
type CommitList struct {
	Page    int        `json:"page"`
	Pages   []PageLink `json:"pages"`
	Commits []Recent   `json:"commits"`
}

// PageLink is a link to a page of a list.
type PageLink struct {
	Label   string `json:"label"`
	URL     string `json:"url"`
	Current bool   `json:"current,omitempty"`
}

// PRList is a page of the list of every PR, newest first.
type PRList struct {
	Page  int        `json:"page"`
	Pages []PageLink `json:"pages"`
	PRs   []PRItem   `json:"prs"`
}

// PRItem is a PR in the list.
type PRItem struct {
	Number int       `json:"number"`
	Title  string    `json:"title"`
	URL    string    `json:"url"`
	Merged *Artifact `json:"merged,omitempty"`
	Latest Artifact  `json:"latest"` // the artifact that stands for it
	Runs   int       `json:"runs"`   // its try runs
	// Verdicts are its comparison's verdicts when merged.
	Verdicts *Recent `json:"verdicts,omitempty"`
}

// CompareForm is the page where a reader picks any two commits to compare.
// Its script reads the main-line artifacts from data/artifacts; the rest
// of what it needs to resolve a pair is here:
//
//   - a pair the site shows already opens its page: consecutive main-line
//     commits (the script sees them in the artifacts' order), and Pages;
//   - any other pair of main-line commits is computed in the browser from
//     the series data of Benches: per series, the two values as the site
//     stores them and their relative change, nothing else (no
//     significance: `perfpages compare` has it);
//   - a pair with an artifact off the main line that no page shows is
//     refused with the command that computes it.
type CompareForm struct {
	Base *Artifact `json:"base,omitempty"` // the latest commit's predecessor
	Head *Artifact `json:"head,omitempty"` // the latest commit
	// Benches are the benchmarks' path segments (data/series/<segment>/).
	Benches []string     `json:"benches"`
	Metrics []FormMetric `json:"metrics"`
	// PRs resolve "#N": the artifact that stands for the PR (its merged
	// commit, else its latest try run) and its page.
	PRs []FormPR `json:"prs,omitempty"`
	// Pages are the comparisons the site pre-renders other than those of
	// consecutive main-line commits (PRs, try runs, triage weeks).
	Pages []FormPage `json:"pages,omitempty"`
}

// FormMetric is a metric as the compare form's results show it.
type FormMetric struct {
	Name      string `json:"name"`
	Unit      string `json:"unit"`
	Direction string `json:"direction"`
}

// FormPR is a PR as the compare form resolves it.
type FormPR struct {
	Number int    `json:"number"`
	Title  string `json:"title,omitempty"`
	Head   string `json:"head"` // artifact id
	URL    string `json:"url"`
}

// FormPage is a pre-rendered comparison: its ends' ids and its page.
type FormPage struct {
	Base string `json:"base"`
	Head string `json:"head"`
	URL  string `json:"url"`
}

// recentAt is the list entry of the main-line commit at pos.
func (p *planner) recentAt(pos int) Recent {
	if b := p.listEntryAt(pos); b != nil {
		return p.recent(b)
	}
	a := p.d.MainLine[pos]
	return Recent{Commit: p.artifact(a), URL: p.routes.Commit(p.d.Artifacts[a].ID)}
}

func pager(n int, url func(int) string, current int) []PageLink {
	var out []PageLink
	for i := 1; i <= n; i++ {
		out = append(out, PageLink{Label: itoa(i), URL: url(i), Current: i == current})
	}
	return out
}

// lists plans the lists of every commit and PR, their short URLs, the
// redirects of moved benchmark pages and the compare form.
func (p *planner) lists(ctx context.Context) error {
	d := p.d
	n := len(d.MainLine)
	pages := (n + ListPage - 1) / ListPage
	commits := func(from, to, page int) error {
		v := CommitList{Page: page, Pages: pager(pages, route.CommitsPage, page)}
		for pos := to - 1; pos >= from; pos-- {
			v.Commits = append(v.Commits, p.recentAt(pos))
		}
		path, title := route.CommitsIndex, "Commits"
		if page > 0 {
			path, title = route.CommitsPage(page), fmt.Sprintf("Commits, page %d of %d", page, pages)
		}
		return p.out(Output{Path: path, Layout: "commits", Title: title, Sitemap: true}, func(o *Output) error {
			o.Data = v
			return nil
		})
	}
	if err := commits(max(0, n-ListPage), n, 0); err != nil {
		return err
	}
	if err := par.Each(ctx, pages, func(i int) error {
		return commits(i*ListPage, min(n, (i+1)*ListPage), i+1)
	}); err != nil {
		return err
	}

	prs := d.PRs()
	slices.Reverse(prs)
	prPages := (len(prs) + ListPage - 1) / ListPage
	items := make([]PRItem, len(prs))
	for i, pr := range prs {
		head, _ := d.PRHead(pr)
		it := PRItem{Number: pr, Title: d.Artifacts[head].Title, URL: route.PR(pr), Latest: p.artifact(head)}
		for _, a := range d.Artifacts {
			if a.PR == pr && a.Kind == model.KindTry {
				it.Runs++
			}
		}
		if pos := d.MainPos(head); pos >= 0 {
			m := p.artifact(head)
			it.Merged = &m
			if b := p.listEntryAt(pos); b != nil {
				r := p.recent(b)
				it.Verdicts = &r
			}
		}
		items[i] = it
	}
	if err := par.Each(ctx, prPages+1, func(page int) error {
		// Page 0 is the index: the newest PRs; pages 1… from the oldest.
		var v PRList
		path, title := route.PRsIndex, "Pull requests"
		if page == 0 {
			v = PRList{Pages: pager(prPages, route.PRsPage, 0), PRs: items[:min(len(items), ListPage)]}
		} else {
			// items are newest first; page 1 holds the oldest.
			hi := len(items) - (page-1)*ListPage
			lo := max(0, hi-ListPage)
			v = PRList{Page: page, Pages: pager(prPages, route.PRsPage, page), PRs: items[lo:hi]}
			path, title = route.PRsPage(page), fmt.Sprintf("Pull requests, page %d of %d", page, prPages)
		}
		return p.out(Output{Path: path, Layout: "prs", Title: title, Sitemap: true}, func(o *Output) error {
			o.Data = v
			return nil
		})
	}); err != nil {
		return err
	}

	// /commit/<7-digit sha>/ redirects to the commit's page when no other
	// artifact shares the prefix and nothing else has that URL.
	prefixes := map[string]int{}
	segments := map[string]bool{}
	for _, a := range d.Artifacts {
		segments[strings.ToLower(p.routes.ArtifactSegment(a.ID))] = true
		if model.IsSHA(a.ID) && len(a.ID) > 7 {
			prefixes[a.ID[:7]]++
		}
	}
	var short []string
	for _, a := range d.MainLine {
		id := d.Artifacts[a].ID
		if model.IsSHA(id) && len(id) > 7 && prefixes[id[:7]] == 1 && !segments[id[:7]] {
			short = append(short, id)
		}
	}
	if err := par.Each(ctx, len(short), func(i int) error {
		id := short[i]
		to := p.routes.Commit(id)
		return p.out(Output{Path: route.CommitAt(id[:7]), Layout: "redirect", Title: "Commit " + id[:7], Key: to}, func(o *Output) error {
			o.Data = Redirect{To: to}
			return nil
		})
	}); err != nil {
		return err
	}
	// Benchmark pages that moved keep their old URL, redirecting.
	for name, old := range p.routes.LegacyBench() {
		to := p.routes.Bench(name)
		if err := p.out(Output{Path: route.BenchAt(old), Layout: "redirect", Title: name, Key: to}, func(o *Output) error {
			o.Data = Redirect{To: to}
			return nil
		}); err != nil {
			return err
		}
	}
	form := CompareForm{Benches: p.benchSegs, Pages: p.formPages}
	if n >= 2 {
		b, h := p.artifact(d.MainLine[n-2]), p.artifact(d.MainLine[n-1])
		form.Base, form.Head = &b, &h
	}
	seenMetric := map[string]int{}
	for _, s := range d.Series {
		i, ok := seenMetric[s.Metric.Name]
		if !ok {
			i = len(form.Metrics)
			seenMetric[s.Metric.Name] = i
			form.Metrics = append(form.Metrics, FormMetric{Name: s.Metric.Name, Unit: s.Metric.Unit, Direction: string(s.Metric.Direction)})
		}
		joinMetric(&form.Metrics[i].Unit, &form.Metrics[i].Direction, s.Metric)
	}
	slices.SortFunc(form.Metrics, func(a, b FormMetric) int { return strings.Compare(a.Name, b.Name) })
	for _, it := range items {
		form.PRs = append(form.PRs, FormPR{Number: it.Number, Title: it.Title, Head: it.Latest.ID, URL: it.URL})
	}
	return p.out(Output{Path: route.CompareIndex, Layout: "compare-form", Title: "Compare any two commits", Sitemap: true, Charts: false}, func(o *Output) error {
		o.Data = form
		return nil
	})
}

// Sitemap lists every page of the site.
type Sitemap struct {
	URLs []string `json:"urls"` // absolute when the base URL is, else site-absolute
}

// fixed plans the pages every site has: 404, the sitemap and the data
// files' description.
func (p *planner) fixed(ctx context.Context) error {
	if err := p.out(Output{Path: route.NotFound, Layout: "404", Title: "Page not found"}, nil); err != nil {
		return err
	}
	meta := Meta{Positions: len(p.d.MainLine), Chunk: p.chunk}
	if n := len(p.d.MainLine); n > 0 {
		meta.Built = p.d.Artifacts[p.d.MainLine[n-1]].Date
	}
	if err := p.out(Output{Path: route.MetaData}, func(o *Output) error {
		o.Data = meta
		return nil
	}); err != nil {
		return err
	}
	p.mu.Lock()
	urls := slices.Clone(p.pages)
	p.mu.Unlock()
	slices.Sort(urls)
	prefix := p.opts.Root()
	for i, u := range urls {
		urls[i] = prefix + u
	}
	return p.out(Output{Path: route.Sitemap, Layout: "sitemap.xml"}, func(o *Output) error {
		o.Data = Sitemap{URLs: urls}
		return nil
	})
}
