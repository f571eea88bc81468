// Charts: every chart of the site, drawn by one renderer (drawChart) from
// the option of its kind (assets/charts.json, built by the generator with
// go-echarts) and the chart's spec (div.chart[data-chart], or a table
// row's history chart): the series of a benchmark whose history it draws
// from the data files, or the bars of a comparison. The value axes (the
// unit's prefix, linear or log, bounds on ticks), the band around the
// values, the tooltips, bar names that fit their width and the view of a
// bench page's charts (?abs=1, ?log=1) are here. Running, it starts
// drawing every chart of the page (chartsDrawn).

var chartOptions = null; // assets/charts.json, fetched by the first chart
function clone(o) { return JSON.parse(JSON.stringify(o)); }
var css = function (name, fallback) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
};
function themeColors(c) {
  var fg = css("--fg", ""), mu = css("--muted", ""), bo = css("--border", "");
  if (!fg) { return; }
  var ax = {axisLabel: {color: mu}, nameTextStyle: {color: mu}, axisLine: {lineStyle: {color: bo}}, splitLine: {lineStyle: {color: bo}}};
  c.setOption({textStyle: {color: fg}, legend: {textStyle: {color: fg}}, xAxis: ax, yAxis: ax});
}

// The value axis' unit: the first prefix of the unit's table that the
// largest value reaches (the table is the generator's).
function axisFor(unit, maxAbs) {
  var units = (site.units || {})[String(unit || "").toLowerCase()];
  if (!units && unit === "%") { return {factor: 1, name: unit}; }
  if (!units) {
    // Any other unit: the SI prefixes before its name (analysis.Scales).
    units = ((site.units || {})["*"] || [{factor: 1, name: ""}]).map(function (p) { return {factor: p.factor, name: (p.name + " " + unit).trim()}; });
  }
  for (var i = 0; i < units.length; i++) {
    if (maxAbs >= units[i].factor) { return units[i]; }
  }
  return units[units.length - 1];
}

function encode(s) { return echarts.format.encodeHTML(String(s === undefined || s === null ? "" : s)); }

// The tooltip of a point of the main line: label, short sha, date,
// title, value, marker, band.
function pointTooltip(d) {
  var layout = chartOptions.layout;
  var s = "<b>" + encode(d.name) + "</b>";
  var sha = /\/commit\/([0-9a-f]{7})[0-9a-f]*\/$/.exec(d.u || "");
  if (sha && String(d.name).indexOf(sha[1]) < 0) { s += " <code>" + sha[1] + "</code>"; }
  s += ' <span style="opacity:.7">' + encode(d.d) + "</span>";
  if (d.t) { s += "<br>" + encode(d.t); }
  s += "<br><b>" + (d.f ? encode(d.f) : "failed") + "</b>";
  if (d.g) { s += ' <span style="opacity:.7" title="as the tool reported it">' + encode(d.g) + "</span>"; }
  if (d.m) { s += ' <span style="color:' + (d.m === "regression" ? layout.colors.regression : layout.colors.improvement) + '">' + encode(d.m) + "</span>"; }
  if (d.r) { s += '<br><span style="opacity:.7">expected ' + encode(d.r) + "</span>"; }
  return s;
}

// Clicking anywhere in the plot opens the nearest point's page (within
// 24 px), so points need not be hit exactly.
function clickNearest(c) {
  c.getZr().on("click", function (ev) {
    var pt = [ev.offsetX, ev.offsetY];
    if (!c.containPixel({gridIndex: 0}, pt)) { return; }
    var d = (c.getOption().series[0] || {}).data || [], best = null, bd = 24;
    d.forEach(function (it) {
      var dx = Math.abs(c.convertToPixel({xAxisIndex: 0}, it.value[0]) - pt[0]);
      if (dx < bd) { bd = dx; best = it; }
    });
    if (best && best.u) { window.location.href = best.u; }
  });
}

