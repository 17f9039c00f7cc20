/* The New game page (dashboard/pages/new.py): the map preview drawn as an SVG from the
   page's preview data (every hex with its ground and position, scoring tokens, prey, lone
   wolves, labels), hexes pointy-topped at (sqrt(3) * (x - y / 2), 1.5 * y) as on the replay
   board; a click on a position of a map laid at the table jumps to that position's tile
   number. A seat moved up or down keeps the keyboard focus on its buttons. */
(function () {
  "use strict";
  var SQ3 = Math.sqrt(3);
  var SIDES = [[0, -1], [1, 0], [1, 1], [0, 1], [-1, 0], [-1, -1]];
  var PHASES = {C: "crescent", Q: "quarter", F: "full"};

  function centre(x, y) { return [SQ3 * (x - y / 2), 1.5 * y]; }
  function corner(c, degrees, r) {
    var a = degrees * Math.PI / 180;
    return [c[0] + r * Math.cos(a), c[1] + r * Math.sin(a)];
  }
  function pt(p) { return p[0].toFixed(2) + "," + p[1].toFixed(2); }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  function hexPoints(c, r) {
    var pts = [];
    for (var i = 0; i < 6; i++) { pts.push(pt(corner(c, -90 + 60 * i, r))); }
    return pts.join(" ");
  }
  function tileInput(position) {
    return document.getElementById('{"new":"tile","pos":' + (position - 1) + "}");
  }

  /* The whole preview as SVG markup: hexes, borders between positions, then the tokens. */
  function svg(d) {
    var group = {}, out = [], xs = [], ys = [];
    d.hexes.forEach(function (h) {
      group[h[0] + "," + h[1]] = h[3];
      var c = centre(h[0], h[1]);
      xs.push(c[0]); ys.push(c[1]);
    });
    if (!xs.length) { return ""; }
    var minX = Math.min.apply(null, xs) - 1.2, maxX = Math.max.apply(null, xs) + 1.2;
    var minY = Math.min.apply(null, ys) - 1.4, maxY = Math.max.apply(null, ys) + 1.2;
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + [minX, minY, maxX - minX,
      maxY - minY].map(function (v) { return v.toFixed(2); }).join(" ") +
      '" class="setup-svg" focusable="false" aria-hidden="true">');
    d.hexes.forEach(function (h) {
      var c = centre(h[0], h[1]), ground = h[2];
      out.push('<polygon points="' + hexPoints(c, 0.98) + '" fill="' + (d.fills[ground] || "#fff") +
        '" class="hex' + (ground ? "" : " unknown") + (h[3] ? " pos" : "") + '" data-pos="' + h[3] +
        '"><title>(' + h[0] + ", " + h[1] + ") " + esc(ground || "tile not entered") + "</title></polygon>");
    });
    d.hexes.forEach(function (h) {  /* the border of each position (the start tile is one) */
      var c = centre(h[0], h[1]);
      SIDES.forEach(function (s, i) {
        var k = (h[0] + s[0]) + "," + (h[1] + s[1]);
        if (group[k] === h[3]) { return; }
        var n = centre(h[0] + s[0], h[1] + s[1]);
        var angle = Math.atan2(n[1] - c[1], n[0] - c[0]) * 180 / Math.PI;
        var a = corner(c, angle - 30, 1), b = corner(c, angle + 30, 1);
        out.push('<line x1="' + a[0].toFixed(2) + '" y1="' + a[1].toFixed(2) + '" x2="' +
          b[0].toFixed(2) + '" y2="' + b[1].toFixed(2) + '" class="border"/>');
      });
    });
    d.lone.forEach(function (h) {
      var c = centre(h[0], h[1]);
      out.push('<polygon points="' + [[0, -0.4], [0.34, 0], [0, 0.4], [-0.34, 0]].map(function (p) {
        return pt([c[0] + p[0], c[1] + p[1]]);
      }).join(" ") + '" class="lone-wolf"><title>lone wolf</title></polygon>');
    });
    d.prey.forEach(function (p) {
      var c = centre(p[0], p[1]);
      out.push('<polygon points="' + [[-0.3, -0.45], [0.3, -0.45], [0, 0.05]].map(function (q) {
        return pt([c[0] + q[0], c[1] + q[1]]);
      }).join(" ") + '" class="prey"/><text x="' + c[0].toFixed(2) + '" y="' + (c[1] + 0.5).toFixed(2) +
        '" class="prey-label">' + esc(p[2]) + (p[3] > 1 ? " ×" + p[3] : "") + "</text>");
    });
    d.tokens.forEach(function (t) {
      var c = centre(t[0], t[1]);
      var names = t[2].split("").map(function (l) { return PHASES[l]; }).join(" on ");
      out.push('<circle cx="' + c[0].toFixed(2) + '" cy="' + c[1].toFixed(2) + '" r="0.5" class="token">' +
        "<title>" + names + '</title></circle><text x="' + c[0].toFixed(2) + '" y="' + (c[1] + 0.18).toFixed(2) +
        '" class="token-label">' + esc(t[2]) + "</text>");
    });
    d.labels.forEach(function (l) {
      var c = centre(l[0], l[1]);
      out.push('<text x="' + c[0].toFixed(2) + '" y="' + (c[1] + 0.15).toFixed(2) +
        '" class="pos-label" data-pos="' + l[3] + '">' + esc(l[2]) + "</text>");
    });
    out.push("</svg>");
    return out.join("");
  }

  function draw(d) {
    var box = document.getElementById("new-map");
    if (!box || !d) { return window.dash_clientside.no_update; }
    box.innerHTML = svg(d);
    box.setAttribute("data-mode", d.mode);
    box.setAttribute("data-hexes", String(d.hexes.length));
    var laid = d.hexes.filter(function (h) { return h[2]; }).length;
    box.setAttribute("aria-label", "Map preview: " + d.hexes.length + " hexes, " + laid +
      " of them known" + (d.tokens.length ? ", " + d.tokens.length + " scoring stacks" : ""));
    return d.hexes.length;
  }

  document.addEventListener("click", function (e) {
    var target = e.target;
    var map = target.closest && target.closest("#new-map");
    if (map && map.getAttribute("data-mode") === "table") {
      var at = target.closest("[data-pos]");
      var input = at && tileInput(Number(at.getAttribute("data-pos")));
      if (input) { input.scrollIntoView({block: "center"}); input.focus(); }
      return;
    }
    var button = target.closest && target.closest(".seat-move");
    if (!button) { return; }
    var seat = Number(button.getAttribute("data-seat")), move = button.getAttribute("data-move");
    if (move === "remove") {  /* the last row removed goes: to "Add a player" */
      var below = document.getElementById("new-row-" + (seat + 1));
      if (!below || below.hidden) { document.getElementById("new-add").focus(); }
      return;
    }
    var to = move === "up" ? seat - 1 : seat + 1;
    /* Follow the seat that moved: its button in its new row (the other one at an end). */
    var order = move === "up" ? ["up", "down"] : ["down", "up"];
    for (var i = 0; i < order.length; i++) {
      var next = document.getElementById('{"new":"' + order[i] + '","seat":' + to + "}");
      if (next && !next.disabled && to >= 0) { next.focus(); return; }
    }
  });

  window.dash_clientside = Object.assign({}, window.dash_clientside, {howlSetup: {draw: draw}});
})();
