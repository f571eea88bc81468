package site

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/generator/report"
)

// historyRows bounds a history table; older points stay in the data.
const historyRows = 200

// dashboardView is the home page.
type dashboardView struct {
	Intro    any // template.HTML of content/_index.md, or nil
	Machines []machineView
	Relevant []recentView // recent comparisons that pass the triage filter
	Recent   []recentView // the latest comparisons
	Filter   string
	Triage   *weekSummary
	Noisiest []noisyView
	Failing  []failingView // benchmarks failing at their machine's latest commit
	Counts   struct{ Artifacts, MainLine, Series, Benchmarks, PRs int }
}

// failingView is a series failing at its machine's latest main-line
// commit, and since when.
type failingView struct {
	Benchmark, BenchURL, Metric, Machine, Error string
	Params                                      analysis.Params
	Since                                       artifactView // the first commit of the failing streak
	New                                         bool         // the streak starts at the latest commit
}

type machineView struct {
	analysis.Machine
	Latest  *artifactView
	Results int // results of the latest artifact on this machine
	Failed  int
	// Changes counts the latest artifact's relevant changes on this
	// machine against its main-line predecessor; URL is that comparison.
	Changes   changeCounts
	Direction string // summary direction of those changes: none, improvement, regression, mixed
	URL       string
}

type recentView struct {
	Commit     artifactView
	Base       artifactView
	URL        string // the comparison's page
	Contiguous bool
	Counts     changeCounts
	Metrics    []metricBrief // metrics with a relevant change
}

// metricBrief is one metric's verdict in a list of comparisons.
type metricBrief struct {
	Name, Anchor, Direction, Relevance string
	Definitely                         bool
}

// recentView summarizes the comparison of a main-line commit with its
// predecessor for a list: counts and per-metric verdicts, not its tables.
func (s *site) recentView(c *analysis.Comparison) recentView {
	r := recentView{Commit: s.artifactView(c.Head), Base: s.artifactView(c.Base), URL: commitURL(s.d, c.Head), Contiguous: s.d.Contiguous(c.Base, c.Head)}
	for i := range c.Rows {
		r.Counts.add(&c.Rows[i])
	}
	for _, m := range c.Metrics {
		if m.Direction != analysis.DirectionNone {
			r.Metrics = append(r.Metrics, metricBrief{m.Metric, slug.Metric(m.Metric), m.Direction.String(), m.Relevance.String(), m.DefinitelyRelevant})
		}
	}
	return r
}

type noisyView struct {
	Benchmark, BenchURL, Metric, Machine string
	Params                               analysis.Params
	// Threshold is the series' significance threshold at its machine's
	// latest commit (Q3 + 3·IQR of its recent percent changes).
	Threshold float64
}

