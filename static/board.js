/* The board: after a change made on any phone, what changed stays highlighted for a few seconds.
   htmx re-fetches the board (see templates/board/region.html); this compares each [data-b] part's
   text before and after. */
(function () {
  "use strict";
  var before = null;
  function texts() {
    var out = {};
    document.querySelectorAll("#board [data-b]").forEach(function (e) { out[e.getAttribute("data-b")] = e.textContent; });
    return out;
  }
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "board") { before = texts(); }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!before) { return; }
    var now = texts();
    document.querySelectorAll("#board [data-b]").forEach(function (e) {
      var k = e.getAttribute("data-b");
      if (before[k] !== now[k]) {
        e.classList.add("changed");
        window.setTimeout(function () { e.classList.remove("changed"); }, 4000);
      }
    });
    before = null;
  });
}());
