package e2e

// Browser tests of the site's reader-facing tools: the compare form, the bench pages' normalized overview charts, the
// comparison bar chart on a phone, the context that tells series apart,
// and the navigation that exists but had no browser test (lists and their
// pagers, short-sha and legacy bench redirects, the first metric tab,
// triage icons without an emoji font).
//
// Set PERFPAGES_SCREENSHOTS to a folder to keep a PNG of each page these
// tests look at on a phone (390 × 844).

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/analysis/model"
	"github.com/perfpages/perfpages/generator"
	"github.com/perfpages/perfpages/generator/config"
	"github.com/perfpages/perfpages/generator/report"
)

// screenshotsEnv names the variable of the folder that keeps screenshots.
const screenshotsEnv = "PERFPAGES_SCREENSHOTS"

// Phone is the viewport of the phone-sized checks (an iPhone 12–15).
const phoneWidth, phoneHeight = 390, 844

// The UI site: ten main-line commits of one machine, each benchmarked
// under two contexts (python=2.7 and python=3.4, as asv runs a suite in
// two environments). The last commit changes:
//
//   - parse size=small under both contexts (+10 % and −5 %): two rows
//     that differ only by their context;
//   - parse size=large fails under both contexts;
//   - twelve benchmarks with long names (python=3.4 only), by 6 % to
//     83 % either way: a bar chart too wide for a phone;
//   - the allocations of parse size=small go from 0 to 5 (python=3.4
//     only): a change from 0; parse size=medium has 0 allocations
//     throughout (no positive median).
//
// parse size=medium's times never change (rows without a relevant change,
// under both contexts), and Parse_JSON's name is safe as it is, so its page
// moved from the old hashed URL, which redirects.
const (
	uiCommits   = 10
	uiLongBench = "decode-a-rather-long-benchmark-name-for-small-screens-"
	uiLongCount = 12
)

// uiSHA is commit i's id: "1111…", "2222…", … so that short shas differ.
func uiSHA(i int) string { return strings.Repeat(strconv.FormatInt(int64(i+1), 16), 40) }

