package analysis

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/perfpages/perfpages/analysis/changepoint"
	"github.com/perfpages/perfpages/analysis/model"
)

// Each step falls in exactly one week: the week its first artifact after
// it landed in, in main-line order.
func TestWeekSteps(t *testing.T) {
	d := stepDataset(t, 60, false)
	steps := Steps(d, changepoint.DefaultOptions, nil)
	got := map[string][]string{}
	n := 0
	for _, w := range Weeks(d) {
		for _, st := range WeekSteps(d, w, steps) {
			n++
			s := d.Series[st.Series]
			got[w.Monday.Format("2006-01-02")] = append(got[w.Monday.Format("2006-01-02")], s.Case.Benchmark+" "+s.Key.Metric+" "+d.Artifacts[st.Artifact].Label())
		}
	}
	// Commit i is dated 2026-03-02 + i days: #530 on Wednesday
	// 2026-04-01, #545 on Thursday 2026-04-16.
	want := map[string][]string{
		"2026-03-30": {"parse throughput #530", "parse wall-time #530"},
		"2026-04-13": {"render wall-time #545"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps by week (-want +got):\n%s", diff)
	}
	if n != len(steps) {
		t.Errorf("%d steps in weeks, %d found", n, len(steps))
	}
	if s := WeekSteps(d, Week{}, steps); s != nil {
		t.Errorf("an empty week has steps: %v", s)
	}
}

// A step is acknowledged by an annotation for its series at any of its
// candidate artifacts: the wall-time step of parse may have come from
// commit 29 (where the benchmark failed) or 30.
func TestStepAcknowledgements(t *testing.T) {
	d := stepDataset(t, 60, false)
	steps := Steps(d, changepoint.DefaultOptions, nil)
	if errs := d.Annotate([]model.Annotation{
		{Kind: model.Acknowledged, Artifact: fmt.Sprintf("%040x", 30), Benchmark: "parse", Metric: "wall-time", Note: "known"},
		{Kind: model.Acknowledged, Artifact: fmt.Sprintf("%040x", 45), Benchmark: "render", Note: "not at the step"},
	}); len(errs) > 0 {
		t.Fatal(errs)
	}
	got := map[string]string{}
	for _, st := range steps {
		s := d.Series[st.Series]
		note := ""
		for _, an := range st.Acknowledgements(d) {
			note += an.Note
		}
		got[s.Case.Benchmark+" "+s.Key.Metric] = note
	}
	want := map[string]string{"parse wall-time": "known", "parse throughput": "", "render wall-time": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("acknowledgements (-want +got):\n%s", diff)
	}
}
