/* The Wolves' board view in the browser (dashboard/boards/wolves.py): the static map drawn as
   an SVG (no plotly), each step's pieces and tokens drawn over it, the map's hover box, the
   player boards and the Moonlight track, from the view's data (game.board) loaded once with
   the page. The boards and Moonlight are plain HTML written into empty containers. A step
   the review flagged shows where the better action acts. */
(function () {
  "use strict";
  var SQ3 = Math.sqrt(3);
  var PREY_NAMES = {deer: "deer", boar: "boar", raccoon: "raccoon", hare: "hare", moose: "moose"};
  var PHASE_NAMES = {C: "crescent", Q: "quarter", F: "full"};
  var SIZES = {den: 0.34, lair: 0.42, pack: 0.34, alpha: 0.42};

  function frame() { return window.howlReplay; }
  function centre(x, y) { return [SQ3 * (x - y / 2), 1.5 * y]; }
  function key(x, y) { return x + "," + y; }

  function seatName(b, seat) {
    return seat < 0 ? "automaton" : b.players[seat].name;
  }

  /* Marker shapes as SVG, sized in map units (one unit: a hex's circumradius). */
  function polygon(cx, cy, r, corners, inner, turn) {
    var pts = [], n = inner ? corners * 2 : corners;
    for (var i = 0; i < n; i++) {
      var a = (turn + 360 * i / n) * Math.PI / 180, rr = inner && i % 2 ? r * inner : r;
      pts.push((cx + rr * Math.cos(a)).toFixed(1) + "," + (cy + rr * Math.sin(a)).toFixed(1));
    }
    return '<polygon points="' + pts.join(" ") + '"';
  }
  var SHAPES = {
    circle: function (x, y, r) { return '<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="' + (r * 0.8).toFixed(1) + '"'; },
    square: function (x, y, r) { var h = r * 0.72; return '<rect x="' + (x - h).toFixed(1) + '" y="' + (y - h).toFixed(1) + '" width="' + (2 * h).toFixed(1) + '" height="' + (2 * h).toFixed(1) + '"'; },
    diamond: function (x, y, r) { return polygon(x, y, r, 4, 0, -90); },
    star: function (x, y, r) { return polygon(x, y, r * 1.15, 5, 0.45, -90); },
    pentagon: function (x, y, r) { return polygon(x, y, r, 5, 0, -90); },
    "triangle-down": function (x, y, r) { return polygon(x, y, r, 3, 0, 90); }
  };

  /* The map's scale in element el (b.map's range fitted at equal scales, centred, 4 px in):
     where a hex's centre is in the map's pixels and how many pixels a map unit is; null while
     el has no size. */
  function mapScale(el, m) {
    if (!el || !el.clientWidth || !el.clientHeight) { return null; }
    var r = m.range, w = el.clientWidth - 8, h = el.clientHeight - 8;
    var unit = Math.min(w / (r[1] - r[0]), h / (r[3] - r[2]));
    var x0 = 4 + w / 2 - unit * (r[0] + r[1]) / 2, y0 = 4 + h / 2 - unit * (r[2] + r[3]) / 2;
    return {
      width: el.clientWidth, height: el.clientHeight, unit: unit,
      at: function (x, y) { return [x0 + unit * x, y0 + unit * y]; },
      px: function (x, y) { var c = centre(x, y); return [x0 + unit * c[0], y0 + unit * c[1]]; }
    };
  }

  function num(v) { return v.toFixed(1); }

  /* The static map (b.map, dashboard/boards/wolves.py drawing) as an SVG filling el: a shape
     per hex in its terrain's colour (data-i: its index in b.hexes, for the hover box), the
     terrain letters (hidden by assets/letters.js when the player chose so), the region
     borders and labels. Drawn again only when el's size or the board changed; returns the
     map's scale (null while el has no size). */
  function drawMap(el, b) {
    var m = b.map, sc = mapScale(el, m);
    if (!sc) { return null; }
    var size = sc.width + "x" + sc.height;
    if (el.__howlMap === b && el.__howlSize === size && el.firstChild) { return sc; }
    var cells = b.hexes.map(function (h, i) {
      var c = sc.px(h[0], h[1]), t = m.terrain[i];
      return polygon(c[0], c[1], sc.unit, 6, 0, -90) + ' class="hex" data-i="' + i + '" fill="' +
        b.terrain_colors[t] + '"/>';
    });
    var letters = m.letters.map(function (p, i) {
      var c = sc.at(p[0], p[1]), t = m.terrain[i];
      return '<text x="' + num(c[0]) + '" y="' + num(c[1]) + '" fill="' + m.ink[t] + '">' + m.letter[t] + "</text>";
    });
    var borders = m.outlines.map(function (e) {
      var p = sc.at(e[0], e[1]), q = sc.at(e[2], e[3]);
      return "M" + num(p[0]) + " " + num(p[1]) + "L" + num(q[0]) + " " + num(q[1]);
    });
    var labels = m.labels.map(function (l) {
      var c = sc.at(l[0], l[1]);
      return '<text x="' + num(c[0]) + '" y="' + num(c[1]) + '">' + l[2] + "</text>";
    });
    el.innerHTML = '<svg class="hex-map" width="' + sc.width + '" height="' + sc.height +
      '" role="img" aria-label="the map: ' + b.hexes.length + " hexes, " + m.labels.length +
      ' regions"><g class="hexes">' + cells.join("") + '</g><g class="terrain-letters">' +
      letters.join("") + '</g><path class="region-border" d="' + borders.join("") +
      '"/><g class="region-labels">' + labels.join("") + "</g></svg>";
    el.__howlMap = b;
    el.__howlSize = size;
    return sc;
  }

  /* A frame's pieces and tokens as SVG elements (``f`` as in the view's steps); ``better``
     is the review's better action to show, or null. */
  function pieces(b, f, sc, better) {
    var px = sc.px, unit = sc.unit, out = [];
    f.h.forEach(function (h) {
      var c = px(h[0], h[1]);
      out.push(polygon(c[0], c[1], unit * 0.93, 6, 0, -90) + ' class="touched"/>');
    });
    var count = {}, seen = {};
    f.p.forEach(function (p) { var k = key(p[0], p[1]); count[k] = (count[k] || 0) + 1; });
    f.p.forEach(function (p) {
      var k = key(p[0], p[1]), c = px(p[0], p[1]);
      var dx = count[k] > 1 ? (seen[k] ? 0.4 : -0.4) * unit : 0;
      seen[k] = true;
      var color = p[3] < 0 ? b.automaton : b.players[p[3]].color;
      out.push(SHAPES[b.symbols[p[2]]](c[0] + dx, c[1], unit * SIZES[b.kinds[p[2]]]) +
        ' class="piece ' + b.kinds[p[2]] + '" fill="' + color + '"/>');
    });
    f.l.forEach(function (h) {
      var c = px(h[0], h[1]);
      out.push(SHAPES.diamond(c[0], c[1], unit * 0.36) + ' class="lone-wolf"/>');
    });
    var font = Math.max(8, unit * 0.46).toFixed(1);
    f.r.forEach(function (r) {
      var c = px(r[0], r[1]);
      out.push(SHAPES["triangle-down"](c[0], c[1] - unit * 0.22, unit * 0.34) + ' class="prey"/>');
      out.push('<text x="' + c[0].toFixed(1) + '" y="' + (c[1] + unit * 0.5).toFixed(1) +
        '" font-size="' + font + '" class="prey-label">' + PREY_NAMES[r[2]] + (r[3] > 1 ? " ×" + r[3] : "") + "</text>");
    });
    f.k.forEach(function (t) {
      var c = px(t[0], t[1]), y = c[1] + unit * 0.32;
      out.push(SHAPES.circle(c[0], y, unit * 0.42) + ' class="token"/>');
      out.push('<text x="' + c[0].toFixed(1) + '" y="' + (y + unit * 0.16).toFixed(1) +
        '" font-size="' + font + '" class="token-label">' + t[2] + "</text>");
    });
    if (better) {
      better.hexes.forEach(function (h) {
        var c = px(h[0], h[1]);
        out.push(polygon(c[0], c[1], unit * 0.8, 6, 0, -90) + ' class="better"/>');
      });
      better.arrows.forEach(function (a) {
        var p = px(a[0], a[1]), q = px(a[2], a[3]);
        var dx = q[0] - p[0], dy = q[1] - p[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
        var cut = Math.min(unit * 0.45, len / 3), w = Math.max(3, unit * 0.16);
        out.push(polygon(p[0], p[1], unit * 0.8, 6, 0, -90) + ' class="better"/>');
        out.push(polygon(q[0], q[1], unit * 0.8, 6, 0, -90) + ' class="better to"/>');
        out.push('<line x1="' + p[0].toFixed(1) + '" y1="' + p[1].toFixed(1) + '" x2="' +
          (q[0] - dx / len * cut).toFixed(1) + '" y2="' + (q[1] - dy / len * cut).toFixed(1) +
          '" stroke-width="' + w.toFixed(1) + '" class="better-arrow" marker-end="url(#howl-arrow)"/>');
      });
    }
    return out;
  }

  /* One step's pieces and tokens, drawn as an SVG layer over the map at the map's scale
     (the map itself is drawn once, and again only when its size changed). */
  function drawPieces(g, s) {
    var layer = document.getElementById("replay-board");
    var sc = drawMap(document.getElementById("replay-map"), g.board);
    if (!layer || !sc) { return false; }
    var out = pieces(g.board, g.board.steps[s], sc, frame().flagged(s));
    layer.innerHTML = '<svg width="' + sc.width + '" height="' + sc.height + '" data-step="' + s +
      '" aria-label="pieces at step ' + s + '"><defs><marker id="howl-arrow" viewBox="0 0 10 10" ' +
      'refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse">' +
      '<path d="M0,0 L10,5 L0,10 z" class="better-head"/></marker></defs>' + out.join("") + "</svg>";
    return true;
  }

  /* What stands on a hex at step s, for the map's hover box. */
  function hexNotes(b, s, x, y) {
    var f = b.steps[s], out = [], esc = frame().esc;
    f.p.forEach(function (p) {
      if (p[0] === x && p[1] === y) { out.push(esc(seatName(b, p[3])) + " " + b.kind_names[p[2]]); }
    });
    f.l.forEach(function (h) { if (h[0] === x && h[1] === y) { out.push("lone wolf"); } });
    f.r.forEach(function (r) { if (r[0] === x && r[1] === y) { out.push("prey: " + r[3] + " " + r[2]); } });
    f.k.forEach(function (t) {
      if (t[0] === x && t[1] === y) {
        out.push("scoring token" + (t[2].length > 1 ? "s " : " ") +
          t[2].split("").map(function (l) { return PHASE_NAMES[l]; }).join(" on ") + " (region " + t[3] + ")");
      }
    });
    f.h.forEach(function (h) { if (h[0] === x && h[1] === y) { out.push("<i>touched by this step</i>"); } });
    return out;
  }

  /* The map's hover box: the hex under the pointer (its shape on the static map: the
     pieces' layer lets the pointer through) and what stands there at the current step, so
     the per-step layer needs no hover texts. */
  function hookHover() {
    var map = document.getElementById("replay-map"), box = document.getElementById("replay-hover");
    if (!map || !box) { return false; }
    if (map.__howlHover) { return true; }
    map.__howlHover = true;
    map.addEventListener("mousemove", function (e) {
      var R = frame(), g = R.game, cell = e.target.closest && e.target.closest("[data-i]");
      if (!g || !cell) { box.style.display = "none"; return; }
      var h = g.board.hexes[+cell.getAttribute("data-i")];
      box.innerHTML = [R.esc(h[2])].concat(hexNotes(g.board, R.step, h[0], h[1])).join("<br>");
      var bb = map.getBoundingClientRect();
      var x = e.clientX - bb.left, y = e.clientY - bb.top;
      box.style.left = Math.max(0, Math.min(x + 14, bb.width - 260)) + "px";
      box.style.top = (y + 14) + "px";
      box.style.display = "block";
    });
    map.addEventListener("mouseleave", function () { box.style.display = "none"; });
    return true;
  }

  function pips(taken, total) {
    var out = "";
    for (var i = 0; i < total; i++) { out += i < taken ? "●" : "○"; }
    return out;
  }

  /* A seat's board in frame f; with ``pay`` (a payment being chosen: ``{tiles, bonus_terrain}``)
     its tiles and bonus terrain tokens are buttons that change it. */
  function playerBoard(b, f, seat, pay) {
    var row = f.b[seat], v = f.v[seat], p = b.players[seat];
    var tiles = row[0].split("").map(function (ch, i) {
      var t = b.terrains[+ch], tag = pay ? "button" : "span";
      var paid = pay && pay.tiles.indexOf(i) >= 0;
      return "<" + tag + ' class="tile' + (i === 0 ? " faction" : "") + (paid ? " paid" : "") +
        (pay ? '" type="button" data-slot="' + i + '" aria-pressed="' + !!paid : "") + '" title="' +
        (i === 0 ? "faction tile: " : "tile " + i + ": ") + t + '" style="background:' +
        b.terrain_colors[t] + '">' + t.charAt(0).toUpperCase() + "</" + tag + ">";
    }).join("");
    function line(name, value, vp) {
      return "<tr><th>" + name + "</th><td>" + value + '</td><td class="vp">' +
        (vp === null ? "" : vp) + "</td></tr>";
    }
    var rows = ["spread", "speed", "howl"].map(function (t, i) {
      return line(t, "<b>" + b.tracks[t][row[1 + i]] + "</b> " + pips(row[1 + i], 4), v[2 + i]);
    });
    rows.push(line("lairs", pips(row[4], 4), v[5]));
    rows.push(line("pack", pips(row[5], 8), v[7]));
    rows.push(line("prey", row[6].length ? row[6].join(", ") : "—", v[6]));
    rows.push(line("regions", row[10] + (row[10] === 1 ? " token" : " tokens"), v[1]));
    rows.push(line("bonus", row[8] + " action · " + (pay ? '<button type="button" class="pay-bonus" ' +
      'title="bonus terrain tokens paying (click: one more, back to none after all)">' +
      pay.bonus_terrain + " of " + row[7] + " terrain paying</button>" : row[7] + " terrain"), null));
    var turn = f.t === seat && !f.f;
    return '<div class="player-board' + (turn ? " turn" : "") + '" data-seat="' + seat +
      '" style="border-color:' + p.color + '"><div class="pb-head">' +
      '<span class="swatch" style="background:' + p.color + '"></span>' +
      '<span class="pb-name">' + frame().esc(p.name) + "</span>" +
      '<span class="pb-terrain">' + p.terrain + "</span>" +
      (turn ? '<span class="pb-turn" title="to play, actions left">▶ ' + f.a + "</span>" : "") +
      '<span class="pb-total"><span class="board-vp">' + v[0] + "</span> VP</span></div>" +
      '<div class="tiles">' + tiles + '</div><table class="pb-table"><tbody>' + rows.join("") +
      "</tbody></table></div>";
  }

  function moonlight(b, f) {
    var date = f.m, dates = b.phase_dates;
    var n = Math.max(dates[2], date), cells = "";
    for (var i = 1; i <= n; i++) {
      var phase = dates.indexOf(i);
      cells += '<span class="moon-cell' + (i <= date ? " filled" : "") + (phase >= 0 ? " phase" : "") +
        '" title="' + (phase >= 0 ? b.phases[phase] + " at " + i : "date " + i) + '">' +
        (phase >= 0 ? b.phases[phase].charAt(0).toUpperCase() : "") + "</span>";
    }
    var next = null;
    for (var j = 0; j < dates.length; j++) { if (date < dates[j]) { next = j; break; } }
    var status = f.f ? "game over" : next === null ? "all phases reached" :
      "next: " + b.phases[next] + " at " + dates[next];
    return '<div class="moon-head"><b>Moonlight</b> date <span class="moon-date">' + date +
      "</span> · " + status + '</div><div class="moon-track">' + cells + "</div>";
  }

  /* Player boards: one slot per seat, rewritten only when its board changed. */
  function drawBoards(g, s) {
    var b = g.board, boards = document.getElementById("replay-boards");
    if (!boards) { return; }
    if (boards.getAttribute("data-game") !== g.id || boards.children.length !== b.players.length) {
      boards.innerHTML = b.players.map(function () { return '<div class="board-slot"></div>'; }).join("");
      boards.setAttribute("data-game", g.id);
    }
    b.players.forEach(function (_, seat) {
      var slot = boards.children[seat], html = playerBoard(b, b.steps[s], seat);
      if (slot.__html !== html) { slot.innerHTML = html; slot.__html = html; }
    });
  }

  function draw(g, s) {
    var R = frame();
    R.untilDone(function () { return drawPieces(R.game, R.step); });
    R.untilDone(hookHover);
    drawBoards(g, s);
    var moon = document.getElementById("replay-moon");
    var html = moonlight(g.board, g.board.steps[s]);
    if (moon && moon.__html !== html) { moon.innerHTML = html; moon.__html = html; }
  }

  window.howlBoards = window.howlBoards || {};
  window.howlBoards["the-wolves"] = {
    draw: draw, resize: function (g, s) { drawPieces(g, s); },
    /* for the table page (assets/table.js): the same drawing, from frames it makes */
    drawMap: drawMap, pieces: pieces, playerBoard: playerBoard, moonlight: moonlight,
    polygon: polygon
  };
})();