func uiSiteFiles(t *testing.T, dir string) {
	t.Helper()
	type result struct {
		Benchmark string            `json:"benchmark"`
		Params    map[string]string `json:"params,omitempty"`
		Metric    string            `json:"metric"`
		Unit      string            `json:"unit,omitempty"`
		Samples   []float64         `json:"samples,omitempty"`
		Error     string            `json:"error,omitempty"`
	}
	day := time.Date(2026, 10, 5, 3, 0, 0, 0, time.UTC)
	last := uiCommits - 1
	for i := range uiCommits {
		for _, py := range []string{"2.7", "3.4"} {
			var rs []result
			add := func(bench, size, metric, unit string, v float64) {
				r := result{Benchmark: bench, Metric: metric, Unit: unit, Samples: []float64{v}}
				if size != "" {
					r.Params = map[string]string{"size": size}
				}
				rs = append(rs, r)
			}
			scale := 1.0
			if py == "3.4" {
				scale = 0.8
			}
			small := 1000 * scale
			if i == last {
				small = map[string]float64{"2.7": 1100, "3.4": 760}[py]
			}
			add("parse", "small", "wall-time", "ns", small)
			add("parse", "medium", "wall-time", "ns", 2000*scale)
			if i == last {
				rs = append(rs, result{Benchmark: "parse", Params: map[string]string{"size": "large"}, Metric: "wall-time", Error: "exit status 2"})
			} else {
				add("parse", "large", "wall-time", "ns", 3000*scale)
			}
			if py == "3.4" {
				for k := range uiLongCount {
					v := 1000 * float64(k+1)
					if i == last {
						pct := float64(6 + 7*k)
						if k%2 == 1 {
							pct = -pct
						}
						v *= 1 + pct/100
					}
					add(fmt.Sprintf("%s%02d", uiLongBench, k+1), "", "wall-time", "ns", v)
				}
				allocs := 0.0
				if i == last {
					allocs = 5
				}
				add("parse", "small", "allocs", "count", allocs)
				add("parse", "medium", "allocs", "count", 0)
				add("Parse_JSON", "", "wall-time", "ns", 500)
			}
			run := map[string]any{
				"schema": "perfpages.run.v1",
				"artifact": map[string]any{"id": uiSHA(i), "kind": "commit", "date": day.AddDate(0, 0, i).Format(time.RFC3339),
					"branch": "main", "pr": 100 + i, "title": fmt.Sprintf("Change %d (#%d)", i, 100+i),
					"parents": func() []string {
						if i == 0 {
							return nil
						}
						return []string{uiSHA(i - 1)}
					}()},
				"machine": map[string]any{"name": "linux-x64", "os": "linux", "arch": "amd64", "cores": 4},
				"context": map[string]string{"python": py},
				"results": rs,
			}
			b, err := json.MarshalIndent(run, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "results", fmt.Sprintf("%02d-py%s.json", i, py))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	conf := "[site]\ntitle = \"UI test\"\n\n[[sources]]\ndir = \"results\"\n"
	if err := os.WriteFile(filepath.Join(dir, "perfpages.toml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
}

// uiSite builds the UI site into a temporary folder, serves it for the
// rest of the test and returns its URL and output folder.
func uiSite(t *testing.T) (string, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: browser and whole-site tests run without -short")
	}
	dir := t.TempDir()
	uiSiteFiles(t, dir)
	url, out, warnings := serveBuilt(t, dir, "the UI site")
	for _, w := range warnings {
		t.Errorf("building the UI site: %v", w)
	}
	return url, out
}

// serveBuilt builds dir/perfpages.toml into dir/public and serves it
// until the test ends: the server's URL, the output folder and the
// build's warnings. what names the site in a failure.
func serveBuilt(t *testing.T, dir, what string) (url, out string, warnings []error) {
	t.Helper()
	cfg, err := config.Load(filepath.Join(dir, "perfpages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := generator.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	out = filepath.Join(dir, "public")
	rep, err := s.Build(ctx, generator.BuildOptions{Out: out})
	if err != nil {
		t.Fatalf("building %s: %v", what, err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	t.Cleanup(srv.Close)
	return srv.URL, out, rep.Warnings
}

// phoneTab opens a tab with a phone's viewport.
func phoneTab(t *testing.T, browserCtx context.Context, base string) *tab {
	t.Helper()
	tb := openTab(t, browserCtx, base)
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile)); err != nil {
		t.Fatalf("emulating a phone: %v", err)
	}
	return tb
}

// screenshot keeps a PNG of what the screen shows, or of the first element
// matching the CSS selector sel, in $PERFPAGES_SCREENSHOTS, if set.
func screenshot(t *testing.T, tb *tab, name, sel string) {
	t.Helper()
	dir := os.Getenv(screenshotsEnv)
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	shot := chromedp.CaptureScreenshot()
	if sel != "" {
		shot = chromedp.Screenshot(chromedp.CSS(sel))
	}
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Error(err)
	}
}

// nextPaint waits until the page has rendered two frames: resize
// observers and whatever they draw have run.
func nextPaint(t *testing.T, tb *tab) {
	t.Helper()
	evalAsync[bool](t, tb, "waiting for a frame", `new Promise(function (ok) { requestAnimationFrame(function () { requestAnimationFrame(function () { ok(true); }); }); })`)
}

// evalAsync evaluates an expression that returns a promise.
func evalAsync[T any](t *testing.T, tb *tab, what, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, pollTimeout+stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// waitPath waits until the tab's location path is want and its page has
// loaded (a redirect or the compare form has done its work). The page
// may navigate while it asks, which fails that one question.
func waitPath(t *testing.T, tb *tab, want string) {
	t.Helper()
	expr := fmt.Sprintf(`location.pathname === %s && document.readyState === "complete"`, jsString(want))
	got := ""
	for deadline := time.Now().Add(pollTimeout); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && !ok {
			got, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
		}
		cancel()
		if err == nil && ok {
			return
		}
	}
	t.Fatalf("location is %s, want %s", got, want)
}

func TestUISite(t *testing.T) {
	path := chromium(t)
	base, out := uiSite(t)
	browserCtx := startBrowser(t, path)
	head := "/commit/" + uiSHA(uiCommits-1) + "/"

	t.Run("context tells series apart", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, head)
		checkCharts(t, tb)
		type rowInfo struct {
			Bench, Params, Context string
		}
		// The rows the page lists: the last commit's changes are out of
		// a flat history's noise but not confirmed yet (unconfirmed).
		rows := eval[[]rowInfo](t, tb, "reading the rows", `Array.from(document.querySelectorAll("section.metric[data-metric='wall-time'] > div.table-scroll table.rows tbody tr")).map(function (tr) {
			return {Bench: tr.getAttribute("data-bench"), Params: tr.cells[1].textContent.trim(),
				Context: Array.from(tr.cells[1].querySelectorAll(".param.context")).map(function (s) { return s.textContent; }).join(" ")};
		})`)
		var parse []string
		for _, r := range rows {
			switch {
			case r.Bench == "parse":
				parse = append(parse, r.Params)
			case r.Context != "":
				t.Errorf("%s (alone in its test case) shows the context %q", r.Bench, r.Context)
			}
		}
		slices.Sort(parse)
		if want := []string{"size=small python=2.7", "size=small python=3.4"}; !slices.Equal(parse, want) {
			t.Errorf("parse's listed rows read %q, want %q", parse, want)
		}
		failures := eval[[]string](t, tb, "reading the failures", `Array.from(document.querySelectorAll("section.failures li")).map(function (li) { return li.textContent.replace(/\s+/g, " ").trim(); })`)
		for _, py := range []string{"python=2.7", "python=3.4"} {
			if !slices.ContainsFunc(failures, func(f string) bool { return strings.Contains(f, "size=large "+py) }) {
				t.Errorf("no failure of parse size=large %s in %q", py, failures)
			}
		}
		bars := eval[[]string](t, tb, "reading the bar chart", `(JSON.parse(document.querySelector("section.metric[data-metric='wall-time'] div.chart[data-chart]").getAttribute("data-chart")).bars || []).map(function (b) { return b.label; })`)
		for _, py := range []string{"[python=2.7]", "[python=3.4]"} {
			if !slices.ContainsFunc(bars, func(l string) bool { return strings.HasPrefix(l, "parse size=small "+py) }) {
				t.Errorf("no bar labelled parse size=small %s in %q", py, bars)
			}
		}
		checkRowsAgree(t, tb)
		// The rows without a relevant change, built by the script from
		// the data files, show the context too.
		other := evalAsync[[]string](t, tb, "loading the other rows", `(function () {
			var d = document.querySelector("section.metric[data-metric='wall-time'] details.other-rows");
			d.open = true;
			return new Promise(function (resolve) {
				var done = function () {
					resolve(Array.from(d.querySelectorAll("tbody tr[data-bench='parse']")).map(function (tr) { return tr.cells[1].textContent.trim(); }));
				};
				if (d.hasAttribute("data-loaded")) { done(); } else { d.addEventListener("rowsloaded", done); }
			});
		})()`)
		slices.Sort(other)
		if want := []string{"size=medium python=2.7", "size=medium python=3.4"}; !slices.Equal(other, want) {
			t.Errorf("parse's other rows read %q, want %q", other, want)
		}
	})

	t.Run("context on the bench page and dashboard", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/bench/parse/")
		toc := eval[[]string](t, tb, "reading the contents", `Array.from(document.querySelectorAll("nav.toc li")).map(function (li) { return li.textContent.replace(/\s+/g, " ").trim(); })`)
		for _, want := range []string{"wall-time size=small python=2.7 on linux-x64", "wall-time size=small python=3.4 on linux-x64", "allocs size=small on linux-x64"} {
			if !slices.Contains(toc, want) {
				t.Errorf("the contents lack %q: %q", want, toc)
			}
		}
		tb.open(t, "/")
		failing := eval[[]string](t, tb, "reading the failing benchmarks", `Array.from(document.querySelectorAll("table tbody tr")).filter(function (tr) { return /exit status 2/.test(tr.textContent); }).map(function (tr) { return tr.cells[1].textContent.trim(); })`)
		slices.Sort(failing)
		if want := []string{"size=large python=2.7", "size=large python=3.4"}; !slices.Equal(failing, want) {
			t.Errorf("the dashboard's failing benchmarks read %q, want %q", failing, want)
		}
	})

	t.Run("first tab has the most relevant changes", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, head)
		type tabs struct {
			Order    []string
			Relevant []int
			Shown    []string
			Selected string
		}
		r := eval[tabs](t, tb, "reading the tabs", `(function () {
			var secs = Array.from(document.querySelectorAll("section.metric"));
			var sel = document.querySelector('.tabs [role="tab"][aria-selected="true"]');
			return {Order: secs.map(function (s) { return s.getAttribute("data-metric"); }),
				Relevant: secs.map(function (s) { return Number(s.getAttribute("data-relevant")); }),
				Shown: secs.filter(function (s) { return !s.hidden; }).map(function (s) { return s.getAttribute("data-metric"); }),
				Selected: sel ? document.getElementById(sel.getAttribute("aria-controls")).getAttribute("data-metric") : ""};
		})()`)
		if len(r.Order) < 2 || r.Order[0] != "allocs" || r.Relevant[0] >= r.Relevant[1] {
			t.Fatalf("the test needs the first metric in order to have fewer relevant changes: %+v", r)
		}
		if !slices.Equal(r.Shown, []string{"wall-time"}) || r.Selected != "wall-time" {
			t.Errorf("shown first: %q (tab %q), want wall-time, the metric with the most relevant changes (%v of %q)", r.Shown, r.Selected, r.Relevant, r.Order)
		}
	})

	t.Run("changes chart on a phone", func(t *testing.T) {
		tb := phoneTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, head)
		checkCharts(t, tb)
		r := checkBarLabels(t, tb, "wall-time")
		if r.Bars != 2+uiLongCount {
			t.Errorf("%d bars, want %d", r.Bars, 2+uiLongCount)
		}
		// Bars whose names are too long for a phone still read apart, and
		// no table or chart text of the page leaves the screen.
		checkPhoneLayout(t, tb, head, true)
		screenshot(t, tb, "changes-chart-390", "section.metric[data-metric='wall-time'] div.chart")
		// The change from 0 reaches the end of the axis, labelled "new".
		eval[chromedp.Void](t, tb, "choosing the allocs tab", `document.getElementById("tab-" + document.querySelector("section.metric[data-metric='allocs']").id).click()`)
		// The chart, drawn while its tab was hidden, is laid out again
		// by its ResizeObserver, which runs before the next paint: what
		// a reader sees is the chart after it.
		nextPaint(t, tb)
		n := checkBarLabels(t, tb, "allocs")
		if !slices.Equal(n.Changes, []string{"new"}) {
			t.Errorf("allocs' bar is labelled %q, want \"new\"", n.Changes)
		}
		type ends struct {
			Value, Max float64
			Tooltip    string
		}
		e := eval[ends](t, tb, "reading the new bar", `(function () {
			var c = echarts.getInstanceByDom(document.querySelector("section.metric[data-metric='allocs'] div.chart[data-chart]"));
			var o = c.getOption(), d = o.series[0].data[0];
			return {Value: d.value, Max: c.getModel().getComponent("xAxis", 0).axis.scale.getExtent()[1],
				Tooltip: o.tooltip[0].formatter([{name: "x", data: d}])};
		})()`)
		if e.Value != e.Max || e.Value <= 0 {
			t.Errorf("the new bar is %v long on an axis to %v, want it to reach the end", e.Value, e.Max)
		}
		if !strings.Contains(e.Tooltip, "+∞%") {
			t.Errorf("the new bar's tooltip %q does not say +∞%%", e.Tooltip)
		}
		screenshot(t, tb, "changes-chart-new-390", "section.metric[data-metric='allocs'] div.chart")
	})

	t.Run("log scale is disabled where nothing can be logged", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/bench/parse/")
		checkCharts(t, tb)
		type state struct {
			Disabled bool
			Title    string
			Note     string
			Axis     string
			Series   int
		}
		s := eval[state](t, tb, "showing allocs only", `(function () {
			var sel = document.querySelector("select.filter-metric");
			sel.value = "allocs"; sel.dispatchEvent(new Event("change"));
			var box = document.querySelector("label.log-scale input");
			var ov = document.querySelector("section.overview:not([hidden])");
			var c = echarts.getInstanceByDom(ov.querySelector('[id^="c_"]'));
			return {Disabled: box.disabled, Title: box.title, Note: ov.querySelector(".overview-note").textContent,
				Axis: c.getOption().yAxis[0].name, Series: c.getOption().series.length};
		})()`)
		if !s.Disabled || !strings.Contains(s.Title, "at or below 0") {
			t.Errorf("with only allocs (values of 0) shown, the log box is disabled %v, title %q", s.Disabled, s.Title)
		}
		// No series of the allocs overview has a positive median: the
		// normalized view draws it in absolute values and says so.
		if s.Series != 2 || !strings.Contains(s.Axis, "absolute: no positive median") || !strings.Contains(s.Note, "2 test cases without a positive median") {
			t.Errorf("normalized allocs overview: %d series, axis %q, note %q", s.Series, s.Axis, s.Note)
		}
	})

	t.Run("legacy bench URL redirects", func(t *testing.T) {
		old := legacyBench(t, out, "/bench/Parse_JSON/")
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, old)
		waitPath(t, tb, "/bench/Parse_JSON/")
		if h := eval[string](t, tb, "reading the title", `document.querySelector("h1").firstChild.textContent.trim()`); h != "Parse_JSON" {
			t.Errorf("landed on a page titled %q", h)
		}
	})
}