// historyData is what a history chart draws of series h: its points in
// the axis' unit and the band. A series without a negative value is a
// quantity that cannot go below zero (a time, a size, a count, a rate):
// its band is clipped at 0 rather than drawn down to a negative time
// after a large step inflates the deviation.
function historyData(h, unit) {
  var maxAbs = 0, nonNegative = true;
  h.points.forEach(function (p) {
    if (p.value !== null && !p.error) {
      maxAbs = Math.max(maxAbs, Math.abs(p.value));
      if (p.value < 0) { nonNegative = false; }
    }
  });
  var axis = axisFor(unit, maxAbs);
  var items = [], lower = [], width = [], reg = [], imp = [], ann = [], fails = [], hasBand = false;
  h.points.forEach(function (p) {
    var a = p.artifact;
    if (!a || (p.value === null && !p.error)) { return; }
    var ms = a.date, it = {name: a.label, value: [ms, null], t: a.title, d: a.dateText, u: (site.base || "/") + a.url};
    if (p.error) {
      fails.push({name: a.label, xAxis: ms});
    } else {
      var y = p.value / axis.factor;
      it.value = [ms, y];
      it.f = p.row.after || "";
      if (p.range) { it.g = p.range; }
      if (p.row["class"]) {
        it.m = p.row["class"];
        (it.m === "regression" ? reg : imp).push({name: a.label, value: [ms, y]});
      }
      if (p.ann) { ann.push({name: a.label + ": " + p.ann, value: [ms, y]}); }
    }
    if (p.lower !== null && p.upper !== null) {
      var lo = Math.min(p.lower, p.upper), hi = Math.max(p.lower, p.upper);
      if (nonNegative) { lo = Math.max(0, lo); hi = Math.max(0, hi); }
      hasBand = true;
      lower.push([ms, lo / axis.factor]);
      width.push([ms, (hi - lo) / axis.factor]);
      it.r = lo === Math.min(p.lower, p.upper) ? p.bandText : formatValue(lo, unit) + " – " + formatValue(hi, unit);
    } else {
      lower.push([ms, null]);
      width.push([ms, null]);
    }
    items.push(it);
  });
  items.sort(function (x, y) { return x.value[0] - y.value[0]; });
  return {axis: axis, items: items, lower: lower, width: width, reg: reg, imp: imp, ann: ann, fails: fails, hasBand: hasBand};
}

// spanLog is the smallest ratio of the largest to the smallest value at
// which a chart picks a logarithmic axis by itself: two orders of
// magnitude, where a linear axis flattens the smaller values onto zero.
var spanLog = 100;

// valueAxis picks the value axis of a chart of values (any order;
// null for none) and band bounds (lower and upper, the same length):
//
//   - log, when every value is above 0 and the reader asked for it
//     (log) or the values span spanLog or more;
//   - else linear over the values, which the band may widen by the
//     values' range or a quarter of the largest value, whichever is more:
//     a band inflated by a large step is cut at the chart's edge instead
//     of stretching the axis until the values are a flat line (−100 to
//     200 ms for a series of 34 µs), while the band of a quiet series is
//     drawn whole.
//
// It returns the axis type, its bounds and the interval of its ticks
// (null: ECharts' own) and what the axis name adds ("" for a linear axis
// nobody asked about).
function valueAxis(values, lower, upper, log) {
  var vs = values.filter(function (v) { return v !== null && v !== undefined && isFinite(v); });
  if (!vs.length) { return {type: "value", min: null, max: null, interval: null, note: log ? " (linear: values ≤ 0)" : ""}; }
  var lo = Math.min.apply(null, vs), hi = Math.max.apply(null, vs);
  var positive = lo > 0;
  if (positive && (log || hi / lo >= spanLog)) {
    var note = log ? " (log)" : " (log: values span " + Math.floor(Math.log10(hi / lo)) + " orders of magnitude)";
    return {type: "log", min: null, max: null, interval: null, note: note};
  }
  var span = hi - lo || Math.abs(hi) || 1, amin = lo, amax = hi;
  var room = Math.max(hi - lo, Math.max(Math.abs(lo), Math.abs(hi)) / 4);
  (lower || []).forEach(function (b, i) {
    var u = upper[i];
    if (b === null || u === null || b === undefined || u === undefined) { return; }
    amin = Math.min(amin, Math.max(b, lo - room));
    amax = Math.max(amax, Math.min(u, hi + room));
  });
  var pad = (amax - amin) * 0.05 || span * 0.05;
  amin -= pad;
  amax += pad;
  if (lo >= 0 && amin < 0) { amin = 0; }
  // The bounds are ticks: ECharts labels a bound that is not one besides
  // its ticks, and on a phone "89" stood on "90", "9.4" on "9.39".
  var step = niceStep((amax - amin) / 5);
  return {type: "value", min: tick(Math.floor(amin / step), step), max: tick(Math.ceil(amax / step), step), interval: step,
    note: log ? " (linear: values ≤ 0)" : ""};
}

