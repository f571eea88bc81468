package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/perfpages/perfpages/analysis"
	"github.com/perfpages/perfpages/generator"
	"github.com/perfpages/perfpages/generator/report"
)

// chromiumEnv names the variable that points the tests at a browser binary
// other than the chromium found on PATH.
const chromiumEnv = "PERFPAGES_CHROMIUM"

// Time limits. Every step has its own; the browser as a whole lives at most
// browserLife, so a hung Chromium cannot hold the test run.
const (
	buildTimeout    = 90 * time.Second
	browserLife     = 3 * time.Minute
	startTimeout    = 30 * time.Second
	pageTimeout     = 45 * time.Second // one tab, all its steps
	navigateTimeout = 20 * time.Second
	stepTimeout     = 10 * time.Second
	pollTimeout     = 20 * time.Second // charts and the filter settle (a deadline, not a speed: a loaded 2-core machine takes seconds); inline scripts run before the load event
	httpTimeout     = 10 * time.Second
)

// echartsVersion is the ECharts release the default theme embeds.
const echartsVersion = "5.6.0"

// demo is the demo site, built once for every test of the package and
// served until TestMain ends.
var demo struct {
	once sync.Once
	dir  string
	srv  *httptest.Server
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if demo.srv != nil {
		demo.srv.Close()
	}
	if demo.dir != "" {
		os.RemoveAll(demo.dir)
	}
	os.Exit(code)
}

// demoSite builds the embedded demo site in-process on first use, serves
// the output folder over HTTP and returns the server's URL.
func demoSite(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: browser and whole-site tests run without -short")
	}
	demo.once.Do(func() {
		start := time.Now()
		demo.dir, demo.err = os.MkdirTemp("", "perfpages-e2e-")
		if demo.err != nil {
			return
		}
		s, err := generator.Demo()
		if err != nil {
			demo.err = fmt.Errorf("loading the demo site: %w", err)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
		defer cancel()
		out := filepath.Join(demo.dir, "public")
		rep, err := s.Build(ctx, generator.BuildOptions{Out: out})
		if err != nil {
			demo.err = fmt.Errorf("building the demo site: %w", err)
			return
		}
		demo.srv = httptest.NewServer(http.FileServer(http.Dir(out)))
		t.Logf("built the demo site (%d pages, %d files, %d warnings) in %v", rep.Pages, rep.Files, len(rep.Warnings), time.Since(start).Round(time.Millisecond))
	})
	if demo.err != nil {
		t.Fatal(demo.err)
	}
	return demo.srv.URL
}

// httpClient fetches pages the way a crawler would, without following
// redirects: a link that only works through a redirect is not the page's
// stable URL.
var httpClient = &http.Client{
	Timeout: httpTimeout,
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// get fetches base+path and returns the body of a 200 response.
func get(base, path string) (string, error) {
	resp, err := httpClient.Get(base + path)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		if loc := resp.Header.Get("Location"); loc != "" {
			return "", fmt.Errorf("%s: %s (redirects to %s)", path, resp.Status, loc)
		}
		return "", fmt.Errorf("%s: %s", path, resp.Status)
	}
	return string(body), nil
}

var commitHref = regexp.MustCompile(`href="(/commit/[0-9a-f]+/)"`)

// recentCommit returns the path of the commit page that the dashboard's
// "Recent relevant comparisons" table lists first among the rows with a relevant
// change, so that the page has charts to check.
func recentCommit(base string) (string, error) {
	page, err := get(base, "/")
	if err != nil {
		return "", fmt.Errorf("fetching the dashboard: %w", err)
	}
	_, section, ok := strings.Cut(page, ">Recent relevant comparisons<")
	if !ok {
		return "", errors.New(`the dashboard has no "Recent relevant comparisons" heading`)
	}
	section, _, _ = strings.Cut(section, "</table>")
	for row := range strings.SplitSeq(section, "<tr") {
		m := commitHref.FindStringSubmatch(row)
		if m != nil && strings.Contains(row, `class="verdict-`) {
			return m[1], nil
		}
	}
	return "", errors.New(`the dashboard's "Recent relevant comparisons" table has no commit with a relevant change`)
}

// mergedCommit returns the path of the commit page a merged PR's page
// links to for its comparison (a merged PR's page does not repeat it).
func mergedCommit(base, prPath string) (string, error) {
	page, err := get(base, prPath)
	if err != nil {
		return "", err
	}
	_, section, ok := strings.Cut(page, `class="merged-comparison"`)
	if !ok {
		return "", fmt.Errorf("%s: no merged comparison section", prPath)
	}
	m := commitHref.FindStringSubmatch(section)
	if m == nil {
		return "", fmt.Errorf("%s: no link to the merged commit's page", prPath)
	}
	return m[1], nil
}

// TestReadableWithoutJavaScript fetches a commit page as plain HTML: the
// summary table and the comparison rows must be there before any script
// runs: the tables are pre-rendered, the script only enhances them.
func TestReadableWithoutJavaScript(t *testing.T) {
	base := demoSite(t)
	path, err := recentCommit(base)
	if err != nil {
		t.Fatal(err)
	}
	page, err := get(base, path)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name string
		re   *regexp.Regexp
	}{
		{"title", regexp.MustCompile(`<h1>[^<]+</h1>`)},
		{"summary table with a data row", regexp.MustCompile(`(?s)<table class="summary-table">.*?<tbody>\s*<tr[^>]*>\s*<t[dh][^>]*>.*?</tbody>`)},
		{"comparison table", regexp.MustCompile(`<table class="rows">`)},
		{"anchored row naming its benchmark", regexp.MustCompile(`<tr id="row-[^"]+"[^>]*>\s*<td[^>]*>\s*<a href="/bench/[^"]+/">[^<]+</a>`)},
		{"row with a percent change", regexp.MustCompile(`(?s)<tr id="row-[^"]+"[^>]*>(?:[^<]|<[^/]|</[^t]|</t[^r])*?[0-9]%`)},
	}
	for _, c := range checks {
		if !c.re.MatchString(page) {
			t.Errorf("%s: no %s in the HTML (pattern %s)", path, c.name, c.re)
		}
	}
	if n := strings.Count(page, `<tr id="row-`); n == 0 {
		t.Errorf("%s: no comparison rows in the HTML", path)
	} else {
		t.Logf("%s: %d comparison rows in the HTML", path, n)
	}
}