var refreshTo = regexp.MustCompile(`<meta http-equiv="refresh" content="0; url=([^"]+)">`)

// legacyBench finds the old URL of a benchmark page in the built site: the
// redirect page under bench/ that points to to.
func legacyBench(t *testing.T, out, to string) string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(out, "bench", "*", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := refreshTo.FindSubmatch(b); m != nil && string(m[1]) == to {
			return "/bench/" + filepath.Base(filepath.Dir(p)) + "/"
		}
	}
	t.Fatalf("no page under bench/ redirects to %s", to)
	return ""
}

// barLabels measures a metric's changes chart: every text the chart
// draws, the names on the left and the changes on the right.
type barLabels struct {
	Bars     int
	Changes  []string
	Overlaps []string
	Outside  []string
	Empty    bool
}

const barLabelsScript = `(function (metric) {
	var div = document.querySelector("section.metric[data-metric='" + metric + "'] div.chart[data-chart]");
	var c = echarts.getInstanceByDom(div), box = div.getBoundingClientRect();
	var spec = JSON.parse(div.getAttribute("data-chart"));
	var texts = Array.from(div.querySelectorAll("svg text")).filter(function (e) {
		var r = e.getBoundingClientRect();
		return e.textContent.trim() !== "" && r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden" && e.getAttribute("opacity") !== "0";
	}).map(function (e) { return {text: e.textContent, r: e.getBoundingClientRect()}; });
	var out = {Bars: spec.bars.length, Changes: [], Overlaps: [], Outside: []};
	var changes = spec.bars.map(function (b) { return b.new ? "new" : b.text; });
	texts.forEach(function (t, i) {
		if (changes.indexOf(t.text) >= 0) { out.Changes.push(t.text); }
		if (t.r.left < box.left - 0.5 || t.r.right > box.right + 0.5 || t.r.top < box.top - 0.5 || t.r.bottom > box.bottom + 0.5) {
			out.Outside.push(t.text + " " + JSON.stringify([t.r.left, t.r.right, t.r.top, t.r.bottom]) + " in " + JSON.stringify([box.left, box.right, box.top, box.bottom]));
		}
		texts.slice(i + 1).forEach(function (u) {
			var w = Math.min(t.r.right, u.r.right) - Math.max(t.r.left, u.r.left), h = Math.min(t.r.bottom, u.r.bottom) - Math.max(t.r.top, u.r.top);
			if (w > 0.5 && h > 0.5) { out.Overlaps.push(JSON.stringify(t.text) + " and " + JSON.stringify(u.text)); }
		});
	});
	out.Empty = texts.length === 0;
	return out;
})`

