// Step through a ruling's cycle diagrams one at a time (previous/next, the arrow keys, a click on
// a table row); in print, and without this script, every diagram shows. The arrow keys step the
// sheet on the page wherever the focus is, unless it is in a field being typed in.
function qiliSteps(root) {
  root.querySelectorAll(".qili-sheet .steps").forEach(function (box) {
    var figures = box.querySelectorAll("figure.step");
    if (figures.length < 2 || box.classList.contains("stepping")) return;
    var sheet = box.closest(".qili-sheet");
    var rows = sheet.querySelectorAll("tr[data-step]");
    var nav = document.createElement("nav");
    nav.className = "stepper";
    var prev = document.createElement("button");
    prev.type = "button";
    prev.className = "prev";
    prev.textContent = "◀ " + (box.dataset.prev || "previous");
    var next = document.createElement("button");
    next.type = "button";
    next.className = "next";
    next.textContent = (box.dataset.next || "next") + " ▶";
    var count = document.createElement("span");
    count.className = "count";
    nav.append(prev, count, next);
    box.before(nav);
    box.classList.add("stepping");
    var at = 0;
    // A sheet may draw only some steps (a window of a long cycle): figures and rows meet by step.
    var stepOf = function (k) { return Number(figures[k].dataset.step); };
    var last = rows.length ? Number(rows[rows.length - 1].dataset.step) : figures.length - 1;
    function show(i) {
      at = Math.max(0, Math.min(figures.length - 1, i));
      figures.forEach(function (f, k) { f.classList.toggle("current", k === at); });
      rows.forEach(function (r) {
        r.classList.toggle("current", Number(r.dataset.step) === stepOf(at));
      });
      count.textContent = stepOf(at) + " / " + Math.max(last, stepOf(figures.length - 1));
      // A button that would do nothing is marked so, but keeps the focus (a disabled button
      // drops it, and the keys with it).
      prev.setAttribute("aria-disabled", String(at === 0));
      next.setAttribute("aria-disabled", String(at === figures.length - 1));
      sheet.dataset.step = String(at);
    }
    prev.addEventListener("click", function () { show(at - 1); });
    next.addEventListener("click", function () { show(at + 1); });
    rows.forEach(function (r) {
      r.addEventListener("click", function () {
        var k = Array.prototype.findIndex.call(figures, function (f) {
          return f.dataset.step === r.dataset.step;
        });
        if (k >= 0) show(k);
      });
    });
    sheet.qiliStep = function (delta) { show(at + delta); };
    show(0);
  });
}

// The arrow keys step the last sheet shown, unless the focus is in a text field or a menu.
document.addEventListener("keydown", function (e) {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  var t = e.target;
  if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) return;
  var sheets = document.querySelectorAll(".qili-sheet");
  var sheet = sheets[sheets.length - 1];
  if (!sheet || !sheet.qiliStep) return;
  sheet.qiliStep(e.key === "ArrowLeft" ? -1 : 1);
  e.preventDefault();
});
document.addEventListener("DOMContentLoaded", function () { qiliSteps(document); });
