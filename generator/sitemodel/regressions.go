package sitemodel

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/generator/report"
	"github.com/perfpages/perfpages/generator/route"
)

// The regressions page (/regressions/) and its Atom feed list the step
// changes found along each series' main-line history (Options.Steps,
// analysis.Steps): the changes nobody compared. Each step names
// the first artifact after it and the last before it, so the commits it
// may have come from; steps of one such range are grouped, newest range
// first.
//
// Which steps: the open ones, regressions and improvements in two lists
// (regressions first: they need someone; improvements are worth knowing
// of but ask for nothing), and in a folded list the acknowledged ones,
// those with an annotation of annotations.yaml for their series at one of
// their candidate artifacts (analysis.Step.Acknowledgements). Each open
// step offers the annotations.yaml entry that marks it as a distribution
// change; pasted, it makes the step's artifact a break for step detection
// and the lookback z-score alike, so the next build no longer finds the
// step and lists the annotation among the accepted distribution changes.
// The feed carries the open regressions only: it is an alert, and an
// improvement needs none.
//
// Size: a change that moves many series (a compiler upgrade, a new
// machine) makes many steps, so each list shows at most MaxStepRows steps,
// whole ranges, newest first, and says how many it leaves out; the feed
// holds the newest MaxFeedEntries ranges. The benchmark pages mark every
// step on the history charts whatever the caps.

// Caps of the regressions page and feed.
const (
	// MaxStepRows is the most steps a list of the regressions page shows
	// (whole ranges: the first range is cut only when it alone has more).
	MaxStepRows = 100
	// MaxFeedEntries is the most ranges the feed holds.
	MaxFeedEntries = 50
	// MaxCandidates is the most candidate commits a range names.
	MaxCandidates = 12
	// MaxAccepted is the most distribution changes the page lists, and
	// MaxAcceptedSeries the most series named for each.
	MaxAccepted       = 50
	MaxAcceptedSeries = 10
)

// Regressions is the regressions page.
type Regressions struct {
	// Detected is the number of steps found along the main line.
	Detected     int      `json:"detected"`
	Regressions  StepList `json:"regressions"`
	Improvements StepList `json:"improvements"`
	Acknowledged StepList `json:"acknowledged"`
	// Accepted are the distribution changes annotations.yaml marks on the
	// main line, newest first: changes accepted as the new normal, where
	// step detection starts afresh.
	Accepted      []Accepted `json:"accepted,omitempty"`
	AcceptedTotal int        `json:"accepted_total"`
	Feed          string     `json:"feed"` // site-relative
	// MinSegment is the fewest results a step needs on each side
	// (changepoint.Options.MinSegment of [analysis.steps]), and
	// MinSegmentBy the metrics whose [metrics."name".steps] ask another
	// number: a page without steps says why. MainLine is the number of
	// main-line commits.
	MinSegment   int           `json:"min_segment"`
	MinSegmentBy []MetricCount `json:"min_segment_by,omitempty"`
	MainLine     int           `json:"main_line"`
}

// MetricCount is a number that applies to one metric.
type MetricCount struct {
	Metric string `json:"metric"`
	N      int    `json:"n"`
}

// TooShort is whether the main line is too short for any step: it needs
// MinSegment results on each side, of every metric.
func (r Regressions) TooShort() bool {
	least := r.MinSegment
	for _, m := range r.MinSegmentBy {
		least = min(least, m.N)
	}
	return r.MainLine < 2*least
}

// StepList is one list of steps, grouped by culprit range.
type StepList struct {
	Groups []StepGroup `json:"groups"`
	// Steps and Ranges count the whole list, Shown the steps on the page.
	Steps  int `json:"steps"`
	Ranges int `json:"ranges"`
	Shown  int `json:"shown"`
}

// Hidden is the number of steps the page leaves out.
func (l StepList) Hidden() int { return l.Steps - l.Shown }

// StepGroup is the steps of one culprit range: after Last, up to and
// including Artifact.
type StepGroup struct {
	Anchor   string   `json:"anchor"`
	Artifact Artifact `json:"artifact"` // the first main-line artifact after the steps
	Last     Artifact `json:"last"`     // the last one before them with a value
	// Candidates are the main-line artifacts the steps may have come
	// from, oldest first, when there are several (at most MaxCandidates;
	// CandidateCount counts them all).
	Candidates     []Artifact `json:"candidates,omitempty"`
	CandidateCount int        `json:"candidate_count"`
	// CompareURL compares Last with Artifact on the site; RepoCompare
	// lists the commits between them on the repository's site ("" when
	// not configured).
	CompareURL  string     `json:"compare_url"`
	RepoCompare string     `json:"repo_compare,omitempty"`
	Steps       []StepView `json:"steps"`
}

