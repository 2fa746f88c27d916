// A live region the server pushes to (public/push.py), when the region says where
// ([data-push]; settings.LIVE_PUSH): a leaderboard is sent its new region ("region"), a
// table's entry page is told its table changed ("changed") and asks for its own region
// once. While the stream is open the region's own poll is held back; when it breaks the
// poll goes on as before, and the stream is opened again (the browser does so itself
// after a dropped connection; after a refusal, a 502 from a proxy while the push server
// restarts say, this script does, waiting longer each time), so the page stays live
// either way.
(function () {
  "use strict";
  var first = document.querySelector("[data-push]");
  if (!first || !window.EventSource) return;
  var id = first.id;
  var address = first.getAttribute("data-push");
  var open = false;
  var wait = 3000; // before opening a refused stream again; doubles up to WAIT_MOST
  var WAIT_MOST = 120000;
  // "changed" messages received, and the latest of them an answer has covered: a
  // request the page sends while it is behind goes through, whenever it is sent (at
  // once, queued behind one in flight, or when a hidden page is shown again).
  var changes = 0;
  var answered = 0;

  function region() { return document.getElementById(id); }

  function ask() {
    var current = region();
    if (current && window.htmx) window.htmx.ajax("get", current.getAttribute("hx-get"), { source: current });
  }

  function connect() {
    var source = new EventSource(address);
    source.addEventListener("open", function () { open = true; wait = 3000; });
    source.addEventListener("error", function () {
      open = false;
      if (source.readyState !== EventSource.CLOSED) return; // the browser tries again itself
      window.setTimeout(connect, wait + Math.random() * wait);
      wait = Math.min(wait * 2, WAIT_MOST);
    });
    source.addEventListener("region", function (event) {
      var current = region();
      if (current && window.htmx) window.htmx.swap(current, event.data, { swapStyle: "outerHTML" });
    });
    source.addEventListener("changed", function () {
      changes += 1;
      ask();
    });
    // The server's time: the venue clock counts by it, and the page knows it is live.
    source.addEventListener("time", function (event) {
      document.dispatchEvent(new CustomEvent("kalooki:server-time", { detail: Number(event.data) }));
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || elt.id !== id || !elt.hasAttribute("data-poll")) return;
    if (event.detail.xhr) event.detail.xhr.kalookiCovers = changes;
    if (open && answered >= changes) event.preventDefault(); // nothing new: held back
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (!xhr || xhr.kalookiCovers === undefined) return;
    if (event.detail.successful) answered = Math.max(answered, xhr.kalookiCovers);
    if (open && answered < changes) window.setTimeout(ask, event.detail.successful ? 0 : 3000);
  });

  connect();
})();
