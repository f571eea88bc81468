// Package report turns comparisons and triage reports into the documents
// people and tools read: the JSON of `perfpages compare -format json` and
// of the site's /data/ files (a contract other tools read), plain text for
// a terminal, the Markdown a bot posts on a PR, and the weekly triage
// report in Markdown (its source of truth; the site renders it to HTML) and
// JSON.
//
// It is part of the site model stage (see the architecture section of the
// README), between analysis and the outside world: it formats, it does not
// compute. Every number comes from an analysis.Comparison or
// analysis.TriageReport.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/internal/mdtext"
)

// Links builds the URLs documents point to.
type Links struct {
	// Site is the site's base: an absolute URL ("https://x.github.io/bench/")
	// or the base path ("/"), ending in a slash.
	Site string
	// Repository is the project's web home (GitHub style), or "".
	Repository string
	// URL patterns on the repository's web site, for hosts that are not
	// GitHub-style: {sha}, {pr}, {base} and {head} are replaced. Empty
	// patterns follow from Repository: <repo>/commit/{sha},
	// <repo>/pull/{pr} and <repo>/compare/{base}...{head}.
	CommitPattern, PRPattern, ComparePattern string
	// Routes is the site's URL table; nil: the paths of names as they
	// are, without the table's disambiguation.
	Routes *route.Table
	// Shown are the comparisons the site pre-renders and the PRs that
	// have a page (Routes.Shown of the dataset). nil: only the
	// comparisons of consecutive main-line commits are known to have a
	// page (their commit's), and no PR is.
	Shown *route.Shown
}

func (l Links) routes() *route.Table {
	if l.Routes != nil {
		return l.Routes
	}
	return &route.Table{}
}

func (l Links) pattern(p, def string) string {
	if p != "" {
		return p
	}
	if r := strings.TrimSuffix(l.Repository, "/"); r != "" {
		return r + def
	}
	return ""
}

// RepoCommit is a commit on the repository's web site, "" when unknown.
func (l Links) RepoCommit(sha string) string {
	return strings.ReplaceAll(l.pattern(l.CommitPattern, "/commit/{sha}"), "{sha}", sha)
}

// RepoPR is a PR on the repository's web site, "" when unknown.
func (l Links) RepoPR(n int) string {
	return strings.ReplaceAll(l.pattern(l.PRPattern, "/pull/{pr}"), "{pr}", strconv.Itoa(n))
}

// RepoCompare is the repository's diff between two commits, "" when
// unknown.
func (l Links) RepoCompare(base, head string) string {
	p := l.pattern(l.ComparePattern, "/compare/{base}...{head}")
	return strings.NewReplacer("{base}", base, "{head}", head).Replace(p)
}

func (l Links) site() string {
	if l.Site == "" {
		return "/"
	}
	return strings.TrimSuffix(l.Site, "/") + "/"
}

// Compare is where the site shows base against head: the page that
// shows the pair when the site pre-renders it (a main-line commit's page,
// a PR's, a week's range; see route.Shown), else the compare form with
// the pair filled in, which computes a pair of main-line commits in the
// browser and names the command for any other. A link never points to a
// /compare/<a>...<b>/ page the site does not have.
func (l Links) Compare(d *model.Dataset, base, head int) string {
	u, _ := l.ComparePage(d, base, head)
	return u
}

// ComparePage is Compare, and whether it is the pair's pre-rendered page
// (which has the comparison's anchors: its metrics' tabs and rows).
func (l Links) ComparePage(d *model.Dataset, base, head int) (string, bool) {
	if l.Shown != nil {
		if p, ok := l.Shown.Page(base, head); ok {
			return l.site() + p, true
		}
	} else if prev, ok := d.Previous(head); ok && prev == base {
		return l.Commit(d, head), true
	}
	return l.site() + route.CompareForm(d.Artifacts[base].ID, d.Artifacts[head].ID), false
}

// Commit is a main-line commit's page.
func (l Links) Commit(d *model.Dataset, a int) string {
	return l.site() + l.routes().Commit(d.Artifacts[a].ID)
}

// PR is a PR on the repository when one is configured, else its page on
// the site, "" when it has none (Shown says which have one; without
// Shown, none is known to).
func (l Links) PR(n int) string {
	if u := l.RepoPR(n); u != "" {
		return u
	}
	if l.Shown == nil || !l.Shown.HasPR(n) {
		return ""
	}
	return l.site() + route.PR(n)
}

