/* The players' entry page. Points are typed on the number pad; to type cards ("JK AS
 * 10H") a player switches the seat boxes to the letter keyboard, and the page
 * remembers the choice on this phone. */
(function () {
  "use strict";
  var KEY = "kalooki-cards-keyboard";

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

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
