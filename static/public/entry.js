/* The players' entry page. Points are typed on the number pad; to type cards ("JK AS
 * 10H") a player switches the seat boxes to the letter keyboard, and the page
 * remembers the choice on this phone. The hand form says when its hand changed at the
 * table meanwhile (the live region polls). */
(function () {
  "use strict";
  var KEY = "kalooki-cards-keyboard";

  // The words this script writes, translated by the page on this script's own tag
  // (data-*, with %(name)s where a number goes in), and the numbers in the page's digits.
  var script = document.currentScript;
  var numerals = null;
  try {
    numerals = new Intl.NumberFormat(document.documentElement.lang || "en", { useGrouping: false });
  } catch (e) { numerals = null; }
  function words(name, values) {
    var text = (script && script.getAttribute("data-" + name)) || "";
    return text.replace(/%\((\w+)\)s/g, function (whole, key) {
      if (!Object.prototype.hasOwnProperty.call(values, key)) return whole;
      var n = Number(values[key]);
      return numerals && values[key] !== "" && !isNaN(n) ? numerals.format(n) : values[key];
    });
  }

  function apply(letters) {
    var boxes = document.querySelectorAll(".seat-input");
    for (var i = 0; i < boxes.length; i++) {
      boxes[i].setAttribute("inputmode", letters ? "text" : "numeric");
    }
  }

  function setUp() {
    var toggle = document.getElementById("cards-keyboard");
    if (!toggle) return;
    var stored = false;
    try { stored = window.localStorage.getItem(KEY) === "1"; } catch (e) { /* private mode */ }
    toggle.checked = stored;
    apply(stored);
    toggle.addEventListener("change", function () {
      apply(toggle.checked);
      try { window.localStorage.setItem(KEY, toggle.checked ? "1" : "0"); } catch (e) { /* ignore */ }
    });
  }

  // The hand form follows the table: once the live region shows the form's hand
  // entered, disputed or recorded meanwhile, the form says so before anyone sends it.
  // A hand another player disputed, or one recorded, cannot be sent from here.
  function follow() {
    var form = document.getElementById("hand-form");
    var note = document.getElementById("form-now");
    if (!form || !note) return;
    var hand = form.getAttribute("data-hand");
    var me = form.getAttribute("data-seat");
    var card = document.getElementById("proposal-" + hand);
    var row = document.querySelector("#sheet tr[data-hand='" + hand + "']");
    var state = card ? card.getAttribute("data-state") : "";
    var text = "";
    var closed = false;
    if (row && row.classList.contains("scored")) {
      text = words("recorded", { hand: hand });
      closed = true;
    } else if (state === "disputed" && card.getAttribute("data-disputed") !== me) {
      text = words("disputed", { hand: hand, seat: card.getAttribute("data-disputed") });
      closed = true;
    } else if (state === "pending" && card.getAttribute("data-entered") !== me &&
               card.getAttribute("data-version") !== form.getAttribute("data-shown")) {
      text = words("entered", { hand: hand, seat: card.getAttribute("data-entered") });
    }
    if (!text) return;
    note.textContent = text;
    note.hidden = false;
    var buttons = form.querySelectorAll("button[type=submit]");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = closed;
  }

  document.addEventListener("htmx:afterSettle", follow);

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
