/* Howl replay's comments and sharing (dashboard/share.py). The game's comments are drawn
   into the step log the frame writes (replay.js calls window.howlShare.log after writing
   it and window.howlShare.step after each step shows): under their step, with a mark on
   the step, and a "Remove" on the tab's own. A comment is written at the step shown
   through the page's write callback (share-send → share-comments), which takes the tab's
   token as the page's other writes do. "Copy link" copies this page's address at the step
   shown (keeping its other parameters, such as line=); the position link follows the
   step; the board is serialised as SVG (its layers with their computed styles inlined)
   and drawn on a canvas for PNG, all in the browser. */
(function () {
  "use strict";
  var S = {game: null, comments: [], me: {}, sent: 0, busy: false, at: 0};
  var STYLE = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity",
    "stroke-dasharray", "opacity", "font-family", "font-size", "font-weight", "text-anchor",
    "dominant-baseline", "visibility", "display"];

  function frame() { return window.howlReplay || {}; }
  function byId(id) { return document.getElementById(id); }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  function ours() { var g = frame().game; return !!(g && S.game && g.id === S.game); }

  function say(text, refusal) {
    var box = byId("share-status");
    if (!box) { return; }
    box.textContent = text;
    box.className = "share-status" + (refusal ? " refused" : "");
    if (refusal) {
      box.setAttribute("data-status", String(refusal.status));
      box.setAttribute("data-kind", refusal.kind);
    } else {
      box.removeAttribute("data-status");
      box.removeAttribute("data-kind");
    }
  }

  function removable(c) { return !!(S.me.anyone || (S.me.name && c.author === S.me.name)); }

  /* --- the comments in the step log ---------------------------------------------------- */

  function drawNotes() {
    var log = byId("replay-log");
    if (!log || !ours()) { return; }
    if (!log.__howlShare) {  /* a click on "Remove" is not a click on the step */
      log.__howlShare = true;
      log.addEventListener("click", function (e) {
        var button = e.target.closest && e.target.closest("[data-remove]");
        if (button) { e.stopPropagation(); remove(button.getAttribute("data-remove")); }
      });
    }
    Array.prototype.forEach.call(log.querySelectorAll(".log-notes, .note-mark"), function (el) {
      el.parentNode.removeChild(el);
    });
    var steps = {};
    S.comments.forEach(function (c) { (steps[c.step] = steps[c.step] || []).push(c); });
    Object.keys(steps).forEach(function (s) {
      var item = log.querySelector('.log-step:not(.own)[data-step="' + s + '"]'), listed = steps[s];  // the game's steps
      if (!item) { return; }
      var mark = document.createElement("span");
      mark.className = "note-mark";
      mark.title = listed.length + (listed.length > 1 ? " comments" : " comment");
      mark.textContent = "✎ " + listed.length;
      item.insertBefore(mark, item.querySelector(".log-scoring, .log-end"));
      var notes = document.createElement("ul");
      notes.className = "log-notes";
      notes.innerHTML = listed.map(function (c) {
        return '<li class="log-note" data-comment="' + esc(c.comment_id) + '"><b class="note-author">' +
          esc(c.author || "anonymous") + '</b> <span class="note-text">' + esc(c.text) + "</span>" +
          (removable(c) ? ' <button type="button" class="note-remove" data-remove="' + esc(c.comment_id) +
            '" aria-label="Remove this comment">Remove</button>' : "") + "</li>";
      }).join("");
      item.appendChild(notes);
    });
  }

  /* The page's comments (on load and after each write) and whose the tab may remove. */
  function comments(data, me) {
    var nu = window.dash_clientside.no_update;
    S.me = me || {};
    if (data && data.game) {
      S.game = data.game;
      if (Array.isArray(data.comments)) { S.comments = data.comments; }
    }
    if (data && data.n !== undefined && data.n !== null && data.n === S.sent && S.busy) {
      S.busy = false;
      if (data.error) {
        say("Not done: " + data.error.message, data.error);
      } else if (data.made) {
        window.dash_clientside.set_props("share-text", {value: ""});
        say("Comment added on step " + S.at + ".");
      } else {
        say("Comment removed.");
      }
    }
    drawNotes();
    return nu;
  }

  function send(request) {
    if (S.busy || !S.game) { return; }
    S.busy = true;
    S.sent += 1;
    var n = S.sent;
    window.setTimeout(function () {  /* a write that never came back does not block the next */
      if (S.busy && S.sent === n) { S.busy = false; say("No answer from the server: try again."); }
    }, 20000);
    say("Saving…");
    window.dash_clientside.set_props("share-send", {data: Object.assign({n: S.sent, game: S.game}, request)});
  }

  function add() {
    var field = byId("share-text");
    var text = field ? field.value : "";
    if (!text.trim()) { say("Write the comment first."); if (field) { field.focus(); } return; }
    if (linePosition(frame().step || 0)) { say("Comments are on the game's own steps: go back to the main line."); return; }
    S.at = frame().step || 0;
    send({op: "add", step: S.at, text: text});
  }

  function remove(id) { send({op: "remove", comment: id}); }

  /* --- links and files ---------------------------------------------------------------- */

  function link() {
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(frame().step || 0));
    return url.toString();
  }

  function copy() {
    var url = link(), field = byId("share-link");
    if (field) { field.value = url; }
    window.dash_clientside.set_props("share-link", {value: url});
    var done = function () { say("Link copied."); };
    var fallback = function () {
      if (field) { field.focus(); field.select(); }
      say("Copy the link from the field.");
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(done, fallback);
    } else { fallback(); }
  }

  function base() {
    var g = frame().game;
    return "howl-" + String(g ? g.id : "game").slice(0, 8) + "-step-" + (frame().step || 0);
  }

  function save(blob, name) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.style.display = "none";
    document.body.appendChild(a);
    a.click();
    window.setTimeout(function () { URL.revokeObjectURL(a.href); a.parentNode.removeChild(a); }, 1000);
  }

  /* An SVG element cloned with its computed presentation inlined (a file has no stylesheet). */
  function inlined(svg) {
    var copy = svg.cloneNode(true);
    var from = [svg].concat(Array.prototype.slice.call(svg.querySelectorAll("*")));
    var to = [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*")));
    from.forEach(function (el, i) {
      var cs = window.getComputedStyle(el), style = [];
      STYLE.forEach(function (p) {
        var v = cs.getPropertyValue(p);
        if (v) { style.push(p + ":" + v); }
      });
      to[i].setAttribute("style", (to[i].getAttribute("style") || "") + ";" + style.join(";"));
    });
    return copy;
  }

  /* A board drawn in HTML (Moonlight's grid of cards): its cards as rectangles and texts. */
  function boxes(root, box) {
    var out = [];
    Array.prototype.forEach.call(root.querySelectorAll(".ml-card, .ml-empty, .note"), function (el) {
      var r = el.getBoundingClientRect(), cs = window.getComputedStyle(el);
      if (!r.width || !r.height) { return; }
      var x = (r.left - box.left).toFixed(1), y = (r.top - box.top).toFixed(1);
      if (!el.classList.contains("note")) {
        out.push('<rect x="' + x + '" y="' + y + '" width="' + r.width.toFixed(1) + '" height="' +
          r.height.toFixed(1) + '" rx="4" fill="' + cs.backgroundColor + '" stroke="' + cs.borderTopColor +
          '" stroke-width="' + (parseFloat(cs.borderTopWidth) || 1) + '"/>');
      }
      var text = (el.textContent || "").replace(/\s+/g, " ").trim();
      if (text) {
        out.push('<text x="' + (r.left - box.left + 6).toFixed(1) + '" y="' + (r.top - box.top + r.height / 2 + 5).toFixed(1) +
          '" font-family="sans-serif" font-size="13" fill="' + cs.color + '">' + esc(text) + "</text>");
      }
    });
    return out;
  }

  /* The board shown, as one SVG document: each of its SVG layers (the map, the pieces) at its
     place, or its HTML cards; null without a board. */
  function boardSvg() {
    var root = document.querySelector("#replay .board, #replay .ml-board");
    if (!root) { return null; }
    var box = root.getBoundingClientRect();
    var w = Math.max(1, Math.ceil(box.width)), h = Math.max(1, Math.ceil(box.height));
    var parts = [], serializer = new XMLSerializer();
    var layers = root.querySelectorAll("svg");
    Array.prototype.forEach.call(layers, function (svg) {
      if (svg.parentNode.closest && svg.parentNode.closest("svg")) { return; }  /* nested: drawn with its own */
      var r = svg.getBoundingClientRect();
      if (!r.width || !r.height) { return; }
      var layer = inlined(svg);
      layer.setAttribute("x", (r.left - box.left).toFixed(1));
      layer.setAttribute("y", (r.top - box.top).toFixed(1));
      layer.setAttribute("width", r.width.toFixed(1));
      layer.setAttribute("height", r.height.toFixed(1));
      parts.push(serializer.serializeToString(layer));
    });
    if (!layers.length) { parts = boxes(root, box); }
    return {width: w, height: h, text: '<svg xmlns="http://www.w3.org/2000/svg" ' +
      'xmlns:xlink="http://www.w3.org/1999/xlink" width="' + w + '" height="' + h + '" viewBox="0 0 ' + w + " " + h +
      '"><rect width="100%" height="100%" fill="#ffffff"/>' + parts.join("") + "</svg>"};
  }

  function svgFile() {
    var svg = boardSvg();
    if (!svg) { say("No board to save."); return; }
    save(new Blob([svg.text], {type: "image/svg+xml"}), base() + ".svg");
    say("Board saved as SVG.");
  }

  function pngFile() {
    var svg = boardSvg();
    if (!svg) { say("No board to save."); return; }
    var img = new Image(), scale = 2;
    img.onload = function () {
      var canvas = document.createElement("canvas");
      canvas.width = svg.width * scale;
      canvas.height = svg.height * scale;
      var ctx = canvas.getContext("2d");
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, svg.width, svg.height);
      try {
        canvas.toBlob(function (blob) {
          if (blob) { save(blob, base() + ".png"); say("Board saved as PNG."); }
          else { say("The board could not be drawn as PNG."); }
        }, "image/png");
      } catch (e) { say("The board could not be drawn as PNG."); }
    };
    img.onerror = function () { say("The board could not be drawn as PNG."); };
    img.src = "data:image/svg+xml;base64," + window.btoa(unescape(encodeURIComponent(svg.text)));
  }

  /* --- the frame's hooks -------------------------------------------------------------- */

  function step(g, s) {
    var label = byId("share-label"), position = byId("share-position");
    var own = !!linePosition(s), add = byId("share-add"), text = byId("share-text");
    if (label) {  /* comments are on the game's own steps: a variation's step is none */
      label.textContent = own ? "Comments are on the game's own steps, not a variation's" : "Comment on step " + s;
    }
    if (add) { add.disabled = own; }
    if (text) { text.disabled = own; }
    if (position) {
      position.setAttribute("href", "/api/games/" + g.id + "/states/" + s);
      position.setAttribute("download", base() + ".json");
    }
  }

  /* The position of step s of the variation shown, when s is one of its own steps (the
     position link names the game's). */
  function linePosition(s) {
    var line = window.howlReplay && window.howlReplay.line;
    var own = line && s > line.step && line.data && line.data.line[s - line.step - 1];
    return own ? own.doc.position : null;
  }

  document.addEventListener("click", function (e) {
    var link = e.target && e.target.closest && e.target.closest("#share-position");
    var position = link && linePosition(window.howlReplay.step);
    if (position) {
      e.preventDefault();
      save(new Blob([JSON.stringify(position, null, 2)], {type: "application/json"}), base() + ".json");
      say("Position saved.");
      return;
    }
    var t = e.target && e.target.closest && e.target.closest("#share-add, #share-copy, #share-svg, #share-png");
    if (!t) { return; }
    ({"share-add": add, "share-copy": copy, "share-svg": svgFile, "share-png": pngFile})[t.id]();
  });

  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.id === "share-text" && e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      add();
    }
  });

  window.howlShare = {log: drawNotes, step: step, svg: boardSvg};
  window.dash_clientside = Object.assign({}, window.dash_clientside, {howlShare: {comments: comments}});
})();