// StepView is one step of a series, every cell formatted.
type StepView struct {
	Benchmark string       `json:"benchmark"`
	BenchURL  string       `json:"bench_url"` // the series on its benchmark's page
	Params    model.Params `json:"params,omitempty"`
	Context   model.Params `json:"context,omitempty"`
	Category  string       `json:"category"`
	Metric    string       `json:"metric"`
	Machine   string       `json:"machine"`
	// Change is the relative change of the level ("+1.50%"; "new" from a
	// level of 0), Before and After the levels (medians either side).
	Change string `json:"change"`
	Before string `json:"before"`
	After  string `json:"after"`
	// P is the permutation test's p-value, "" when the method has none.
	P     string `json:"p,omitempty"`
	Class string `json:"class"` // regression or improvement
	// Detected is when the step was confirmed (see report.StepDetected).
	Detected  time.Time `json:"detected"`
	Sparkline Sparkline `json:"sparkline"`
	// Snippet is the annotations.yaml entry that marks the step as a
	// distribution change (open steps).
	Snippet string `json:"snippet,omitempty"`
	// Acks are the notes of the annotations that acknowledge it.
	Acks []string `json:"acks,omitempty"`
}

// Accepted is a distribution change of annotations.yaml on the main line.
type Accepted struct {
	Artifact Artifact `json:"artifact"`
	Note     string   `json:"note,omitempty"`
	// Selector says which series the annotation selects, as written.
	Selector string `json:"selector"`
	// Series are the first MaxAcceptedSeries series it selects (of
	// SeriesCount), linked to their history.
	Series      []SeriesLink `json:"series"`
	SeriesCount int          `json:"series_count"`
}

// SeriesLink names a series and links to its history.
type SeriesLink struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// regressions plans the regressions page and its feed.
func (p *planner) regressions(ctx context.Context) error {
	d := p.d
	var reg, imp, ack []analysis.Step
	for _, st := range p.res.Steps() {
		switch {
		case len(st.Acknowledgements(d)) > 0:
			ack = append(ack, st)
		case st.Regression:
			reg = append(reg, st)
		default:
			imp = append(imp, st)
		}
	}
	regGroups := p.groupSteps(reg)
	v := Regressions{Detected: len(p.res.Steps()), Feed: route.RegressionsFeed,
		Regressions: p.stepList("regression", regGroups, len(reg), true), Improvements: p.stepList("improvement", p.groupSteps(imp), len(imp), true),
		Acknowledged: p.stepList("acknowledged", p.groupSteps(ack), len(ack), false)}
	v.Accepted, v.AcceptedTotal = p.accepted()
	v.MainLine = len(d.MainLine)
	v.MinSegment, v.MinSegmentBy = p.minSegments()
	if err := p.out(Output{Path: route.Regressions, Layout: "regressions", Title: "Regressions", Sitemap: true}, func(o *Output) error {
		o.Data = v
		return nil
	}); err != nil {
		return err
	}
	shown := map[string]bool{}
	for _, g := range v.Regressions.Groups {
		shown[g.Anchor] = true
	}
	return p.out(Output{Path: route.RegressionsFeed, Layout: "regressions-feed.xml"}, func(o *Output) error {
		o.Data = p.regressionsFeed(regGroups, shown)
		return nil
	})
}

// minSegments is the fewest results a step needs on each side, the
// site's and, in metric order, each metric's that differs from it.
func (p *planner) minSegments() (int, []MetricCount) {
	of := p.opts.StepOptions
	if of == nil {
		of = func(string) changepoint.Options { return changepoint.DefaultOptions }
	}
	site := of("").MinSegment
	metrics := map[string]bool{}
	for _, s := range p.d.Series {
		metrics[s.Metric.Name] = true
	}
	var by []MetricCount
	for _, m := range slices.Sorted(maps.Keys(metrics)) {
		if n := of(m).MinSegment; n != site {
			by = append(by, MetricCount{Metric: m, N: n})
		}
	}
	return site, by
}