// checkBarLabels requires that no two texts of a changes chart overlap,
// that every text lies inside the chart, and that every bar's change is
// written.
func checkBarLabels(t *testing.T, tb *tab, metric string) barLabels {
	t.Helper()
	r := eval[barLabels](t, tb, "measuring the bar chart's labels", barLabelsScript+"("+jsString(metric)+")")
	if r.Empty {
		t.Fatalf("%s: the changes chart draws no text", metric)
	}
	for _, o := range r.Overlaps {
		t.Errorf("%s: labels overlap: %s", metric, o)
	}
	for _, o := range r.Outside {
		t.Errorf("%s: label outside the chart: %s", metric, o)
	}
	if len(r.Changes) != r.Bars {
		t.Errorf("%s: %d of %d changes written: %q", metric, len(r.Changes), r.Bars, r.Changes)
	}
	return r
}

// demoDataset loads the demo site's dataset, as the build reads it.
func demoDataset(t *testing.T) *model.Dataset {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: browser and whole-site tests run without -short")
	}
	s, err := generator.Demo()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	d, _, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// seriesValue is a series' value at an artifact, as the site stores it.
func seriesValue(s *model.Series, a int) (float64, bool) {
	if p := s.At(a); p != nil && p.OK() {
		return p.Value, true
	}
	return 0, false
}

