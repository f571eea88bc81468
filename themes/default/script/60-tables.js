// Comparison tables: the rows without a relevant change, built from the
// data files when their folded table is first opened, with the markup of
// the theme's "row" template (renderRow); each metric's toolbar (filter by
// name, parameter or /regex/, parameter value, category, direction; sort;
// show the folded rows); and a row's history chart, opened under it.
// Running, it adds the expand buttons and the toolbars to the page.

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
  // chunk's artifact data, not on every page; each benchmark's data file
  // of the position is by its own chunk length (its series index).
  var chunk = Math.floor(src.position / site.chunk);
  return fetchJSON(route("artifacts", {chunk: chunk})).then(function (arts) {
    return Promise.all((arts.benches || []).map(function (b) {
      return benchChunks(b).then(function (bc) {
        return Promise.all([bc.file(Math.floor(src.position / bc.len)), seriesIndex(b)]);
      });
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
