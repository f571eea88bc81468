package sitemodel

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/criterion"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/analysis/zscore"
	"github.com/perfpages/perfpages/generator/internal/slug"
	"github.com/perfpages/perfpages/generator/report"
)

// ChartID turns any key (a series key, a comparison key) into an id that
// is deterministic and safe as a JavaScript identifier and an HTML id. Two
// charts on one page need different ids; with 48 bits of a SHA-256 two
// keys collide with probability about n²/2⁴⁹ for n charts.
func ChartID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "c_" + hex.EncodeToString(sum[:6])
}

// seriesChartKey names a series within its benchmark.
func seriesChartKey(k model.SeriesKey) string {
	return strings.Join([]string{k.Params, k.Metric, k.Machine, k.Context}, " ")
}

// seriesID is a series' id in data files and charts.
func seriesID(k model.SeriesKey) string { return ChartID(seriesChartKey(k)) }

// rowAnchor is the id of a series' row on a comparison page.
func rowAnchor(k model.SeriesKey) string {
	return "row-" + slug.Name(strings.Join([]string{k.Benchmark, k.Params, k.Metric, k.Machine, k.Context}, " "))
}

// rowBadges are the badge and its title a row's threshold cell shows when
// the threshold alone does not say how its change was judged: a state of
// model perfpages' headline other than nothing (analysis.State), a series
// with too little history for a noise model, rustc-perf's short-history
// default. site.js's renderRow has the same table: change both together.
var rowBadges = map[string][2]string{
	string(analysis.StateConfirmed):   {"confirmed", "Out of the series' noise, and it stayed: step detection confirmed a step at this commit"},
	string(analysis.StateUnconfirmed): {"unconfirmed", "Out of the series' noise, but too few later values yet to say whether it stays: shown, not counted until a later build confirms it"},
	string(analysis.StateSpike):       {"spike", "Out of the series' noise, and the next values came back: a one-off, not counted"},
	string(analysis.StateGradual):     {"gradual", "Part of a gradual change over several commits (the regressions page lists it): no single commit is its culprit"},
	string(analysis.BasisYoung):       {"not enough history", "Too few values of history for a noise model: no verdict yet"},
	string(analysis.BasisShort):       {"short history: 0.2 %", "Too little history for the IQR threshold: rustc-perf's default of 0.2 % (short-history)"},
}

// rowBadge is the badge of row r (see rowBadges) and its title, which
// ends with the evidence of a headline verdict (badgeEvidence).
func rowBadge(r *analysis.Row) (text, title string) {
	key := string(r.Headline.State)
	if key == "" || r.Basis == analysis.BasisYoung {
		key = string(r.Basis)
	}
	b, ok := rowBadges[key]
	if !ok {
		return "", ""
	}
	return b[0], b[1] + badgeEvidence(r)
}

// badgeEvidence is what a headline verdict rests on, for the end of its
// badge's title: the change in widths of the series' noise. The data
// files carry it as text (column ev), which site.js appends to its copy of
// rowBadges' title.
func badgeEvidence(r *analysis.Row) string {
	v := r.Headline
	if v.State == "" || v.State == analysis.StateYoung || !(v.Width > 0) {
		return ""
	}
	e := fmt.Sprintf(". The change is %.1f widths of its noise (a run-to-run width of %s over %d values; %s counts as out of it)",
		v.Widths, report.FormatPercent1(v.Width), v.History, report.FormatPercent1(v.OutOfNoise()))
	if v.Large {
		e += "; too large for any later value to explain away, so it counts already"
	}
	return e
}

// row formats one analysis row. Its cells are formatted here rather than
// in the template: a comparison has thousands of rows, the same fields go
// to the data files, and the page's script only places them. The data
// files do not take rows: they take the same cells as numbers
// (dataCells), made with the same helpers.
func (p *planner) row(r *analysis.Row) Row { return p.formatRow(r, true) }

