"""The replay page's variations: "Explore" from a step, the game's lines, a line's steps and
its comparison with the main line, rename and delete.

A variation is a table opened at a step of the stored game (``POST
/api/games/{id}/variations``): ``assets/explore.js`` creates it and writes to it through the
API with the tab's token, as the table page does, and mounts the table board
(``assets/table.js``) over the replay's map while exploring; the board's log and scores and
its writes without a token go through this module's stores to the table page's callbacks.
The game's lines come from ``GET /api/games/{id}/branches``, a line's comparison from
``GET /api/variations/{vid}``. The steps of a line after its origin (each position, label
and the seats' scores) come from the server once per line (:func:`line_data`, the
``explore-line`` store, or with the page for ``?line=VID``), so stepping through a line
asks nothing more.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, TypedDict
from uuid import UUID

from dash import ClientsideFunction, Dash, Input, Output, State, dcc, html

from dashboard import data
from dashboard.boards import table_board
from dashboard.game import Game, log_entry
from dashboard.inputs import choice, text
from dashboard.table_parts import Tokens, controls, readonly_note
from domain.games import ruleset
from domain.store import UnknownGame
from projections.timeline import follow
from services import tables, variations
from services.refusals import Refusal

Keys = TypedDict("Keys", {"aria-keyshortcuts": str})
"""Attributes with a dash in their name, as Dash components take them."""
MAX_NAME = variations.MAX_NAME
"""A variation's name has at most this many characters."""
BRANCH = "↳"
"""The slider's mark of the step a line branches from."""
CHANGES = ("open", "rename", "delete")
"""What the page's script asks the change callback to do."""


def requested_line(search: str | None) -> UUID | None:
    """The ``line`` query parameter as a variation id, or None.

    >>> requested_line("?step=3&line=6f1c1b8e-0000-4000-8000-000000000001")
    UUID('6f1c1b8e-0000-4000-8000-000000000001')
    >>> requested_line("?line=nope"), requested_line(None)
    (None, None)
    """
    found = re.search(r"(?:^\?|&)line=([0-9a-fA-F-]{36})(?:&|$)", search or "")
    return data.parse_game_id(found.group(1)) if found else None


@lru_cache(maxsize=64)
def _line(vid: UUID, version: int) -> dict[str, Any]:
    """:func:`line_data` of the variation ``vid`` at ``version`` (a version names one
    record: writes and undos make new ones)."""
    doc = tables.table_doc(vid)
    shown = doc["variation"]
    rules = ruleset(doc["game"])
    record = rules.read_record(doc["record"])
    board = table_board(doc["game"])
    state = rules.start(record)
    follower = follow(rules, state)
    facts = follower.first()
    origin, steps = shown["step"], []
    scores = [seat.total for seat in facts.scores]
    for n, action in enumerate(record.actions, start=1):
        state, events = rules.play(state, action)
        facts = follower.step(list(events))
        if n <= origin:
            scores = [seat.total for seat in facts.scores]
            continue
        marks = [{"kind": m.kind, "text": m.text} for m in facts.milestones]
        steps.append({
            "doc": {
                "version": n, "position": rules.write_position(state), "turn": rules.turn(state),
                "finished": rules.finished(state), "status": rules.describe(state),
                "actions": [rules.write_action(action)],
            },
            "v": board.scores(facts) if board else None,
            "label": facts.label,
            "scores": [seat.total for seat in facts.scores],
            "log": log_entry({"step": n, "player": facts.player, "label": facts.label,
                              "milestones": marks}),
        })  # fmt: skip
    return {
        "vid": str(vid), "game_id": shown["game_id"], "step": origin,
        "steps": origin + len(steps), "name": shown["name"], "author": shown["author"],
        "version": doc["version"], "origin_scores": scores, "line": steps,
    }  # fmt: skip


def line_data(game_id: UUID, vid: UUID) -> dict[str, Any] | None:
    """The line of the variation ``vid`` of the game ``game_id`` as the page steps through
    it: ``{"vid", "game_id", "step" (its origin), "steps", "name", "author", "version",
    "origin_scores" (each seat's total at the origin), "line": one entry per step after the
    origin: {"doc" (the position as a table document: version = the step, its action as
    ``actions``), "v" (the seats' scores as the player boards show them, or None), "label",
    "scores" (each seat's total, as the score chart draws them), "log" (its step log entry,
    :func:`~dashboard.game.log_entry`)}}``; None when ``vid`` is no variation of this
    game."""
    try:
        doc = tables.table_doc(vid)
    except (Refusal, tables.UnknownTable):
        return None
    shown = doc.get("variation")
    if not isinstance(shown, dict) or shown.get("game_id") != str(game_id):
        return None
    return _line(vid, doc["version"])


