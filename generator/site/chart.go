package site

// Charts: go-echarts snippets (a <div> and an inline <script>) for our own
// html/template layouts. The layout loads the vendored
// themes/default/static/js/echarts.min.js (ECharts 5.6.0) itself, before
// the first snippet; a snippet never loads anything.
//
// Safety. go-echarts writes the option object into the <script> with
// json.Encoder.SetEscapeHTML(false), so a title such as
// "</script><script>alert(1)</script>" would end the script element, and
// it turns every "__f__" (its marker for embedded JavaScript functions)
// into nothing, so a label such as "__f__alert(1)__f__" would become code.
// We therefore never let go-echarts encode data: chartVisitor encodes
// every top-level option value itself, with HTML escaping on (< > & become
// \u003c \u003e \u0026) and every "__" written as \u005f\u005f, and hands
// go-echarts json.RawMessage values, which it copies verbatim. The option
// is then pure data; the few JavaScript functions (tooltip text, click
// navigation, colours from the page's CSS variables, resizing) live in
// opts.JSFunctions, which go-echarts emits after setOption, and which we
// write ourselves. Tooltips are HTML, so those functions pass every string
// from the data through echarts.format.encodeHTML.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"
	"github.com/go-echarts/go-echarts/v2/types"
)

// ChartPoint is one main-line result of a series.
type ChartPoint struct {
	Label  string    // "#1384" or short sha
	Title  string    // commit/PR title (tooltip)
	Date   time.Time // x position; points are drawn in date order
	Value  float64   // non-finite values are skipped unless Failed
	URL    string    // the commit page, with base path (click → navigate)
	Marker string    // "" or MarkerRegression / MarkerImprovement
	Failed bool      // a failed benchmark at this point (a gap and a dashed line)
	// Annotation is the note of an annotations.yaml entry at this point
	// (a distribution change or an acknowledged change): drawn as a pin.
	Annotation string
}

// The values of ChartPoint.Marker.
const (
	MarkerRegression  = "regression"
	MarkerImprovement = "improvement"
)

// Band is a range drawn behind a history line, typically the lookback
// mean ± k·σ. Lower and Upper are parallel to the points passed with it;
// an index where either is not finite is left out of the band.
type Band struct {
	Lower, Upper []float64
}

// Chart geometry and colours. The red and green are mid tones that keep
// enough contrast on both the light and the dark page background.
const (
	chartWidth       = "100%"
	chartHeight      = 320 // px
	barRowHeight     = 24  // px per bar of a changes chart
	barMaxVisible    = 28  // bars shown at once before the chart scrolls
	colorRegression  = "#e5534b"
	colorImprovement = "#2da44e"
	colorLine        = "#5470c6"
	colorBand        = "rgba(84,112,198,0.16)"
	colorBandLegend  = "rgba(84,112,198,0.4)"
	colorFailed      = "#8c959f"
	seriesValue      = "result"
	seriesBand       = "expected range"
	seriesAnnotation = "annotation"
	colorAnnotation  = "#8250df"
)

var chartIDPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ChartID turns any key (a series key, a comparison key) into a chart id
// that is deterministic and safe as a JavaScript identifier and an HTML
// id. Two charts on one page need different ids (go-echarts declares
// top-level variables named after them); with 48 bits of a SHA-256 two
// different keys collide with probability about n²/2⁴⁹ for n charts.
func ChartID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "c_" + hex.EncodeToString(sum[:6])
}

func checkChartID(id string) error {
	if !chartIDPattern.MatchString(id) {
		return fmt.Errorf("chart id %q is not of the form [A-Za-z_][A-Za-z0-9_]*", id)
	}
	return nil
}

