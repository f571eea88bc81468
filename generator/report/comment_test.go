package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
)

// commentPair is two commits where each of the given benchmarks went from
// its value to value × (1 + change), five equal samples a side (the
// sample test's p = 0.008).
func commentPair(t *testing.T, changes map[string]float64, values map[string]float64, units map[string]string) (*model.Dataset, *analysis.Comparison) {
	t.Helper()
	b := model.NewBuilder(model.BuildOptions{})
	day := time.Date(2026, 9, 7, 0, 0, 0, 0, time.UTC)
	for i := range 2 {
		var res []model.Result
		for name, change := range changes {
			v, unit, metric := 1000.0, "ns", "wall-time"
			if x, ok := values[name]; ok {
				v = x
			}
			if u, ok := units[name]; ok {
				unit, metric = u, "cpu"
			}
			if i == 1 {
				v *= 1 + change
			}
			res = append(res, model.Result{Case: model.TestCase{Benchmark: name}, Metric: metric, Unit: unit, Samples: []float64{v, v, v, v, v}})
		}
		b.Add("t", model.Run{Artifact: model.Artifact{ID: strings.Repeat(string(rune('a'+i)), 40), Kind: model.KindCommit, Date: day.AddDate(0, 0, i), Title: "t"},
			Machine: model.Machine{Name: "m"}, Results: res})
	}
	d := b.Dataset()
	return d, analysis.Compare(d, 0, 1, rustcPerf)
}

// TestCommentListsChanges: the PR comment lists the changed
// benchmarks first, one row each with its values, change and verdict:
// regressions before improvements, the largest first, ten at most and
// "and N more" linking the page; values print with a prefix in any unit.
// When nothing changed it is one line.
func TestCommentListsChanges(t *testing.T) {
	changes := map[string]float64{"parse": 0.043}
	for i, c := range []float64{0.05, 0.10, 0.02, 0.03, -0.20, -0.21, -0.22, -0.23, -0.24, -0.25, -0.26, -0.27} {
		changes[fmt.Sprintf("b%02d", i)] = c
	}
	d, c := commentPair(t, changes, map[string]float64{"parse": 16300}, map[string]string{"parse": "cpu-ns/op"})
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, d, c, "", Links{}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	page := "/commit/" + strings.Repeat("b", 40) + "/"
	want := "**13 changes** in 13 results compared: 5 regressions and 8 improvements counted.\n\n" +
		"| Benchmark | Metric | Before → After | Change | Verdict |\n" +
		"|:--|:--|--:|--:|:--|\n" +
		"| `b01` | wall-time | 1 µs → 1.1 µs | +10.00% | ❌ regression |\n" +
		"| `b00` | wall-time | 1 µs → 1.05 µs | +5.00% | ❌ regression |\n" +
		"| `parse` | cpu | 16.3 k cpu-ns/op → 17 k cpu-ns/op | +4.30% | ❌ regression |\n" +
		"| `b03` | wall-time | 1 µs → 1.03 µs | +3.00% | ❌ regression |\n" +
		"| `b02` | wall-time | 1 µs → 1.02 µs | +2.00% | ❌ regression |\n" +
		"| `b11` | wall-time | 1 µs → 730 ns | -27.00% | ✅ improvement |\n" +
		"| `b10` | wall-time | 1 µs → 740 ns | -26.00% | ✅ improvement |\n" +
		"| `b09` | wall-time | 1 µs → 750 ns | -25.00% | ✅ improvement |\n" +
		"| `b08` | wall-time | 1 µs → 760 ns | -24.00% | ✅ improvement |\n" +
		"| `b07` | wall-time | 1 µs → 770 ns | -23.00% | ✅ improvement |\n" +
		"\n…and 3 more on [the comparison page](" + page + ").\n"
	if !strings.Contains(md, want) {
		t.Errorf("the comment does not list the changes first:\n%s\nwant:\n%s", md, want)
	}
	if i, j := strings.Index(md, "Overall result"), strings.Index(md, "| Benchmark |"); i < 0 || j < i || strings.Index(md, "Summary tables") < j {
		t.Errorf("want the overall line, the changes, then the summary tables:\n%s", md)
	}

	// Nothing changed: one line, with the link.
	for name := range changes {
		changes[name] = 0
	}
	d, c = commentPair(t, changes, nil, nil)
	buf.Reset()
	if err := WriteMarkdown(&buf, d, c, "", Links{}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "Finished benchmarking bbbbbbb against aaaaaaa: no relevant changes in 13 results compared. [Comparison]("+page+")\n"; got != want {
		t.Errorf("nothing changed:\n%s\nwant:\n%s", got, want)
	}
}

// A change counted before any later value (Large) says so in the PR
// comment and in the triage report: a later build may still withdraw it.
func TestUnconfirmedCountedSaysSo(t *testing.T) {
	r := &analysis.Row{OK: true, Relevant: true, Regression: true, Headline: analysis.Verdict{State: analysis.StateUnconfirmed, Large: true}}
	if got := verdictCell(r); got != "❌ regression (unconfirmed)" {
		t.Errorf("verdict cell %q", got)
	}
	r.Headline = analysis.Verdict{State: analysis.StateConfirmed}
	if got := verdictCell(r); got != "❌ regression" {
		t.Errorf("confirmed: verdict cell %q", got)
	}
	d, _ := commentPair(t, map[string]float64{"parse": 0.5}, nil, nil)
	m := analysis.MetricSummary{Metric: "wall-time", Top: []analysis.SeriesChange{{Key: d.Series[0].Key, Before: 1000, After: 1500, Change: 0.5, Regression: true, Unconfirmed: true}}}
	var buf bytes.Buffer
	writeTop(&buf, d, m, "/commit/x/", false, false)
	if !strings.Contains(buf.String(), "+50.00% `parse` (1 µs → 1.5 µs), unconfirmed: counted at once for its size") {
		t.Errorf("triage line:\n%s", buf.String())
	}
}
