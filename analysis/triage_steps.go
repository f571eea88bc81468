package analysis

import "slices"
import "github.com/perfpages/perfpages/analysis/model"

// Steps in the weekly triage report. A triage report judges each commit
// against its predecessor, so a slow drift over several small commits, or
// a change within the noise of one comparison that step detection
// confirms later, passes no filter. Its "Steps" section lists every step
// (Steps) whose culprit artifact (Step.Artifact, the first
// main-line artifact after the step) landed in the week, whatever the
// comparisons say.

// WeekSteps returns the steps of steps whose Artifact is one of w's heads,
// in main-line order of their artifact and, at one artifact, in the order
// given (Steps orders them by series).
func WeekSteps(d *model.Dataset, w Week, steps []Step) []Step {
	if len(w.Heads) == 0 {
		return nil
	}
	heads := make(map[int]bool, len(w.Heads))
	for _, a := range w.Heads {
		heads[a] = true
	}
	var out []Step
	for _, st := range steps {
		if heads[st.Artifact] {
			out = append(out, st)
		}
	}
	slices.SortStableFunc(out, func(a, b Step) int { return a.Index - b.Index })
	return out
}

// Acknowledgements returns the annotations of annotations.yaml that
// acknowledge step s: those for its series at one of its candidate
// artifacts (after Last, up to Artifact), oldest artifact first and in
// file order at each. A step without any is open.
//
// Any annotation counts, an "acknowledged" one or a distribution change:
// a distribution change at the step's artifact is also a break for step
// detection, so the step is not found there at all once it is annotated
// (Steps); one at another candidate artifact, where the series has
// no value, acknowledges it all the same.
func (s Step) Acknowledgements(d *model.Dataset) []*model.Annotation {
	if d.Annotations == nil {
		return nil
	}
	sr := d.Series[s.Series]
	var out []*model.Annotation
	for _, a := range d.MainLine[s.Prev+1 : s.Index+1] {
		out = append(out, d.Annotations.For(sr, a)...)
	}
	return out
}