// checkChartURL accepts what a click may navigate to: a site path or an
// http(s) URL. Anything with another scheme (javascript:, data:) is a bug
// upstream, never something to follow.
func checkChartURL(u string) error {
	if u == "" {
		return nil
	}
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("chart link %q: %w", u, err)
	}
	if p.Scheme != "" && p.Scheme != "http" && p.Scheme != "https" {
		return fmt.Errorf("chart link %q: scheme %q is not allowed", u, p.Scheme)
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// historyItem is a data item of the main line. ECharts draws name and
// value; the short keys ride along for the tooltip and click functions
// (they are repeated for every point, hence short).
type historyItem struct {
	Name  string `json:"name,omitempty"`
	Value [2]any `json:"value"`       // [unix ms, value or null]
	Title string `json:"t,omitempty"` // title
	Date  string `json:"d,omitempty"` // date, UTC
	URL   string `json:"u,omitempty"` // where a click goes
	Text  string `json:"f,omitempty"` // formatted value; "" for a failure
	Range string `json:"r,omitempty"` // formatted band
	Mark  string `json:"m,omitempty"` // regression / improvement
}

type markerItem struct {
	Name  string `json:"name"`
	Value [2]any `json:"value"`
}

// Marker symbols: ECharts' triangle points up; a path of our own points
// down, in the plot and in the legend alike (symbolRotate is ignored by
// the legend).
const (
	symbolPin  = "pin"
	symbolUp   = "triangle"
	symbolDown = "path://M0,0L10,0L5,9Z"
)

type legendItem struct {
	Name      string          `json:"name"`
	Icon      string          `json:"icon,omitempty"`
	ItemStyle *opts.ItemStyle `json:"itemStyle,omitempty"`
}

// axisUnit is the prefix a value axis is drawn in: one for the whole
// axis, chosen from its largest value the way FormatValue chooses one per
// value, so the axis reads "ms" instead of "1,500,000 ns".
type axisUnit struct {
	factor float64
	name   string
}

func axisScale(unit string, maxAbs float64) axisUnit {
	var units []axisUnit
	switch strings.ToLower(unit) {
	case "ns", "ns/op":
		units = []axisUnit{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}}
	case "s", "sec", "seconds", "sec/op":
		units = []axisUnit{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}}
	case "ms":
		units = []axisUnit{{1e3, "s"}, {1, "ms"}, {1e-3, "µs"}}
	case "b", "byte", "bytes", "b/op":
		units = []axisUnit{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}, {1, "B"}}
	case "count", "", "instructions", "cycles":
		name := unit
		if name == "count" {
			name = ""
		}
		for _, u := range []axisUnit{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
			if maxAbs >= u.factor {
				return axisUnit{u.factor, strings.TrimSpace(u.name + " " + name)}
			}
		}
		return axisUnit{1, name}
	default:
		return axisUnit{1, unit}
	}
	for _, u := range units {
		if maxAbs >= u.factor {
			return u
		}
	}
	return units[len(units)-1]
}

type dataZoom struct {
	Type             string `json:"type"`
	XAxisIndex       *int   `json:"xAxisIndex,omitempty"`
	YAxisIndex       *int   `json:"yAxisIndex,omitempty"`
	FilterMode       string `json:"filterMode"`
	ZoomOnMouseWheel any    `json:"zoomOnMouseWheel,omitempty"`
	MoveOnMouseWheel *bool  `json:"moveOnMouseWheel,omitempty"`
	Start            any    `json:"start,omitempty"`
	End              any    `json:"end,omitempty"`
	Height           int    `json:"height,omitempty"`
	Width            int    `json:"width,omitempty"`
	Bottom           int    `json:"bottom,omitempty"`
	Right            int    `json:"right,omitempty"`
	ShowDetail       *bool  `json:"showDetail,omitempty"`
	BrushSelect      *bool  `json:"brushSelect,omitempty"`
}

type tooltip struct {
	Trigger      string `json:"trigger"`
	Confine      bool   `json:"confine"`
	AxisPointer  any    `json:"axisPointer,omitempty"`
	ExtraCSSText string `json:"extraCssText"`
}

// tooltipCSS lets long titles wrap instead of running off the chart.
const tooltipCSS = "max-width:28em;white-space:normal;overflow-wrap:anywhere"

func ptr[T any](v T) *T { return &v }

// HistoryChart draws one series' history: its values by date on a time
// axis, red up-triangles at regressions and green down-triangles at
// improvements, dashed vertical lines at failed runs, the optional band
// behind the line, zoom (drag, ctrl+wheel, and a slider), a tooltip with
// label, date, title, value with unit and band, and click → the nearest
// point's URL. Points are drawn in date order (stable for equal dates);
// a point whose value is not finite is skipped unless it is a failure.
// With nothing to draw the result is empty.
func HistoryChart(id string, unit string, points []ChartPoint, band *Band) (template.HTML, error) {
	h, _, err := historyChart(id, unit, points, band, "")
	return h, err
}

// HistoryChartData is HistoryChart with the data kept out of the page: the
// snippet draws the axes, legend and behaviour, and fetches its series'
// data from src (a site path) when the page runs; data is this chart's
// entry of that file (JSON: the data of each series in order, then the
// failure lines). Pages with many charts stay small, and the data of a
// benchmark is loaded once, on demand.
func HistoryChartData(id string, unit string, points []ChartPoint, band *Band, src string) (template.HTML, json.RawMessage, error) {
	if err := checkChartURL(src); err != nil || src == "" {
		return "", nil, fmt.Errorf("chart %s: data source %q: %v", id, src, err)
	}
	return historyChart(id, unit, points, band, src)
}

