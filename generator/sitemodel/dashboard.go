package sitemodel

import (
	"cmp"
	"context"
	"slices"

	"github.com/perfpages/perfpages/analysis"
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
}

// MachineView is a machine with its latest main-line result.
type MachineView struct {
	analysis.Machine
	Latest  *Artifact `json:"latest,omitempty"`
	Results int       `json:"results"` // results of the latest artifact on this machine
	Failed  int       `json:"failed"`
	// Changes counts the latest artifact's relevant changes on this
	// machine against its main-line predecessor; URL is that comparison.
	Changes   Counts `json:"changes"`
	Direction string `json:"direction"` // none, improvement, regression, mixed
	URL       string `json:"url,omitempty"`
}

// Noisy is a series with a high significance threshold.
type Noisy struct {
	Benchmark string          `json:"benchmark"`
	BenchURL  string          `json:"bench_url"`
	Metric    string          `json:"metric"`
	Machine   string          `json:"machine"`
	Params    analysis.Params `json:"params,omitempty"`
	// Threshold is the series' significance threshold at its machine's
	// latest commit (Q3 + 3·IQR of its recent percent changes).
	Threshold float64 `json:"threshold"`
}

// Failing is a series failing at its machine's latest main-line commit,
// and since when.
type Failing struct {
	Benchmark string          `json:"benchmark"`
	BenchURL  string          `json:"bench_url"`
	Metric    string          `json:"metric"`
	Machine   string          `json:"machine"`
	Error     string          `json:"error"`
	Params    analysis.Params `json:"params,omitempty"`
	Since     Artifact        `json:"since"` // the first commit of the failing streak
	New       bool            `json:"new"`   // the streak starts at the latest commit
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
			if d.MainPos(pt.Artifact) >= 0 {
				if cur, ok := latest[sr.Key.Machine]; !ok || d.MainPos(pt.Artifact) > d.MainPos(cur) {
					latest[sr.Key.Machine] = pt.Artifact
				}
				break
			}
		}
	}
	for _, m := range d.Machines {
		mv := MachineView{Machine: m, Direction: analysis.DirectionNone.String()}
		if a, ok := latest[m.Name]; ok {
			av := p.artifact(a)
			mv.Latest = &av
			for _, sr := range d.Series {
				if sr.Key.Machine != m.Name {
					continue
				}
				if pt := sr.At(a); pt != nil {
					mv.Results++
					if pt.Error != "" {
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
		b := p.brief(pos)
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
	for pos := len(d.MainLine) - 1; pos >= 1 && len(v.Recent) < 5; pos-- {
		if b := p.brief(pos); b != nil {
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

// latestOnMachine fills a machine's row of the dashboard from the
// comparison of its latest main-line commit a with prev: the relevant
// changes on this machine, and adds the machine's series to the noisiest
// (by significance threshold, when the threshold comes from a full
// history) and failing lists.
func (p *planner) latestOnMachine(v *Dashboard, mv *MachineView, prev, a int) {
	d := p.d
	c := p.cmp.Summary(prev, a)
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
				Metric: r.Series.Key.Metric, Machine: mv.Name, Params: r.Series.Case.Params, Threshold: r.Threshold})
		}
		if r.After == nil || r.After.Error == "" {
			continue
		}
		// Walk back to the first failure of the streak.
		since := a
		for pos := d.MainPos(a) - 1; pos >= 0; pos-- {
			pt := r.Series.At(d.MainLine[pos])
			if pt == nil || pt.Error == "" {
				break
			}
			since = d.MainLine[pos]
		}
		v.Failing = append(v.Failing, Failing{Benchmark: bench, BenchURL: p.routes.Bench(bench),
			Metric: r.Series.Key.Metric, Machine: mv.Name, Error: r.After.Error, Params: r.Series.Case.Params,
			Since: p.artifact(since), New: since == a})
	}
	mv.Direction = analysis.SummarizeMetric("", rows, c.Options.Model).Direction.String()
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
	return parallel(ctx, len(pages), func(i int) error {
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

// lists plans the pages that list every commit and PR (reserved).
func (p *planner) lists(ctx context.Context) error { return nil }

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
	prefix := cmpOr(p.opts.AbsURL, p.opts.BasePath)
	for i, u := range urls {
		urls[i] = prefix + u
	}
	return p.out(Output{Path: route.Sitemap, Layout: "sitemap.xml"}, func(o *Output) error {
		o.Data = Sitemap{URLs: urls}
		return nil
	})
}