func (p *planner) formatRow(r *analysis.Row, full bool) Row {
	s := r.Series
	row := p.seriesRow(s)
	row.Note = r.Note
	unit := s.Metric.Unit
	if full && r.Before != nil && r.Before.OK() {
		row.Before = analysis.FormatValue(r.Before.Value, unit)
	}
	if full && r.After != nil && r.After.OK() {
		row.After = analysis.FormatValue(r.After.Value, unit)
	}
	if r.OK {
		row.HasChange = true
		row.Relevant, row.Dodgy = r.Relevant, r.Dodgy
		row.Basis, row.State = string(r.Basis), string(r.Headline.State)
		row.BasisText, row.BasisTitle = rowBadge(r)
		row.Evidence = badgeEvidence(r)
		row.Magnitude = r.Magnitude.String()
		if full {
			row.ChangeText = report.FormatChange(r.Change)
		}
		row.ThresholdText = report.FormatThreshold(r.Threshold)
		row.FactorText = report.FormatFactor(r.Factor)
		// The factor sorts rows as printed: the data files hold it so.
		row.Change, row.Factor = rowChange(r), fixedOf(row.FactorText, 2, "x").over(100)
		row.Dir = rowDir(r)
		if r.Relevant {
			row.Class = row.Dir
		}
	}
	engineCells(&row, r, full)
	row.Ack = p.ackNotes(r)
	return row
}

// rowChange is the change a row holds (Row.Change) when it has one.
func rowChange(r *analysis.Row) float64 {
	if r.FromZero {
		// A change from 0 is infinite ("+∞%"): it sorts before every
		// finite change, but JSON (data files, the bar chart) has no
		// infinity, so the row holds the largest change whose percent
		// is still a number.
		return math.Copysign(math.MaxFloat64/100, r.Change)
	}
	return r.Change
}

// rowDir is the direction of a row's change (Row.Dir).
func rowDir(r *analysis.Row) string {
	switch {
	case r.Regression:
		return "regression"
	case r.Change != 0:
		return "improvement"
	}
	return ""
}

// ackNotes are the notes of the acknowledgements of a row's change at its
// head (Row.Ack).
func (p *planner) ackNotes(r *analysis.Row) string {
	if p.d.Annotations == nil || r.After == nil {
		return ""
	}
	var notes []string
	for _, a := range p.d.Annotations.For(r.Series, int(r.After.Artifact)) {
		if a.Kind == model.Acknowledged {
			notes = append(notes, cmp.Or(a.Note, "acknowledged"))
		}
	}
	return strings.Join(notes, "; ")
}

// seriesRow is the part of a row that depends only on its series: what
// a benchmark's index of series holds. NewPlan makes it once per series
// (seriesRows), before any worker reads it.
func (p *planner) seriesRow(s *model.Series) Row {
	if row, ok := p.seriesRows[s]; ok {
		return *row
	}
	return p.makeSeriesRow(s)
}

// seriesIDOf is seriesRow(s).Series, without copying the row.
func (p *planner) seriesIDOf(s *model.Series) string {
	if row, ok := p.seriesRows[s]; ok {
		return row.Series
	}
	return seriesID(s.Key)
}

func (p *planner) makeSeriesRow(s *model.Series) Row {
	k := s.Key
	return Row{
		Anchor:       rowAnchor(k),
		Series:       seriesID(k),
		Benchmark:    s.Case.Benchmark,
		BenchURL:     p.routes.Bench(s.Case.Benchmark),
		Params:       s.Case.Params,
		Context:      s.Context,
		ContextShown: p.shown[s],
		Metric:       k.Metric,
		Unit:         s.Metric.Unit,
		Better:       p.better(s),
		Category:     string(s.Case.Category),
		Machine:      k.Machine,
	}
}

// better is a series' direction for its row where its metric's heading
// has none (mixedDirections), "" elsewhere: the heading says it.
func (p *planner) better(s *model.Series) string {
	if !p.mixedDir[s.Metric.Name] {
		return ""
	}
	return string(s.Metric.Direction)
}

// mixedDirections are the metrics whose series are not all better the
// same way: a metric in several units whose units' directions differ
// ([metrics."track".units."gflopss"] direction = "higher" beside
// runtime (s)). A page's heading of such a metric has no direction
// (joinMetric), so each row carries its own (Row.Better).
func mixedDirections(series []*model.Series) map[string]bool {
	dir := map[string]model.Direction{}
	mixed := map[string]bool{}
	for _, s := range series {
		m := s.Metric
		if d, ok := dir[m.Name]; !ok {
			dir[m.Name] = m.Direction
		} else if d != m.Direction {
			mixed[m.Name] = true
		}
	}
	return mixed
}

