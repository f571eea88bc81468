package analysis

import (
	"reflect"
	"testing"
)

// TestResultsTriage: a weekly report from Results is TriageWatch's with
// the week's steps, whether Triage makes the comparisons or is given them
// (Known), and a report of one metric keeps only that metric's steps.
func TestResultsTriage(t *testing.T) {
	d := triageDatasetN(t, 60) // 60 commits: the steps of day 35 and 37 are confirmed
	res := Analyze(d, AnalyzeOptions{Compare: rustcPerfOptions})
	steps := 0
	for _, w := range res.Weeks() {
		want := TriageWatch(d, res, w, DefinitelyRelevantFilter, "", DefaultWatchOptions)
		want.Steps = WeekSteps(d, w, res.Steps())
		steps += len(want.Steps)
		o := TriageOptions{Filter: DefinitelyRelevantFilter, Watch: DefaultWatchOptions}
		if got := res.Triage(w, o); !reflect.DeepEqual(got, want) {
			t.Errorf("week %s: Triage differs from TriageWatch:\n got %+v\nwant %+v", w.Monday, got, want)
		}
		asked := 0
		o.Known = func(base, head int) (*Comparison, *Watch) {
			asked++
			c := res.Summary(base, head)
			return c, res.Watch(c, DefaultWatchOptions)
		}
		if got := res.Triage(w, o); !reflect.DeepEqual(got, want) || asked != len(w.Heads) {
			t.Errorf("week %s: with Known (asked %d of %d):\n got %+v\nwant %+v", w.Monday, asked, len(w.Heads), got, want)
		}
		if r := res.Triage(w, TriageOptions{Filter: DefinitelyRelevantFilter, Metric: "wall-time"}); len(r.Steps) != 0 {
			t.Errorf("week %s: a report of wall-time lists %d steps of instructions:u", w.Monday, len(r.Steps))
		}
	}
	if steps == 0 {
		t.Error("no week has a step: the test checks no steps")
	}
}
