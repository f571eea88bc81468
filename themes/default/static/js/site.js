// perfpages: progressive enhancement. Every page reads without JavaScript
// (a comparison page pre-renders its summary and its relevant rows); this
// script adds what needs data or interaction:
//
//   - every chart of the site, drawn by one renderer (drawChart) from the
//     option of its kind (built with go-echarts, in <body data-charts>) and
//     the data files of its series;
//   - on comparison pages: one tab per metric, a toolbar per metric (filter
//     by name, parameter or /regex/, parameter value, category, direction;
//     sort), the rows without a relevant change (loaded from the data files
//     when shown), each row's history chart, "copy as Markdown";
//   - on bench pages: machine and metric selectors, log scale, the
//     annotations.yaml snippet of the point under the pointer, the history
//     tables; the history charts mark the step changes the generator found;
//   - on the regressions page: a button that copies a step's
//     annotations.yaml entry.
//
// Paths come from the site's URL table (<body data-site>.routes); the
// meaning of every number is decided by the site generator, which also
// formats them: this script places text, it does not compute it.
(function () {
  "use strict";

  var body = document.body;
  var site = JSON.parse(body.getAttribute("data-site") || "{}");
  var chartOptions = null; // assets/charts.json, fetched by the first chart

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function select(cls, label, options) {
    var s = el("select", {"class": cls, "aria-label": label});
    options.forEach(function (o) { s.appendChild(el("option", {value: o[0]}, o[1])); });
    return s;
  }

  // --- URLs and data files ---------------------------------------------------
  function route(name, params) {
    var p = (site.routes || {})[name] || "";
    Object.keys(params || {}).forEach(function (k) { p = p.replace("{" + k + "}", String(params[k])); });
    return (site.base || "/") + p;
  }

  // fetchJSON fetches a data file. Data files are stored gzip-compressed
  // (.json.gz) and inflated here; a server that sends them already
  // inflated (Content-Encoding) is fine too.
  var cache = {};
  function fetchJSON(url) {
    if (!cache[url]) {
      cache[url] = fetch(url).then(function (r) {
        if (!r.ok) { throw new Error(url + ": HTTP " + r.status); }
        return r.arrayBuffer();
      }).then(function (buf) {
        var b = new Uint8Array(buf);
        if (b.length > 1 && b[0] === 0x1f && b[1] === 0x8b) {
          if (typeof DecompressionStream !== "function") { throw new Error("this browser cannot read compressed data (no DecompressionStream)"); }
          return new Response(new Blob([buf]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
        }
        return new TextDecoder().decode(b);
      }).then(JSON.parse);
    }
    return cache[url];
  }

  // chunks lists the data files' chunks of the main line (data/meta.json
  // says how long it is: pages do not, so that they stay the same when a
  // commit is added).
  function chunks() {
    return fetchJSON(route("meta")).then(function (meta) {
      var n = Math.ceil((meta.positions || 0) / (meta.chunk || 1)), out = [];
      for (var i = 0; i < n; i++) { out.push(i); }
      return out;
    });
  }

  // --- Formatting: the generator's, exactly -----------------------------------
  // The data files store values as the exact float64 the generator
  // formats; formatValue is analysis.FormatValue (analysis/value.go)
  // to the digit: the same IEEE divisions pick the unit, and the decimals
  // are rounded from the value's exact binary expansion, ties to even, as
  // Go's strconv does. A browser test checks both agree.
  var UNIT_SCALES = (function () {
    var t = {}, put = function (units, scales) { units.forEach(function (u) { t[u] = scales; }); };
    put(["ns", "ns/op"], [[1e9, "s"], [1e6, "ms"], [1e3, "µs"], [1, "ns"]]);
    put(["s", "sec", "seconds", "sec/op"], [[1, "s"], [1e-3, "ms"], [1e-6, "µs"], [1e-9, "ns"]]);
    put(["ms"], [[1e3, "s"], [1, "ms"], [1e-3, "µs"]]);
    put(["b", "byte", "bytes", "b/op"], [[1125899906842624, "PiB"], [1099511627776, "TiB"], [1073741824, "GiB"], [1048576, "MiB"], [1024, "KiB"], [1, "B"]]);
    put(["b/s", "byte/s", "bytes/s"], [[1e12, "TB/s"], [1e9, "GB/s"], [1e6, "MB/s"], [1e3, "kB/s"], [1, "B/s"]]);
    put(["mb/s"], [[1e6, "TB/s"], [1e3, "GB/s"], [1, "MB/s"], [1e-3, "kB/s"], [1e-6, "B/s"]]);
    return t;
  })();
  var SI_SCALES = [[1e18, "E"], [1e15, "P"], [1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"], [1, ""]];

  // exact returns x (finite, not 0) as |x| = num / den with BigInts.
  function exact(x) {
    var dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, Math.abs(x));
    var hi = dv.getUint32(0), lo = dv.getUint32(4);
    var e = (hi >>> 20) & 0x7ff;
    var m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
    if (e === 0) { e = 1; } else { m |= 1n << 52n; }
    e -= 1075;
    return e >= 0 ? {num: m << BigInt(e), den: 1n} : {num: m, den: 1n << BigInt(-e)};
  }
  // roundEven is num/den rounded to an integer, ties to even.
  function roundEven(num, den) {
    var q = num / den, r2 = (num % den) * 2n;
    if (r2 > den || (r2 === den && (q & 1n) === 1n)) { q += 1n; }
    return q;
  }
  var pow10 = function (n) { return 10n ** BigInt(n); };
  // fixedDigits is |x| with d decimals (strconv 'f', d).
  function fixedDigits(x, d) {
    if (x === 0) { return d > 0 ? "0." + "0".repeat(d) : "0"; }
    var r = exact(x), s = roundEven(r.num * pow10(d), r.den).toString();
    if (d > 0) {
      s = s.padStart(d + 1, "0");
      s = s.slice(0, s.length - d) + "." + s.slice(s.length - d);
    }
    return s;
  }
  // decimalExponent is floor(log10 |x|), exactly.
  function decimalExponent(x) {
    var r = exact(x), e = Math.floor(Math.log10(Math.abs(x)));
    var ge = function (k) { return k >= 0 ? r.num >= r.den * pow10(k) : r.num * pow10(-k) >= r.den; };
    while (!ge(e)) { e--; }
    while (ge(e + 1)) { e++; }
    return e;
  }
  // formatG4 is strconv.FormatFloat(x, 'g', 4, 64).
  function formatG4(x) {
    var sign = x < 0 ? "-" : "", r = exact(x), e = decimalExponent(x), p = 4;
    var shift = p - 1 - e;
    var q = shift >= 0 ? roundEven(r.num * pow10(shift), r.den) : roundEven(r.num, r.den * pow10(-shift));
    if (q === pow10(p)) { q = pow10(p - 1); e++; }
    var digits = q.toString().replace(/0+$/, ""), nd = digits.length, dp = e + 1;
    var eprec = p;
    if (eprec > nd && nd >= dp) { eprec = nd; }
    if (e < -4 || e >= eprec) {
      var exp = Math.abs(e) < 10 ? "0" + Math.abs(e) : String(Math.abs(e));
      return sign + digits.charAt(0) + (nd > 1 ? "." + digits.slice(1) : "") + "e" + (e < 0 ? "-" : "+") + exp;
    }
    var prec = p > dp ? nd : p, decimals = Math.max(prec - dp, 0), intPart, frac;
    if (dp <= 0) {
      intPart = "0";
      frac = ("0".repeat(-dp) + digits).padEnd(decimals, "0").slice(0, decimals);
    } else {
      intPart = (digits + "0".repeat(Math.max(dp - nd, 0))).slice(0, dp);
      frac = digits.slice(dp).padEnd(decimals, "0");
    }
    return sign + intPart + (decimals > 0 ? "." + frac : "");
  }
  function sig4(v) {
    if (v === 0) { return "0"; }
    var a = Math.abs(v);
    if (a >= 1e15 || a < 1e-6) { return formatG4(v); }
    if (a >= 1e4) { return (v < 0 ? "-" : "") + fixedDigits(v, 0).replace(/\B(?=(\d{3})+$)/g, ","); }
    var s = (v < 0 ? "-" : "") + fixedDigits(v, Math.max(3 - decimalExponent(a), 0));
    if (s.indexOf(".") >= 0) { s = s.replace(/0+$/, "").replace(/\.$/, ""); }
    return s;
  }
  // scaled is v in the first scale it reaches, its name before unit
  // (analysis.ValueParts).
  function scaled(v, scales, unit) {
    var a = Math.abs(v), s = scales[scales.length - 1];
    for (var i = 0; i < scales.length; i++) {
      if (a >= scales[i][0]) { s = scales[i]; break; }
    }
    return (sig4(v / s[0]) + " " + (s[1] + " " + unit).trim()).trim();
  }
  function formatValue(v, unit) {
    if (!isFinite(v)) { return "n/a"; }
    unit = unit || "";
    var u = unit.toLowerCase();
    if (UNIT_SCALES[u]) { return scaled(v, UNIT_SCALES[u], ""); }
    if (unit === "%") { return sig4(v) + " %"; }
    return scaled(v, SI_SCALES, unit === "count" ? "" : unit);
  }
  // The fixed-decimal formats of analysis.FormatFixed and its family:
  // strconv's 'f' below FIXED_LIMIT, its 'e' with the same decimals from
  // there, "n/a" when not finite.
  var FIXED_LIMIT = 1e6;
  function expDigits(x, d) {
    var r = exact(x), e = decimalExponent(x), shift = d - e;
    var q = shift >= 0 ? roundEven(r.num * pow10(shift), r.den) : roundEven(r.num, r.den * pow10(-shift));
    if (q === pow10(d + 1)) { q = pow10(d); e++; }
    var s = q.toString(), ae = Math.abs(e);
    return s.charAt(0) + (d > 0 ? "." + s.slice(1) : "") + "e" + (e < 0 ? "-" : "+") + (ae < 10 ? "0" + ae : String(ae));
  }
  function formatFixed(x, d) {
    if (!isFinite(x)) { return "n/a"; }
    var sign = x < 0 ? "-" : "", a = Math.abs(x);
    return sign + (a < FIXED_LIMIT ? fixedDigits(a, d) : expDigits(a, d));
  }
  function plusSign(x, s) { return x >= 0 && x !== Infinity ? "+" + s : s; }
  function formatPercent(x, d) {
    if (!isFinite(x)) { return "n/a"; }
    if (Math.abs(x) < FIXED_LIMIT / 100) { return formatFixed(x * 100, d) + "%"; }
    var s = (x < 0 ? "-" : "") + expDigits(Math.abs(x), d), i = s.lastIndexOf("e");
    var e = parseInt(s.slice(i + 1), 10) + 2, ae = Math.abs(e);
    return s.slice(0, i) + "e" + (e < 0 ? "-" : "+") + (ae < 10 ? "0" + ae : String(ae)) + "%";
  }
  // report.ZCapped: the title of a z-score shown capped ("> +10").
  var Z_CAPPED = "beyond ±10 a z-score only says that the change is far outside the series' run-to-run noise, which a metric with tiny noise (an instruction count) makes of any change: the % change says how large it is";
  // report.FormatChange, FormatThreshold and FormatFactor.
  function formatChange(c) {
    if (c === Infinity) { return "+∞%"; }
    if (c === -Infinity) { return "-∞%"; }
    return plusSign(c, formatPercent(c, 2));
  }
  function formatThreshold(t) { return t === 0 ? "-" : formatPercent(t, 2); }
  function formatFactor(f) { return f === 0 ? "-" : formatFixed(f, 2) + "x"; }

  // fixedText is the text of a number stored as the integer of its digits
  // (see sitemodel.Fixed): n with the given decimals, a sign ("+" too
  // when plus) and a suffix; text is kept as it is.
  function fixedText(n, decimals, suffix, plus) {
    if (typeof n === "string") { return n; }
    var neg = n < 0 || Object.is(n, -0), digits = String(Math.abs(n));
    if (decimals > 0) {
      digits = digits.padStart(decimals + 1, "0");
      digits = digits.slice(0, digits.length - decimals) + "." + digits.slice(digits.length - decimals);
    }
    return (neg ? "-" : plus ? "+" : "") + digits + suffix;
  }

  // The codes of column k (sitemodel.rowCodes).
  var MAGNITUDES = ["", "very-small", "small", "medium", "large", "very-large"];
  var DIRS = ["", "regression", "improvement"];
  var P_CLASSES = ["", "regression", "improvement", "significant"];
  var VERDICTS = ["", "improved", "regressed", "no change", "within noise"];
  var BUDGETS = ["", "pass", "warn", "fail", "skip"];
  var BASES = ["persistence", "noise", "not-enough-history", "history", "short-history", "rustc-perf-2021"];
  var STATES = ["", "confirmed", "unconfirmed", "spike", "gradual", "not-enough-history"];

  // eachSeries calls f(id, si, start, n) for the series of a data file:
  // its rows are entries [start, start+n) of every column.
  function eachSeries(file, f) {
    var start = 0;
    file.ids.forEach(function (id, si) {
      f(id, si, start, file.len[si]);
      start += file.len[si];
    });
  }

  // rowAt rebuilds the Row (sitemodel.Row, by its JSON field names) of
  // entry g of a data file, the row of series si whose rows start at
  // entry start; shared are the fields its series' rows share.
  function rowAt(file, si, start, g, shared) {
    var row = {}, str = file.str || [""], unit = shared.unit || "";
    Object.keys(shared).forEach(function (f) { row[f] = shared[f]; });
    var col = function (c) { var x = file[c]; return x ? x[g] : null; };
    var text = function (c) { var i = col(c); return i ? str[i] : ""; };
    var v = file.v[g], b = null;
    if (file.b) {
      b = file.b[g];
    } else if (g > start && file.pos[g - 1] === file.pos[g] - 1) {
      b = file.v[g - 1];
    } else if (g === start && file.pos[g] === 0 && file.prev) {
      b = file.prev[si];
    }
    if (v !== null && v !== undefined) { row.after = formatValue(v, unit); }
    if (b !== null && b !== undefined) { row.before = formatValue(b, unit); }
    var code = file.k[g];
    row.magnitude = MAGNITUDES[code & 7];
    if (code & 8) { row.has_change = true; }
    if (code & 16) { row.relevant = true; }
    if (code & 32) { row.dodgy = true; }
    row.dir = DIRS[(code >> 6) & 3];
    if (row.relevant) { row["class"] = row.dir; }
    row.z_class = DIRS[(code >> 8) & 3];
    row.p_class = P_CLASSES[(code >> 10) & 3];
    var verdict = VERDICTS[(code >> 12) & 7];
    row.budget = row.budget_text = BUDGETS[(code >> 15) & 7];
    if (row.has_change) { row.basis = BASES[(code >> 18) & 7]; }
    row.state = STATES[(code >> 21) & 7];
    row.note = text("note");
    var z = col("z"), p = col("p");
    if (row.has_change) {
      // The change as analysis.RelativeChange computes it.
      var ch = (v - b) / b, t = col("t"), f = col("f");
      row.change = text("co") ? col("cv") : ch;
      row.change_text = text("co") || formatChange(ch);
      row.threshold_text = t === null ? "-" : fixedText(t, 2, "%", false);
      row.factor_text = f === null ? "-" : fixedText(f, 2, "x", false);
      row.factor = typeof f === "number" ? f / 100 : 0;
    }
    if (z !== null) {
      row.z = fixedText(z, 2, "", true);
      var mean = col("mean"), std = col("std");
      if (mean !== null && std !== null) {
        row.z_title = "mean " + formatValue(mean, unit) + " ± " + formatValue(std, unit);
        if (/^[<>] /.test(row.z)) { row.z_title += "; " + Z_CAPPED; }
      }
    } else if (text("zr")) {
      row.z = "–";
      row.z_title = text("zr");
    }
    if (p !== null) {
      row.p = p === -1 ? "<0.001" : fixedText(p, 3, "", false);
      if (verdict) { row.p += " " + verdict; }
      row.p_title = text("pt");
    } else if (text("pt")) {
      row.p = "–";
      row.p_title = text("pt");
    }
    row.budget_title = text("bt");
    row.ack = text("ack");
    row.evidence = text("ev");
    return row;
  }

  // The history of every series of a benchmark: its data files and the
  // artifacts of the main line, merged into points per series id.
  // seriesIndex is a benchmark's series by id: the fields their rows share.
  function seriesIndex(bench) {
    return fetchJSON(route("seriesIndex", {bench: bench})).then(function (idx) {
      var byID = {};
      idx.series.forEach(function (r) { byID[r.series] = r; });
      return byID;
    });
  }

  // benchChunks lists the chunks that have a data file of a benchmark (its
  // series index says which: one that stopped or started late has none
  // for the others).
  function benchChunks(bench) {
    return fetchJSON(route("seriesIndex", {bench: bench})).then(function (idx) { return idx.chunks || []; });
  }

  var histories = {};
  function benchHistory(bench) {
    if (!histories[bench]) {
      histories[bench] = benchChunks(bench).then(function (cs) {
        var files = cs.map(function (c) { return fetchJSON(route("series", {bench: bench, chunk: c})); });
        var arts = cs.map(function (c) { return fetchJSON(route("artifacts", {chunk: c})); });
        return Promise.all([Promise.all(files), Promise.all(arts), seriesIndex(bench)]);
      }).then(function (r) {
        var index = r[2];
        var artifacts = {};
        r[1].forEach(function (a) {
          a.id.forEach(function (id, i) {
            artifacts[a.from + i] = {id: id, label: a.label[i], title: a.title[i], date: a.date[i], dateText: a.date_text[i], url: a.url[i]};
          });
        });
        var series = {};
        r[0].forEach(function (file) {
          eachSeries(file, function (id, si, start, n) {
            var shared = index[id];
            if (!shared) { return; }
            var h = series[id] || (series[id] = {row: shared, points: []});
            var str = function (c, g) { var i = file[c] ? file[c][g] : 0; return i ? file.str[i] : ""; };
            for (var g = start; g < start + n; g++) {
              var pos = file.from + file.pos[g], row = rowAt(file, si, start, g, shared);
              var mean = file.mean ? file.mean[g] : null, std = file.std ? file.std[g] : null, lower = null, upper = null;
              if (mean !== null && std !== null) {
                lower = mean - site.z * std;
                upper = mean + site.z * std;
              }
              h.points.push({
                pos: pos, artifact: artifacts[pos], value: file.v[g], lower: lower, upper: upper,
                bandText: lower === null ? "" : formatValue(Math.min(lower, upper), shared.unit) + " – " + formatValue(Math.max(lower, upper), shared.unit),
                samples: file.s[g], error: str("err", g), ann: str("ann", g), range: str("rng", g), row: row
              });
            }
          });
        });
        return series;
      });
    }
    return histories[bench];
  }

  // --- Charts ------------------------------------------------------------------
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
    c.perfpagesOverview = {spec: spec, all: all};
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

  // renderOverview (re)draws an overview chart in the page's view. In
  // percent of the median, a series without a positive median (spec's
  // median omitted) cannot be drawn: the note under the chart says which,
  // and a chart where no series has one is drawn in absolute values, as
  // its axis says. A logarithmic axis needs every drawn value above 0;
  // where one is not, the axis stays linear and its name says why.
  function renderOverview(c) {
    var o = c.perfpagesOverview, spec = o.spec, all = o.all;
    var normalizable = spec.series.some(function (s) { return s.median > 0 && all[s.id]; });
    var absolute = view.absolute || !normalizable;
    var maxAbs = 0;
    spec.series.forEach(function (s) {
      ((all[s.id] || {}).points || []).forEach(function (p) { if (p.value !== null && !p.error) { maxAbs = Math.max(maxAbs, Math.abs(p.value)); } });
    });
    var axis = axisFor(spec.unit, maxAbs), series = [], first = true, skipped = [], positive = true;
    spec.series.forEach(function (s) {
      var h = all[s.id];
      if (!h) { return; }
      if (!absolute && !(s.median > 0)) { skipped.push(s.name); return; }
      var items = [];
      h.points.forEach(function (p) {
        var a = p.artifact;
        if (!a || p.error || p.value === null) { return; }
        var y = absolute ? p.value / axis.factor : 100 * p.value / s.median;
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
    var without = absolute ? spec.series.filter(function (s) { return !(s.median > 0); }).map(function (s) { return s.name; }) : skipped;
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

  // --- Rows ------------------------------------------------------------------
  // caseParams fills a cell with a row's parameters and the context values
  // that tell it from other series of its test case (context_shown), with
  // the markup of the theme's "case-params" template.
  function caseParams(cell, r) {
    var put = function (p, i, attrs) {
      if (i) { cell.appendChild(document.createTextNode(" ")); }
      var s = el("span", attrs);
      s.appendChild(el("span", {"class": "param-key"}, p.Key));
      s.appendChild(document.createTextNode("="));
      s.appendChild(el("span", {"class": "param-value"}, p.Value));
      cell.appendChild(s);
    };
    var params = r.params || [], ctx = r.context_shown || [];
    params.forEach(function (p, i) { put(p, i, {"class": "param"}); });
    ctx.forEach(function (p, i) { put(p, i + params.length, {"class": "param context", title: "context"}); });
    return cell;
  }

  // renderRow builds a row of a comparison table with the markup of the
  // theme's "row" template (layouts/_partials/comparison.html).
  function renderRow(r) {
    var tr = el("tr", {id: r.anchor, "class": r["class"] || "", "data-bench": r.benchmark, "data-cat": r.category || "",
      "data-dir": r.dir || "", "data-series": r.series});
    if (r.has_change) {
      tr.setAttribute("data-change", String(r.change || 0));
      tr.setAttribute("data-factor", String(r.factor || 0));
    }
    if (r.relevant) { tr.setAttribute("data-relevant", ""); }
    var td = function (cls, title) {
      var c = el("td", cls ? {"class": cls} : {});
      if (title) { c.setAttribute("title", title); }
      tr.appendChild(c);
      return c;
    };
    td().appendChild(el("a", {href: (site.base || "/") + r.bench_url}, r.benchmark));
    caseParams(td(), r);
    td().textContent = r.machine;
    td("num").textContent = r.before || "";
    td("num").textContent = r.after || "";
    var ch = td("num");
    if (r.has_change) {
      ch.appendChild(el("a", {href: "#" + r.anchor}, r.change_text));
    } else {
      ch.appendChild(el("span", {"class": "note"}, r.note || ""));
    }
    var th = td("num");
    th.textContent = r.threshold_text || "";
    if (r.dodgy) {
      th.appendChild(document.createTextNode(" "));
      th.appendChild(el("span", {"class": "badge", title: "noisy or highly variable history"}, "dodgy"));
    }
    // The badges of the headline's states and of thresholds that do not
    // say how they were judged: sitemodel's rowBadges.
    var basis = r.basis_text ? [r.basis_text, r.basis_title] : {
      "confirmed": ["confirmed", "Out of the series' noise, and it stayed: step detection confirmed a step at this commit"],
      "unconfirmed": ["unconfirmed", "Out of the series' noise, but too few later values yet to say whether it stays: shown, not counted until a later build confirms it"],
      "spike": ["spike", "Out of the series' noise, and the next values came back: a one-off, not counted"],
      "gradual": ["gradual", "Part of a gradual change over several commits (the regressions page lists it): no single commit is its culprit"],
      "not-enough-history": ["not enough history", "Too few values of history for a noise model: no verdict yet"],
      "short-history": ["short history: 0.2 %", "Too little history for the IQR threshold: rustc-perf's default of 0.2 % (short-history)"]
    }[r.basis === "not-enough-history" ? r.basis : (r.state || r.basis)];
    if (basis) {
      th.appendChild(document.createTextNode(" "));
      th.appendChild(el("span", {"class": "badge basis", title: basis[1] + (r.basis_text ? "" : r.evidence || "")}, basis[0]));
    }
    td("num").textContent = r.factor_text || "";
    var mag = td();
    mag.textContent = r.magnitude || "";
    if (r.ack) {
      mag.appendChild(document.createTextNode(" "));
      mag.appendChild(el("span", {"class": "badge ack", title: r.ack}, "acknowledged"));
    }
    td("num " + (r.z_class || ""), r.z_title).textContent = r.z || "";
    td("num " + (r.p_class || ""), r.p_title).textContent = r.p || "";
    td(r.budget ? "budget-" + r.budget : "", r.budget_title).textContent = r.budget_text || "";
    return tr;
  }

  // The rows of a comparison from the data: every row of the series data
  // files at its main-line position, or its rows file.
  function comparisonRows(src) {
    if (src.file) {
      return fetchJSON((site.base || "/") + src.file).then(function (f) {
        return Promise.all(f.benches.map(seriesIndex)).then(function (indexes) {
          var rows = [];
          eachSeries(f, function (id, si, start) {
            var shared = indexes[f.bench[si]][id];
            if (shared) { rows.push(rowAt(f, si, start, start, shared)); }
          });
          return rows;
        });
      });
    }
    // The benchmarks with data in the position's chunk are listed in the
    // chunk's artifact data, not on every page.
    var chunk = Math.floor(src.position / site.chunk);
    return fetchJSON(route("artifacts", {chunk: chunk})).then(function (arts) {
      return Promise.all((arts.benches || []).map(function (b) {
        return Promise.all([fetchJSON(route("series", {bench: b, chunk: chunk})), seriesIndex(b)]);
      }));
    }).then(function (files) {
      var rows = [];
      files.forEach(function (fi) {
        var f = fi[0], index = fi[1];
        eachSeries(f, function (id, si, start, n) {
          for (var g = start; g < start + n; g++) {
            if (f.from + f.pos[g] === src.position && index[id]) { rows.push(rowAt(f, si, start, g, index[id])); }
          }
        });
      });
      return rows;
    });
  }

  // The order of the generator's tables: by |change| descending, rows
  // without a change last, ties by anchor.
  function compareRows(a, b) {
    if (!!a.has_change !== !!b.has_change) { return a.has_change ? -1 : 1; }
    var d = Math.abs(b.change || 0) - Math.abs(a.change || 0);
    if (d !== 0) { return d; }
    return a.anchor < b.anchor ? -1 : a.anchor > b.anchor ? 1 : 0;
  }

  // loadOtherRows fills a metric's folded table with its rows that have no
  // relevant change (and did not fail: those are listed above).
  function loadOtherRows(details) {
    if (details.perfpagesRows) { return details.perfpagesRows; }
    var src = JSON.parse(details.closest(".comparison").getAttribute("data-rows"));
    var metric = details.getAttribute("data-metric");
    var tbody = details.querySelector("table.rows tbody");
    if (!tbody) {
      // The table's markup is the theme's ("rows-head"), once per page.
      var tpl = details.closest(".comparison").querySelector("template.rows-table");
      details.appendChild(document.importNode(tpl.content, true));
      tbody = details.querySelector("table.rows tbody");
    }
    details.setAttribute("aria-busy", "true");
    details.perfpagesRows = comparisonRows(src).then(function (rows) {
      // The rows the page lists already (relevant, unconfirmed, too young
      // to judge) are not listed again.
      rows = rows.filter(function (r) { return r.metric === metric && !r.relevant && !(r.note || "").match(/^failed: /) && !document.getElementById(r.anchor); });
      rows.sort(compareRows);
      rows.forEach(function (r) { tbody.appendChild(renderRow(r)); });
      Array.prototype.forEach.call(tbody.rows, expandable);
      var pending = details.querySelector(".rows-pending");
      if (pending) { pending.remove(); }
      details.removeAttribute("aria-busy");
      details.setAttribute("data-loaded", "");
      details.dispatchEvent(new Event("rowsloaded", {bubbles: true}));
      return rows;
    }).catch(function (err) {
      details.removeAttribute("aria-busy");
      details.setAttribute("data-error", String(err));
      var pending = details.querySelector(".rows-pending");
      if (pending) { pending.textContent = "The rows could not be loaded: " + err; }
    });
    return details.perfpagesRows;
  }

  // --- Tabs: one per metric section --------------------------------------------
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.metric"));
  var showSection = function () {};
  if (sections.length > 1) {
    var bar = el("div", {"class": "tabs", role: "tablist", "aria-label": "Metrics"});
    var buttons = sections.map(function (sec) {
      var h = sec.querySelector("h2");
      var name = h && h.firstChild ? h.firstChild.textContent.trim() : sec.id;
      var b = el("button", {type: "button", role: "tab", id: "tab-" + sec.id, "aria-controls": sec.id}, name);
      var verdict = sec.querySelector(".summary .verdict");
      if (verdict) {
        var dir = (verdict.className.match(/verdict-(\w+)/) || [])[1];
        if (dir && dir !== "none") {
          b.appendChild(el("span", {"class": "tab-mark verdict-" + dir, "aria-hidden": "true"},
            dir === "regression" ? " ▲" : dir === "improvement" ? " ▼" : " ◆"));
        }
      }
      sec.setAttribute("role", "tabpanel");
      sec.setAttribute("aria-labelledby", b.id);
      b.addEventListener("click", function () {
        showSection(sec);
        history.replaceState(null, "", "#" + sec.id);
      });
      bar.appendChild(b);
      return b;
    });
    sections[0].parentNode.insertBefore(bar, sections[0]);
    showSection = function (sec) {
      sections.forEach(function (s, i) {
        s.hidden = s !== sec;
        buttons[i].setAttribute("aria-selected", String(s === sec));
        buttons[i].tabIndex = s === sec ? 0 : -1;
      });
    };
    bar.addEventListener("keydown", function (e) {
      var i = buttons.indexOf(document.activeElement);
      if (i < 0 || (e.key !== "ArrowRight" && e.key !== "ArrowLeft")) { return; }
      var j = (i + (e.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length;
      buttons[j].focus();
      buttons[j].click();
    });
    // The first tab shown is the metric with the most relevant changes.
    var first = sections[0], most = -1;
    sections.forEach(function (s) {
      var n = Number(s.getAttribute("data-relevant") || 0);
      if (n > most) { most = n; first = s; }
    });
    showSection(first);
  }

  // A fragment naming a metric or a row selects its tab and, for a row, opens
  // the folded rows around it (loading them if need be).
  function followHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) { return; }
    var target = document.getElementById(id);
    if (!target && /^row-/.test(id)) {
      var folded = Array.prototype.slice.call(document.querySelectorAll("details.other-rows:not([data-loaded])"));
      if (folded.length) {
        Promise.all(folded.map(loadOtherRows)).then(function () { if (document.getElementById(id)) { followHash(); } });
      }
      return;
    }
    if (!target) { return; }
    var sec = target.closest("section.metric");
    if (sec) { showSection(sec); }
    for (var d = target.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
      d.open = true;
    }
    if (target !== sec) { target.scrollIntoView(); }
  }
  window.addEventListener("hashchange", followHash);
  followHash();

  // --- Toolbars ------------------------------------------------------------------
  function toolbar(scope) {
    var tables = function () { return Array.prototype.slice.call(scope.querySelectorAll("table.rows")); };
    var rows = function () {
      var out = [];
      tables().forEach(function (t) { Array.prototype.forEach.call(t.tBodies[0] ? t.tBodies[0].rows : [], function (tr) { if (!tr.classList.contains("row-chart")) { out.push(tr); } }); });
      return out;
    };
    var others = Array.prototype.slice.call(scope.querySelectorAll("details.other-rows"));
    if (rows().length === 0 && others.length === 0) { return; }
    var box = el("div", {"class": "toolbar", role: "search"});
    var input = el("input", {type: "search", "class": "filter", placeholder: "Filter: benchmark, key=value, machine or /regex/", "aria-label": "Filter rows"});
    box.appendChild(input);

    var paramSel = select("filter-param", "Parameter value", [["", "All parameters"]]);
    var fillParams = function () {
      var params = {};
      rows().forEach(function (tr) { tr.querySelectorAll(".param").forEach(function (p) { params[p.textContent] = true; }); });
      var keep = paramSel.value;
      while (paramSel.options.length > 1) { paramSel.remove(1); }
      Object.keys(params).sort().forEach(function (p) { paramSel.appendChild(el("option", {value: p}, p)); });
      paramSel.value = keep;
      paramSel.hidden = paramSel.options.length <= 2;
    };
    box.appendChild(paramSel);
    var catSel = select("filter-cat", "Category", [["", "All categories"], ["primary", "Primary"], ["secondary", "Secondary"]]);
    box.appendChild(catSel);
    var fillCats = function () {
      var cats = {};
      rows().forEach(function (tr) { cats[tr.getAttribute("data-cat") || "primary"] = true; });
      catSel.hidden = Object.keys(cats).length <= 1;
    };
    var dirSel = select("filter-dir", "Direction", [["", "Regressions and improvements"], ["regression", "Regressions only"], ["improvement", "Improvements only"]]);
    box.appendChild(dirSel);
    var sortSel = select("sort", "Sort rows", [["change", "Sort by |% change|"], ["factor", "Sort by significance factor"], ["name", "Sort by name"]]);
    box.appendChild(sortSel);

    var otherBox = null;
    if (others.length > 0) {
      var n = others.reduce(function (acc, d) { return acc + Number(d.getAttribute("data-count") || 0); }, 0);
      var label = el("label", {"class": "show-other"});
      otherBox = el("input", {type: "checkbox"});
      label.appendChild(otherBox);
      label.appendChild(document.createTextNode(" show " + n + " without a relevant change"));
      box.appendChild(label);
      otherBox.addEventListener("change", function () {
        others.forEach(function (d) { d.open = otherBox.checked; });
      });
      others.forEach(function (d) {
        d.addEventListener("toggle", function () {
          otherBox.checked = others.some(function (x) { return x.open; });
          if (d.open) { loadOtherRows(d); }
        });
        // A first commit's rows are all folded ones, open from the start.
        if (d.open) { loadOtherRows(d); }
      });
      otherBox.checked = others.some(function (x) { return x.open; });
    }
    var count = el("span", {"class": "filter-count", "aria-live": "polite"});
    box.appendChild(count);

    function matcher() {
      var q = input.value.trim();
      input.removeAttribute("aria-invalid");
      if (q.length > 2 && q.charAt(0) === "/" && q.charAt(q.length - 1) === "/") {
        try {
          var re = new RegExp(q.slice(1, -1), "i");
          return function (text) { return re.test(text); };
        } catch (err) {
          input.setAttribute("aria-invalid", "true");
          return function () { return true; };
        }
      }
      q = q.toLowerCase();
      return function (text) { return q === "" || text.toLowerCase().indexOf(q) >= 0; };
    }

    function apply() {
      collapseAll(scope);
      var match = matcher();
      var param = paramSel.value, cat = catSel.value, dir = dirSel.value;
      var all = rows(), shown = 0;
      all.forEach(function (tr) {
        var ok = match(tr.textContent.replace(/\s+/g, " ")) &&
          (param === "" || Array.prototype.some.call(tr.querySelectorAll(".param"), function (p) { return p.textContent === param; })) &&
          (cat === "" || (tr.getAttribute("data-cat") || "primary") === cat) &&
          (dir === "" || tr.getAttribute("data-dir") === dir);
        tr.hidden = !ok;
        if (ok) { shown++; }
      });
      count.textContent = shown === all.length ? "" : shown + " of " + all.length + " rows";
    }

    function key(tr, by) {
      if (by === "name") { return 0; }
      var v = parseFloat(tr.getAttribute(by === "factor" ? "data-factor" : "data-change"));
      return isNaN(v) ? -1 : Math.abs(v);
    }
    function sort() {
      collapseAll(scope);
      var by = sortSel.value;
      tables().forEach(function (t) {
        var body = t.tBodies[0];
        if (!body) { return; }
        var list = Array.prototype.slice.call(body.rows);
        list.forEach(function (tr, i) { if (!tr.hasAttribute("data-order")) { tr.setAttribute("data-order", String(i)); } });
        list.sort(function (a, b) {
          if (by === "name") {
            var c = (a.getAttribute("data-bench") || "").localeCompare(b.getAttribute("data-bench") || "");
            if (c !== 0) { return c; }
          } else {
            var d = key(b, by) - key(a, by);
            if (d !== 0) { return d; }
          }
          return Number(a.getAttribute("data-order")) - Number(b.getAttribute("data-order"));
        });
        list.forEach(function (tr) { body.appendChild(tr); });
      });
    }

    input.addEventListener("input", apply);
    [paramSel, catSel, dirSel].forEach(function (s) { s.addEventListener("change", apply); });
    sortSel.addEventListener("change", sort);
    scope.addEventListener("rowsloaded", function () {
      fillParams();
      fillCats();
      if (sortSel.value !== "change") { sort(); }
      apply();
    });
    fillParams();
    fillCats();
    var firstTable = tables()[0];
    var anchor = firstTable ? (firstTable.closest("details.other-rows") || firstTable.closest(".table-scroll") || firstTable) : others[0];
    anchor.parentNode.insertBefore(box, anchor);
    // The toolbar serves every table of the metric: put it above the first
    // table's heading.
    var h3 = box.previousElementSibling;
    if (h3 && h3.tagName === "H3") { h3.parentNode.insertBefore(box, h3); }
  }

  // --- Expandable rows: the series' history chart under its row --------------
  function expandable(tr) {
    if (!tr.cells.length || tr.querySelector("button.expand")) { return; }
    var link = tr.cells[0].querySelector("a[href]");
    var m = link && /\/bench\/([^\/]+)\/$/.exec(link.getAttribute("href"));
    var id = tr.getAttribute("data-series");
    if (!id || !m || typeof echarts !== "object") { return; }
    var b = el("button", {type: "button", "class": "expand", "aria-expanded": "false", title: "Show the history of this series"}, "▸");
    tr.cells[0].insertBefore(b, tr.cells[0].firstChild);
    b.addEventListener("click", function () {
      var next = tr.nextElementSibling;
      if (next && next.classList.contains("row-chart")) {
        next.remove();
        b.setAttribute("aria-expanded", "false");
        b.textContent = "▸";
        return;
      }
      var row = el("tr", {"class": "row-chart"});
      var td = el("td", {colspan: String(tr.cells.length)});
      var div = el("div", {"class": "row-chart-plot", role: "img", "aria-label": "History of this series"});
      td.appendChild(div);
      row.appendChild(td);
      tr.parentNode.insertBefore(row, tr.nextSibling);
      b.setAttribute("aria-expanded", "true");
      b.textContent = "▾";
      benchHistory(m[1]).then(function (all) {
        var h = all[id];
        if (!h) { div.textContent = "No history chart for this series."; return; }
        return drawChart(div, {kind: "history", bench: m[1], unit: h.row.unit || "", series: [{id: id}]});
      }).catch(function (err) {
        div.setAttribute("data-error", String(err));
        div.textContent = "The history could not be loaded.";
      });
    });
  }
  function collapseAll(scope) {
    scope.querySelectorAll("tr.row-chart").forEach(function (r) {
      var prev = r.previousElementSibling, b = prev && prev.querySelector("button.expand");
      if (b) { b.setAttribute("aria-expanded", "false"); b.textContent = "▸"; }
      r.remove();
    });
  }
  document.querySelectorAll("table.rows tbody tr[data-series]").forEach(expandable);

  if (sections.length > 0) {
    sections.forEach(function (sec) { toolbar(sec); });
  }

  // --- Bench pages: machine and metric selectors, log scale, annotation ------
  // snippets for the point under the pointer, history tables.
  var series = Array.prototype.slice.call(document.querySelectorAll("section.series[data-machine]"));
  if (series.length > 0) {
    var instances = function () {
      return series.filter(function (sec) { return !sec.hidden; }).map(function (sec) {
        var div = sec.querySelector('[id^="c_"]');
        return div && typeof echarts === "object" ? echarts.getInstanceByDom(div) : null;
      }).filter(Boolean);
    };
    var tools = el("div", {"class": "toolbar bench-tools"});
    var distinct = function (attr) {
      var seen = {};
      series.forEach(function (sec) { seen[sec.getAttribute(attr)] = true; });
      return Object.keys(seen).sort();
    };
    var machineSel = null, metricSel = null;
    var machines = distinct("data-machine"), metrics = distinct("data-metric");
    if (machines.length > 1) {
      machineSel = select("filter-machine", "Machine", [["", "All machines"]].concat(machines.map(function (m) { return [m, m]; })));
      tools.appendChild(machineSel);
    }
    if (metrics.length > 1) {
      metricSel = select("filter-metric", "Metric", [["", "All metrics"]].concat(metrics.map(function (m) { return [m, m]; })));
      tools.appendChild(metricSel);
    }
    // The check boxes show the view (see view): set from it, never from
    // what a browser restores into a form on reload.
    var checkbox = function (cls, text, checked) {
      var label = el("label", {"class": cls});
      var box = el("input", {type: "checkbox", autocomplete: "off"});
      box.checked = checked;
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + text));
      tools.appendChild(label);
      return box;
    };
    var absBox = null;
    if (document.querySelector("section.overview")) {
      absBox = checkbox("abs-values", "absolute values", view.absolute);
      absBox.title = "Overview charts: each test case's values as they are, instead of in percent of its median";
    }
    var logBox = checkbox("log-scale", "log scale", view.log);
    logBox.title = "Every chart that can be on a log scale; unchecked, only those whose values span two orders of magnitude or more";
    var saveView = function () {
      var q = new URLSearchParams(location.search);
      [["abs", view.absolute], ["log", view.log]].forEach(function (kv) { if (kv[1]) { q.set(kv[0], "1"); } else { q.delete(kv[0]); } });
      var qs = q.toString();
      history.replaceState(history.state, "", location.pathname + (qs ? "?" + qs : "") + location.hash);
    };
    // setLog draws every visible chart on the axis the view asks for. A
    // logarithmic axis needs values above 0: a history chart with one at or
    // below 0 stays linear and says so in its axis name; the box is
    // disabled when no visible chart can be drawn on a log axis.
    var setLog = function () {
      var any = false, shown = instances();
      shown.forEach(function (c) {
        if (c.perfpagesOverview) {
          renderOverview(c);
          any = any || c.perfpagesOverview.canLog;
          return;
        }
        var hd = c.perfpagesHistory;
        if (!hd) { return; }
        var ax = historyAxis(hd.data);
        c.setOption({yAxis: {type: ax.type, min: ax.min, max: ax.max, interval: ax.interval, name: hd.name + ax.note}});
        var values = hd.data.items.map(function (it) { return it.value[1]; }).filter(function (v) { return v !== null; });
        any = any || (values.length > 0 && values.every(function (v) { return v > 0; }));
      });
      logBox.disabled = shown.length > 0 && !any;
      logBox.title = logBox.disabled ? "No chart shown here can be drawn on a log scale: each has values at or below 0" : "";
    };
    logBox.addEventListener("change", function () {
      view.log = logBox.checked;
      saveView();
      setLog();
    });
    if (absBox) {
      absBox.addEventListener("change", function () {
        view.absolute = absBox.checked;
        saveView();
        setLog();
      });
    }
    var filterSeries = function () {
      var m = machineSel ? machineSel.value : "", k = metricSel ? metricSel.value : "";
      series.forEach(function (sec) {
        sec.hidden = (m !== "" && sec.getAttribute("data-machine") !== m) || (k !== "" && sec.getAttribute("data-metric") !== k);
      });
      document.querySelectorAll("nav.toc li a").forEach(function (a) {
        var target = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
        if (target) { a.parentNode.hidden = target.hidden; }
      });
      setLog();
    };
    if (machineSel) { machineSel.addEventListener("change", filterSeries); }
    if (metricSel) { metricSel.addEventListener("change", filterSeries); }
    Promise.all(chartsDrawn).then(setLog);
    var firstSeries = series[0];
    firstSeries.parentNode.insertBefore(tools, document.querySelector("nav.toc") || firstSeries);

    // The annotation snippet of the point under the pointer: hovering a
    // point fills it in; it stays when the pointer leaves the chart, so it
    // can be copied. (A click on the chart opens the commit page.)
    Promise.all(chartsDrawn).then(function () {
      series.forEach(function (sec) {
        var div = sec.querySelector('[id^="c_"]');
        var c = div && typeof echarts === "object" ? echarts.getInstanceByDom(div) : null;
        var tmpl = sec.getAttribute("data-snippet");
        if (!c || !tmpl) { return; }
        var box = el("details", {"class": "annotation-snippet"});
        var sum = el("summary", {}, "Mark a distribution change here (annotations.yaml)");
        var hint = el("p", {"class": "hint"}, "Point at a result in the chart above to fill in its commit.");
        var pre = el("pre", {}, tmpl.replace("@ARTIFACT@", "<sha>"));
        box.appendChild(sum);
        box.appendChild(hint);
        box.appendChild(pre);
        div.parentNode.insertBefore(box, div.nextSibling);
        c.on("updateAxisPointer", function (e) {
          var info = e.axesInfo && e.axesInfo[0];
          if (!info) { return; }
          var data = (c.getOption().series[0] || {}).data || [];
          var best = null, bd = Infinity;
          data.forEach(function (it) {
            var dx = Math.abs(it.value[0] - info.value);
            if (dx < bd) { bd = dx; best = it; }
          });
          if (!best || !best.u) { return; }
          var m = /\/commit\/([^\/]+)\/?$/.exec(best.u);
          if (!m) { return; }
          pre.textContent = tmpl.replace("@ARTIFACT@", m[1]);
          hint.textContent = "For " + best.name + " (" + best.d + "): add this to annotations.yaml to restart the lookback mean there.";
          box.setAttribute("data-artifact", m[1]);
        });
      });
    });

    // History tables: the newest 200 results of the series, from its data.
    document.querySelectorAll("details.history[data-series]").forEach(function (d) {
      var filled = false;
      var fill = function () {
        if (filled || !d.open) { return; }
        filled = true;
        benchHistory(d.getAttribute("data-bench")).then(function (all) {
          var h = all[d.getAttribute("data-series")];
          var tbody = d.querySelector("tbody");
          if (!h) { return; }
          var pts = h.points.filter(function (p) { return p.artifact && (p.value !== null || p.error); });
          pts.sort(function (a, b) { return b.pos - a.pos; });
          var shown = pts.slice(0, 200);
          shown.forEach(function (p) {
            var a = p.artifact, r = p.row;
            var tr = el("tr", {"class": r["class"] || ""});
            var c0 = el("td");
            c0.appendChild(el("a", {href: (site.base || "/") + a.url, title: a.id}, a.label));
            tr.appendChild(c0);
            tr.appendChild(el("td", {}, a.dateText.slice(0, 10)));
            tr.appendChild(el("td", {}, a.title || ""));
            var v = el("td", {"class": "num"});
            if (p.error) { v.appendChild(el("span", {"class": "failed", title: p.error}, "failed")); } else { v.textContent = r.after || ""; }
            tr.appendChild(v);
            tr.appendChild(el("td", {"class": "num"}, String(p.samples || 0)));
            tr.appendChild(el("td", {"class": "num"}, r.has_change ? r.change_text : ""));
            tr.appendChild(el("td", {"class": "num"}, r.has_change ? (r.threshold_text || "") : ""));
            tr.appendChild(el("td", {}, r.has_change ? (r.magnitude || "") : ""));
            tbody.appendChild(tr);
          });
          if (pts.length > shown.length) {
            d.querySelector("summary").appendChild(document.createTextNode(" (the newest " + shown.length + " shown)"));
          }
          d.setAttribute("data-loaded", "");
        }).catch(function (err) { d.setAttribute("data-error", String(err)); });
      };
      d.addEventListener("toggle", fill);
      fill();
    });
  }

  // --- The compare form (/compare/) ---------------------------------------------
  // A pair the site shows already opens its page; any other pair of
  // main-line commits is computed here from the series data files: per
  // series, the values at both commits as the files store them (the values
  // every page shows) and their relative change, as analysis.RelativeChange
  // computes it. Nothing that needs the history or the samples
  // (significance and the other engines) is: the page says so and names
  // the command that computes it. The pair is in the page's URL
  // (?base=…&head=…), so the result can be shared.
  function relativeChange(a, b) {
    if (a === 0) { return b > 0 ? Infinity : b < 0 ? -Infinity : 0; }
    return (b - a) / a;
  }

  function compareForm(form) {
    var info = JSON.parse(form.getAttribute("data-form"));
    var status = document.querySelector(".compare-status"), out = document.querySelector(".compare-result");
    var say = function (text) { status.textContent = text; };
    var base = site.base || "/";
    var short = function (id) { return /^[0-9a-f]{8,}$/.test(id) ? id.slice(0, 7) : id; };
    var metrics = {};
    (info.metrics || []).forEach(function (m) { metrics[m.name] = m; });
    var prs = info.prs || [], pages = info.pages || [];

    var mainLine = chunks().then(function (cs) {
      return Promise.all(cs.map(function (c) { return fetchJSON(route("artifacts", {chunk: c})); }));
    }).then(function (files) {
      var arts = [], byID = {};
      files.forEach(function (a) {
        a.id.forEach(function (id, i) {
          var x = {pos: a.from + i, id: id, label: a.label[i], title: a.title[i], dateText: a.date_text[i], url: a.url[i]};
          arts.push(x);
          byID[id] = x;
        });
      });
      return {arts: arts, byID: byID};
    });

    // The datalist: every main-line commit, newest first, then the PRs
    // that are not on the main line.
    mainLine.then(function (ml) {
      var list = document.getElementById("compare-artifacts");
      for (var i = ml.arts.length - 1; i >= 0; i--) {
        var a = ml.arts[i];
        list.appendChild(el("option", {value: short(a.id)}, (a.label !== short(a.id) ? a.label + " · " : "") + a.dateText.slice(0, 10) + " · " + a.title));
      }
      prs.forEach(function (p) {
        if (!ml.byID[p.head]) { list.appendChild(el("option", {value: "#" + p.number}, "PR #" + p.number + " (not merged) · " + (p.title || ""))); }
      });
    });

    // resolve turns what the reader typed into an artifact: {art} on the
    // main line, {id, label, pr} off it, {empty} or {error}.
    function resolve(q, ml) {
      q = q.trim();
      if (q === "") { return {empty: true}; }
      var m = /^(?:#|pr\/)(\d+)$/i.exec(q);
      if (m) {
        var pr = prs.filter(function (p) { return p.number === Number(m[1]); })[0];
        if (!pr) { return {error: "No PR #" + m[1] + " has results on this site."}; }
        return ml.byID[pr.head] ? {art: ml.byID[pr.head], pr: pr} : {id: pr.head, label: "#" + pr.number, pr: pr};
      }
      if (ml.byID[q]) { return {art: ml.byID[q]}; }
      var lq = q.toLowerCase(), starts = function (id) { return id.toLowerCase().indexOf(lq) === 0; };
      var hits = ml.arts.filter(function (a) { return starts(a.id); });
      var off = {};
      pages.forEach(function (p) { [p.base, p.head].forEach(function (id) { if (!ml.byID[id] && (id === q || starts(id))) { off[id] = true; } }); });
      prs.forEach(function (p) { if (!ml.byID[p.head] && (p.head === q || starts(p.head))) { off[p.head] = true; } });
      var offIDs = Object.keys(off);
      if (offIDs.indexOf(q) >= 0) { offIDs = [q]; }
      if (hits.length + offIDs.length > 1) { return {error: "“" + q + "” starts " + (hits.length + offIDs.length) + " artifacts' ids: type more of it."}; }
      if (hits.length === 1 && q.length >= 4) { return {art: hits[0]}; }
      if (offIDs.length === 1 && (q.length >= 4 || offIDs[0] === q)) {
        var owner = prs.filter(function (p) { return p.head === offIDs[0]; })[0];
        return {id: offIDs[0], label: owner ? "#" + owner.number : short(offIDs[0]), pr: owner};
      }
      return {error: "No artifact “" + q + "” on this site (a sha of at least 4 digits, or #PR)."};
    }

    function open(url, replace) {
      say("Opening " + url + " …");
      if (replace) { location.replace(base + url); } else { location.assign(base + url); }
    }

    // go resolves the pair and opens its page or computes it; fromURL: the
    // pair came from the page's address (replace it rather than add a
    // history entry when leaving for a page).
    function go(bq, hq, fromURL) {
      return mainLine.then(function (ml) {
        var h = resolve(hq, ml), b = resolve(bq, ml);
        if (h.empty) { say("Name the head: a sha, a short sha or #PR."); return; }
        if (h.error || b.error) { say(h.error || b.error); return; }
        var hid = h.art ? h.art.id : h.id;
        if (b.empty) {
          // The head against its baseline: its own page.
          if (h.art) { return open(h.art.url, fromURL); }
          if (h.pr) { return open(h.pr.url, fromURL); }
          var own = pages.filter(function (p) { return p.head === hid; })[0];
          if (own) { return open(own.url, fromURL); }
          say(h.label + " has no baseline on this site: name a base.");
          return;
        }
        var bid = b.art ? b.art.id : b.id;
        if (bid === hid) { say("Base and head are the same artifact."); return; }
        if (b.art && h.art && b.art.pos + 1 === h.art.pos) { return open(h.art.url, fromURL); }
        var page = pages.filter(function (p) { return p.base === bid && p.head === hid; })[0];
        if (page) { return open(page.url, fromURL); }
        if (!b.art || !h.art) {
          say("Only commits of the main line are compared in the browser (a try run opens its page with its baseline). " +
            "This pair: perfpages compare -format text " + bid + " " + hid);
          return;
        }
        var q = "?base=" + encodeURIComponent(bid) + "&head=" + encodeURIComponent(hid);
        if (location.search !== q) { history.pushState(null, "", location.pathname + q); }
        return compute(b.art, h.art);
      }).catch(function (err) {
        say("The site's data could not be loaded: " + err);
        form.setAttribute("data-error", String(err));
      });
    }

    function compute(b, h) {
      say("Comparing " + b.label + " → " + h.label + " from the site's data …");
      out.textContent = "";
      out.setAttribute("aria-busy", "true");
      form.removeAttribute("data-loaded");
      var cb = Math.floor(b.pos / site.chunk), ch = Math.floor(h.pos / site.chunk);
      return Promise.all((info.benches || []).map(function (bench) {
        return benchChunks(bench).then(function (cs) {
          var files = [cb, ch].filter(function (k, i) { return cs.indexOf(k) >= 0 && (i === 0 || k !== cb); }).map(function (k) {
            return fetchJSON(route("series", {bench: bench, chunk: k}));
          });
          return Promise.all([seriesIndex(bench), Promise.all(files)]);
        });
      })).then(function (res) {
        var rows = [];
        res.forEach(function (r) {
          var index = r[0], vals = {};
          r[1].forEach(function (file) {
            eachSeries(file, function (id, si, start, n) {
              for (var g = start; g < start + n; g++) {
                var pos = file.from + file.pos[g];
                if (pos !== b.pos && pos !== h.pos) { continue; }
                var x = vals[id] || (vals[id] = {});
                x[pos === b.pos ? "b" : "h"] = {v: file.v[g], err: file.err && file.err[g] ? file.str[file.err[g]] : ""};
              }
            });
          });
          Object.keys(vals).forEach(function (id) {
            if (index[id]) { rows.push(compareRow(index[id], vals[id].b, vals[id].h)); }
          });
        });
        render(b, h, rows);
        out.removeAttribute("aria-busy");
        form.setAttribute("data-loaded", "");
      }).catch(function (err) {
        out.removeAttribute("aria-busy");
        say("The site's data could not be loaded: " + err);
        form.setAttribute("data-error", String(err));
      });
    }

    function compareRow(shared, bv, hv) {
      var unit = shared.unit || "", has = function (x) { return !!x && x.v !== null && x.v !== undefined && !x.err; };
      var cell = function (x) { return has(x) ? formatValue(x.v, unit) : x && x.err ? "failed" : ""; };
      var r = {shared: shared, before: cell(bv), after: cell(hv), has: has(bv) && has(hv)};
      if (r.has) {
        r.change = relativeChange(bv.v, hv.v);
        r.text = formatChange(r.change);
        var m = metrics[shared.metric] || {};
        if (r.change !== 0) { r.dir = (m.direction === "higher") === (r.change < 0) ? "regression" : "improvement"; }
      } else {
        r.text = !bv || bv.v === null || bv.v === undefined ? (bv && bv.err ? "failed in base" : "no result in base") : hv && hv.err ? "failed in head" : "no result in head";
      }
      return r;
    }

    function render(b, h, rows) {
      var arts = function (a) {
        var p = el("span");
        p.appendChild(el("a", {href: base + a.url, title: a.id}, a.label));
        p.appendChild(document.createTextNode(" " + a.dateText.slice(0, 10) + " " + a.title));
        return p;
      };
      var head = el("p", {"class": "compare-pair"});
      head.appendChild(document.createTextNode("Base "));
      head.appendChild(arts(b));
      head.appendChild(document.createTextNode(" → head "));
      head.appendChild(arts(h));
      var gap = h.pos - b.pos;
      head.appendChild(document.createTextNode(gap > 1 ? " (" + (gap - 1) + " main-line commits between them)" : gap < 0 ? " (the head is older than the base)" : ""));
      out.appendChild(head);
      var note = el("p", {"class": "hint computed-note"});
      note.appendChild(document.createTextNode("Computed in your browser: the values and their relative change only, no significance. For significance and every engine: "));
      note.appendChild(el("code", {}, "perfpages compare -format text " + b.id + " " + h.id));
      out.appendChild(note);
      var byMetric = {};
      rows.forEach(function (r) { (byMetric[r.shared.metric] = byMetric[r.shared.metric] || []).push(r); });
      var names = Object.keys(byMetric).sort();
      if (!names.length) { out.appendChild(el("p", {}, "No series has a result at either commit.")); }
      names.forEach(function (name) {
        var list = byMetric[name], m = metrics[name] || {};
        list.sort(function (x, y) {
          if (x.has !== y.has) { return x.has ? -1 : 1; }
          var d = Math.abs(y.change || 0) - Math.abs(x.change || 0);
          if (d !== 0 && !isNaN(d)) { return d; }
          return x.shared.anchor < y.shared.anchor ? -1 : x.shared.anchor > y.shared.anchor ? 1 : 0;
        });
        var sec = el("section", {"class": "compare-metric", "data-metric": name});
        var h2 = el("h2", {}, name + " ");
        h2.appendChild(el("small", {}, "(" + (m.unit || "") + (m.direction ? ", " + m.direction + " is better" : "") + ")"));
        sec.appendChild(h2);
        var compared = list.filter(function (r) { return r.has; });
        var worse = compared.filter(function (r) { return r.dir === "regression"; }).length;
        var better = compared.filter(function (r) { return r.dir === "improvement"; }).length;
        sec.appendChild(el("p", {"class": "hint"}, compared.length + " series compared: " + worse + " worse, " + better + " better, " +
          (compared.length - worse - better) + " unchanged" + (list.length > compared.length ? "; " + (list.length - compared.length) + " without a result at one of the commits" : "") + "."));
        var wrap = el("div", {"class": "table-scroll"}), table = el("table", {"class": "rows compare-rows"});
        var thead = el("thead"), tr = el("tr");
        [["Benchmark", ""], ["Parameters", ""], ["Machine", ""], ["Base", "num"], ["Head", "num"], ["% change", "num"]].forEach(function (c) {
          tr.appendChild(el("th", c[1] ? {"class": c[1]} : {}, c[0]));
        });
        thead.appendChild(tr);
        table.appendChild(thead);
        var tbody = el("tbody");
        table.appendChild(tbody);
        wrap.appendChild(table);
        sec.appendChild(wrap);
        var shown = 0, limit = 100;
        var more = function (n) {
          list.slice(shown, shown + n).forEach(function (r) {
            var s = r.shared, row = el("tr", {"data-bench": s.bench_url.replace(/^bench\/|\/$/g, ""), "data-series": s.series});
            if (r.has) { row.setAttribute("data-change", String(r.change)); }
            var c0 = el("td");
            c0.appendChild(el("a", {href: base + s.bench_url}, s.benchmark));
            row.appendChild(c0);
            row.appendChild(caseParams(el("td"), s));
            row.appendChild(el("td", {}, s.machine));
            row.appendChild(el("td", {"class": "num"}, r.before));
            row.appendChild(el("td", {"class": "num"}, r.after));
            row.appendChild(el("td", {"class": "num change" + (r.dir ? " " + r.dir : "")}, r.text));
            tbody.appendChild(row);
          });
          shown = Math.min(list.length, shown + n);
        };
        more(limit);
        if (list.length > shown) {
          var btn = el("button", {type: "button", "class": "show-all"}, "Show all " + list.length + " rows");
          btn.addEventListener("click", function () { more(list.length); btn.remove(); });
          sec.appendChild(btn);
        }
        out.appendChild(sec);
      });
      say("");
    }

    form.addEventListener("submit", function (e) {
      e.preventDefault();
      go(form.elements.base.value, form.elements.head.value, false);
    });
    var fromURL = function () {
      var q = new URLSearchParams(location.search);
      if (q.get("head")) {
        form.elements.base.value = q.get("base") || "";
        form.elements.head.value = q.get("head");
        go(form.elements.base.value, form.elements.head.value, true);
      } else {
        out.textContent = "";
      }
    };
    window.addEventListener("popstate", fromURL);
    fromURL();
  }
  var compareFormEl = document.querySelector("form.compare-form[data-form]");
  if (compareFormEl) { compareForm(compareFormEl); }

  // For tests and the curious (devtools): the functions that turn the data
  // files into rows and text.
  window.perfpages = {formatValue: formatValue, formatChange: formatChange, formatThreshold: formatThreshold,
    formatFactor: formatFactor, formatFixed: formatFixed, comparisonRows: comparisonRows, renderRow: renderRow,
    historyData: historyData, valueAxis: valueAxis};

  // --- Copy as Markdown, copy a snippet ------------------------------------------
  // A button before a details element copies its <pre>: the PR comment of a
  // comparison, the annotations.yaml entry of a step (regressions page).
  function copyButton(d, cls, label) {
    var pre = d.querySelector("pre");
    if (!pre) { return; }
    var b = el("button", {type: "button", "class": cls}, label);
    var status = el("span", {"class": "copy-status", "aria-live": "polite"});
    b.addEventListener("click", function () {
      var text = pre.textContent;
      var done = function () { status.textContent = "copied"; setTimeout(function () { status.textContent = ""; }, 2000); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () {
          d.open = true;
          window.getSelection().selectAllChildren(pre);
          status.textContent = "selected: press Ctrl+C";
        });
      } else {
        d.open = true;
        window.getSelection().selectAllChildren(pre);
        status.textContent = "selected: press Ctrl+C";
      }
    });
    d.parentNode.insertBefore(b, d);
    d.parentNode.insertBefore(status, d);
  }
  document.querySelectorAll("details.pr-markdown").forEach(function (d) { copyButton(d, "copy-markdown", "Copy as Markdown"); });
  document.querySelectorAll("details.step-snippet").forEach(function (d) { copyButton(d, "copy-markdown copy-snippet", "Copy annotations.yaml entry"); });
})();
