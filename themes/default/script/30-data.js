// Data loading: the site's URL table (route), the data files (fetchJSON
// fetches each once and inflates it if gzip; docs/internals.md describes
// them), and what the other files make of them: the rows of a data file
// (rowAt, the generator's Row with its values formatted and, where it has
// one, its change computed from its two values as analysis.RelativeChange
// does) and the history of every series of a benchmark (benchHistory) for
// the charts, the tables and the compare form.

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

// benchChunks gives the chunks that have a data file of a benchmark (its
// series index says which: one that stopped or started late has none
// for the others), their length and the file of a chunk: {chunks, len,
// file(k)}. A benchmark of few series has longer chunks
// (sitemodel.ChunkLen), and one of at most sitemodel.PackSeries series
// shares the data files of its pack (the index's "pack"), whose rows of
// other benchmarks its series index leaves out; an index without its
// length has the site's.
function benchChunks(bench) {
  return fetchJSON(route("seriesIndex", {bench: bench})).then(function (idx) {
    var pack = idx.pack;
    return {
      chunks: idx.chunks || [], len: idx.chunk || site.chunk,
      file: function (k) {
        return fetchJSON(pack === undefined || pack === null ? route("series", {bench: bench, chunk: k}) : route("pack", {pack: pack, chunk: k}));
      }
    };
  });
}

var histories = {};
function benchHistory(bench) {
  if (!histories[bench]) {
    histories[bench] = benchChunks(bench).then(function (bc) {
      var files = bc.chunks.map(bc.file);
      return Promise.all(files);
    }).then(function (files) {
      // The artifacts files are by the site's chunk: those of the
      // positions the benchmark's rows are at.
      var need = {}, cs = [];
      files.forEach(function (file) {
        file.pos.forEach(function (p) {
          var c = Math.floor((file.from + p) / site.chunk);
          if (!need[c]) { need[c] = true; cs.push(c); }
        });
      });
      cs.sort(function (a, b) { return a - b; });
      var arts = cs.map(function (c) { return fetchJSON(route("artifacts", {chunk: c})); });
      return Promise.all([files, Promise.all(arts), seriesIndex(bench)]);
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
