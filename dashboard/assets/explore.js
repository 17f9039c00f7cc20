/* Explore on the replay page (dashboard/explore.py): variations of the stored game.

   "Explore" (key e) creates a variation at the step shown (POST /api/games/{id}/variations,
   with the tab's API token as the table page writes) and mounts the table board
   (assets/table.js, window.howlTable) over the replay's map: a variation is a table, so its
   document, legal actions, writes and stream are the tables API's on the variation's id.
   Explore at the last step of the line shown continues that variation; from a step inside
   it, a new variation with its actions so far. "Back to the game" unmounts the board: the
   variation is kept.

   The game's lines (GET /api/games/{id}/branches) are listed by the step they start from;
   choosing one asks the server for its steps (explore-want → explore-line,
   dashboard/explore.py's line_data) and hands the replay's controls a line (R.line, see
   assets/replay.js): the game's steps up to its origin, its own after, drawn by the table
   board reading only. The line's comparison with the main line is
   GET /api/variations/{vid}'s main and end; rename (PATCH) and delete (DELETE) go with the
   token (without one, as every change, through the page's callback), and a refusal's
   message is shown. "Show" beside a flagged action creates the
   review's suggested line there ({"step": index, "suggested": true}) and shows it.

   window.howlExploreTimes lists, per Explore, the milliseconds from the click (or key) to
   the first frame painted with the board's choices clickable. */