// engineCells fills the z-score, p-value and budget cells of a row (the
// z-score's title only when full: the data files have the distribution).
func engineCells(row *Row, r *analysis.Row, full bool) {
	unit := r.Series.Metric.Unit
	if z := r.Z; z.OK {
		row.Z = report.FormatZ(z.Z)
		// From the distribution as the data files store it, so that the
		// rows the page's script builds say the same.
		if full {
			row.ZTitle = "mean " + analysis.FormatValue(RoundMean(z.Mean), unit) + " ± " + analysis.FormatValue(RoundStd(z.Std), unit)
			if report.ZIsCapped(z.Z) {
				row.ZTitle += "; " + report.ZCapped
			}
		}
		row.ZClass = zClass(z)
	} else if z.Reason != "" {
		row.Z, row.ZTitle = "–", zReason(z)
	}
	if t := r.Test; t.OK {
		row.P = report.FormatP(t.P)
		verdict := ""
		verdict, row.PTitle, row.PClass = testCell(t)
		if t.Method == analysis.MethodCriterion {
			row.P += " " + verdict
		}
	} else if t.Reason != "" {
		row.P, row.PTitle = "–", testReason(t)
	}
	if b := r.Budget; b != nil {
		row.Budget = string(b.Delta.Status)
		row.BudgetText = row.Budget
		row.BudgetTitle = budgetTitle(b)
	}
}

// zClass is the class of a z-score's cell (Row.ZClass).
func zClass(z zscore.Z) string {
	switch {
	case z.Regression:
		return "regression"
	case z.Improvement:
		return "improvement"
	}
	return ""
}

// zReason is the title of the cell of a row without a z-score.
func zReason(z zscore.Z) string { return "no z-score: " + z.Reason }

// testReason is the title of the cell of a row without a test.
func testReason(t analysis.SampleTest) string { return "no test: " + t.Reason }

// testCell is what the p-value's cell of a test t (OK) shows beside the
// p-value: Criterion's verdict ("" for other tests), the cell's title and
// its class.
func testCell(t analysis.SampleTest) (verdict, title, class string) {
	switch t.Method {
	case analysis.MethodCriterion:
		c := t.Criterion
		verdict = string(t.Verdict)
		title = fmt.Sprintf("Criterion: t = %.3f, mean change %s [%s, %s] at %g %%, %d resamples; %s", finiteOr0(c.T), report.FormatChange(c.Mean.Point), report.FormatChange(c.Mean.Lower), report.FormatChange(c.Mean.Upper), c.Mean.ConfidenceLevel*100, c.NResamples, t.Verdict)
		switch t.Verdict {
		case criterion.Regressed:
			class = "regression"
		case criterion.Improved:
			class = "improvement"
		}
	default:
		if t.Method == analysis.MethodWelch {
			title = "Welch's t-test of the results' summary statistics (mean, stddev, count)"
			if t.Reason != "" {
				title += "; " + t.Reason
			}
		}
		if t.Significant {
			class = "significant"
		}
	}
	return verdict, title, class
}

// budgetTitle is the title of a row's budget cell.
func budgetTitle(b *analysis.BudgetCheck) string {
	t := fmt.Sprintf("budget: fail above %.1f %%, warn from %.1f %% (%s is better, %s); regression %.2f %%", b.Budget.Threshold*100, b.Budget.WarnThreshold*100, b.Budget.Direction, b.Budget.Stat(), b.Delta.Regression*100)
	if b.Reason != "" {
		t += "; " + b.Reason
	}
	return t
}

func finiteOr0(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// sortRows orders rows by |change| descending (rustc-perf's compare page),
// rows without a change last, ties by anchor for a stable order.
func sortRows(rows []Row) {
	slices.SortStableFunc(rows, func(a, b Row) int {
		if a.HasChange != b.HasChange {
			if a.HasChange {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(math.Abs(b.Change), math.Abs(a.Change)); c != 0 {
			return c
		}
		return strings.Compare(a.Anchor, b.Anchor)
	})
}
