"""``/api/tables``: live tables, games recorded one action at a time (:mod:`services.tables`).

Reading needs no token; every write needs ``Authorization: Bearer <token>``, as uploads do.
Every write names the table's version; ``/stream`` sends the table after every change, from
whichever process made it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from flask import json, url_for
from werkzeug.wrappers import Response

from api.auth import required_user
from api.caching import NO_STORE, created, json_response
from api.openapi import ApiBlueprint
from api.problems import Problem, problem
from api.table_schemas import (
    ActionRequest,
    FinishRequest,
    LegalActions,
    LegalQuery,
    TableDocument,
    TableFinished,
    TableList,
    TableWrite,
    UndoRequest,
)
from api.uploads import record_body
from services import tables
from services.shared import services

blp = ApiBlueprint("tables", __name__, url_prefix="/api/tables",
                   description="Live tables: games in progress")  # fmt: skip
WRITE: dict[str, Any] = {"security": [{"bearer": []}]}
MAX_STREAMS = 200
"""Open ``/stream`` answers one process serves at most (503 beyond)."""
KEEP_ALIVE = 15.0
"""Seconds between keep-alive comments of a quiet stream."""
_streams = threading.BoundedSemaphore(MAX_STREAMS)


@blp.errorhandler(tables.UnknownTable)
def unknown_table(exc: tables.UnknownTable) -> Response:
    """A 404 problem for an id that names no table (or a deleted variation)."""
    if isinstance(exc, tables.VariationDeleted):
        return problem(Problem(404, "unknown_variation", f"Variation {exc.table_id} was deleted."))
    return problem(Problem(404, "unknown_table", f"No table {exc.table_id} is stored."))


def _writer() -> str:
    return required_user(services().settings.api_tokens)


def _written(data: dict[str, Any], table_id: UUID) -> Response:
    return created(data, url_for(".table", table_id=table_id))


@blp.route("", methods=["POST"])
@blp.response(201, TableDocument, description="The table opened, with its `Location`.",
              headers={"Location": {"schema": {"type": "string"}}})  # fmt: skip
@blp.problems(401, 403, 413, 415, 422, 503)
@blp.doc(**WRITE)
def open_table() -> Response:
    """Open a table from a `howl.game` record: its `setup` (or `start`) and any actions so
    far (usually none), checked as an upload is (`invalid_record`, `illegal_action`,
    `too_many_actions`)."""
    by = _writer()
    body, _ = record_body()
    doc = tables.open_table(body, by)
    return _written(doc, UUID(doc["table_id"]))


@blp.route("", methods=["GET"])
@blp.response(200, TableList, description=f"Cache-Control: `{NO_STORE}`.")
def list_tables() -> Response:
    """Tables, the last changed first (at most 200), finished or not."""
    return json_response({"tables": tables.list_tables()}, cache_control=NO_STORE)


@blp.route("/<uuid:table_id>", methods=["GET"])
@blp.response(200, TableDocument, description=f"Cache-Control: `{NO_STORE}`.")
@blp.problems(404)
def table(table_id: UUID) -> Response:
    """The table: seats, version, actions entered (net of undos), whose turn and what is
    left, finished or closed, the position now and the record so far."""
    return json_response(tables.table_doc(table_id), cache_control=NO_STORE)


@blp.route("/<uuid:table_id>/legal", methods=["GET"])
@blp.arguments(LegalQuery, location="query")
@blp.response(200, LegalActions, description=f"Cache-Control: `{NO_STORE}`.")
@blp.problems(400, 404)
def legal(query: dict[str, Any], table_id: UUID) -> Response:
    """The legal actions now in records.md form with their settled payments (at most 5,000,
    `truncated` beyond); for The Wolves also each wolf's Move destinations, `spread` and
    `speed`. `hex=x,y` keeps those that start from or target that hex."""
    return json_response(tables.legal(table_id, query.get("hex")), cache_control=NO_STORE)


@blp.route("/<uuid:table_id>/actions", methods=["POST"])
@blp.arguments(ActionRequest)
@blp.response(201, TableWrite, description="The new version, the events the action caused "
              "and the table.")  # fmt: skip
@blp.problems(400, 401, 403, 404, 409, 422)
@blp.doc(**WRITE)
def enter(body: dict[str, Any], table_id: UUID) -> Response:
    """Enter one action against the table's `version`: 409 `stale_version` when it is not
    the table's, 409 `table_closed` once finished, 409 `bots_turn` on the turn of a seat a
    bot plays, 422 `illegal_action` (`rule`, `message`, `index`) or `invalid_record`;
    nothing is stored then."""
    by = _writer()
    return _written(tables.enter(table_id, body["action"], body["version"], by), table_id)


@blp.route("/<uuid:table_id>/undo", methods=["POST"])
@blp.arguments(UndoRequest)
@blp.response(201, TableWrite, description="The new version, the `taken_back` event and the "
              "table.")  # fmt: skip
@blp.problems(400, 401, 403, 404, 409)
@blp.doc(**WRITE)
def undo(body: dict[str, Any], table_id: UUID) -> Response:
    """Take back the last action (itself an event: the stream keeps both; redo is entering
    it again); 409 `nothing_to_undo` when none is left."""
    by = _writer()
    return _written(tables.undo(table_id, body["version"], by), table_id)


@blp.route("/<uuid:table_id>/finish", methods=["POST"])
@blp.arguments(FinishRequest)
@blp.response(201, TableFinished, description="The stored game's id and the closed table.")
@blp.problems(400, 401, 403, 404, 409, 503)
@blp.doc(**WRITE)
def finish(body: dict[str, Any], table_id: UUID) -> Response:
    """Store the table's record (actions net of undos) as a game, as an upload does, and
    close the table; 409 `not_finished` for a game not over unless `unfinished` is true."""
    by = _writer()
    done = tables.finish(table_id, body.get("unfinished"), by)
    return created(done, url_for("games.game", game_id=done["game_id"]))


def _message(doc: dict[str, Any] | None) -> bytes:
    """One Server-Sent Event: the table (``id`` its version), or a keep-alive comment."""
    if doc is None:
        return b": keep-alive\n\n"
    data = json.dumps(doc, separators=(",", ":"))
    return f"event: table\nid: {doc['version']}\ndata: {data}\n\n".encode()


def _events(
    first: dict[str, Any] | None, watched: Iterator[dict[str, Any] | None]
) -> Iterator[bytes]:
    """The stream's messages, the first one at once."""
    yield _message(first)
    for doc in watched:
        yield _message(doc)


@blp.route("/<uuid:table_id>/stream", methods=["GET"])
@blp.response(200, {"type": "string"}, description="`text/event-stream`: one `table` "
              "event (the table without its record, `id` its version) on connect and after "
              f"every change; a comment every {KEEP_ALIVE:g} s.",
              content_type="text/event-stream")  # fmt: skip
@blp.problems(404, 503)
def stream(table_id: UUID) -> Response:
    """Watch a table live: changes made by any server process arrive within moments."""
    if not _streams.acquire(blocking=False):
        raise Problem(503, "too_many_streams", f"This server watches {MAX_STREAMS} tables at "
                      "most at once; try again later.", {"Retry-After": "5"})  # fmt: skip
    try:
        watched = tables.watch(table_id, KEEP_ALIVE, services())
        first = next(watched)  # an unknown table is a 404 before the answer starts
    except BaseException:
        _streams.release()
        raise
    headers = {"Cache-Control": NO_STORE, "X-Accel-Buffering": "no"}
    response = Response(_events(first, watched), 200, headers, mimetype="text/event-stream",
                        direct_passthrough=True)  # fmt: skip
    response.call_on_close(watched.close)  # the server closes the answer when the client goes
    response.call_on_close(_streams.release)
    return response