def slider_marks(marks: dict[int, str], line: dict[str, Any] | None) -> dict[int, str]:
    """The slider's marks for the line shown: the main line's up to the origin, the origin
    and the line's end (unnamed when it is too near the origin for both names to show), as
    ``assets/explore.js`` marks a line while it grows.

    >>> slider_marks({0: "start", 5: "C", 9: "end"}, {"step": 4, "steps": 7})
    {0: 'start', 4: '↳', 7: 'end'}
    >>> slider_marks({0: "start", 90: "end"}, {"step": 88, "steps": 91})
    {0: 'start', 88: '↳', 91: ''}
    """
    if line is None:
        return marks
    found = {s: m for s, m in marks.items() if s < line["step"]}
    found[line["step"]] = BRANCH
    near = line["steps"] - line["step"] < max(2, line["steps"] // 20)
    found.setdefault(line["steps"], "" if near else "end")
    return found


def static(game: Game, marks: dict[int, str]) -> dcc.Store:
    """What the page's script needs to explore: the game, its clickable board's data (None
    for a game without one), its last step, the main line's slider marks, the mark of a
    line's origin and the longest name a variation takes."""
    board = table_board(game.rules.name)
    return dcc.Store(
        id="explore-static",
        data={
            "game_id": str(game.game_id),
            "game": game.rules.name,
            "board": board.data(game.first) if board else None,
            "last": game.last,
            "marks": marks,
            "branch": BRANCH,
            "max_name": MAX_NAME,
        },
    )


def panel(game: Game, marks: dict[int, str]) -> html.Div:
    """Under the board: the Explore button, the table controls while exploring (the table
    board's parts, ``table-…``), and the line shown with its comparison, rename and delete;
    ``marks`` are the main line's slider marks."""
    button = "step-button explore-button"
    return html.Div(
        [
            static(game, marks),
            dcc.Store(id="explore-id"),
            dcc.Store(id="explore-seen"),
            dcc.Store(id="explore-facts"),
            dcc.Store(id="explore-send"),
            dcc.Store(id="explore-written"),
            dcc.Store(id="explore-want"),
            dcc.Store(id="explore-ask"),
            dcc.Store(id="explore-answer"),
            dcc.Store(id="explore-line"),
            html.Div(id="explore-live", hidden=True),
            html.Div(
                [
                    html.Button(
                        "Explore",
                        id="explore-start",
                        type="button",
                        className=button,
                        title="play on from this step (key: e)",
                        **Keys({"aria-keyshortcuts": "e"}),
                    ),
                    html.Button(
                        "Continue the line",
                        id="explore-continue",
                        type="button",
                        className=button,
                        title="play on from the last step of the line shown",
                        hidden=True,
                    ),
                    html.Button(
                        "Back to the game",
                        id="explore-back",
                        type="button",
                        className=button,
                        hidden=True,
                    ),
                    html.Span(id="explore-where", className="explore-where", role="status"),
                    html.Span(id="table-status", className="table-status"),
                ],  # fmt: skip
                className="explore-bar",
            ),
            readonly_note("play"),
            html.Div(controls(), id="explore-table", hidden=True),
            html.Div(id="table-position"),
            html.Div(id="explore-message", className="table-message", role="alert"),
            html.Div(
                [
                    html.Div(id="explore-compare", className="explore-compare"),
                    html.Div(
                        [
                            html.Label("Name", htmlFor="explore-name"),
                            dcc.Input(
                                id="explore-name",
                                type="text",
                                maxLength=MAX_NAME,
                                debounce=False,
                                className="explore-name",
                            ),
                            html.Button(
                                "Rename",
                                id="explore-rename",
                                type="button",
                                className="step-button",
                            ),
                            html.Button(
                                "Delete",
                                id="explore-delete",
                                type="button",
                                className="step-button",
                            ),
                            html.Button(
                                "Main line",
                                id="explore-main",
                                type="button",
                                className="step-button",
                            ),
                        ],  # fmt: skip
                        className="explore-edit",
                    ),
                ],
                id="explore-shown",
                className="explore-shown",
                hidden=True,
            ),
        ],
        id="explore",
        className="explore",
        **Tokens({"data-tokens": "1" if data.tokens_required() else "0"}),
    )


def lines() -> list[Any]:
    """The game's variations, by the step they start from (the script fills the list)."""
    return [
        html.H3("Variations"),
        html.Ol(id="explore-lines", className="explore-lines"),
    ]


def chosen_line(want: Any, shown: Any) -> dict[str, Any]:
    """The line the page asked for (``want``: ``{"vid"}``) of the page's game (``shown``: the
    ``explore-static`` data), or ``{"vid", "missing": true}`` when it names none of its
    variations (a deleted one, or another game's)."""
    asked = text(want.get("vid"), 100) if isinstance(want, dict) else None
    game = text(shown.get("game_id"), 100) if isinstance(shown, dict) else None
    gid, vid = data.parse_game_id(game or ""), data.parse_game_id(asked or "")
    found = line_data(gid, vid) if gid is not None and vid is not None else None
    return found if found is not None else {"vid": asked, "missing": True}


def _refused(n: Any, status: int, kind: str, message: str) -> dict[str, Any]:
    return {"n": n, "ok": False, "status": status, "body": {"code": kind, "message": message}}


def change(sent: Any, shown: Any, token: Any) -> dict[str, Any]:
    """Open, rename or delete a variation of the page's game (``shown``: the
    ``explore-static`` data) for a tab without a token, taking it as uploads do (``sent``:
    ``{"n", "op", "step"?, "actions"?, "suggested"?, "vid"?, "name"?}`` from the page's
    script): ``{"n", "ok", "status", "body"}``, ``body`` as the API answers or its problem
    (``code``, ``message``)."""
    if not isinstance(sent, dict):
        return _refused(None, 400, "bad_request", "Not a variation change.")
    n, op = sent.get("n"), choice(sent.get("op"), CHANGES)
    game = text(shown.get("game_id"), 100) if isinstance(shown, dict) else None
    if op is None or game is None:
        return _refused(n, 400, "bad_request", "Not a variation change.")
    vid = text(sent.get("vid"), 100) or ""
    try:
        by = data.writer(token, "Exploring")
        if op == "open":
            suggested, actions = sent.get("suggested") is True, sent.get("actions")
            body = variations.open_variation(game, sent.get("step"), by, actions=actions,
                                             suggested=suggested)  # fmt: skip
            return {"n": n, "ok": True, "status": 201, "body": body}
        if op == "rename":
            return {"n": n, "ok": True, "status": 200,
                    "body": variations.rename(vid, sent.get("name"), by)}  # fmt: skip
        variations.delete(vid, by)
    except data.WriteRefused as err:
        return _refused(n, err.status, err.kind, err.message)
    except Refusal as err:
        return _refused(n, err.status, err.kind, err.detail)
    except UnknownGame:
        return _refused(n, 404, "unknown_game", "No game with this id is stored.")
    return {"n": n, "ok": True, "status": 204, "body": {}}


def register(app: Dash) -> None:
    """The script's start and line callbacks, and the table board's facts and writes on the
    variation explored (the table page's own callbacks, on this panel's stores)."""
    from dashboard.pages.table import facts, write  # the table page imports the replay's

    app.clientside_callback(
        ClientsideFunction("howlExplore", "start"),
        Output("explore-live", "children"),
        Input("explore-static", "data"),
        State("replay-data", "data"),
    )
    app.clientside_callback(
        ClientsideFunction("howlExplore", "line"),
        Output("explore-live", "lang"),
        Input("explore-line", "data"),
    )
    app.clientside_callback(
        ClientsideFunction("howlTable", "facts"),
        Output("explore-live", "title"),
        Input("explore-facts", "data"),
    )
    app.clientside_callback(
        ClientsideFunction("howlTable", "written"),
        Output("explore-live", "role"),
        Input("explore-written", "data"),
    )
    app.callback(
        Output("explore-line", "data"),
        Input("explore-want", "data"),
        State("explore-static", "data"),
        prevent_initial_call=True,
    )(chosen_line)
    app.clientside_callback(
        ClientsideFunction("howlExplore", "answer"),
        Output("explore-live", "dir"),
        Input("explore-answer", "data"),
    )
    app.callback(
        Output("explore-answer", "data"),
        Input("explore-ask", "data"),
        State("explore-static", "data"),
        State("auth-token", "data"),
        prevent_initial_call=True,
    )(change)
    app.callback(
        Output("explore-written", "data"),
        Input("explore-send", "data"),
        State("explore-id", "data"),
        State("auth-token", "data"),
        prevent_initial_call=True,
    )(write)
    app.callback(
        Output("explore-facts", "data"),
        Input("explore-seen", "data"),
        State("explore-id", "data"),
        prevent_initial_call=True,
    )(facts)
