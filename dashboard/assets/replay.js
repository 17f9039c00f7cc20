/* Howl replay, the frame every game shares: step changes happen here, in the browser, from
   data loaded once (dashboard/game.py). The charts' cursors, the step log and the URL follow
   the step shown (the slider's value, or a step taken by key, click or history, which is
   drawn at once and which the slider follows), and the game's board view draws the step:
   its script registers in
   window.howlBoards under the view's name (dashboard/boards/__init__.py) with
   draw(game, step) and, optionally, resize(game, step). The log is plain HTML written into
   an empty container (Dash components per entry would cost seconds to mount for a long
   game). The game's review (dashboard/analysis.py) marks the log and the advice line.

   A variation's line (assets/explore.js) is shown on the same controls: R.line =
   {vid, step (its origin), steps, name, version, draw(s) (true when it drew step s itself:
   the line's own steps), label(s), log() (its own steps' log entries), scores() (each own
   step's seat totals), origin() (the totals at its origin)} makes the slider run to the
   line's last step, the log list the game's steps up to the origin and the line's after it,
   the score and margin charts draw it dashed, and the URL carry ?line=VID; R.held (the id
   of the variation explored, or false) leaves the board to the table board and the keys to
   it (the URL then carries line=R.held&explore=1). R.onGame(g), when set, sees the page's
   data first (its ``line`` is the line the page opened on); R.onStep(s) sees every step
   shown. */
