// Bench pages: machine and metric selectors, the view's check boxes
// (absolute values, log scale; 40-charts.js draws what they say), the
// annotations.yaml snippet of the point under the pointer, and the history
// tables, filled from the series' data when opened.

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
        // The count is the data's, not the page's: a page that named it
        // would change with every new result (and be written again by
        // every nightly build).
        var sum = d.querySelector("summary");
        sum.appendChild(document.createTextNode(": " + pts.length + " main-line result" + (pts.length === 1 ? "" : "s")));
        if (pts.length > shown.length) {
          sum.appendChild(document.createTextNode(" (the newest " + shown.length + " shown)"));
        }
        d.setAttribute("data-loaded", "");
      }).catch(function (err) { d.setAttribute("data-error", String(err)); });
    };
    d.addEventListener("toggle", fill);
    fill();
  });
}
