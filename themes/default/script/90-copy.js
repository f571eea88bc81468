// Copy buttons: a button before a details element copies its <pre>: the PR
// comment of a comparison, the annotations.yaml entry of a step
// (regressions page).
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
