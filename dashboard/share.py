"""The replay page's comments and sharing: the game's comments in the step log (under their
step, a mark on the steps that have some), a form to comment on the step shown and a way
to remove one's own, "Copy link" to the step (and line) shown, and downloads of the record
(with its comments as annotations), the position at this step and the board as SVG or PNG.

``assets/share.js`` draws the comments into the log the frame writes and makes the files
in the browser; writes go through :func:`write` with the tab's token, as the page's other
writes do (with no tokens configured a comment has no author and anyone may remove one).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from dash import ClientsideFunction, Dash, Input, Output, State, dcc, html

from dashboard import data
from dashboard.inputs import integer, text
from domain.documents import MAX_NOTE
from domain.store import UnknownGame
from services import comments
from services.refusals import Refusal

MAX_ID = 100
"""Longest id text a write may name (a UUID is 36 characters)."""


def panel(game_id: UUID) -> list[Any]:
    """The comment form and the share controls, with the game's comments as they are now."""
    gid = str(game_id)
    notes = {"game": gid, "comments": comments.list_comments(game_id)}
    return [
        dcc.Store(id="share-comments", data=notes),
        dcc.Store(id="share-send"),
        dcc.Store(id="share-me"),
        html.Div(
            [
                html.Label("Comment on step 0", htmlFor="share-text", id="share-label"),
                dcc.Textarea(
                    id="share-text",
                    maxLength=MAX_NOTE,
                    placeholder="What happens here? (Ctrl+Enter adds it)",
                    className="share-text",
                ),
                html.Div(
                    [
                        html.Button("Add comment", id="share-add", className="step-button"),
                        html.Span(id="share-status", className="share-status", role="status"),
                    ],
                    className="share-row",
                ),
            ],
            className="share-form",
        ),
        html.H3("Share"),
        html.Div(
            [
                html.Button("Copy link", id="share-copy", className="step-button"),
                html.Label("Link", htmlFor="share-link", className="share-what"),
                dcc.Input(
                    id="share-link",
                    readOnly=True,
                    className="share-link",
                    type="text",
                ),  # fmt: skip
            ],
            className="share-row",
        ),
        html.Div(
            [
                html.Span("Download:", className="share-what"),
                html.A(
                    "Record",
                    id="share-record",
                    href=f"/api/games/{gid}/record",
                    download=f"howl-{gid[:8]}.json",
                    className="share-file",
                ),  # fmt: skip
                html.A(
                    "Position",
                    id="share-position",
                    href=f"/api/games/{gid}/states/0",
                    download=f"howl-{gid[:8]}-step-0.json",
                    className="share-file",
                ),  # fmt: skip
                html.Button("Board SVG", id="share-svg", className="step-button"),
                html.Button("Board PNG", id="share-png", className="step-button"),
            ],
            className="share-row share-files",
        ),
    ]


def _refused(status: int, kind: str, message: str) -> dict[str, Any]:
    return {"status": status, "kind": kind, "message": message}


def write(request: Any, token: Any) -> dict[str, Any]:
    """Add a comment (``{"op": "add", "game", "step", "text"}``) or remove one (``{"op":
    "remove", "game", "comment"}``) as the tab's token says; the game's comments after it,
    with ``n`` (the request's number) and the refusal, if any, as ``error``."""
    request = request if isinstance(request, dict) else {}
    n = integer(request.get("n"), range(2**31))
    gid = data.parse_game_id(text(request.get("game"), MAX_ID) or "")
    answer: dict[str, Any] = {"n": n, "game": None if gid is None else str(gid)}
    op = request.get("op")
    if gid is None or op not in ("add", "remove"):
        return {**answer, "error": _refused(400, "invalid_parameters", "Nothing to do.")}
    try:
        by = data.writer(token, "Commenting") if data.tokens_required() else None
        if op == "add":
            made = comments.add(gid, request.get("step"), request.get("text"), by)
            answer["made"] = made["comment_id"]
        else:
            comment = _comment_id(request.get("comment"))
            if comment is None:
                return {**answer, "error": _refused(404, "unknown_comment", "No such comment.")}
            comments.delete(comment, by)
    except data.WriteRefused as err:
        answer["error"] = _refused(err.status, err.kind, err.message)
    except Refusal as err:
        answer["error"] = _refused(err.status, err.kind, err.detail)
    try:
        answer["comments"] = comments.list_comments(gid)
    except UnknownGame:
        return {**answer, "error": _refused(404, "unknown_game", "No game with this id is stored.")}
    return answer


def _comment_id(value: Any) -> UUID | None:
    found = text(value, MAX_ID)
    try:
        return UUID(found) if found else None
    except ValueError:
        return None


def me(token: Any) -> dict[str, Any]:
    """Whose comments the tab may remove: ``{"name"}`` of its token, ``{"anyone": true}``
    with no tokens configured, ``{}`` without a token the server knows."""
    if not data.tokens_required():
        return {"anyone": True}
    try:
        return {"name": data.writer(token, "Commenting")}
    except data.WriteRefused:
        return {}


def register(app: Dash) -> None:
    """The comments' callbacks: the browser's drawing, the writes, who the tab writes as."""
    app.clientside_callback(
        ClientsideFunction("howlShare", "comments"),
        Output("share-status", "title"),
        Input("share-comments", "data"),
        Input("share-me", "data"),
    )
    app.callback(
        Output("share-comments", "data"),
        Input("share-send", "data"),
        State("auth-token", "data"),
        prevent_initial_call=True,
    )(write)
    app.callback(Output("share-me", "data"), Input("auth-token", "data"))(me)
