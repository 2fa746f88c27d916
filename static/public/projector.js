// Projector view: shows the list (the standings, the seating board, the field) a
// screenful at a time and turns the page every few seconds (body[data-every], in
// seconds). The server renders one page of it ([data-projector]: data-page of
// data-pages, data-per rows each); this script measures how many rows the screen holds
// (a list laid out in CSS columns holds a screenful per column), asks for pages of that
// size, and asks for the next page as it turns (the section's data-turn-url). The live
// poll (htmx) keeps the page being shown; a resize measures again.
(function () {
  "use strict";
  var every = Math.max(1, Number(document.body.dataset.every) || 10) * 1000;
  var MOST = 200;
  var rows = null; // rows per page on this screen, once measured
  var turning = false;
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

  // How many rows fit between the first row's top and the note at the bottom (or the
  // screen's bottom), per column; null while the list is empty.
  function measure(section) {
    var list = section.querySelector("[data-rows]");
    var first = list && list.children[0];
    if (!first) return null;
    var top = first.getBoundingClientRect();
    var note = section.querySelector(".pj-note");
    var bottom = note ? note.getBoundingClientRect().top : window.innerHeight;
    bottom = Math.min(bottom, window.innerHeight);
    var perColumn = Math.max(1, Math.floor((bottom - top.top) / Math.max(top.height, 1)));
    return Math.max(5, Math.min(MOST, perColumn * columns(list)));
  }

  function load(section, page, animate) {
    turning = animate;
    var url = section.dataset.turnUrl.replace(/rows=\d+/, "rows=" + rows) + "&page=" + page;
    window.htmx.ajax("GET", url, { target: section, swap: "outerHTML" });
  }

  // The page the section shows, in the reader's numerals.
  function label(section) {
    var shown = section.querySelector("[data-shown]");
    var total = section.querySelector("[data-count]");
    if (shown) shown.textContent = number(Number(section.dataset.page) || 1);
    if (total) total.textContent = number(Number(section.dataset.pages) || 1);
  }

  // Measured again (a first load, a resize): when the screen holds another number of
  // rows than the page has, the rows past the screen are hidden at once and the page
  // holding the first row shown is asked for in the size that fits.
  function fit() {
    var section = board();
    if (!section) return;
    label(section);
    var measured = measure(section);
    if (measured === null) return;
    var per = Number(section.dataset.per) || measured;
    rows = measured;
    if (measured !== per) {
      var list = section.querySelector("[data-rows]");
      Array.prototype.forEach.call(list.children, function (row, i) { row.hidden = i >= measured; });
      var page = Math.floor((Number(section.dataset.page) - 1) * per / measured) + 1;
      var total = Number(section.dataset.total) || 0;
      section.dataset.per = String(measured);
      section.dataset.page = String(page);
      section.dataset.pages = String(Math.max(1, Math.ceil(total / measured)));
      label(section);
      load(section, page, false);
    }
  }

  function turn() {
    var section = board();
    if (!section || !section.dataset.turnUrl) return;
    var pages = Number(section.dataset.pages) || 1;
    var page = Number(section.dataset.page) || 1;
    if (rows === null) rows = Number(section.dataset.per);
    if (pages <= 1) return;
    load(section, page >= pages ? 1 : page + 1, true);
  }

  function start() {
    fit();
    window.setInterval(turn, every);
    window.addEventListener("resize", fit);
    // Right after htmx puts the new board in, before the browser paints it. A board of
    // another kind (the seating gives way to the standings) starts at its first page.
    var phase = board() && board().dataset.phase;
    document.body.addEventListener("htmx:afterSwap", function () {
      var section = board();
      if (!section) return;
      var now = section.dataset.phase;
      var changed = now !== phase;
      phase = now;
      label(section);
      if (changed && Number(section.dataset.page) !== 1) {
        load(section, 1, false);
        return;
      }
      if (changed || rows === null) {
        fit();
      }
      var list = section.querySelector("[data-rows]");
      if (turning && list) {
        list.classList.add("turning");
      }
      turning = false;
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