// stepGroup is the steps of one culprit range, before formatting.
type stepGroup struct {
	last, artifact int
	steps          []analysis.Step
}

// groupSteps groups steps by culprit range, newest range first (by the
// main-line position of the first artifact after, then of the last
// before), each range's steps by benchmark, machine, metric, parameters
// and context.
func (p *planner) groupSteps(steps []analysis.Step) []stepGroup {
	d := p.d
	idx := map[[2]int]int{}
	var out []stepGroup
	for _, st := range steps {
		k := [2]int{st.Last, st.Artifact}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, stepGroup{last: st.Last, artifact: st.Artifact})
		}
		out[i].steps = append(out[i].steps, st)
	}
	slices.SortFunc(out, func(a, b stepGroup) int {
		return cmp.Or(cmp.Compare(d.MainPos(b.artifact), d.MainPos(a.artifact)), cmp.Compare(d.MainPos(b.last), d.MainPos(a.last)))
	})
	for _, g := range out {
		slices.SortFunc(g.steps, func(a, b analysis.Step) int {
			x, y := d.Series[a.Series].Key, d.Series[b.Series].Key
			return cmp.Or(strings.Compare(x.Benchmark, y.Benchmark), strings.Compare(x.Machine, y.Machine),
				strings.Compare(x.Metric, y.Metric), strings.Compare(x.Params, y.Params), strings.Compare(x.Context, y.Context))
		})
	}
	return out
}

// stepList formats groups, the newest first, up to MaxStepRows steps.
// kind prefixes the groups' anchors; open steps get their snippet.
func (p *planner) stepList(kind string, groups []stepGroup, total int, open bool) StepList {
	l := StepList{Groups: []StepGroup{}, Steps: total, Ranges: len(groups)}
	values := map[int][]float64{} // series → main-line values, for the sparklines
	for _, g := range groups {
		if l.Shown >= MaxStepRows {
			break
		}
		steps := g.steps
		if l.Shown+len(steps) > MaxStepRows {
			if l.Shown > 0 {
				break
			}
			steps = steps[:MaxStepRows]
		}
		l.Groups = append(l.Groups, p.stepGroup(kind, g, steps, open, values))
		l.Shown += len(steps)
	}
	return l
}

func (p *planner) stepGroup(kind string, g stepGroup, steps []analysis.Step, open bool, values map[int][]float64) StepGroup {
	d := p.d
	first := steps[0]
	v := StepGroup{
		Anchor:   kind + "-" + p.routes.ArtifactSegment(d.Artifacts[g.artifact].ID) + "-" + p.routes.ArtifactSegment(d.Artifacts[g.last].ID),
		Artifact: p.artifact(g.artifact), Last: p.artifact(g.last),
		CompareURL: report.StepComparePath(d, p.routes, first), RepoCompare: p.links.StepRepoCompare(d, first),
	}
	cands := first.Candidates(d)
	v.CandidateCount = len(cands)
	if len(cands) > 1 {
		for _, a := range cands[:min(len(cands), MaxCandidates)] {
			v.Candidates = append(v.Candidates, p.artifact(a))
		}
	}
	for _, st := range steps {
		vals, ok := values[st.Series]
		if !ok {
			vals = d.MainLineValues(d.Series[st.Series])
			values[st.Series] = vals
		}
		v.Steps = append(v.Steps, p.stepView(st, vals, open))
	}
	return v
}

// stepView formats one step; vals are its series' main-line values.
func (p *planner) stepView(st analysis.Step, vals []float64, open bool) StepView {
	d := p.d
	s := d.Series[st.Series]
	unit := s.Metric.Unit
	v := StepView{
		Benchmark: s.Case.Benchmark, BenchURL: p.seriesURL(s), Params: s.Case.Params, Context: s.Context,
		Category: string(s.Case.Category), Metric: s.Metric.Name, Machine: s.Key.Machine,
		Change: report.FormatStepChange(st.Change), Before: analysis.FormatValue(st.Before, unit), After: analysis.FormatValue(st.After, unit),
		Class: "improvement", Detected: report.StepDetected(d, st),
	}
	if st.Regression {
		v.Class = "regression"
	}
	if !math.IsNaN(st.P) {
		v.P = report.FormatP(st.P)
	}
	v.Sparkline = sparkline(vals, st, s.Case.String()+" "+s.Metric.Name+" on "+s.Key.Machine+": "+v.Before+" → "+v.After)
	if open {
		v.Snippet = strings.Replace(annotationSnippet(s), "@ARTIFACT@", strconv.Quote(d.Artifacts[st.Artifact].ID), 1)
	}
	for _, an := range st.Acknowledgements(d) {
		v.Acks = append(v.Acks, report.AckNote(an))
	}
	return v
}

