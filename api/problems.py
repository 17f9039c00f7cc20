"""RFC 9457 problem details: how every API error is answered, flask-smorest's own included.

A problem is ``application/problem+json``: ``type``, ``title``, ``status``, ``detail``, plus
extension members (``index``, ``action``, ``rule``, ``message``, ``path``, ``limit``,
``errors``). ``type`` is ``about:blank`` for plain HTTP errors, otherwise a link to the
problem's entry on the docs page (``/api/docs#problem-<kind>``).
"""

from __future__ import annotations

from typing import Any

from flask import current_app, has_request_context, json, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.wrappers import Response

from dashboard.app import body_limit
from services.refusals import Refusal
from services.uploads import too_large

PROBLEM_JSON = "application/problem+json"

PROBLEM_KINDS: dict[str, tuple[str, str]] = {
    "illegal_action": ("Illegal action", "An action of the record breaks a rule (`index`, "
                       "`action`, `rule`, `message`; for a branch, `index` counts the "
                       "branch's own actions); nothing was stored."),
    "invalid_record": ("Invalid record", "The document is not a well-formed game record "
                       "(`path`, `message`); nothing was stored."),
    "too_many_actions": ("Too many actions", "The record has more actions than the server "
                         "accepts (`limit`); nothing was stored."),
    "too_costly": ("Too costly", "Checking the record took more CPU time than the server "
                   "gives one record (`limit`, in seconds); nothing was stored."),
    "invalid_parameters": ("Invalid parameters", "A query, form or path parameter is "
                           "malformed (`errors` maps each one to its messages)."),
    "unknown_game": ("Unknown game", "No game with this id is stored."),
    "withdrawn_game": ("Withdrawn game", "The game's uploader withdrew it: it is no longer "
                       "shown, and a record of it is not stored again."),
    "ambiguous_id": ("Ambiguous id", "Several stored games' ids begin with the prefix given "
                     "(`matches` lists them): give more of the id."),
    "other_rules_version": ("Other rules version", "The game was stored under another rules "
                            "version (`rules_version`) than the engine plays now, so it cannot "
                            "be continued; nothing was stored."),
    "unknown_branch": ("Unknown branch", "No what-if branch with this id is stored."),
    "no_review": ("No review", "Howl has no review (coaching) for this game yet (`game`)."),
    "unknown_step": ("Unknown step", "The game has no such step (`limit` is its last)."),
    "unknown_player": ("Unknown player", "No stored game has a seat with this name."),
    "unrated_game": ("Unrated game", "The ratings take a game's finished public games; this "
                     "game is not one of them."),
    "missing_token": ("Missing token", "The request needs `Authorization: Bearer <token>`."),
    "unknown_token": ("Unknown token", "The bearer token is not one of the server's tokens."),
    "unknown_table": ("Unknown table", "No live table with this id is stored."),
    "stale_version": ("Stale version", "The write named another version than the table's "
                      "(`version` is the table's): nothing was stored; reload and try again."),
    "table_closed": ("Table closed", "The table was finished into the library and takes no "
                     "more actions."),
    "bots_turn": ("A bot's turn", "The seat to act (`seat`) is played by a bot, which moves "
                  "by itself; nothing was stored."),
    "nothing_to_undo": ("Nothing to undo", "The table has no action left to take back."),
    "not_finished": ("Not finished", "The game is not over: finish the table with "
                     "`unfinished: true` to store it as an unfinished game."),
    "unknown_variation": ("Unknown variation", "No live variation with this id is stored "
                          "(or it was deleted)."),
    "is_variation": ("Is a variation", "A variation is kept as a branch of its game, not "
                     "finished into the library."),
    "game_over": ("Game over", "The game is over at this step: a variation needs a "
                  "position with a move left to play, or its own actions."),
    "not_flagged": ("Not flagged", "The review found no better action than the one played "
                    "at this step."),
    "too_many_streams": ("Too many streams", "The server watches as many tables as it can "
                         "at once; try again later."),
    "unknown_comment": ("Unknown comment", "No comment with this id is stored (a removed "
                        "one is gone)."),
    "not_uploader": ("Not the uploader", "Only the token that uploaded a game may change its "
                     "metadata or withdraw it."),
    "not_author": ("Not the author", "Only its author may change or remove this (a comment, "
                   "a variation)."),
    "too_many_comments": ("Too many comments", "The game has as many comments as it takes "
                          "(`limit`); nothing was stored."),
    "too_large": ("Too large", "The record or request body has more bytes than the server "
                  "accepts (`limit`, in bytes; `detail` names it in bytes and MiB); nothing was "
                  "stored."),
    "store_cannot_write": ("The store cannot write", "The database is full or read-only: "
                           "nothing was stored (reads still work, unless the read models "
                           "were never made; `/api/health` says so)."),
    "too_many_tries": ("Too many tries", "The player has tried this position as often as "
                       "it is kept (`limit`): show the solution."),
    "busy": ("Busy", "The server is judging as many actions as it does at once; try again."),
}  # fmt: skip
"""Problem kinds Howl answers with: kind → (title, meaning)."""
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="howl"'}
"""What a 401 answer asks for: a bearer token (RFC 6750)."""


