package report

import (
	"fmt"
	"io"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/internal/mdtext"
)

// MaxTriageSteps is the most steps a weekly report lists; the rest are
// counted, and the regressions page lists them (a change that moves every
// series of a large suite would otherwise bury the report).
const MaxTriageSteps = 50

// WriteTriageSteps writes the "Steps" section of a weekly triage report:
// the step changes whose culprit artifact landed in the week
// (analysis.WeekSteps), each with its size, series, the first commit after
// it and a link comparing the two sides, whether or not a comparison of
// the week passed the filter. A slow drift over several small commits, or
// a change within one comparison's noise, shows here. Without steps the
// section is one line, without a heading.
func WriteTriageSteps(w io.Writer, d *model.Dataset, steps []analysis.Step, links Links) {
	if len(steps) == 0 {
		fmt.Fprint(w, "\nNo step changes begin in this week.\n")
		return
	}
	fmt.Fprint(w, "\n#### Steps\n\n")
	acked := 0
	for _, st := range steps {
		if len(st.Acknowledgements(d)) > 0 {
			acked++
		}
	}
	verb := "begin"
	if len(steps) == 1 {
		verb = "begins"
	}
	fmt.Fprintf(w, "%s %s in this week (found along each series' history, whatever the comparisons above say); %d acknowledged in annotations.yaml.\n\n",
		plural(len(steps), "step change"), verb, acked)
	fmt.Fprint(w, "| Change | Benchmark | Metric | Machine | First commit after | Compare | Acknowledged |\n|---|---|---|---|---|---|---|\n")
	shown := steps[:min(len(steps), MaxTriageSteps)]
	rows := make([]*analysis.Row, len(shown))
	for i, st := range shown {
		rows[i] = &analysis.Row{Series: d.Series[st.Series]}
	}
	ctxKeys := ContextKeys(rows)
	for _, st := range shown {
		s := d.Series[st.Series]
		name := s.Case.String() + ContextLabel(s, ctxKeys)
		dir := "improvement"
		if st.Regression {
			dir = "regression"
		}
		art := d.Artifacts[st.Artifact]
		// The repository's diff of the range is on the regressions page
		// and in the JSON (repository_url); the table stays narrow.
		cmpLink := fmt.Sprintf("[%s](%s)", plural(len(st.Candidates(d)), "commit"), mdtext.URL(links.StepCompare(d, st)))
		ack := ""
		for k, an := range st.Acknowledgements(d) {
			if k > 0 {
				ack += "; "
			}
			ack += mdtext.Text(AckNote(an))
		}
		fmt.Fprintf(w, "| %s %s | %s | %s | %s | [%s](%s) | %s | %s |\n",
			FormatStepChange(st.Change), dir, mdtext.CodeCell(name), mdtext.Text(s.Metric.Name), mdtext.Text(s.Key.Machine),
			mdtext.Text(art.Label()), mdtext.URL(links.Commit(d, st.Artifact)), cmpLink, ack)
	}
	if n := len(steps) - MaxTriageSteps; n > 0 {
		fmt.Fprintf(w, "\n… and %d more, listed on [the regressions page](%s).\n", n, mdtext.URL(links.site()+route.Regressions))
	}
}

// triageStepsJSON is the steps of a report in its JSON document.
func triageStepsJSON(d *model.Dataset, r *analysis.TriageReport, links Links) []StepJSON {
	out := []StepJSON{}
	for _, st := range r.Steps {
		out = append(out, NewStepJSON(d, st, links))
	}
	return out
}
