/* Accessible names for the inputs Dash's components draw without one (its slider's thumb,
   its upload's file input, its checklists), given again whenever the component draws them anew. The upload's
   file input also leaves the tab order: its area's "choose a file" button opens it. */
(function () {
  "use strict";
  var NAMES = [
    ["#replay-slider [role=slider]", "step", false],
    ["#library-upload input[type=file]", "game record file", true],
    ["#stats-bots", "bots' seats", false],
    ["#player-bots", "bots' seats", false]
  ];

  function name() {
    NAMES.forEach(function (n) {
      var el = document.querySelector(n[0] + ":not([aria-label])");
      if (!el) { return; }
      el.setAttribute("aria-label", n[1]);
      if (n[2]) { el.setAttribute("tabindex", "-1"); }
    });
  }

  new window.MutationObserver(name).observe(document.documentElement, {subtree: true, childList: true,
    attributes: true, attributeFilter: ["aria-label"]});
})();
