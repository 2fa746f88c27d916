// Projector view: shows the list on screen (the standings, the seating board, the field:
// the children of [data-rows]) a screenful at a time and turns the page every few
// seconds (body[data-every], in seconds). A list laid out in columns (CSS columns) holds
// a screenful per column. A live update (htmx swapping in a new board) keeps the page
// being shown; a resize re-measures how many rows fit.
(function () {
  "use strict";
  var every = Math.max(1, Number(document.body.dataset.every) || 10) * 1000;
  var page = 0;
  // Page numbers as the page's language writes them (Persian digits on a Persian page).
  var numerals = null;
  try {
    numerals = new Intl.NumberFormat(document.documentElement.lang || "en", { useGrouping: false });
  } catch (e) { numerals = null; }
  function number(n) {
    return numerals ? numerals.format(n) : String(n);
  }

  function board() {
    return document.querySelector("[data-projector]");
  }

  function columns(list) {
    var count = parseInt(window.getComputedStyle(list).columnCount, 10);
    return count > 1 ? count : 1;
  }

  function rowsPerPage(section, list, rows) {
    rows.forEach(function (row, i) { row.hidden = i !== 0; });
    var first = rows[0].getBoundingClientRect();
    var note = section.querySelector(".pj-note");
    var bottom = note ? note.getBoundingClientRect().top : window.innerHeight;
    bottom = Math.min(bottom, window.innerHeight);
    var perColumn = Math.max(1, Math.floor((bottom - first.top) / Math.max(first.height, 1)));
    return perColumn * columns(list);
  }

  function show(animate) {
    var section = board();
    if (!section) return;
    var list = section.querySelector("[data-rows]");
    var rows = list ? Array.prototype.slice.call(list.children) : [];
    var pages = 1;
    if (rows.length) {
      var per = rowsPerPage(section, list, rows);
      pages = Math.ceil(rows.length / per);
      if (page >= pages) page = 0;
      rows.forEach(function (row, i) { row.hidden = Math.floor(i / per) !== page; });
      if (animate) {
        list.classList.remove("turning");
        void list.offsetWidth; // restart the animation
        list.classList.add("turning");
      }
    } else {
      page = 0;
    }
    section.dataset.page = String(page + 1);
    section.dataset.pages = String(pages);
    var shown = section.querySelector("[data-shown]");
    var total = section.querySelector("[data-count]");
    if (shown) shown.textContent = number(page + 1);
    if (total) total.textContent = number(pages);
  }

  function turn() {
    page += 1;
    show(true);
  }

  function start() {
    show(false);
    window.setInterval(turn, every);
    window.addEventListener("resize", function () { show(false); });
    // Right after htmx puts the new board in, before the browser paints it. A board of
    // another kind (the seating gives way to the standings) starts at its first page.
    var phase = board() && board().dataset.phase;
    document.body.addEventListener("htmx:afterSwap", function () {
      var now = board() && board().dataset.phase;
      if (now !== phase) page = 0;
      phase = now;
      show(false);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
