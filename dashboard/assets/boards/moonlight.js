/* Moonlight's board view in the browser (dashboard/boards/moonlight.py): each step's table
   drawn as a grid of cards in the smallest rectangle holding them, a card's covered stack
   in a box on hover or focus, the seats' standing, and at a round's scoring the row
   winners marked, the ignored cards greyed and the points' breakdown. Plain HTML written
   into the view's empty containers from the view's data (game.board). */
(function () {
  "use strict";
  window.howlBoards = window.howlBoards || {};

  function esc(t) { return window.howlReplay.esc(t); }
  function key(x, y) { return x + "," + y; }
  function moons(n) { return n ? "☾".repeat(n) : ""; }

  function cardText(b, c) {
    var p = b.players[c[0]];
    return (c[3] ? "Lone Wolf " : "") + c[1] + (c[2] ? " with " + c[2] + " moon" + (c[2] > 1 ? "s" : "") : "") +
      " (" + p.name + ")";
  }

  function stackText(b, cell) {
    var stack = cell[2], top = stack[stack.length - 1];
    var out = "[" + cell[0] + ", " + cell[1] + "] " + cardText(b, top);
    if (stack.length > 1) {
      out += " · covers: " + stack.slice(0, -1).reverse().map(function (c) { return cardText(b, c); }).join(", ");
    }
    return out;
  }

  function drawGrid(g, s) {
    var b = g.board, f = b.steps[s], grid = document.getElementById("ml-grid");
    if (!grid) { return; }
    if (!f.c.length) { grid.innerHTML = '<p class="note">The table is empty.</p>'; return; }
    var xs = f.c.map(function (c) { return c[0]; }), ys = f.c.map(function (c) { return c[1]; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
    var y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    var at = {}, ignored = {}, tripled = {}, rows = {};
    f.c.forEach(function (c) { at[key(c[0], c[1])] = c; });
    if (f.s) {
      f.s.ignored.forEach(function (c) { ignored[key(c[0], c[1])] = true; });
      f.s.tripled.forEach(function (c) { tripled[key(c[0], c[1])] = true; });
      f.s.rows.forEach(function (r) { rows[r[0]] = r; });
    }
    var out = ['<div class="ml-cells" style="grid-template-columns: repeat(' + (x1 - x0 + 1) +
      ', minmax(0, 4.2rem))' + (f.s ? " 5.5rem" : "") + '">'];
    for (var y = y0; y <= y1; y++) {
      for (var x = x0; x <= x1; x++) {
        var cell = at[key(x, y)];
        if (!cell) { out.push('<div class="ml-empty"></div>'); continue; }
        var stack = cell[2], top = stack[stack.length - 1], p = b.players[top[0]];
        var cls = "ml-card seat-" + top[0];
        if (ignored[key(x, y)]) { cls += " ignored"; }
        if (tripled[key(x, y)]) { cls += " tripled"; }
        if (f.h && f.h[0] === x && f.h[1] === y) { cls += " touched"; }
        if (f.s && rows[y] && rows[y][2] === top[0]) { cls += " row-won"; }
        out.push('<div class="' + cls + '" tabindex="0" data-cell="' + x + ',' + y + '" data-stack="' +
          stack.length + '" style="border-color: ' + p.color + '; --seat: ' + p.color + '" aria-label="' +
          esc(stackText(b, cell)) + '">' +
          '<span class="ml-owner" style="background: ' + p.color + '">' + esc(p.letter) + "</span>" +
          '<span class="ml-value">' + (top[3] ? "<small>LW</small>" : "") + top[1] + (tripled[key(x, y)] ? "×3" : "") + "</span>" +
          '<span class="ml-moons">' + moons(top[2]) + "</span>" +
          (stack.length > 1 ? '<span class="ml-depth">' + stack.length + "</span>" : "") + "</div>");
      }
      if (f.s) {
        var r = rows[y], w = r && r[2] !== null ? b.players[r[2]] : null;
        out.push('<div class="ml-row-result">' + (r ? r[1].join("–") + " " +
          (w ? "→ " + esc(w.letter) + " wins" : "tie") : "") + "</div>");
      }
    }
    out.push("</div>");
    grid.innerHTML = out.join("");
    grid.dataset.step = String(s);
  }

  function drawSeats(g, s) {
    var b = g.board, f = b.steps[s], box = document.getElementById("ml-seats");
    if (!box) { return; }
    var head = f.f ? "Game over" : "Round " + f.r + (f.b ? " (next)" : "");
    box.innerHTML = '<div class="ml-round">' + esc(head) + "</div>" + b.players.map(function (p, i) {
      return '<div class="ml-seat' + (f.t === i ? " turn" : "") + '" style="border-left-color: ' + p.color + '">' +
        '<span class="ml-owner" style="background: ' + p.color + '">' + esc(p.letter) + "</span> " +
        "<b>" + esc(p.name) + "</b> · rounds won <b>" + f.w[i] + "</b> · cards left " + f.l[i] +
        (f.v[i] ? " · holds the Lone Wolf" : "") +
        (f.p[i] ? " · Alpha Power: " + esc(f.p[i]) + " (no effect)" : "") + "</div>";
    }).join("");
  }

  function drawScoring(g, s) {
    var b = g.board, f = b.steps[s], box = document.getElementById("ml-scoring");
    if (!box) { return; }
    if (!f.s) { box.innerHTML = ""; return; }
    var sc = f.s;
    var rows = b.players.map(function (p, i) {
      var q = sc.seats[i];
      return "<tr><th>" + esc(p.letter) + " " + esc(p.name) + "</th><td>" + q.moons + "</td><td>" + q.cards +
        "</td><td>" + q.threes + "</td><td><b>" + q.points + "</b></td><td>" + q.moons_shown + "</td></tr>";
    }).join("");
    var who = sc.winner === null ? "tied: the round is replayed" : esc(b.players[sc.winner].name) + " wins the round";
    box.innerHTML = "<h4>Round " + sc.round + " scored: " + who + "</h4>" +
      '<table class="ml-points"><thead><tr><th></th><th>moons</th><th>cards</th><th>threes</th>' +
      "<th>points</th><th>moons shown</th></tr></thead><tbody>" + rows + "</tbody></table>" +
      '<p class="note">Cards winning their row are ringed in their colour; greyed cards are ignored; ×3: a 1 in a corner.</p>';
  }

  function hover(ev) {
    var card = ev.target.closest && ev.target.closest(".ml-card");
    var tip = document.getElementById("ml-hover");
    var g = window.howlReplay.game;
    if (!tip || !g) { return; }
    if (!card) { tip.style.display = "none"; return; }
    var xy = card.dataset.cell.split(",").map(Number), f = g.board.steps[window.howlReplay.step];
    var cell = f.c.filter(function (c) { return c[0] === xy[0] && c[1] === xy[1]; })[0];
    if (!cell) { return; }
    var stack = cell[2];
    tip.innerHTML = "<b>[" + xy[0] + ", " + xy[1] + "]</b>" + stack.slice().reverse().map(function (c, i) {
      return '<div class="ml-tip-card' + (i ? " covered" : "") + '">' + (i ? "under: " : "top: ") +
        esc(cardText(g.board, c)) + "</div>";
    }).join("");
    var board = card.closest(".ml-board").getBoundingClientRect(), r = card.getBoundingClientRect();
    tip.style.display = "block";
    tip.style.left = Math.max(0, Math.min(r.left - board.left, board.width - 220)) + "px";
    tip.style.top = (r.bottom - board.top + 4) + "px";
  }

  ["mouseover", "focusin"].forEach(function (kind) { document.addEventListener(kind, hover); });
  document.addEventListener("mouseout", function (ev) {
    var tip = document.getElementById("ml-hover");
    if (tip && ev.target.closest && ev.target.closest(".ml-card") && !(ev.relatedTarget && ev.relatedTarget.closest && ev.relatedTarget.closest(".ml-card"))) {
      tip.style.display = "none";
    }
  });

  window.howlBoards.moonlight = {
    draw: function (g, s) {
      drawGrid(g, s);
      drawSeats(g, s);
      drawScoring(g, s);
      var tip = document.getElementById("ml-hover");
      if (tip) { tip.style.display = "none"; }
    }
  };
})();