// lazySeries is the data of a chart whose page fetches it: each series'
// data in the option's order and the main series' failure lines.
type lazySeries struct {
	Series []any `json:"s"`
	// Names are the series' names, in the same order.
	Names []string `json:"n"`
	// Axis is the value axis' unit (the values are scaled to it).
	Axis     string                       `json:"y,omitempty"`
	Failures []opts.MarkLineNameXAxisItem `json:"f,omitempty"`
}

func historyChart(id string, unit string, points []ChartPoint, band *Band, src string) (template.HTML, json.RawMessage, error) {
	if err := checkChartID(id); err != nil {
		return "", nil, err
	}
	if band != nil && (len(band.Lower) != len(points) || len(band.Upper) != len(points)) {
		return "", nil, fmt.Errorf("chart %s: band has %d lower and %d upper values for %d points",
			id, len(band.Lower), len(band.Upper), len(points))
	}
	order := make([]int, 0, len(points))
	maxAbs := 0.0
	for i, p := range points {
		if p.Marker != "" && p.Marker != MarkerRegression && p.Marker != MarkerImprovement {
			return "", nil, fmt.Errorf("chart %s: point %q: unknown marker %q", id, p.Label, p.Marker)
		}
		if err := checkChartURL(p.URL); err != nil {
			return "", nil, fmt.Errorf("chart %s: point %q: %w", id, p.Label, err)
		}
		if !p.Failed && !finite(p.Value) {
			continue
		}
		order = append(order, i)
		if !p.Failed {
			maxAbs = max(maxAbs, math.Abs(p.Value))
		}
	}
	if len(order) == 0 {
		return "", nil, nil
	}
	slices.SortStableFunc(order, func(a, b int) int { return points[a].Date.Compare(points[b].Date) })
	axis := axisScale(unit, maxAbs)

	var (
		items                 []historyItem
		lower, width          [][2]any
		regressions, improved []markerItem
		annotated             []markerItem
		failures              []opts.MarkLineNameXAxisItem
		hasBand               bool
	)
	for _, i := range order {
		p := points[i]
		ms := p.Date.UnixMilli()
		it := historyItem{
			Name:  p.Label,
			Title: p.Title,
			Date:  p.Date.UTC().Format("2006-01-02 15:04 UTC"),
			URL:   p.URL,
			Mark:  p.Marker,
		}
		if p.Failed {
			it.Value = [2]any{ms, nil}
			failures = append(failures, opts.MarkLineNameXAxisItem{Name: p.Label, XAxis: ms})
		} else {
			y := p.Value / axis.factor
			it.Value = [2]any{ms, y}
			it.Text = FormatValue(p.Value, unit)
			switch p.Marker {
			case MarkerRegression:
				regressions = append(regressions, markerItem{Name: p.Label, Value: [2]any{ms, y}})
			case MarkerImprovement:
				improved = append(improved, markerItem{Name: p.Label, Value: [2]any{ms, y}})
			}
			if p.Annotation != "" {
				annotated = append(annotated, markerItem{Name: p.Label + ": " + p.Annotation, Value: [2]any{ms, y}})
			}
		}
		if band != nil {
			lo, hi := band.Lower[i], band.Upper[i]
			if finite(lo) && finite(hi) {
				if lo > hi {
					lo, hi = hi, lo
				}
				hasBand = true
				lower = append(lower, [2]any{ms, lo / axis.factor})
				width = append(width, [2]any{ms, (hi - lo) / axis.factor})
				it.Range = FormatValue(lo, unit) + " – " + FormatValue(hi, unit)
			} else {
				// A gap keeps both stacked series on the same x values.
				lower = append(lower, [2]any{ms, nil})
				width = append(width, [2]any{ms, nil})
			}
		}
		items = append(items, it)
	}

	v := &chartVisitor{extra: map[string]any{
		"useUTC": true,
		"tooltip": tooltip{Trigger: "axis", Confine: true, ExtraCSSText: tooltipCSS,
			AxisPointer: map[string]any{"type": "line", "snap": true}},
		"dataZoom": []dataZoom{
			{Type: "inside", XAxisIndex: ptr(0), FilterMode: "none",
				ZoomOnMouseWheel: "ctrl", MoveOnMouseWheel: ptr(false)},
			{Type: "slider", XAxisIndex: ptr(0), FilterMode: "none",
				Height: 18, Bottom: 8, BrushSelect: ptr(false)},
		},
	}}
	var legend []legendItem
	if hasBand {
		legend = append(legend, legendItem{Name: seriesBand, Icon: "rect",
			ItemStyle: &opts.ItemStyle{Color: colorBandLegend}})
	}
	if len(regressions) > 0 {
		legend = append(legend, legendItem{Name: MarkerRegression})
	}
	if len(improved) > 0 {
		legend = append(legend, legendItem{Name: MarkerImprovement})
	}
	if len(annotated) > 0 {
		legend = append(legend, legendItem{Name: seriesAnnotation})
	}
	top := "24px"
	if len(legend) > 0 {
		top = "40px"
		legend = append([]legendItem{{Name: seriesValue}}, legend...)
	}

	lazy := &lazyData{on: src != ""}
	line := charts.NewLine()
	line.Accept(v)
	line.SetGlobalOptions(append(commonOpts(id, chartHeight),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(len(legend) > 0), Data: legend, Top: "4px"}),
		charts.WithGridOpts(opts.Grid{Left: "8px", Right: "24px", Top: top, Bottom: "44px",
			ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "time"}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: axis.name, Scale: opts.Bool(true)}),
	)...)
	mainOpts := []charts.SeriesOpts{
		charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle",
			SymbolSize: 5, ConnectNulls: opts.Bool(false)}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: colorLine}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: colorLine, Width: 1.5}),
		charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = lazy.put(seriesValue, items) }),
	}
	if len(failures) > 0 && src == "" {
		mainOpts = append(mainOpts,
			charts.WithMarkLineNameXAxisItemOpts(failures...),
			charts.WithMarkLineStyleOpts(opts.MarkLineStyle{
				Symbol:    []string{"none", "none"},
				Label:     &opts.Label{Show: opts.Bool(false)},
				LineStyle: &opts.LineStyle{Color: colorFailed, Type: "dashed", Width: 1},
			}))
	}
	line.AddSeries(seriesValue, nil, mainOpts...)
	if hasBand {
		// The band is two stacked lines: the lower bound, drawn
		// invisibly, and the band's width on top of it, filled.
		for _, part := range []struct {
			data [][2]any
			fill bool
		}{{lower, false}, {width, true}} {
			so := []charts.SeriesOpts{
				charts.WithLineChartOpts(opts.LineChart{Stack: "band", ShowSymbol: opts.Bool(false),
					ConnectNulls: opts.Bool(false)}),
				charts.WithLineStyleOpts(opts.LineStyle{Opacity: opts.Float(0)}),
				charts.WithItemStyleOpts(opts.ItemStyle{Color: colorBand}),
				charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = lazy.put(seriesBand, part.data) }),
			}
			if part.fill {
				so = append(so, charts.WithAreaStyleOpts(opts.AreaStyle{Color: colorBand, Opacity: opts.Float(1)}))
			}
			line.AddSeries(seriesBand, nil, so...)
		}
	}
	for _, m := range []struct {
		name, symbol, color string
		data                []markerItem
	}{
		{MarkerRegression, symbolUp, colorRegression, regressions},
		{MarkerImprovement, symbolDown, colorImprovement, improved},
		{seriesAnnotation, symbolPin, colorAnnotation, annotated},
	} {
		if len(m.data) == 0 {
			continue
		}
		sc := charts.NewScatter()
		sc.AddSeries(m.name, nil,
			charts.WithScatterChartOpts(opts.ScatterChart{Symbol: m.symbol, SymbolSize: 11}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: m.color}),
			charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = lazy.put(m.name, m.data) }))
		line.Overlap(sc)
	}
	line.AddJSFuncStrs(commonJS, historyJS)
	if src == "" {
		h, err := snippet(id, line, v)
		return h, nil, err
	}
	lazy.data.Failures = failures
	lazy.data.Axis = axis.name
	return lazySnippet(id, line, v, lazy, src)
}

