// The compare form (/compare/): a pair the site shows already opens its
// page; any other pair of main-line commits is computed here from the
// series data files: per series, the values at both commits as the files
// store them (the values every page shows) and their relative change, as
// analysis.RelativeChange computes it. Nothing that needs the history or
// the samples (significance and the other engines) is: the page says so
// and names the command that computes it. The pair is in the page's URL
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
    return Promise.all((info.benches || []).map(function (bench) {
      return benchChunks(bench).then(function (bc) {
        var cs = bc.chunks, cb = Math.floor(b.pos / bc.len), ch = Math.floor(h.pos / bc.len);
        var files = [cb, ch].filter(function (k, i) { return cs.indexOf(k) >= 0 && (i === 0 || k !== cb); }).map(function (k) {
          return bc.file(k);
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
      // A metric whose series are better different ways (several units)
      // has no direction: each series' row says its own (Row.Better).
      var better = shared.better || m.direction;
      if (r.change !== 0) { r.dir = (better === "higher") === (r.change < 0) ? "regression" : "improvement"; }
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