// chromium is the browser a test drives; the test is skipped when there
// is none (.ci/run installs it).
func chromium(t *testing.T) string {
	t.Helper()
	path, err := findChromium()
	if err != nil {
		t.Skipf("no Chromium, skipping the browser tests (.ci/run installs it: apt-get install chromium): %v", err)
	}
	return path
}

// findChromium returns the browser to drive: $PERFPAGES_CHROMIUM when set,
// else chromium or chromium-browser on PATH.
func findChromium() (string, error) {
	if p := os.Getenv(chromiumEnv); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("%s=%s: %w", chromiumEnv, p, err)
		}
		return path, nil
	}
	var errs []error
	for _, name := range []string{"chromium", "chromium-browser"} {
		path, err := exec.LookPath(name)
		if err == nil {
			return path, nil
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}

// startBrowser starts one headless Chromium (the binary at path) for the
// whole test and returns its context; each page opens its own tab from it.
// The browser stops when the test ends.
func startBrowser(t *testing.T, path string) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: browser and whole-site tests run without -short")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	life, cancelLife := context.WithTimeout(context.Background(), browserLife)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(life, opts...)
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	// Registered after t.TempDir, so it runs first: the browser has exited
	// (cancelAlloc waits for it) before its profile folder is removed.
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		cancelLife()
	})

	// The first Run binds the browser's life to its context, so it gets
	// the browser's own context and the start-up limit is kept here.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("starting %s: %v", path, err)
		}
	case <-time.After(startTimeout):
		t.Fatalf("starting %s: no answer after %v", path, startTimeout)
	}
	vctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	if v, err := chromedp.CallBrowser(vctx, browser.GetVersion, cdp.Empty{}); err == nil {
		t.Logf("browser: %s (%s)", v.Product, path)
	}
	return ctx
}

// tab is one page open in the browser, with what it reported while the
// test looked at it.
type tab struct {
	ctx  context.Context
	base string

	mu       sync.Mutex
	problems []string                     // console errors, exceptions, failed loads
	requests []string                     // every URL the page asked for, in order
	urls     map[network.RequestID]string // request → URL, to name failed loads
}

// openTab opens a new tab that records its console and network events. It
// is closed when the subtest ends.
func openTab(t *testing.T, browserCtx context.Context, base string) *tab {
	t.Helper()
	limited, cancelLimit := context.WithTimeout(browserCtx, pageTimeout)
	ctx, cancelTab := chromedp.NewContext(limited)
	t.Cleanup(func() {
		cancelTab()
		cancelLimit()
	})
	tb := &tab{ctx: ctx, base: base, urls: map[network.RequestID]string{}}
	if err := chromedp.Listen(ctx, tb.record); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return tb
}

// record runs in the tab's event loop: it must return fast and send no
// command.
func (tb *tab) record(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range ev.Args {
				if len(a.Value) > 0 {
					args = append(args, string(a.Value))
				} else {
					args = append(args, a.Description)
				}
			}
			tb.problems = append(tb.problems, "console.error: "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		tb.problems = append(tb.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", tb.short(d.URL), d.LineNumber+1, msg))
	case *network.EventRequestWillBeSent:
		tb.requests = append(tb.requests, ev.Request.URL)
		tb.urls[ev.RequestID] = ev.Request.URL
	case *network.EventResponseReceived:
		// Chromium probes /favicon.ico by itself when a page declares no
		// icon; that request is the browser's, not the page's.
		if ev.Response.Status >= 400 && ev.Response.URL != tb.base+"/favicon.ico" {
			tb.problems = append(tb.problems, fmt.Sprintf("%s: HTTP %d", tb.short(ev.Response.URL), ev.Response.Status))
		}
	case *network.EventLoadingFailed:
		if !ev.Canceled {
			tb.problems = append(tb.problems, fmt.Sprintf("loading %s failed: %s", tb.short(tb.urls[ev.RequestID]), ev.ErrorText))
		}
	}
}

// short strips the test server from u, for messages.
func (tb *tab) short(u string) string {
	if rest, ok := strings.CutPrefix(u, tb.base); ok && strings.HasPrefix(rest, "/") {
		return rest
	}
	return u
}

// check reports what the page logged and every request that left the
// site (data: URLs are part of the page). Call it after the last action.
func (tb *tab) check(t *testing.T) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		t.Error(p)
	}
	if len(tb.requests) == 0 {
		t.Error("the page made no request at all (network events lost?)")
	}
	for _, u := range tb.requests {
		if !strings.HasPrefix(u, tb.base+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("request leaves the site: %s", u)
		}
	}
}

// open navigates the tab to path and requires a 200.
func (tb *tab) open(t *testing.T, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, navigateTimeout)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(tb.base+path))
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	if resp.Status != http.StatusOK {
		t.Fatalf("loading %s: HTTP %d", path, resp.Status)
	}
}

// eval evaluates a JavaScript expression in the page and decodes its value.
func eval[T any](t *testing.T, tb *tab, what, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// poll waits until the expression is truthy; it reports whether it became
// so within limit.
func poll(t *testing.T, tb *tab, limit time.Duration, expr string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, limit+stepTimeout)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(50*time.Millisecond),
		chromedp.WithPollingTimeout(limit)))
	if err != nil && !errors.Is(err, chromedp.ErrPollingTimeout) {
		t.Fatalf("polling %s: %v", expr, err)
	}
	return err == nil
}

// chartsReady is true when ECharts is loaded and every chart element has a
// chart with at least one series holding data.
const chartsReady = `typeof echarts === "object" &&
	Array.from(document.querySelectorAll('[id^="c_"]')).every(function (el) {
		var c = echarts.getInstanceByDom(el);
		return !!c && (c.getOption().series || []).some(function (s) {
			return Array.isArray(s.data) && s.data.length > 0;
		});
	})`