// lazySnippet renders a chart whose series data lazy collected: the
// snippet, with the function that fetches the data from src, and the
// chart's entry of the data file.
func lazySnippet(id string, line *charts.Line, v *chartVisitor, lazy *lazyData, src string) (template.HTML, json.RawMessage, error) {
	data, err := scriptJSON(lazy.data)
	if err != nil {
		return "", nil, fmt.Errorf("chart %s: %w", id, err)
	}
	srcJSON, err := scriptJSON(src)
	if err != nil {
		return "", nil, fmt.Errorf("chart %s: %w", id, err)
	}
	idJSON, _ := scriptJSON(id)
	line.AddJSFuncStrs(types.FuncStr(strings.ReplaceAll(strings.ReplaceAll(loadJS, "@SRC@", string(srcJSON)), "@ID@", string(idJSON))))
	h, err := snippet(id, line, v)
	return h, data, err
}

// lazyData collects series data for a chart whose data is fetched: put
// records a series' data and returns what the option holds instead (the
// data itself when the chart is inline, an empty list otherwise).
type lazyData struct {
	on   bool
	data lazySeries
}

func (l *lazyData) put(name string, data any) any {
	if !l.on {
		return data
	}
	l.data.Series = append(l.data.Series, data)
	l.data.Names = append(l.data.Names, name)
	return []any{}
}

