"""``/practice/<game_id>?seat=S``: practise a reviewed game's mistakes, one position at a time.

The page lists the seat's mistakes and blunders in the game's stored review
(:mod:`services.practice`) and shows each position on the table board (``assets/table.js``
mounted by ``assets/practice.js`` with a practice source): its legal actions are the
practice's (``/api/games/{id}/practice/legal``) and entering an action submits it to the
review's judge. The player's name is asked once and kept in the tab; their progress comes
from the API. Verdicts and solutions go through this page's write callback (:func:`write`),
which takes the tab's token as the dashboard's uploads do; the log of the game so far and
the seats' scores at a position come from :func:`facts`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs
from uuid import UUID

import orjson
from dash import ClientsideFunction, Dash, Input, NoUpdate, Output, State, dcc, html, no_update

from dashboard import data
from dashboard.boards import table_board
from dashboard.inputs import choice, integer, text
from dashboard.pages.table import record_facts
from dashboard.table_parts import Labelled, Live, Tokens, controls, readonly_note
from domain.games import ruleset
from domain.store import UnknownGame
from domain.store.practice import MAX_NAME
from services import practice
from services.refusals import Refusal

WRITES = ("try", "reveal")
"""What the page's script asks the write callback to do."""
MAX_INDEX = 1_000_000
"""Largest action index the callbacks take."""


def requested_seat(search: str | None) -> int | None:
    """The ``seat`` query parameter, or None when it is missing or not a number.

    >>> requested_seat("?seat=1"), requested_seat("?seat=x"), requested_seat(None)
    (1, None, None)
    """
    found = parse_qs((search or "").lstrip("?")).get("seat", [""])[0]
    return int(found) if found.isdigit() and len(found) < 4 else None


def _message(title: str, text_: str) -> html.Div:
    return html.Div([html.H2(title), html.P(text_)], id="practice", className="practice")


def _entries(game_id: UUID, found: dict[str, Any]) -> tuple[list[dict[str, Any]], Any]:
    """The positions as the script shows them (each a table-like document), and the game's
    start state."""
    library = data.library()
    rules = ruleset(library.info(game_id).game)
    record = orjson.loads(library.record(game_id))
    players = [{"seat": i, **p} for i, p in enumerate(record.get("players", []))]
    entries = []
    for p in found["positions"]:
        at = rules.read_position(p["position"])
        last = record["actions"][p["index"] - 1 : p["index"]]
        doc = {
            "table_id": str(game_id), "game": rules.name, "title": None, "version": 0,
            "players": players, "actions": last, "turn": rules.turn(at),
            "status": rules.describe(at), "finished": False, "closed": False, "game_id": None,
            "position": p["position"], "variation": None,
        }  # fmt: skip
        entries.append({k: p[k] for k in ("index", "step", "classification", "label")} | {
            "doc": doc})  # fmt: skip
    return entries, library.state_at(game_id, 0)


def layout(game_id: str, search: str | None = None) -> html.Div:
    """The practice page of the stored game ``game_id`` for the seat ``?seat=S``."""
    gid = data.parse_game_id(game_id)
    seat = requested_seat(search)
    if gid is None or not data.has_game(gid):
        return _message("Game not found", f"No game {game_id} is stored.")
    if seat is None:
        return _message("Which seat?", "Open this page from the replay's analysis: ?seat=N.")
    try:
        found = practice.positions(gid, seat)
    except Refusal as err:
        return _message("Nothing to practise", err.detail)
    except UnknownGame:
        return _message("Game not found", f"No game {game_id} is stored.")
    entries, start = _entries(gid, found)
    rules = ruleset(entries[0]["doc"]["game"]) if entries else None
    board = table_board(rules.name) if rules else None
    info = data.library().info(gid)
    name = orjson.loads(data.library().record(gid))["players"][seat]["name"]
    static = {
        "game_id": str(gid), "seat": seat, "positions": entries,
        "board": board.data(start) if board else None,
    }  # fmt: skip
    return html.Div(
        [
            dcc.Store(id="practice-static", data=static),
            dcc.Store(id="practice-game", data=str(gid)),
            dcc.Store(id="practice-seen"),
            dcc.Store(id="practice-facts"),
            dcc.Store(id="practice-send"),
            dcc.Store(id="practice-written"),
            html.Div(id="practice-live", hidden=True),
            html.H2(f"Practise {name}'s mistakes"),
            html.P(
                [
                    html.A(info.title or "Untitled game", href=f"/replay/{gid}"),
                    f": {len(entries)} position{'s' if len(entries) != 1 else ''} where {name} "
                    "played a mistake or a blunder. Find a better action.",
                ],
                className="note",
            ),
            _name_form(),
            html.Div(
                [_nav(), _head(), _main(board.board(start) if board else None)],
                id="practice-body",
                className="practice-body waiting",  # laid out (the map sized) but not shown
            ),
        ],
        id="practice",
        className="practice",
    )


def _name_form() -> html.Form:
    """The player's name, asked once per tab."""
    return html.Form(
        [
            html.Label("Your name", htmlFor="practice-name"),
            dcc.Input(
                id="practice-name",
                type="text",
                maxLength=MAX_NAME,
                autoComplete="nickname",
                className="auth-input",
            ),  # fmt: skip
            html.Button("Start", id="practice-start", type="submit", className="table-act"),
            html.Span(id="practice-who", className="practice-who", role="status"),
        ],
        id="practice-form",
        className="practice-form",
    )