// chartStatus describes every chart element of the page, for messages.
const chartStatus = `(function () {
	var loaded = typeof echarts === "object";
	return {
		echarts: typeof echarts,
		version: loaded ? String(echarts.version) : "",
		charts: Array.from(document.querySelectorAll('[id^="c_"]')).map(function (el) {
			var c = loaded ? echarts.getInstanceByDom(el) : null;
			var series = c ? (c.getOption().series || []) : [];
			return {
				id: el.id,
				instance: !!c,
				loadError: el.getAttribute("data-error") || "",
				series: series.length,
				withData: series.filter(function (s) { return Array.isArray(s.data) && s.data.length > 0; }).length
			};
		})
	};
})()`

type chartReport struct {
	ECharts string `json:"echarts"`
	Version string `json:"version"`
	Charts  []struct {
		LoadError string `json:"loadError"` // a chart whose data file failed to load
		ID        string `json:"id"`
		Instance  bool   `json:"instance"`
		Series    int    `json:"series"`
		WithData  int    `json:"withData"`
	} `json:"charts"`
}

// checkCharts requires ECharts from the site and a drawn chart with data
// in every chart element, and at least one chart on the page.
func checkCharts(t *testing.T, tb *tab) {
	t.Helper()
	ready := poll(t, tb, pollTimeout, chartsReady)
	rep := eval[chartReport](t, tb, "reading the charts", chartStatus)
	if rep.ECharts != "object" {
		t.Errorf("typeof echarts = %q, want \"object\"", rep.ECharts)
		return
	}
	if rep.Version != echartsVersion {
		t.Errorf("echarts.version = %q, want %q", rep.Version, echartsVersion)
	}
	if len(rep.Charts) == 0 {
		t.Error(`no chart elements ([id^="c_"]) on the page`)
		return
	}
	for _, c := range rep.Charts {
		switch {
		case !c.Instance:
			t.Errorf("chart %s: echarts.getInstanceByDom is null", c.ID)
		case c.LoadError != "":
			t.Errorf("chart %s: loading its data: %s", c.ID, c.LoadError)
		case c.WithData == 0:
			t.Errorf("chart %s: none of its %d series has data", c.ID, c.Series)
		}
	}
	if !ready && !t.Failed() {
		t.Errorf("the charts were not ready within %v", pollTimeout)
	}
	t.Logf("charts drawn: %d", len(rep.Charts))
}

// filterSetup marks the first filter box and the table below it, opens any
// <details> around them, and proposes texts to type:
//
//   - a benchmark name: one that some of the visible rows have and some do
//     not when there is one, else a benchmark of the page missing from the
//     table (every row must hide);
//   - when no benchmark name splits the rows (a table of one benchmark), a
//     parameter or machine cell that does, so that the rows holding the
//     text are seen to stay.
const filterSetup = `(function () {
	var input = document.querySelector("input.filter");
	if (!input) { return {error: "no input.filter on the page"}; }
	var table = Array.from(document.querySelectorAll("table")).find(function (t) {
		return input.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING;
	});
	if (!table) { return {error: "no table below the first input.filter"}; }
	for (var d = input.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
		d.open = true;
	}
	input.setAttribute("data-e2e-filter", "");
	table.setAttribute("data-e2e-table", "");
	var col = 0;
	if (table.tHead && table.tHead.rows.length) {
		var i = Array.from(table.tHead.rows[0].cells).findIndex(function (th) {
			return /benchmark/i.test(th.textContent);
		});
		if (i >= 0) { col = i; }
	}
	var visible = Array.from(table.querySelectorAll("tbody tr")).filter(function (r) {
		return r.getClientRects().length > 0;
	});
	var matching = function (q) {
		q = q.toLowerCase();
		return visible.filter(function (r) { return r.textContent.toLowerCase().indexOf(q) >= 0; }).length;
	};
	var splits = function (q) { var n = matching(q); return n > 0 && n < visible.length; };
	var typable = function (s) { return /^\S+( \S+)*$/.test(s); };
	var text = function (el) { return el ? el.textContent.trim() : ""; };

	var inTable = visible.map(function (r) { return text(r.cells[col]); });
	var onPage = Array.from(document.querySelectorAll('a[href^="/bench/"]')).filter(function (a) {
		return /^\/bench\/[^\/]+\/$/.test(a.getAttribute("href"));
	}).map(text);
	var names = inTable.concat(onPage).filter(typable);
	var probes = [];
	var name = names.find(splits) || onPage.filter(typable).find(function (n) { return matching(n) === 0; });
	if (name) { probes.push({kind: "benchmark", text: name, matching: matching(name)}); }
	if (!name || !splits(name)) {
		var cells = [];
		visible.forEach(function (r) {
			Array.from(r.cells).forEach(function (c, j) {
				if (j !== col && !c.classList.contains("num")) { cells.push(text(c)); }
			});
		});
		var other = cells.filter(typable).find(splits);
		if (other) { probes.push({kind: "parameter or machine", text: other, matching: matching(other)}); }
	}
	return {visible: visible.length, probes: probes};
})()`

type filterPlan struct {
	Error   string `json:"error"`
	Visible int    `json:"visible"`
	Probes  []struct {
		Kind     string `json:"kind"`
		Text     string `json:"text"`
		Matching int    `json:"matching"`
	} `json:"probes"`
}

// visibleRows counts the shown rows of the marked table.
const visibleRows = `Array.from(document.querySelectorAll("table[data-e2e-table] tbody tr")).filter(function (r) {
	return r.getClientRects().length > 0;
}).length`

