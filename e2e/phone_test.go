package e2e

// Browser tests of what a reader meets first: on a phone (390 px) every
// table shows its change and verdict without scrolling sideways and the
// page never scrolls sideways; chart texts (legend, axis names, tick
// labels, bar names) never overlap, and the names of a changes chart's
// bars tell them apart; on a wide screen the triage report uses the
// width; a first run with one archive shows no table without rows.

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// phoneLayoutScript measures the page as a phone shows it: the document's
// width against the screen's, every table cell that lies outside the
// screen (sideways), every table with no row to show, and for each drawn
// chart the texts that overlap another or stick out of the chart, and the
// bars of a changes chart whose names read alike though their series
// differ.
const phoneLayoutScript = `(function () {
	var cw = document.documentElement.clientWidth;
	var out = {Scroll: document.documentElement.scrollWidth, Client: cw, Cells: [], EmptyTables: [], Tables: 0, Charts: 0, Overlaps: [], Outside: [], Alike: []};
	// A closed details' content has boxes (content-visibility: hidden).
	var visible = function (e) { return e.checkVisibility({visibilityProperty: true}); };
	document.querySelectorAll("main table").forEach(function (tbl) {
		if (!visible(tbl) || tbl.closest("template")) { return; }
		out.Tables++;
		var name = (tbl.className ? "table." + tbl.className.split(" ").join(".") : "table") + " under " + ((tbl.closest("section, details, article") || {}).id || (tbl.previousElementSibling || {}).textContent || "").toString().slice(0, 40);
		if (tbl.tBodies.length && Array.from(tbl.tBodies).every(function (b) { return b.rows.length === 0; })) { out.EmptyTables.push(name); }
		tbl.querySelectorAll("td, th").forEach(function (c) {
			var r = c.getBoundingClientRect();
			if (r.width === 0 || r.height === 0) { return; }
			var head = c.closest("thead");
			if (head && r.width <= 1 && r.height <= 1) { return; }
			if (head && getComputedStyle(head).position === "absolute") { return; }
			if (r.left < -1 || r.right > cw + 1) {
				out.Cells.push(name + ": " + JSON.stringify(c.textContent.trim().slice(0, 40)) + " at " + Math.round(r.left) + "–" + Math.round(r.right) + " px");
			}
		});
	});
	var shown = function (e) {
		var r = e.getBoundingClientRect(), st = getComputedStyle(e);
		return e.textContent.trim() !== "" && r.width > 0 && r.height > 0 && st.visibility !== "hidden" && st.display !== "none" && e.getAttribute("opacity") !== "0";
	};
	document.querySelectorAll('[id^="c_"]').forEach(function (div) {
		var c = typeof echarts === "object" ? echarts.getInstanceByDom(div) : null;
		if (!c || !visible(div)) { return; }
		out.Charts++;
		var box = div.getBoundingClientRect();
		var texts = Array.from(div.querySelectorAll("svg text")).filter(shown).map(function (e) { return {text: e.textContent, r: e.getBoundingClientRect()}; });
		texts.forEach(function (t, i) {
			if (t.r.left < box.left - 0.5 || t.r.right > box.right + 0.5 || t.r.top < box.top - 0.5 || t.r.bottom > box.bottom + 0.5) {
				out.Outside.push(div.id + ": " + JSON.stringify(t.text));
			}
			texts.slice(i + 1).forEach(function (u) {
				var w = Math.min(t.r.right, u.r.right) - Math.max(t.r.left, u.r.left), h = Math.min(t.r.bottom, u.r.bottom) - Math.max(t.r.top, u.r.top);
				if (w > 0.5 && h > 0.5) { out.Overlaps.push(div.id + ": " + JSON.stringify(t.text) + " and " + JSON.stringify(u.text)); }
			});
		});
		var spec = JSON.parse(div.getAttribute("data-chart") || "{}");
		if (spec.kind !== "changes") { return; }
		var label = c.getOption().yAxis[0].axisLabel.formatter;
		var names = spec.bars.map(function (b, i) { return label(b.label, i); });
		spec.bars.forEach(function (b, i) {
			for (var j = i + 1; j < spec.bars.length; j++) {
				if (names[i] === names[j] && b.label !== spec.bars[j].label) {
					out.Alike.push(div.id + ": " + JSON.stringify(b.label) + " and " + JSON.stringify(spec.bars[j].label) + " both read " + JSON.stringify(names[i]));
				}
			}
		});
	});
	return out;
})()`

