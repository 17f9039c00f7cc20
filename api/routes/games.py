"""``/api/games``: upload, browse and replay games."""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

import orjson
from flask import redirect, request, url_for
from werkzeug.wrappers import Response

from api.auth import optional_user, required_user
from api.caching import (
    IMMUTABLE,
    NO_CACHE,
    NO_STORE,
    REVALIDATE,
    etag_of,
    immutable_json,
    json_response,
    latest,
    not_modified,
    revalidated_json,
    tagged,
)
from api.openapi import ApiBlueprint
from api.problems import Problem
from api.routes.branches import create_branch
from api.schemas import (
    Analysis,
    BranchInfo,
    BranchRequest,
    DepthChoice,
    EventPage,
    EventsQuery,
    GameChanges,
    GameFilters,
    GameList,
    GameSummary,
    Position,
    Timeline,
    UploadFields,
)
from api.uploads import read_document, record_body, record_problem, upload_fields
from domain.games import rulesets
from domain.replays import RecordError
from domain.ruleset import InvalidRecord
from domain.store import UnknownGame, WithdrawnGame
from projections.analysis import depth_of
from projections.analysis_worker import analysis_status, enqueue
from projections.games import BadCursor
from projections.readmodels import ReadModels
from projections.tables import midnight
from services import comments
from services.library import game_by_prefix
from services.shared import Services, services

log = logging.getLogger(__name__)
blp = ApiBlueprint("games", __name__, url_prefix="/api/games", description="Games, of any game")

RECORD_BODY = {
    "type": "object",
    "description": "A game record (`howl.game`, see records.md).",
    "required": ["format", "version", "game", "actions"],
    "properties": {
        "format": {"const": "howl.game"},
        "version": {"const": 1},
        "game": {
            "type": "string",
            "description": "which game: its ruleset's name",
            "examples": [rules.name for rules in rulesets()],
        },
        "actions": {"type": "array", "items": {"type": "object"}},
    },
}
UPLOAD_DOC: dict[str, Any] = {
    "security": [{"bearer": []}],
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": RECORD_BODY},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {
                            "type": "string",
                            "format": "binary",
                            "description": "the record's JSON file",
                        },
                        "title": {"type": "string"},
                        "tags": {"type": "string", "description": "comma-separated"},
                        "visibility": {"type": "string", "enum": ["public", "private"]},
                    },
                }
            },
        },
    },
}
CACHED = {"ETag": {"schema": {"type": "string"}}, "Cache-Control": {"schema": {"type": "string"}}}
NOT_MODIFIED = "The client's copy (`If-None-Match`) is current."


def _immutable(description: str) -> dict[str, Any]:
    return {"description": f"{description} Cache-Control: `{IMMUTABLE}`.", "headers": CACHED}


def _summary(game_id: UUID) -> dict[str, Any]:
    svc = services()
    summary = svc.read_models.summary(game_id)
    if summary is None:  # perhaps stored by another process: catch up once
        summary = svc.catch_up().summary(game_id)
    if summary is None:  # stored but not projected (UnknownGame when not stored either)
        summary = _unprojected(game_id, orjson.loads(svc.library.record(game_id)))
    return summary


def _unprojected(game_id: UUID, doc: Any) -> dict[str, Any]:
    """The answer for a game stored but not (yet) in the read models: its stored metadata,
    no seats, and ``projection`` saying why its summary is not available."""
    svc = services()
    info = svc.library.info(game_id)
    try:
        failure = svc.read_models.failure(game_id)
    except Exception:  # the read models do not answer: the game is stored all the same
        log.exception("could not read the projection failure of game %s", game_id)
        failure = None
    why = f"projecting it failed ({failure.stage}: {failure.error})" if failure else (
        "the read models have not caught up with it yet"
    )  # fmt: skip
    players = doc.get("players") if isinstance(doc, dict) else None
    return {
        "game_id": str(game_id), "game": info.game, "title": info.title, "tags": list(info.tags),
        "visibility": info.visibility, "uploaded_at": info.uploaded_at.isoformat(),
        "uploaded_by": info.uploaded_by, "rules_version": info.rules_version,
        "players": len(players) if isinstance(players, list) else 0, "options": {},
        "actions": info.actions, "events": info.events, "finished": info.finished,
        "winners": [], "seats": [],
        "projection": {
            "status": "failed" if failure else "pending",
            "detail": f"The game is stored, but its summary is not available yet: {why}.",
        },
    }  # fmt: skip


@blp.route("", methods=["POST"])
@blp.arguments(UploadFields, location="query")
@blp.response(201, GameSummary, description="Stored: the new game's summary; `Location` "
              "names it. A game stored but not in the read models (its projection failed, "
              "see `/api/health`) has no seats and a `projection` object with `status` and "
              "`detail`.", headers={"Location": {"schema": {"type": "string"}}})  # fmt: skip
