/* The plotly.js build the page's head names (<meta name="howl-plotly">, dashboard/plotly_bundle.py)
   is the one Dash's charts draw with, and it runs only once a chart is in view or the page
   has had half a second to draw what needs no plotly (the replay's map, its first step,
   its step controls): parsing plotly and drawing the charts takes the browser a while, and
   nothing should wait for them. Dash's charts load plotly unless window.Plotly is defined,
   and wait for it when it is a promise: until the build has run, window.Plotly is one,
   which starts fetching the build when the first chart asks for it and runs it then. The
   build sets window.Plotly to itself. */
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="howl-plotly"]');
  if (!meta || window.Plotly) { return; }
  var url = meta.getAttribute("content");
  var LATER_MS = 500;
  var RETRY_MS = [2000, 10000];
  var SHOWN = 0.25;  /* of a chart's box in view: it is looked at */
  var CHARTS = ".chart, .card";  /* the boxes the pages put their charts in */

  /* Fetch the build now (the browser keeps it for the script that runs it). */
  function fetchAhead() {
    var link = document.createElement("link");
    link.rel = "preload";
    link.as = "script";
    link.href = url;
    document.head.appendChild(link);
  }

  /* Run the build, then resolve; one that fails to load is asked for again after each of
     RETRY_MS, then left: the charts stay undrawn and the rest of the page works on (a
     rejected promise would have Dash mount the page anew, over and over). */
  function run(resolve, tries) {
    var script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.onload = function () { resolve(); };
    script.onerror = function () {
      script.remove();
      if (tries >= RETRY_MS.length) { window.console.warn("Howl: the charts' plotly.js did not load"); return; }
      window.setTimeout(function () { run(resolve, tries + 1); }, RETRY_MS[tries]);
    };
    document.body.appendChild(script);
  }

  /* Call go once a quarter of a chart's box is in view, or LATER_MS after the first chart asked (the
     page's own layout is drawn by then). */
  function whenWanted(go) {
    var done = false, observer = null;
    function once() {
      if (done) { return; }
      done = true;
      if (observer) { observer.disconnect(); }
      go();
    }
    window.setTimeout(once, LATER_MS);
    window.requestAnimationFrame(function () {  /* the charts' boxes are laid out */
      var boxes = document.querySelectorAll(CHARTS);
      if (!boxes.length || !window.IntersectionObserver) { once(); return; }
      observer = new window.IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.intersectionRatio >= SHOWN; })) { once(); }
      }, {threshold: SHOWN});
      Array.prototype.forEach.call(boxes, function (box) { observer.observe(box); });
    });
  }

  var loading = null;
  window.Plotly = {
    then: function (resolve, reject) {
      if (!loading) {
        loading = new Promise(function (done) {
          fetchAhead();
          whenWanted(function () { run(done, 0); });
        });
      }
      return loading.then(resolve, reject);
    }
  };
})();
