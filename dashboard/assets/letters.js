/* "Terrain letters": a labelled checkbox at the head of every Wolves map's key (the replay's,
   the table's, the practice board's; over the map's corner for a map without a key) that shows
   or hides the map's trace of terrain letters
   (dashboard/boards/wolves.py, letters_trace) with plotly's restyle, never touching the
   layout. The choice is kept in localStorage and applies to every map; a map plotly draws
   again (a new figure) gets it back. */
(function () {
  "use strict";
  var TRACE = "terrain letters";
  var KEY = "howl.terrainLetters";

  function wanted() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  function traceOf(gd) {
    var data = gd.data || [];
    for (var i = 0; i < data.length; i++) { if (data[i].name === TRACE) { return i; } }
    return -1;
  }

  /* Make the map's letters trace show the stored choice (only when it does not already:
     restyle redraws, and a redraw calls this again). */
  function apply(gd) {
    var i = traceOf(gd), on = wanted();
    if (i < 0 || !window.Plotly) { return; }
    if ((gd.data[i].visible !== false) !== on) { window.Plotly.restyle(gd, {visible: on}, [i]); }
    var box = home(gd);
    var input = box && box.querySelector(".letters-toggle input");
    if (input) { input.checked = on; }
  }

  /* The map with its key, or the map alone. */
  function home(gd) { return gd.closest(".wolves-map") || gd.closest(".board"); }

  function toggle(board) {
    var label = document.createElement("label"), key = board.querySelector(".map-key");
    label.className = "letters-toggle";
    label.style.cssText = (key ? "width:max-content;margin-bottom:0.3rem;" :
      "position:absolute;top:4px;left:4px;z-index:3;") + "display:flex;" +
      "align-items:center;gap:0.3rem;padding:0.1rem 0.4rem;font-size:0.8rem;color:#222;" +
      "background:rgba(255,255,255,0.9);border:1px solid #8a9a9f;border-radius:4px;" +
      "pointer-events:auto;cursor:pointer;";
    var input = document.createElement("input");
    input.type = "checkbox";
    input.checked = wanted();
    label.appendChild(input);
    label.appendChild(document.createTextNode("Terrain letters"));
    input.addEventListener("change", function () {
      remember(input.checked);
      document.querySelectorAll(".js-plotly-plot").forEach(apply);
    });
    if (key) { key.insertBefore(label, key.firstChild); } else { board.appendChild(label); }
  }

  /* Every plotted map with a letters trace gets the checkbox on its board and follows it. */
  function wire() {
    document.querySelectorAll(".js-plotly-plot").forEach(function (gd) {
      if (traceOf(gd) < 0) { return; }
      var board = home(gd);
      if (board && !board.querySelector(".letters-toggle")) { toggle(board); }
      if (!gd.howlLetters && gd.on) {
        gd.howlLetters = true;
        gd.on("plotly_afterplot", function () { apply(gd); });
      }
      apply(gd);
    });
  }

  var pending = false;
  new MutationObserver(function () {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () { pending = false; wire(); });
  }).observe(document.documentElement, {childList: true, subtree: true});
})();