@blp.alt_response(200, schema=GameSummary, description="Already stored: the existing game.",
                  success=True)  # fmt: skip
@blp.problems(400, 401, 403, 410, 413, 415, 422, 503)
@blp.doc(**UPLOAD_DOC)
def upload(fields: dict[str, Any]) -> Response:
    """Upload a game record.

    The record is the JSON body, or the `file` field of a multipart form. The rules engine
    checks every action: a record that breaks a rule is rejected whole with a 422 problem
    (`illegal_action` with `index`, `action`, `rule`, `message`; `invalid_record` with
    `path`, `message`; `too_many_actions` with `limit`) and nothing is stored. Needs
    `Authorization: Bearer <token>`; the token's name is stored as the uploader.
    """
    svc = services()
    uploader = required_user(svc.settings.api_tokens)
    body, form = record_body()
    fields = upload_fields(fields, form)
    doc = read_document(body, svc.settings.max_actions)
    try:
        result = svc.upload(doc, uploader, **fields)
    except (InvalidRecord, RecordError) as exc:
        raise record_problem(exc) from None
    summary = svc.read_models.summary(result.game_id) or _unprojected(result.game_id, doc)
    response = json_response(summary, 201 if result.created else 200)
    response.headers["Location"] = url_for(".game", game_id=result.game_id)
    return response


@blp.route("", methods=["GET"])
@blp.arguments(GameFilters, location="query")
@blp.response(200, GameList, description=f"A page of game summaries. Cache-Control: `{NO_CACHE}`.")
@blp.problems(403)
@blp.doc(security=[{}, {"bearer": []}])
def list_games(filters: dict[str, Any]) -> Response:
    """Browse games, newest first by default.

    Filters combine (all must hold). `game` keeps one game's games; a game's setup options
    (`option`) and seat attribute (`terrain` …) are that game's, and name it when `game` is
    not given. Pages are at most 100 games: pass `next_cursor` back
    as `cursor` for the next one. Private games are listed only for a request with the
    bearer token that uploaded them (anyone who has a game's id can still read it).
    """
    viewer = optional_user(services().settings.api_tokens)

    def render(models: ReadModels) -> dict[str, Any]:
        try:
            page = models.list_games(**filters, viewer=viewer)
        except BadCursor as exc:
            raise Problem(400, "invalid_parameters", f"Invalid parameters: cursor: {exc}.",
                          errors={"query": {"cursor": [f"{exc}."]}}) from None  # fmt: skip
        return {"items": page.items, "next_cursor": page.next_cursor, "total": page.total}

    response = latest(render, viewer)
    response.headers["Vary"] = "Authorization"
    return response


@blp.route("/<uuid:game_id>")
@blp.response(200, GameSummary, description="The game's summary. Its ETag changes with its "
              f"metadata; Cache-Control: `{REVALIDATE}`.", headers=CACHED)  # fmt: skip
@blp.alt_response(304, description=NOT_MODIFIED)
@blp.problems(404, 410)
def game(game_id: UUID) -> Response:
    """A game's summary: metadata, seats and result (for a game stored but not projected,
    see the upload's answer: no seats and a `projection` object; not cached)."""
    summary = _summary(game_id)
    if "projection" in summary:
        return json_response(summary, cache_control=NO_STORE)
    return revalidated_json(summary, "summary", game_id)


@blp.route("/<uuid:game_id>", methods=["PATCH"])
@blp.arguments(GameChanges)
@blp.response(200, GameSummary, description="Changed: the game's summary.")
@blp.problems(400, 401, 403, 404, 410, 503)
def change(changes: dict[str, Any], game_id: UUID) -> Response:
    """Change a game's title, tags, visibility or day played (the fields given), each change
    stored as an event of the game. Only the token that uploaded the game may (403
    `not_uploader` for another; 401 without one); a change to what the game already has
    stores nothing."""
    svc = _by_uploader(game_id, "change")
    with svc.writing():
        svc.library.change(game_id, changes)
    svc.catch_up()
    info = svc.library.info(game_id)  # as stored, even if the read models lag behind
    played = midnight(info.played_on) if info.played_on else info.uploaded_at
    summary = {**_summary(game_id), "title": info.title, "tags": list(info.tags),
               "visibility": info.visibility, "played_at": played.isoformat()}  # fmt: skip
    return json_response(summary)


@blp.route("/<uuid:game_id>", methods=["DELETE"])
@blp.response(204, description="Withdrawn: the game left every list, statistic and rating.")
@blp.problems(401, 403, 404, 410, 503)
def withdraw(game_id: UUID) -> Response:
    """Withdraw a game: a withdrawal stored as the game's last event; the game leaves lists,
    statistics and ratings, and reading it answers 410 `withdrawn_game` (its stream stays
    until an operator runs `howl purge`). Only the token that uploaded it may (403
    `not_uploader` for another; 401 without one)."""
    svc = _by_uploader(game_id, "withdraw")
    with svc.writing():
        svc.library.withdraw(game_id)
    svc.bodies.forget(str(game_id))
    svc.catch_up()
    return Response(status=204)


