/* The director's table sheet, keyboard first.
 *
 * - Enter in any box of a hand row saves that row (through HTMX) and puts the cursor
 *   on the first box of the next row; Tab moves across a row, then to the next.
 * - A seat's box takes points ("23") or the cards left in hand ("JK AS 10H"); for
 *   cards, the points show as they are typed, counted exactly as RULES.md,
 *   "Penalty value of a card left in hand" (the server counts them again on save).
 * - After a refused save, the cursor goes back to the first box that is wrong.
 */
(function () {
  "use strict";

  // --- The page's language ------------------------------------------------------------
  // Every word this script writes comes from the page, translated: the layout puts
  // them on this script's own tag (data-*, with %(name)s where a value goes in).
  var script = document.currentScript;
  function words(name, values) {
    var text = (script && script.getAttribute("data-" + name)) || "";
    return text.replace(/%\((\w+)\)s/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values || {}, key) ? values[key] : whole;
    });
  }

  // Numbers as the page's language writes them (Persian digits on a Persian page), as
  // the server writes the page's own numbers.
  var lang = document.documentElement.lang || "en";
  var numerals = null;
  try {
    numerals = new Intl.NumberFormat(lang, { useGrouping: false });
  } catch (e) { numerals = null; }
  function number(n) {
    return numerals ? numerals.format(n) : String(n);
  }

  // "= 82 (4 cards)" in the page's plural forms: the layout gives the phrase as it reads
  // for 1, 2 and 5, and the language's plural rule says which of them a count takes.
  var plurals = null;
  try {
    plurals = new Intl.PluralRules(lang);
  } catch (e) { plurals = null; }
  var SAMPLE = { zero: 5, one: 1, two: 2, few: 2, many: 5, other: 5 };
  function counted(name, count, values) {
    var kind = plurals ? plurals.select(count) : (count === 1 ? "one" : "other");
    return words(name + "-" + (SAMPLE[kind] || 5), values);
  }

  // Digits typed on a Persian or Arabic keyboard (۱۲, ١٢) read as the server reads
  // them (kalooki_site.digits): as 12.
  function ascii(text) {
    return text.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, function (d) {
      var code = d.charCodeAt(0);
      return String(code - (code >= 0x06F0 ? 0x06F0 : 0x0660));
    });
  }

  // --- Card values (RULES.md): joker 50, black ace 15, 10 J Q K 10, 2-9 face, red ace 1.
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUITS = ["S", "H", "D", "C"];
  // Also as the server reads them: T for ten, the suit symbols (filled or outline), JOKER.
  var SYMBOLS = {
    "\u2660": "S", "\u2664": "S", "\u2665": "H", "\u2661": "H",
    "\u2666": "D", "\u2662": "D", "\u2663": "C", "\u2667": "C"
  };
  var WHOLE = /^[+-]?\d+$/;
  var DASHES = ["-", "\u2013", "\u2014"];

  function cardPoints(rank, suit) {
    if (rank === "A") return suit === "S" || suit === "C" ? 15 : 1;
    if (rank === "10" || rank === "J" || rank === "Q" || rank === "K") return 10;
    return parseInt(rank, 10);
  }

  // The same notation the server reads (game/cards.py): separated by spaces or commas,
  // any case, with any keyboard's digits.
  function readCards(text) {
    var tokens = text.split(/[\s,]+/).filter(Boolean);
    var points = 0;
    for (var i = 0; i < tokens.length; i++) {
      var token = tokens[i];
      var t = ascii(token).toUpperCase().replace(/\uFE0F/g, "");
      var last = i === tokens.length - 1;
      var named = { card: token };
      if (t === "JK" || t === "JOKER") { points += 50; continue; }
      // "J", "JO", "JOK": a joker half typed, or a jack waiting for its suit.
      if (last && "JOKER".indexOf(t) === 0) return { error: words("no-suit", named), last: true };
      if (t.indexOf("JK") === 0 || t.indexOf("JOKER") === 0) return { error: words("joker-suit", named), last: false };
      var ten = t.indexOf("10") === 0;
      var rank = ten ? "10" : t.slice(0, 1);
      var suit = ten ? t.slice(2) : t.slice(1);
      if (rank === "T") rank = "10";
      if (RANKS.indexOf(rank) < 0 && !(last && t === "1")) return { error: words("not-a-card", named) };
      // A rank alone (or "J", which may yet become a joker) is a card half typed.
      if (!suit) return { error: words("no-suit", named), last: last };
      suit = suit.replace(/./g, function (c) { return SYMBOLS[c] || c; });
      if (SUITS.indexOf(suit) < 0) return { error: words("unknown-suit", named) };
      points += cardPoints(rank, suit);
    }
    return { points: points, count: tokens.length };
  }

  function showPoints(input) {
    var out = document.getElementById(input.id + "-calc");
    if (!out) return;
    var text = input.value.trim();
    out.classList.remove("calc-error");
    if (!text || WHOLE.test(ascii(text)) || DASHES.indexOf(text) >= 0) {
      out.textContent = "";
      return;
    }
    var read = readCards(text);
    // The last card still being typed ("10" before its suit): count the ones before it.
    var typing = /[^\s,]$/.test(input.value) && read.error && read.last;
    if (typing) {
      var before = readCards(text.replace(/[^\s,]+$/, ""));
      if (!before.error) {
        out.textContent = words("so-far", { points: number(before.points) });
        return;
      }
    }
    if (read.error) {
      out.textContent = read.error;
      out.classList.add("calc-error");
    } else {
      out.textContent = counted("cards", read.count, { points: number(read.points), cards: number(read.count) });
    }
  }

  // --- Moving through the grid ----------------------------------------------------
  function handForm(el) {
    var form = el && el.form;
    return form && form.classList.contains("hand-form") ? form : null;
  }

  function fields(row) {
    return Array.prototype.filter.call(
      row.querySelectorAll("input:not([type=hidden]), select, button.save"),
      function (el) { return !el.disabled; }
    );
  }

  function focusField(el) {
    if (!el) return false;
    el.focus();
    if (el.tagName === "INPUT" && el.type === "text") el.select();
    return true;
  }

  function focusNext(row) {
    var next = row.nextElementSibling;
    while (next && !(next.matches("tbody.hand") && fields(next).length)) next = next.nextElementSibling;
    if (next) return focusField(fields(next)[0]);
    return focusField(document.getElementById("lock-table") || document.getElementById("next-table"));
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
    var field = event.target;
    var form = handForm(field);
    if (!form || field.tagName === "A" || field.tagName === "TEXTAREA") return;
    // Enter saves this row, never something else (a checkbox, a select, another form).
    event.preventDefault();
    var row = form.closest("tbody.hand");
    focusNext(row);
    form.requestSubmit();
  });

  // --- Touch screens: a letter keyboard in the seat boxes to type cards -------------
  var KEYBOARD = "kalooki.cardsKeyboard";

  function keyboardMode(root) {
    var toggle = document.getElementById("cards-keyboard");
    var mode = toggle && toggle.checked ? "text" : "numeric";
    root.querySelectorAll(".seat-input").forEach(function (input) { input.inputMode = mode; });
  }

  document.addEventListener("change", function (event) {
    if (event.target.id !== "cards-keyboard") return;
    try { localStorage.setItem(KEYBOARD, event.target.checked ? "1" : ""); } catch (e) { /* private mode */ }
    keyboardMode(document);
  });

  document.addEventListener("input", function (event) {
    if (event.target.classList && event.target.classList.contains("seat-input")) showPoints(event.target);
  });

  // A form that asks first (force close, delete a hand).
  document.addEventListener("submit", function (event) {
    var question = event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });

  // A new event's address follows its name until the director types one of their own.
  document.querySelectorAll("form[data-slug-from-name]").forEach(function (form) {
    var name = form.querySelector("[name=name]");
    var slug = form.querySelector("[name=slug]");
    if (!name || !slug) return;
    var own = slug.value !== "";
    slug.addEventListener("input", function () { own = slug.value !== ""; });
    name.addEventListener("input", function () {
      if (own) return;
      slug.value = name.value.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
        .toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80);
    });
  });

  // An action's result, kept in view at the top until the director dismisses it.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".flash-dismiss") : null;
    if (button) button.parentNode.remove();
  });

  // A link that asks first (printing QR codes that point at a loopback address).
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-confirm]") : null;
    if (link && !window.confirm(link.getAttribute("data-confirm"))) event.preventDefault();
  });

  // --- New content: the page, or a row HTMX has just swapped in ---------------------
  function prepare(root) {
    keyboardMode(root);
    root.querySelectorAll("tbody.hand[data-state=error] .seat-input, tbody.hand[data-state=stale] .seat-input")
      .forEach(showPoints);
  }

  // The players' entries panel follows the sheet: a hand just saved (or refused as
  // saved by someone else) may have settled an entry the panel shows. It asks as its
  // poll does, and hears 204 when nothing changed.
  function refreshEntries() {
    var live = document.getElementById("player-entries-live");
    if (live && window.htmx) window.htmx.ajax("get", live.getAttribute("hx-get"), { source: live });
  }

  function afterSwap(row) {
    var state = row.getAttribute("data-state");
    if (state === "saved" || state === "redealt" || state === "stale") refreshEntries();
    var lost = !document.activeElement || document.activeElement === document.body;
    if (state === "error") {
      focusField(row.querySelector("[aria-invalid=true]:not([disabled])") || fields(row)[0]);
    } else if (state === "stale") {
      focusField(row.querySelector("button.reload"));
    } else if (state === "redealt") {
      // A redeal: the same hand is dealt again, so its fresh row takes the scores.
      focusField(fields(row)[0]);
    } else if (lost && state === "saved") {
      focusNext(row);
    } else if (lost) {
      focusField(fields(row)[0]);
    }
  }

  // --- A save that never got an answer (the venue's network, a server error) -------
  // Nothing was swapped, so the row still holds what was typed: say so beside it.
  function unsaved(event) {
    var form = event.detail && event.detail.elt;
    if (!form || !form.classList || !form.classList.contains("hand-form")) return;
    var row = form.closest("tbody.hand");
    var status = event.detail.xhr && event.detail.xhr.status;
    var hand = number(Number(row.getAttribute("data-hand")));
    var said = event.type === "htmx:sendError" || !status
      ? words("unreached", { hand: hand })
      : words("server-error", { hand: hand, status: number(status) });
    var messages = row.querySelector("tr.row-messages.unsent");
    if (!messages) {
      messages = document.createElement("tr");
      messages.className = "row-messages unsent";
      var cell = document.createElement("td");
      cell.colSpan = row.rows[0].cells.length;
      var alertBox = document.createElement("div");  // the alert holds the list: it stays a list
      alertBox.setAttribute("role", "alert");
      var list = document.createElement("ul");
      list.appendChild(document.createElement("li"));
      alertBox.appendChild(list);
      cell.appendChild(alertBox);
      messages.appendChild(cell);
      row.appendChild(messages);
    }
    messages.querySelector("li").textContent = said;
    row.setAttribute("data-state", "unsent");
    row.classList.add("state-error");
    focusField(fields(row)[0]);
  }
  document.addEventListener("htmx:sendError", unsaved);
  document.addEventListener("htmx:responseError", unsaved);

  function start() {
    var toggle = document.getElementById("cards-keyboard");
    if (toggle) {
      try { toggle.checked = localStorage.getItem(KEYBOARD) === "1"; } catch (e) { /* private mode */ }
    }
    prepare(document);
    if (window.htmx) {
      window.htmx.onLoad(function (elt) {
        if (elt === document.body) return;
        prepare(elt);
        if (elt.matches && elt.matches("tbody.hand")) afterSwap(elt);
      });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  // For the tests and the curious: the same count the page shows.
  window.kalookiCards = readCards;
})();
