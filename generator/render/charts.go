package render

// Charts. Every chart of the site is drawn by one renderer, the default
// theme's site.js, from two parts:
//
//   - the option of its kind (history, overview, changes), built here once
//     per build with go-echarts: axes, legend, grid, zoom, tooltip
//     settings, the series and their styles, without data. They are one
//     file of the site (route.ChartOptions), which the script fetches
//     once for every page that draws charts;
//   - the chart's own spec, a <div> with the model's Chart as JSON in its
//     data-chart attribute: which series of which benchmark it draws (the
//     script fetches their data files) or, for a changes chart, its bars.
//
// Both are attribute values escaped by html/template, and the script reads
// them with JSON.parse: nothing from the data is ever code. The behaviour
// (tooltips, clicks, colours from the page's CSS, log scale) is the
// script's, which passes every string from the data through
// echarts.format.encodeHTML before it reaches a tooltip.

import (
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/perfpages/perfpages/generator/sitemodel"
)

// Chart geometry and colours. The red and green are mid tones that keep
// enough contrast on both the light and the dark page background.
const (
	chartHeight      = 320 // px
	barRowHeight     = 24  // px per bar of a changes chart
	barLineHeight    = 14  // px per line of a bar's name (a row of two lines is this much taller)
	barMaxVisible    = 28  // bars shown at once before the chart scrolls
	colorRegression  = "#e5534b"
	colorImprovement = "#2da44e"
	colorLine        = "#5470c6"
	colorBand        = "rgba(84,112,198,0.16)"
	colorBandLegend  = "rgba(84,112,198,0.4)"
	colorFailed      = "#8c959f"
	colorAnnotation  = "#8250df"
)

// The names of a history chart's series, in the order of its option: the
// script fills their data in this order.
const (
	seriesValue      = "result"
	seriesBand       = "expected range"
	seriesRegression = "regression"
	seriesImprovment = "improvement"
	seriesAnnotation = "annotation"
)

// Marker symbols: ECharts' triangle points up; a path of our own points
// down, in the plot and in the legend alike.
const (
	symbolPin  = "pin"
	symbolUp   = "triangle"
	symbolDown = "path://M0,0L10,0L5,9Z"
)