// seriesURL is a series' history on its benchmark's page.
func (p *planner) seriesURL(s *model.Series) string {
	return p.routes.Bench(s.Case.Benchmark) + "#" + seriesAnchor(s.Key)
}

// seriesAnchor is the id of a series' section on its benchmark's page.
func seriesAnchor(k model.SeriesKey) string { return "series-" + slug.Name(seriesChartKey(k)) }

// accepted lists the distribution changes annotated on the main line,
// newest first (at most MaxAccepted), and counts them all.
func (p *planner) accepted() ([]Accepted, int) {
	d := p.d
	if d.Annotations == nil {
		return nil, 0
	}
	arts := d.Annotations.Artifacts()
	slices.SortStableFunc(arts, func(a, b int) int { return cmp.Compare(d.MainPos(b), d.MainPos(a)) })
	var out []Accepted
	total := 0
	for _, a := range arts {
		if d.MainPos(a) < 0 {
			continue
		}
		// The annotations at a, in file order, with the series each
		// selects.
		var order []*model.Annotation
		selected := map[*model.Annotation][]*model.Series{}
		for _, s := range d.Series {
			for _, an := range d.Annotations.For(s, a) {
				if an.Kind != model.DistributionChange {
					continue
				}
				if _, ok := selected[an]; !ok {
					order = append(order, an)
				}
				selected[an] = append(selected[an], s)
			}
		}
		slices.SortStableFunc(order, func(x, y *model.Annotation) int { return strings.Compare(x.Origin, y.Origin) })
		for _, an := range order {
			total++
			if len(out) >= MaxAccepted {
				continue
			}
			series := selected[an]
			x := Accepted{Artifact: p.artifact(a), Note: an.Note, Selector: selectorText(an), SeriesCount: len(series)}
			for _, s := range series[:min(len(series), MaxAcceptedSeries)] {
				x.Series = append(x.Series, SeriesLink{Name: s.Key.String(), URL: p.seriesURL(s)})
			}
			out = append(out, x)
		}
	}
	return out, total
}

// selectorText is the series an annotation selects, as written.
func selectorText(an *model.Annotation) string {
	var parts []string
	if an.Benchmark != "" {
		parts = append(parts, "benchmark "+an.Benchmark)
	}
	if an.HasParams {
		parts = append(parts, "params {"+an.Params.String()+"}")
	}
	if an.Metric != "" {
		parts = append(parts, "metric "+an.Metric)
	}
	if an.Machine != "" {
		parts = append(parts, "machine "+an.Machine)
	}
	if len(parts) == 0 {
		return "every series"
	}
	return strings.Join(parts, ", ")
}