func (s *site) dashboardJob() job {
	return func() error {
		d := s.d
		v := dashboardView{}
		if h := s.opts.Content.Home; h != nil {
			html, err := renderMarkdown(s.md, h.Body)
			if err != nil {
				return err
			}
			v.Intro = html
		}
		v.Counts.Artifacts, v.Counts.MainLine, v.Counts.Series = len(d.Artifacts), len(d.MainLine), len(d.Series)
		v.Counts.Benchmarks, v.Counts.PRs = len(s.benchs), len(d.PRs())

		// Latest main-line artifact per machine.
		latest := map[string]int{}
		for _, sr := range d.Series {
			for i := len(sr.Points) - 1; i >= 0; i-- {
				p := sr.Points[i]
				if d.MainPos(p.Artifact) >= 0 {
					if cur, ok := latest[sr.Key.Machine]; !ok || d.MainPos(p.Artifact) > d.MainPos(cur) {
						latest[sr.Key.Machine] = p.Artifact
					}
					break
				}
			}
		}
		for _, m := range d.Machines {
			mv := machineView{Machine: m}
			if a, ok := latest[m.Name]; ok {
				av := s.artifactView(a)
				mv.Latest = &av
				for _, sr := range d.Series {
					if sr.Key.Machine != m.Name {
						continue
					}
					if p := sr.At(a); p != nil {
						mv.Results++
						if p.Error != "" {
							mv.Failed++
						}
					}
				}
				if prev, ok := d.Previous(a); ok {
					s.latestOnMachine(&v, &mv, prev, a)
				}
			}
			v.Machines = append(v.Machines, mv)
		}
		slices.SortStableFunc(v.Noisiest, func(a, b noisyView) int { return cmp.Compare(b.Threshold, a.Threshold) })
		v.Noisiest = v.Noisiest[:min(10, len(v.Noisiest))]
		slices.SortStableFunc(v.Failing, func(a, b failingView) int { return b.Since.Date.Compare(a.Since.Date) })

		// The ten most recent comparisons that pass the triage filter,
		// among the last 200 main-line commits, and the latest five
		// whatever they show.
		for i := len(d.MainLine) - 1; i >= max(0, len(d.MainLine)-200) && len(v.Relevant) < 10; i-- {
			a := d.MainLine[i]
			prev, ok := d.Previous(a)
			if !ok {
				break
			}
			c := s.cmp.Summary(prev, a)
			for j := range c.Metrics {
				if s.opts.TriageFilter.Keeps(&c.Metrics[j]) {
					v.Relevant = append(v.Relevant, s.recentView(c))
					break
				}
			}
		}
		for i := len(d.MainLine) - 1; i >= 0 && len(v.Recent) < 5; i-- {
			a := d.MainLine[i]
			if prev, ok := d.Previous(a); ok {
				v.Recent = append(v.Recent, s.recentView(s.cmp.Summary(prev, a)))
			}
		}
		v.Filter = string(s.opts.TriageFilter)

		if n := len(s.weekSummaries); n > 0 {
			v.Triage = &s.weekSummaries[n-1]
		}
		return s.page("", "dashboard", s.opts.Title, v)
	}
}

// latestOnMachine fills a machine's row of the dashboard from the
// comparison of its latest main-line commit a with prev: the relevant
// changes on this machine, and adds the machine's series to the noisiest
// (by significance threshold, when the threshold comes from a full
// history) and failing lists.
func (s *site) latestOnMachine(v *dashboardView, mv *machineView, prev, a int) {
	d := s.d
	c := s.cmp.Summary(prev, a)
	mv.URL = commitURL(d, a)
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
			v.Noisiest = append(v.Noisiest, noisyView{Benchmark: bench, BenchURL: "bench/" + s.benchs[bench] + "/",
				Metric: r.Series.Key.Metric, Machine: mv.Name, Params: r.Series.Case.Params, Threshold: r.Threshold})
		}
		if r.After == nil || r.After.Error == "" {
			continue
		}
		// Walk back to the first failure of the streak.
		since := a
		for pos := d.MainPos(a) - 1; pos >= 0; pos-- {
			p := r.Series.At(d.MainLine[pos])
			if p == nil || p.Error == "" {
				break
			}
			since = d.MainLine[pos]
		}
		v.Failing = append(v.Failing, failingView{Benchmark: bench, BenchURL: "bench/" + s.benchs[bench] + "/",
			Metric: r.Series.Key.Metric, Machine: mv.Name, Error: r.After.Error, Params: r.Series.Case.Params,
			Since: s.artifactView(since), New: since == a})
	}
	mv.Direction = analysis.SummarizeMetric("", rows, c.Options.Model).Direction.String()
}

// benchIndexView lists every benchmark.
type benchIndexView struct {
	Benchmarks []benchLink
}

type benchLink struct {
	Name, URL string
	Category  string
	Cases     int
	Metrics   []string
}

func (s *site) benchIndexJob() job {
	return func() error {
		links := map[string]*benchLink{}
		cases := map[string]map[string]bool{}
		for _, sr := range s.d.Series {
			name := sr.Case.Benchmark
			l := links[name]
			if l == nil {
				l = &benchLink{Name: name, URL: "bench/" + s.benchs[name] + "/", Category: string(sr.Case.Category)}
				links[name] = l
				cases[name] = map[string]bool{}
			}
			cases[name][sr.Key.Params] = true
			if !slices.Contains(l.Metrics, sr.Key.Metric) {
				l.Metrics = append(l.Metrics, sr.Key.Metric)
			}
		}
		var v benchIndexView
		for name, l := range links {
			l.Cases = len(cases[name])
			slices.Sort(l.Metrics)
			v.Benchmarks = append(v.Benchmarks, *l)
		}
		slices.SortFunc(v.Benchmarks, func(a, b benchLink) int { return strings.Compare(a.Name, b.Name) })
		return s.page("bench/", "benchmarks", "Benchmarks", v)
	}
}

