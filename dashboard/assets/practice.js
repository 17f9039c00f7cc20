/* The practice page (dashboard/pages/practice.py): one seat's mistakes and blunders in a
   reviewed game, one position at a time, on the table board (assets/table.js, mounted with
   window.howlTable.mount) with a practice source. The position is a table-like document
   that never changes but for its version (one more after every try, so that the board draws
   afresh); its legal actions are GET /api/games/{id}/practice/legal?index=N; entering an
   action submits it to the review's judge through the page's write callback (practice-send,
   answered in practice-written, with the tab's token as the dashboard's uploads take it).
   Accepted: the page says so with the best line's label and offers the next position;
   rejected: try again, or "Show solution". The player's name is asked once and kept in the
   tab's session storage; their progress is read from GET /api/games/{id}/practice. */
(function () {
  "use strict";
  var NAME_KEY = "howl-practice-player";
  var MAX_NAME = 64;
  var MARKS = {mistake: "?", blunder: "??"};
  var P = null;

  function $(id) { return document.getElementById(id); }
  function esc(s) { return window.howlReplay.esc(s); }
  function alive() { return P && $("practice-body"); }
  function noUpdate() { return window.dash_clientside.no_update; }
  function pct(x) { return (100 * x).toFixed(1) + " %"; }

  function storedName() {
    try { return window.sessionStorage.getItem(NAME_KEY); } catch (e) { return null; }
  }

  function keepName(name) {
    try { window.sessionStorage.setItem(NAME_KEY, name); } catch (e) { /* a tab without storage asks again */ }
  }

  function answer(r) {
    return r.json().catch(function () { return {}; }).then(function (j) {
      return {ok: r.ok, status: r.status, body: j};
    });
  }

  function failed(e) { return {ok: false, status: 0, body: {message: String(e)}}; }

  function read(path) {
    return window.fetch(path, {headers: {Accept: "application/json"}}).then(answer).catch(failed);
  }

  function base() { return "/api/games/" + P.st.game_id + "/practice"; }
  function current() { return P.st.positions[P.at]; }

  function refusal(r) {
    var b = r.body || {}, text = b.message || b.detail || b.title || "HTTP " + r.status;
    return '<div class="refused" data-status="' + r.status + '" data-kind="' + esc(b.code || "") +
      '"><b>Not done: </b>' + esc(text) + (b.rule ? ' <span class="rule">(' + esc(b.rule) + ")</span>" : "") +
      "</div>";
  }

  /* One write through the page's callback: resolves to {n, ok, status, body[, push]}. */
  function send(body) {
    var n = P.sent = P.sent + 1;
    return new Promise(function (resolve) {
      P.waiting[n] = resolve;
      window.dash_clientside.set_props("practice-send", {data: Object.assign({n: n}, body)});
    });
  }

  /* --- the player ----------------------------------------------------------------------- */

  function begin(name) {
    var who = $("practice-who");
    name = (name || "").trim();
    if (!name || name.length > MAX_NAME || /[\u0000-\u001f\u007f-\u009f]/.test(name)) {
      who.innerHTML = '<span class="refused">A name of 1 to ' + MAX_NAME + " characters, please.</span>";
      $("practice-name").focus();
      return;
    }
    keepName(name);
    P.player = name;
    $("practice-name").value = name;
    var mine = P;
    read(base() + "?seat=" + P.st.seat + "&player=" + encodeURIComponent(name)).then(function (r) {
      if (P !== mine || !alive()) { return; }
      if (!r.ok) { who.innerHTML = refusal(r); return; }
      who.innerHTML = "Practising as <b>" + esc(r.body.player) + "</b>";
      P.progress = {};
      r.body.positions.forEach(function (x) { P.progress[x.index] = x; });
      $("practice-body").classList.remove("waiting");
      var open = P.st.positions.findIndex(function (x) {
        var pr = P.progress[x.index] || {};
        return !pr.solved && !pr.revealed;
      });
      if (P.st.positions.length) { show(open < 0 ? 0 : open); } else { drawNav(); }
    });
  }

  /* --- one position --------------------------------------------------------------------- */

  function docOf(pos) { return Object.assign({}, pos.doc, {version: P.version}); }

  function source(pos) {
    var S = {board: P.st.board};
    S.doc = function () { return Promise.resolve({ok: true, status: 200, body: docOf(pos)}); };
    S.legal = function () {
      var version = P.version;
      return read(base() + "/legal?index=" + pos.index).then(function (r) {
        if (r.ok) { r.body.version = version; }
        return r;
      });
    };
    S.undoable = function () { return false; };
    S.seen = function (version) {
      window.dash_clientside.set_props("practice-seen", {data: {index: pos.index, version: version}});
    };
    S.write = function (op, body) {
      if (op !== "action") {
        return Promise.resolve({ok: false, status: 400, body: {message: "Practice takes actions only."}});
      }
      return send({op: "try", index: pos.index, player: P.player, action: body.action,
        ask_push: !!body.ask_push}).then(function (r) {
        if (!r.ok || r.push || !alive() || current() !== pos) { return r; }
        P.progress[pos.index] = r.body;
        P.verdict = r.body;
        P.version += 1;
        drawVerdict();
        drawNav();
        return {ok: true, status: 200, body: {table: docOf(pos)}};
      });
    };
    return S;
  }

  function show(i) {
    P.at = i;
    P.verdict = null;
    P.version += 1;
    P.handle = window.howlTable.mount($("practice"), source(current()));
    drawNav();
    drawVerdict();
  }

  function reveal() {
    var pos = current();
    send({op: "reveal", index: pos.index, player: P.player}).then(function (r) {
      if (!alive() || current() !== pos) { return; }
      if (!r.ok) { $("practice-verdict").innerHTML = refusal(r); return; }
      P.progress[pos.index] = r.body;
      P.verdict = r.body;
      drawVerdict();
      drawNav();
      var next = $("practice-go-next");
      if (next) { next.focus(); }
    });
  }

  /* --- drawing -------------------------------------------------------------------------- */

  function drawNav() {
    var n = P.st.positions.length, list = $("practice-list"), where = $("practice-where");
    $("practice-prev").disabled = P.at <= 0;
    $("practice-next").disabled = P.at >= n - 1;
    if (!n) { where.textContent = "Nothing to practise for this seat."; return; }
    var pos = current();
    where.textContent = "Position " + (P.at + 1) + " of " + n + " · step " + pos.step + ", a " + pos.classification;
    where.setAttribute("data-index", pos.index);
    var active = document.activeElement, focused = active && list.contains(active) ? active.getAttribute("data-pos") : null;
    list.innerHTML = P.st.positions.map(function (x, i) {
      var pr = P.progress[x.index] || {}, state = pr.solved ? "solved" : pr.revealed ? "revealed" : "open";
      return '<li><button type="button" class="table-act practice-pos ' + state + '" data-pos="' + i + '"' +
        (i === P.at ? ' aria-current="true"' : "") + ' data-state="' + state + '" title="step ' + x.step + ", " +
        x.classification + (pr.tries ? ", " + pr.tries + (pr.tries === 1 ? " try" : " tries") : "") + '">' +
        x.step + " " + MARKS[x.classification] + (pr.solved ? " ✓" : pr.revealed ? " ◌" : "") + "</button></li>";
    }).join("");
    if (focused !== null) {
      var again = list.querySelector('[data-pos="' + focused + '"]');
      if (again) { again.focus(); }
    }
  }

  function nextButton() {
    return P.at < P.st.positions.length - 1 ?
      ' <button type="button" id="practice-go-next" class="table-act confirm">Next position</button>' : "";
  }

  function drawVerdict() {
    var box = $("practice-verdict"), pos = current(), v = P.verdict, pr = P.progress[pos.index] || {};
    var html = '<div class="practice-played">In the game: <b>' + esc(pos.label) + "</b> " +
      '<span class="mark ' + pos.classification + '">' + MARKS[pos.classification] + "</span> (a " +
      pos.classification + "). Find a better action for " + esc(pos.doc.players[P.st.seat].name) + ".</div>";
    if (v && v.accepted === true) {
      html += '<div class="practice-result accepted" data-verdict="accepted"><b>Accepted.</b> ' + esc(v.label) +
        " keeps " + pct(v.win) + " of the win" + (v.loss > 0 ? ", within " + pct(v.threshold) + " of the best known" : ": the best known") +
        '.<div class="practice-best">The best line known: <b>' + esc(v.best_label) + "</b></div>" + nextButton() + "</div>";
    } else if (v && v.accepted === false) {
      html += '<div class="practice-result rejected" data-verdict="rejected"><b>Not good enough.</b> ' + esc(v.label) +
        " keeps " + pct(v.win) + " of the win, " + pct(v.loss) + " less than the best known (" + pct(v.threshold) +
        " less is accepted). Try again, or " +
        '<button type="button" id="practice-reveal" class="table-act">Show solution</button>' +
        (v.best_label ? '<div class="practice-best">The solution: <b>' + esc(v.best_label) + "</b></div>" : "") + "</div>";
    } else if (v) {
      html += '<div class="practice-result solution" data-verdict="revealed"><b>The solution:</b> ' + esc(v.best_label) +
        " keeps " + pct(v.win) + " of the win." + nextButton() + "</div>";
    } else if (pr.solved || pr.revealed) {
      html += '<div class="practice-result earlier">' + (pr.solved ? "Solved before" : "Solution shown before") +
        " (" + pr.tries + (pr.tries === 1 ? " try" : " tries") + "). Enter an action to try again.</div>";
    } else {
      html += '<div class="practice-result">Enter an action on the board.</div>';
    }
    box.innerHTML = html;
  }

  /* --- events --------------------------------------------------------------------------- */

  document.addEventListener("submit", function (e) {
    if (!e.target || e.target.id !== "practice-form") { return; }
    e.preventDefault();
    if (P) { begin($("practice-name").value); }
  });

  document.addEventListener("click", function (e) {
    if (!alive() || !e.target.closest) { return; }
    var t = e.target.closest("button");
    if (!t) { return; }
    if (t.id === "practice-prev" && P.at > 0) { show(P.at - 1); }
    else if (t.id === "practice-next" && P.at < P.st.positions.length - 1) { show(P.at + 1); }
    else if (t.id === "practice-go-next") { show(P.at + 1); $("practice-where").focus(); }
    else if (t.id === "practice-reveal") { reveal(); }
    else if (t.hasAttribute("data-pos")) { show(+t.getAttribute("data-pos")); }
  });

  /* --- the page's callbacks ------------------------------------------------------------- */

  /* Whether the person is typing somewhere (the token in the header): the page then leaves
     the focus where it is. */
  function typing() {
    var el = document.activeElement;
    return !!el && el !== document.body && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
  }

  function start(st) {
    if (!st) { return noUpdate(); }
    if (P && P.handle) { P.handle.unmount(); }
    P = {st: st, at: 0, progress: {}, version: 0, handle: null, waiting: {}, sent: 0, verdict: null, player: null};
    var name = storedName();
    if (name) { begin(name); } else if (!typing()) { $("practice-name").focus(); }
    return noUpdate();
  }

  function facts(f) {
    if (f && P && P.handle && P.st.positions.length && f.index === current().index) { P.handle.facts(f); }
    return noUpdate();
  }

  function written(r) {
    var resolve = r && P && P.waiting[r.n];
    if (resolve) { delete P.waiting[r.n]; resolve(r); }
    return noUpdate();
  }

  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    howlPractice: {start: start, facts: facts, written: written}
  });
})();