// checkFilter types into the first filter box: the rows of the table below
// it that do not contain the text must hide, the others must stay, and
// clearing the box must bring every row back.
func checkFilter(t *testing.T, tb *tab) {
	t.Helper()
	plan := eval[filterPlan](t, tb, "preparing the filter", filterSetup)
	if plan.Error != "" {
		t.Fatal(plan.Error)
	}
	if len(plan.Probes) == 0 {
		t.Fatalf("nothing to filter by: no benchmark name or cell text tells the %d visible rows apart", plan.Visible)
	}
	split := false
	for _, p := range plan.Probes {
		split = split || (p.Matching > 0 && p.Matching < plan.Visible)
		ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
		err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("input[data-e2e-filter]"), p.Text))
		cancel()
		if err != nil {
			t.Fatalf("typing %q into the filter: %v", p.Text, err)
		}
		if !poll(t, tb, pollTimeout, fmt.Sprintf("%s === %d", visibleRows, p.Matching)) {
			got := eval[int](t, tb, "counting rows", visibleRows)
			t.Fatalf("filter %q (%s): %d rows visible, want the %d of %d that contain it", p.Text, p.Kind, got, p.Matching, plan.Visible)
		}
		stray := eval[[]string](t, tb, "reading the filtered rows", `Array.from(document.querySelectorAll("table[data-e2e-table] tbody tr")).filter(function (r) {
			return r.getClientRects().length > 0 && r.textContent.toLowerCase().indexOf(`+jsString(strings.ToLower(p.Text))+`) < 0;
		}).map(function (r) { return r.id || r.textContent.trim().slice(0, 80); })`)
		for _, r := range stray {
			t.Errorf("filter %q: row %s stays visible without the text", p.Text, r)
		}
		t.Logf("filter %q (%s): %d of %d rows visible", p.Text, p.Kind, p.Matching, plan.Visible)

		eval[chromedp.Void](t, tb, "clearing the filter", `(function () {
			var input = document.querySelector("input[data-e2e-filter]");
			input.value = "";
			input.dispatchEvent(new Event("input", {bubbles: true}));
		})()`)
		if !poll(t, tb, pollTimeout, fmt.Sprintf("%s === %d", visibleRows, plan.Visible)) {
			got := eval[int](t, tb, "counting rows", visibleRows)
			t.Fatalf("cleared filter: %d rows visible, want all %d again", got, plan.Visible)
		}
	}
	if !split {
		t.Errorf("no filter text kept some rows and hid others (%d visible rows)", plan.Visible)
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// toolbarScript exercises the comparison page's enhancements in the page
// and reports what it saw: the metric tabs show one section at a time, the
// direction filter keeps only rows of that direction, the non-relevant
// toggle reveals the folded rows, sorting by factor orders the rows, and
// the PR comment is there to copy.
const toolbarScript = `(function () {
	// Rows in a closed <details> keep layout boxes in Chromium: check both.
	var visible = function (e) { return e.getClientRects().length > 0 && !e.closest("details:not([open])"); };
	var shownSections = function () { return Array.from(document.querySelectorAll("section.metric")).filter(visible).map(function (s) { return s.id; }); };
	var r = {tabs: document.querySelectorAll("[role=tab]").length};
	r.before = shownSections();
	var tabs = document.querySelectorAll("[role=tab]");
	if (tabs.length < 2) { return r; }
	// The tab of the metric with the most rows that have a direction.
	var best = null, bestN = -1;
	tabs.forEach(function (t) {
		var sec = document.getElementById(t.getAttribute("aria-controls"));
		var n = sec.querySelectorAll("tr[data-dir=regression], tr[data-dir=improvement]").length;
		if (n > bestN) { best = t; bestN = n; }
	});
	best.click();
	r.after = shownSections();
	r.wanted = best.getAttribute("aria-controls");
	r.hash = location.hash;
	var sec = document.getElementById(r.wanted);
	var rows = function () { return Array.from(sec.querySelectorAll("table.rows tbody tr")).filter(visible); };
	var dirSel = sec.querySelector("select.filter-dir");
	var other = sec.querySelector("label.show-other input");
	var sort = sec.querySelector("select.sort");
	r.controls = {dir: !!dirSel, other: !!other, sort: !!sort};
	if (!dirSel || !sort) { return r; }
	r.rows0 = rows().length;
	if (other) {
		other.checked = true; other.dispatchEvent(new Event("change"));
	}
	sec.setAttribute("data-e2e-toolbar", "");
	window.perfpagesE2E = r;
	return r;
})()`

// toolbarScript2 continues toolbarScript once the folded rows, which the
// page loads from the data files, are in.
const toolbarScript2 = `(function () {
	var visible = function (e) { return e.getClientRects().length > 0 && !e.closest("details:not([open])"); };
	var r = window.perfpagesE2E;
	var sec = document.querySelector("[data-e2e-toolbar]");
	var rows = function () { return Array.from(sec.querySelectorAll("table.rows tbody tr")).filter(visible); };
	var dirSel = sec.querySelector("select.filter-dir");
	var sort = sec.querySelector("select.sort");
	r.rowsAll = rows().length;
	r.dirs = {};
	["regression", "improvement"].forEach(function (d) {
		dirSel.value = d; dirSel.dispatchEvent(new Event("change"));
		var rs = rows();
		r.dirs[d] = {shown: rs.length, wrong: rs.filter(function (tr) { return tr.getAttribute("data-dir") !== d; }).length};
	});
	dirSel.value = ""; dirSel.dispatchEvent(new Event("change"));
	r.rowsReset = rows().length;
	sort.value = "factor"; sort.dispatchEvent(new Event("change"));
	var first = sec.querySelector("table.rows");
	var f = Array.from(first.tBodies[0].rows).map(function (tr) { var v = parseFloat(tr.getAttribute("data-factor")); return isNaN(v) ? -1 : v; });
	r.sortedByFactor = f.every(function (v, i) { return i === 0 || f[i - 1] >= v; });
	r.copyButton = !!document.querySelector("button.copy-markdown");
	var expand = sec.querySelector("table.rows tbody tr[data-dir=improvement] button.expand, table.rows tbody tr[data-dir=regression] button.expand");
	r.expand = !!expand;
	if (expand) {
		expand.click();
		var chartRow = expand.closest("tr").nextElementSibling;
		r.expanded = !!chartRow && chartRow.classList.contains("row-chart") && expand.getAttribute("aria-expanded") === "true";
		if (r.expanded) { chartRow.querySelector(".row-chart-plot").setAttribute("data-e2e-rowchart", ""); }
	}
	var pre = document.querySelector("details.pr-markdown pre");
	r.markdown = pre ? pre.textContent.slice(0, 200) : "";
	return r;
})()`

type toolbarReport struct {
	Tabs     int      `json:"tabs"`
	Before   []string `json:"before"`
	After    []string `json:"after"`
	Wanted   string   `json:"wanted"`
	Hash     string   `json:"hash"`
	Controls struct {
		Dir, Other, Sort bool
	} `json:"controls"`
	Rows0, RowsAll, RowsReset int
	Dirs                      map[string]struct {
		Shown int `json:"shown"`
		Wrong int `json:"wrong"`
	} `json:"dirs"`
	SortedByFactor bool   `json:"sortedByFactor"`
	Expand         bool   `json:"expand"`
	Expanded       bool   `json:"expanded"`
	CopyButton     bool   `json:"copyButton"`
	Markdown       string `json:"markdown"`
}

// otherRowsLoaded is true once the folded rows of the section under test
// are in (or failed to load).
const otherRowsLoaded = `(function () {
	var sec = document.querySelector("[data-e2e-toolbar]");
	var d = sec && sec.querySelector("details.other-rows");
	return !d || d.hasAttribute("data-loaded") || d.hasAttribute("data-error");
})()`

func checkToolbar(t *testing.T, tb *tab) {
	t.Helper()
	r := eval[toolbarReport](t, tb, "exercising the comparison toolbar", toolbarScript)
	if r.Controls.Dir && r.Controls.Sort {
		if !poll(t, tb, pollTimeout, otherRowsLoaded) {
			t.Errorf("the rows without a relevant change did not load within %v", pollTimeout)
		}
		if e := eval[string](t, tb, "reading the folded rows' state", `(document.querySelector("[data-e2e-toolbar] details.other-rows") || {getAttribute: function () { return ""; }}).getAttribute("data-error") || ""`); e != "" {
			t.Errorf("loading the rows without a relevant change: %s", e)
		}
		r = eval[toolbarReport](t, tb, "exercising the comparison toolbar", toolbarScript2)
	}
	if r.Tabs < 2 {
		t.Fatalf("%d metric tabs, want one per metric", r.Tabs)
	}
	if len(r.Before) != 1 {
		t.Errorf("sections shown before choosing a tab: %v, want exactly one", r.Before)
	}
	if len(r.After) != 1 || r.After[0] != r.Wanted || r.Hash != "#"+r.Wanted {
		t.Errorf("after clicking the tab of %s: shown %v, hash %q", r.Wanted, r.After, r.Hash)
	}
	if !r.Controls.Dir || !r.Controls.Sort || !r.Controls.Other {
		t.Fatalf("toolbar controls: %+v", r.Controls)
	}
	if r.RowsAll <= r.Rows0 {
		t.Errorf("showing the rows without a relevant change: %d rows, before %d", r.RowsAll, r.Rows0)
	}
	for d, c := range r.Dirs {
		if c.Wrong != 0 || c.Shown == 0 || c.Shown >= r.RowsAll {
			t.Errorf("%s only: %d rows shown of %d, %d of another direction", d, c.Shown, r.RowsAll, c.Wrong)
		}
	}
	if r.RowsReset != r.RowsAll {
		t.Errorf("after resetting the direction: %d rows, want %d", r.RowsReset, r.RowsAll)
	}
	if !r.SortedByFactor {
		t.Error("sorting by significance factor left the rows out of order")
	}
	if !r.CopyButton || !strings.Contains(r.Markdown, "#1556") {
		t.Errorf("copy as Markdown: button %v, text %q", r.CopyButton, r.Markdown)
	}
	if !r.Expand || !r.Expanded {
		t.Errorf("expandable row: button %v, chart row opened %v", r.Expand, r.Expanded)
	} else {
		const rowChart = `(function () {
			var div = document.querySelector("[data-e2e-rowchart]");
			if (!div) { return "gone"; }
			if (div.getAttribute("data-error")) { return "error: " + div.getAttribute("data-error"); }
			var c = typeof echarts === "object" && echarts.getInstanceByDom(div);
			if (!c) { return "no chart"; }
			var s = c.getOption().series || [];
			return s.length > 0 && s[0].data.length > 0 ? "drawn" : "empty";
		})()`
		if !poll(t, tb, pollTimeout, rowChart+` === "drawn"`) {
			t.Errorf("the expanded row's history chart: %s", eval[string](t, tb, "reading the row chart", rowChart))
		}
	}
	t.Logf("toolbar: %d tabs, %d → %d rows with the folded ones, %+v", r.Tabs, r.Rows0, r.RowsAll, r.Dirs)
}

// benchToolsScript drives a bench page's tools once its charts have data:
// the machine selector hides the other machine's series, the log-scale
// box switches the visible charts' value axes, and moving the axis pointer
// onto a point fills the annotation snippet with that point's commit.
const benchToolsScript = `(function () {
	var r = {};
	var all = Array.from(document.querySelectorAll("section.series[data-machine]"));
	r.series = all.length;
	var sel = document.querySelector("select.filter-machine");
	if (!sel || sel.options.length < 3) { r.error = "no machine selector"; return r; }
	var m = sel.options[1].value;
	sel.value = m; sel.dispatchEvent(new Event("change"));
	var shown = all.filter(function (s) { return !s.hidden; });
	r.shown = shown.length;
	r.wrongMachine = shown.filter(function (s) { return s.getAttribute("data-machine") !== m; }).length;
	r.overviews = shown.filter(function (s) { return s.classList.contains("overview"); }).length;
	shown = shown.filter(function (s) { return s.hasAttribute("data-snippet"); });
	var log = document.querySelector("label.log-scale input");
	log.checked = true; log.dispatchEvent(new Event("change"));
	var c = echarts.getInstanceByDom(shown[0].querySelector('[id^="c_"]'));
	r.axis = c.getOption().yAxis[0].type;
	log.checked = false; log.dispatchEvent(new Event("change"));
	r.axisAfter = c.getOption().yAxis[0].type;
	var data = c.getOption().series[0].data;
	var it = data[Math.floor(data.length / 2)];
	var px = c.convertToPixel({xAxisIndex: 0, yAxisIndex: 0}, [it.value[0], it.value[1] || 0]);
	c.dispatchAction({type: "updateAxisPointer", currTrigger: "mousemove", x: px[0], y: px[1]});
	var box = shown[0].querySelector("details.annotation-snippet");
	r.snippet = box ? box.querySelector("pre").textContent : "";
	r.artifact = box ? (box.getAttribute("data-artifact") || "") : "";
	r.pointURL = it.u || "";
	var fmt = c.getOption().tooltip[0].formatter;
	r.tooltip = typeof fmt === "function" ? fmt([{seriesIndex: 0, data: it}]) : "";
	return r;
})()`

type benchToolsReport struct {
	Error        string `json:"error"`
	Series       int    `json:"series"`
	Shown        int    `json:"shown"`
	WrongMachine int    `json:"wrongMachine"`
	Overviews    int    `json:"overviews"`
	Axis         string `json:"axis"`
	AxisAfter    string `json:"axisAfter"`
	Snippet      string `json:"snippet"`
	Artifact     string `json:"artifact"`
	PointURL     string `json:"pointURL"`
	Tooltip      string `json:"tooltip"`
}

func checkBenchTools(t *testing.T, tb *tab) {
	t.Helper()
	r := eval[benchToolsReport](t, tb, "using the bench page's tools", benchToolsScript)
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	if r.Shown == 0 || r.Shown >= r.Series || r.WrongMachine != 0 {
		t.Errorf("machine selector: %d of %d series shown, %d of another machine", r.Shown, r.Series, r.WrongMachine)
	}
	if r.Overviews == 0 {
		t.Error("no overview chart of the benchmark's test cases for the selected machine")
	}
	if r.Axis != "log" || r.AxisAfter != "value" {
		t.Errorf("log scale: axis %q, then %q; want log, then value", r.Axis, r.AxisAfter)
	}
	// The tooltip names the commit by its short sha, date and title.
	if len(r.Artifact) >= 7 && !strings.Contains(r.Tooltip, "<code>"+r.Artifact[:7]+"</code>") {
		t.Errorf("tooltip of %s lacks its short sha: %s", r.Artifact, r.Tooltip)
	}
	if r.Artifact == "" || !strings.Contains(r.PointURL, r.Artifact) || !strings.Contains(r.Snippet, "artifact: "+r.Artifact) || !strings.Contains(r.Snippet, "distribution_changes:") {
		t.Errorf("annotation snippet for %s: artifact %q, snippet:\n%s", r.PointURL, r.Artifact, r.Snippet)
	}
	// A history table opened: its rows, and the count of results (the
	// data's: the page does not name it) in its summary.
	eval[bool](t, tb, "opening a history table", `(function () {
		var d = document.querySelector("details.history[data-series]");
		d.open = true;
		d.dispatchEvent(new Event("toggle"));
		return true;
	})()`)
	if !poll(t, tb, pollTimeout, `(function () { var d = document.querySelector("details.history[data-series]"); return d.hasAttribute("data-loaded") || d.hasAttribute("data-error"); })()`) {
		t.Fatalf("the history table did not load within %v", pollTimeout)
	}
	type history struct {
		Summary, Error string
		Rows           int
	}
	h := eval[history](t, tb, "reading the history table", `(function () {
		var d = document.querySelector("details.history[data-series]");
		return {Summary: d.querySelector("summary").textContent, Error: d.getAttribute("data-error") || "", Rows: d.querySelectorAll("tbody tr").length};
	})()`)
	var n int
	if _, err := fmt.Sscanf(strings.TrimPrefix(h.Summary, "History table: "), "%d main-line result", &n); err != nil || h.Error != "" || h.Rows == 0 ||
		n < h.Rows || (n > h.Rows) != strings.Contains(h.Summary, fmt.Sprintf("(the newest %d shown)", h.Rows)) {
		t.Errorf("history table: %d rows, summary %q, error %q", h.Rows, h.Summary, h.Error)
	}
}

// internalLinks lists the href of every link of the page that points into
// the site.
const internalLinks = `Array.from(document.querySelectorAll("a[href]")).map(function (a) {
	return a.getAttribute("href");
}).filter(function (h) { return h.charAt(0) === "/" && h.charAt(1) !== "/"; })`

// rowsAgreeScript renders, in the page, every row of the comparison from
// the data files with the script's renderRow and compares each row the
// page pre-rendered (the relevant ones) with it: the generator and the
// script must write the same cells.
const rowsAgreeScript = `(function () {
	var src = JSON.parse(document.querySelector(".comparison").getAttribute("data-rows"));
	return window.perfpages.comparisonRows(src).then(function (rows) {
		var byAnchor = {};
		rows.forEach(function (r) { byAnchor[r.anchor] = r; });
		var out = {checked: 0, data: rows.length, diffs: []};
		document.querySelectorAll("table.rows tbody tr[data-relevant]").forEach(function (tr) {
			var r = byAnchor[tr.id];
			if (!r) { out.diffs.push(tr.id + ": not in the data"); return; }
			var mine = window.perfpages.renderRow(r), theirs = tr.cloneNode(true);
			theirs.querySelectorAll("button.expand").forEach(function (b) { b.remove(); });
			theirs.removeAttribute("data-order");
			theirs.hidden = false;
			var norm = function (e) { return e.outerHTML.replace(/>\s+</g, "><").replace(/\s+/g, " "); };
			out.checked++;
			if (norm(mine) !== norm(theirs)) { out.diffs.push(norm(theirs) + "\n  vs data\n" + norm(mine)); }
		});
		return out;
	});
})()`

func checkRowsAgree(t *testing.T, tb *tab) {
	t.Helper()
	type result struct {
		Checked, Data int
		Diffs         []string
	}
	ctx, cancel := context.WithTimeout(tb.ctx, pollTimeout)
	defer cancel()
	r, err := chromedp.Run(ctx, chromedp.Evaluate[result](rowsAgreeScript, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("rendering the rows from the data: %v", err)
	}
	if r.Checked == 0 {
		t.Error("no pre-rendered row to compare with the data")
	}
	for _, d := range r.Diffs {
		t.Errorf("a pre-rendered row differs from the one built from the data:\n%s", d)
	}
	t.Logf("%d pre-rendered rows agree with the data (%d rows in the data)", r.Checked, r.Data)
}

// TestFormatValueAgrees checks the script's formatValue against
// analysis.FormatValue on values around every rounding boundary: exact
// ties, powers of ten and two, tiny and huge values, every unit family.
func TestFormatValueAgrees(t *testing.T) {
	path := chromium(t)
	base := demoSite(t)
	browserCtx := startBrowser(t, path)
	tb := openTab(t, browserCtx, base)
	tb.open(t, "/")
	type tc struct {
		V    float64 `json:"v"`
		Unit string  `json:"unit"`
		Want string  `json:"want"`
	}
	var cases []tc
	units := []string{"ns", "ns/op", "s", "sec/op", "ms", "bytes", "B/op", "count", "unit", "", "instructions", "cycles", "MB/s", "B/s", "%", "ops", "cpu-ns/op"}
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []float64{0, 1, -1, 0.125, 2.5, 10.625, 1203.5, 999.95, 9999.5, 1e4, 1e-3, 0.00099995, 1024, 1 << 20, 1 << 30, 1e9, 1e6, 1e3, 12345.678, 4096000, 1e300, 1e-300, 5e-324, 1.7976931348623157e308,
		12345.5, 12346.5, 999999999999999.5, 1e15, 1e-6, 9.99995e-7, 1e18, 1 << 50}
	for i := 0; i < 3000; i++ {
		exp := rng.IntN(30) - 12
		v := float64(rng.IntN(100000)) * math.Pow(10, float64(exp)) / 8
		if rng.IntN(2) == 0 {
			v = rng.Float64() * math.Pow(10, float64(exp))
		}
		if rng.IntN(5) == 0 {
			v = -v
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		for _, u := range units {
			cases = append(cases, tc{v, u, analysis.FormatValue(v, u)})
		}
	}
	// The percent and fixed formats, on the same values read as changes,
	// thresholds and factors (unit names the function).
	for _, v := range vals {
		for _, x := range []float64{v, v / 100, v * 1e-4} {
			cases = append(cases, tc{x, "change", report.FormatChange(x)}, tc{math.Abs(x), "threshold", report.FormatThreshold(math.Abs(x))},
				tc{math.Abs(x), "factor", report.FormatFactor(math.Abs(x))})
		}
	}
	// In chunks, each within a step's time on a busy machine.
	for chunk := range slices.Chunk(cases, 10000) {
		in, _ := json.Marshal(chunk)
		bad := eval[[]string](t, tb, "formatting in the page", `(function () {
			var cases = `+string(in)+`, bad = [], p = window.perfpages;
			var fns = {change: p.formatChange, threshold: p.formatThreshold, factor: p.formatFactor};
			cases.forEach(function (c) {
				var got = fns[c.unit] ? fns[c.unit](c.v) : p.formatValue(c.v, c.unit);
				if (got !== c.want && bad.length < 20) { bad.push(c.v + " " + c.unit + ": script " + JSON.stringify(got) + ", generator " + JSON.stringify(c.want)); }
			});
			return bad;
		})()`)
		for _, b := range bad {
			t.Error(b)
		}
	}
	t.Logf("%d values formatted alike", len(cases))
	tb.check(t)
}

// TestBrowser drives headless Chromium over the demo site: one browser, one
// tab per page.
func TestBrowser(t *testing.T) {
	path := chromium(t)
	base := demoSite(t)
	commit, err := recentCommit(base)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := mergedCommit(base, "/pr/1556/")
	if err != nil {
		t.Fatal(err)
	}
	browserCtx := startBrowser(t, path)

	pages := []struct {
		name    string
		path    string
		charts  bool // draws charts with ECharts
		filter  bool // check the row filter
		toolbar bool // check the metric tabs, the toolbar and copy as Markdown
		bench   bool // check the bench page's selectors, log scale and annotation snippet
	}{
		{name: "dashboard", path: "/"},
		{name: "commit", path: commit, charts: true},
		{name: "open PR with try runs", path: "/pr/1567/", charts: true, filter: true},
		{name: "merged PR", path: "/pr/1556/"},
		{name: "merged PR's commit", path: merged, charts: true, toolbar: true},
		{name: "benchmark history", path: "/bench/json-encode/", charts: true, bench: true},
		{name: "triage week", path: "/triage/2026-09-28/"},
		{name: "content page", path: "/about/"},
		{name: "not found page", path: "/404.html"},
	}

	// linkedFrom maps every internal link (without #fragment) to the first
	// page that has it; each is fetched once at the end.
	linkedFrom := map[string]string{}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			tb := openTab(t, browserCtx, base)
			defer tb.check(t)
			tb.open(t, p.path)
			// Links first, before a failing check can stop the subtest.
			links := eval[[]string](t, tb, "collecting links", internalLinks)
			if len(links) == 0 {
				t.Error("no internal links on the page")
			}
			for _, l := range links {
				l, _, _ = strings.Cut(l, "#")
				if _, seen := linkedFrom[l]; !seen {
					linkedFrom[l] = p.path
				}
			}
			if p.charts {
				checkCharts(t, tb)
			}
			if p.filter {
				checkFilter(t, tb)
			}
			if p.toolbar {
				checkToolbar(t, tb)
				checkRowsAgree(t, tb)
			}
			if p.bench {
				checkBenchTools(t, tb)
			}
		})
	}

	// On a phone-sized screen the pages do not scroll sideways: wide
	// tables scroll inside their own box.
	t.Run("phone width", func(t *testing.T) {
		for _, path := range []string{"/", "/pr/1556/", merged, "/bench/json-encode/", "/triage/2026-09-28/"} {
			tb := openTab(t, browserCtx, base)
			ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
			err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 800, chromedp.EmulateMobile))
			cancel()
			if err != nil {
				t.Fatalf("emulating a phone: %v", err)
			}
			tb.open(t, path)
			type widths struct {
				Scroll, Client int
				Wide           []string // the outermost elements that stick out
			}
			w := eval[widths](t, tb, "measuring the page", `(function () {
				var cw = document.documentElement.clientWidth, wide = [];
				document.querySelectorAll("body *").forEach(function (e) {
					var r = e.getBoundingClientRect();
					if (r.right > cw + 1 && wide.length < 5 && !e.closest(".table-scroll, main table") && !wide.some(function (w) { return w.el.contains(e); })) {
						wide.push({el: e, name: e.tagName.toLowerCase() + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "") + " " + Math.round(r.right) + "px"});
					}
				});
				return {Scroll: document.documentElement.scrollWidth, Client: cw, Wide: wide.map(function (w) { return w.name; })};
			})()`)
			if w.Scroll > w.Client+1 {
				t.Errorf("%s is %d px wide on a %d px screen: %v", path, w.Scroll, w.Client, w.Wide)
			}
			tb.check(t)
		}
	})

	t.Run("internal links resolve", func(t *testing.T) {
		links := make([]string, 0, len(linkedFrom))
		for l := range linkedFrom {
			links = append(links, l)
		}
		slices.Sort(links)
		errs := make([]error, len(links))
		var wg sync.WaitGroup
		sem := make(chan struct{}, 4)
		for i, l := range links {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				_, errs[i] = get(base, l)
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("link on %s: %v", linkedFrom[links[i]], err)
			}
		}
		t.Logf("%d distinct internal links checked", len(links))
	})
}

