package report

import (
	"math"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/route"
)

// Step changes (analysis.Step) as the documents show them: their size,
// where to compare the two sides, and as JSON.

// FormatStepChange shows a step's relative change as FormatChange does,
// except a step from 0 (an infinite change), which is "new": the series
// had a level of 0 before (a benchmark that allocated nothing), and no
// percentage describes what came after.
func FormatStepChange(c float64) string {
	if math.IsInf(c, 0) {
		return "new"
	}
	return FormatChange(c)
}

// StepComparePath is the site-relative page comparing the two sides of a
// step, Last with Artifact: the commit page of Artifact when Last is its
// main-line predecessor (the series ran on every commit), else the compare
// form with the pair filled in. Such a pair is rarely one the site
// pre-renders (a week's range, a PR); the form opens the pre-rendered
// page when it is one.
func StepComparePath(d *model.Dataset, routes *route.Table, st analysis.Step) string {
	if prev, ok := d.Previous(st.Artifact); ok && prev == st.Last {
		return routes.Commit(d.Artifacts[st.Artifact].ID)
	}
	return route.CompareForm(d.Artifacts[st.Last].ID, d.Artifacts[st.Artifact].ID)
}

// StepCompare is StepComparePath as a link from a document.
func (l Links) StepCompare(d *model.Dataset, st analysis.Step) string {
	return l.site() + StepComparePath(d, l.routes(), st)
}

// StepRepoCompare is the repository's diff of the commits a step may have
// come from (Last...Artifact), "" when the repository's URLs are not
// configured or either side is no commit.
func (l Links) StepRepoCompare(d *model.Dataset, st analysis.Step) string {
	last, art := d.Artifacts[st.Last].ID, d.Artifacts[st.Artifact].ID
	if !model.IsSHA(last) || !model.IsSHA(art) {
		return ""
	}
	return l.RepoCompare(last, art)
}

// StepJSON is a step change in the JSON documents (the triage report's
// steps). change is null for a step from 0 (from_zero set) and p_value
// null when the method has no test.
type StepJSON struct {
	SeriesJSON
	// Artifact is the first main-line artifact after the step, Last the
	// last one before it with a value; the change came from one of the
	// candidates (after Last, up to Artifact).
	Artifact   ArtifactJSON `json:"artifact"`
	Last       ArtifactJSON `json:"last"`
	Candidates []string     `json:"candidates"`
	// Before and After are the medians of the values either side.
	Before     *float64 `json:"before"`
	After      *float64 `json:"after"`
	Change     *float64 `json:"change"`
	FromZero   bool     `json:"from_zero,omitempty"`
	Regression bool     `json:"regression"`
	PValue     *float64 `json:"p_value"`
	// URL compares the two sides on the site; RepositoryURL lists the
	// commits between them on the repository's site.
	URL           string `json:"url"`
	RepositoryURL string `json:"repository_url,omitempty"`
	// Acknowledged are the notes of the annotations that acknowledge the
	// step (empty when it is open).
	Acknowledged []string `json:"acknowledged"`
}

// NewStepJSON describes step st of d.
func NewStepJSON(d *model.Dataset, st analysis.Step, links Links) StepJSON {
	s := d.Series[st.Series]
	j := StepJSON{
		SeriesJSON: seriesJSON(s),
		Artifact:   artifactJSON(d.Artifacts[st.Artifact]), Last: artifactJSON(d.Artifacts[st.Last]), Candidates: []string{},
		Before: finite(st.Before), After: finite(st.After), Change: finite(st.Change), FromZero: math.IsInf(st.Change, 0),
		Regression: st.Regression, PValue: finite(st.P),
		URL: links.StepCompare(d, st), RepositoryURL: links.StepRepoCompare(d, st), Acknowledged: []string{},
	}
	for _, a := range st.Candidates(d) {
		j.Candidates = append(j.Candidates, d.Artifacts[a].ID)
	}
	for _, an := range st.Acknowledgements(d) {
		j.Acknowledged = append(j.Acknowledged, AckNote(an))
	}
	return j
}

// AckNote is what a document shows of an annotation that acknowledges a
// step: its note, or its kind when it has none. (Not its origin, a path
// on the machine that built the site.)
func AckNote(an *model.Annotation) string {
	if an.Note == "" {
		return string(an.Kind)
	}
	return an.Note
}

// StepDetected is when a step was confirmed: the date of the main-line
// artifact whose result completed the evidence (changepoint.Step.Decided),
// or the step's own artifact's when that is unknown.
func StepDetected(d *model.Dataset, st analysis.Step) time.Time {
	t := d.Artifacts[st.Artifact].Date
	if pos := st.Decided - 1; pos >= 0 && pos < len(d.MainLine) {
		if u := d.Artifacts[d.MainLine[pos]].Date; u.After(t) {
			t = u
		}
	}
	return t
}