// regressionsFeed is the Atom feed of the open regressions: one entry per
// culprit range, the newest MaxFeedEntries. An entry is dated when its
// newest step was confirmed, so a reader sees a step when it is found,
// not (three commits earlier) when it happened. It links to the range on
// the regressions page when the page shows it (shown, by anchor), else to
// the comparison of the range.
func (p *planner) regressionsFeed(groups []stepGroup, shown map[string]bool) Feed {
	d := p.d
	abs := p.opts.Root()
	feed := Feed{Title: p.opts.Title + ": regressions", ID: abs + route.Regressions, Self: abs + route.RegressionsFeed, Updated: time.Unix(0, 0).UTC()}
	if n := len(d.MainLine); n > 0 {
		feed.Updated = d.Artifacts[d.MainLine[n-1]].Date
	}
	feed.Entries = []FeedEntry{}
	name := func(st analysis.Step) string {
		s := d.Series[st.Series]
		return s.Case.String() + " " + s.Metric.Name + " on " + s.Key.Machine
	}
	for _, g := range groups[:min(len(groups), MaxFeedEntries)] {
		art := d.Artifacts[g.artifact]
		anchor := "regression-" + p.routes.ArtifactSegment(art.ID) + "-" + p.routes.ArtifactSegment(d.Artifacts[g.last].ID)
		e := FeedEntry{ID: abs + route.Regressions + "#" + anchor, URL: abs + route.Regressions + "#" + anchor}
		if !shown[anchor] {
			e.URL = abs + report.StepComparePath(d, p.routes, g.steps[0])
		}
		largest := g.steps[0]
		var lines []string
		for i, st := range g.steps {
			if t := report.StepDetected(d, st); t.After(e.Updated) {
				e.Updated = t
			}
			if math.Abs(st.Change) > math.Abs(largest.Change) {
				largest = st
			}
			if i < 10 {
				lines = append(lines, name(st)+": "+report.FormatStepChange(st.Change))
			}
		}
		if n := len(g.steps) - len(lines); n > 0 {
			lines = append(lines, fmt.Sprintf("and %d more", n))
		}
		title := art.Label()
		if art.Title != "" {
			title += " " + art.Title
		}
		size := report.FormatStepChange(largest.Change)
		if math.IsInf(largest.Change, 0) {
			size = "new (from 0)"
		}
		if len(g.steps) == 1 {
			e.Title = fmt.Sprintf("%s: %s %s", title, name(largest), size)
		} else {
			e.Title = fmt.Sprintf("%s: %d series regressed, up to %s", title, len(g.steps), size)
		}
		e.Summary = strings.Join(lines, "; ") + "."
		feed.Entries = append(feed.Entries, e)
	}
	return feed
}

// Sparkline is a small inline chart of a series' main-line values around
// a step, drawn by the template as SVG: readable without JavaScript.
// Coordinates are in the SVG's user units, formatted with one decimal.
type Sparkline struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// Before and After are the values either side of the step, as
	// polyline points ("x,y x,y …").
	Before string `json:"before"`
	After  string `json:"after"`
	// StepX is where the step is drawn, between the two sides.
	StepX string `json:"step_x"`
	// LevelBefore and LevelAfter are the y of the two levels (the
	// medians), drawn across their side.
	LevelBefore string `json:"level_before"`
	LevelAfter  string `json:"level_after"`
	// X0 and X1 are the ends of the two sides' values.
	X0 string `json:"x0"`
	X1 string `json:"x1"`
	// Label describes the chart for screen readers.
	Label string `json:"label"`
}

// The sparkline's geometry: SparkSide values either side of the step.
const (
	SparkSide   = 12
	sparkWidth  = 120
	sparkHeight = 28
	sparkPad    = 2
)

// sparkline draws the values of vals around step st: up to SparkSide
// values before it (back from Prev) and from it (on from Index), missing
// positions left out, scaled to the box with the levels in range.
func sparkline(vals []float64, st analysis.Step, label string) Sparkline {
	var before, after []float64
	for i := st.Prev; i >= 0 && len(before) < SparkSide; i-- {
		if v := vals[i]; !math.IsNaN(v) && !math.IsInf(v, 0) {
			before = append(before, v)
		}
	}
	slices.Reverse(before)
	for i := st.Index; i < len(vals) && len(after) < SparkSide; i++ {
		if v := vals[i]; !math.IsNaN(v) && !math.IsInf(v, 0) {
			after = append(after, v)
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range slices.Concat(before, after, []float64{st.Before, st.After}) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	n := len(before) + len(after)
	dx := float64(sparkWidth-2*sparkPad) / float64(max(n-1, 1))
	x := func(i int) float64 { return sparkPad + float64(i)*dx }
	y := func(v float64) float64 {
		if !(hi > lo) {
			return sparkHeight / 2
		}
		return sparkPad + (hi-v)/(hi-lo)*(sparkHeight-2*sparkPad)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	points := func(vs []float64, from int) string {
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = f(x(from+i)) + "," + f(y(v))
		}
		return strings.Join(parts, " ")
	}
	sp := Sparkline{Width: sparkWidth, Height: sparkHeight, Label: label,
		Before: points(before, 0), After: points(after, len(before)),
		X0: f(x(0)), X1: f(x(max(n-1, 0))), StepX: f((x(len(before)-1) + x(len(before))) / 2)}
	level := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return f(y(v))
	}
	sp.LevelBefore, sp.LevelAfter = level(st.Before), level(st.After)
	return sp
}