// TestChartAxes checks the script's history charts on a series that once
// drew badly: after a step from ~34 µs to ~100 ms the band (mean ± z·σ over
// a window across the step) reaches below 0 and far above the values.
// The band is clipped at 0, a linear axis follows the values, not the
// band, and a series spanning orders of magnitude is drawn on a log axis.
func TestChartAxes(t *testing.T) {
	path := chromium(t)
	base := demoSite(t)
	browserCtx := startBrowser(t, path)
	tb := openTab(t, browserCtx, base)
	tb.open(t, "/bench/json-encode/")
	if !poll(t, tb, pollTimeout, `document.querySelector("div.chart[data-loaded]") !== null`) {
		t.Fatal("no chart drawn on the bench page")
	}
	type axis struct {
		Type string   `json:"type"`
		Min  *float64 `json:"min"`
		Max  *float64 `json:"max"`
		Note string   `json:"note"`
	}
	type report struct {
		Lowest     float64 `json:"lowest"` // of the band, in the axis' unit
		Auto, Flat axis
		Positive   axis `json:"positive"` // 34 µs values and a band reaching below 0
	}
	r := eval[report](t, tb, "drawing the axes", `(function () {
		var p = window.perfpages, pts = [];
		for (var i = 0; i < 40; i++) {
			var v = i < 30 ? 34e3 + (i % 3) * 100 : 100e6 + (i % 3) * 1e5;
			var std = i < 30 || i > 36 ? 300 : 4e7; // ns: the window across the step
			pts.push({pos: i, artifact: {label: "c" + i, title: "", date: Date.UTC(2024, 0, 1 + i), dateText: "", url: "commit/" + i + "/"},
				value: v, lower: v - 5 * std, upper: v + 5 * std, bandText: "", samples: null, error: "", ann: "", row: {}});
		}
		var d = p.historyData({points: pts}, "ns");
		var lowest = Infinity;
		d.lower.forEach(function (b) { if (b[1] !== null) { lowest = Math.min(lowest, b[1]); } });
		var values = d.items.map(function (it) { return it.value[1]; });
		var lower = d.lower.map(function (b) { return b[1]; });
		var upper = d.lower.map(function (b, i) { return b[1] + d.width[i][1]; });
		var quiet = pts.slice(0, 30).map(function (x) { return x.value / 1e3; }); // µs
		var q = p.historyData({points: pts.slice(0, 30).map(function (x) {
			return Object.assign({}, x, {lower: x.value - 5 * 4e7, upper: x.value + 5 * 4e7});
		})}, "ns");
		return {lowest: lowest, auto: p.valueAxis(values, lower, upper, false),
			flat: p.valueAxis(quiet, quiet.map(function () { return -100e3; }), quiet.map(function () { return 200e3; }), false),
			positive: p.valueAxis(q.items.map(function (it) { return it.value[1]; }), q.lower.map(function (b) { return b[1]; }),
				q.lower.map(function (b, i) { return b[1] + q.width[i][1]; }), false)};
	})()`)
	if r.Lowest < 0 {
		t.Errorf("the band of a series of times reaches %v, below 0", r.Lowest)
	}
	if r.Auto.Type != "log" || !strings.Contains(r.Auto.Note, "orders of magnitude") {
		t.Errorf("values from 34 µs to 100 ms: axis %+v, want log, saying why", r.Auto)
	}
	if r.Positive.Type != "value" || r.Positive.Min == nil || *r.Positive.Min < 0 {
		t.Errorf("34 µs values whose band reaches below 0: axis %+v, want linear from 0 or above", r.Positive)
	}
	if r.Flat.Type != "value" || r.Flat.Min == nil || r.Flat.Max == nil || *r.Flat.Min < 20 || *r.Flat.Max > 50 {
		t.Errorf("34 µs values with a band of -100 to 200 ms: axis %+v, want it to follow the values", r.Flat)
	}
	tb.check(t)
}
