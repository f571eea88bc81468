// perfpages: progressive enhancement only. Every page is complete without
// JavaScript; this adds a name filter above each comparison table.
(function () {
  "use strict";
  document.querySelectorAll("table.rows").forEach(function (table) {
    var input = document.createElement("input");
    input.type = "search";
    input.className = "filter";
    input.placeholder = "Filter by benchmark, parameter or machine";
    input.setAttribute("aria-label", "Filter rows");
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      table.querySelectorAll("tbody tr").forEach(function (tr) {
        tr.hidden = q !== "" && tr.textContent.toLowerCase().indexOf(q) < 0;
      });
    });
    table.parentNode.insertBefore(input, table);
  });
})();
