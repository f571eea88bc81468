// perfpages: progressive enhancement. Every page reads without JavaScript
// (a comparison page pre-renders its summary and its relevant rows); the
// site's script, assets/js/site.js, adds what needs data or interaction:
//
//   - every chart of the site, drawn by one renderer (40-charts.js);
//   - on comparison pages: one tab per metric (50-tabs.js); a toolbar per
//     metric, the rows without a relevant change (loaded from the data
//     files when shown) and each row's history chart (60-tables.js);
//     "copy as Markdown" (90-copy.js);
//   - on bench pages: machine and metric selectors, absolute values and
//     log scale, the annotations.yaml snippet of the point under the
//     pointer, the history tables (70-bench.js);
//   - on the compare page: any pair of main-line commits, compared from the
//     data files (80-compare.js);
//   - on the regressions page: a button that copies a step's
//     annotations.yaml entry (90-copy.js).
//
// The generator writes site.js from the files of the theme's script/
// folder: it concatenates them in name order inside one function, so that
// they share its scope as the files of a Go package share theirs: a name
// one file declares is every file's, and no file imports another. Any file
// may call a function of any other; a variable is set when its file runs,
// so code that runs at once reads only the variables of the files before
// it (site, view, chartsDrawn, sections). The files that act on the page as
// they run (charts, tabs, tables, bench pages, the compare form, copy
// buttons) do so in name order. A theme replaces one file with a file of
// the same name in its own script/ folder, or the whole script with
// static/js/site.js.
//
// What a number means (thresholds, verdicts, significance, steps) is the
// generator's: it comes in the pages and the data files. The script formats
// the data files' values as the generator does (20-format.js), derives a
// row's change from its two values (30-data.js), picks the charts' axes
// (40-charts.js) and compares two commits' values (80-compare.js).
//
// This file: the site's settings (<body data-site>: the base path, the URL
// table, the chunk size, the band's z; 40-charts.js adds the units) and the
// DOM helpers every file uses.
"use strict";

var body = document.body;
var site = JSON.parse(body.getAttribute("data-site") || "{}");

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
