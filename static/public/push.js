// A live region the server pushes to (public/push.py), when the region says where
// ([data-push]; settings.LIVE_PUSH): a leaderboard is sent its new region ("region"), a
// table's entry page is told its table changed ("changed") and asks for its own region
// once. While the stream is open the region's own poll is held back; when it breaks
// (the browser opens it again by itself) the poll goes on as before, so the page stays
// live either way.
(function () {
  "use strict";
  var first = document.querySelector("[data-push]");
  if (!first || !window.EventSource) return;
  var id = first.id;
  var open = false;
  var asking = false; // the region's own request, asked for by the stream
  var source = new EventSource(first.getAttribute("data-push"));

  source.addEventListener("open", function () { open = true; });
  source.addEventListener("error", function () { open = false; });

  source.addEventListener("region", function (event) {
    var region = document.getElementById(id);
    if (region && window.htmx) window.htmx.swap(region, event.data, { swapStyle: "outerHTML" });
  });

  source.addEventListener("changed", function () {
    var region = document.getElementById(id);
    if (!region || !window.htmx) return;
    asking = true;
    try {
      window.htmx.ajax("get", region.getAttribute("hx-get"), { source: region });
    } finally {
      asking = false;
    }
  });

  // The server's time: the venue clock counts by it, and the page knows it is live.
  source.addEventListener("time", function (event) {
    document.dispatchEvent(new CustomEvent("kalooki:server-time", { detail: Number(event.data) }));
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (open && !asking && elt && elt.id === id && elt.hasAttribute("data-poll")) event.preventDefault();
  });
})();