// ChartLine is one test case's history on an overview chart.
type ChartLine struct {
	Name   string // the test case's parameters, "k=v k2=v2"
	Points []ChartPoint
}

// OverviewChart draws several test cases of one metric on one machine as
// one line each, on a logarithmic value axis (their magnitudes differ), with
// zoom, a tooltip listing every line's value at the date under the pointer,
// and click → the nearest commit of the first line. Its data is fetched
// from src as HistoryChartData's (one series per line). With fewer than two
// lines that have points the result is empty.
func OverviewChart(id string, unit string, lines []ChartLine, src string) (template.HTML, json.RawMessage, error) {
	if err := checkChartID(id); err != nil {
		return "", nil, err
	}
	if err := checkChartURL(src); err != nil || src == "" {
		return "", nil, fmt.Errorf("chart %s: data source %q: %v", id, src, err)
	}
	maxAbs := 0.0
	type linePts struct {
		name  string
		items []historyItem
	}
	var drawn []linePts
	for _, l := range lines {
		order := make([]int, 0, len(l.Points))
		for i, p := range l.Points {
			if err := checkChartURL(p.URL); err != nil {
				return "", nil, fmt.Errorf("chart %s: point %q: %w", id, p.Label, err)
			}
			if !p.Failed && finite(p.Value) && p.Value > 0 {
				order = append(order, i)
				maxAbs = max(maxAbs, p.Value)
			}
		}
		if len(order) == 0 {
			continue
		}
		slices.SortStableFunc(order, func(a, b int) int { return l.Points[a].Date.Compare(l.Points[b].Date) })
		lp := linePts{name: l.Name}
		for _, i := range order {
			p := l.Points[i]
			it := historyItem{Text: FormatValue(p.Value, unit), Value: [2]any{p.Date.UnixMilli(), p.Value}}
			if len(drawn) == 0 {
				// Only the first line carries the commit's label, date,
				// title and link: the tooltip and clicks take them from it,
				// which keeps the data file from repeating them per line.
				it.Name, it.Title, it.Date, it.URL = p.Label, p.Title, p.Date.UTC().Format("2006-01-02 15:04 UTC"), p.URL
			}
			lp.items = append(lp.items, it)
		}
		drawn = append(drawn, lp)
	}
	if len(drawn) < 2 {
		return "", nil, nil
	}
	axis := axisScale(unit, maxAbs)
	lazy := &lazyData{on: true}
	v := &chartVisitor{extra: map[string]any{
		"useUTC": true,
		"tooltip": tooltip{Trigger: "axis", Confine: true, ExtraCSSText: tooltipCSS,
			AxisPointer: map[string]any{"type": "line", "snap": true}},
		"dataZoom": []dataZoom{
			{Type: "inside", XAxisIndex: ptr(0), FilterMode: "none", ZoomOnMouseWheel: "ctrl", MoveOnMouseWheel: ptr(false)},
			{Type: "slider", XAxisIndex: ptr(0), FilterMode: "none", Height: 18, Bottom: 8, BrushSelect: ptr(false)},
		},
	}}
	legend := make([]legendItem, len(drawn))
	for i, l := range drawn {
		legend[i] = legendItem{Name: l.name}
	}
	line := charts.NewLine()
	line.Accept(v)
	line.SetGlobalOptions(append(commonOpts(id, chartHeight),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Data: legend, Top: "4px", Type: "scroll"}),
		charts.WithGridOpts(opts.Grid{Left: "8px", Right: "24px", Top: "40px", Bottom: "44px", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "time"}),
		charts.WithYAxisOpts(opts.YAxis{Type: "log", Name: axis.name + " (log)", Scale: opts.Bool(true)}),
	)...)
	for _, l := range drawn {
		// Values are scaled to the axis unit, as on history charts.
		items := l.items
		for i := range items {
			items[i].Value[1] = items[i].Value[1].(float64) / axis.factor
		}
		line.AddSeries(l.name, nil,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), ConnectNulls: opts.Bool(false)}),
			charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = lazy.put(l.name, items) }))
	}
	line.AddJSFuncStrs(commonJS, overviewJS)
	return lazySnippet(id, line, v, lazy, src)
}