def _by_uploader(game_id: UUID, what: str) -> Services:
    """The services, once the request's token is the one that uploaded the game."""
    svc = services()
    user = required_user(svc.settings.api_tokens)
    if svc.library.info(game_id).uploaded_by != user:
        raise Problem(403, "not_uploader", f"Only the token that uploaded this game may {what} "
                      "it.")  # fmt: skip
    return svc


@blp.route("/<uuid:game_id>/record")
@blp.response(200, {"type": "object", "description": "records.md"}, description="The record "
              "as stored (canonical JSON, byte for byte), with the game's comments as "
              "`annotations` when it has any. Its ETag changes with the comments; "
              f"Cache-Control: `{NO_CACHE}`.", headers=CACHED)  # fmt: skip
@blp.alt_response(304, description=NOT_MODIFIED)
@blp.problems(404, 410)
def record(game_id: UUID) -> Response:
    """The game's record (any game), as stored, and its comments as records.md's
    `annotations` (readers that do not know them ignore them)."""
    svc = services()
    etag = etag_of("record", game_id, comments.version(game_id))
    if not_modified(etag):
        return tagged(None, etag, NO_CACHE, "application/json")
    body = svc.bodies.get_or_render(etag, lambda: comments.record(game_id))
    return tagged(body, etag, NO_CACHE, "application/json")


@blp.route("/<uuid:game_id>/events")
@blp.arguments(EventsQuery, location="query")
@blp.response(200, EventPage, **_immutable("A page of the game's stored domain events."))
@blp.alt_response(304, description=NOT_MODIFIED)
@blp.problems(404, 410)
def events(query: dict[str, Any], game_id: UUID) -> Response:
    """The domain events the game's rules derived from the record, in order, a page at a
    time (their fields are the game's own)."""
    svc = services()
    start, limit = query["start"], query["limit"]

    def render() -> dict[str, Any]:
        total = svc.library.info(game_id).events
        items = [e.to_json() for e in svc.library.game_events(game_id, start, limit)]
        end = start + len(items)
        return {"game_id": str(game_id), "from": start, "limit": limit, "total": total,
                "next": end if end < total else None, "items": items}  # fmt: skip

    return immutable_json(svc.bodies, render, "events", game_id, start, limit)


@blp.route("/<uuid:game_id>/states/<int:step>")
@blp.response(200, Position, **_immutable("The position after the first `step` actions, as "
              "the game's ruleset writes it."))  # fmt: skip
@blp.alt_response(304, description=NOT_MODIFIED)
@blp.problems(404, 410)
def state(game_id: UUID, step: int) -> Response:
    """The position (`howl.position`, in the game's own format) after the first `step`
    actions (0: the start)."""
    svc = services()

    def render() -> dict[str, Any]:
        last = svc.library.steps(game_id)
        if step > last:
            raise Problem(404, "unknown_step", f"Game {game_id} has steps 0 to {last}.",
                          limit=last)  # fmt: skip
        return svc.library.position_at(game_id, step)

    return immutable_json(svc.bodies, render, "state", game_id, step)


@blp.route("/<uuid:game_id>/timeline")
@blp.response(200, Timeline, **_immutable("One row per step: scores, milestones, numbers."))
@blp.alt_response(304, description=NOT_MODIFIED)
@blp.problems(404, 410)
def timeline(game_id: UUID) -> Response:
    """The game's per-step series, for charts and the replay slider."""
    svc = services()

    def render() -> dict[str, Any]:
        rows = svc.read_models.timeline(game_id)
        if rows is None:
            rows = svc.catch_up().timeline(game_id)
        if rows is None:
            raise WithdrawnGame(game_id) if svc.library.withdrawn(game_id) else UnknownGame(game_id)
        return {"game_id": str(game_id), "steps": rows}

    return immutable_json(svc.bodies, render, "timeline", game_id)


def _analysis(game_id: UUID, status: dict[str, Any]) -> dict[str, Any]:
    return {"game_id": str(game_id), "depth": depth_of(status["settings_key"]), **status}


def _reviewable(game_id: UUID) -> None:
    """A 409 ``no_review`` problem for a stored game whose ruleset has no review yet."""
    _summary(game_id)
    rules = services().library.rules(game_id)
    if rules.review is None:
        raise Problem(409, "no_review", f"No review for this game yet: Howl does not review "
                      f"{rules.title} games.", game=rules.name)  # fmt: skip