func TestDemoUI(t *testing.T) {
	path := chromium(t)
	base := demoSite(t)
	d := demoDataset(t)
	browserCtx := startBrowser(t, path)

	t.Run("compare form computes a pair", func(t *testing.T) {
		// A pair of main-line commits the site does not pre-render.
		n := len(d.MainLine)
		var b, h int
		for back := 9; ; back++ {
			b, h = d.MainLine[n-3-back], d.MainLine[n-3]
			if _, err := os.Stat(filepath.Join(demo.dir, "public", "compare", d.Artifacts[b].ID+"..."+d.Artifacts[h].ID)); err != nil {
				break
			}
		}
		bid, hid := d.Artifacts[b].ID, d.Artifacts[h].ID
		tb := phoneTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/compare/")
		eval[chromedp.Void](t, tb, "filling the form", `(function () {
			var f = document.querySelector("form.compare-form");
			f.elements.base.value = `+jsString(bid[:7])+`;
			f.elements.head.value = `+jsString(hid[:7])+`;
			f.requestSubmit();
		})()`)
		if !poll(t, tb, pollTimeout, `document.querySelector("form.compare-form").hasAttribute("data-loaded")`) {
			t.Fatalf("no result: %s", eval[string](t, tb, "reading the status", `document.querySelector(".compare-status").textContent + " " + (document.querySelector("form.compare-form").getAttribute("data-error") || "")`))
		}
		if q := eval[string](t, tb, "reading the URL", `location.pathname + location.search`); q != "/compare/?base="+bid+"&head="+hid {
			t.Errorf("the result's URL is %s", q)
		}
		checkCompareRows(t, tb, d, b, h)
		screenshot(t, tb, "compare-form-390", "")
		eval[chromedp.Void](t, tb, "scrolling", `document.querySelector(".compare-result table").scrollIntoView()`)
		screenshot(t, tb, "compare-form-rows-390", "")
		w := eval[[]int](t, tb, "measuring the page", `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`)
		if w[0] > w[1]+1 {
			t.Errorf("the compare page is %d px wide on a %d px screen", w[0], w[1])
		}

		// The URL is shareable: opened again, it computes the same.
		tb2 := openTab(t, browserCtx, base)
		defer tb2.check(t)
		tb2.open(t, "/compare/?base="+bid+"&head="+hid)
		if !poll(t, tb2, pollTimeout, `document.querySelector("form.compare-form").hasAttribute("data-loaded")`) {
			t.Fatal("opening the result's URL computes nothing")
		}
		checkCompareRows(t, tb2, d, b, h)
	})

	t.Run("compare form opens pre-rendered pairs", func(t *testing.T) {
		n := len(d.MainLine)
		b, h := d.Artifacts[d.MainLine[n-5]], d.Artifacts[d.MainLine[n-4]]
		cases := []struct {
			name, base, head, want string
		}{
			{"consecutive commits", b.ID[:8], h.ID, "/commit/" + h.ID + "/"},
			{"a head alone", "", h.ID[:7], "/commit/" + h.ID + "/"},
			{"an open PR", "", "#1567", "/pr/1567/"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				tb := openTab(t, browserCtx, base)
				defer tb.check(t)
				tb.open(t, "/compare/")
				eval[chromedp.Void](t, tb, "filling the form", `(function () {
					var f = document.querySelector("form.compare-form");
					f.elements.base.value = `+jsString(c.base)+`;
					f.elements.head.value = `+jsString(c.head)+`;
					f.requestSubmit();
				})()`)
				waitPath(t, tb, c.want)
			})
		}
		t.Run("an unknown sha", func(t *testing.T) {
			tb := openTab(t, browserCtx, base)
			defer tb.check(t)
			tb.open(t, "/compare/")
			eval[chromedp.Void](t, tb, "filling the form", `(function () {
				var f = document.querySelector("form.compare-form");
				f.elements.base.value = "";
				f.elements.head.value = "fedcba9";
				f.requestSubmit();
			})()`)
			if !poll(t, tb, pollTimeout, `/No artifact “fedcba9”/.test(document.querySelector(".compare-status").textContent)`) {
				t.Errorf("status: %q", eval[string](t, tb, "reading the status", `document.querySelector(".compare-status").textContent`))
			}
		})
	})

	t.Run("overview charts: normalized, absolute, log", func(t *testing.T) {
		checkOverviewViews(t, browserCtx, base, d)
	})

	t.Run("lists and pagers", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		var main []string
		for _, a := range d.MainLine {
			main = append(main, "/commit/"+d.Artifacts[a].ID+"/")
		}
		checkList(t, tb, "/commits/", main)
		var prs []string
		for _, pr := range d.PRs() {
			prs = append(prs, fmt.Sprintf("/pr/%d/", pr))
		}
		checkList(t, tb, "/prs/", prs)
	})

	// A benchmark without results in some chunks of the main line (one
	// that stopped) has no data file for them (nor has its pack, when
	// none of the pack's benchmarks has): its page must not ask.
	t.Run("bench page of a benchmark that stopped", func(t *testing.T) {
		indexes, err := filepath.Glob(filepath.Join(demo.dir, "public", "data", "index", "*.json.gz"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]int{}
		most := 0
		for _, name := range indexes {
			var idx struct{ Chunks []int }
			if err := json.Unmarshal(gunzipFile(t, name), &idx); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			bench := strings.TrimSuffix(filepath.Base(name), ".json.gz")
			files[bench] = len(idx.Chunks)
			most = max(most, len(idx.Chunks))
		}
		n := 0
		for bench, c := range files {
			if c == most {
				continue
			}
			n++
			tb := openTab(t, browserCtx, base)
			tb.open(t, "/bench/"+bench+"/")
			checkCharts(t, tb)
			tb.check(t)
		}
		if n == 0 {
			t.Skip("every benchmark of the demo has a data file in every chunk")
		}
	})

	t.Run("short sha redirects", func(t *testing.T) {
		id := d.Artifacts[d.MainLine[len(d.MainLine)/2]].ID
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/commit/"+id[:7]+"/")
		waitPath(t, tb, "/commit/"+id+"/")
		if !poll(t, tb, pollTimeout, `!!document.querySelector(".comparison .comparison-header")`) {
			t.Error("the short sha's redirect lands on a page without the comparison")
		}
	})

	t.Run("triage icons are SVG", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/triage/2026-09-28/")
		type icons struct {
			SVG     int
			Sized   int
			Labels  []string
			Emoji   []string
			Classes []string
		}
		r := eval[icons](t, tb, "reading the icons", `(function () {
			var svgs = Array.from(document.querySelectorAll("main svg.icon"));
			var text = document.querySelector("main").textContent;
			return {SVG: svgs.length,
				Sized: svgs.filter(function (s) { var r = s.getBoundingClientRect(); return r.width >= 8 && r.height >= 8; }).length,
				Labels: svgs.map(function (s) { return s.getAttribute("aria-label") || ""; }),
				Emoji: (text.match(/[\u2705\u274C\u26A0\u{1F7E2}\u{1F534}]/gu) || [])};
		})()`)
		if r.SVG == 0 || r.Sized != r.SVG {
			t.Errorf("%d SVG icons, %d of them drawn at least 8 px", r.SVG, r.Sized)
		}
		if slices.Contains(r.Labels, "") {
			t.Errorf("an icon without aria-label: %q", r.Labels)
		}
		if len(r.Emoji) > 0 {
			t.Errorf("emoji left in the text (they need an emoji font): %q", r.Emoji)
		}
	})
}