// niceStep is the tick interval of 1, 2, 2.5 or 5 times a power of ten
// nearest above x (as ECharts picks its own).
function niceStep(x) {
  var p = Math.pow(10, Math.floor(Math.log10(x)));
  var f = x / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * p;
}

// tick is k steps without the product's rounding noise (92 × 0.1 is
// 9.200000000000001, which the axis printed as its lowest label).
function tick(k, step) { return Number((k * step).toPrecision(12)); }

// historyAxis is valueAxis for historyData's d in the view's scale.
function historyAxis(d) {
  var values = d.items.map(function (it) { return it.value[1]; });
  var lower = [], upper = [];
  d.lower.forEach(function (b, i) {
    var w = d.width[i][1];
    lower.push(b[1]);
    upper.push(b[1] === null || w === null ? null : b[1] + w);
  });
  return valueAxis(values, lower, upper, view.log);
}

function drawHistory(c, spec, h) {
  var layout = chartOptions.layout, names = layout.names;
  var d = historyData(h, spec.unit);
  var legend = [];
  if (d.hasBand) { legend.push({name: names.band, icon: "rect", itemStyle: {color: layout.colors.bandLegend}}); }
  if (d.reg.length) { legend.push({name: names.regression}); }
  if (d.imp.length) { legend.push({name: names.improvement}); }
  if (d.ann.length) { legend.push({name: names.annotation}); }
  if (legend.length) { legend.unshift({name: names.value}); }
  // Step changes the generator found (spec.steps, bench pages): a line at
  // the first result after each, labelled with its size.
  var marks = d.fails.slice(), byPos = {};
  h.points.forEach(function (p) { byPos[p.pos] = p; });
  (spec.steps || []).forEach(function (st) {
    var p = byPos[st.pos];
    if (!p || !p.artifact) { return; }
    var color = st["class"] === "regression" ? layout.colors.regression : layout.colors.improvement;
    marks.push({name: st.text, xAxis: p.artifact.date, lineStyle: {color: color, type: "solid", width: 1.5},
      label: {show: true, formatter: st.text, position: "insideEndTop", color: color}});
  });
  var ax = historyAxis(d);
  c.perfpagesHistory = {data: d, name: d.axis.name};
  c.setOption({
    legend: {show: legend.length > 0, data: legend},
    grid: {top: legend.length ? layout.gridTopLegend : layout.gridTop},
    yAxis: {name: d.axis.name + ax.note, type: ax.type, min: ax.min, max: ax.max, interval: ax.interval},
    series: [
      {data: d.items, markLine: marks.length ? {data: marks} : undefined},
      {data: d.hasBand ? d.lower : []}, {data: d.hasBand ? d.width : []},
      {data: d.reg}, {data: d.imp}, {data: d.ann}
    ]
  });
  c.setOption({tooltip: {formatter: function (ps) {
    var p = [].concat(ps).filter(function (x) { return x.seriesIndex === 0; })[0];
    return p ? pointTooltip(p.data) : "";
  }}});
}

// The view of a bench page's charts: overview charts in percent of each
// series' median (default) or in absolute values, and every chart on a
// linear (default) or logarithmic value axis. It lives in the page's URL
// (?abs=1, ?log=1), so that a reload or a shared link draws what the
// check boxes say.
// Without log, each chart picks its own axis (valueAxis).
var view = (function () {
  var q = new URLSearchParams(location.search);
  return {absolute: q.get("abs") === "1", log: q.get("log") === "1"};
})();

function drawOverview(c, spec, all) {
  var medians = {};
  spec.series.forEach(function (s) { medians[s.id] = all[s.id] ? medianOf(all[s.id].points) : NaN; });
  c.perfpagesOverview = {spec: spec, all: all, medians: medians};
  renderOverview(c);
  c.setOption({tooltip: {formatter: function (ps) {
    ps = [].concat(ps);
    if (!ps.length) { return ""; }
    var d0 = null, s = "";
    ps.forEach(function (p) { if (!d0 && p.data && p.data.d) { d0 = p.data; } });
    if (d0) {
      s = "<b>" + encode(d0.name) + "</b>";
      var sha = /\/commit\/([0-9a-f]{7})[0-9a-f]*\/$/.exec(d0.u || "");
      if (sha && String(d0.name).indexOf(sha[1]) < 0) { s += " <code>" + sha[1] + "</code>"; }
      s += ' <span style="opacity:.7">' + encode(d0.d) + "</span>";
      if (d0.t) { s += "<br>" + encode(d0.t); }
    }
    ps.forEach(function (p) {
      s += "<br>" + p.marker + encode(p.seriesName) + ": <b>" + encode(p.data.f || "") + "</b>";
      if (p.data.n) { s += ' <span style="opacity:.7">' + encode(p.data.n) + "</span>"; }
    });
    return s;
  }}});
}

