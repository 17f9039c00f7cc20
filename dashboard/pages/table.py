"""``/table/<id>``: a game in progress, entered move by move and watched live.

The page is drawn in the browser by ``assets/table.js`` from the tables contract
(``/api/tables/<id>``, its ``legal`` actions, its ``stream`` of changes): for The Wolves the
map of the replay page with the pieces of the position now, clickable, the player boards
(where a payment being chosen is changed by clicking tiles), the Moonlight track, whose turn
it is and the action buttons; for another game its position and its legal actions as
buttons. Writes carry the tab's API token (``dashboard/token.py``) to the tables API, or,
without one or to ask where a push may go, to this page's write callback (:func:`write`),
which takes the token as the dashboard's uploads do. The log of the actions
so far, with what each one caused, and the seats' scores come from the server here
(:func:`facts`), asked again by the script whenever the table changed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from uuid import UUID

from dash import ClientsideFunction, Dash, Input, NoUpdate, Output, State, dcc, html, no_update

from dashboard import data
from dashboard.boards import table_board
from dashboard.inputs import choice, text
from dashboard.pages.replay import log_entry
from dashboard.table_parts import Tokens, controls, readonly_note
from domain.games import ruleset
from domain.replays import replay
from domain.ruleset import GameRecord, Ruleset
from projections.timeline import follow
from services import tables
from services.refusals import Refusal

WRITES = ("action", "undo", "finish")
"""What the page's script asks the write callback to do."""


def not_found(table_id: str) -> html.Div:
    """Shown for an id that names no table."""
    return html.Div([html.H2("Table not found"), html.P(f"No table {table_id} is open.")])


def _record(doc: dict[str, Any]) -> tuple[Ruleset, GameRecord]:
    rules = ruleset(doc["game"])
    return rules, rules.read_record(doc["record"])


def layout(table_id: str) -> html.Div:
    """The page of the table ``table_id``."""
    tid = data.parse_game_id(table_id)
    try:
        if tid is None:
            raise Refusal(404, "unknown_table", "no such table")
        doc = tables.table_doc(tid)
    except (Refusal, tables.UnknownTable):
        return not_found(table_id)
    rules, record = _record(doc)
    start = rules.start(record)
    board = table_board(doc["game"])
    static = {
        "id": str(tid),
        "game": doc["game"],
        "board": board.data(start) if board else None,
        "doc": {k: v for k, v in doc.items() if k != "record"},
    }
    return html.Div(
        [
            dcc.Store(id="table-static", data=static),
            dcc.Store(id="table-id", data=str(tid)),
            dcc.Store(id="table-seen"),
            dcc.Store(id="table-facts"),
            dcc.Store(id="table-send"),
            dcc.Store(id="table-written"),
            html.Div(id="table-live", hidden=True),
            html.Div(
                [
                    html.H2(doc["title"] or "Untitled table"),
                    html.Span(id="table-status", className="table-status", role="status"),
                    html.Span("connecting…", id="table-link", className="table-link"),
                    _bots(doc),
                    readonly_note("play"),
                ],
                className="table-head",
                **Tokens({"data-tokens": "1" if data.tokens_required() else "0"}),
            ),
            html.Div(
                [
                    html.Div(
                        [board.board(start)] if board else [html.Div(id="table-position")],
                        className="table-left",
                    ),
                    html.Div(
                        [
                            *controls(),
                            html.Div(id="table-finish", className="table-finish"),
                            html.Div(id="table-moon", className="moonlight"),
                            html.Div(id="table-boards", className="player-boards"),
                            html.H3("Log"),
                            html.Ol(id="table-log", className="step-log table-log"),
                        ],
                        className="table-right",
                    ),
                ],
                className="table-main",
            ),
        ],
        id="table",
    )


def _bots(doc: dict[str, Any]) -> html.P | None:
    """The seats bots play (they move by themselves), or None for a table without bots."""
    named = [
        f"seat {int(seat) + 1} {doc['players'][int(seat)]['name']} ({bot['bot']}"
        + (f", depth {bot['depth']})" if bot["depth"] else ")")
        for seat, bot in sorted(doc["bots"].items())
    ]
    if not named:
        return None
    thinking = html.Span(" · the bot is thinking…", id="table-bot-thinking", className="thinking",
                         hidden=True)  # fmt: skip
    return html.P([f"Bots: {', '.join(named)}; they play their turns by themselves.", thinking],
                  id="table-bots", className="table-bots")  # fmt: skip