// benchView is a benchmark's page: the history of each of its series.
type benchView struct {
	Name     string
	Category string
	// Overviews draw every test case of a metric on a machine together,
	// when the benchmark has several.
	Overviews []overviewView
	Series    []seriesView
}

type overviewView struct {
	Anchor, Metric, Machine string
	Context                 analysis.Params
	Cases                   int
	Chart                   template.HTML
}

type seriesView struct {
	Anchor    string
	Chart     template.HTML // history chart, markers on relevant changes
	Params    analysis.Params
	Metric    string
	Unit      string
	Direction string
	Machine   string
	Context   analysis.Params
	Points    []historyRow // newest first
	Omitted   int          // older points not shown
	// Snippet is the annotations.yaml entry that marks a distribution
	// change of this series, with @ARTIFACT@ for the artifact's id (the
	// page fills it in for the point under the pointer).
	Snippet string
}

// annotationSnippet is the annotations.yaml entry for a distribution
// change of series sr; every string is double-quoted (Go quoting is valid
// YAML for them).
func annotationSnippet(sr *analysis.Series) string {
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

type historyRow struct {
	Artifact  artifactView
	Value     string
	Samples   int
	Change    float64
	HasChange bool
	Class     string // regression or improvement when the change is relevant
	Error     string
	Threshold string // significance threshold of the change ("" when none)
	Magnitude string
}

func (s *site) benchJob(name string) job {
	return func() error {
		d := s.d
		v := benchView{Name: name}
		// The charts' data goes to one file per benchmark, fetched by the
		// page when it runs (SPEC §6: data loaded on demand).
		dataPath := benchDataPath(s.benchs[name])
		chartData := map[string]json.RawMessage{}
		groups := map[string]*overviewGroup{}
		var groupOrder []string
		for si, sr := range d.Series {
			if sr.Case.Benchmark != name {
				continue
			}
			v.Category = string(sr.Case.Category)
			key := seriesChartKey(sr.Key)
			sv := seriesView{
				Anchor: "series-" + slug.Name(key),
				Params: sr.Case.Params, Metric: sr.Metric.Name, Unit: sr.Metric.Unit,
				Direction: string(sr.Metric.Direction), Machine: sr.Key.Machine, Context: sr.Context,
				Snippet: annotationSnippet(sr),
			}
			// The rows the commit pages show for this series, oldest first.
			rows := s.cmp.SeriesHistory(si)
			lower, upper := s.cmp.Band(si)
			points := make([]ChartPoint, 0, len(rows))
			band := &Band{Lower: make([]float64, 0, len(rows)), Upper: make([]float64, 0, len(rows))}
			for k, r := range rows {
				p := r.After
				a := s.d.Artifacts[p.Artifact]
				cp := ChartPoint{Label: a.Label(), Title: a.Title, Date: a.Date, Value: p.Value, URL: s.opts.BasePath + commitURL(d, p.Artifact), Failed: p.Error != ""}
				if !p.OK && !cp.Failed {
					continue
				}
				band.Lower, band.Upper = append(band.Lower, lower[k]), append(band.Upper, upper[k])
				if r.Relevant {
					cp.Marker = MarkerImprovement
					if r.Regression {
						cp.Marker = MarkerRegression
					}
				}
				var notes []string
				for _, an := range d.Annotations.For(sr, p.Artifact) {
					notes = append(notes, cmp.Or(an.Note, string(an.Kind)))
				}
				cp.Annotation = strings.Join(notes, "; ")
				points = append(points, cp)
			}
			gk := sr.Key.Metric + "\x00" + sr.Key.Machine + "\x00" + sr.Key.Context
			if _, ok := groups[gk]; !ok {
				groupOrder = append(groupOrder, gk)
				groups[gk] = &overviewGroup{metric: sr.Key.Metric, machine: sr.Key.Machine, context: sr.Context, unit: sr.Metric.Unit}
			}
			g := groups[gk]
			g.lines = append(g.lines, ChartLine{Name: cmp.Or(sr.Key.Params, sr.Case.Benchmark), Points: points})
			id := ChartID(key)
			chart, data, err := HistoryChartData(id, sr.Metric.Unit, points, band, s.opts.BasePath+benchDataPath(s.benchs[name]))
			if err != nil {
				return fmt.Errorf("bench %s: %w", name, err)
			}
			sv.Chart = chart
			if data != nil {
				chartData[id] = data
			}
			for i := len(rows) - 1; i >= 0; i-- {
				if len(sv.Points) == historyRows {
					sv.Omitted = i + 1
					break
				}
				r := rows[i]
				p := r.After
				row := historyRow{Artifact: s.artifactView(p.Artifact), Samples: len(p.Samples), Error: p.Error}
				if p.OK {
					row.Value = FormatValue(p.Value, sr.Metric.Unit)
				}
				if r.OK {
					row.Change, row.HasChange = r.Change, true
					row.Threshold, row.Magnitude = formatThreshold(r.Threshold), r.Magnitude.String()
					if r.Relevant {
						row.Class = "improvement"
						if r.Regression {
							row.Class = "regression"
						}
					}
				}
				sv.Points = append(sv.Points, row)
			}
			v.Series = append(v.Series, sv)
		}
		slices.Sort(groupOrder)
		for _, gk := range groupOrder {
			g := groups[gk]
			if len(g.lines) < 2 {
				continue
			}
			key := strings.Join([]string{"overview", g.metric, g.machine, gk}, " ")
			id := ChartID(key)
			chart, data, err := OverviewChart(id, g.unit, g.lines, s.opts.BasePath+dataPath)
			if err != nil {
				return fmt.Errorf("bench %s: %w", name, err)
			}
			if chart == "" {
				continue
			}
			chartData[id] = data
			v.Overviews = append(v.Overviews, overviewView{Anchor: "overview-" + slug.Name(strings.ReplaceAll(gk, "\x00", " ")),
				Metric: g.metric, Machine: g.machine, Context: g.context, Cases: len(g.lines), Chart: chart})
		}
		if len(chartData) > 0 {
			b, err := json.Marshal(chartData)
			if err != nil {
				return fmt.Errorf("bench %s: chart data: %w", name, err)
			}
			if err := s.out.WriteFile(dataPath, append(b, '\n')); err != nil {
				return err
			}
		}
		return s.page("bench/"+s.benchs[name]+"/", "bench", name, v)
	}
}

// overviewGroup collects the test cases of one metric on one machine and
// context for an overview chart.
type overviewGroup struct {
	metric, machine, unit string
	context               analysis.Params
	lines                 []ChartLine
}

// seriesChartKey names a series within its benchmark: the key of its
// chart id on the bench page and in the benchmark's chart data file.
func seriesChartKey(k analysis.SeriesKey) string {
	return strings.Join([]string{k.Params, k.Metric, k.Machine, k.Context}, " ")
}

// benchDataPath is the site path of a benchmark's chart data.
func benchDataPath(slug string) string { return "data/bench/" + slug + ".json" }

// weekLink names one triage week.
type weekLink struct {
	Date    string // the Monday, yyyy-mm-dd
	URL     string
	Start   time.Time
	Updated time.Time // the date of its latest comparison
	Pairs   int       // comparisons made in the week
	week    analysis.Week
}

// weeks are the links of the site's triage weeks, oldest first.
func (s *site) weeks() []weekLink {
	out := make([]weekLink, 0, len(s.weekList))
	for _, w := range s.weekList {
		date := w.Monday.Format("2006-01-02")
		l := weekLink{Date: date, URL: "triage/" + date + "/", Start: w.Monday, Updated: w.Monday, Pairs: len(w.Heads), week: w}
		for _, a := range w.Heads {
			if t := s.d.Artifacts[a].Date; t.After(l.Updated) {
				l.Updated = t
			}
		}
		out = append(out, l)
	}
	return out
}

// triageIndexView lists the weekly reports.
type triageIndexView struct {
	Weeks  []weekSummary // newest first
	Filter string
}

type weekSummary struct {
	weekLink
	Counts string // "2 Regressions, 1 Improvement, 0 Mixed; 0 of them in rollups"
}

// triageWeekView is one week's report, rendered from its Markdown.
type triageWeekView struct {
	Week       weekLink
	Prev, Next *weekLink
	Markdown   string // site-relative URL of the Markdown source
	HTML       template.HTML
}

// triageJobs renders every week's report: Markdown first (the source of
// truth, also published next to the page as /triage/<date>.md), then its
// HTML through goldmark; plus the index and the Atom feed.
func (s *site) triageJobs() []job {
	weeks := s.weeks()
	s.weekSummaries = make([]weekSummary, len(weeks))
	summaries := s.weekSummaries
	var jobs []job
	for i, w := range weeks {
		v := triageWeekView{Week: w, Markdown: "triage/" + w.Date + ".md"}
		if i > 0 {
			v.Prev = &weeks[i-1]
		}
		if i+1 < len(weeks) {
			v.Next = &weeks[i+1]
		}
		jobs = append(jobs, func() error {
			r := analysis.Triage(s.d, s.cmp, w.week, s.opts.TriageFilter, "")
			summaries[i] = weekSummary{w, report.CountLine(r)}
			notes := ""
			if n, ok := s.opts.Content.TriageNotes[w.Date]; ok {
				notes = string(n.Body)
			}
			var md bytes.Buffer
			if err := report.WriteTriageMarkdown(&md, s.d, r, s.links(), notes); err != nil {
				return err
			}
			if err := s.out.WriteFile(v.Markdown, md.Bytes()); err != nil {
				return err
			}
			html, err := renderMarkdown(s.md, md.Bytes())
			if err != nil {
				return err
			}
			v.HTML = html
			return s.page(w.URL, "triage-week", "Triage report for the week of "+w.Date, v)
		})
	}
	// The index needs every week's counts: it runs after the weeks (see
	// Build), as does the feed.
	s.after = append(s.after, func() error {
		idx := triageIndexView{Filter: string(s.opts.TriageFilter)}
		for i := len(summaries) - 1; i >= 0; i-- {
			idx.Weeks = append(idx.Weeks, summaries[i])
		}
		if err := s.page("triage/", "triage", "Triage reports", idx); err != nil {
			return err
		}
		return s.out.WriteFile("triage/index.xml", s.triageFeed(summaries))
	})
	return jobs
}

// triageFeed is the Atom feed of the weekly reports, newest first. An
// entry's updated time is the date of the week's last commit, so the feed
// only changes when the data does.
func (s *site) triageFeed(weeks []weekSummary) []byte {
	abs := s.opts.AbsURL
	if abs == "" {
		abs = s.opts.BasePath
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n")
	b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom">` + "\n")
	fmt.Fprintf(&b, "  <title>%s: triage reports</title>\n", xmlEscape(s.opts.Title))
	fmt.Fprintf(&b, "  <id>%s</id>\n", xmlEscape(abs+"triage/"))
	fmt.Fprintf(&b, "  <link rel=\"self\" href=\"%s\"/>\n", xmlEscape(abs+"triage/index.xml"))
	last := time.Unix(0, 0).UTC()
	if n := len(s.d.MainLine); n > 0 {
		last = s.d.Artifacts[s.d.MainLine[n-1]].Date
	}
	fmt.Fprintf(&b, "  <updated>%s</updated>\n", last.Format(time.RFC3339))
	for i := len(weeks) - 1; i >= 0; i-- {
		w := weeks[i]
		fmt.Fprintf(&b, "  <entry>\n    <title>Triage report for the week of %s</title>\n", w.Date)
		fmt.Fprintf(&b, "    <id>%s</id>\n    <link href=\"%s\"/>\n", xmlEscape(abs+w.URL), xmlEscape(abs+w.URL))
		fmt.Fprintf(&b, "    <updated>%s</updated>\n", w.Updated.Format(time.RFC3339))
		fmt.Fprintf(&b, "    <summary>%s. %d artifact comparisons made in total.</summary>\n  </entry>\n", xmlEscape(w.Counts), w.Pairs)
	}
	b.WriteString("</feed>\n")
	return []byte(b.String())
}