type phoneLayout struct {
	Scroll, Client int
	Cells          []string
	EmptyTables    []string
	Tables, Charts int
	Overlaps       []string
	Outside        []string
	Alike          []string
}

// checkPhoneLayout requires of the page in tb what phoneLayoutScript
// measures, and returns the measures. Empty tables are an error when
// noEmpty is set.
func checkPhoneLayout(t *testing.T, tb *tab, where string, noEmpty bool) phoneLayout {
	t.Helper()
	r := eval[phoneLayout](t, tb, "measuring "+where, phoneLayoutScript)
	if r.Scroll > r.Client+1 {
		t.Errorf("%s: the page is %d px wide on a %d px screen", where, r.Scroll, r.Client)
	}
	for _, c := range r.Cells {
		t.Errorf("%s: a table cell off the screen (sideways): %s", where, c)
	}
	for _, o := range r.Overlaps {
		t.Errorf("%s: chart texts overlap: %s", where, o)
	}
	for _, o := range r.Outside {
		t.Errorf("%s: chart text outside its chart: %s", where, o)
	}
	for _, a := range r.Alike {
		t.Errorf("%s: bars that cannot be told apart: %s", where, a)
	}
	if noEmpty {
		for _, e := range r.EmptyTables {
			t.Errorf("%s: a table with headers and no row: %s", where, e)
		}
	}
	return r
}

// openFolded opens the page's folded rows and history tables and waits
// until the script has filled them.
func openFolded(t *testing.T, tb *tab) {
	t.Helper()
	n := eval[int](t, tb, "opening folded tables", `(function () {
		var ds = Array.from(document.querySelectorAll("details.other-rows, details.history[data-series]")).slice(0, 6);
		ds.forEach(function (d) { d.open = true; });
		return ds.length;
	})()`)
	if n == 0 {
		return
	}
	if !poll(t, tb, pollTimeout, `Array.from(document.querySelectorAll("details.other-rows[open], details.history[data-series][open]")).every(function (d) { return d.hasAttribute("data-loaded") || d.hasAttribute("data-error"); })`) {
		t.Errorf("folded tables not filled")
	}
}

// hasCharts waits for the page's charts, if it has any.
func hasCharts(t *testing.T, tb *tab) {
	t.Helper()
	if eval[bool](t, tb, "looking for charts", `document.querySelector('[id^="c_"]') !== null`) {
		checkCharts(t, tb)
	}
}

// eachTab runs check once per metric tab of the page (once when it has
// none), with that tab shown.
func eachTab(t *testing.T, tb *tab, check func(name string)) {
	t.Helper()
	tabs := eval[[]string](t, tb, "listing the tabs", `Array.from(document.querySelectorAll('.tabs [role="tab"]')).map(function (b) { return b.id; })`)
	if len(tabs) == 0 {
		check("")
		return
	}
	for _, id := range tabs {
		eval[chromedp.Void](t, tb, "choosing a tab", `document.getElementById(`+jsString(id)+`).click()`)
		nextPaint(t, tb)
		check(id)
	}
}

var relevantAttr = regexp.MustCompile(`data-relevant="(\d+)"`)

// richestCommit is the path of the demo's commit page with the most
// relevant changes.
func richestCommit(t *testing.T) string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(demo.dir, "public", "commit", "*", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	best, most := "", -1
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range relevantAttr.FindAllSubmatch(b, -1) {
			k, _ := strconv.Atoi(string(m[1]))
			n += k
		}
		if n > most {
			best, most = "/commit/"+filepath.Base(filepath.Dir(p))+"/", n
		}
	}
	if most <= 0 {
		t.Fatal("no demo commit has a relevant change")
	}
	return best
}

