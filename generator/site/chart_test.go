package site

import (
	"encoding/json"
	"html/template"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// hostile strings: each would break a naive embedding in a <script>
// (end it, open an HTML comment, end a JS string, or trigger go-echarts'
// "__f__" function marker), and the tooltip would run the <img> if it
// were not escaped.
var hostile = []string{
	`</script><script>alert(1)</script>`,
	`</SCRIPT ><script>alert(2)</script >`,
	`<!-- <script>`,
	`"quoted" 'single' \back\slash`,
	`__f__alert(3)__f__`,
	`___f___f__`,
	"line\u2028separator\u2029",
	`<img src=x onerror=alert(4)>`,
	"control\x00\x1f",
}

func day(d int) time.Time { return time.Date(2024, 1, d, 12, 0, 0, 0, time.UTC) }

func samplePoints() []ChartPoint {
	return []ChartPoint{
		{Label: "#1", Title: "first", Date: day(1), Value: 1.5e6, URL: "/p/commit/a/"},
		{Label: "#2", Title: "second", Date: day(2), Value: 1.6e6, URL: "/p/commit/b/", Marker: MarkerRegression},
		{Label: "abc1234", Title: "third", Date: day(3), Value: 1.4e6, URL: "/p/commit/c/", Marker: MarkerImprovement},
		{Label: "#4", Title: "fourth", Date: day(4), Failed: true, URL: "/p/commit/d/"},
	}
}

// option decodes the option object of chart id from a rendered snippet.
// go-echarts writes it as `let option_<id> = {…};` on one line; the
// object is plain JSON (we encode it), which this also checks.
func option(t *testing.T, h template.HTML, id string) map[string]any {
	t.Helper()
	s := string(h)
	prefix := "let option_" + id + " = "
	i := strings.Index(s, prefix)
	if i < 0 {
		t.Fatalf("no %q in snippet:\n%s", prefix, s)
	}
	rest := s[i+len(prefix):]
	end := strings.Index(rest, "\n")
	if end < 0 {
		t.Fatalf("option line not terminated")
	}
	js := strings.TrimSuffix(strings.TrimSpace(rest[:end]), ";")
	var o map[string]any
	if err := json.Unmarshal([]byte(js), &o); err != nil {
		t.Fatalf("option is not JSON: %v\n%s", err, js)
	}
	return o
}

func series(t *testing.T, o map[string]any, i int) map[string]any {
	t.Helper()
	ss, ok := o["series"].([]any)
	if !ok || i >= len(ss) {
		t.Fatalf("option has no series %d: %v", i, o["series"])
	}
	return ss[i].(map[string]any)
}

func TestChartID(t *testing.T) {
	tests := []struct {
		name, key, want string
	}{
		// Known answers: the first 12 hex digits of `printf %s KEY | sha256sum`.
		{"short key", "fib", "c_97a43d3b29ca"},
		{"key with punctuation", "bench/fib n=10", "c_10119fe1ade8"},
		{"empty key", "", "c_e3b0c44298fc"},
	}
	valid := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ChartID(tt.key)
			if got != tt.want {
				t.Errorf("ChartID(%q) = %q, want %q", tt.key, got, tt.want)
			}
			if !valid.MatchString(got) {
				t.Errorf("ChartID(%q) = %q is not a JS identifier", tt.key, got)
			}
		})
	}
	for _, key := range hostile {
		if id := ChartID(key); !valid.MatchString(id) {
			t.Errorf("ChartID(%q) = %q is not a JS identifier", key, id)
		}
	}
	if ChartID("a") == ChartID("b") {
		t.Error("different keys gave the same id")
	}
}

func TestChartsRejectUnsafeIDs(t *testing.T) {
	for _, id := range []string{"", "1abc", "bench-fib", "bench.fib", "a b", "a'b", `a"b`, "</script>", "é"} {
		t.Run(id, func(t *testing.T) {
			if _, err := HistoryChart(id, "ns", samplePoints(), nil); err == nil {
				t.Errorf("HistoryChart accepted id %q", id)
			}
			if _, err := ChangesChart(id, []string{"a"}, []float64{1}, []bool{true}); err == nil {
				t.Errorf("ChangesChart accepted id %q", id)
			}
		})
	}
}