class Problem(HTTPException):
    """An HTTP error of a known ``kind`` with extension members, rendered by :func:`problem`.

    >>> Problem(404, "unknown_game", "No game 42.").name
    'Unknown game'
    """

    def __init__(
        self,
        status: int,
        kind: str,
        detail: str,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(description=detail)
        self.code = status
        self.kind = kind
        self.extra = extra
        self.headers = headers or {}

    @property
    def name(self) -> str:
        return PROBLEM_KINDS[self.kind][0]

    def get_headers(self, environ: Any = None, scope: Any = None) -> list[tuple[str, str]]:
        return [*super().get_headers(environ, scope), *self.headers.items()]


def problem_of(refusal: Refusal) -> Problem:
    """The problem a refusal of the shared services means (a 401 asks for a bearer token).

    >>> problem_of(Refusal(422, "too_costly", "Over 5 s.", limit=5)).extra
    {'limit': 5}
    """
    headers = CHALLENGE if refusal.status == 401 else None
    return Problem(refusal.status, refusal.kind, refusal.detail, headers, **refusal.extra)


def _validation_detail(errors: Any) -> str:
    """One line out of webargs' ``{location: {field: [messages]}}``."""
    parts = []
    for fields in (errors or {}).values():
        items = fields.items() if isinstance(fields, dict) else [("", fields)]
        for name, messages in items:
            listed = messages if isinstance(messages, list) else [messages]
            text = "; ".join(str(m).rstrip(".") for m in listed)
            parts.append(f"{name}: {text}" if name else text)
    return "Invalid parameters: " + (", ".join(parts) or "see errors") + "."


def _too_large(exc: RequestEntityTooLarge) -> Problem:
    """A body over the limit as a ``too_large`` problem naming the limit of the request's path
    (``HOWL_MAX_UPLOAD_BYTES``, with room for an upload in the dashboard's callbacks)."""
    limit = body_limit(request.path, current_app.config["MAX_CONTENT_LENGTH"])
    return Problem(413, "too_large", too_large(limit), limit=limit)


def problem_body(exc: HTTPException) -> dict[str, Any]:
    """The problem document for an HTTP error (never a stack trace)."""
    if isinstance(exc, RequestEntityTooLarge) and has_request_context():
        exc = _too_large(exc)
    status = exc.code or 500
    data = getattr(exc, "data", None) or {}  # webargs' abort() puts validation errors here
    if isinstance(exc, Problem):
        body = {
            "type": f"/api/docs#problem-{exc.kind}",
            "title": exc.name,
            "status": status,
            "detail": exc.description,
        }
        return {**body, **exc.extra}
    if "messages" in data:
        kind = "invalid_parameters"
        errors = data["messages"]
        return {
            "type": f"/api/docs#problem-{kind}",
            "title": PROBLEM_KINDS[kind][0],
            "status": status,
            "detail": _validation_detail(errors),
            "errors": errors,
        }
    detail = exc.description if status < 500 or status == 503 else "An unexpected error occurred."
    return {"type": "about:blank", "title": exc.name, "status": status, "detail": detail}


def problem(exc: HTTPException) -> Response:
    """Render an HTTP error as ``application/problem+json``, keeping its headers."""
    response = exc.get_response()
    data = getattr(exc, "data", None) or {}
    for name, value in (data.get("headers") or {}).items():
        response.headers[name] = value
    response.set_data(json.dumps(problem_body(exc)))
    response.content_type = PROBLEM_JSON
    return response