func TestPhone(t *testing.T) {
	path := chromium(t)
	base := demoSite(t)
	commit := richestCommit(t)
	browserCtx := startBrowser(t, path)
	for _, p := range []string{"/", commit, "/pr/1567/", "/regressions/", "/commits/", "/prs/", "/triage/", "/triage/2026-09-28/", "/bench/", "/bench/json-encode/", "/guide/"} {
		t.Run(strings.Trim(p, "/"), func(t *testing.T) {
			tb := phoneTab(t, browserCtx, base)
			defer tb.check(t)
			tb.open(t, p)
			hasCharts(t, tb)
			openFolded(t, tb)
			eachTab(t, tb, func(name string) {
				r := checkPhoneLayout(t, tb, p+" "+name, true)
				if r.Tables == 0 && p != "/guide/" && p != "/bench/json-encode/" {
					t.Errorf("%s %s: no table measured", p, name)
				}
			})
			screenshot(t, tb, "phone-"+strings.ReplaceAll(strings.Trim(p, "/"), "/", "-"), "")
		})
	}

	// On a wide screen the triage report uses the width: its summary
	// tables (one per metric) stand side by side.
	t.Run("triage report on a wide screen", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
		err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 1000))
		cancel()
		if err != nil {
			t.Fatalf("setting the viewport: %v", err)
		}
		tb.open(t, "/triage/2026-09-28/")
		type wide struct {
			Report, Client float64
			Tops           []float64
		}
		w := eval[wide](t, tb, "measuring the report", `(function () {
			var rep = document.querySelector(".triage-report");
			var tables = Array.from(rep.querySelectorAll("table")).slice(0, 2);
			return {Report: rep.getBoundingClientRect().width, Client: document.documentElement.clientWidth,
				Tops: tables.map(function (t) { return t.getBoundingClientRect().top; })};
		})()`)
		if w.Report < 0.8*w.Client {
			t.Errorf("the triage report is %.0f px wide on a %.0f px screen", w.Report, w.Client)
		}
		if len(w.Tops) < 2 || w.Tops[0] != w.Tops[1] {
			t.Errorf("the report's first two tables start at %v px: not side by side", w.Tops)
		}
	})
}

// firstRunSite builds a site from one archive (one commit, one machine,
// three results) and serves it.
func firstRunSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"perfpages.toml": "[site]\ntitle = \"First run\"\n\n[[sources]]\ndir = \"results\"\n",
		"results/run.json": `{"schema": "perfpages.run.v1",
 "artifact": {"id": "` + uiSHA(0) + `", "kind": "commit", "date": "2026-10-05T03:00:00Z", "branch": "main", "title": "First commit"},
 "machine": {"name": "linux-x64", "os": "linux", "arch": "amd64", "cores": 4},
 "results": [
  {"benchmark": "parse", "params": {"size": "small"}, "metric": "wall-time", "unit": "ns", "samples": [1000, 1010, 990]},
  {"benchmark": "parse", "params": {"size": "large"}, "metric": "wall-time", "unit": "ns", "samples": [3000, 3010, 2990]},
  {"benchmark": "decode", "metric": "wall-time", "unit": "ns", "samples": [500, 505]}
 ]}`,
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	url, _, _ := serveBuilt(t, dir, "the first-run site")
	return url
}

// A first run reads sensibly on a phone: every table has rows once the
// scripts have run (the first commit's results, its history), no page
// promises rows it does not show.
func TestFirstRunPages(t *testing.T) {
	path := chromium(t)
	base := firstRunSite(t)
	browserCtx := startBrowser(t, path)
	for _, p := range []string{"/", "/commit/" + uiSHA(0) + "/", "/commits/", "/prs/", "/regressions/", "/triage/", "/bench/", "/bench/parse/", "/compare/"} {
		t.Run(strings.Trim(p, "/"), func(t *testing.T) {
			tb := phoneTab(t, browserCtx, base)
			defer tb.check(t)
			tb.open(t, p)
			hasCharts(t, tb)
			openFolded(t, tb)
			checkPhoneLayout(t, tb, p, true)
			text := eval[string](t, tb, "reading the page", `document.querySelector("main").innerText`)
			for _, promise := range []string{"in the tables below", "0 steps found"} {
				if strings.Contains(text, promise) {
					t.Errorf("%s says %q", p, promise)
				}
			}
		})
	}
	t.Run("first commit lists its results", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/commit/"+uiSHA(0)+"/")
		if !poll(t, tb, pollTimeout, `document.querySelectorAll("details.other-rows[data-loaded] table.rows tbody tr[data-bench]").length === 3`) {
			t.Errorf("the first commit's page lists %d results, want 3 without opening anything",
				eval[int](t, tb, "counting rows", `document.querySelectorAll("table.rows tbody tr[data-bench]").length`))
		}
	})
}