// prRef is PR n as a document names it: "[#n](link)", or "#n" when it
// has no link (GitHub links a bare #n to the repository's PR).
func (l Links) prRef(n int) string {
	if u := l.PR(n); u != "" {
		return fmt.Sprintf("[#%d](%s)", n, mdtext.URL(u))
	}
	return fmt.Sprintf("#%d", n)
}

// ArtifactJSON is an artifact in the JSON documents.
type ArtifactJSON struct {
	ID    string    `json:"id"`
	Date  time.Time `json:"date"`
	PR    *int      `json:"pr"` // null when the artifact is not a PR's
	Title string    `json:"title"`
}

// SeriesJSON names the series a result or a step is of; its fields come
// evidenceJSON is what row r's headline verdict rests on, nil when it has
// none (the rustc-perf models; too little history).
func evidenceJSON(d *model.Dataset, r *analysis.Row) *EvidenceJSON {
	v := r.Headline
	if v.Width == 0 || v.State == analysis.StateYoung {
		return nil
	}
	e := &EvidenceJSON{NoiseWidth: round4(v.Width), History: v.History, Level: round4(v.Level), Widths: round4(v.Widths), Large: v.Large}
	if v.ConfirmedAt >= 0 && v.ConfirmedAt < len(d.MainLine) {
		e.ConfirmedBy = d.Artifacts[d.MainLine[v.ConfirmedAt]].ID
	}
	return e
}

// round4 rounds to 4 significant figures, what the JSON needs of a noise.
func round4(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return f
}

// first in both documents.
type SeriesJSON struct {
	Benchmark string            `json:"benchmark"`
	Category  string            `json:"category"`
	Params    map[string]string `json:"params"`
	Metric    string            `json:"metric"`
	Unit      string            `json:"unit"`
	Direction string            `json:"direction"`
	Machine   string            `json:"machine"`
	Context   map[string]string `json:"context,omitempty"`
}

func seriesJSON(s *model.Series) SeriesJSON {
	j := SeriesJSON{
		Benchmark: s.Case.Benchmark, Category: string(s.Case.Category), Params: paramsMap(s.Case.Params),
		Metric: s.Metric.Name, Unit: s.Metric.Unit, Direction: string(s.Metric.Direction), Machine: s.Key.Machine,
	}
	if len(s.Context) > 0 {
		j.Context = paramsMap(s.Context)
	}
	return j
}

// ResultJSON is one test case × metric (on one machine) of a comparison.
// Field names are a contract (the README's Analysis section lists them,
// TestCompareJSONFields pins them). Machine and context are among them
// because a result is not identified without them; base, head and change are null when a value is missing (a failed
// benchmark has error set).
type ResultJSON struct {
	SeriesJSON
	Base   *float64 `json:"base"`
	Head   *float64 `json:"head"`
	Change *float64 `json:"change"`
	// FromZero marks a change from a base value of 0: change is null (an
	// infinite relative change is no JSON number) and the row counts as a
	// very large change in the metric's direction.
	FromZero              bool     `json:"from_zero,omitempty"`
	SignificanceThreshold *float64 `json:"significance_threshold"`
	SignificanceFactor    *float64 `json:"significance_factor"`
	Significant           bool     `json:"significant"`
	// SignificanceBasis says what decided significant
	// (analysis.SignificanceBasis): under model perfpages "persistence" (a
	// main-line commit against its parent: out of its series' noise, and
	// it stayed), "noise" (any other pair: out of the base's noise) or
	// "not-enough-history"; under model rustc-perf "history" (the IQR
	// fence of 30 values of history) or "short-history" (0.2 %); under
	// model rustc-perf-2021 "rustc-perf-2021". Null without a change.
	SignificanceBasis *string `json:"significance_basis"`
	// State is the headline's state under model perfpages
	// (analysis.State): "confirmed", "unconfirmed" (out of the noise, too
	// few later values yet; relevant only when too large to wait),
	// "spike" (the next values came back), "gradual" (part of a drift),
	// "not-enough-history"; omitted for a change inside the noise and
	// under the rustc-perf models. Relevant is the headline itself.
	State string `json:"state,omitempty"`
	// Evidence is what the headline rests on (model perfpages).
	Evidence  *EvidenceJSON `json:"evidence,omitempty"`
	Magnitude *string       `json:"magnitude"`
	Relevant  bool          `json:"relevant"`
	Error     string        `json:"error,omitempty"`

	// The other engines, where computable; a null value comes with a note
	// saying why.
	ZScore     *float64      `json:"z_score"` // Conbench's lookback z-score, 4 significant figures; positive = improvement
	ZScoreNote string        `json:"z_score_note,omitempty"`
	Lookback   *LookbackJSON `json:"lookback,omitempty"`
	PValue     *float64      `json:"p_value"`                // Criterion's where both sides have iteration counts, else Mann–Whitney U
	PValueNote string        `json:"p_value_note,omitempty"` // why p_value is null
	Test       *TestJSON     `json:"test,omitempty"`
	Budget     *BudgetJSON   `json:"budget"` // null when the metric has no budget
}

