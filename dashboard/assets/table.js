/* The clickable board of a game in progress, mountable in any page:
   window.howlTable.mount(root, source) draws the board into root and returns a handle
   {facts(f), unmount(), doc()}; one board is mounted at a time (a new mount ends the last).

   The table document (the tables contract: GET /api/tables/{id}, then every message of its
   stream) and its legal actions (GET …/legal) are what the board draws: for The Wolves the
   position is turned into a frame of the replay's board view (assets/boards/wolves.js) and
   drawn over the map of the same view, with the hexes the player may click on top as
   focusable SVG shapes. An action is built by clicks (or keys); its payment is the engine's
   (the legal action's ``pay``; a Move's from the facts' ``pays``) until a tile of the player
   board is clicked; it is written through the source, and a refusal shows its message.

   root holds the parts, found as #table-<name> inside it unless source.parts names them:
   map (the element the map is drawn in), board (the SVG layer over it), controls, pending,
   message, finish, moon, boards, log, status, link, readonly, position (a game without a
   clickable board); any may be missing. An element of root with data-tokens="1" says the
   server wants a token for writes (the board reads only while the tab holds none).

   The source supplies the data and the writes; every read and write resolves to
   {ok, status, body} (body: the API's JSON answer or its problem):
     board                 the game's static board data (TableBoard.data) or null: then the
                           position is shown as fields and the legal actions as buttons;
     parts                 optional {name: element id, element or null} overriding the parts
                           found in root (an id is looked up each time: a Dash component
                           may be drawn anew);
     doc()                 the table document now;
     legal()               its legal actions (the tables contract's /legal answer); without
                           legal the board only shows the document (nothing to click);
     write(op, body)       op "action" ({action, version, ask_push}), "undo" ({version}) or
                           "finish" ({}); the answer is the API's (201: {version, events, table}
                           or {game_id, table}); with ask_push the answer may instead be
                           {ok: false, push: {index, from, options}} (where a pushed wolf may
                           go, W-6.6);
     follow(onDoc, onLink) optional: calls onDoc(doc) with every newer document and
                           onLink(text, "on"|"off") with the connection's state; returns stop()
                           (called once the first legal actions are drawn: the board first);
     seen(version)         optional: the version drawn; the source answers with handle.facts(f),
                           f = {version, log: [[step, text, scorings, end]], v: the seats'
                           scores as the player boards show them, pays: a Move's payment by
                           terrain};
     undoable(doc)         optional: whether the document has an action to take back (default:
                           it has actions);
     finished(body)        optional: after a finish (default: open the stored game's replay);
     playable()            optional: called once the board first offers what may be clicked.
   window.howlTable.source(prefix, id, board) is the source of a table of the tables API whose
   page holds the Dash stores <prefix>-seen/-facts/-send/-written and whose write and facts
   callbacks are dashboard/pages/table.py's: writes go with the tab's token straight to the API,
   or, without one or to ask first where a push may go, through <prefix>-send. */
