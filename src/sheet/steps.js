// Step through a ruling's cycle diagrams one at a time (previous/next, arrow keys, a click on a
// table row); in print, and without this script, every diagram shows.
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
    function show(i) {
      at = Math.max(0, Math.min(figures.length - 1, i));
      figures.forEach(function (f, k) { f.classList.toggle("current", k === at); });
      rows.forEach(function (r) { r.classList.toggle("current", Number(r.dataset.step) === at); });
      count.textContent = at + " / " + (figures.length - 1);
      prev.disabled = at === 0;
      next.disabled = at === figures.length - 1;
    }
    prev.addEventListener("click", function () { show(at - 1); });
    next.addEventListener("click", function () { show(at + 1); });
    rows.forEach(function (r) { r.addEventListener("click", function () { show(Number(r.dataset.step)); }); });
    sheet.tabIndex = -1;
    sheet.addEventListener("keydown", function (e) {
      if (e.key === "ArrowLeft") show(at - 1);
      if (e.key === "ArrowRight") show(at + 1);
    });
    show(0);
  });
}
document.addEventListener("DOMContentLoaded", function () { qiliSteps(document); });