// EvidenceJSON is what a headline verdict rests on: the series' noise at
// the base (a run-to-run width of log values, about a relative standard
// deviation, with within-run evidence added), how many values of history
// it was measured on, the level the change is measured from, the change
// in widths, whether it is too large to wait for later values, and for a
// confirmed step the main-line commit whose value confirmed it.
type EvidenceJSON struct {
	NoiseWidth  float64 `json:"noise_width"`
	History     int     `json:"history"`
	Level       float64 `json:"level,omitempty"`
	Widths      float64 `json:"widths,omitempty"`
	Large       bool    `json:"large,omitempty"`
	ConfirmedBy string  `json:"confirmed_by,omitempty"`
}

// LookbackJSON is the distribution behind a z-score, as Conbench's
// analysis.lookback_z_score.
type LookbackJSON struct {
	ZThreshold           float64 `json:"z_threshold"`
	Mean                 float64 `json:"mean"`
	Std                  float64 `json:"std"`
	RegressionIndicated  bool    `json:"regression_indicated"`
	ImprovementIndicated bool    `json:"improvement_indicated"`
}

// TestJSON is the significance test of the samples.
type TestJSON struct {
	Method      string         `json:"method"` // "criterion" or "mann-whitney"
	Significant bool           `json:"significant"`
	Criterion   *CriterionJSON `json:"criterion,omitempty"`
}

// CriterionJSON is Criterion's comparison: Welch's t, the relative change
// of the mean with its bootstrap interval (positive = slower, Criterion's
// sign), the median change's point estimate and the verdict in the
// metric's terms.
type CriterionJSON struct {
	T            *float64     `json:"t"` // null when both samples are constant and differ (±∞)
	MeanChange   EstimateJSON `json:"mean_change"`
	MedianChange float64      `json:"median_change"`
	Verdict      string       `json:"verdict"` // improved | regressed | no change | within noise
	NResamples   int          `json:"nresamples"`
}

// EstimateJSON is a point estimate with its confidence interval.
type EstimateJSON struct {
	Estimate        float64 `json:"estimate"`
	Lower           float64 `json:"lower"`
	Upper           float64 `json:"upper"`
	ConfidenceLevel float64 `json:"confidence_level"`
}

// BudgetJSON is a perfgate budget's verdict on a row (the fields of a
// compare receipt's delta and budget).
type BudgetJSON struct {
	Status        string   `json:"status"` // pass | warn | fail | skip
	Threshold     float64  `json:"threshold"`
	WarnThreshold float64  `json:"warn_threshold"`
	Direction     string   `json:"direction"`
	Statistic     string   `json:"statistic"`
	Baseline      float64  `json:"baseline"`
	Current       float64  `json:"current"`
	Regression    float64  `json:"regression"`
	CV            *float64 `json:"cv,omitempty"`
	Reason        string   `json:"reason,omitempty"`
}