func TestChartsAreDeterministic(t *testing.T) {
	pts := samplePoints()
	band := &Band{Lower: []float64{1.3e6, 1.3e6, 1.3e6, 1.3e6}, Upper: []float64{1.7e6, 1.7e6, 1.7e6, 1.7e6}}
	render := map[string]func() (template.HTML, error){
		"history": func() (template.HTML, error) { return HistoryChart(ChartID("h"), "ns", pts, band) },
		"changes": func() (template.HTML, error) {
			return ChangesChart(ChartID("c"), []string{"a", "b", "c"}, []float64{3, -2, 1}, []bool{true, false, true})
		},
	}
	for name, f := range render {
		t.Run(name, func(t *testing.T) {
			first, err := f()
			if err != nil {
				t.Fatal(err)
			}
			for range 20 {
				again, err := f()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(first), string(again)); diff != "" {
					t.Fatalf("second rendering differs (-first +again):\n%s", diff)
				}
			}
		})
	}
}

// TestChartsAreSelfContained: a snippet is one <div> and one inline
// <script>; it loads nothing (no <script src>, no URL to another host),
// has its id set, no animation and the size the layouts expect.
func TestChartsAreSelfContained(t *testing.T) {
	id := ChartID("self")
	h, err := HistoryChart(id, "ns", samplePoints(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ChangesChart(ChartID("bars"), []string{"a"}, []float64{2}, []bool{true})
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"history": string(h), "changes": string(c)} {
		t.Run(name, func(t *testing.T) {
			lower := strings.ToLower(s)
			for _, bad := range []string{"<script src", " src=", "http://", "https://", "//cdn", "go-echarts.github.io"} {
				if strings.Contains(lower, bad) {
					t.Errorf("snippet contains %q:\n%s", bad, s)
				}
			}
			if n := strings.Count(lower, "<script"); n != 1 {
				t.Errorf("snippet has %d <script> elements, want 1", n)
			}
			for _, want := range []string{`style="width:100%;`, `"animation":false`, `renderer: "svg"`} {
				if !strings.Contains(s, want) {
					t.Errorf("snippet lacks %q", want)
				}
			}
		})
	}
	if !strings.Contains(string(h), `<div class="item" id="`+id+`" style="width:100%;height:320px;">`) {
		t.Errorf("history snippet lacks its sized div:\n%s", h)
	}
}

// TestChartsEscapeHostileText checks what go-echarts alone would get
// wrong: text from the data can neither end the <script> element nor
// become code, and reaches the chart unchanged.
func TestChartsEscapeHostileText(t *testing.T) {
	var pts []ChartPoint
	for i, s := range hostile {
		pts = append(pts, ChartPoint{Label: s, Title: s, Date: day(i + 1), Value: float64(i + 1), URL: "/x/"})
	}
	hid := ChartID("hostile history")
	h, err := HistoryChart(hid, "ns", pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	cid := ChartID("hostile changes")
	changes := make([]float64, len(hostile))
	regress := make([]bool, len(hostile))
	for i := range changes {
		changes[i] = float64(i + 1)
	}
	c, err := ChangesChart(cid, hostile, changes, regress)
	if err != nil {
		t.Fatal(err)
	}

	for name, s := range map[string]string{"history": string(h), "changes": string(c)} {
		t.Run(name+" stays one script", func(t *testing.T) {
			body := s[strings.Index(s, scriptOpen)+len(scriptOpen):]
			end := strings.LastIndex(body, scriptClose)
			if end < 0 || strings.TrimSpace(body[end+len(scriptClose):]) != "" {
				t.Fatalf("snippet does not end with its script:\n%s", s)
			}
			body = strings.ToLower(body[:end])
			for _, bad := range []string{"</script", "<script", "<!--", "__f__", "alert(1)</"} {
				if strings.Contains(body, bad) {
					t.Errorf("script body contains %q", bad)
				}
			}
			if strings.ContainsAny(body, "\u2028\u2029") {
				t.Error("script body contains a raw line or paragraph separator")
			}
		})
	}

	t.Run("history text arrives unchanged", func(t *testing.T) {
		data := series(t, option(t, h, hid), 0)["data"].([]any)
		var names, titles []string
		for _, d := range data {
			m := d.(map[string]any)
			names = append(names, m["name"].(string))
			titles = append(titles, m["t"].(string))
		}
		// Invalid UTF-8 aside (there is none here), JSON keeps every rune.
		if diff := cmp.Diff(hostile, names); diff != "" {
			t.Errorf("labels changed (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(hostile, titles); diff != "" {
			t.Errorf("titles changed (-want +got):\n%s", diff)
		}
	})
	t.Run("changes labels arrive unchanged", func(t *testing.T) {
		o := option(t, c, cid)
		axis := o["yAxis"].([]any)[0].(map[string]any)
		var got []string
		for _, v := range axis["data"].([]any) {
			got = append(got, v.(string))
		}
		if diff := cmp.Diff(hostile, got); diff != "" {
			t.Errorf("axis labels changed (-want +got):\n%s", diff)
		}
	})
	t.Run("tooltips escape HTML", func(t *testing.T) {
		// The option is data; the tooltip formatters build HTML and must
		// pass every data string through echarts.format.encodeHTML.
		for name, js := range map[string]string{"history": string(historyJS), "changes": string(changesJS)} {
			for _, field := range []string{"d.name", "d.d", "d.t", "d.f", "d.m", "d.r", "p.name", "p.data.f"} {
				if strings.Contains(js, "+"+field) {
					t.Errorf("%s tooltip adds %s to HTML without encodeHTML", name, field)
				}
			}
		}
	})
}

func TestScriptJSON(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"markup", "</script>", `"\u003c/script\u003e"`},
		{"ampersand", "a&b", `"a\u0026b"`},
		{"function marker", "__f__x__f__", `"\u005f\u005ff\u005f\u005fx\u005f\u005ff\u005f\u005f"`},
		{"odd underscores", "___", `"\u005f\u005f_"`},
		{"single underscore kept", "a_b", `"a_b"`},
		{"separators", "\u2028\u2029", `"\u2028\u2029"`},
		{"numbers untouched", []any{1704067200000, 1.5, nil}, `[1704067200000,1.5,null]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := scriptJSON(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("scriptJSON(%q) = %s, want %s", tt.in, got, tt.want)
			}
			var back any
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
		})
	}
	if _, err := scriptJSON(math.NaN()); err == nil {
		t.Error("scriptJSON(NaN) succeeded")
	}
}

func TestCheckScript(t *testing.T) {
	tests := []struct {
		name   string
		script string
		ok     bool
	}{
		{"plain", scriptOpen + "let a = 1;" + scriptClose, true},
		{"surrounding space", "\n  " + scriptOpen + "let a = 1;" + scriptClose + "\n", true},
		{"early end", scriptOpen + `let a = "</script>";` + scriptClose, false},
		{"early end upper case", scriptOpen + `let a = "</SCRIPT>";` + scriptClose, false},
		{"comment opener", scriptOpen + `let a = "<!--";` + scriptClose, false},
		{"function marker", scriptOpen + `let a = __f__b__f__;` + scriptClose, false},
		{"no script", "<div></div>", false},
		{"external script", `<script src="x.js">` + scriptClose, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkScript(tt.script); (err == nil) != tt.ok {
				t.Errorf("checkScript(%q) = %v, want ok=%v", tt.script, err, tt.ok)
			}
		})
	}
}

func TestHistoryChartData(t *testing.T) {
	id := ChartID("data")
	pts := []ChartPoint{
		{Label: "late", Date: day(5), Value: 2e6, URL: "/c/5/"},
		{Label: "nan", Date: day(2), Value: math.NaN()},
		{Label: "inf", Date: day(3), Value: math.Inf(1)},
		{Label: "-inf", Date: day(3), Value: math.Inf(-1)},
		{Label: "early", Date: day(1), Value: 1e6, URL: "/c/1/", Marker: MarkerRegression},
		{Label: "failed", Date: day(4), Value: math.NaN(), Failed: true, URL: "/c/4/"},
	}
	band := &Band{
		Lower: []float64{1.8e6, 0, 0, 0, 0.9e6, math.NaN()},
		Upper: []float64{2.2e6, 0, 0, 0, 1.1e6, 1e6},
	}
	h, err := HistoryChart(id, "ns", pts, band)
	if err != nil {
		t.Fatal(err)
	}
	o := option(t, h, id)
	ms := func(d int) float64 { return float64(day(d).UnixMilli()) }

	// Non-finite values are skipped, a failure stays as a gap (null),
	// points are in date order, and values are drawn in ms (the axis
	// unit chosen from the largest value).
	wantMain := []any{
		map[string]any{"name": "early", "value": []any{ms(1), 1.0}, "d": "2024-01-01 12:00 UTC",
			"u": "/c/1/", "f": "1 ms", "m": "regression", "r": "900 µs – 1.1 ms"},
		map[string]any{"name": "failed", "value": []any{ms(4), nil}, "d": "2024-01-04 12:00 UTC",
			"u": "/c/4/"},
		map[string]any{"name": "late", "value": []any{ms(5), 2.0}, "d": "2024-01-05 12:00 UTC",
			"u": "/c/5/", "f": "2 ms", "r": "1.8 ms – 2.2 ms"},
	}
	main := series(t, o, 0)
	if diff := cmp.Diff(wantMain, main["data"]); diff != "" {
		t.Errorf("main line data (-want +got):\n%s", diff)
	}
	wantFailures := []any{map[string]any{"name": "failed", "xAxis": ms(4)}}
	if diff := cmp.Diff(wantFailures, main["markLine"].(map[string]any)["data"]); diff != "" {
		t.Errorf("failure lines (-want +got):\n%s", diff)
	}
	if got := o["yAxis"].([]any)[0].(map[string]any)["name"]; got != "ms" {
		t.Errorf("y axis name = %v, want ms", got)
	}

	// The band: the lower bound and the width, stacked, with a gap where
	// the band is not finite.
	wantLower := []any{[]any{ms(1), 0.9}, []any{ms(4), nil}, []any{ms(5), 1.8}}
	wantWidth := []any{[]any{ms(1), 0.2}, []any{ms(4), nil}, []any{ms(5), 0.4}}
	lower, width := series(t, o, 1), series(t, o, 2)
	approx := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-9 })
	if diff := cmp.Diff(wantLower, lower["data"], approx); diff != "" {
		t.Errorf("band lower (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantWidth, width["data"], approx); diff != "" {
		t.Errorf("band width (-want +got):\n%s", diff)
	}
	if lower["stack"] != "band" || width["stack"] != "band" || width["areaStyle"] == nil {
		t.Errorf("band series are not a stacked area: %v / %v", lower, width)
	}

	// One regression marker, red, pointing up.
	marker := series(t, o, 3)
	wantMarker := map[string]any{
		"name": "regression", "type": "scatter", "symbol": "triangle", "symbolSize": 11.0,
		"itemStyle": map[string]any{"color": colorRegression},
		"data":      []any{map[string]any{"name": "early", "value": []any{ms(1), 1.0}}},
	}
	if diff := cmp.Diff(wantMarker, marker); diff != "" {
		t.Errorf("regression markers (-want +got):\n%s", diff)
	}
	if n := len(o["series"].([]any)); n != 4 {
		t.Errorf("%d series, want 4 (line, two band parts, regressions)", n)
	}
}

func TestHistoryChartMarkers(t *testing.T) {
	id := ChartID("markers")
	h, err := HistoryChart(id, "bytes", samplePoints(), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := option(t, h, id)
	got := map[string][2]any{}
	for _, s := range o["series"].([]any)[1:] {
		m := s.(map[string]any)
		got[m["name"].(string)] = [2]any{m["symbol"], m["itemStyle"].(map[string]any)["color"]}
	}
	want := map[string][2]any{
		MarkerRegression:  {symbolUp, colorRegression},
		MarkerImprovement: {symbolDown, colorImprovement},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("marker series (-want +got):\n%s", diff)
	}
	legend := o["legend"].(map[string]any)
	if legend["show"] != true {
		t.Errorf("legend hidden with markers present: %v", legend)
	}
}

func TestHistoryChartErrors(t *testing.T) {
	ok := samplePoints()
	tests := []struct {
		name   string
		points []ChartPoint
		band   *Band
	}{
		{"short band", ok, &Band{Lower: []float64{1}, Upper: []float64{2}}},
		{"band without upper", ok, &Band{Lower: make([]float64, len(ok))}},
		{"unknown marker", []ChartPoint{{Label: "x", Date: day(1), Value: 1, Marker: "worse"}}, nil},
		{"script link", []ChartPoint{{Label: "x", Date: day(1), Value: 1, URL: "javascript:alert(1)"}}, nil},
		{"data link", []ChartPoint{{Label: "x", Date: day(1), Value: 1, URL: "data:text/html,hi"}}, nil},
		{"malformed link", []ChartPoint{{Label: "x", Date: day(1), Value: 1, URL: "%zz"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := HistoryChart("c_x", "ns", tt.points, tt.band)
			if err == nil {
				t.Errorf("no error; got %s", h)
			}
		})
	}
}

func TestChartsWithNothingToDraw(t *testing.T) {
	tests := []struct {
		name   string
		render func() (template.HTML, error)
	}{
		{"history without points", func() (template.HTML, error) { return HistoryChart("c_e", "ns", nil, nil) }},
		{"history of non-finite values", func() (template.HTML, error) {
			return HistoryChart("c_e", "ns", []ChartPoint{{Label: "a", Date: day(1), Value: math.NaN()}}, &Band{Lower: []float64{1}, Upper: []float64{2}})
		}},
		{"changes without rows", func() (template.HTML, error) { return ChangesChart("c_e", nil, nil, nil) }},
		{"changes of non-finite values", func() (template.HTML, error) {
			return ChangesChart("c_e", []string{"a", "b"}, []float64{math.NaN(), math.Inf(-1)}, []bool{true, false})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := tt.render()
			if err != nil || h != "" {
				t.Errorf("got (%q, %v), want empty and no error", h, err)
			}
		})
	}
}

func TestChangesChart(t *testing.T) {
	id := ChartID("changes")
	labels := []string{"fib n=10", "skipped", "sort", "alloc"}
	changes := []float64{12.5, math.NaN(), -3.25, 0.5}
	regression := []bool{true, true, false, true}
	h, err := ChangesChart(id, labels, changes, regression)
	if err != nil {
		t.Fatal(err)
	}
	o := option(t, h, id)
	want := []any{
		map[string]any{"name": "fib n=10", "value": 12.5, "f": "+12.50%",
			"itemStyle": map[string]any{"color": colorRegression},
			"label":     map[string]any{"show": true, "position": "right", "formatter": "+12.50%"}},
		map[string]any{"name": "sort", "value": -3.25, "f": "-3.25%",
			"itemStyle": map[string]any{"color": colorImprovement},
			"label":     map[string]any{"show": true, "position": "left", "formatter": "-3.25%"}},
		map[string]any{"name": "alloc", "value": 0.5, "f": "+0.50%",
			"itemStyle": map[string]any{"color": colorRegression},
			"label":     map[string]any{"show": true, "position": "right", "formatter": "+0.50%"}},
	}
	if diff := cmp.Diff(want, series(t, o, 0)["data"]); diff != "" {
		t.Errorf("bars (-want +got):\n%s", diff)
	}
	y := o["yAxis"].([]any)[0].(map[string]any)
	if diff := cmp.Diff([]any{"fib n=10", "sort", "alloc"}, y["data"]); diff != "" {
		t.Errorf("categories (-want +got):\n%s", diff)
	}
	if y["type"] != "category" || y["inverse"] != true {
		t.Errorf("y axis = %v, want an inverse category axis (first row on top)", y)
	}
	if _, ok := o["dataZoom"]; ok {
		t.Error("three bars scroll")
	}
}

func TestChangesChartScrollsLongLists(t *testing.T) {
	n := 3 * barMaxVisible
	labels := make([]string, n)
	changes := make([]float64, n)
	regression := make([]bool, n)
	for i := range labels {
		labels[i] = "same name" // duplicates stay separate bars
		changes[i] = float64(i)
	}
	id := ChartID("long")
	h, err := ChangesChart(id, labels, changes, regression)
	if err != nil {
		t.Fatal(err)
	}
	o := option(t, h, id)
	zoom, ok := o["dataZoom"].([]any)
	if !ok || len(zoom) != 1 {
		t.Fatalf("dataZoom = %v, want one slider", o["dataZoom"])
	}
	z := zoom[0].(map[string]any)
	if z["yAxisIndex"] != 0.0 || math.Abs(z["end"].(float64)-100.0/3) > 1e-9 {
		t.Errorf("slider = %v, want the y axis showing the first third", z)
	}
	wantHeight := `height:` + strconv.Itoa(barMaxVisible*barRowHeight+72) + `px;`
	if !strings.Contains(string(h), wantHeight) {
		t.Errorf("snippet lacks %q", wantHeight)
	}
	if got := len(series(t, o, 0)["data"].([]any)); got != n {
		t.Errorf("%d bars, want %d", got, n)
	}
}

func TestChangesChartErrors(t *testing.T) {
	tests := []struct {
		name       string
		labels     []string
		changes    []float64
		regression []bool
	}{
		{"fewer labels", []string{"a"}, []float64{1, 2}, []bool{true, true}},
		{"fewer flags", []string{"a", "b"}, []float64{1, 2}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ChangesChart("c_x", tt.labels, tt.changes, tt.regression); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestAxisScale(t *testing.T) {
	tests := []struct {
		unit   string
		max    float64
		factor float64
		name   string
	}{
		{"ns", 1.5e6, 1e6, "ms"},
		{"ns/op", 999, 1, "ns"},
		{"ns", 2.5e9, 1e9, "s"},
		{"ns", 0.5, 1, "ns"},
		{"s", 0.002, 1e-3, "ms"},
		{"ms", 1500, 1e3, "s"},
		{"bytes", 3 << 20, 1 << 20, "MiB"},
		{"B/op", 100, 1, "B"},
		{"instructions", 4.2e9, 1e9, "G instructions"},
		{"count", 12000, 1e3, "k"},
		{"", 5, 1, ""},
		{"widgets", 1e9, 1, "widgets"},
	}
	for _, tt := range tests {
		t.Run(tt.unit+"/"+tt.name, func(t *testing.T) {
			got := axisScale(tt.unit, tt.max)
			if got.factor != tt.factor || got.name != tt.name {
				t.Errorf("axisScale(%q, %g) = %v, want {%g %q}", tt.unit, tt.max, got, tt.factor, tt.name)
			}
		})
	}
}

// A chart with its data kept out of the page: the option has empty series,
// the data (same series, same order, the failures apart) goes to the data
// file, and the script fetches it from the given site path only.
func TestHistoryChartDataFile(t *testing.T) {
	id := ChartID("lazy")
	band := &Band{Lower: []float64{1.4e6, 1.5e6, 1.3e6, math.NaN()}, Upper: []float64{1.6e6, 1.7e6, 1.5e6, math.NaN()}}
	inline, err := HistoryChart(id, "ns", samplePoints(), band)
	if err != nil {
		t.Fatal(err)
	}
	h, data, err := HistoryChartData(id, "ns", samplePoints(), band, "/p/data/bench/x.json")
	if err != nil {
		t.Fatal(err)
	}
	lazyOpt, inlineOpt := option(t, h, id), option(t, inline, id)
	lazySeries, inlineSeries := lazyOpt["series"].([]any), inlineOpt["series"].([]any)
	if len(lazySeries) != len(inlineSeries) {
		t.Fatalf("%d series, inline %d", len(lazySeries), len(inlineSeries))
	}
	var got struct {
		S []any `json:"s"`
		F []any `json:"f"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.S) != len(inlineSeries) || len(got.F) != 1 {
		t.Fatalf("data has %d series and %d failures, want %d and 1", len(got.S), len(got.F), len(inlineSeries))
	}
	for i, s := range lazySeries {
		if d := s.(map[string]any)["data"].([]any); len(d) != 0 {
			t.Errorf("series %d has %d data items in the page", i, len(d))
		}
		if d := cmp.Diff(inlineSeries[i].(map[string]any)["data"], got.S[i]); d != "" {
			t.Errorf("series %d data (-inline +file):\n%s", i, d)
		}
	}
	if !strings.Contains(string(h), `fetch(k)`) || !strings.Contains(string(h), `"/p/data/bench/x.json"`) || strings.Contains(string(h), "first") {
		t.Errorf("snippet does not fetch its data, or still holds it:\n%s", h)
	}
	for _, src := range []string{"", "javascript:alert(1)"} {
		if _, _, err := HistoryChartData(id, "ns", samplePoints(), nil, src); err == nil {
			t.Errorf("data source %q accepted", src)
		}
	}
	// A hostile source path cannot end the script.
	h, _, err = HistoryChartData(id, "ns", samplePoints(), nil, "/p/</script><script>alert(1)</script>.json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(strings.ToLower(string(h)), "<script") != 1 {
		t.Errorf("source path broke out of the script:\n%s", h)
	}
}

// Annotated points get a pin series of their own, named in the legend.
func TestHistoryChartAnnotation(t *testing.T) {
	pts := samplePoints()
	pts[1].Annotation = "new normal"
	id := ChartID("ann")
	h, err := HistoryChart(id, "ns", pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, s := range option(t, h, id)["series"].([]any) {
		sm := s.(map[string]any)
		if sm["name"] == seriesAnnotation {
			found = true
			data := sm["data"].([]any)
			if len(data) != 1 || data[0].(map[string]any)["name"] != "#2: new normal" || sm["symbol"] != symbolPin {
				t.Errorf("annotation series %v", sm)
			}
		}
	}
	if !found {
		t.Error("no annotation series")
	}
	_, data, err := HistoryChartData(id, "ns", pts, nil, "/d.json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"n":["result","regression","improvement","annotation"]`) {
		t.Errorf("data file names %s", data)
	}
}

func TestOverviewChart(t *testing.T) {
	id := ChartID("overview")
	lines := []ChartLine{
		{Name: "routes=10", Points: samplePoints()},
		{Name: `routes=</script><script>alert(1)</script>`, Points: samplePoints()[:2]},
	}
	h, data, err := OverviewChart(id, "ns", lines, "/d/x.json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(strings.ToLower(string(h)), "<script") != 1 {
		t.Errorf("a line name broke out of the script:\n%s", h)
	}
	opt := option(t, h, id)
	if y := opt["yAxis"].([]any)[0].(map[string]any); y["type"] != "log" {
		t.Errorf("value axis %v, want log", y)
	}
	var got struct {
		S [][]map[string]any `json:"s"`
		N []string           `json:"n"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	// The failed point is left out of a line; the names are the lines'.
	if len(got.S) != 2 || len(got.S[0]) != 3 || len(got.S[1]) != 2 || got.N[0] != "routes=10" || got.N[1] != lines[1].Name {
		t.Errorf("data %s", data)
	}
	if h, _, err := OverviewChart(id, "ns", lines[:1], "/d/x.json"); err != nil || h != "" {
		t.Errorf("one line: %q, %v; want nothing", h, err)
	}
	if _, _, err := OverviewChart(id, "ns", lines, "javascript:x"); err == nil {
		t.Error("bad data source accepted")
	}
}
