// Comparison pages' navigation: one tab per metric section (the first
// shown is the metric with the most relevant changes; arrow keys move
// between tabs), and a fragment naming a metric or a row (#row-…) that
// selects its tab and opens the folded rows around it, loading them if
// need be (loadOtherRows, 60-tables.js).

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
