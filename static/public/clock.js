// The venue screens' clock and their watch on the connection.
//
// - Every [data-clock] counts down to its data-ends (milliseconds since 1970) by the
//   server's time: each live poll's answer carries X-Server-Time, and the answer with
//   the quickest round trip of the last few says how far this device's clock is off.
//   A paused or stopped clock shows its data-remaining seconds as they are. At zero the
//   clock says "Time" and shows the event's rule ([data-clock-rule]).
// - A page that polls (htmx, every few seconds) says when it is showing old data: after
//   STALE_MS (settings.SCREEN_STALE_SECONDS) without an answer it shows since when, and hides it at the next answer.
//   The clock keeps counting meanwhile: it needs no network.
// - A live region ([data-poll], hx-trigger "every Ns") polls only while the page is
//   visible: a hidden page's polls are cancelled before they are sent, and once it is
//   shown again each region that skipped one asks at once. Not an hx-trigger filter:
//   htmx evaluates those with eval, which htmx-config and the Content-Security-Policy forbid.
(function () {
  "use strict";
  var TICK_MS = 200;
  // settings.SCREEN_STALE_SECONDS, from this script's own tag (10 s without one).
  var script = document.currentScript;
  var STALE_MS = (Number(script && script.getAttribute("data-stale-seconds")) || 10) * 1000;
  // The words the clock and the warning write, in the page's language, from the same tag.
  var TIME_UP = (script && script.getAttribute("data-time-up")) || "Time";
  var CONNECTION_LOST = (script && script.getAttribute("data-connection-lost")) ||
    "Connection lost: showing the results as of %(time)s. The clock keeps counting; trying again every few seconds.";
  var SAMPLES = 8;
  var samples = []; // {trip, offset}: the latest answers' round trips and clock offsets
  var offset = 0; // the server's time minus this device's, in milliseconds
  var lastAnswer = Date.now();
  var banner = null;

  function serverNow() {
    return Date.now() + offset;
  }

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  // Digits as the page's language writes them (Persian digits on a Persian page), as
  // the server writes the page's own numbers.
  var numerals = null;
  try {
    numerals = new Intl.NumberFormat(document.documentElement.lang || "en", { useGrouping: false });
  } catch (e) { numerals = null; }
  function digits(text) {
    if (!numerals) return text;
    return String(text).replace(/[0-9]/g, function (d) { return numerals.format(Number(d)); });
  }

  // 5400 -> "1:30:00", 754 -> "12:34", 9 -> "0:09" (as the server writes it).
  function duration(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    return hours ? hours + ":" + two(minutes) + ":" + two(rest) : minutes + ":" + two(rest);
  }

  function show(clock) {
    var state = clock.getAttribute("data-state");
    var left = Number(clock.getAttribute("data-remaining")) || 0;
    var ends = clock.getAttribute("data-ends");
    if (ends && state !== "paused") {
      left = Math.max(0, Math.ceil((Number(ends) - serverNow()) / 1000));
      state = left > 0 ? "running" : "over";
      clock.setAttribute("data-state", state);
    }
    var time = clock.querySelector("[data-clock-time]");
    var text = state === "over" ? TIME_UP : digits(duration(left));
    if (time && time.textContent !== text) time.textContent = text;
    var rule = clock.querySelector("[data-clock-rule]");
    if (rule) rule.hidden = state !== "over";
  }

  function tick() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock]"), show);
    watch();
  }

  // --- The server's time, from the live polls' answers ---------------------------------
  document.addEventListener("htmx:beforeRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr) xhr.kalookiSent = Date.now();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || !event.detail.successful) return;
    lastAnswer = Date.now();
    var told = Number(xhr.getResponseHeader("X-Server-Time"));
    if (!told || !xhr.kalookiSent) return;
    var trip = lastAnswer - xhr.kalookiSent;
    samples.push({ trip: trip, offset: told + trip / 2 - lastAnswer });
    if (samples.length > SAMPLES) samples.shift();
    var best = samples.reduce(function (a, b) { return b.trip < a.trip ? b : a; });
    offset = best.offset;
    tick();
  });

  // The server's time as a pushed message tells it (static/public/push.js): no round
  // trip to measure, so the message's own time, sent a moment before it arrived.
  document.addEventListener("kalooki:server-time", function (event) {
    lastAnswer = Date.now();
    if (!event.detail) return;
    samples.push({ trip: 0, offset: event.detail - lastAnswer });
    if (samples.length > SAMPLES) samples.shift();
    // A pushed time only ever arrives late (queued), which lowers its offset: of those,
    // the largest is the nearest.
    offset = samples.reduce(function (a, b) {
      return b.trip < a.trip || (b.trip === a.trip && b.offset > a.offset) ? b : a;
    }).offset;
    tick();
    stampAsOf();
  });

  // --- No polls while hidden -----------------------------------------------------------
  var skipped = []; // the live regions that let a poll go while the page was hidden

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.hasAttribute("data-poll") || document.visibilityState === "visible") return;
    event.preventDefault();
    if (skipped.indexOf(elt) < 0) skipped.push(elt);
  });

  // The region's own request (its hx-get, hx-swap and target), as a poll would send it;
  // htmx.trigger(elt, "every") would do nothing: "every" is a timer, not an event.
  function refresh(elt) {
    if (!elt.isConnected || !window.htmx) return;
    window.htmx.ajax("get", elt.getAttribute("hx-get"), { source: elt });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    var due = skipped;
    skipped = [];
    due.forEach(refresh);
  });

  // --- Old data: say so while the polls get no answer ----------------------------------
  function polling() {
    return document.querySelector("[data-poll]");
  }

  function clockTime(ms) {
    var d = new Date(ms);
    return digits(two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds()));
  }

  function watch() {
    if (!polling()) return;
    var stale = Date.now() - lastAnswer > STALE_MS && document.visibilityState === "visible";
    if (!stale) {
      if (banner) banner.hidden = true;
      document.body.removeAttribute("data-stale");
      return;
    }
    if (!banner) {
      banner = document.createElement("p");
      banner.className = "stale-banner";
      banner.setAttribute("role", "alert");
      banner.setAttribute("data-stale-banner", "");
      document.body.appendChild(banner);
    }
    var text = CONNECTION_LOST.replace("%(time)s", clockTime(lastAnswer));
    if (banner.textContent !== text) banner.textContent = text;
    banner.hidden = false;
    document.body.setAttribute("data-stale", "");
  }

  // A page hidden for a while polled nothing: its data is old until the next answer,
  // which comes within a poll; only then is it worth a warning.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") lastAnswer = Math.max(lastAnswer, Date.now() - STALE_MS / 2);
  });

  // The leaderboard's footer: the time of the latest answer, by the server's clock.
  function stampAsOf() {
    var when = clockTime(serverNow());
    document.querySelectorAll("[data-as-of]").forEach(function (el) {
      var time = el.querySelector("time");
      if (time) time.textContent = when;
      el.hidden = false;
    });
  }
  document.addEventListener("htmx:afterSettle", stampAsOf);

  function start() {
    stampAsOf();
    // A poll that hangs (a dropped network rather than a refused one) gives up in time.
    if (window.htmx && !window.htmx.config.timeout) window.htmx.config.timeout = 8000;
    tick();
    window.setInterval(tick, TICK_MS);
  }

  tick();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  // For the tests and the curious.
  window.kalookiClock = {
    serverNow: serverNow,
    offset: function () { return offset; },
  };
})();
