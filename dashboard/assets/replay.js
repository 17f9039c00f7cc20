/* Howl replay: step changes happen here, in the browser, from data loaded once
   (dashboard/game.py). The board's pieces, the charts' cursors, the player boards,
   the Moonlight board, the step log and the URL all follow the slider's value.
   The boards, Moonlight and log are plain HTML written into empty containers (Dash
   components per cell would cost seconds to mount for a long game). The game's review
   (dashboard/analysis.py) marks the log and draws a flagged action's better alternative. */
(function () {
  "use strict";
  var R = {step: 0, last: 0, game: null, push: false, path: null, review: null};
  var CHARTS = ["replay-win", "replay-margin", "replay-vp", "replay-control"];
  var MARKS = {inaccuracy: "?!", mistake: "?", blunder: "??"};
  window.howlReplay = R;
  var SQ3 = Math.sqrt(3);
  var PREY_NAMES = {deer: "deer", boar: "boar", raccoon: "raccoon", hare: "hare", moose: "moose"};
  var PHASE_NAMES = {C: "crescent", Q: "quarter", F: "full"};

  function centre(x, y) { return [SQ3 * (x - y / 2), 1.5 * y]; }
  function key(x, y) { return x + "," + y; }
  function clamp(s, g) { return Math.max(0, Math.min(g.last, s)); }
  function setStep(s, push) {
    var g = R.game;
    if (!g) { return; }
    s = clamp(s, g);
    if (s === R.step) { return; }
    R.step = s;
    R.push = !!push;
    window.dash_clientside.set_props("replay-slider", {value: s});
  }

  function seatName(g, seat) {
    return seat < 0 ? "automaton" : g.players[seat].name;
  }

  function hexOutline(xs, ys, x, y) {
    var c = centre(x, y);
    for (var i = 0; i <= 6; i++) {
      var a = (-90 + 60 * i) * Math.PI / 180;
      xs.push(c[0] + 0.93 * Math.cos(a));
      ys.push(c[1] + 0.93 * Math.sin(a));
    }
    xs.push(null); ys.push(null);
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
  var SIZES = {den: 0.34, lair: 0.42, pack: 0.34, alpha: 0.42};

  /* One step's pieces and tokens, drawn as an SVG layer over the plotly map at the map's
     own axis scale (plotly draws the map once; redrawing it per step would cost more
     than the target of a step change). */
  function drawPieces(g, s) {
    var layer = document.getElementById("replay-board");
    var gd = document.querySelector("#replay-map .js-plotly-plot");
    var fl = gd && gd._fullLayout;
    if (!layer || !fl || !fl.xaxis || !fl.xaxis.l2p) { return false; }
    var xa = fl.xaxis, ya = fl.yaxis;
    var unit = Math.abs(xa.l2p(1) - xa.l2p(0));
    function px(x, y) { var c = centre(x, y); return [xa._offset + xa.l2p(c[0]), ya._offset + ya.l2p(c[1])]; }
    var f = g.steps[s], out = [];
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
      var color = p[3] < 0 ? g.automaton : g.players[p[3]].color;
      out.push(SHAPES[g.symbols[p[2]]](c[0] + dx, c[1], unit * SIZES[g.kinds[p[2]]]) +
        ' class="piece ' + g.kinds[p[2]] + '" fill="' + color + '"/>');
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
    var better = flagged(s);
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
    layer.innerHTML = '<svg width="' + fl.width + '" height="' + fl.height + '" data-step="' + s +
      '" aria-label="pieces at step ' + s + '"><defs><marker id="howl-arrow" viewBox="0 0 10 10" ' +
      'refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse">' +
      '<path d="M0,0 L10,5 L0,10 z" class="better-head"/></marker></defs>' + out.join("") + "</svg>";
    return true;
  }

  /* Run fn until it reports success: plotly may still be loading (at most ~20 s). */
  function untilDone(fn, tries) {
    tries = tries || 0;
    if (fn() || tries >= 500) { return; }
    var again = function () { untilDone(fn, tries + 1); };
    if (tries < 120) { window.requestAnimationFrame(again); } else { window.setTimeout(again, 50); }
  }

  /* What stands on a hex at step s, for the map's hover box. */
  function hexNotes(g, s, x, y) {
    var f = g.steps[s], out = [];
    f.p.forEach(function (p) {
      if (p[0] === x && p[1] === y) { out.push(esc(seatName(g, p[3])) + " " + g.kind_names[p[2]]); }
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

  /* The map's hover box: the static map reports the hovered hex (its hover trace shows
     nothing itself) and this box lists what stands there at the current step, so the
     per-step overlay needs no hover texts. */
  function hookHover() {
    var gd = document.querySelector("#replay-map .js-plotly-plot");
    var box = document.getElementById("replay-hover");
    if (!gd || !gd.on || !box) { return false; }
    if (gd.__howlHover) { return true; }
    gd.__howlHover = true;
    gd.on("plotly_hover", function (e) {
      var g = R.game, pt = e.points && e.points[0];
      if (!g || !pt || pt.customdata === undefined) { return; }
      var h = g.hexes[pt.customdata];
      box.innerHTML = [esc(h[2])].concat(hexNotes(g, R.step, h[0], h[1])).join("<br>");
      var bb = gd.getBoundingClientRect();
      var x = e.event.clientX - bb.left, y = e.event.clientY - bb.top;
      box.style.left = Math.min(x + 14, bb.width - 260) + "px";
      box.style.top = (y + 14) + "px";
      box.style.display = "block";
    });
    gd.on("plotly_unhover", function () { box.style.display = "none"; });
    return true;
  }

  /* The cursor over a timeline chart: a thin div at the step's x, so the chart itself
     is never redrawn. Retries until plotly has drawn the chart. */
  function placeCursor(id, s) {
    var cursor = document.getElementById(id + "-cursor");
    var gd = document.querySelector("#" + id + " .js-plotly-plot");
    if (!cursor) { return true; }
    var fl = gd && gd._fullLayout;
    if (!fl || !fl.xaxis || !fl.yaxis || !fl.xaxis.l2p) { return false; }
    var xa = fl.xaxis, ya = fl.yaxis;
    cursor.className = "cursor";
    cursor.style.transform = "translateX(" + (xa._offset + xa.l2p(s) - 1) + "px)";
    cursor.style.top = ya._offset + "px";
    cursor.style.height = ya._length + "px";
    cursor.setAttribute("data-step", String(s));
    return true;
  }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }

  function pips(taken, total) {
    var out = "";
    for (var i = 0; i < total; i++) { out += i < taken ? "●" : "○"; }
    return out;
  }

  function playerBoard(g, s, seat) {
    var f = g.steps[s], b = f.b[seat], v = f.v[seat], p = g.players[seat];
    var tiles = b[0].split("").map(function (ch, i) {
      var t = g.terrains[+ch];
      return '<span class="tile' + (i === 0 ? " faction" : "") + '" title="' +
        (i === 0 ? "faction tile: " : "tile " + i + ": ") + t + '" style="background:' +
        g.terrain_colors[t] + '">' + t.charAt(0).toUpperCase() + "</span>";
    }).join("");
    function row(name, value, vp) {
      return "<tr><th>" + name + "</th><td>" + value + '</td><td class="vp">' +
        (vp === null ? "" : vp) + "</td></tr>";
    }
    var rows = ["spread", "speed", "howl"].map(function (t, i) {
      return row(t, "<b>" + g.tracks[t][b[1 + i]] + "</b> " + pips(b[1 + i], 4), v[2 + i]);
    });
    rows.push(row("lairs", pips(b[4], 4), v[5]));
    rows.push(row("pack", pips(b[5], 8), v[7]));
    rows.push(row("prey", b[6].length ? b[6].join(", ") : "—", v[6]));
    rows.push(row("regions", b[10] + (b[10] === 1 ? " token" : " tokens"), v[1]));
    rows.push(row("bonus", b[8] + " action · " + b[7] + " terrain", null));
    var turn = f.t === seat && !f.f;
    return '<div class="player-board' + (turn ? " turn" : "") + '" data-seat="' + seat +
      '" style="border-color:' + p.color + '"><div class="pb-head">' +
      '<span class="swatch" style="background:' + p.color + '"></span>' +
      '<span class="pb-name">' + esc(p.name) + "</span>" +
      '<span class="pb-terrain">' + p.terrain + "</span>" +
      (turn ? '<span class="pb-turn" title="to play, actions left">▶ ' + f.a + "</span>" : "") +
      '<span class="pb-total"><span class="board-vp">' + v[0] + "</span> VP</span></div>" +
      '<div class="tiles">' + tiles + '</div><table class="pb-table"><tbody>' + rows.join("") +
      "</tbody></table></div>";
  }

  function moonlight(g, s) {
    var f = g.steps[s], date = f.m, dates = g.phase_dates;
    var n = Math.max(dates[2], date), cells = "";
    for (var i = 1; i <= n; i++) {
      var phase = dates.indexOf(i);
      cells += '<span class="moon-cell' + (i <= date ? " filled" : "") + (phase >= 0 ? " phase" : "") +
        '" title="' + (phase >= 0 ? g.phases[phase] + " at " + i : "date " + i) + '">' +
        (phase >= 0 ? g.phases[phase].charAt(0).toUpperCase() : "") + "</span>";
    }
    var next = null;
    for (var j = 0; j < dates.length; j++) { if (date < dates[j]) { next = j; break; } }
    var status = f.f ? "game over" : next === null ? "all phases reached" :
      "next: " + g.phases[next] + " at " + dates[next];
    return '<div class="moon-head"><b>Moonlight</b> date <span class="moon-date">' + date +
      "</span> · " + status + '</div><div class="moon-track">' + cells + "</div>";
  }

  /* Player boards: one slot per seat, rewritten only when its board changed. */
  function drawBoards(g, s) {
    var boards = document.getElementById("replay-boards");
    if (!boards) { return; }
    if (boards.getAttribute("data-game") !== g.id || boards.children.length !== g.players.length) {
      boards.innerHTML = g.players.map(function () { return '<div class="board-slot"></div>'; }).join("");
      boards.setAttribute("data-game", g.id);
    }
    g.players.forEach(function (_, seat) {
      var slot = boards.children[seat], html = playerBoard(g, s, seat);
      if (slot.__html !== html) { slot.innerHTML = html; slot.__html = html; }
    });
  }

  /* The review's mark of step s (its class, the better action and where it acts), or null. */
  function flagged(s) {
    var r = R.review;
    return r && r.marks ? r.marks[String(s)] || null : null;
  }

  function markHtml(m) {
    return '<span class="mark ' + m.c + '" title="' + m.c + ": about " + Math.round(100 * m.gain) +
      ' % win chance lost">' + MARKS[m.c] + "</span>";
  }

  /* The line over the board: what the review says of the step's action. */
  function drawAdvice(g, s) {
    var box = document.getElementById("replay-advice");
    if (!box) { return; }
    var m = flagged(s), html = "";
    if (m) {
      html = markHtml(m) + ' <b>' + m.c.charAt(0).toUpperCase() + m.c.slice(1) + "</b> by " +
        esc(g.players[m.seat].name) + '. Better: <span class="better-label">' + esc(m.best) +
        '</span> <span class="gain">(+' + (100 * m.gain).toFixed(0) + " % win chance)</span>";
    } else if (R.review && R.review.status === "done" && s > 0) {
      html = '<span class="note">No mistake found in this action.</span>';
    }
    if (box.__html !== html) { box.innerHTML = html; box.__html = html; }
  }

  function drawLog(g) {
    var log = document.getElementById("replay-log");
    var drawn = g.id + ":" + (R.review && R.review.key || "");
    if (!log || log.getAttribute("data-game") === drawn) { return; }
    log.innerHTML = g.log.map(function (e) {
      var m = flagged(e[0]);
      var dot = e[1] === null ? "" : '<span class="dot" style="background:' + g.players[e[1]].color + '"></span>';
      var extra = e[3].map(function (line) { return '<div class="log-scoring">' + esc(line) + "</div>"; }).join("") +
        (e[4] ? '<div class="log-end">' + esc(e[4]) + "</div>" : "");
      return '<li class="log-step' + (e[3].length ? " scoring" : "") + '" data-step="' + e[0] + '">' +
        '<span class="log-n">' + e[0] + "</span>" + dot + "<span>" + esc(e[2]) + "</span>" +
        (m ? " " + markHtml(m) : "") + extra + "</li>";
    }).join("");
    log.setAttribute("data-game", drawn);
  }

  function markLog(s) {
    var log = document.getElementById("replay-log");
    if (!log) { return; }
    var old = log.querySelector(".log-step.current");
    if (old) { old.classList.remove("current"); }
    var cur = log.querySelector('[data-step="' + s + '"]');
    if (cur) {
      cur.classList.add("current");
      var top = cur.offsetTop;  /* the log is positioned: offsets are within it */
      if (top < log.scrollTop || top + cur.offsetHeight > log.scrollTop + log.clientHeight) {
        log.scrollTop = Math.max(0, top - log.clientHeight / 3);
      }
    }
  }

  /* The URL follows the step: a jump (first, last, a click) is a new history entry, a
     step to a neighbour replaces the current one. Written just after the step shows. */
  function followUrl(s, push) {
    var want = "?step=" + s;
    if (window.location.pathname !== R.path || window.location.search === want) { return; }
    var url = R.path + want;
    if (push) { window.history.pushState(null, "", url); }
    else { window.history.replaceState(null, "", url); }
  }

  function render(value, g) {
    var nu = window.dash_clientside.no_update;
    if (!g) { return [nu, nu]; }
    var s = clamp(value || 0, g);
    R.game = g; R.last = g.last; R.step = s; R.path = window.location.pathname;
    var out = ["Step " + s + " / " + g.last, g.labels[s]];
    untilDone(function () { return drawPieces(R.game, R.step); });
    untilDone(hookHover);
    CHARTS.forEach(function (id) { untilDone(function () { return placeCursor(id, R.step); }); });
    drawBoards(g, s);
    drawAdvice(g, s);
    var moon = document.getElementById("replay-moon");
    var moonHtml = moonlight(g, s);
    if (moon && moon.__html !== moonHtml) { moon.innerHTML = moonHtml; moon.__html = moonHtml; }
    drawLog(g);
    var push = R.push;
    R.push = false;
    window.clearTimeout(R.later);
    R.later = window.setTimeout(function () { markLog(R.step); followUrl(R.step, push); }, push ? 0 : 250);
    return out;
  }

  /* The review arrived (on load, or when a queued review is done): mark the log, redraw
     the step's alternative. */
  function review(data) {
    R.review = data || null;
    var g = R.game;
    if (g) {
      drawLog(g); markLog(R.step); drawAdvice(g, R.step);
      untilDone(function () { return drawPieces(R.game, R.step); });
    }
    return data ? data.key : null;
  }

  function navigate(first, prev, next, last, play, tick, vpClick, ctrlClick, winClick, marginClick,
                    value, playing, g) {
    var nu = window.dash_clientside.no_update;
    var ctx = window.dash_clientside.callback_context;
    if (!g || !ctx.triggered.length) { return [nu, nu, nu]; }
    var id = ctx.triggered[0].prop_id.split(".")[0];
    var s = value || 0, stop = nu, label = nu;
    if (id === "replay-first") { s = 0; R.push = true; }
    else if (id === "replay-prev") { s -= 1; }
    else if (id === "replay-next") { s += 1; }
    else if (id === "replay-last") { s = g.last; R.push = true; }
    else if (id === "replay-play") {
      var start = playing;  /* the interval is disabled: start playing */
      if (start && s >= g.last) { s = 0; }
      return [s === value ? nu : s, !start, start ? "Pause" : "Play"];
    }
    else if (id === "replay-tick") {
      s += 1;
      if (s >= g.last) { stop = true; label = "Play"; }
    }
    else {
      var click = {"replay-vp": vpClick, "replay-control": ctrlClick, "replay-win": winClick,
                   "replay-margin": marginClick}[id];
      if (!click || !click.points || !click.points.length) { return [nu, nu, nu]; }
      s = Math.round(click.points[0].x); R.push = true;
    }
    s = clamp(s, g);
    return [s === value ? nu : s, stop, label];
  }

  function speed(value) { return Math.round(800 / (value || 1)); }

  document.addEventListener("keydown", function (e) {
    if (!R.game || !document.getElementById("replay-slider")) { return; }
    var t = e.target;
    if (t && t.closest && (t.closest("input, textarea, select, [contenteditable]") || t.closest("#replay-slider"))) { return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var s;
    if (e.key === " ") {  /* a focused button clicks itself on space */
      var play = document.getElementById("replay-play");
      if (play && !(t && t.closest && t.closest("button"))) { e.preventDefault(); play.click(); }
      return;
    }
    if (e.key === "ArrowRight") { s = R.step + 1; }
    else if (e.key === "ArrowLeft") { s = R.step - 1; }
    else if (e.key === "Home") { s = 0; }
    else if (e.key === "End") { s = R.last; }
    else { return; }
    e.preventDefault();
    setStep(s, e.key === "Home" || e.key === "End");
  });

  document.addEventListener("click", function (e) {
    var item = e.target && e.target.closest &&
      e.target.closest("#replay-log [data-step], #analysis-moments [data-step]");
    if (item) { setStep(parseInt(item.getAttribute("data-step"), 10), true); }
  });

  window.addEventListener("popstate", function () {
    if (!R.game || !document.getElementById("replay-slider") || window.location.pathname !== R.path) { return; }
    var m = /[?&]step=(\d+)/.exec(window.location.search);
    var s = m ? parseInt(m[1], 10) : 0;
    if (s !== R.step) { R.step = clamp(s, R.game); R.push = false; window.dash_clientside.set_props("replay-slider", {value: R.step}); }
  });

  window.addEventListener("resize", function () {
    if (!R.game) { return; }
    window.setTimeout(function () {
      drawPieces(R.game, R.step);
      CHARTS.forEach(function (id) { placeCursor(id, R.step); });
    }, 150);
  });

  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    howl: {render: render, navigate: navigate, speed: speed, review: review}
  });
})();