@blp.route("/<uuid:game_id>/analysis", methods=["GET"])
@blp.arguments(DepthChoice, location="query")
@blp.response(200, Analysis, description="The review's status; once `done`, with the review "
              f"(ETag, Cache-Control: `{IMMUTABLE}`), before that Cache-Control: "
              f"`{NO_STORE}`.", headers=CACHED)  # fmt: skip
@blp.alt_response(304, description=NOT_MODIFIED)
@blp.problems(404, 409, 410)
def analysis(query: dict[str, Any], game_id: UUID) -> Response:
    """The game's review by the background worker, at the server's depth or `depth`
    (`quick`, `standard`, `deep`): `status` (`none`, `queued`, `running`,
    `done`, `failed`), `progress` 0…1, and the `result` once done: per action the mover's win
    probability before and after, the loss and its class (`inaccuracy`, `mistake`,
    `blunder`), turning points and accuracy per seat (over the game and per stage of it:
    opening, middle, end). `settings_key` names the settings.
    A game Howl has no review for yet is a 409 `no_review` problem."""
    svc = services()
    _reviewable(game_id)
    status = analysis_status(svc.analyses_url, game_id, svc.review_settings(query.get("depth")))
    if status["status"] != "done":
        return json_response(_analysis(game_id, status), cache_control=NO_STORE)
    key = status["settings_key"]  # a review may be redone: its path alone does not name it
    return immutable_json(
        svc.bodies, lambda: _analysis(game_id, status), "analysis", game_id, key, by_path=False
    )


@blp.route("/<uuid:game_id>/analysis", methods=["POST"])
@blp.arguments(DepthChoice, required=False)
@blp.response(202, Analysis, description="Queued (a done or failed review is redone; a queued "
              "or running one is left as it is). `Location` names the status.",
              headers={"Location": {"schema": {"type": "string"}}})  # fmt: skip
@blp.problems(400, 401, 403, 404, 409, 503)
@blp.doc(security=[{"bearer": []}])
def queue_analysis(body: dict[str, Any] | None, game_id: UUID) -> Response:
    """Ask for the game's review (again), at the server's depth or the body's `depth`
    (`{"depth": "deep"}`). Needs `Authorization: Bearer <token>`. A game Howl has no review
    for yet is a 409 `no_review` problem."""
    svc = services()
    required_user(svc.settings.api_tokens)
    _reviewable(game_id)
    depth = (body or {}).get("depth")
    with svc.writing():
        status = enqueue(svc.analyses_url, game_id, svc.review_settings(depth), force=True)
    response = json_response(_analysis(game_id, status), 202, cache_control=NO_STORE)
    response.headers["Location"] = url_for(".analysis", game_id=game_id, depth=depth)
    return response


@blp.route("/<uuid:game_id>/branches", methods=["POST"])
@blp.arguments(BranchRequest)
@blp.response(201, BranchInfo, description="Stored: the branch and its comparison with the "
              "game; `Location` names it.", headers={"Location": {"schema": {"type": "string"}}},
              )  # fmt: skip
@blp.alt_response(200, schema=BranchInfo, description="Already stored: the same branch.",
                  success=True)  # fmt: skip
@blp.problems(400, 401, 403, 404, 409, 413, 422, 503)
@blp.doc(security=[{"bearer": []}])
def branch(body: dict[str, Any], game_id: UUID) -> Response:
    """Play other actions from step `step` of the game and store them as a what-if branch.

    The game keeps its first `step` actions, then the branch's `actions` (records.md action
    objects) are played. An illegal one is a 422 `illegal_action` whose `index` counts the
    branch's actions (or `invalid_record` with a `path`), and nothing is stored. The game's
    own stream is never written. Needs `Authorization: Bearer <token>`.
    """
    svc = services()
    required_user(svc.settings.api_tokens)
    _summary(game_id)
    return create_branch(svc, game_id, body["step"], body["actions"])


PREFIX = "<string(minlength=8,maxlength=35):prefix>"
"""A path segment that may be a game id's beginning (a full id is 36 characters)."""


@blp.route(f"/{PREFIX}", endpoint="game_by_prefix")
@blp.route(f"/{PREFIX}/<path:rest>")
@blp.alt_response(308, description="`Location`: the same path and query with the full id of "
                  "the one stored game whose id begins with the prefix.")  # fmt: skip
@blp.problems(404, 409, 410)
def by_prefix(prefix: str, rest: str = "") -> Response:
    """A game named by the first 8 or more hex digits of its id (`/api/games/0123abcd/timeline`)
    is redirected (308) to the same path and query with its full id; no stored game's id
    beginning so is a 404 `unknown_game`, several a 409 `ambiguous_id` listing `matches`."""
    game_id = game_by_prefix(services().library, prefix)
    query = request.query_string.decode()
    location = f"{blp.url_prefix}/{game_id}" + (f"/{rest}" if rest else "")
    return redirect(location + (f"?{query}" if query else ""), 308)