def record_facts(doc: dict[str, Any]) -> dict[str, Any]:
    """The log of a table document's actions as ``[step, what the action did, the scorings
    it caused, the game's end or None]`` (hunts and Moonlight dates are in its text), every
    seat's score and the board's payments now, from its record replayed."""
    rules, record = _record(doc)
    played = replay(rules, record)
    follower = follow(rules, played.initial)
    now = follower.first()
    log = []
    for step, events in enumerate(played.steps, start=1):
        now = follower.step(events)
        marks = [{"kind": m.kind, "text": m.text} for m in now.milestones]
        row = {"step": step, "player": now.player, "label": now.label, "milestones": marks}
        n, _seat, said, marked, end = log_entry(row)
        log.append([n, said, marked, end])
    board = table_board(doc["game"])
    return {
        "version": doc["version"],
        "log": log,
        "v": board.scores(now) if board else None,
        "pays": board.pays(played.state) if board else None,
    }


@lru_cache(maxsize=256)
def _facts_at(table_id: UUID, version: int) -> dict[str, Any] | None:
    """:func:`record_facts` of a table at ``version``, computed once for all its watchers (a
    version names one state: undoing is a new version too); None when the table is not at
    that version now."""
    doc = tables.table_doc(table_id)
    return record_facts(doc) if doc["version"] == version else None


def facts(seen: Any, table_id: Any) -> dict[str, Any] | NoUpdate:
    """The log and scores of the table at the version the page shows (``seen``: ``{"version"}``
    from its script), or now."""
    tid = data.parse_game_id(text(table_id, 100) or "")
    if tid is None:
        return no_update
    version = seen.get("version") if isinstance(seen, dict) else None
    try:
        shown = _facts_at(tid, version) if type(version) is int else None
        return shown if shown is not None else record_facts(tables.table_doc(tid))
    except (Refusal, tables.UnknownTable):
        return no_update


def _refused(n: Any, status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"n": n, "ok": False, "status": status, "body": body}


def _push(table_id: UUID, action: Any) -> dict[str, Any] | None:
    """Where a wolf the action pushes may go, when the player has a choice to make first."""
    doc = tables.table_doc(table_id)
    board = table_board(doc["game"])
    if board is None or not isinstance(action, dict):
        return None
    rules, record = _record(doc)
    return board.pushes(replay(rules, record).state, action)


def write(sent: Any, table_id: Any, token: Any) -> dict[str, Any] | NoUpdate:
    """Enter an action, undo the last one or finish the table (``sent``: ``{"n", "op",
    "action"?, "version"?, "unfinished"?, "ask_push"?}`` from the page's script) with the
    tab's token, as the API would: the answer is ``{"n", "ok", "status", "body"}``, ``body``
    the API's answer or its problem (``code``, ``message`` and, for an illegal action,
    ``rule``). With ``ask_push``, an action that pushes a wolf where the player may choose
    among several nearest hexes is not entered: the answer's ``push`` lists them."""
    if not isinstance(sent, dict):
        return no_update
    n = sent.get("n")
    op = choice(sent.get("op"), WRITES)
    tid = data.parse_game_id(text(table_id, 100) or "")
    version = sent.get("version")
    if op is None or tid is None or op != "finish" and type(version) is not int:
        return _refused(n, 400, {"code": "bad_request", "message": "Not a table write."})
    try:
        by = data.writer(token, "Entering actions")
        if op == "action" and sent.get("ask_push") is True:
            push = _push(tid, sent.get("action"))
            if push is not None:
                return {"n": n, "ok": False, "status": 300, "push": push, "body": {}}
        if op == "action":
            body = tables.enter(tid, sent.get("action"), version, by)
        elif op == "undo":
            body = tables.undo(tid, version, by)
        else:
            body = tables.finish(tid, sent.get("unfinished") is True, by)
    except data.WriteRefused as err:
        return _refused(n, err.status, {"code": err.kind, "message": err.message})
    except Refusal as err:
        return _refused(n, err.status, {"code": err.kind, "message": err.detail, **err.extra})
    except tables.UnknownTable:
        return _refused(n, 404, {"code": "unknown_table", "message": "No such table is open."})
    return {"n": n, "ok": True, "status": 201, "body": body}


def register(app: Dash) -> None:
    """The page's clientside start (``assets/table.js``) and its log callback."""
    app.clientside_callback(
        ClientsideFunction("howlTable", "start"),
        Output("table-live", "children"),
        Input("table-static", "data"),
    )
    app.clientside_callback(
        ClientsideFunction("howlTable", "facts"),
        Output("table-live", "title"),
        Input("table-facts", "data"),
    )
    app.clientside_callback(
        ClientsideFunction("howlTable", "written"),
        Output("table-live", "role"),
        Input("table-written", "data"),
    )
    app.callback(
        Output("table-written", "data"),
        Input("table-send", "data"),
        State("table-id", "data"),
        State("auth-token", "data"),
        prevent_initial_call=True,
    )(write)
    app.callback(
        Output("table-facts", "data"),
        Input("table-seen", "data"),
        State("table-id", "data"),
    )(facts)