// overviewJS writes an overview chart's tooltip (every line's value at
// the date under the pointer) and sends a click to the nearest commit of
// the first line.
var overviewJS = types.FuncStr(`(function(c){` +
	`var e=echarts.format.encodeHTML;` +
	`c.setOption({tooltip:{formatter:function(ps){` +
	`ps=[].concat(ps);if(!ps.length){return '';}` +
	`var d0=null,s='';for(var j=0;j<ps.length;j++){if(ps[j].data&&ps[j].data.d){d0=ps[j].data;break;}}` +
	`if(d0){s='<b>'+e(d0.name)+'<\/b>';var sha=/\/commit\/([0-9a-f]{7})[0-9a-f]*\/$/.exec(d0.u||'');if(sha&&String(d0.name).indexOf(sha[1])<0){s+=' <code>'+sha[1]+'<\/code>';}s+=' <span style="opacity:.7">'+e(d0.d)+'<\/span>';if(d0.t){s+='<br>'+e(d0.t);}}` +
	`for(var k=0;k<ps.length;k++){s+='<br>'+ps[k].marker+e(ps[k].seriesName)+': <b>'+e(ps[k].data.f||'')+'<\/b>';}` +
	`return s;` +
	`}}});` +
	`c.getZr().on('click',function(ev){` +
	`var pt=[ev.offsetX,ev.offsetY];` +
	`if(!c.containPixel({gridIndex:0},pt)){return;}` +
	`var d=(c.getOption().series[0]||{}).data||[],best=null,bd=24,k;` +
	`for(k=0;k<d.length;k++){var dx=Math.abs(c.convertToPixel({xAxisIndex:0},d[k].value[0])-pt[0]);if(dx<bd){bd=dx;best=d[k];}}` +
	`if(best&&best.u){window.location.href=best.u;}` +
	`});` +
	`})(` + render.EchartsInstancePlaceholder + `);`)

// barItem is one bar of a changes chart.
type barItem struct {
	Name      string         `json:"name"`
	Value     float64        `json:"value"`
	ItemStyle opts.ItemStyle `json:"itemStyle"`
	Label     opts.Label     `json:"label"`
	Text      string         `json:"f"` // the change, formatted
}

// ChangesChart draws a horizontal bar chart of relative changes in
// percent (the rows of a comparison, in the order given, first on top):
// red bars for regressions, green for improvements, each labelled with
// its signed change. Rows whose change is not finite are skipped. More
// than barMaxVisible rows scroll. With nothing to draw the result is
// empty.
func ChangesChart(id string, labels []string, changes []float64, regression []bool) (template.HTML, error) {
	if err := checkChartID(id); err != nil {
		return "", err
	}
	if len(labels) != len(changes) || len(regression) != len(changes) {
		return "", fmt.Errorf("chart %s: %d labels, %d changes and %d regression flags differ in number",
			id, len(labels), len(changes), len(regression))
	}
	var (
		names []string
		items []barItem
	)
	for i, c := range changes {
		if !finite(c) {
			continue
		}
		color, pos := colorImprovement, "right"
		if regression[i] {
			color = colorRegression
		}
		if c < 0 {
			pos = "left"
		}
		text := FormatChange(c / 100)
		names = append(names, labels[i])
		items = append(items, barItem{
			Name:      labels[i],
			Value:     c,
			ItemStyle: opts.ItemStyle{Color: color},
			Label:     opts.Label{Show: opts.Bool(true), Position: pos, Formatter: text},
			Text:      text,
		})
	}
	if len(items) == 0 {
		return "", nil
	}
	n := len(items)
	visible := min(n, barMaxVisible)
	height := max(chartHeight, visible*barRowHeight+72)
	extra := map[string]any{
		"tooltip": tooltip{Trigger: "item", Confine: true, ExtraCSSText: tooltipCSS},
	}
	if n > visible {
		extra["dataZoom"] = []dataZoom{{
			Type: "slider", YAxisIndex: ptr(0), FilterMode: "none",
			Start: 0, End: float64(visible) / float64(n) * 100,
			Width: 14, Right: 4, ShowDetail: ptr(false), BrushSelect: ptr(false),
		}}
	}
	v := &chartVisitor{extra: extra}
	bar := charts.NewBar()
	bar.Accept(v)
	bar.SetGlobalOptions(append(commonOpts(id, height),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Left: "8px", Right: "64px", Top: "16px", Bottom: "32px",
			ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "%",
			AxisLabel: &opts.AxisLabel{Formatter: "{value}%"}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Inverse: opts.Bool(true),
			AxisLabel: &opts.AxisLabel{Width: 260, Overflow: "truncate", Interval: "0"}}),
	)...)
	bar.SetXAxis(names).XYReversal()
	bar.AddSeries("change", nil,
		charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = items; s.BarMaxWidth = "18" }))
	bar.AddJSFuncStrs(commonJS, changesJS)
	return snippet(id, bar, v)
}