// compareRow is a row of the compare form's result.
type compareRow struct {
	Metric, Bench, Params, Machine, Before, After, Change string
	Order                                                 float64
}

// checkCompareRows compares the form's rows with analysis: the values the
// site stores (analysis.FormatValue) and analysis.RelativeChange between
// them (report.FormatChange), sorted by the size of the change.
func checkCompareRows(t *testing.T, tb *tab, d *model.Dataset, b, h int) {
	t.Helper()
	rows := eval[[]compareRow](t, tb, "reading the result", `Array.from(document.querySelectorAll(".compare-result section.compare-metric")).flatMap(function (sec) {
		return Array.from(sec.querySelectorAll("tbody tr")).map(function (tr) {
			var c = tr.cells;
			return {Metric: sec.getAttribute("data-metric"), Bench: c[0].textContent, Params: c[1].textContent.trim(), Machine: c[2].textContent,
				Before: c[3].textContent, After: c[4].textContent, Change: c[5].textContent, Order: tr.hasAttribute("data-change") ? Math.abs(Number(tr.getAttribute("data-change"))) : -1};
		});
	})`)
	type key struct{ metric, bench, params, machine string }
	series := map[key]*model.Series{}
	for _, s := range d.Series {
		series[key{s.Key.Metric, s.Case.Benchmark, s.Key.Params, s.Key.Machine}] = s
	}
	checked := 0
	last := map[string]float64{}
	for _, r := range rows {
		s := series[key{r.Metric, r.Bench, r.Params, r.Machine}]
		if s == nil {
			t.Errorf("row %+v: no such series", r)
			continue
		}
		bv, bok := seriesValue(s, b)
		hv, hok := seriesValue(s, h)
		if !bok || !hok {
			continue
		}
		c, _ := analysis.RelativeChange(bv, hv)
		want := compareRow{r.Metric, r.Bench, r.Params, r.Machine, analysis.FormatValue(bv, s.Metric.Unit), analysis.FormatValue(hv, s.Metric.Unit), report.FormatChange(c), math.Abs(c)}
		if r != want {
			t.Errorf("row\n  %+v\nwant\n  %+v", r, want)
		}
		if prev, ok := last[r.Metric]; ok && r.Order > prev {
			t.Errorf("%s: |%s| follows a smaller change", r.Metric, r.Change)
		}
		last[r.Metric] = r.Order
		checked++
	}
	if checked < 10 {
		t.Errorf("%d rows checked of %d, want at least 10", checked, len(rows))
	}
	t.Logf("%d rows equal analysis' relative change", checked)
}

