/* The keyboard shortcuts of the page shown, listed over it: "?" (or the header's "?" button)
   opens the list, Escape or Close closes it and gives the focus back. Only the shortcuts
   of what the page shows are listed: the replay's steps, Explore, the table board's
   actions, the comment box. */
(function () {
  "use strict";
  var SECTIONS = [
    {when: null, title: "Everywhere", keys: [["?", "this list"]]},
    {when: "#replay-slider", title: "Replay", keys: [
      ["← →", "previous / next step"], ["Home End", "first / last step"],
      ["Space", "play / pause"], ["↑ ↓", "previous / next step, in the step log"],
      ["Enter", "go to the step listed (log, key moments, flagged actions)"],
      ["e", "explore from the step shown"]]},
    {when: "#table-controls", title: "Table board", keys: [
      ["m d l h o", "Move, Den, Lair, Howl, Dominate"], ["b p", "Bonus action, Pass / End turn"],
      ["Enter Space", "choose the hex in focus"], ["Esc", "cancel the action being built"],
      ["Ctrl+Z", "undo"]]},
    {when: "#share-text", title: "Comments", keys: [["Ctrl+Enter", "add the comment"]]}
  ];
  var back = null;

  function $(id) { return document.getElementById(id); }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]; });
  }

  /* Whether the page shows an element matching selector (a hidden board lists no keys). */
  function shown(selector) {
    var el = document.querySelector(selector);
    return !!(el && el.getClientRects().length);
  }

  function open() {
    var box = $("keys-list");
    if (box) { close(); return; }
    back = document.activeElement;
    box = document.createElement("div");
    box.id = "keys-list";
    box.className = "keys-list";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-labelledby", "keys-title");
    box.innerHTML = '<div class="keys-card"><h2 id="keys-title">Keyboard shortcuts</h2>' +
      SECTIONS.filter(function (s) { return !s.when || shown(s.when); }).map(function (s) {
        return "<h3>" + esc(s.title) + "</h3><dl>" + s.keys.map(function (k) {
          return "<dt>" + k[0].split(" ").map(function (key) { return "<kbd>" + esc(key) + "</kbd>"; }).join(" ") +
            "</dt><dd>" + esc(k[1]) + "</dd>";
        }).join("") + "</dl>";
      }).join("") + '<button type="button" id="keys-close" class="step-button">Close</button></div>';
    document.body.appendChild(box);
    $("keys-close").focus();
  }

  function close() {
    var box = $("keys-list");
    if (box) { box.parentNode.removeChild(box); }
    if (back && back.focus && document.contains(back)) { back.focus(); }
    back = null;
  }

  document.addEventListener("keydown", function (e) {
    var t = e.target, list = $("keys-list");
    if (list && e.key === "Escape") { e.preventDefault(); close(); return; }
    if (list && e.key === "Tab") { e.preventDefault(); $("keys-close").focus(); return; }  // kept in the list
    if (list) { e.stopPropagation(); return; }  // the page under the list takes no key
    if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) { return; }
    e.preventDefault();
    open();
  }, true);

  document.addEventListener("click", function (e) {
    var t = e.target && e.target.closest ? e.target : null;
    if (!t) { return; }
    if (t.closest("#keys-open")) { open(); }
    else if (t.closest("#keys-close") || t.id === "keys-list") { close(); }
  });
})();
