/* "Terrain letters": a labelled checkbox at the head of every Wolves map's key (the replay's,
   the table's, the practice board's; over the map's corner for a map without a key) that shows
   or hides the map's terrain letters (assets/boards/wolves.js draws them; the class
   "letters-off" on the map's box hides them, whenever the map is drawn). The choice is kept in
   localStorage and applies to every map. */
(function () {
  "use strict";
  var KEY = "howl.terrainLetters";

  function wanted() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
  }

  /* Make a map's box show the stored choice. */
  function apply(board) {
    var on = wanted();
    board.classList.toggle("letters-off", !on);
    var input = board.querySelector(".letters-toggle input");
    if (input) { input.checked = on; }
  }

  /* Every Wolves map's box: the map with its key, or the map alone. */
  function boards() {
    var found = [];
    document.querySelectorAll(".board > .map").forEach(function (map) {
      var board = map.closest(".wolves-map") || map.parentElement;
      if (found.indexOf(board) < 0) { found.push(board); }
    });
    return found;
  }

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
      boards().forEach(apply);
    });
    if (key) { key.insertBefore(label, key.firstChild); } else { board.appendChild(label); }
  }

  /* Every map's box gets the checkbox and follows the choice. */
  function wire() {
    boards().forEach(function (board) {
      if (!board.querySelector(".letters-toggle")) { toggle(board); }
      apply(board);
    });
  }

  var pending = false;
  new MutationObserver(function () {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () { pending = false; wire(); });
  }).observe(document.documentElement, {childList: true, subtree: true});
})();