// StatsJSON are count, mean, min and max of relative changes (fractions).
// Changes from 0 count in count and from_zero but not in mean, min and
// max, which are those of the finite changes (analysis.ChangeStats).
type StatsJSON struct {
	Count    int     `json:"count"`
	Mean     float64 `json:"mean"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	FromZero int     `json:"from_zero,omitempty"`
}

// CategoryJSON summarizes one category.
type CategoryJSON struct {
	Regressions  StatsJSON `json:"regressions"`
	Improvements StatsJSON `json:"improvements"`
	All          StatsJSON `json:"all"`
}

// SummaryJSON is a comparison's summary.
type SummaryJSON struct {
	Direction         string       `json:"direction"`
	Relevance         string       `json:"relevance"`
	Confidence        string       `json:"confidence"`
	DeservesAttention bool         `json:"deserves_attention"`
	Primary           CategoryJSON `json:"primary"`
	Secondary         CategoryJSON `json:"secondary"`
}

// CompareJSON is the document of `perfpages compare -format json` and of
// the site's /data/compare/<a>...<b>.json.
type CompareJSON struct {
	Base    ArtifactJSON `json:"base"`
	Head    ArtifactJSON `json:"head"`
	Results []ResultJSON `json:"results"`
	Summary SummaryJSON  `json:"summary"`
}

func artifactJSON(a model.Artifact) ArtifactJSON {
	j := ArtifactJSON{ID: a.ID, Date: a.Date.UTC(), Title: a.Title}
	if a.PR > 0 {
		pr := a.PR
		j.PR = &pr
	}
	return j
}

func paramsMap(p model.Params) map[string]string {
	m := make(map[string]string, len(p))
	for _, kv := range p {
		m[kv.Key] = kv.Value
	}
	return m
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// Rows returns the rows of c for metric ("" for all), in c's order.
func Rows(c *analysis.Comparison, metric string) []*analysis.Row {
	var rows []*analysis.Row
	for i := range c.Rows {
		if metric == "" || c.Rows[i].Series.Metric.Name == metric {
			rows = append(rows, &c.Rows[i])
		}
	}
	return rows
}

// Summary summarizes the rows of c for metric; with metric "" it
// summarizes every metric together (directions joined through the
// category rules, relevance from all significant changes).
func Summary(c *analysis.Comparison, metric string) analysis.MetricSummary {
	if metric != "" {
		if m, ok := c.Metric(metric); ok {
			return *m
		}
	}
	return analysis.SummarizeMetric(metric, Rows(c, metric), c.Options.Model)
}

// NewCompareJSON builds the JSON document of c restricted to metric ("" for
// every metric; the summary then covers them all).
func NewCompareJSON(d *model.Dataset, c *analysis.Comparison, metric string) CompareJSON {
	doc := CompareJSON{Base: artifactJSON(d.Artifacts[c.Base]), Head: artifactJSON(d.Artifacts[c.Head]), Results: []ResultJSON{}}
	for _, r := range Rows(c, metric) {
		s := r.Series
		res := ResultJSON{SeriesJSON: seriesJSON(s)}
		if r.Before != nil && r.Before.OK() {
			res.Base = finite(r.Before.Value)
		}
		if r.After != nil && r.After.OK() {
			res.Head = finite(r.After.Value)
		}
		if r.After != nil && r.After.Failure() != "" {
			res.Error = r.After.Failure()
		} else if r.Before != nil && r.Before.Failure() != "" {
			res.Error = "base: " + r.Before.Failure()
		}
		if r.OK {
			res.Change, res.FromZero = finite(r.Change), r.FromZero
			basis := string(r.Basis)
			res.SignificanceBasis = &basis
			res.SignificanceThreshold = finite(r.Threshold)
			res.SignificanceFactor = finite(r.Factor)
			res.Significant, res.Relevant = r.Significant, r.Relevant
			m := r.Magnitude.String()
			res.Magnitude = &m
			res.State, res.Evidence = string(r.Headline.State), evidenceJSON(d, r)
		}
		addEngines(&res, r)
		doc.Results = append(doc.Results, res)
	}
	doc.Summary = summaryJSON(Summary(c, metric))
	return doc
}

// addEngines fills the z-score, p-value and budget fields of res.
func addEngines(res *ResultJSON, r *analysis.Row) {
	if r.Z.OK {
		z := zscore.Round4(r.Z.Z)
		res.ZScore = &z
		res.Lookback = &LookbackJSON{ZThreshold: r.Z.Threshold, Mean: r.Z.Mean, Std: r.Z.Std, RegressionIndicated: r.Z.Regression, ImprovementIndicated: r.Z.Improvement}
	} else {
		res.ZScoreNote = r.Z.Reason
	}
	t := r.Test
	if t.OK {
		res.PValue = finite(t.P)
		res.Test = &TestJSON{Method: t.Method, Significant: t.Significant}
		if c := t.Criterion; c != nil {
			res.Test.Criterion = &CriterionJSON{
				T:            finite(c.T),
				MeanChange:   EstimateJSON{c.Mean.Point, c.Mean.Lower, c.Mean.Upper, c.Mean.ConfidenceLevel},
				MedianChange: c.Median.Point, Verdict: string(t.Verdict), NResamples: c.NResamples,
			}
		}
	}
	if !t.OK {
		res.PValueNote = t.Reason
	}
	if b := r.Budget; b != nil {
		res.Budget = &BudgetJSON{
			Status: string(b.Delta.Status), Threshold: b.Budget.Threshold, WarnThreshold: b.Budget.WarnThreshold,
			Direction: string(b.Budget.Direction), Statistic: string(b.Budget.Stat()),
			Baseline: b.Delta.Baseline, Current: b.Delta.Current, Regression: b.Delta.Regression, CV: b.Delta.CV, Reason: b.Reason,
		}
	}
}

func summaryJSON(m analysis.MetricSummary) SummaryJSON {
	return SummaryJSON{
		Direction: m.Direction.String(), Relevance: m.Relevance.String(), Confidence: m.Confidence.String(),
		DeservesAttention: m.DeservesAttention,
		Primary:           categoryJSON(m.Primary), Secondary: categoryJSON(m.Secondary),
	}
}

func categoryJSON(c analysis.CategorySummary) CategoryJSON {
	st := func(s analysis.ChangeStats) StatsJSON { return StatsJSON{s.Count, s.Mean, s.Min, s.Max, s.FromZero} }
	return CategoryJSON{Regressions: st(c.Regressions), Improvements: st(c.Improvements), All: st(c.All)}
}

// WriteJSON writes v as indented JSON with a final newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// artifactLine names an artifact: "#PR (sha, date)" or "sha (date)".
func artifactLine(a model.Artifact) string {
	day := a.Date.UTC().Format("2006-01-02")
	if a.PR > 0 && a.Kind != model.KindTag {
		return fmt.Sprintf("#%d (%s, %s)", a.PR, mdtext.Line(a.Short()), day)
	}
	return fmt.Sprintf("%s (%s)", mdtext.Line(a.Short()), day)
}

// pct is a relative change as rustc-perf prints it (FormatChange).

func metricNames(c *analysis.Comparison, metric string) []string {
	var names []string
	for _, m := range c.Metrics {
		if metric == "" || m.Metric == metric {
			names = append(names, m.Metric)
		}
	}
	return names
}

// WriteText writes a comparison for a terminal: per metric its verdict and
// a table of the relevant changes, largest first. A row's context is shown
// beside its test case where it tells rows apart (ContextKeys). Names, titles and errors
// from the data are printed through mdtext.Line: one line each, without
// control characters (no terminal escape sequence gets through).
func WriteText(w io.Writer, d *model.Dataset, c *analysis.Comparison, metric string, links Links) error {
	base, head := d.Artifacts[c.Base], d.Artifacts[c.Head]
	fmt.Fprintf(w, "base: %s %s\n", artifactLine(base), mdtext.Line(base.Title))
	fmt.Fprintf(w, "head: %s %s\n", artifactLine(head), mdtext.Line(head.Title))
	rows := Rows(c, metric)
	compared := 0
	for _, r := range rows {
		if r.OK {
			compared++
		}
	}
	sum := Summary(c, metric)
	zCapped := false
	fmt.Fprintf(w, "model %s: %d test cases compared; %s, relevance %s, %s", c.Options.Model, compared, sum.Direction, sum.Relevance, sum.Confidence)
	if sum.DeservesAttention {
		fmt.Fprint(w, ", deserves attention")
	}
	fmt.Fprintf(w, "\n%s\n", links.Compare(d, c.Base, c.Head))
	ctxKeys := ContextKeys(rows)
	for _, name := range metricNames(c, metric) {
		m, _ := c.Metric(name)
		var relevant []*analysis.Row
		others, small := 0, 0
		for _, r := range rows {
			if r.Series.Metric.Name != name {
				continue
			}
			switch {
			case r.Relevant:
				relevant = append(relevant, r)
			case r.OK && r.Significant:
				small++
				others++
			default:
				others++
			}
		}
		// The relevant changes are the rows listed; the significant ones
		// too small to be relevant are among the others (their sum is
		// the summary's Significant).
		fmt.Fprintf(w, "\n%s: %s, relevance %s, %d relevant\n", mdtext.Line(name), m.Direction, m.Relevance, len(relevant))
		slices.SortStableFunc(relevant, func(a, b *analysis.Row) int {
			return cmpFloat(math.Abs(b.Change), math.Abs(a.Change))
		})
		if len(relevant) > 0 {
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "    change\tthreshold\t  factor\tmagnitude\tbasis\t      z\t      p\tbudget\ttest case\tmachine")
			for _, r := range relevant {
				z, p, bud := "-", "-", "-"
				if r.Z.OK {
					z = FormatZ(r.Z.Z)
					zCapped = zCapped || ZIsCapped(r.Z.Z)
				}
				if r.Test.OK {
					p = analysis.FormatFixed(r.Test.P, 3)
				}
				if r.Budget != nil {
					bud = string(r.Budget.Delta.Status)
				}
				fmt.Fprintf(tw, "  %8s\t%9s\t%8s\t%s\t%s\t%7s\t%7s\t%s\t%s\t%s\n", FormatChange(r.Change), analysis.FormatPercent(r.Threshold, 2), FormatFactor(r.Factor),
					r.Magnitude, r.Basis, z, p, bud, mdtext.Line(caseName(r)+ContextLabel(r.Series, ctxKeys)), mdtext.Line(r.Series.Key.Machine))
			}
			tw.Flush()
		}
		if others > 0 {
			fmt.Fprintf(w, "  (%d test cases without a relevant change", others)
			if small > 0 {
				fmt.Fprintf(w, "; %d of them significant but too small to be relevant", small)
			}
			fmt.Fprint(w, ")\n")
		}
	}
	if note := basisNote(rows, c.Options); note != "" {
		fmt.Fprintf(w, "\nnote: %s.\n", note)
	}
	if zCapped {
		fmt.Fprintf(w, "\nz: %s.\n", ZCapped)
	}
	var failed []string
	for _, r := range rows {
		if r.After != nil && r.After.Failure() != "" {
			failed = append(failed, fmt.Sprintf("  %s %s on %s: %s", mdtext.Line(caseName(r)+ContextLabel(r.Series, ctxKeys)), mdtext.Line(r.Series.Metric.Name),
				mdtext.Line(r.Series.Key.Machine), mdtext.Line(r.After.Failure())))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(w, "\nfailed in head:\n%s\n", strings.Join(failed, "\n"))
	}
	return nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func caseName(r *analysis.Row) string { return r.Series.Case.String() }

// overallLine is rustc-perf's "Overall result" wording.
func overallLine(dir analysis.SummaryDirection) string {
	switch dir {
	case analysis.DirectionImprovement:
		return "✅ improvements"
	case analysis.DirectionRegression:
		return "❌ regressions"
	case analysis.DirectionMixed:
		return "❌✅ regressions and improvements"
	}
	return "no relevant changes"
}

// MaxCommentRows is how many changed results the PR comment lists; it
// counts the others and links the comparison.
const MaxCommentRows = 10

// Changed reports whether row r is a change the documents list: a
// counted change (relevant), one out of its series' noise that the
// headline does not count yet (unconfirmed) or at all (a spike), or a
// change of at least rustc-perf's short-history threshold (0.2 %) on a
// series too young for a noise model (not judged). Comparison pages
// pre-render these rows; every other row is within its noise.
func Changed(r *analysis.Row) bool {
	if !r.OK {
		return false
	}
	switch {
	case r.Relevant:
		return true
	case r.Headline.State == analysis.StateUnconfirmed, r.Headline.State == analysis.StateSpike:
		return true
	case r.Headline.State == analysis.StateYoung:
		return r.FromZero || math.Abs(r.Change) >= analysis.DefaultSignificanceThreshold
	}
	return false
}

// changeRank orders changed rows by what they mean for a reader: counted
// changes, then unconfirmed ones, spikes, and changes not judged.
func changeRank(r *analysis.Row) int {
	switch {
	case r.Relevant:
		return 0
	case r.Headline.State == analysis.StateUnconfirmed:
		return 1
	case r.Headline.State == analysis.StateSpike:
		return 2
	}
	return 3
}

// ChangedRows returns the changed rows (Changed) of c for metric ("" for
// all) by importance: counted regressions first (what a PR's author must
// look at: a comment that lists the first MaxCommentRows never hides a
// regression behind improvements), then counted improvements, unconfirmed
// changes, spikes and changes not judged; within each, the largest
// |change| first (a change from 0 first of all), then in c's order.
func ChangedRows(c *analysis.Comparison, metric string) []*analysis.Row {
	var rows []*analysis.Row
	for _, r := range Rows(c, metric) {
		if Changed(r) {
			rows = append(rows, r)
		}
	}
	slices.SortStableFunc(rows, func(a, b *analysis.Row) int {
		if ra, rb := changeRank(a), changeRank(b); ra != rb {
			return ra - rb
		}
		if a.Relevant && a.Regression != b.Regression {
			if a.Regression {
				return -1
			}
			return 1
		}
		return cmpFloat(math.Abs(b.Change), math.Abs(a.Change))
	})
	return rows
}

// verdictCell is what the PR comment's table says of a changed row: the
// counted direction with rustc-perf's marks, else the badge the site's
// pages give the row.
func verdictCell(r *analysis.Row) string {
	switch changeRank(r) {
	case 0:
		v := "✅ improvement"
		if r.Regression {
			v = "❌ regression"
		}
		if r.Headline.State == analysis.StateUnconfirmed {
			// Large: counted at once, before any later value.
			v += " (unconfirmed)"
		}
		return v
	case 1:
		return "unconfirmed"
	case 2:
		return "spike"
	}
	return "not enough history"
}

// badgeLegend explains the verdicts of rows the comment shows but does not
// count, by rank.
var badgeLegend = [4]string{1: "*unconfirmed*: out of its series' noise, too few later values yet to say whether it stays",
	2: "*spike*: out of its noise, and the next values came back", 3: "*not enough history*: too few values for a noise model, no verdict yet"}

// WriteMarkdown writes what a bot posts on a PR: the overall result line
// (rustc-perf's wording), the failures, then the changed results first —
// one table row each in ChangedRows' order (regressions, improvements,
// then the changes shown but not counted, the largest first), at most
// MaxCommentRows, "and N more"
// linking the comparison — and last the summary table of each metric
// (rustc-perf's summarize_run), folded. When nothing changed and nothing
// failed it is one line with the link.
//
// The comparison link goes to the page that shows the pair, or to the
// compare form when the site does not pre-render it (Links.Compare);
// metric headings link their tab only on a pre-rendered page.
//
// Everything from the data (artifact ids, metric, benchmark, parameter and
// machine names, units, error strings) goes through mdtext, and every
// link destination through mdtext.URL: no heading, link, image, mention
// or HTML can come from the data (FuzzMarkdownWriters).
func WriteMarkdown(w io.Writer, d *model.Dataset, c *analysis.Comparison, metric string, links Links) error {
	base, head := d.Artifacts[c.Base], d.Artifacts[c.Head]
	page, rendered := links.ComparePage(d, c.Base, c.Head)
	url := mdtext.URL(page)
	who := mdtext.Text(head.Short())
	if head.PR > 0 {
		who = links.prRef(head.PR) + " (" + who + ")"
	}
	rows := Rows(c, metric)
	ctxKeys := ContextKeys(rows)
	compared := 0
	machines := map[string]bool{}
	var failed []*analysis.Row
	for _, r := range rows {
		if r.OK {
			compared++
		}
		machines[r.Series.Key.Machine] = true
		if r.After != nil && r.After.Failure() != "" && (r.Before == nil || r.Before.Failure() == "") {
			failed = append(failed, r)
		}
	}
	changed := ChangedRows(c, metric)
	if len(changed) == 0 && len(failed) == 0 {
		fmt.Fprintf(w, "Finished benchmarking %s against %s: no relevant changes in %s compared. [Comparison](%s)\n", who, mdtext.Text(base.Short()), plural(compared, "result"), url)
		return nil
	}
	fmt.Fprintf(w, "Finished benchmarking %s against %s: [comparison URL](%s).\n\n", who, mdtext.Text(base.Short()), url)
	sum := Summary(c, metric)
	suffix := " - no action needed"
	switch {
	case len(failed) > 0:
		suffix = " - BENCHMARK(S) FAILED"
	case sum.DeservesAttention && (sum.Direction == analysis.DirectionRegression || sum.Direction == analysis.DirectionMixed):
		suffix = " - please read"
	}
	if sum.Direction == analysis.DirectionNone {
		suffix = strings.Replace(suffix, " - no action needed", "", 1)
	}
	fmt.Fprintf(w, "### Overall result: %s%s\n\n", overallLine(sum.Direction), suffix)
	if len(failed) > 0 {
		fmt.Fprintln(w, "> [!WARNING]")
		fmt.Fprintln(w, "> These benchmarks failed in this run but not in its baseline:")
		for _, r := range failed {
			fmt.Fprintf(w, "> - %s %s on %s: %s\n", mdtext.Code(caseName(r)+ContextLabel(r.Series, ctxKeys)), mdtext.Text(r.Series.Metric.Name), mdtext.Text(r.Series.Key.Machine), mdtext.Code(r.After.Failure()))
		}
		fmt.Fprintln(w)
	}
	if len(changed) > 0 {
		writeChanged(w, changed, compared, len(machines) > 1, ctxKeys, url)
	}
	writeMetricSummaries(w, c, metric, url, rendered)
	if note := basisNote(rows, c.Options); note != "" {
		// A footnote: how much history stood behind the thresholds.
		fmt.Fprintf(w, "<sub>Note: %s. Each result's `significance_basis` in the JSON says which rule decided.</sub>\n", note)
	}
	return nil
}

// writeChanged writes the PR comment's table of changed results (rows, by
// importance), its count line and what its verdicts mean.
func writeChanged(w io.Writer, rows []*analysis.Row, compared int, multi bool, ctxKeys []string, url string) {
	var ranks [4]int
	regressions := 0
	for _, r := range rows {
		ranks[changeRank(r)]++
		if changeRank(r) == 0 && r.Regression {
			regressions++
		}
	}
	var counted []string
	if regressions > 0 {
		counted = append(counted, plural(regressions, "regression"))
	}
	if n := ranks[0] - regressions; n > 0 {
		counted = append(counted, plural(n, "improvement"))
	}
	var shown []string
	if n := ranks[1]; n > 0 {
		shown = append(shown, fmt.Sprintf("%d unconfirmed", n))
	}
	if n := ranks[2]; n > 0 {
		shown = append(shown, plural(n, "spike"))
	}
	if n := ranks[3]; n > 0 {
		shown = append(shown, fmt.Sprintf("%d not judged (too little history)", n))
	}
	line := fmt.Sprintf("**%s** in %s compared", plural(len(rows), "change"), plural(compared, "result"))
	switch {
	case len(counted) > 0 && len(shown) > 0:
		line += ": " + strings.Join(counted, " and ") + " counted; " + strings.Join(shown, ", ") + " shown, not counted"
	case len(counted) > 0:
		line += ": " + strings.Join(counted, " and ") + " counted"
	default:
		line += ", none counted: " + strings.Join(shown, ", ")
	}
	fmt.Fprintf(w, "%s.\n\n", line)
	machine, align := "", ""
	if multi {
		machine, align = " Machine |", ":--|"
	}
	fmt.Fprintf(w, "| Benchmark | Metric |%s Before → After | Change | Verdict |\n|:--|:--|%s--:|--:|:--|\n", machine, align)
	for _, r := range rows[:min(len(rows), MaxCommentRows)] {
		unit := r.Series.Metric.Unit
		before, after := "", ""
		if r.Before != nil && r.Before.OK() {
			before = mdValue(r.Before.Value, unit)
		}
		if r.After != nil && r.After.OK() {
			after = mdValue(r.After.Value, unit)
		}
		cell := ""
		if multi {
			cell = " " + mdtext.Text(r.Series.Key.Machine) + " |"
		}
		fmt.Fprintf(w, "| %s | %s |%s %s → %s | %s | %s |\n", mdtext.CodeCell(caseName(r)+ContextLabel(r.Series, ctxKeys)), mdtext.Text(r.Series.Metric.Name), cell,
			before, after, FormatChange(r.Change), verdictCell(r))
	}
	if more := len(rows) - MaxCommentRows; more > 0 {
		fmt.Fprintf(w, "\n…and %d more on [the comparison page](%s).\n", more, url)
	}
	var legend []string
	for k := 1; k < 4; k++ {
		if ranks[k] > 0 {
			legend = append(legend, badgeLegend[k])
		}
	}
	if len(legend) > 0 {
		fmt.Fprintf(w, "\n<sub>%s.</sub>\n", strings.Join(legend, "; "))
	}
	fmt.Fprintln(w)
}

// mdValue is analysis.FormatValue for Markdown: the number as it is
// (digits, a point, commas, a sign, an exponent: nothing Markdown reads),
// the prefix and the unit, which come from the data, through mdtext.Text.
func mdValue(v float64, unit string) string {
	num, u := analysis.ValueParts(v, unit)
	if u == "" {
		return num
	}
	return num + " " + mdtext.Text(u)
}

// writeMetricSummaries writes rustc-perf's summary table of each metric
// with counted changes, folded, and names the metrics without any. A
// metric's name links its tab when the comparison's page is pre-rendered.
func writeMetricSummaries(w io.Writer, c *analysis.Comparison, metric, url string, rendered bool) {
	var quiet []string
	var tables strings.Builder
	for _, name := range metricNames(c, metric) {
		m, _ := c.Metric(name)
		label := mdtext.Text(name)
		if rendered {
			label = fmt.Sprintf("[%s](%s#%s)", label, url, slug.Metric(name))
		}
		if m.Primary.All.Count+m.Secondary.All.Count == 0 {
			quiet = append(quiet, label)
			continue
		}
		fmt.Fprintf(&tables, "**%s**\n\n%s\n", label, SummaryTable(m.Primary, m.Secondary, ""))
	}
	if tables.Len() > 0 {
		fmt.Fprintf(w, "<details>\n<summary>Summary tables by metric</summary>\n\n%s</details>\n\n", tables.String())
	}
	if len(quiet) > 0 {
		fmt.Fprintf(w, "No relevant changes in %s.\n\n", strings.Join(quiet, ", "))
	}
}