(function () {
  "use strict";
  var T = null;
  var BUILT = ["move", "den", "lair", "howl", "dominate", "draft"];
  var KEYS = {m: "move", d: "den", l: "lair", h: "howl", o: "dominate", b: "bonus_action", p: "pass"};
  var NAMES = {draft: "Draft", move: "Move", den: "Den", lair: "Lair", howl: "Howl",
    dominate: "Dominate", bonus_action: "Bonus action", pass: "Pass / End turn", undo: "Undo"};
  var HELP = {
    draft: "click an empty hex to place an alpha and a pack wolf (W-4.1)",
    move: "click one of your wolves, then the hex it ends on (W-6.1)",
    den: "click the hex for the den, then choose its track (W-6.2)",
    lair: "click one of your dens beside a water source (W-6.3)",
    howl: "click a lone wolf within howl range (W-6.4)",
    dominate: "click an enemy pack wolf or den within howl range (W-6.5)"
  };
  var times = window.howlTableTimes = {select: [], submit: []};

  /* A part of the mounted board (see the header), or null. */
  function part(name) {
    if (!T) { return null; }
    if (!(name in T.parts)) { return T.root.querySelector("#table-" + name); }
    var given = T.parts[name];
    return typeof given === "string" ? document.getElementById(given) : given;
  }
  function inPart(el, name) { var p = part(name); return p && p.contains(el) ? el : null; }
  function esc(s) { return window.howlReplay.esc(s); }
  function view() { return window.howlBoards["the-wolves"]; }
  function hk(h) { return h[0] + "," + h[1]; }
  function same(a, b) { return a[0] === b[0] && a[1] === b[1]; }
  function alive() { return T && T.root.isConnected; }
  function seat() { return T.legal ? T.legal.turn : T.doc.turn; }
  /* A bot's turn: the server plays it, so the page offers no action but Undo. */
  function botTurn() { return T.doc.turn !== null && !!(T.doc.bots || {})[String(T.doc.turn)]; }
  function actions() { return T.legal && T.legal.version === T.doc.version ? T.legal.actions : []; }
  function ofType(type) { return actions().filter(function (a) { return a.type === type; }); }
  function moves() {
    return T.legal && T.legal.version === T.doc.version ? T.legal.moves || [] : [];
  }
  function copy(x) { return JSON.parse(JSON.stringify(x)); }
  function wolfName(kind) { return kind === "pack" ? "pack wolf" : "alpha"; }

  function say(html) {
    var box = part("message");
    if (box) { box.innerHTML = html; }
    T.said = html ? Date.now() : 0;
  }

  /* Whether this tab may write: it holds a token, or the server asks for none. Without,
     the page says it is reading only and its action buttons stay off. */
  function writable() {
    var head = T.root.querySelector("[data-tokens]");
    var open = !head || head.getAttribute("data-tokens") !== "1" || token() !== null;
    var note = part("readonly");
    if (note) { note.hidden = open; }
    return open;
  }

  function refusal(r) {
    var b = r.body || {}, text = b.message || b.detail || b.title || "HTTP " + r.status;
    return '<div class="refused" data-status="' + r.status + '" data-kind="' + esc(b.code || "") +
      '"><b>Not done: </b>' + esc(text) + (b.rule ? ' <span class="rule">(' + esc(b.rule) + ")</span>" : "") +
      "</div>";
  }

  /* --- the position as a frame of the replay's board view ------------------------------ */

  function frameOf(doc) {
    var b = T.b, pos = doc.position;
    var f = {p: [], l: [], r: [], k: [], h: [], b: [], v: [], m: pos.moonlight,
      t: doc.turn, a: pos.turn ? pos.turn.actions_left : 0, f: doc.finished};
    pos.pieces.forEach(function (pc) {
      var i = b.kinds.indexOf(pc.kind), h = pc.hex;
      if (i >= 0) { f.p.push([h[0], h[1], i, pc.player === null ? -1 : pc.player]); }
      else if (pc.kind === "lone_wolf") { f.l.push([h[0], h[1]]); }
      else if (pc.kind === "prey") { f.r.push([h[0], h[1], pc.prey, pc.count]); }
    });
    f.p.sort(function (p, q) { return p[1] - q[1] || p[0] - q[0] || p[2] - q[2]; });
    Object.keys(pos.scoring).forEach(function (r) {
      var stack = pos.scoring[r], w = b.water[r];
      if (stack.length && w) {
        f.k.push([w[0], w[1], stack.map(function (t) { return t.charAt(0).toUpperCase(); }).join(""), +r]);
      }
    });
    var last = doc.actions[doc.actions.length - 1];
    if (last) {
      if (last.hex) { f.h.push(last.hex); }
      (last.moves || []).forEach(function (m) { f.h.push(m.from, m.to); });
    }
    f.b = pos.boards.map(function (bd, s) {
      var showing = bd.flipped.map(function (fl, slot) {
        return b.terrains.indexOf(b.faces[s][slot][fl ? 1 : 0]);
      }).join("");
      return [showing, bd.dens.spread, bd.dens.speed, bd.dens.howl, bd.lairs, bd.wolves, bd.prey,
        bd.bonus_terrain, bd.bonus_action, bd.region_points, bd.region_tokens];
    });
    f.v = pos.boards.map(function (_, s) {
      return T.vp && T.vp[s] ? T.vp[s] : ["…", "", "", "", "", "", "", "", null];
    });
    return f;
  }

  /* --- what may be clicked now -------------------------------------------------------- */

  /* The wolves of the player to act that may still join the Move being built, as
     {from, wolf, to}: the legal moves, less the wolves already picked. */
  function freeWolves() {
    var build = T.build, used = {};
    (build && build.steps || []).forEach(function (s) {
      var k = hk(s.from) + s.wolf;
      used[k] = (used[k] || 0) + 1;
    });
    return moves().filter(function (m) {
      var k = hk(m.from) + m.wolf, count = 0;
      T.frame.p.forEach(function (p) {
        if (p[0] === m.from[0] && p[1] === m.from[1] && p[3] === seat() && T.b.kinds[p[2]] === m.wolf) { count++; }
      });
      return m.to.length && (used[k] || 0) < Math.max(count, 1);
    });
  }

  /* Destinations of a wolf in the Move being built: all on the terrain of its first one. */
  function destinations(m) {
    var steps = T.build.steps, terrain = steps.length ? T.b.land[hk(steps[0].to)] : null;
    return m.to.filter(function (h) { return terrain === null || T.b.land[hk(h)] === terrain; });
  }

  function starts() {
    var out = {};
    function add(h, kind) {
      var k = hk(h), here = out[k] = out[k] || {hex: h, kinds: []};
      if (here.kinds.indexOf(kind) < 0) { here.kinds.push(kind); }
    }
    freeWolves().forEach(function (m) { add(m.from, "move"); });
    actions().forEach(function (a) { if (a.hex && BUILT.indexOf(a.type) >= 0) { add(a.hex, a.type); } });
    return out;
  }

  /* The hexes to offer now: [{hex, cls, label}]. */
  function targets() {
    var build = T.build, out = [];
    if (!build || !build.type) {
      var s = starts();
      Object.keys(s).forEach(function (k) {
        var what = s[k].kinds.map(function (x) { return NAMES[x]; }).join(" or ");
        out.push({hex: s[k].hex, cls: "start", label: what + " at " + k});
      });
      return out;
    }
    if (build.push) {
      build.push.options.forEach(function (h) {
        out.push({hex: h, cls: "dest push", label: "push the wolf from " + hk(build.push.from) + " to " + hk(h)});
      });
      return out;
    }
    if (build.type === "move") {
      if (build.wolf) {
        destinations(build.wolf).forEach(function (h) {
          out.push({hex: h, cls: "dest", label: "end the " + wolfName(build.wolf.wolf) + " on " + hk(h)});
        });
      } else if (build.steps.length < (T.legal.spread || 1)) {
        freeWolves().forEach(function (m) {
          if (destinations(m).length) { out.push({hex: m.from, cls: "wolf", label: "move the wolf at " + hk(m.from)}); }
        });
      }
      return dedupe(out);
    }
    if (build.action) { return out; }
    ofType(build.type).forEach(function (a) {
      out.push({hex: a.hex, cls: "target", label: NAMES[build.type] + " at " + hk(a.hex)});
    });
    return dedupe(out);
  }

  function dedupe(list) {
    var seen = {};
    return list.filter(function (t) { var k = hk(t.hex); if (seen[k]) { return false; } seen[k] = true; return true; });
  }

  /* --- drawing ------------------------------------------------------------------------ */

  function keepFocus(box, attr, draw) {
    var active = document.activeElement, was = null;
    if (active && box.contains(active)) { was = active.getAttribute(attr); }
    draw();
    if (was !== null) {
      var again = box.querySelector("[" + attr + '="' + was + '"]') || box.querySelector("[" + attr + "]");
      if (again) { again.focus(); }
    }
  }

  function drawMap() {
    var layer = part("board");
    var map = part("map"), sc = map && T && T.b && view().drawMap(map, T.b);
    if (!layer || !sc || !T) { return false; }
    var poly = view().polygon, out = view().pieces(T.b, T.frame, sc, null), marks = [];
    var build = T.build;
    (build && build.steps || []).forEach(function (s) {
      var p = sc.px(s.from[0], s.from[1]), q = sc.px(s.to[0], s.to[1]);
      marks.push(poly(q[0], q[1], sc.unit * 0.8, 6, 0, -90) + ' class="planned"/>');
      marks.push('<line x1="' + p[0].toFixed(1) + '" y1="' + p[1].toFixed(1) + '" x2="' + q[0].toFixed(1) +
        '" y2="' + q[1].toFixed(1) + '" class="planned-arrow"/>');
    });
    if (build && build.wolf) {
      var c = sc.px(build.wolf.from[0], build.wolf.from[1]);
      marks.push(poly(c[0], c[1], sc.unit * 0.9, 6, 0, -90) + ' class="selected"/>');
    }
    if (build && build.hex) {
      var d = sc.px(build.hex[0], build.hex[1]);
      marks.push(poly(d[0], d[1], sc.unit * 0.9, 6, 0, -90) + ' class="selected"/>');
    }
    var choices = targets().map(function (t) {
      var c = sc.px(t.hex[0], t.hex[1]);
      return poly(c[0], c[1], sc.unit * 0.86, 6, 0, -90) + ' class="choice ' + t.cls + '" data-hex="' + hk(t.hex) +
        '" tabindex="0" role="button" aria-label="' + esc(t.label) + '"/>';
    });
    var focusMap = T.focus === "map";
    keepFocus(layer, "data-hex", function () {
      layer.innerHTML = '<svg width="' + sc.width + '" height="' + sc.height + '" data-version="' + T.doc.version +
        '" data-mode="' + (build ? build.type || "choose" : "idle") + '" aria-label="the map">' + out.join("") +
        marks.join("") + choices.join("") + "</svg>";
    });
    if (focusMap) {
      T.focus = null;
      focusFirst();
    }
    return true;
  }

  /* The keyboard's place on the board: its first choice on the map, else its first action. */
  function focusFirst() {
    var layer = part("board"), controls = part("controls");
    var first = layer && layer.querySelector(".choice") || controls && controls.querySelector("button:not([disabled])");
    if (first) { first.focus(); }
  }

  function enabled(kind) {
    var doc = T.doc;
    if (doc.closed || !T.writable) { return false; }
    if (kind === "undo") { return T.source.undoable ? T.source.undoable(doc) : doc.actions.length > 0; }
    if (botTurn()) { return false; }
    if (kind === "move") { return freeWolves().length > 0; }
    return ofType(kind).length > 0;
  }

  function cost(kind) {
    var c = T.b && T.b.costs[kind];
    return c ? ' <span class="cost" title="cost: ' + c + (c === 1 ? " tile" : " tiles") + '">' + c + "</span>" : "";
  }

  function drawControls() {
    var box = part("controls");
    if (!box) { return; }
    T.writable = writable();
    var drafting = ofType("draft").length > 0, build = T.build;
    var built = drafting ? ["draft"] : ["move", "den", "lair", "howl", "dominate"];
    var kinds = T.b ? built.concat(["bonus_action", "pass", "undo"]) : ["undo"];
    var key = {};
    Object.keys(KEYS).forEach(function (k) { key[KEYS[k]] = k; });
    key.undo = "Control+Z";
    var html = kinds.map(function (k) {
      var on = enabled(k), pressed = build && build.type === k;
      return '<button type="button" class="table-act' + (pressed ? " active" : "") + '" data-act="' + k + '"' +
        (on ? "" : " disabled") + (key[k] ? ' aria-keyshortcuts="' + key[k] + '" title="key: ' + key[k] + '"' : "") +
        (BUILT.indexOf(k) >= 0 ? ' aria-pressed="' + !!pressed + '"' : "") + ">" + NAMES[k] + cost(k) + "</button>";
    }).join("");
    if (!T.b) { html += genericActions(); }
    keepFocus(box, "data-act", function () { box.innerHTML = html; });
    box.setAttribute("data-legal", T.legal ? T.legal.version : "");
  }

  function payText(pay) {
    if (!pay) { return "the engine's payment"; }
    var parts = [];
    if (pay.tiles.length) { parts.push("tile" + (pay.tiles.length > 1 ? "s " : " ") + pay.tiles.join(", ")); }
    if (pay.bonus_terrain) { parts.push(pay.bonus_terrain + " bonus terrain"); }
    return parts.join(" + ") || "nothing yet";
  }

  function drawPending() {
    var box = part("pending");
    if (!box) { return; }
    var build = T.build, html = "";
    if (build) {
      var head = build.action ? labelOf(build.action) : build.type ? NAMES[build.type] : "What here?";
      var lines = [];
      if (build.type === "move") {
        lines.push("Up to <b>" + T.legal.spread + "</b> wolves (spread), <b>" + T.legal.speed + "</b> hexes each (speed).");
        build.steps.forEach(function (s, i) {
          lines.push('<span class="step-pick">' + wolfName(s.wolf) + " " + hk(s.from) + " → " + hk(s.to) + "</span>");
        });
        if (build.wolf) {
          lines.push("Now click where the " + wolfName(build.wolf.wolf) + " at " + hk(build.wolf.from) + " ends.");
        }
        else if (!build.steps.length) { lines.push(HELP.move); }
      } else if (!build.action && build.type) {
        lines.push(HELP[build.type]);
      }
      if (build.push) { lines.push("The pushed wolf may go to several nearest hexes (W-6.6): click one."); }
      if (build.options) {
        lines.push(build.options.map(function (o, i) {
          return '<button type="button" class="choose" data-choose="' + i + '">' + esc(o.label) + "</button>";
        }).join(" "));
      }
      var ready = build.action || build.type === "move" && build.steps.length && !build.wolf;
      if (ready) {
        lines.push("Pays " + payText(build.pay) + ' <span class="note">(click the tiles of your board to change it)</span>');
      }
      html = '<div class="pending-head"><b>' + head + "</b>" + (build.hex ? " at " + hk(build.hex) : "") + "</div>" +
        lines.map(function (l) { return "<div>" + l + "</div>"; }).join("") +
        '<div class="pending-buttons">' +
        (ready ? '<button type="button" id="table-confirm" class="table-act confirm">Confirm</button>' : "") +
        '<button type="button" id="table-cancel" class="table-act" aria-keyshortcuts="Escape" title="key: Esc">' +
        "Cancel</button></div>";
      box.setAttribute("data-pay", build.pay ? JSON.stringify(build.pay) : "");
    } else {
      box.removeAttribute("data-pay");
    }
    keepFocus(box, "data-choose", function () { box.innerHTML = html; });
    if (T.focus === "options" && box.querySelector("[data-choose]")) { box.querySelector("[data-choose]").focus(); }
    if (T.focus === "options") { T.focus = null; }
  }

  function drawBoards() {
    var boards = part("boards"), moon = part("moon");
    if (!boards || !T.b) { return; }
    var ready = T.build && (T.build.action || T.build.type === "move" && T.build.steps.length && !T.build.wolf);
    var pay = ready ? T.build.pay || {tiles: [], bonus_terrain: 0} : null;
    var html = T.b.players.map(function (_, s) {
      return '<div class="board-slot">' + view().playerBoard(T.b, T.frame, s, s === seat() ? pay : null) + "</div>";
    }).join("");
    if (boards.__html !== html) {
      keepFocus(boards, "data-slot", function () { boards.innerHTML = html; });
      boards.__html = html;
    }
    if (moon) { moon.innerHTML = view().moonlight(T.b, T.frame); }
  }

  function drawHead() {
    var status = part("status"), fin = part("finish"), doc = T.doc;
    if (status) {
      var extra = moves().length ? " · spread " + T.legal.spread + ", speed " + T.legal.speed : "";
      status.textContent = doc.status + extra;
      status.setAttribute("data-version", doc.version);
      status.setAttribute("data-turn", doc.turn === null ? "" : doc.turn);
    }
    var thinking = document.getElementById("table-bot-thinking");
    if (thinking) { thinking.hidden = !botTurn(); }
    if (!fin) { return; }
    var html = "";
    if (doc.closed && doc.game_id) {
      html = '<a class="table-act" href="/replay/' + esc(doc.game_id) + '">Open the replay</a>';
    } else if (doc.finished && !doc.variation) {
      html = '<button type="button" id="table-finish-button" class="table-act confirm">Finish and open the replay</button>';
    }
    if (fin.__html !== html) { fin.innerHTML = html; fin.__html = html; }
  }

  /* A game without a clickable board: its position as text, its legal actions as buttons. */
  function genericActions() {
    if (botTurn()) { return ""; }
    return actions().map(function (a, i) {
      var words = Object.keys(a).filter(function (k) { return k !== "type" && k !== "player"; }).map(function (k) {
        return k + " " + JSON.stringify(a[k]);
      });
      return '<button type="button" class="table-act generic" data-generic="' + i + '">' +
        esc(a.type + (words.length ? ": " + words.join(", ") : "")) + "</button>";
    }).join("");
  }

  var FIXED = ["format", "version", "game", "players", "setup"];

  function drawPosition() {
    var box = part("position"), pos = T.doc.position;
    if (!box) { return; }
    box.innerHTML = '<table class="table-fields"><tbody>' + Object.keys(pos).filter(function (k) {
      return FIXED.indexOf(k) < 0;
    }).map(function (k) {
      return "<tr><th>" + esc(k) + "</th><td><code>" + esc(JSON.stringify(pos[k])) + "</code></td></tr>";
    }).join("") + "</tbody></table>";
  }

  /* Draw the map now, or as soon as its element has a size (tried every 30 ms, ~20 s at
     most; one try at a time per board). */
  function drawMapSoon() {
    var mine = T, tries = 0;
    if (T.waiting) { return; }
    (function again() {
      if (T !== mine) { return; }
      T.waiting = !drawMap() && ++tries < 700;
      if (T.waiting) { window.setTimeout(again, 30); }
    })();
  }

  function draw() {
    if (!alive()) { return; }
    if (T.b) {
      T.frame = frameOf(T.doc);
      drawMapSoon();
      drawBoards();
    } else {
      drawPosition();
    }
    drawHead();
    drawControls();
    drawPending();
  }

  /* --- the table changing ------------------------------------------------------------- */

  function setDoc(doc) {
    if (!alive() || T.doc && doc.version < T.doc.version) { return; }
    var changed = !T.doc || doc.version !== T.doc.version || !T.legal;
    var moved = T.doc && doc.version !== T.doc.version;
    T.doc = doc;
    if (!changed) { return; }
    if (moved && T.said && Date.now() - T.said > 2000) { say(""); }  // an old refusal
    T.build = null;
    fetchLegal();  // asked first: the request goes while the board is drawn
    draw();
  }

  /* The legal actions of the version shown (asked once per version), then its facts: the
     board is clickable before the server works out the log and the scores. */
  function fetchLegal() {
    var mine = T, version = T.doc.version, seen = T.source.seen;
    if (!T.source.legal) {  // reading only
      if (seen) { seen(version); }
      if (!T.stop) { connect(); }
      return;
    }
    if (T.asked === version) { return; }
    T.asked = version;
    T.source.legal().then(function (r) {
      if (T !== mine || !alive()) { return; }
      if (T.asked === version) { T.asked = null; }
      if (r.ok && r.body.version === T.doc.version) {
        T.legal = r.body;
        draw();
        if (T.source.playable && !T.played) { T.played = true; T.source.playable(); }
      }
      else if (r.ok && r.body.version > version) { refresh(); }
      if (seen) { seen(version); }
      if (!T.stop) { connect(); }  // the board first: then its stream, which sends the document now
    });
  }

  function refresh() {
    var mine = T;
    T.source.doc().then(function (r) { if (T === mine && r.ok) { setDoc(r.body); } });
  }

  /* Follow the source's documents while the board is shown: once its root leaves the page
     (another page of the dashboard, no reload) or another board is mounted, the source stops
     within a second (a table's stream closes, so the server's watcher ends). */
  function connect() {
    var mine = T, stop = null;
    function link(text, cls) {
      var l = part("link");
      if (T === mine && l) { l.textContent = text; l.className = "table-link " + cls; }
    }
    if (T.source.follow) {
      stop = T.source.follow(function (doc) { if (T === mine && alive()) { setDoc(doc); } }, link);
    }
    var check = window.setInterval(function () {
      if (T !== mine || !alive()) {
        if (stop) { stop(); }
        window.clearInterval(check);
        if (T === mine) { T = null; }
        return;
      }
      if (T.doc && T.legal && T.writable !== writable()) { drawControls(); }  // a token came or went
    }, 500);
    T.stop = function () { if (stop) { stop(); stop = null; } window.clearInterval(check); };
  }

  /* --- writes --------------------------------------------------------------------------- */

  /* The API token the tab holds (dashboard/token.py keeps it in session storage), or null. */
  function token() {
    try { return JSON.parse(window.sessionStorage.getItem("auth-token")); } catch (e) { return null; }
  }

  /* Whether el is in the board's map, controls or choices. */
  function ours(el) {
    return ["board", "controls", "pending"].some(function (k) { var p = part(k); return !!(p && el && p.contains(el)); });
  }

  /* One write through the source, one at a time; then(body) runs on success. A focus the
     write took away (the button pressed is gone) goes to the map's first choice. */
  function write(op, body, then) {
    if (T.busy) { return; }
    T.busy = true;
    var mine = T, t0 = T.clicked || window.performance.now(), focused = ours(document.activeElement);
    T.clicked = null;
    T.source.write(op, body).then(function (r) {
      if (T !== mine || !alive()) { return; }
      T.busy = false;
      if (r.ok) {
        say("");
        then(r.body);
        if (focused) {
          window.requestAnimationFrame(function () {  // once the page has laid out the change
            if (T === mine && !ours(document.activeElement)) { T.focus = "map"; focusFirst(); }
          });
        }
        timed(times.submit, t0);
      } else if (r.push && T.build) {
        T.build.push = r.push;
        draw();
      } else {
        say(refusal(r));
        if (r.body && r.body.code === "stale_version") { refresh(); }
      }
    });
  }

  function send(action, askPush) {
    write("action", {action: action, version: T.doc.version, ask_push: !!askPush},
      function (b) { setDoc(b.table); });
  }

  function undo() {
    if (enabled("undo")) {
      write("undo", {version: T.doc.version}, function (b) { setDoc(b.table); });
    }
  }

  function finish() {
    write("finish", {}, function (b) {
      if (T.source.finished) { T.source.finished(b); } else { window.location.assign("/replay/" + b.game_id); }
    });
  }

  /* --- building an action ------------------------------------------------------------- */

  function begin(kind) {
    if (!enabled(kind)) { return; }
    if (kind === "bonus_action" || kind === "pass") {  /* written at once, unless it would drop a build */
      if (begun()) {
        say('<div class="refused" role="alert">Enter or cancel (Esc) the ' +
            esc(NAMES[T.build.type] || "action") + " being built first: " + esc(NAMES[kind]) +
            " would drop it.</div>");
      } else { cancel(); send(ofType(kind)[0]); }
      return;
    }
    if (kind === "undo") { undo(); return; }
    T.build = {type: kind, steps: [], wolf: null, hex: null, action: null, pay: null, options: null};
    draw();
  }

  /* Whether an action is half built: a hex, a wolf, a step or a choice made. */
  function begun() {
    var b = T.build;
    return !!b && !!(b.steps.length || b.hex || b.wolf || b.action || b.options);
  }

  function cancel() {
    if (!T.build) { return; }
    T.build = null;
    draw();
  }

  /* The engine's payment of a Move ending on the terrain of hex h (the server's, for the
     version shown), or null: the engine then completes it by its rule when it is entered. */
  function movePay(h) {
    var f = T.facts, pay = f && f.version === T.doc.version && f.pays ? f.pays[T.b.land[hk(h)]] : null;
    return pay ? normalPay(pay) : null;
  }

  function normalPay(pay) { return {tiles: (pay.tiles || []).slice(), bonus_terrain: pay.bonus_terrain || 0}; }

  function settle(action) {
    T.build.action = action;
    T.build.pay = action.pay ? normalPay(action.pay) : null;
    T.build.options = null;
  }

  function labelOf(a) {
    if (a.type === "den") { return "Den on the " + a.track + " track"; }
    if (a.type === "dominate") {
      return "Dominate the " + (a.piece || "piece") + (a.track ? ", den on the " + a.track + " track" : "");
    }
    return NAMES[a.type];
  }

  /* Time from an input event (its timeStamp) to the next frame painted after it. */
  function timed(list, t0) {
    window.requestAnimationFrame(function () { list.push(window.performance.now() - t0); });
  }

  function pick(h, t0) {
    var build = T.build;
    if (botTurn()) { return; }
    if (!build || !build.type) {
      var here = starts()[hk(h)];
      if (!here) { return; }
      if (here.kinds.length === 1) { begin(here.kinds[0]); pick(h); return; }
      T.focus = "options";
      T.build = {type: null, hex: h, steps: [], options: here.kinds.map(function (k) {
        return {label: k === "move" ? "Move a wolf from here" : NAMES[k] + " here", kind: k};
      })};
      draw();
      return;
    }
    if (build.push) {
      if (!build.push.options.some(function (x) { return same(x, h); })) { return; }
      var step = build.push.index === null ? build.action : build.steps[build.push.index];
      step.push_to = h;
      build.push = null;
      confirm();
      return;
    }
    if (build.type === "draft") {
      var d = ofType("draft").filter(function (a) { return same(a.hex, h); })[0];
      if (d) { send(d); }
      return;
    }
    if (build.type === "move") {
      if (build.wolf && destinations(build.wolf).some(function (x) { return same(x, h); })) {
        if (!build.steps.length) { build.pay = movePay(h); }
        build.steps.push({from: build.wolf.from, to: h, wolf: build.wolf.wolf});
        build.wolf = null;
      } else {
        var wolves = freeWolves().filter(function (m) { return same(m.from, h) && destinations(m).length; });
        if (!wolves.length || build.steps.length >= T.legal.spread) { return; }
        if (wolves.length === 1) { build.wolf = wolves[0]; build.options = null; }
        else {
          T.focus = "options";
          build.options = wolves.map(function (m) { return {label: "the " + wolfName(m.wolf), wolf: m}; });
        }
      }
      draw();
      if (build.wolf && t0 !== undefined) { timed(times.select, t0); }
      return;
    }
    var found = ofType(build.type).filter(function (a) { return same(a.hex, h); });
    if (!found.length) { return; }
    build.hex = h;
    if (found.length === 1) { settle(found[0]); }
    else {
      T.focus = "options";
      build.options = found.map(function (a) { return {label: labelOf(a), action: a}; });
    }
    draw();
  }

  function choose(i) {
    var build = T.build, o = build && build.options && build.options[i];
    if (!o) { return; }
    T.focus = "map";
    if (o.kind) { var h = build.hex; T.build = null; begin(o.kind); pick(h); return; }
    if (o.wolf) { build.wolf = o.wolf; build.options = null; }
    else { settle(o.action); }
    draw();
  }

  function confirm() {
    var build = T.build;
    if (!build) { return; }
    var action = build.type === "move" ? {type: "move", player: seat(), moves: build.steps} : copy(build.action);
    if (build.pay) { action.pay = build.pay; } else { delete action.pay; }
    var ends = build.type === "move" ? build.steps.map(function (s) { return s.to; }) : [action.hex];
    send(action, ends.some(enemyWolf));
  }

  /* Whether a wolf of another seat stands on h (an action ending there may push it). */
  function enemyWolf(h) {
    return T.frame.p.some(function (p) {
      var kind = T.b.kinds[p[2]];
      return p[0] === h[0] && p[1] === h[1] && p[3] >= 0 && p[3] !== seat() && (kind === "alpha" || kind === "pack");
    });
  }

  function costNow() { return T.b.costs[T.build.type] || 0; }

  /* A tile of the player board clicked while a payment is shown: in or out of the payment. */
  function payTile(slot) {
    var pay = T.build.pay = T.build.pay || {tiles: [], bonus_terrain: 0}, at = pay.tiles.indexOf(slot);
    if (at >= 0) { pay.tiles.splice(at, 1); }
    else {
      pay.tiles.push(slot);
      while (pay.tiles.length + pay.bonus_terrain > costNow()) {
        if (pay.bonus_terrain) { pay.bonus_terrain--; } else { pay.tiles.shift(); }
      }
    }
    draw();
  }

  /* The bonus terrain tokens paying: one more, up to what is held and what is not paid by
     tiles, then none again. */
  function payBonus() {
    var pay = T.build.pay = T.build.pay || {tiles: [], bonus_terrain: 0};
    var held = T.frame.b[seat()][7], room = Math.min(held, costNow() - pay.tiles.length);
    pay.bonus_terrain = pay.bonus_terrain + 1 <= room ? pay.bonus_terrain + 1 : 0;
    draw();
  }

  /* --- events --------------------------------------------------------------------------- */

  /* The element of the part ``name`` that t is in and that matches ``sel``, or null. */
  function hit(t, name, sel) { var el = t.closest(sel); return el ? inPart(el, name) : null; }

  document.addEventListener("click", function (e) {
    if (!alive()) { return; }
    var t = e.target && e.target.closest ? e.target : null;
    if (!t) { return; }
    var el;
    if ((el = hit(t, "board", "[data-hex]"))) {
      var xy = el.getAttribute("data-hex").split(",");
      pick([+xy[0], +xy[1]], e.timeStamp);
    } else if ((el = hit(t, "controls", "[data-act]"))) {
      var kind = el.getAttribute("data-act");
      if (T.build && T.build.type === kind) { cancel(); } else { begin(kind); }
    } else if ((el = hit(t, "controls", "[data-generic]"))) {
      send(actions()[+el.getAttribute("data-generic")]);
    } else if ((el = hit(t, "pending", "[data-choose]"))) {
      choose(+el.getAttribute("data-choose"));
    } else if (hit(t, "pending", "#table-confirm")) { T.clicked = e.timeStamp; confirm(); }
    else if (hit(t, "pending", "#table-cancel")) { cancel(); }
    else if (hit(t, "finish", "#table-finish-button")) { finish(); }
    else if ((el = hit(t, "boards", "[data-slot]"))) { payTile(+el.getAttribute("data-slot")); }
    else if (hit(t, "boards", ".pay-bonus")) { payBonus(); }
  });

  document.addEventListener("keydown", function (e) {
    if (!alive() || !T.source.legal) { return; }
    var t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) { return; }
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "z") { e.preventDefault(); undo(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === "Escape") { cancel(); return; }
    if ((e.key === "Enter" || e.key === " ") && t && t.closest && hit(t, "board", "[data-hex]")) {
      e.preventDefault();
      t.dispatchEvent(new window.MouseEvent("click", {bubbles: true}));
      return;
    }
    var kind = KEYS[e.key.toLowerCase()];
    if (kind && T.b) {
      e.preventDefault();
      if (T.build && T.build.type === kind) { cancel(); } else { begin(kind); }
    }
  });

  window.addEventListener("resize", function () {
    if (alive() && T.b) { window.setTimeout(drawMap, 150); }
  });

  /* A page opened behind another draws its map only once it is looked at. */
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && alive() && T.b) { drawMapSoon(); }
  });

  /* Mount the board of ``source`` in ``root`` (see the header); the board mounted before
     is ended first. */
  function mount(root, source) {
    unmount();
    T = {root: root, source: source, parts: source.parts || {}, b: source.board, doc: null, legal: null,
      build: null, vp: null, busy: false};
    var mine = T;
    source.doc().then(function (r) {
      if (T !== mine) { return; }
      if (r.ok) { setDoc(r.body); } else { say(refusal(r)); connect(); }
    });
    return {facts: function (f) { if (T === mine) { facts(f); } },
      unmount: function () { if (T === mine) { unmount(); } },
      doc: function () { return T === mine ? T.doc : null; }};
  }

  /* End the board mounted: its drawings leave the parts it does not share with a page's
     own drawing (the map stays). */
  function unmount() {
    if (!T) { return; }
    if (T.stop) { T.stop(); }
    ["board", "boards", "moon", "position", "controls", "pending", "status"].forEach(function (name) {
      var el = part(name);
      if (el) { el.innerHTML = ""; el.__html = null; }
    });
    var status = part("status"), controls = part("controls");
    if (status) { status.removeAttribute("data-version"); status.removeAttribute("data-turn"); }
    if (controls) { controls.removeAttribute("data-legal"); }
    T = null;
  }

  /* The server's log and scores for a version: the log is written as plain HTML (as the
     replay's is: components per entry would cost the page a render of them all each time),
     the scores go on the player boards. */
  function facts(f) {
    if (!f || !alive()) { return; }
    T.vp = f.v;
    T.facts = f;
    if (T.b) { T.frame = frameOf(T.doc); drawBoards(); }
    var log = part("log");
    if (log) {
      log.innerHTML = f.log.map(function (e) {
        return '<li class="log-step' + (e[2].length ? " scoring" : "") + '" data-step="' + e[0] + '">' +
          '<span class="log-n">' + e[0] + "</span><span>" + esc(e[1]) + "</span>" +
          e[2].map(function (line) { return '<div class="log-scoring">' + esc(line) + "</div>"; }).join("") +
          (e[3] ? '<div class="log-end">' + esc(e[3]) + "</div>" : "") + "</li>";
      }).join("");
      log.setAttribute("data-version", f.version);
      log.scrollTop = log.scrollHeight;
    }
  }

  /* --- the source of a table of the tables API, with its page's Dash stores ------------- */

  var PATHS = {action: "/actions", undo: "/undo", finish: "/finish"};
  var DASH = null;  // the Dash source in use: its callbacks' answers go to it

  function answer(r) {
    return r.json().catch(function () { return {}; }).then(function (j) {
      return {ok: r.ok, status: r.status, body: j};
    });
  }

  function failed(e) { return {ok: false, status: 0, body: {message: String(e)}}; }

  function tableSource(prefix, id, board) {
    var base = "/api/tables/" + id, S = {board: board, waiting: {}, sent: 0, handle: null};
    function read(path) {
      return window.fetch(base + path, {headers: {Accept: "application/json"}}).then(answer).catch(failed);
    }
    S.doc = function () { return read(""); };
    S.legal = function () { return read("/legal"); };
    S.follow = function (onDoc, onLink) {
      var stream = new window.EventSource(base + "/stream");
      stream.addEventListener("table", function (e) { onDoc(JSON.parse(e.data)); });
      stream.onopen = function () { onLink("live", "on"); };
      stream.onerror = function () { onLink("reconnecting…", "off"); };
      return function () { stream.close(); };
    };
    S.seen = function (version) {
      DASH = S;
      window.dash_clientside.set_props(prefix + "-seen", {data: {version: version}});
    };
    /* With the tab's token straight to the tables API; without one (the dashboard open to
       anyone), or to ask first where a push may go, to the page's write callback through
       <prefix>-send (the callback takes the token as uploads do), back through <prefix>-written. */
    S.write = function (op, body) {
      var tk = token();
      if (tk && !body.ask_push) {
        var sent = Object.assign({}, body);
        delete sent.ask_push;
        return window.fetch(base + PATHS[op], {
          method: "POST", body: JSON.stringify(sent),
          headers: {"Content-Type": "application/json", Accept: "application/json", Authorization: "Bearer " + tk}
        }).then(answer).catch(failed);
      }
      var n = S.sent = S.sent + 1;
      DASH = S;
      return new Promise(function (resolve) {
        S.waiting = {};
        S.waiting[n] = resolve;
        window.dash_clientside.set_props(prefix + "-send", {data: Object.assign({n: n, op: op}, body)});
      });
    };
    return S;
  }

  /* The answer of a page's write callback (<prefix>-written). */
  function written(r) {
    var resolve = r && DASH && DASH.waiting[r.n];
    if (resolve) { delete DASH.waiting[r.n]; resolve(r); }
    return window.dash_clientside.no_update;
  }

  /* The facts of a page's facts callback (<prefix>-facts), for the board shown. */
  function factsCallback(f) {
    if (DASH && DASH.handle) { DASH.handle.facts(f); }
    return window.dash_clientside.no_update;
  }

  /* The table page arrived (table-static): mount its board on its table. */
  function start(st) {
    var nu = window.dash_clientside.no_update;
    if (!st) { return nu; }
    var source = tableSource("table", st.id, st.board), root = document.getElementById("table");
    var first = st.doc, read = source.doc;
    source.doc = function () {  // the page came with the document: the first read is that
      var now = first;
      first = null;
      return now ? Promise.resolve({ok: true, status: 200, body: now}) : read();
    };
    source.handle = mount(root, source);
    return nu;
  }

  window.howlTable = {mount: mount, source: tableSource};
  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    howlTable: {start: start, facts: factsCallback, written: written}
  });
})();