// medianOf is the median of the values an overview draws of a series —
// its main-line points with a value and no failure — as the analysis
// computes a median (analysis.MedianOf: the middle value, or (a + b) / 2
// of the two middle ones), NaN without any. The overview draws each value
// in percent of it. It is computed here, from the data files the chart
// loads, not written into the page: a median of the whole history moves
// with every new commit, and a page carrying it was written again by
// every nightly build (e2e's checkOverviewViews checks it against
// analysis.MedianOf).
function medianOf(points) {
  var xs = [];
  points.forEach(function (p) { if (overviewDraws(p)) { xs.push(p.value); } });
  if (!xs.length) { return NaN; }
  xs.sort(function (a, b) { return a - b; });
  var n = xs.length;
  return n % 2 ? xs[(n - 1) / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

// overviewDraws reports whether an overview draws point p: a main-line
// point with a value and no failure.
function overviewDraws(p) { return p.artifact && !p.error && p.value !== null; }

// renderOverview (re)draws an overview chart in the page's view. In
// percent of the median, a series without a positive median (medianOf)
// cannot be drawn: the note under the chart says which,
// and a chart where no series has one is drawn in absolute values, as
// its axis says. A logarithmic axis needs every drawn value above 0;
// where one is not, the axis stays linear and its name says why.
function renderOverview(c) {
  var o = c.perfpagesOverview, spec = o.spec, all = o.all, medians = o.medians;
  var normalizable = spec.series.some(function (s) { return medians[s.id] > 0 && all[s.id]; });
  var absolute = view.absolute || !normalizable;
  var maxAbs = 0;
  spec.series.forEach(function (s) {
    ((all[s.id] || {}).points || []).forEach(function (p) { if (p.value !== null && !p.error) { maxAbs = Math.max(maxAbs, Math.abs(p.value)); } });
  });
  var axis = axisFor(spec.unit, maxAbs), series = [], first = true, skipped = [], positive = true;
  spec.series.forEach(function (s) {
    var h = all[s.id];
    if (!h) { return; }
    if (!absolute && !(medians[s.id] > 0)) { skipped.push(s.name); return; }
    var items = [];
    h.points.forEach(function (p) {
      if (!overviewDraws(p)) { return; }
      var a = p.artifact;
      var y = absolute ? p.value / axis.factor : 100 * p.value / medians[s.id];
      if (!(y > 0)) { positive = false; }
      var it = {value: [a.date, y], f: p.row.after || ""};
      if (!absolute) { it.n = formatFixed(y, 1) + "% of the median"; }
      if (first) { it.name = a.label; it.t = a.title; it.d = a.dateText; it.u = (site.base || "/") + a.url; }
      items.push(it);
    });
    if (!items.length) { return; }
    items.sort(function (x, y) { return x.value[0] - y.value[0]; });
    series.push({name: s.name, type: "line", showSymbol: false, connectNulls: false, data: items});
    first = false;
  });
  o.canLog = positive && series.length > 0;
  var values = [];
  series.forEach(function (x) { x.data.forEach(function (it) { values.push(it.value[1]); }); });
  var ax = valueAxis(values, [], [], view.log);
  var name = absolute ? axis.name + (view.absolute ? "" : " (absolute: no positive median)") : "% of median";
  c.setOption({yAxis: {type: ax.type, min: ax.min, max: ax.max, interval: ax.interval, name: name + ax.note, nameTextStyle: {align: "left"}}, legend: {data: series.map(function (x) { return x.name; })}, series: series},
    {replaceMerge: ["series"]});
  var div = c.getDom(), note = div.nextElementSibling;
  if (!note || !note.classList.contains("overview-note")) {
    note = el("p", {"class": "overview-note hint"});
    div.parentNode.insertBefore(note, div.nextSibling);
  }
  var without = absolute ? spec.series.filter(function (s) { return !(medians[s.id] > 0); }).map(function (s) { return s.name; }) : skipped;
  note.textContent = without.length && !view.absolute ? without.length + " test case" + (without.length === 1 ? "" : "s") + " without a positive median (" +
    without.join(", ") + ") can be drawn in absolute values only." : "";
  note.hidden = !note.textContent;
}

// niceCeil is the smallest 1, 2 or 5 × 10^k at least x (x > 0).
function niceCeil(x) {
  var p = Math.pow(10, Math.floor(Math.log10(x)));
  var steps = [1, 2, 5, 10];
  for (var i = 0; i < steps.length; i++) { if (steps[i] * p >= x) { return steps[i] * p; } }
  return 10 * p;
}

// textWidth is the width of text in px in the chart's label font, and
// fitText shortens text to at most width px by cutting its middle:
// names that share a long start (a suite's prefix) still differ by
// their end.
var measure = null;
function textWidth(text) {
  if (!measure) {
    measure = document.createElement("canvas").getContext("2d");
    measure.font = "12px sans-serif";
  }
  return measure.measureText(text).width;
}
function fitText(text, width) {
  if (textWidth(text) <= width) { return text; }
  var lo = 0, hi = text.length;
  while (lo < hi) {
    var k = Math.ceil((lo + hi) / 2);
    if (textWidth(text.slice(0, Math.ceil(k / 2)) + "…" + text.slice(text.length - Math.floor(k / 2))) <= width) { lo = k; } else { hi = k - 1; }
  }
  return text.slice(0, Math.ceil(lo / 2)) + "…" + text.slice(text.length - Math.floor(lo / 2));
}

// splitText breaks text in two lines where the first is the longest
// that fits width px, after a space or a - _ / . (a name without
// either stays whole).
function splitText(text, width) {
  if (textWidth(text) <= width) { return [text]; }
  var best = -1;
  for (var i = 1; i < text.length; i++) {
    if (/[\s\-_\/.]/.test(text.charAt(i - 1)) && textWidth(text.slice(0, i).trim()) <= width) { best = i; }
  }
  return best < 0 ? [text] : [text.slice(0, best).trim(), text.slice(best).trim()];
}

// barLines writes the names of a changes chart's bars in width px: what
// tells each bar from the others (its parts and machine: sitemodel's
// shortenBars) on one line; else the machine on a line of its own; else
// also each parameter whose key every bar has by its value alone; else
// the name in two lines; and only then each line cut in its middle.
// Every bar is written the same way. It returns each bar's lines.
function barLines(bars, width) {
  var name = function (b, bare) {
    if (!b.parts && !b.machine) { return b.label; }
    return (b.parts || []).map(function (p) {
      var s = p.k ? (bare && p.common ? p.v : p.k + "=" + p.v) : p.v;
      return p.ctx ? "[" + s + "]" : s;
    }).join(" ");
  };
  var schemes = [
    function (b) { return [[name(b, false), b.machine].filter(Boolean).join(" · ")]; },
    function (b) { return [name(b, false), b.machine].filter(Boolean); },
    function (b) { return [name(b, true), b.machine].filter(Boolean); },
    function (b) { return b.machine ? [name(b, true), b.machine] : splitText(name(b, true), width); }
  ];
  var lines = null;
  for (var i = 0; i < schemes.length; i++) {
    lines = bars.map(schemes[i]);
    var fits = lines.every(function (ls) { return ls.every(function (l) { return textWidth(l) <= width; }); });
    if (fits) { return lines; }
  }
  return lines.map(function (ls) { return ls.map(function (l) { return fitText(l, width); }); });
}

// drawChanges draws a comparison's bar chart: one row per change, its
// name on the left (what tells it from the other bars, in at most two
// lines of a share of the chart's width; the tooltip has it whole),
// its change on the right, so that no label can cover a bar or
// another label at any width. A change from 0 (bar.new) has no length:
// its bar reaches the end of the axis, labelled "new".
function drawChanges(c, spec) {
  var layout = chartOptions.layout, n = spec.bars.length, visible = Math.min(n, layout.barMaxVisible);
  var finite = 0;
  spec.bars.forEach(function (b) { if (!b.new) { finite = Math.max(finite, Math.abs(b.percent)); } });
  var end = niceCeil(finite > 0 ? finite * 1.1 : 10);
  var xAxis = {};
  var items = spec.bars.map(function (b) {
    var color = b.regression ? layout.colors.regression : layout.colors.improvement;
    var it = {name: b.label, value: b.percent, f: b.text, itemStyle: {color: color}};
    if (b.new) {
      it.value = b.percent < 0 ? -end : end;
      it.isNew = true;
      it.itemStyle = {color: color, opacity: 0.55, borderColor: color, borderType: "dashed", borderWidth: 1};
      if (b.percent < 0) { xAxis.min = -end; } else { xAxis.max = end; }
    }
    return it;
  });
  var div = c.getDom(), width = div.clientWidth || 600;
  var labelWidth = Math.max(64, Math.min(260, Math.round(width * (width < 480 ? 0.45 : 0.38))));
  var names = spec.bars.map(function (b) { return b.label; });
  var lines = barLines(spec.bars, labelWidth - 10);
  var shown = lines.map(function (ls) { return ls.join("\n"); });
  // A bar of two lines takes a taller row: the chart grows (its height
  // is the generator's for rows of one line).
  var tall = lines.some(function (ls) { return ls.length > 1; });
  var rowHeight = layout.barRow + (tall ? layout.barLine : 0);
  var height = Math.max(layout.height, visible * rowHeight + 72) + "px";
  if (div.style.height !== height) {
    div.style.height = height;
    c.resize();
  }
  var texts = spec.bars.map(function (b) { return b.new ? "new" : b.text; });
  // Only changes from 0: no scale to read, no grid to suggest one.
  if (finite === 0) { xAxis.axisLabel = {show: false}; xAxis.splitLine = {show: false}; }
  var opt = {
    xAxis: xAxis,
    yAxis: [
      {data: names, axisLabel: {width: labelWidth, lineHeight: layout.barLine, formatter: function (v, i) { return shown[i]; }}},
      {data: names, axisLabel: {
        formatter: function (v, i) { return texts[i]; },
        color: function (v, i) { return spec.bars[i] && spec.bars[i].regression ? layout.colors.regression : layout.colors.improvement; }
      }}
    ],
    series: [{data: items}],
    tooltip: {formatter: function (ps) {
      var p = [].concat(ps)[0];
      if (!p || !p.data) { return ""; }
      return encode(p.name) + "<br><b>" + encode(p.data.f) + "</b>" + (p.data.isNew ? " (from 0: new)" : "");
    }}
  };
  if (width < 480) { xAxis.splitNumber = 3; }
  if (n > visible) {
    opt.dataZoom = [{type: "slider", yAxisIndex: [0, 1], filterMode: "none", start: 0, end: visible / n * 100,
      width: 14, right: 4, showDetail: false, brushSelect: false}];
    opt.grid = {right: 24};
  }
  c.setOption(opt);
}

// drawChart draws a chart element (div[data-chart]) or a spec into div.
function drawChart(div, spec) {
  spec = spec || JSON.parse(div.getAttribute("data-chart"));
  if (typeof echarts !== "object") { return Promise.resolve(); }
  return fetchJSON(route("charts")).then(function (o) {
    chartOptions = o;
    site.units = o.units;
    return draw(div, spec);
  }).catch(function (err) {
    div.setAttribute("data-error", String(err));
  });
}
function draw(div, spec) {
  var c = echarts.init(div, null, {renderer: "svg"});
  c.setOption(clone(chartOptions[spec.kind]));
  themeColors(c);
  if (window.matchMedia) {
    var q = window.matchMedia("(prefers-color-scheme: dark)");
    if (q.addEventListener) { q.addEventListener("change", function () { themeColors(c); }); }
  }
  if (window.ResizeObserver) {
    new ResizeObserver(function () {
      c.resize();
      // The bars' names take a share of the chart's width.
      if (spec.kind === "changes") { drawChanges(c, spec); }
    }).observe(div);
  }
  if (spec.kind === "changes") {
    drawChanges(c, spec);
    div.setAttribute("data-loaded", "");
    return Promise.resolve(c);
  }
  clickNearest(c);
  return benchHistory(spec.bench).then(function (all) {
    if (spec.kind === "overview") {
      drawOverview(c, spec, all);
    } else {
      var h = all[spec.series[0].id];
      if (!h) { throw new Error("no data for series " + spec.series[0].id); }
      drawHistory(c, spec, h);
    }
    div.setAttribute("data-loaded", "");
    return c;
  }).catch(function (err) {
    div.setAttribute("data-error", String(err));
  });
}
var chartsDrawn = Array.prototype.map.call(document.querySelectorAll("div.chart[data-chart]"), function (div) { return drawChart(div); });