type dataZoom struct {
	Type             string `json:"type"`
	XAxisIndex       *int   `json:"xAxisIndex,omitempty"`
	YAxisIndex       *int   `json:"yAxisIndex,omitempty"`
	FilterMode       string `json:"filterMode"`
	ZoomOnMouseWheel any    `json:"zoomOnMouseWheel,omitempty"`
	MoveOnMouseWheel *bool  `json:"moveOnMouseWheel,omitempty"`
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

// chartVisitor adds the options go-echarts has no fields for.
type chartVisitor struct {
	charts.BaseConfigurationVisitor
	extra map[string]any
}

func (v *chartVisitor) Visit(option map[string]any) {
	// go-echarts writes an empty title and toolbox into every option. No
	// chart has either (the page's headings name the charts), and the
	// theme's ECharts build (scripts/echarts) registers neither component.
	delete(option, "title")
	delete(option, "toolbox")
	for k, val := range v.extra {
		option[k] = val
	}
}

// The plot of a history or overview chart starts gridTopLegend below the
// chart's top when it has a legend, gridTop when not: room for the legend
// (one line: it scrolls rather than wrap) and, below it, the value axis'
// name, which sits above the plot. A legend that wrapped onto a second
// line on a phone covered the name.
const (
	gridTopLegend = "56px"
	gridTop       = "32px"
)

// timeAxis is the date axis of history and overview charts. Labels that
// would overlap are left out (on a phone the first of a month, in bold,
// met the day before it).
func timeAxis() opts.XAxis {
	return opts.XAxis{Type: "time", AxisLabel: &opts.AxisLabel{HideOverlap: opts.Bool(true)}}
}

// valueAxis is the value axis of history and overview charts. The
// script sets its bounds to two significant digits around the values,
// which ECharts labels besides its ticks: a bound next to a tick ("9.4"
// over "9.39") is left out.
func valueAxis() opts.YAxis {
	return opts.YAxis{Type: "value", Scale: opts.Bool(true), AxisLabel: &opts.AxisLabel{HideOverlap: opts.Bool(true)}}
}

func timeZoom() []dataZoom {
	return []dataZoom{
		{Type: "inside", XAxisIndex: ptr(0), FilterMode: "none", ZoomOnMouseWheel: "ctrl", MoveOnMouseWheel: ptr(false)},
		{Type: "slider", XAxisIndex: ptr(0), FilterMode: "none", Height: 18, Bottom: 8, BrushSelect: ptr(false)},
	}
}

// timeLine is a line chart over time, the ground of the history and
// overview charts: UTC dates on a time axis with a zoom, one tooltip for
// all series at a date, a scrolling legend, no animation.
func timeLine() *charts.Line {
	line := charts.NewLine()
	line.Accept(&chartVisitor{extra: map[string]any{
		"useUTC": true,
		"tooltip": tooltip{Trigger: "axis", Confine: true, ExtraCSSText: tooltipCSS,
			AxisPointer: map[string]any{"type": "line", "snap": true}},
		"dataZoom": timeZoom(),
	}})
	line.SetGlobalOptions(
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "4px", Type: "scroll"}),
		charts.WithGridOpts(opts.Grid{Left: "8px", Right: "24px", Top: gridTopLegend, Bottom: "44px", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(timeAxis()),
		charts.WithYAxisOpts(valueAxis()),
	)
	return line
}

// historyOption is the option of every history chart: a line of the
// results by date, the band behind it, markers of relevant changes and of
// annotations. The script fills the series' data, the legend (only what
// the series has) and the value axis' unit.
func historyOption() map[string]any {
	line := timeLine()
	line.AddSeries(seriesValue, nil,
		charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 5, ConnectNulls: opts.Bool(false)}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: colorLine}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: colorLine, Width: 1.5}),
		charts.WithMarkLineStyleOpts(opts.MarkLineStyle{
			Symbol:    []string{"none", "none"},
			Label:     &opts.Label{Show: opts.Bool(false)},
			LineStyle: &opts.LineStyle{Color: colorFailed, Type: "dashed", Width: 1},
		}))
	// The band is two stacked lines: the lower bound, drawn invisibly, and
	// the band's width on top of it, filled.
	for _, fill := range []bool{false, true} {
		so := []charts.SeriesOpts{
			charts.WithLineChartOpts(opts.LineChart{Stack: "band", ShowSymbol: opts.Bool(false), ConnectNulls: opts.Bool(false)}),
			charts.WithLineStyleOpts(opts.LineStyle{Opacity: opts.Float(0)}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colorBand}),
		}
		if fill {
			so = append(so, charts.WithAreaStyleOpts(opts.AreaStyle{Color: colorBand, Opacity: opts.Float(1)}))
		}
		line.AddSeries(seriesBand, nil, so...)
	}
	for _, m := range []struct{ name, symbol, color string }{
		{seriesRegression, symbolUp, colorRegression},
		{seriesImprovment, symbolDown, colorImprovement},
		{seriesAnnotation, symbolPin, colorAnnotation},
	} {
		sc := charts.NewScatter()
		sc.AddSeries(m.name, nil,
			charts.WithScatterChartOpts(opts.ScatterChart{Symbol: m.symbol, SymbolSize: 11}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: m.color}))
		line.Overlap(sc)
	}
	line.Validate()
	return line.JSON()
}

// overviewOption is the option of an overview chart: one line per test
// case. The script adds the series and picks the value axis: by default
// each value as a percent of its series' median (the chart spec carries
// the medians), so that test cases of different sizes share the axis and
// a step of a few percent shows; absolute values and a logarithmic axis
// are the reader's options.
func overviewOption() map[string]any {
	line := timeLine()
	line.Validate()
	return line.JSON()
}