// chartVisitor is go-echarts' hook on the finished option map. It adds the
// options go-echarts has no fields for (extra) and replaces every value
// by JSON we encoded safely (see the top of this file).
type chartVisitor struct {
	charts.BaseConfigurationVisitor
	extra map[string]any
	err   error
}

func (v *chartVisitor) Visit(option map[string]any) {
	for k, val := range v.extra {
		option[k] = val
	}
	keys := make([]string, 0, len(option))
	for k := range option {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b, err := scriptJSON(option[k])
		if err != nil {
			if v.err == nil {
				v.err = fmt.Errorf("encoding option %s: %w", k, err)
			}
			delete(option, k)
			continue
		}
		option[k] = json.RawMessage(b)
	}
}

// scriptJSON encodes v for the inside of a <script> element: encoding/json
// escapes < > & U+2028 U+2029 in strings, so no string can end the element
// or open a comment, and we write "_" pairs as \u005f\u005f so that no
// string contains go-echarts' "__f__" function marker. Outside strings
// JSON has neither '<' nor '_', so only strings change, and only in
// spelling: a JavaScript string literal decodes \u escapes the same way.
func scriptJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(b, []byte("__"), []byte(`\u005f\u005f`)), nil
}

type snippetRenderer interface {
	RenderSnippet() render.ChartSnippet
}

const scriptOpen, scriptClose = `<script type="text/javascript">`, `</script>`

// snippet renders c's <div> and <script>, turning go-echarts' panics into
// errors, and checks what it got: one script element, nothing in it that
// could end it early.
func snippet(id string, c snippetRenderer, v *chartVisitor) (_ template.HTML, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("chart %s: rendering: %v", id, r)
		}
	}()
	s := c.RenderSnippet()
	if v.err != nil {
		return "", fmt.Errorf("chart %s: %w", id, v.err)
	}
	if err := checkScript(s.Script); err != nil {
		return "", fmt.Errorf("chart %s: %w", id, err)
	}
	return template.HTML(strings.TrimSpace(s.Element) + "\n" + strings.TrimSpace(s.Script) + "\n"), nil
}

var errUnsafeScript = errors.New("generated script is not self-contained")

func checkScript(script string) error {
	s := strings.TrimSpace(script)
	body, ok := strings.CutPrefix(s, scriptOpen)
	if !ok {
		return errUnsafeScript
	}
	body, ok = strings.CutSuffix(body, scriptClose)
	if !ok {
		return errUnsafeScript
	}
	lower := strings.ToLower(body)
	for _, bad := range []string{"</script", "<script", "<!--", "__f__"} {
		if strings.Contains(lower, bad) {
			return fmt.Errorf("%w: it contains %q", errUnsafeScript, bad)
		}
	}
	return nil
}

// The chart's behaviour, as go-echarts JavaScript functions
// (opts.JSFunctions): go-echarts strips newlines and tabs, so every line
// ends in ';', '{', '}' or ','; it replaces %MY_ECHARTS% by the chart's
// instance. Strings from the data reach HTML only through encodeHTML.

// commonJS takes text and axis colours from the page's CSS variables (the
// default theme defines --fg, --muted and --border for light and dark),
// again when the colour scheme changes, and resizes the chart with its
// container (charts inside collapsed rows or tabs start at width 0).
var commonJS = types.FuncStr(`(function(c){` +
	`function colors(){` +
	`var s=getComputedStyle(document.documentElement),fg=s.getPropertyValue('--fg').trim(),mu=s.getPropertyValue('--muted').trim(),bo=s.getPropertyValue('--border').trim();` +
	`if(!fg){return;}` +
	`var ax={axisLabel:{color:mu},nameTextStyle:{color:mu},axisLine:{lineStyle:{color:bo}},splitLine:{lineStyle:{color:bo}}};` +
	`c.setOption({textStyle:{color:fg},legend:{textStyle:{color:fg}},xAxis:ax,yAxis:ax,series:[{label:{color:fg,textBorderWidth:0}}]});` +
	`}` +
	`colors();` +
	`if(window.matchMedia){var q=window.matchMedia('(prefers-color-scheme: dark)');if(q.addEventListener){q.addEventListener('change',colors);}}` +
	`if(window.ResizeObserver){new ResizeObserver(function(){c.resize();}).observe(c.getDom());}else{window.addEventListener('resize',function(){c.resize();});}` +
	`})(` + render.EchartsInstancePlaceholder + `);`)