def _nav() -> html.Div:
    """Previous, where, next, and the list of positions."""
    return html.Div(
        [
            html.Button("◀ Previous", id="practice-prev", type="button", className="table-act"),
            html.Span(id="practice-where", className="practice-where", tabIndex="-1"),
            html.Button("Next ▶", id="practice-next", type="button", className="table-act"),
            html.Ol(
                id="practice-list",
                className="practice-list",
                **Labelled({"aria-label": "positions"}),
            ),  # fmt: skip
        ],
        className="practice-nav",
    )


def _head() -> html.Div:
    """Where the game stands, and the note that the tab reads only without a token."""
    return html.Div(
        [
            html.Span(id="table-status", className="table-status"),
            readonly_note("practise"),
        ],
        className="table-head",
        **Tokens({"data-tokens": "1" if data.tokens_required() else "0"}),
    )


def _main(board: Any) -> html.Div:
    """The board (or the position's fields) and, beside it, the verdict and the controls."""
    right = [
        html.Div(
            id="practice-verdict", className="practice-verdict", **Live({"aria-live": "polite"})
        ),
        *controls(),
        html.Div(id="table-moon", className="moonlight"),
        html.Div(id="table-boards", className="player-boards"),
        html.H3("The game so far"),
        html.Ol(id="table-log", className="step-log table-log"),
    ]
    left = [board] if board is not None else [html.Div(id="table-position")]
    return html.Div(
        [html.Div(left, className="table-left"), html.Div(right, className="table-right")],
        className="table-main",
    )


@lru_cache(maxsize=256)
def _facts_at(game_id: UUID, index: int) -> dict[str, Any]:
    """The log and scores of the game's first ``index`` actions (a stored game never changes)."""
    library = data.library()
    record = orjson.loads(library.record(game_id))
    record["actions"] = record["actions"][:index]
    return record_facts({"game": library.info(game_id).game, "record": record, "version": 0})


def facts(seen: Any, game_id: Any) -> dict[str, Any] | NoUpdate:
    """The log and scores at the position the script shows (``seen``: ``{"index",
    "version"}``), for that version."""
    if not isinstance(seen, dict):
        return no_update
    gid = data.parse_game_id(text(game_id, 100) or "")
    index, version = integer(seen.get("index"), range(MAX_INDEX)), seen.get("version")
    if gid is None or index is None or type(version) is not int:
        return no_update
    try:
        return {**_facts_at(gid, index), "version": version, "index": index}
    except (UnknownGame, ValueError):
        return no_update


def _refused(n: Any, status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"n": n, "ok": False, "status": status, "body": body}


def _push(game_id: UUID, index: int, action: Any) -> dict[str, Any] | None:
    """Where a wolf the action pushes may go, when the player has a choice to make first."""
    rules, at = practice.position(game_id, index)
    board = table_board(rules.name)
    if board is None or not isinstance(action, dict):
        return None
    return board.pushes(at, action)


def write(sent: Any, game_id: Any, token: Any) -> dict[str, Any] | NoUpdate:
    """Judge an action or show the solution (``sent``: ``{"n", "op", "index", "player",
    "action"?, "ask_push"?}`` from the page's script) with the tab's token, as the API would:
    the answer is ``{"n", "ok", "status", "body"}``, ``body`` the API's answer or its
    problem (``code``, ``message``, ``rule``). With ``ask_push``, an action that pushes a
    wolf where the player may choose among several hexes is not judged: the answer's
    ``push`` lists them."""
    if not isinstance(sent, dict):
        return no_update
    n = sent.get("n")
    op = choice(sent.get("op"), WRITES)
    gid = data.parse_game_id(text(game_id, 100) or "")
    index = integer(sent.get("index"), range(MAX_INDEX))
    if op is None or gid is None or index is None:
        return _refused(n, 400, {"code": "bad_request", "message": "Not a practice write."})
    try:
        by = data.writer(token, "Practising")
        if op == "try" and sent.get("ask_push") is True:
            push = _push(gid, index, sent.get("action"))
            if push is not None:
                return {"n": n, "ok": False, "status": 300, "push": push, "body": {}}
        if op == "try":
            body = practice.judge(gid, index, sent.get("action"), sent.get("player"), by)
        else:
            body = practice.reveal(gid, index, sent.get("player"), by)
    except data.WriteRefused as err:
        return _refused(n, err.status, {"code": err.kind, "message": err.message})
    except Refusal as err:
        return _refused(n, err.status, {"code": err.kind, "message": err.detail, **err.extra})
    except UnknownGame:
        return _refused(n, 404, {"code": "unknown_game", "message": "No such game is stored."})
    return {"n": n, "ok": True, "status": 200, "body": body}


def register(app: Dash) -> None:
    """The page's clientside start (``assets/practice.js``), its write and facts callbacks."""
    app.clientside_callback(
        ClientsideFunction("howlPractice", "start"),
        Output("practice-live", "children"),
        Input("practice-static", "data"),
    )
    app.clientside_callback(
        ClientsideFunction("howlPractice", "facts"),
        Output("practice-live", "title"),
        Input("practice-facts", "data"),
    )
    app.clientside_callback(
        ClientsideFunction("howlPractice", "written"),
        Output("practice-live", "role"),
        Input("practice-written", "data"),
    )
    app.callback(
        Output("practice-written", "data"),
        Input("practice-send", "data"),
        State("practice-game", "data"),
        State("auth-token", "data"),
        prevent_initial_call=True,
    )(write)
    app.callback(
        Output("practice-facts", "data"),
        Input("practice-seen", "data"),
        State("practice-game", "data"),
    )(facts)