(function () {
  "use strict";
  var R = window.howlReplay = Object.assign(window.howlReplay || {},  // its hooks may be set first
    {step: 0, last: 0, game: null, push: false, path: null, review: null, line: null, held: false,
     slider: null, echoes: []});
  var MARKS = {inaccuracy: "?!", mistake: "?", blunder: "??"};
  /* Moving the slider costs Dash tens of ms: a step by key, click or history moves it this
     many ms after the last one, the board, texts, charts and log at once. */
  var SLIDER_LAG = 120;
  window.howlBoards = window.howlBoards || {};

  /* The last step of the line shown. */
  function end(g) { return R.line ? R.line.steps : g.last; }
  function clamp(s, g) { return Math.max(0, Math.min(end(g), s)); }
  /* Whether step s is the line's own (after its origin), not the game's. */
  function own(s) { return R.line && s > R.line.step; }
  function setStep(s, push) {
    var g = R.game;
    if (!g) { return; }
    s = clamp(s, g);
    if (s === R.step) { return; }
    R.push = !!push;
    paint(s, g);
    window.clearTimeout(R.sliding);
    R.sliding = window.setTimeout(function () {  /* the slider follows once the steps pause */
      if (document.getElementById("replay-slider") && R.step !== R.slider) {
        slide({value: R.step});
      }
    }, SLIDER_LAG);
  }

  /* The slider moved here to the step drawn (``props``, with its value): its callback then
     hears the echo, which must not draw that step again over a newer one. */
  function slide(props) {
    if (props.value !== R.slider) { issued(props.value); }  /* else it hears nothing */
    window.dash_clientside.set_props("replay-slider", props);
  }

  /* The slider is being moved to step s by this script: an echo to come (R.echoes). */
  function issued(s) {
    R.slider = s;
    R.echoes.push(s);
  }

  /* Step s drawn now and its step and label written, without waiting for Dash's callbacks
     (the slider's then finds it drawn). */
  function paint(s, g) {
    var set = window.dash_clientside.set_props, out = drawStep(s, g);
    set("replay-step", {children: out[0]});
    set("replay-label", {children: out[1]});
  }

  /* The game's board view in the browser (a view that draws nothing when it has none). */
  function view(g) { return window.howlBoards[g.view] || {draw: function () {}}; }

  /* Run fn until it reports success: plotly may still be loading (at most ~20 s). */
  function untilDone(fn, tries) {
    tries = tries || 0;
    if (fn() || tries >= 500) { return; }
    var again = function () { untilDone(fn, tries + 1); };
    if (tries < 120) { window.requestAnimationFrame(again); } else { window.setTimeout(again, 50); }
  }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }

  /* The cursor over a timeline chart: a thin div at the step's x (s null: hidden), so the
     chart itself is never redrawn. Retries until plotly has drawn the chart. */
  function placeCursor(id, s) {
    var cursor = document.getElementById(id + "-cursor");
    var gd = document.querySelector("#" + id + " .js-plotly-plot");
    if (!cursor) { return true; }
    if (s === null) { cursor.className = "cursor off"; cursor.removeAttribute("data-step"); return true; }
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

  /* The step a chart's cursor marks: the step shown on the charts that draw the line shown;
     on the others the game's step, none for a step of the line's own (they do not draw it). */
  function cursorAt(id, g) {
    if (id === g.score_chart || id === "replay-margin") { return R.step; }
    return own(R.step) ? null : Math.min(R.step, g.last);
  }

  /* A click on a timeline chart jumps to the step under it. */
  function hookClick(id) {
    var gd = document.querySelector("#" + id + " .js-plotly-plot");
    if (!gd || !gd.on) { return false; }
    if (gd.__howlClick) { return true; }
    gd.__howlClick = true;
    gd.on("plotly_click", function (e) {
      if (e.points && e.points.length) { setStep(Math.round(e.points[0].x), true); }
    });
    return true;
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
    var m = own(s) ? null : flagged(s), html = "";
    if (m) {
      html = markHtml(m) + ' <b>' + m.c.charAt(0).toUpperCase() + m.c.slice(1) + "</b> by " +
        esc(g.players[m.seat].name) + '. Better: <span class="better-label">' + esc(m.best) +
        '</span> <span class="gain">(+' + (100 * m.gain).toFixed(0) + " ± " + (100 * m.se).toFixed(0) +
        " % win chance, " + esc(m.sure) + ")</span>" +
        ' <button type="button" class="step-button show-line" data-show="' + (s - 1) + '" title="play the ' +
        'suggested line from here as a variation">Show</button>';
    } else if (R.review && R.review.status === "done" && s > 0 && !own(s)) {
      html = '<span class="note">No mistake found in this action.</span>';
    }
    if (box.__html !== html) { box.innerHTML = html; box.__html = html; }
  }

  function logItem(g, e, own) {
    var m = own ? null : flagged(e[0]);
    var dot = e[1] === null ? "" : '<span class="dot" style="background:' + g.players[e[1]].color + '"></span>';
    var extra = e[3].map(function (line) { return '<div class="log-scoring">' + esc(line) + "</div>"; }).join("") +
      (e[4] ? '<div class="log-end">' + esc(e[4]) + "</div>" : "");
    return '<li class="log-step' + (e[3].length ? " scoring" : "") + (own ? " own" : "") + '" data-step="' + e[0] +
      '" tabindex="-1"><span class="log-n">' + e[0] + "</span>" + dot + "<span>" + esc(e[2]) + "</span>" +
      (m ? " " + markHtml(m) : "") + extra + "</li>";
  }

  /* The step log of the line shown: the game's steps, or with a line the game's up to its
     origin and the line's own after it (its entries: R.line.log(), as the game's). */
  function drawLog(g) {
    var log = document.getElementById("replay-log"), l = R.line;
    var drawn = g.id + ":" + (R.review && R.review.key || "") + (l ? ":" + l.vid + ":" + l.version : "");
    if (!log || log.getAttribute("data-game") === drawn) { return; }
    var main = l ? g.log.filter(function (e) { return e[0] <= l.step; }) : g.log;
    var html = main.map(function (e) { return logItem(g, e, false); }).join("");
    if (l) {
      html += '<li class="log-line" data-line="' + esc(l.vid) + '">' + esc(l.name) + ", from step " + l.step + "</li>" +
        l.log().map(function (e) { return logItem(g, e, true); }).join("");
    }
    log.innerHTML = html;
    log.setAttribute("data-game", drawn);
    if (window.howlShare) { window.howlShare.log(); }  /* the comments (share.js) */
  }

  /* The line shown on the score and margin charts: each seat's score (and lead) over the
     line's own steps, dashed, from its origin; the charts' steps run to the line's end. */
  function drawLineCharts(g) {
    var l = R.line, key = l ? l.vid + ":" + l.version : "";
    [g.score_chart, "replay-margin"].forEach(function (id) {
      untilDone(function () {
        var gd = document.querySelector("#" + id + " .js-plotly-plot");
        if (!gd || !gd._fullLayout || !window.Plotly) { return !document.getElementById(id); }
        if ((gd.__howlLine || "") === key) { return true; }
        var n = gd.data.length, had = gd.__howlLineTraces || 0, traces = [];
        if (had) { window.Plotly.deleteTraces(gd, range(n - had, n)); }
        if (l) { traces = lineTraces(g, l, id === "replay-margin"); window.Plotly.addTraces(gd, traces); }
        window.Plotly.relayout(gd, {"xaxis.range": [-0.5, Math.max(g.last, l ? l.steps : 0) + 0.5]});
        gd.__howlLine = key;
        gd.__howlLineTraces = traces.length;
        placeCursor(id, R.step);
        return true;
      });
    });
  }

  function range(a, b) { var out = []; for (var i = a; i < b; i++) { out.push(i); } return out; }

  /* A dashed trace per seat of the line's scores (or leads over the best other seat). */
  function lineTraces(g, l, margin) {
    var rows = [l.origin()].concat(l.scores()), xs = range(l.step, l.steps + 1);
    function value(row, s) {
      if (!margin) { return row[s]; }
      var others = row.filter(function (_, o) { return o !== s; });
      return row[s] - Math.max.apply(null, others.length ? others : [0]);
    }
    return g.players.map(function (p, s) {
      return {type: "scatter", mode: "lines", name: p.name + " · " + l.name, x: xs,
        y: rows.map(function (row) { return value(row, s); }),
        line: {color: p.color, width: 2, dash: "dash", shape: "hv"},
        hovertemplate: "<b>" + esc(p.name) + "</b> %{y} (" + esc(l.name) + ")<extra></extra>"};
    });
  }

  function markLog(s) {
    var log = document.getElementById("replay-log");
    if (!log) { return; }
    var old = log.querySelector(".log-step.current"), had = old && old === document.activeElement;
    if (old) { old.classList.remove("current"); old.setAttribute("tabindex", "-1"); }
    var cur = log.querySelector('[data-step="' + s + '"]');
    if (cur) {
      cur.classList.add("current");
      cur.setAttribute("tabindex", "0");  /* the log's one tab stop: its step shown */
      if (had) { cur.focus({preventScroll: true}); }
      var top = cur.offsetTop;  /* the log is positioned: offsets are within it */
      if (top < log.scrollTop || top + cur.offsetHeight > log.scrollTop + log.clientHeight) {
        log.scrollTop = Math.max(0, top - log.clientHeight / 3);
      }
    }
  }

  /* The URL follows the step: a jump (first, last, a click) is a new history entry, a
     step to a neighbour replaces the current one. Written just after the step shows. */
  function followUrl(s, push) {
    var vid = R.held || (R.line ? R.line.vid : null);
    var want = "?step=" + s + (vid ? "&line=" + vid : "") + (R.held ? "&explore=1" : "");
    if (window.location.pathname !== R.path || window.location.search === want) { return; }
    var url = R.path + want;
    if (push) { window.history.pushState(null, "", url); }
    else { window.history.replaceState(null, "", url); }
  }

  /* The slider's callback: step ``value`` shown, unless it already is. */
  function render(value, g) {
    var nu = window.dash_clientside.no_update;
    if (!g) { return [nu, nu]; }
    var echo = R.echoes.indexOf(value);
    R.slider = value;
    R.echoes.splice(0, echo + 1);  /* an echo: it and those before it are heard */
    if (g === R.game && (echo >= 0 || R.drawn && R.drawn.line === R.line && R.drawn.step === clamp(value || 0, g))) {
      return [nu, nu];
    }
    return drawStep(value, g);
  }

  /* Step ``value`` of the game or line shown drawn: board, cursors, log, advice and URL;
     its step and label texts returned. */
  function drawStep(value, g) {
    if (R.game !== g && R.onGame) { R.game = g; R.onGame(g); }
    var s = clamp(value || 0, g);
    R.game = g; R.last = end(g); R.step = s; R.path = window.location.pathname;
    R.drawn = {step: s, line: R.line};
    var out = ["Step " + s + " / " + R.last + (R.line ? " · " + R.line.name : ""),
      own(s) ? R.line.label(s) : g.labels[s]];
    if (!R.held) {
      if (!(R.line && R.line.draw(s))) { view(g).draw(g, s); }
      drawAdvice(g, s);
    }
    g.charts.forEach(function (id) {
      untilDone(function () { return placeCursor(id, cursorAt(id, g)); });
      untilDone(function () { return hookClick(id); });
    });
    drawLineCharts(g);
    drawLog(g);
    if (R.onStep) { R.onStep(s); }
    if (window.howlShare) { window.howlShare.step(g, s); }
    var push = R.push;
    R.push = false;
    window.clearTimeout(R.later);
    R.later = window.setTimeout(function () { markLog(R.step); followUrl(R.step, push); }, push ? 0 : 250);
    return out;
  }

  /* The review arrived (on load, or when a queued review is done): mark the log, redraw
     the step (its board may show the better action). */
  function review(data) {
    R.review = data || null;
    var g = R.game;
    if (g) {
      drawLog(g); markLog(R.step); drawAdvice(g, R.step);
      if (!R.held && !own(R.step)) { view(g).draw(g, R.step); }
    }
    return data ? data.key : null;
  }

  var PRESSES = ["replay-play", "replay-first", "replay-last", "replay-prev", "replay-next"];
  function navigate(first, prev, next, last, play, tick, value, playing, g) {
    var nu = window.dash_clientside.no_update;
    var ctx = window.dash_clientside.callback_context;
    if (!g || !ctx.triggered.length) { return [nu, nu, nu]; }
    /* a press and a tick may arrive in one call: the press wins (a pause is never lost) */
    var ids = ctx.triggered.map(function (t) { return t.prop_id.split(".")[0]; });
    var id = PRESSES.filter(function (p) { return ids.indexOf(p) >= 0; })[0] || ids[0];
    var s = R.game === g ? R.step : value || 0, stop = nu, label = nu;  /* R.step leads the slider */
    if (id === "replay-first") { s = 0; R.push = true; }
    else if (id === "replay-prev") { s -= 1; }
    else if (id === "replay-next") { s += 1; }
    else if (id === "replay-last") { s = end(g); R.push = true; }
    else if (id === "replay-play") {
      var start = playing;  /* the interval is disabled: start playing */
      if (start && s >= end(g)) { s = 0; }
      stop = !start;
      label = start ? "Pause" : "Play";
    }
    else if (id === "replay-tick") {
      s += 1;
      if (s >= end(g)) { stop = true; label = "Play"; }
    }
    s = clamp(s, g);
    window.clearTimeout(R.sliding);  /* the slider is moved here */
    if (R.game === g && s !== R.step) { paint(s, g); }  /* even where the slider lags */
    if (s === value) { return [nu, stop, label]; }
    if (R.game === g) { issued(s); }
    return [s, stop, label];
  }

  /* Show ``line`` (null: the game's own) at step s, the slider running over its steps with
     ``marks``; drawn now, even when the slider's value does not change;
     ``replace``: the URL replaces its history entry rather than adding one. */
  function show(line, s, marks, replace) {
    var g = R.game;
    if (!g) { return; }
    R.line = line;
    R.push = !replace;
    s = clamp(s, g);
    paint(s, g);
    window.clearTimeout(R.sliding);
    slide({max: end(g), marks: marks, value: s});
  }

  /* A speed button pressed: the tick's interval, and the button shown pressed. */
  function speed(button) {
    var group = document.getElementById("replay-speed");
    if (!group) { return; }
    Array.prototype.forEach.call(group.querySelectorAll("[data-speed]"), function (b) {
      b.setAttribute("aria-pressed", String(b === button));
    });
    var value = parseFloat(button.getAttribute("data-speed")) || 1;
    window.dash_clientside.set_props("replay-tick", {interval: Math.round(800 / value)});
  }

  document.addEventListener("keydown", function (e) {
    // the replay page is shown (its slider may still be loading: Dash draws it once its code is in)
    if (!R.game || R.held || !document.getElementById("replay")) { return; }
    var t = e.target && e.target.closest ? e.target : null;
    /* typing, or choosing among radios: their keys are theirs; a checkbox keeps only Space */
    if (t && t.closest("textarea, select, [contenteditable], input:not([type=checkbox])")) { return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var s, item = t && !t.closest("button") &&
      t.closest("#replay-log [data-step], #analysis-moments [data-step], #analysis-flagged [data-step]");
    if (item && (e.key === "Enter" || e.key === " " && !item.closest("#replay-log"))) {
      e.preventDefault();  /* a step listed, taken by keyboard (Space in the log plays) */
      setStep(parseInt(item.getAttribute("data-step"), 10), true);
      return;
    }
    if (e.key === " ") {  /* play or pause, also from the slider and the step controls; other buttons click */
      var play = document.getElementById("replay-play"), button = t && t.closest("button");
      var box = t && t.matches("input[type=checkbox]");  /* Space toggles it */
      if (play && !box && (!button || button.closest(".replay-controls"))) { e.preventDefault(); play.click(); }
      return;
    }
    if (t && t.closest("#replay-slider")) { return; }  /* its arrows, Home and End are its own */
    var inLog = t && t.closest("#replay-log");
    if (e.key === "ArrowRight" || inLog && e.key === "ArrowDown") { s = R.step + 1; }
    else if (e.key === "ArrowLeft" || inLog && e.key === "ArrowUp") { s = R.step - 1; }
    else if (e.key === "Home") { s = 0; }
    else if (e.key === "End") { s = R.last; }
    else { return; }
    e.preventDefault();
    setStep(s, e.key === "Home" || e.key === "End");
  });

  document.addEventListener("click", function (e) {
    var pace = e.target && e.target.closest && e.target.closest("#replay-speed [data-speed]");
    if (pace) { speed(pace); return; }
    var item = e.target && e.target.closest && !e.target.closest("[data-show]") &&
      e.target.closest("#replay-log [data-step], #analysis-moments [data-step], #analysis-flagged [data-step]");
    if (item) { setStep(parseInt(item.getAttribute("data-step"), 10), true); }
  });

  window.addEventListener("popstate", function () {
    if (!R.game || !document.getElementById("replay") || window.location.pathname !== R.path) { return; }
    var m = /[?&]step=(\d+)/.exec(window.location.search);
    var s = m ? parseInt(m[1], 10) : 0;
    var line = /[?&]line=([0-9a-fA-F-]{36})/.exec(window.location.search);
    if ((line ? line[1] : null) !== (R.line ? R.line.vid : null) && R.onLine) { R.onLine(line ? line[1] : null, s); return; }
    setStep(s, false);
  });

  window.addEventListener("resize", function () {
    if (!R.game) { return; }
    window.setTimeout(function () {
      var g = R.game, shown = view(g);
      if (!R.held && !own(R.step)) { (shown.resize || shown.draw)(g, R.step); }
      g.charts.forEach(function (id) { placeCursor(id, cursorAt(id, g)); });
    }, 150);
  });

  R.esc = esc;
  R.show = show;
  R.flagged = flagged;
  R.untilDone = untilDone;
  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    howl: {render: render, navigate: navigate, review: review}
  });
})();