// historyJS writes the tooltip of a history chart from the main line's
// data item and sends a click anywhere in the plot to the nearest point's
// page (within 24 px), so points need not be hit exactly.
var historyJS = types.FuncStr(`(function(c){` +
	`var e=echarts.format.encodeHTML;` +
	`c.setOption({tooltip:{formatter:function(ps){` +
	`ps=[].concat(ps);` +
	`var d=null,k;` +
	`for(k=0;k<ps.length;k++){if(ps[k].seriesIndex===0){d=ps[k].data;}}` +
	`if(!d){return '';}` +
	`var s='<b>'+e(d.name)+'<\/b>';` +
	`var sha=/\/commit\/([0-9a-f]{7})[0-9a-f]*\/$/.exec(d.u||'');` +
	`if(sha&&String(d.name).indexOf(sha[1])<0){s+=' <code>'+sha[1]+'<\/code>';}` +
	`s+=' <span style="opacity:.7">'+e(d.d)+'<\/span>';` +
	`if(d.t){s+='<br>'+e(d.t);}` +
	`s+='<br><b>'+(d.f?e(d.f):'failed')+'<\/b>';` +
	`if(d.m){s+=' <span style="color:'+(d.m==='` + MarkerRegression + `'?'` + colorRegression + `':'` + colorImprovement + `')+'">'+e(d.m)+'<\/span>';}` +
	`if(d.r){s+='<br><span style="opacity:.7">expected '+e(d.r)+'<\/span>';}` +
	`return s;` +
	`}}});` +
	`c.getZr().on('click',function(ev){` +
	`var pt=[ev.offsetX,ev.offsetY];` +
	`if(!c.containPixel({gridIndex:0},pt)){return;}` +
	`var d=c.getOption().series[0].data,best=null,bd=24,k;` +
	`for(k=0;k<d.length;k++){var dx=Math.abs(c.convertToPixel({xAxisIndex:0},d[k].value[0])-pt[0]);if(dx<bd){bd=dx;best=d[k];}}` +
	`if(best&&best.u){window.location.href=best.u;}` +
	`});` +
	`})(` + render.EchartsInstancePlaceholder + `);`)

// loadJS fetches a chart's data (one file per benchmark, shared by the
// page's charts through one request) and puts it into the series in order;
// the failures become the main series' mark lines. @SRC@ and @ID@ are replaced
// by JSON strings.
const loadJS = `(function(c){` +
	`var w=window,k=@SRC@;` +
	`w.perfpagesData=w.perfpagesData||{};` +
	`var p=w.perfpagesData[k]||(w.perfpagesData[k]=fetch(k).then(function(r){if(!r.ok){throw new Error(k+': '+r.status);}return r.json();}));` +
	`p.then(function(all){` +
	`var d=all[@ID@];if(!d){return;}` +
	`var ss=d.s.map(function(x){return {data:x};});` +
	`if(d.f&&ss.length){ss[0].markLine={symbol:['none','none'],label:{show:false},lineStyle:{color:'` + colorFailed + `',type:'dashed',width:1},data:d.f};}` +
	`c.setOption({series:ss});` +
	`c.getDom().setAttribute('data-loaded','');` +
	`}).catch(function(e){c.getDom().setAttribute('data-error',String(e));});` +
	`})(` + render.EchartsInstancePlaceholder + `);`

// changesJS writes the tooltip of a changes chart: the full row name
// (axis labels are truncated) and the formatted change.
var changesJS = types.FuncStr(`(function(c){` +
	`var e=echarts.format.encodeHTML;` +
	`c.setOption({tooltip:{formatter:function(p){return e(p.name)+'<br><b>'+e(p.data.f)+'<\/b>';}}});` +
	`})(` + render.EchartsInstancePlaceholder + `);`)

// commonOpts are the options every chart shares: its deterministic id,
// full width, SVG rendering and no animation.
func commonOpts(id string, height int) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{
			ChartID:  id,
			Width:    chartWidth,
			Height:   strconv.Itoa(height) + "px",
			Renderer: "svg",
		}),
		charts.WithAnimation(false),
	}
}