// checkList walks a paged list from its index: every page of its pager
// loads and links to the pages of want, which together it lists exactly
// once each; the index shows the newest.
func checkList(t *testing.T, tb *tab, index string, want []string) {
	t.Helper()
	tb.open(t, index)
	pages := eval[[]string](t, tb, "reading the pager", `Array.from(document.querySelectorAll("nav.pager")[0] ? document.querySelectorAll("nav.pager")[0].querySelectorAll("a[href]") : []).map(function (a) { return a.getAttribute("href"); })`)
	if len(pages) < 2 {
		t.Fatalf("%s: pager links %q, want a page per %d entries", index, pages, 100)
	}
	linked := `Array.from(document.querySelectorAll("main table.list tbody tr")).map(function (tr) { return tr.cells[0].querySelector("a").getAttribute("href"); })`
	newest := eval[[]string](t, tb, "reading the index", linked)
	seen := map[string]int{}
	for _, p := range pages {
		tb.open(t, p)
		if cur := eval[string](t, tb, "reading the current page", `(document.querySelector('nav.pager [aria-current="page"]') || {textContent: ""}).textContent`); "/"+strings.Trim(index, "/")+"/"+cur+"/" != p {
			t.Errorf("%s: the pager marks page %q as current", p, cur)
		}
		for _, l := range eval[[]string](t, tb, "reading the list", linked) {
			seen[l]++
		}
	}
	for _, w := range want {
		if seen[w] != 1 {
			t.Errorf("%s: %s listed %d times on the pages", index, w, seen[w])
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%s: %d entries on the pages, want %d", index, len(seen), len(want))
	}
	if len(newest) == 0 || !slices.Contains(want[len(want)-1:], newest[0]) && !slices.Contains(want[:1], newest[0]) {
		t.Errorf("%s: the index starts with %q", index, newest)
	}
	t.Logf("%s: %d pages, %d entries", index, len(pages), len(seen))
}

// overviewState is what an overview chart draws and what the bench page's
// boxes say.
type overviewState struct {
	URL      string
	Abs, Log bool
	Disabled bool
	Type     string
	Name     string
	Series   []struct {
		Name string
		Data [][2]float64
	}
	History       string    // the value axis type of the page's first history chart
	HistoryValues []float64 // and its values
	Error         string
}

const overviewStateScript = `(function () {
	var ov = document.querySelector("section.overview:not([hidden])");
	if (!ov) { return {Error: "no overview section"}; }
	var c = echarts.getInstanceByDom(ov.querySelector('[id^="c_"]'));
	var hist = document.querySelector("section.series:not(.overview):not([hidden]) [id^='c_']");
	var hc = hist && echarts.getInstanceByDom(hist);
	var abs = document.querySelector("label.abs-values input"), log = document.querySelector("label.log-scale input");
	if (!c || !abs || !log) { return {Error: "chart " + !!c + ", absolute box " + !!abs + ", log box " + !!log}; }
	var o = c.getOption();
	var hv = hc ? (hc.getOption().series[0] || {data: []}).data.map(function (it) { return it.value[1]; }).filter(function (v) { return v !== null; }) : [];
	return {URL: location.pathname + location.search, Abs: abs.checked, Log: log.checked, Disabled: log.disabled,
		Type: o.yAxis[0].type, Name: o.yAxis[0].name, History: hc ? hc.getOption().yAxis[0].type : "", HistoryValues: hv,
		Series: o.series.map(function (s) { return {Name: s.name, Data: s.data.map(function (it) { return it.value; })}; })};
})()`

// checkOverviewViews drives a bench page's overview chart through its
// views: by default each value in percent of its series' median (the
// page's script computes it from the data files, as analysis.MedianOf
// does over the main line: each drawn value must be 100 × v / that, bit
// for bit),
// then absolute values, then a log axis; the boxes say what is drawn after
// each toggle and after a reload, and the view is in the URL.
func checkOverviewViews(t *testing.T, browserCtx context.Context, base string, d *model.Dataset) {
	const page = "/bench/json-encode/"
	tb := openTab(t, browserCtx, base)
	defer tb.check(t)
	tb.open(t, page)
	checkCharts(t, tb)
	type spec struct {
		Metric, Machine string
		Chart           struct {
			Unit   string
			Series []struct {
				Name string
			}
		}
	}
	sp := eval[spec](t, tb, "reading the overview's spec", `(function () {
		var ov = document.querySelector("section.overview");
		return {Metric: ov.getAttribute("data-metric"), Machine: ov.getAttribute("data-machine"), Chart: JSON.parse(ov.querySelector("[data-chart]").getAttribute("data-chart"))};
	})()`)
	// Each series' main-line values by date, and their median.
	values := map[string]map[float64]float64{}
	median := map[string]float64{}
	for _, cs := range sp.Chart.Series {
		var s *model.Series
		for _, x := range d.Series {
			if x.Case.Benchmark == "json-encode" && x.Key.Metric == sp.Metric && x.Key.Machine == sp.Machine && x.Key.Params == cs.Name {
				s = x
			}
		}
		if s == nil {
			t.Fatalf("no series %s %s on %s", cs.Name, sp.Metric, sp.Machine)
		}
		byDate := map[float64]float64{}
		var all []float64
		for _, a := range d.MainLine {
			if v, ok := seriesValue(s, a); ok {
				byDate[float64(d.Artifacts[a].Date.UnixMilli())] = v
				all = append(all, v)
			}
		}
		median[cs.Name] = analysis.MedianOf(all)
		values[cs.Name] = byDate
	}
	read := func(what string) overviewState {
		t.Helper()
		s := eval[overviewState](t, tb, what, overviewStateScript)
		if s.Error != "" {
			t.Fatalf("%s: %s", what, s.Error)
		}
		return s
	}
	// check requires the state the boxes abs and log describe.
	check := func(what string, abs, log bool) {
		t.Helper()
		s := read(what)
		if s.Abs != abs || s.Log != log {
			t.Errorf("%s: boxes absolute %v, log %v; want %v, %v", what, s.Abs, s.Log, abs, log)
		}
		// Log when asked for, or when the values span two orders of
		// magnitude (site.js's valueAxis), if every value is above 0.
		axisOf := func(values []float64) string {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range values {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			if len(values) > 0 && lo > 0 && (log || hi/lo >= 100) {
				return "log"
			}
			return "value"
		}
		var ov []float64
		for _, ds := range s.Series {
			for _, p := range ds.Data {
				ov = append(ov, p[1])
			}
		}
		if want, wantH := axisOf(ov), axisOf(s.HistoryValues); s.Type != want || s.History != wantH {
			t.Errorf("%s: value axes %q (overview), %q (history), want %q, %q", what, s.Type, s.History, want, wantH)
		}
		q := []string{}
		if abs {
			q = append(q, "abs=1")
		}
		if log {
			q = append(q, "log=1")
		}
		wantURL := page
		if len(q) > 0 {
			wantURL += "?" + strings.Join(q, "&")
		}
		if s.URL != wantURL {
			t.Errorf("%s: URL %s, want %s", what, s.URL, wantURL)
		}
		if len(s.Series) != len(sp.Chart.Series) {
			t.Errorf("%s: %d series drawn, want %d", what, len(s.Series), len(sp.Chart.Series))
		}
		if !abs && !strings.HasPrefix(s.Name, "% of median") {
			t.Errorf("%s: value axis named %q", what, s.Name)
		}
		var factor float64
		for _, ds := range s.Series {
			byDate := values[ds.Name]
			if len(ds.Data) != len(byDate) {
				t.Errorf("%s: %s has %d points, want %d", what, ds.Name, len(ds.Data), len(byDate))
			}
			for _, p := range ds.Data {
				v, ok := byDate[p[0]]
				switch {
				case !ok:
					t.Errorf("%s: %s has a point at %v, which has no value", what, ds.Name, p[0])
				case !abs && p[1] != 100*v/median[ds.Name]:
					t.Errorf("%s: %s at %v is %v, want 100 × %v / %v", what, ds.Name, p[0], p[1], v, median[ds.Name])
				case abs && factor == 0:
					factor = v / p[1]
				case abs && p[1] != v/factor:
					t.Errorf("%s: %s at %v is %v, want %v / %v", what, ds.Name, p[0], p[1], v, factor)
				}
			}
		}
	}
	click := func(box string) {
		t.Helper()
		eval[chromedp.Void](t, tb, "clicking "+box, `document.querySelector("label.`+box+` input").click()`)
	}
	ready := `(function () {
		var c = echarts.getInstanceByDom(document.querySelector("section.overview [id^='c_']"));
		var h = document.querySelector("section.series:not(.overview) [id^='c_']");
		var hc = h && echarts.getInstanceByDom(h);
		var log = document.querySelector("label.log-scale input").checked;
		return !!c && c.getOption().series.length > 0 && !!hc && (!log || hc.getOption().yAxis[0].type === "log");
	})()`

	poll(t, tb, pollTimeout, ready) // check says what is wrong if it never is
	check("by default", false, false)
	screenshot(t, tb, "overview-default", "section.overview")
	click("abs-values")
	check("absolute", true, false)
	click("log-scale")
	check("absolute, log", true, true)
	click("abs-values")
	check("normalized, log", false, true)
	screenshot(t, tb, "overview-log", "section.overview")

	// A reload draws what the URL says, and the boxes say so (a browser
	// restoring form state must not make them lie).
	ctx, cancel := context.WithTimeout(tb.ctx, navigateTimeout)
	err := chromedp.Do(ctx, chromedp.Reload())
	cancel()
	if err != nil {
		t.Fatalf("reloading: %v", err)
	}
	checkCharts(t, tb)
	poll(t, tb, pollTimeout, ready) // check says what is wrong if it never is
	check("reloaded", false, true)
	click("log-scale")
	check("back to the default", false, false)
}
