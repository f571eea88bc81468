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
	"cmp"
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
	colorFailed      = "#8c959f"
	seriesValue      = "result"
	seriesBand       = "expected range"
)

var chartIDPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ChartID turns any key (a series key, a comparison key) into a chart id
// that is deterministic, safe as a JavaScript identifier and an HTML id,
// and, with 48 bits of a SHA-256, unique within any page we build.
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
	Name  string `json:"name"`
	Value [2]any `json:"value"`       // [unix ms, value or null]
	Title string `json:"t,omitempty"` // title
	Date  string `json:"d"`           // date, UTC
	URL   string `json:"u,omitempty"` // where a click goes
	Text  string `json:"f,omitempty"` // formatted value; "" for a failure
	Range string `json:"r,omitempty"` // formatted band
	Mark  string `json:"m,omitempty"` // regression / improvement
}

type markerItem struct {
	Name         string `json:"name"`
	Value        [2]any `json:"value"`
	SymbolRotate int    `json:"symbolRotate,omitempty"`
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
	Trigger     string `json:"trigger"`
	Confine     bool   `json:"confine"`
	AxisPointer any    `json:"axisPointer,omitempty"`
}

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
	if err := checkChartID(id); err != nil {
		return "", err
	}
	if band != nil && (len(band.Lower) != len(points) || len(band.Upper) != len(points)) {
		return "", fmt.Errorf("chart %s: band has %d lower and %d upper values for %d points",
			id, len(band.Lower), len(band.Upper), len(points))
	}
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return points[a].Date.Compare(points[b].Date) })

	var (
		items                   []historyItem
		lower, width            [][2]any
		regressions, improved   []markerItem
		failures                []opts.MarkLineNameXAxisItem
		hasBand, hasDrawnValues bool
	)
	for _, i := range order {
		p := points[i]
		if p.Marker != "" && p.Marker != MarkerRegression && p.Marker != MarkerImprovement {
			return "", fmt.Errorf("chart %s: point %q: unknown marker %q", id, p.Label, p.Marker)
		}
		if err := checkChartURL(p.URL); err != nil {
			return "", fmt.Errorf("chart %s: point %q: %w", id, p.Label, err)
		}
		if !p.Failed && !finite(p.Value) {
			continue
		}
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
			hasDrawnValues = true
			it.Value = [2]any{ms, p.Value}
			it.Text = FormatValue(p.Value, unit)
			m := markerItem{Name: p.Label, Value: [2]any{ms, p.Value}}
			switch p.Marker {
			case MarkerRegression:
				regressions = append(regressions, m)
			case MarkerImprovement:
				m.SymbolRotate = 180
				improved = append(improved, m)
			}
		}
		if band != nil {
			lo, hi := band.Lower[i], band.Upper[i]
			if finite(lo) && finite(hi) {
				if lo > hi {
					lo, hi = hi, lo
				}
				hasBand = true
				lower = append(lower, [2]any{ms, lo})
				width = append(width, [2]any{ms, hi - lo})
				it.Range = FormatValue(lo, unit) + " – " + FormatValue(hi, unit)
			} else {
				// A gap keeps both stacked series on the same x values.
				lower = append(lower, [2]any{ms, nil})
				width = append(width, [2]any{ms, nil})
			}
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		return "", nil
	}

	v := &chartVisitor{extra: map[string]any{
		"useUTC": true,
		"tooltip": tooltip{Trigger: "axis", Confine: true,
			AxisPointer: map[string]any{"type": "line", "snap": true}},
		"dataZoom": []dataZoom{
			{Type: "inside", XAxisIndex: ptr(0), FilterMode: "none",
				ZoomOnMouseWheel: "ctrl", MoveOnMouseWheel: ptr(false)},
			{Type: "slider", XAxisIndex: ptr(0), FilterMode: "none",
				Height: 18, Bottom: 8, BrushSelect: ptr(false)},
		},
	}}
	line := charts.NewLine()
	line.Accept(v)
	var legend []string
	if hasBand {
		legend = append(legend, seriesBand)
	}
	if len(regressions) > 0 {
		legend = append(legend, MarkerRegression)
	}
	if len(improved) > 0 {
		legend = append(legend, MarkerImprovement)
	}
	top := "16px"
	if len(legend) > 0 {
		top = "40px"
		legend = append([]string{seriesValue}, legend...)
	}
	line.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{
			ChartID:  id,
			Width:    chartWidth,
			Height:   strconv.Itoa(chartHeight) + "px",
			Renderer: "svg",
			Theme:    types.ThemeWhite,
		}),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(len(legend) > 0), Data: legend, Top: "4px"}),
		charts.WithGridOpts(opts.Grid{Left: "8px", Right: "24px", Top: top, Bottom: "44px",
			ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "time"}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: unit, Scale: opts.Bool(true)}),
	)
	mainOpts := []charts.SeriesOpts{
		charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle",
			SymbolSize: 5, ConnectNulls: opts.Bool(false)}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: colorLine}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: colorLine, Width: 1.5}),
		charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = items }),
	}
	if len(failures) > 0 {
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
		noLine := opts.LineStyle{Opacity: opts.Float(0)}
		line.AddSeries(seriesBand, nil,
			charts.WithLineChartOpts(opts.LineChart{Stack: "band", ShowSymbol: opts.Bool(false),
				ConnectNulls: opts.Bool(false)}),
			charts.WithLineStyleOpts(noLine),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colorBand}),
			charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = lower; s.SeriesTooltip = &opts.SeriesTooltip{Show: opts.Bool(false)} }))
		line.AddSeries(seriesBand, nil,
			charts.WithLineChartOpts(opts.LineChart{Stack: "band", ShowSymbol: opts.Bool(false),
				ConnectNulls: opts.Bool(false)}),
			charts.WithLineStyleOpts(noLine),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colorBand}),
			charts.WithAreaStyleOpts(opts.AreaStyle{Color: colorBand, Opacity: opts.Float(1)}),
			charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = width }))
	}
	for _, m := range []struct {
		name  string
		data  []markerItem
		color string
	}{
		{MarkerRegression, regressions, colorRegression},
		{MarkerImprovement, improved, colorImprovement},
	} {
		if len(m.data) == 0 {
			continue
		}
		sc := charts.NewScatter()
		sc.AddSeries(m.name, nil,
			charts.WithScatterChartOpts(opts.ScatterChart{Symbol: "triangle", SymbolSize: 11}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: m.color}),
			charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = m.data }))
		line.Overlap(sc)
	}
	_ = hasDrawnValues
	line.AddJSFuncStrs(commonJS, historyJS)
	return snippet(id, line, v)
}

