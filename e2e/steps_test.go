package e2e

import (
	"strings"
	"testing"
)

// stepMarks lists, per chart of the page, the labels of the step markers
// drawn on it (markLine items named "step …").
const stepMarks = `Array.from(document.querySelectorAll('[id^="c_"]')).map(function (el) {
	var c = echarts.getInstanceByDom(el);
	var names = [];
	((c && c.getOption().series) || []).forEach(function (s) {
		((s.markLine && s.markLine.data) || []).forEach(function (d) {
			if (String(d.name || "").indexOf("step ") === 0) { names.push(d.name); }
		});
	});
	return names.join(", ");
})`

// The demo plants a 2.2 % regression of regex-compile in the rollup PR
// #1540 (content/about.md): the bench page's history charts mark the step
// the generator found there, and the regressions page lists it with its
// sparkline, readable without JavaScript, and a button that copies its
// annotations.yaml entry.
func TestStepMarks(t *testing.T) {
	path := chromium(t)
	base := demoSite(t)
	browserCtx := startBrowser(t, path)

	t.Run("bench page", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/bench/regex-compile/")
		// The page lists its steps without JavaScript too.
		if n := eval[int](t, tb, "counting the listed steps", `document.querySelectorAll("p.series-steps a.regression").length`); n == 0 {
			t.Error("no step listed under the history charts")
		}
		checkCharts(t, tb)
		marks := eval[[]string](t, tb, "reading the step markers", stepMarks)
		marked := 0
		for _, m := range marks {
			if strings.Contains(m, "step +2.") {
				marked++
			}
		}
		if marked == 0 {
			t.Errorf("no history chart marks the +2.2 %% step: %q", marks)
		}
		t.Logf("%d of %d charts mark the step", marked, len(marks))
	})

	t.Run("regressions page", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/regressions/")
		type page struct {
			Groups, Sparklines, Points, Copy int
			First                            string
		}
		p := eval[page](t, tb, "reading the regressions page", `(function () {
			var first = document.querySelector("#open-regressions .step-group h3 a");
			return {
				Groups: document.querySelectorAll("#open-regressions .step-group").length,
				Sparklines: document.querySelectorAll("#open-regressions svg.sparkline").length,
				Points: Array.from(document.querySelectorAll("#open-regressions svg.sparkline polyline")).filter(function (l) {
					return l.getBBox().width > 0;
				}).length,
				Copy: document.querySelectorAll("button.copy-snippet").length,
				First: first ? first.textContent : ""
			};
		})()`)
		if p.Groups == 0 || p.Sparklines == 0 || p.Points == 0 || p.Copy == 0 {
			t.Errorf("regressions page: %+v", p)
		}
		if p.First != "#1540" {
			t.Errorf("the newest open regression is %q, want #1540", p.First)
		}
	})
}