// changesOption is the option of a changes chart: horizontal bars of
// relative changes in percent, one row per test case (first on top), its
// name on the left and its signed change on the right, each on a category
// axis of its own. Labels in columns beside the plot cannot overlap the
// bars or each other however narrow the chart is (a phone), which labels
// placed at the bars' ends do as soon as changes of both signs meet; the
// script truncates the names to the chart's width (the tooltip has them
// whole) and keeps the left axis at the plot's edge rather than at zero.
func changesOption() map[string]any {
	bar := charts.NewBar()
	names := map[string]any{"type": "category", "inverse": true,
		"axisLine":  map[string]any{"onZero": false},
		"axisTick":  map[string]any{"show": false},
		"axisLabel": map[string]any{"interval": 0, "overflow": "truncate", "width": 260}}
	changes := map[string]any{"type": "category", "inverse": true, "position": "right",
		"axisLine":  map[string]any{"show": false},
		"axisTick":  map[string]any{"show": false},
		"axisLabel": map[string]any{"interval": 0, "fontWeight": "bold"}}
	bar.Accept(&chartVisitor{extra: map[string]any{
		"tooltip": tooltip{Trigger: "axis", Confine: true, ExtraCSSText: tooltipCSS, AxisPointer: map[string]any{"type": "shadow"}},
		"yAxis":   []map[string]any{names, changes},
	}})
	bar.SetGlobalOptions(
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Left: "8px", Right: "8px", Top: "16px", Bottom: "32px", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", AxisLabel: &opts.AxisLabel{Formatter: "{value}%", HideOverlap: opts.Bool(true)}}),
	)
	bar.XYReversal()
	bar.AddSeries("change", nil, charts.WithSeriesOpts(func(s *charts.SingleSeries) { s.BarMaxWidth = "18" }))
	bar.Validate()
	return bar.JSON()
}

// chartOptions encodes the options of every chart kind, with the chart
// geometry and the value axes' units the script needs.
func chartOptions() (string, error) {
	v := map[string]any{
		"units":    sitemodel.AxisUnits(),
		"history":  historyOption(),
		"overview": overviewOption(),
		"changes":  changesOption(),
		"layout": map[string]any{
			"gridTop": gridTop, "gridTopLegend": gridTopLegend,
			"height": chartHeight, "barRow": barRowHeight, "barLine": barLineHeight, "barMaxVisible": barMaxVisible,
			"colors": map[string]string{"regression": colorRegression, "improvement": colorImprovement, "failed": colorFailed,
				"annotation": colorAnnotation, "band": colorBand, "bandLegend": colorBandLegend, "line": colorLine},
			"symbols": map[string]string{"regression": symbolUp, "improvement": symbolDown, "annotation": symbolPin},
			"names": map[string]string{"value": seriesValue, "band": seriesBand, "regression": seriesRegression,
				"improvement": seriesImprovment, "annotation": seriesAnnotation},
		},
	}
	b, err := json.Marshal(v)
	return string(b), err
}

var chartIDPattern = regexp.MustCompile(`^c_[0-9a-f]{12}$`)

// chartHTML is a chart's element: the spec in data-chart, an id that is
// safe in HTML and JavaScript, its height reserved so that the page does
// not jump when it draws.
func chartHTML(c *sitemodel.Chart) (template.HTML, error) {
	if c == nil {
		return "", nil
	}
	if !chartIDPattern.MatchString(c.ID) {
		return "", fmt.Errorf("chart id %q is not of the form c_<12 hex digits>", c.ID)
	}
	spec, err := inertJSON(c)
	if err != nil {
		return "", fmt.Errorf("chart %s: %w", c.ID, err)
	}
	height := chartHeight
	if c.Kind == sitemodel.ChartChanges {
		height = max(chartHeight, min(len(c.Bars), barMaxVisible)*barRowHeight+72)
	}
	return template.HTML(`<div class="chart chart-` + template.HTMLEscapeString(c.Kind) + `" id="` + c.ID +
		`" style="width:100%;height:` + strconv.Itoa(height) + `px" role="img" aria-label="` + template.HTMLEscapeString(chartLabel(c)) +
		`" data-chart="` + template.HTMLEscapeString(string(spec)) + `"></div>`), nil
}

func chartLabel(c *sitemodel.Chart) string {
	switch c.Kind {
	case sitemodel.ChartChanges:
		return "Bar chart of the relevant changes"
	case sitemodel.ChartOverview:
		return "History of every test case"
	}
	return "History of this series"
}
