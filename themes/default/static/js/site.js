// perfpages: progressive enhancement only. Every page is complete without
// JavaScript (all tables are in the HTML); this adds, on comparison pages,
// one tab per metric, a toolbar above each metric's tables (filter by name,
// parameter or /regex/, by parameter value, category and direction, show the
// rows without a relevant change, sort), and "copy as Markdown".
(function () {
  "use strict";

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

  // --- Tabs: one per metric section ---------------------------------------
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
    showSection(sections[0]);
  }

  // A fragment naming a metric or a row selects its tab and, for a row, opens
  // the folded rows around it.
  function followHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
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

  // --- Toolbars ------------------------------------------------------------
  function toolbar(scope, tables) {
    var rows = [];
    tables.forEach(function (t) {
      Array.prototype.forEach.call(t.tBodies[0] ? t.tBodies[0].rows : [], function (tr, i) {
        tr.setAttribute("data-order", String(i));
        rows.push(tr);
      });
    });
    if (rows.length === 0) { return; }
    var box = el("div", {"class": "toolbar", role: "search"});
    var input = el("input", {type: "search", "class": "filter", placeholder: "Filter: benchmark, key=value, machine or /regex/", "aria-label": "Filter rows"});
    box.appendChild(input);

    var params = {};
    rows.forEach(function (tr) {
      tr.querySelectorAll(".param").forEach(function (p) { params[p.textContent] = true; });
    });
    var paramList = Object.keys(params).sort();
    var paramSel = null;
    if (paramList.length > 1) {
      paramSel = select("filter-param", "Parameter value", [["", "All parameters"]].concat(paramList.map(function (p) { return [p, p]; })));
      box.appendChild(paramSel);
    }
    var cats = {};
    rows.forEach(function (tr) { cats[tr.getAttribute("data-cat") || "primary"] = true; });
    var catSel = null;
    if (Object.keys(cats).length > 1) {
      catSel = select("filter-cat", "Category", [["", "All categories"], ["primary", "Primary"], ["secondary", "Secondary"]]);
      box.appendChild(catSel);
    }
    var dirSel = select("filter-dir", "Direction", [["", "Regressions and improvements"], ["regression", "Regressions only"], ["improvement", "Improvements only"]]);
    box.appendChild(dirSel);
    var sortSel = select("sort", "Sort rows", [["change", "Sort by |% change|"], ["factor", "Sort by significance factor"], ["name", "Sort by name"]]);
    box.appendChild(sortSel);

    var others = Array.prototype.slice.call(scope.querySelectorAll("details.other-rows"));
    var otherBox = null;
    if (others.length > 0) {
      var n = others.reduce(function (acc, d) { return acc + d.querySelectorAll("tbody tr").length; }, 0);
      var label = el("label", {"class": "show-other"});
      otherBox = el("input", {type: "checkbox"});
      label.appendChild(otherBox);
      label.appendChild(document.createTextNode(" show " + n + " without a relevant change"));
      box.appendChild(label);
      otherBox.addEventListener("change", function () {
        others.forEach(function (d) { d.open = otherBox.checked; });
      });
      others.forEach(function (d) {
        d.addEventListener("toggle", function () { otherBox.checked = others.some(function (x) { return x.open; }); });
      });
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
      var param = paramSel ? paramSel.value : "";
      var cat = catSel ? catSel.value : "";
      var dir = dirSel.value;
      var shown = 0;
      rows.forEach(function (tr) {
        var ok = match(tr.textContent.replace(/\s+/g, " ")) &&
          (param === "" || Array.prototype.some.call(tr.querySelectorAll(".param"), function (p) { return p.textContent === param; })) &&
          (cat === "" || (tr.getAttribute("data-cat") || "primary") === cat) &&
          (dir === "" || tr.getAttribute("data-dir") === dir);
        tr.hidden = !ok;
        if (ok) { shown++; }
      });
      count.textContent = shown === rows.length ? "" : shown + " of " + rows.length + " rows";
    }

    function key(tr, by) {
      if (by === "name") { return 0; }
      var v = parseFloat(tr.getAttribute(by === "factor" ? "data-factor" : "data-change"));
      return isNaN(v) ? -1 : Math.abs(v);
    }
    function sort() {
      collapseAll(scope);
      var by = sortSel.value;
      tables.forEach(function (t) {
        var body = t.tBodies[0];
        if (!body) { return; }
        var list = Array.prototype.slice.call(body.rows);
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
    [paramSel, catSel, dirSel].forEach(function (s) { if (s) { s.addEventListener("change", apply); } });
    sortSel.addEventListener("change", sort);
    var anchor = tables[0].closest("details.other-rows") || tables[0].closest(".table-scroll") || tables[0];
    anchor.parentNode.insertBefore(box, anchor);
    // The toolbar serves every table of the metric: put it above the first
    // table's heading.
    var h3 = box.previousElementSibling;
    if (h3 && h3.tagName === "H3") { h3.parentNode.insertBefore(box, h3); }
  }

  // --- Expandable rows: the series' history chart under its row ------------
  var chartData = {};
  function fetchData(src) {
    if (!chartData[src]) {
      chartData[src] = fetch(src).then(function (r) {
        if (!r.ok) { throw new Error(src + ": " + r.status); }
        return r.json();
      });
    }
    return chartData[src];
  }
  function drawHistory(div, d) {
    var css = getComputedStyle(document.documentElement);
    var fg = css.getPropertyValue("--fg").trim() || "#333", mu = css.getPropertyValue("--muted").trim() || "#666";
    var axis = {axisLabel: {color: mu}, nameTextStyle: {color: mu}};
    var styles = {
      regression: {symbol: "triangle", color: "#e5534b"},
      improvement: {symbol: "path://M0,0L10,0L5,9Z", color: "#2da44e"},
      annotation: {symbol: "pin", color: "#8250df"}
    };
    var series = d.s.map(function (data, i) {
      var name = (d.n || [])[i] || "";
      if (i === 0) {
        return {name: name, type: "line", data: data, showSymbol: true, symbolSize: 4, connectNulls: false,
          markLine: d.f ? {symbol: ["none", "none"], label: {show: false}, lineStyle: {type: "dashed", color: "#bf8700"}, data: d.f} : undefined};
      }
      if (styles[name]) {
        return {name: name, type: "scatter", data: data, symbol: styles[name].symbol, symbolSize: name === "annotation" ? 16 : 10,
          itemStyle: {color: styles[name].color}};
      }
      return {name: name, type: "line", stack: "band", data: data, showSymbol: false,
        lineStyle: {opacity: 0}, areaStyle: i === 2 ? {color: "rgba(84,112,198,0.16)"} : undefined,
        itemStyle: {color: "rgba(84,112,198,0.16)"}};
    });
    var chart = echarts.init(div, null, {renderer: "svg"});
    chart.setOption({
      animation: false, useUTC: true, textStyle: {color: fg},
      grid: {left: 8, right: 24, top: 24, bottom: 40, containLabel: true},
      tooltip: {trigger: "axis", confine: true, formatter: function (ps) {
        var p = [].concat(ps).filter(function (x) { return x.seriesIndex === 0; })[0];
        if (!p) { return ""; }
        var e = echarts.format.encodeHTML, it = p.data;
        var sha = /\/commit\/([0-9a-f]{7})[0-9a-f]*\/$/.exec(it.u || "");
        return "<b>" + e(it.name) + "</b> " + (sha && String(it.name).indexOf(sha[1]) < 0 ? "<code>" + sha[1] + "</code> " : "") + e(it.d || "") + (it.t ? "<br>" + e(it.t) : "") + "<br><b>" + (it.f ? e(it.f) : "failed") + "</b>" + (it.r ? "<br>expected " + e(it.r) : "");
      }},
      xAxis: Object.assign({type: "time"}, axis),
      yAxis: Object.assign({type: "value", scale: true, name: d.y || ""}, axis),
      dataZoom: [{type: "inside", filterMode: "none", zoomOnMouseWheel: "ctrl"}, {type: "slider", filterMode: "none", height: 16, bottom: 6}],
      series: series
    });
    chart.on("click", function (p) { if (p.data && p.data.u) { window.location.href = p.data.u; } });
    if (window.ResizeObserver) { new ResizeObserver(function () { chart.resize(); }).observe(div); }
  }
  function expandable(tr) {
    // The benchmark's data file sits beside its page: /…/bench/<b>/ → /…/data/bench/<b>.json.
    var link = tr.cells.length ? tr.cells[0].querySelector("a[href]") : null;
    var m = link && /^(.*\/)bench\/([^\/]+)\/$/.exec(link.getAttribute("href"));
    var id = tr.getAttribute("data-chart"), src = m ? m[1] + "data/bench/" + m[2] + ".json" : "";
    if (!id || !src || typeof echarts !== "object" || !tr.cells.length) { return; }
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
      fetchData(src).then(function (all) {
        var d = all[id];
        if (!d) { div.textContent = "No history chart for this series."; return; }
        drawHistory(div, d);
        div.setAttribute("data-loaded", "");
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
  document.querySelectorAll("table.rows tbody tr[data-chart]").forEach(expandable);

  if (sections.length > 0) {
    sections.forEach(function (sec) {
      toolbar(sec, Array.prototype.slice.call(sec.querySelectorAll("table.rows")));
    });
  } else {
    // Other tables of rows (first commit pages): a plain filter each.
    document.querySelectorAll("table.rows").forEach(function (t) { toolbar(t.parentNode, [t]); });
  }

  // --- Bench pages: machine and metric selectors, log scale, annotation ----
  // snippets for the point under the pointer.
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
    var logLabel = el("label", {"class": "log-scale"});
    var logBox = el("input", {type: "checkbox"});
    logLabel.appendChild(logBox);
    logLabel.appendChild(document.createTextNode(" log scale"));
    tools.appendChild(logLabel);
    var setLog = function () {
      instances().forEach(function (c) {
        c.setOption({yAxis: {type: logBox.checked ? "log" : "value"}});
      });
    };
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
    logBox.addEventListener("change", setLog);
    var first = series[0];
    first.parentNode.insertBefore(tools, document.querySelector("nav.toc") || first);

    // The annotation snippet of the point under the pointer: hovering a
    // point fills it in; it stays when the pointer leaves the chart, so
    // it can be copied. (A click on the chart opens the commit page.)
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
  }

  // --- Copy as Markdown ------------------------------------------------------
  document.querySelectorAll("details.pr-markdown").forEach(function (d) {
    var pre = d.querySelector("pre");
    if (!pre) { return; }
    var b = el("button", {type: "button", "class": "copy-markdown"}, "Copy as Markdown");
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
  });
})();