(function () {
  "use strict";
  var E = {st: null, line: null, handle: null, playing: null, lines: [], asked: 0, at: null, armed: false};
  var times = window.howlExploreTimes = [];

  function $(id) { return document.getElementById(id); }
  function R() { return window.howlReplay; }
  function esc(s) { return R().esc(s); }
  function alive() { return E.st && $("explore"); }

  function token() {
    try { return JSON.parse(window.sessionStorage.getItem("auth-token")); } catch (e) { return null; }
  }

  /* One call of the API (with the tab's token when it holds one): {ok, status, body}. */
  function api(method, path, body) {
    var headers = {Accept: "application/json"}, tk = token();
    if (body !== undefined) { headers["Content-Type"] = "application/json"; }
    if (tk && method !== "GET") { headers.Authorization = "Bearer " + tk; }
    return window.fetch(path, {method: method, headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body)}).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        return {ok: r.ok, status: r.status, body: j};
      });
    }).catch(function (e) { return {ok: false, status: 0, body: {message: String(e)}}; });
  }

  /* A change of a variation (op "open", "rename" or "delete"): with the tab's token straight
     to the API (method, path, body); without one (the dashboard open to anyone) through the
     page's change callback (explore-ask → explore-answer, dashboard/explore.py), which takes
     the token as uploads do. */
  var ASKED = {n: 0, waiting: {}};
  function ask(op, args, method, path, body) {
    if (token()) { return api(method, path, body); }
    var n = ASKED.n = ASKED.n + 1;
    return new Promise(function (resolve) {
      ASKED.waiting[n] = resolve;
      window.dash_clientside.set_props("explore-ask", {data: Object.assign({n: n, op: op}, args)});
    });
  }

  function answer(r) {
    var resolve = r && ASKED.waiting[r.n];
    if (resolve) { delete ASKED.waiting[r.n]; resolve(r); }
    return window.dash_clientside.no_update;
  }

  function say(r) {
    var box = $("explore-message");
    if (!box) { return; }
    if (!r) { box.innerHTML = ""; return; }
    var b = r.body || {}, text = b.message || b.detail || b.title || "HTTP " + r.status;
    var kind = b.code || String(b.type || "").split("#problem-")[1] || "";  // the API's problem kind
    box.innerHTML = '<div class="refused" data-status="' + r.status + '" data-kind="' + esc(kind) +
      '"><b>Not done: </b>' + esc(text) + "</div>";
    box.scrollIntoView({block: "nearest"});  // where the person looks, wherever they asked
  }

  function gameId() { return E.st.game_id; }

  /* --- the lines ------------------------------------------------------------------------ */

  function fetchLines() {
    return api("GET", "/api/games/" + gameId() + "/branches").then(function (r) {
      if (!alive() || !r.ok) { return; }
      E.lines = r.body.branches || [];
      drawLines();
    });
  }

  function drawLines() {
    var box = $("explore-lines");
    if (!box) { return; }
    var byStep = [], at = {};
    E.lines.forEach(function (l) {
      if (!at[l.step]) { at[l.step] = {step: l.step, lines: []}; byStep.push(at[l.step]); }
      at[l.step].lines.push(l);
    });
    var shown = E.line ? E.line.vid : null;
    box.innerHTML = byStep.length ? byStep.map(function (group) {
      return '<li class="line-group" data-step="' + group.step + '"><span class="log-n">' + group.step +
        '</span> from step ' + group.step + '<ul>' + group.lines.map(function (l) {
        return '<li><button type="button" class="line-pick" data-line="' + esc(l.variation_id) + '"' +
          (l.variation_id === shown ? ' aria-current="true"' : "") + ">" + esc(l.name) + "</button> " +
          '<span class="note">' + l.actions + (l.actions === 1 ? " action" : " actions") + " · by " +
          esc(l.author) + "</span></li>";
      }).join("") + "</ul></li>";
    }).join("") : '<li class="note">No variation yet: press Explore at a step to play on from it.</li>';
    box.setAttribute("data-count", String(E.lines.length));
  }

  /* Ask the server for a line's steps; ``at`` is the step to show (default: after its origin). */
  function want(vid, at) {
    E.asked += 1;
    E.at = at === undefined ? null : at;
    window.dash_clientside.set_props("explore-want", {data: {vid: vid, n: E.asked}});
  }

  /* A line for the replay's controls (assets/replay.js) from explore-line's data. */
  function lineOf(d) {
    return {
      vid: d.vid, step: d.step, steps: d.steps, name: d.name, version: d.version, data: d,
      label: function (s) { var e = d.line[s - d.step - 1]; return e ? e.label : ""; },
      log: function () { return d.line.map(function (e) { return e.log; }); },
      scores: function () { return d.line.map(function (e) { return e.scores; }); },
      origin: function () { return d.origin_scores; },
      draw: function (s) {
        if (s <= d.step) { still(); return false; }
        showStep(d, s);
        return true;
      }
    };
  }

  function marksOf(d) {
    var marks = {};
    Object.keys(E.st.marks).forEach(function (k) { if (+k < d.step) { marks[k] = E.st.marks[k]; } });
    marks[d.step] = E.st.branch;
    var near = d.steps - d.step < Math.max(2, Math.floor(d.steps / 20));  /* as explore.slider_marks */
    if (!(d.steps in marks)) { marks[d.steps] = near ? "" : "end"; }
    return marks;
  }

  /* The parts of the replay page the table board draws on. */
  function parts(playing) {
    var p = {map: "replay-map", board: "replay-board", boards: "replay-boards", moon: "replay-moon",
      position: "table-position", log: null, finish: null, link: null};
    if (!playing) {
      ["controls", "pending", "message", "status", "readonly"].forEach(function (k) { p[k] = null; });
    }
    return p;
  }

  /* A step of a line's own drawn by the table board, reading only. */
  function showStep(d, s) {
    if (!E.st || E.st.game_id !== R().game.id) { E.later = function () { showStep(d, s); }; return; }
    var e = d.line[s - d.step - 1], handle = null;
    var replay = $("replay");
    if (replay) { replay.classList.add("own-step"); }
    handle = window.howlTable.mount($("explore"), {
      board: E.st.board, parts: parts(false),
      doc: function () { return Promise.resolve({ok: true, status: 200, body: e.doc}); },
      seen: function (version) { handle.facts({version: version, log: [], v: e.v, pays: {}}); }
    });
    E.handle = handle;
    overlay(true);
  }

  /* The table board off the map: the replay draws its steps again. */
  function still() {
    if (E.handle) { E.handle.unmount(); E.handle = null; }
    var replay = $("replay");
    if (replay) { replay.classList.remove("own-step"); }
    overlay(false);
  }

  function overlay(on) {
    var layer = $("replay-board");
    if (layer) { layer.classList.toggle("table-overlay", on); }
  }

  /* The line explore-line brought (or the page opened on): shown on the controls. */
  function setLine(d, at) {
    var shownEl = $("explore-shown");
    if (!d) {
      E.line = null;
      still();
      if (shownEl) { shownEl.hidden = true; }
      R().show(null, Math.min(R().step, E.st.last), E.st.marks);
      drawLines();
      return;
    }
    var was = E.line;
    E.line = lineOf(d);
    if (shownEl) { shownEl.hidden = false; }
    var name = $("explore-name");  // a name being typed for this line is kept when it comes again
    if (name && !(name === document.activeElement && was && was.vid === d.vid)) { name.value = d.name; }
    disarm();
    R().show(E.line, at === null || at === undefined ? Math.min(d.step + 1, d.steps) : at, marksOf(d));
    drawLines();
    compare(d.vid);
  }

  function line(d) {
    var nu = window.dash_clientside.no_update;
    if (!d || !alive()) { return nu; }
    if (d.missing) { say({status: 404, body: {message: "This variation is no longer stored."}}); return nu; }
    if (E.playing) { grown(d); return nu; }
    say(null);
    setLine(d, E.at);
    return nu;
  }

  /* While exploring, the variation played as it grows: the step count, slider, log, charts and
     URL (?step=its end&line=VID&explore=1, so that a reload explores on) follow its end. */
  function grown(d) {
    if (!E.playing || d.vid !== E.playing.vid) { return; }
    E.line = lineOf(d);
    R().show(E.line, d.steps, marksOf(d), true);
    where("Exploring " + d.name + ": from step " + d.step + ", now at step " + d.steps);
    var shownEl = $("explore-shown"), name = $("explore-name");
    if (shownEl) { shownEl.hidden = false; }
    if (name && name !== document.activeElement) { name.value = d.name; }
    compare(d.vid);
  }

  /* After a write while exploring: the lines and the variation's steps asked anew, once the
     writes pause. */
  function wrote() {
    window.clearTimeout(E.grow);
    E.grow = window.setTimeout(function () {
      if (!E.playing) { return; }
      fetchLines();
      want(E.playing.vid);
    }, 250);
  }

  /* --- the comparison ------------------------------------------------------------------- */

  function pct(w) { return (100 * w).toFixed(1) + " %"; }

  function compare(vid) {
    var box = $("explore-compare");
    if (!box) { return; }
    box.innerHTML = '<span class="note">Comparing…</span>';
    api("GET", "/api/variations/" + vid).then(function (r) {
      if (!alive() || !E.line || E.line.vid !== vid) { return; }
      if (!r.ok) { box.innerHTML = ""; say(r); return; }
      drawCompare(box, r.body);
    });
  }

  function drawCompare(box, v) {
    var g = R().game, main = v.main, end = v.end, wins = !!(main.win && end.win);
    var head = "<tr><th scope=\"col\">Seat</th><th scope=\"col\">Score, main line at step " + main.step +
      '</th><th scope="col">Score, this line at step ' + v.steps + "</th>" +
      (wins ? '<th scope="col">Win, main line</th><th scope="col">Win, this line</th>' : "") + "</tr>";
    var rows = g.players.map(function (p, s) {
      return '<tr data-seat="' + s + '"><th scope="row"><span class="dot" style="background:' + p.color + '"></span>' +
        esc(p.name) + '</th><td class="score-main">' + main.scores[s] + '</td><td class="score-end">' +
        end.scores[s] + "</td>" + (wins ? '<td class="win-main">' + pct(main.win[s]) + '</td><td class="win-end">' +
        pct(end.win[s]) + "</td>" : "") + "</tr>";
    }).join("");
    box.innerHTML = '<table class="explore-table-compare" data-variation="' + esc(v.variation_id) + '"><caption>' +
      esc(v.name) + " by " + esc(v.author) + ", against the main line</caption><thead>" + head + "</thead><tbody>" +
      rows + "</tbody></table>" + dots(g, wins ? main.win : main.scores, wins ? end.win : end.scores, wins);
  }

  /* Per seat, the main line's value (ring) and this line's (dot) on one scale: win chances
     from 0 to 100 %, or scores from 0 to the highest. */
  function dots(g, a, b, wins) {
    var top = wins ? 1 : Math.max.apply(null, a.concat(b).concat([1]));
    var w = 300, left = 70, right = 12, rowH = 22, h = rowH * g.players.length + 22;
    function x(v) { return left + (w - left - right) * v / top; }
    var out = g.players.map(function (p, s) {
      var y = 14 + rowH * s;
      return '<text x="' + (left - 6) + '" y="' + (y + 4) + '" class="dots-name">' + esc(p.name) + "</text>" +
        '<line x1="' + x(0) + '" x2="' + x(top) + '" y1="' + y + '" y2="' + y + '" class="dots-track"/>' +
        '<line x1="' + x(a[s]).toFixed(1) + '" x2="' + x(b[s]).toFixed(1) + '" y1="' + y + '" y2="' + y +
        '" stroke="' + p.color + '" class="dots-change"/>' +
        '<circle cx="' + x(a[s]).toFixed(1) + '" cy="' + y + '" r="5" stroke="' + p.color + '" class="dots-main"/>' +
        '<circle cx="' + x(b[s]).toFixed(1) + '" cy="' + y + '" r="5" fill="' + p.color + '" class="dots-end"/>';
    }).join("");
    var axis = '<text x="' + x(0) + '" y="' + (h - 4) + '" class="dots-axis">0</text><text x="' + x(top) + '" y="' +
      (h - 4) + '" class="dots-axis end">' + (wins ? "100 %" : top) + "</text>";
    return '<svg class="explore-dots" viewBox="0 0 ' + w + " " + h + '" role="img" aria-label="' +
      (wins ? "win chances" : "scores") + ': ring, the main line; dot, this line">' + out + axis + "</svg>" +
      '<div class="note">' + (wins ? "Win chances" : "Scores") + ": ○ main line, ● this line.</div>";
  }

  /* --- exploring ------------------------------------------------------------------------ */

  function setMode(playing) {
    var replay = $("replay"), start = $("explore-start"), back = $("explore-back"), table = $("explore-table");
    if (replay) { replay.classList.toggle("exploring", playing); }
    if (start) { start.hidden = playing; }
    if (back) { back.hidden = !playing; }
    if (table) { table.hidden = !playing; }
    ["explore-main", "explore-delete"].forEach(function (id) { var b = $(id); if (b) { b.hidden = playing; } });
    R().held = playing ? E.playing.vid : false;
  }

  function where(text) { var w = $("explore-where"); if (w) { w.textContent = text; } }

  /* Explore from the step shown: continue the line shown at its last step, else a new
     variation (with the line's actions up to the step when inside one). */
  function explore(t0) {
    if (!alive() || E.playing || E.busy) { return; }
    var s = R().step, l = E.line;
    say(null);
    if (over(s)) {
      say({status: 409, body: {code: "game_over", message: "The game is over at step " + s + ": there is nothing to play from there."}});
      return;
    }
    if (l && s === l.steps) { play(l.vid, null, t0, s, l.name); return; }
    var body = {step: s};
    if (l && s > l.step) {
      var suffix = ", branched at step " + s;
      body = {step: l.step, name: l.name.slice(0, E.st.max_name - suffix.length) + suffix,
        actions: l.data.line.slice(0, s - l.step).map(function (e) { return e.doc.actions[0]; })};
    }
    E.busy = true;
    ask("open", body, "POST", "/api/games/" + gameId() + "/variations", body).then(function (r) {
      E.busy = false;
      if (!alive()) { return; }
      if (!r.ok) { say(r); return; }
      play(r.body.table_id, r.body, t0, s, r.body.variation ? r.body.variation.name : "");
    });
  }

  /* "Continue the line": the line shown at its last step, explored from there. */
  function onwards(byKey, t0) {
    var l = E.line;
    if (!alive() || !l || E.playing || E.busy) { return; }
    R().show(l, l.steps, marksOf(l.data));
    E.focusBoard = byKey;
    explore(t0);
  }

  /* The step shown changed: "Continue the line" is offered inside a line, off its end. */
  function onStep(s) {
    var go = $("explore-continue"), start = $("explore-start");
    if (go) { go.hidden = !(E.st && E.line && !E.playing && s !== E.line.steps); }
    if (start) {
      start.disabled = over(s);
      start.title = over(s) ? "the game is over at this step" : "play on from this step (key: e)";
    }
  }

  /* Whether the game is over at step s of the line shown: nothing to explore from there. */
  function over(s) {
    var l = E.line, g = R().game;
    if (l && s > l.step) { var e = l.data.line[s - l.step - 1]; return !!(e && e.doc.finished && s === l.steps); }
    return !!(g && g.finished && s === g.last);
  }

  /* Mount the table board on the variation vid (``doc``: its document when known). */
  function play(vid, doc, t0, from, name) {
    var source = window.howlTable.source("explore", vid, E.st.board), read = source.doc, first = doc;
    var legal = source.legal, early = legal();  // asked before anything is drawn
    source.legal = function () {
      var now = early;
      early = null;
      return now || legal();
    };
    source.doc = function () {
      var now = first;
      first = null;
      return now ? Promise.resolve({ok: true, status: 201, body: now}) : read();
    };
    still();
    E.playing = {vid: vid, from: from, line: E.line ? E.line.vid : null, version: null};
    window.dash_clientside.set_props("explore-id", {data: vid});
    source.parts = parts(true);
    var seen = source.seen;
    source.seen = function (version) {
      seen(version);
      var was = E.playing && E.playing.version;
      if (E.playing) { E.playing.version = version; }
      if (was !== null && was !== version) { wrote(); }
    };
    source.playable = function () {
      window.requestAnimationFrame(function () {
        times.push(window.performance.now() - t0);
        var focus = document.querySelector("#replay-board .choice") || document.querySelector("#table-controls button:not([disabled])");
        if (focus && E.focusBoard) { focus.focus(); }
      });
    };
    setMode(true);
    overlay(true);
    where("Exploring " + (name || "a variation") + " from step " + from);
    source.handle = E.handle = window.howlTable.mount($("explore"), source);
    window.history.replaceState(null, "", window.location.pathname + "?step=" + from + "&line=" + vid + "&explore=1");
    want(vid);
  }

  /* Leave exploring: the line shown before, again (its steps read anew: it may have grown). */
  function back() {
    if (!E.playing) { return; }
    var was = E.playing;
    E.playing = null;
    window.clearTimeout(E.grow);
    still();
    setMode(false);
    where("");
    fetchLines();
    if (was.line) { want(was.line, was.from); } else { E.line = null; R().show(null, was.from, E.st.marks); }
    var start = $("explore-start");
    if (start) { start.focus(); }
  }

  /* --- rename, delete, the suggested line ----------------------------------------------- */

  function rename() {
    var l = E.line, input = $("explore-name");
    if (!l || !input) { return; }
    var body = {name: input.value};
    ask("rename", {vid: l.vid, name: input.value}, "PATCH", "/api/variations/" + l.vid, body).then(function (r) {
      if (!alive()) { return; }
      if (!r.ok) { say(r); return; }
      say(null);
      l.name = l.data.name = r.body.name;
      R().show(l, R().step, marksOf(l.data));
      fetchLines();
      compare(l.vid);
    });
  }

  function disarm() {
    E.armed = false;
    var b = $("explore-delete");
    if (b) { b.textContent = "Delete"; }
  }

  function remove() {
    var l = E.line, b = $("explore-delete");
    if (!l || !b) { return; }
    if (!E.armed) { E.armed = true; b.textContent = "Really delete?"; return; }
    disarm();
    ask("delete", {vid: l.vid}, "DELETE", "/api/variations/" + l.vid).then(function (r) {
      if (!alive()) { return; }
      if (!r.ok) { say(r); return; }
      say(null);
      setLine(null);
      fetchLines();
    });
  }

  function suggest(index) {
    if (!alive() || E.playing || E.busy) { return; }
    say(null);
    E.busy = true;
    var body = {step: index, suggested: true};
    ask("open", body, "POST", "/api/games/" + gameId() + "/variations", body).then(function (r) {
      E.busy = false;
      if (!alive()) { return; }
      if (!r.ok) { say(r); return; }
      fetchLines();
      want(r.body.table_id, index + 1);
    });
  }

  /* --- events --------------------------------------------------------------------------- */

  document.addEventListener("click", function (e) {
    if (!alive()) { return; }
    var t = e.target && e.target.closest ? e.target : null;
    if (!t) { return; }
    var el;
    if (t.closest("#explore-start")) { E.focusBoard = e.detail === 0; explore(e.timeStamp); }
    else if (t.closest("#explore-back")) { back(); }
    else if (t.closest("#explore-continue")) { onwards(e.detail === 0, e.timeStamp); }
    else if (t.closest("#explore-main")) { setLine(null); }
    else if (t.closest("#explore-rename")) { rename(); }
    else if (t.closest("#explore-delete")) { remove(); }
    else if ((el = t.closest("[data-show]"))) { suggest(+el.getAttribute("data-show")); }
    else if ((el = t.closest("#explore-lines [data-line]"))) { if (!E.playing) { want(el.getAttribute("data-line")); } }
    if (!t.closest("#explore-delete")) { disarm(); }
  });

  /* A name typed or pasted up to the input's limit says so (the browser cuts the rest). */
  document.addEventListener("input", function (e) {
    var t = e.target, box = $("explore-message");
    if (!alive() || !t || t.id !== "explore-name" || !box) { return; }
    var full = t.value.length >= E.st.max_name;
    if (full || box.querySelector(".name-limit")) {
      box.innerHTML = full ? '<div class="note name-limit">A name has at most ' + E.st.max_name + " characters.</div>" : "";
    }
  });

  document.addEventListener("keydown", function (e) {
    if (!alive() || e.ctrlKey || e.metaKey || e.altKey) { return; }
    var t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) {
      if (t.id === "explore-name" && e.key === "Enter") { rename(); }
      return;
    }
    if (e.key.toLowerCase() === "e" && !E.playing) {
      e.preventDefault();
      E.focusBoard = true;
      explore(e.timeStamp);
    }
  });

  /* The page's data arrived: the line it opened on (?line=VID) is the replay's line. */
  function onGame(g) {
    E.line = null;
    E.playing = null;
    E.later = null;
    if (g.line) { E.line = lineOf(g.line); R().line = E.line; }
    else { R().line = null; }
    opened();
  }

  /* The page arrived (explore-static): list the game's lines, show the line it opened on. */
  function start(st) {
    var nu = window.dash_clientside.no_update;
    if (!st) { return nu; }
    E.st = st;
    E.playing = null;
    E.handle = null;
    R().held = false;
    fetchLines();
    opened();
    return nu;
  }

  /* Once both the page's data and explore-static are the same game's: the line it opened
     on, with its comparison, and its step if it is the line's own. */
  function opened() {
    var g = R().game;
    if (!E.st || !g || E.st.game_id !== g.id || !E.line) { return; }
    var shownEl = $("explore-shown"), name = $("explore-name"), later = E.later;
    if (shownEl) { shownEl.hidden = false; }
    if (name) { name.value = E.line.name; }
    compare(E.line.vid);
    E.later = null;
    if (later) { later(); }
    if (/[?&]explore=1(&|$)/.test(window.location.search)) {  // reloaded while exploring: on
      window.setTimeout(function () {
        if (E.line && !E.playing && R().step === E.line.steps) { explore(window.performance.now()); }
      }, 0);
    }
  }

  var hooks = window.howlReplay = window.howlReplay || {};  // assets/replay.js keeps them
  hooks.onGame = onGame;
  hooks.onStep = onStep;
  hooks.onLine = function (vid, s) { if (vid) { want(vid, s); } else { setLine(null); } };
  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    howlExplore: {start: start, line: line, answer: answer}
  });
})();