// barItem is one bar of a changes chart.
type barItem struct {
	Name      string          `json:"name"`
	Value     float64         `json:"value"`
	ItemStyle opts.ItemStyle  `json:"itemStyle"`
	Label     opts.Label      `json:"label"`
	Text      string          `json:"f"` // the change, formatted
	_         struct{}        `json:"-"`
	_         json.RawMessage `json:"-"`
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
		"tooltip": tooltip{Trigger: "item", Confine: true},
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
	bar.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{
			ChartID:  id,
			Width:    chartWidth,
			Height:   strconv.Itoa(height) + "px",
			Renderer: "svg",
			Theme:    types.ThemeWhite,
		}),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Left: "8px", Right: "64px", Top: "16px", Bottom: "32px",
			ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "%",
			AxisLabel: &opts.AxisLabel{Formatter: "{value}%"}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Inverse: opts.Bool(true),
			AxisLabel: &opts.AxisLabel{Width: 260, Overflow: "truncate", Interval: "0"}}),
	)
	bar.SetXAxis(names).XYReversal()
	bar.AddSeries("change", nil,
		charts.WithBarChartOpts(opts.BarChart{BarMaxWidth: "18px"}),
		charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.Data = items }))
	bar.AddJSFuncStrs(commonJS, changesJS)
	return snippet(id, bar, v)
}
