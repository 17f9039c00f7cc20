/* The plotly.js build the page's head names (<meta name="howl-plotly">, dashboard/plotly_bundle.py)
   is the one Dash's charts load when the first of them mounts: Dash's renderer sets
   window._dashPlotlyJSURL to plotly's whole bundle once it has started, and this keeps the
   named build instead. */
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="howl-plotly"]');
  if (!meta || window.Plotly) { return; }
  var url = meta.getAttribute("content");
  Object.defineProperty(window, "_dashPlotlyJSURL", {
    configurable: true,
    get: function () { return url; },
    set: function () { /* the renderer's own: plotly's whole bundle */ }
  });
})();
