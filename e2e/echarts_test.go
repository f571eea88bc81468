package e2e

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/perfpages/perfpages/themes"
)

// chartPage is a page of the demo site that draws charts, chosen for what
// it draws (name).
type chartPage struct {
	name string
	path string // URL path, with a query when the view needs one
	rows bool   // expand the first table row into its history chart
}

// chartPages returns, for every section of the demo site whose pages load
// ECharts, the smallest page of each chart kind the section draws, and the
// smallest commit page with expandable rows: between them every chart the
// site draws, in every option it draws them with. The dashboard, the
// regressions and the triage pages draw none (the test fails if a page of
// another section loads ECharts, so that the list grows with the site).
func chartPages(t *testing.T) []chartPage {
	t.Helper()
	demoSite(t)
	public := filepath.Join(demo.dir, "public")
	var files []string
	err := filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	kind := regexp.MustCompile(`class="chart chart-([a-z]+)"`)
	type candidate struct {
		page chartPage
		size int
	}
	best := map[string]candidate{}
	consider := func(key string, p chartPage, size int) {
		if c, ok := best[key]; !ok || size < c.size {
			best[key] = candidate{p, size}
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		html := string(b)
		if !strings.Contains(html, "echarts.min.js") {
			continue
		}
		rel, _ := filepath.Rel(public, f)
		rel = filepath.ToSlash(rel)
		section, _, _ := strings.Cut(rel, "/")
		switch section {
		case "bench", "commit", "compare", "pr":
		default:
			t.Errorf("%s loads ECharts: add its section to chartPages", rel)
			continue
		}
		p := "/" + strings.TrimSuffix(rel, "index.html")
		for _, m := range kind.FindAllStringSubmatch(html, -1) {
			key := section + " " + m[1]
			consider(key, chartPage{name: key, path: p}, len(html))
		}
		if section == "commit" && strings.Contains(html, ` data-series="`) && kind.MatchString(html) {
			consider("commit row history", chartPage{name: "commit row history", path: p, rows: true}, len(html))
		}
	}
	keys := []string{"bench history", "bench overview", "commit changes", "commit row history", "compare changes", "pr changes"}
	for k := range best {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	var pages []chartPage
	add := func(p chartPage) {
		// One visit per page: the kinds it was chosen for share it.
		if i := slices.IndexFunc(pages, func(q chartPage) bool { return q.path == p.path }); i >= 0 {
			pages[i].name += ", " + p.name
			pages[i].rows = pages[i].rows || p.rows
			return
		}
		pages = append(pages, p)
	}
	for _, k := range keys {
		c, ok := best[k]
		if !ok {
			t.Errorf("the demo site has no page with %s charts", k)
			continue
		}
		add(c.page)
		if k == "bench history" {
			// The same page once more on a log axis.
			add(chartPage{name: k + " on a log axis", path: c.page.path + "?log=1"})
		}
	}
	return pages
}

// recordECharts runs in every page before its scripts: it wraps the
// global echarts, once the theme's build sets it, so that every chart
// notes what each of its options asks ECharts for — the series types, the
// components (with their type: a slider data zoom, a log axis) and the
// renderer — and, right after ECharts took the option, what of it ECharts
// built no model for. A production build of ECharts ignores a series type
// or component that it lacks without a word (only its dev build says "…
// is used but not imported").
const recordECharts = `(function () {
	var mains = ["grid", "xAxis", "yAxis", "polar", "radiusAxis", "angleAxis", "singleAxis", "parallel", "parallelAxis",
		"geo", "calendar", "legend", "tooltip", "axisPointer", "dataZoom", "visualMap", "title", "toolbox", "timeline",
		"graphic", "brush", "dataset", "aria", "radar", "markLine", "markArea", "markPoint"];
	var markers = ["markLine", "markArea", "markPoint"];
	var charts = window.__e2eCharts = [];
	var note = function (used, o) {
		if (!o || typeof o !== "object") { return; }
		Object.keys(o).forEach(function (k) {
			if (o[k] === null || o[k] === undefined) { return; }
			[].concat(o[k]).forEach(function (x) {
				if (!x || typeof x !== "object") { return; }
				if (k === "series") {
					used["series" + (x.type ? "." + x.type : "")] = true;
					markers.forEach(function (m) { if (x[m]) { used[m] = true; } });
				} else if (mains.indexOf(k) >= 0) {
					used[k + (typeof x.type === "string" ? "." + x.type : "")] = true;
				}
			});
		});
	};
	var modelled = function (c, u) {
		var main = u.split(".")[0], sub = u.split(".")[1], m = c.getModel();
		if (main === "renderer") { return c.getZr().painter.type === sub; }
		var models = main === "series" ? m.getSeries() : m.queryComponents({mainType: main});
		return models.some(function (x) { return !sub || x.subType === sub; });
	};
	var check = function (rec, used) {
		Object.keys(used).forEach(function (u) {
			rec.used[u] = true;
			if (!modelled(rec.chart, u) && rec.missing.indexOf(u) < 0) { rec.missing.push(u); }
		});
	};
	var wrapped;
	Object.defineProperty(window, "echarts", {configurable: true, enumerable: true,
		get: function () { return wrapped; },
		set: function (lib) {
			wrapped = Object.create(lib);
			Object.defineProperty(wrapped, "init", {value: function (dom, theme, opts) {
				var c = lib.init(dom, theme, opts);
				if (c.__e2e) { return c; }
				var rec = c.__e2e = {chart: c, used: {}, missing: []};
				charts.push(rec);
				var renderer = {};
				renderer["renderer." + ((opts && opts.renderer) || "canvas")] = true;
				check(rec, renderer);
				var setOption = c.setOption;
				c.setOption = function (o) {
					var used = {};
					note(used, o);
					var r = setOption.apply(this, arguments);
					check(rec, used);
					return r;
				};
				return c;
			}});
		}});
})()`

// echartsAudit lists, for every chart the page made, what its options
// asked for and what of it ECharts had no model for.
const echartsAudit = `(window.__e2eCharts || []).map(function (rec) {
	var el = rec.chart.getDom();
	return {chart: (el && (el.id || el.className)) || "", used: Object.keys(rec.used).sort(), missing: rec.missing};
})`

type chartAudit struct {
	Chart   string   `json:"chart"`
	Used    []string `json:"used"`
	Missing []string `json:"missing"`
}

// moduleUse maps a module of the theme's ECharts build (as its header
// lists them) to the option that needs it.
var moduleUse = map[string]string{
	"LineChart":         "series.line",
	"BarChart":          "series.bar",
	"ScatterChart":      "series.scatter",
	"GridComponent":     "grid",
	"LegendComponent":   "legend",
	"TooltipComponent":  "tooltip",
	"DataZoomComponent": "dataZoom",
	"MarkLineComponent": "markLine",
	"SVGRenderer":       "renderer.svg",
}

// buildModules reads the modules of the theme's custom ECharts build from
// the header scripts/echarts/build.mjs writes.
func buildModules(t *testing.T) []string {
	t.Helper()
	b, err := fs.ReadFile(themes.Default, "static/js/echarts.min.js")
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(b), "var echarts=")
	_, list, ok := strings.Cut(head, "echarts/core with")
	list, _, _ = strings.Cut(list, ".\n* Licences")
	if !ok {
		t.Fatal(`echarts.min.js: no "echarts/core with" in its header (not built by scripts/echarts/build.mjs?)`)
	}
	return strings.FieldsFunc(list, func(r rune) bool { return strings.ContainsRune(",;*\n ", r) })
}

// TestChartPages opens every kind of page that draws charts (the smallest
// of each, see chartPages), draws every chart (a table row's history too,
// and a history on a log axis) and requires
//
//   - that the theme's ECharts build has every series type, component and
//     renderer the charts ask for, without a console error, and that every
//     module of the build is asked for by some chart: the build ships only
//     the chart code the site uses (scripts/echarts makes the build);
//   - that the page costs at most 250 KB gzip to open (checkWeight).
//
// One visit per page: the browser tests share the e2e package's time.
func TestChartPages(t *testing.T) {
	browserPath := chromium(t)
	base := demoSite(t)
	pages := chartPages(t)
	browserCtx := startBrowser(t, browserPath)
	used := map[string]bool{}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			t.Logf("page %s", p.path)
			tb := openTab(t, browserCtx, base)
			ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
			_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: recordECharts})
			cancel()
			if err != nil {
				t.Fatalf("adding the recorder: %v", err)
			}
			tb.open(t, p.path)
			checkCharts(t, tb)
			if !strings.Contains(p.path, "?") {
				checkWeight(t, tb)
			}
			if p.rows {
				const expand = `document.querySelector("table.rows tbody tr[data-series] button.expand")`
				if !poll(t, tb, pollTimeout, expand+" !== null") {
					t.Fatal("no expandable row")
				}
				eval[chromedp.Void](t, tb, "expanding a row", expand+".click()")
				if !poll(t, tb, pollTimeout, `document.querySelector("div.row-chart-plot[data-loaded], div.row-chart-plot[data-error]") !== null`) {
					t.Fatal("the row's history chart did not draw")
				}
				if e := eval[string](t, tb, "reading the row chart", `document.querySelector("div.row-chart-plot").getAttribute("data-error") || ""`); e != "" {
					t.Errorf("the row's history chart: %s", e)
				}
			}
			audits := eval[[]chartAudit](t, tb, "auditing the charts", echartsAudit)
			if len(audits) == 0 {
				t.Error("no chart recorded (did the recorder miss echarts?)")
			}
			for _, a := range audits {
				if len(a.Missing) > 0 {
					t.Errorf("chart %s asks for %v, which the ECharts build does not register", a.Chart, a.Missing)
				}
				for _, u := range a.Used {
					used[u] = true
				}
			}
			tb.check(t)
		})
	}
	if t.Failed() {
		return
	}
	all := slices.Sorted(func(yield func(string) bool) {
		for u := range used {
			if !yield(u) {
				return
			}
		}
	})
	t.Logf("the charts ask for %v", all)
	for _, m := range buildModules(t) {
		need, ok := moduleUse[m]
		if !ok {
			t.Errorf("the ECharts build has %s, which moduleUse does not know: say which option needs it", m)
			continue
		}
		if !slices.ContainsFunc(all, func(u string) bool { return u == need || strings.HasPrefix(u, need+".") }) {
			t.Errorf("the ECharts build has %s, which no chart asks for (%s): drop it from scripts/echarts/build.mjs", m, need)
		}
	}
}
