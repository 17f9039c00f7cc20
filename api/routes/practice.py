"""``/api/games/{id}/practice``: practise a reviewed game's mistakes (:mod:`services.practice`).

Reading needs no token; judging an action and showing a solution keep the player's
progress, so they need ``Authorization: Bearer <token>``, as uploads do.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from werkzeug.wrappers import Response

from api.auth import required_user
from api.caching import NO_STORE, json_response
from api.openapi import ApiBlueprint
from api.practice_schemas import (
    PracticeLegal,
    PracticeLegalQuery,
    PracticeList,
    PracticeQuery,
    RevealRequest,
    Solution,
    TryRequest,
    Verdict,
)
from services import practice
from services.shared import services

blp = ApiBlueprint("practice", __name__, url_prefix="/api/games",
                   description="Practice from a reviewed game's mistakes")  # fmt: skip
WRITE: dict[str, Any] = {"security": [{"bearer": []}]}


def _writer() -> str:
    return required_user(services().settings.api_tokens)


@blp.route("/<uuid:game_id>/practice", methods=["GET"])
@blp.arguments(PracticeQuery, location="query")
@blp.response(200, PracticeList, description=f"Cache-Control: `{NO_STORE}`.")
@blp.problems(400, 404, 409)
def positions(query: dict[str, Any], game_id: UUID) -> Response:
    """The seat's mistakes and blunders in the game's stored review (at the server's
    analysis settings; 409 `no_review` without one): for each the position before it, the
    action played and, with `player`, that player's `tries`, `solved` and `revealed`."""
    found = practice.positions(game_id, query["seat"], query.get("player"))
    return json_response(found, cache_control=NO_STORE)


@blp.route("/<uuid:game_id>/practice/legal", methods=["GET"])
@blp.arguments(PracticeLegalQuery, location="query")
@blp.response(200, PracticeLegal, description=f"Cache-Control: `{NO_STORE}`.")
@blp.problems(400, 404, 409)
def legal(query: dict[str, Any], game_id: UUID) -> Response:
    """The legal actions at the position of flagged action `index`, as a table's `legal`
    lists them (`version` is 0); `hex=x,y` keeps those that start from or target it."""
    found = practice.legal(game_id, query["index"], query.get("hex"))
    return json_response(found, cache_control=NO_STORE)


@blp.route("/<uuid:game_id>/practice", methods=["POST"])
@blp.arguments(TryRequest)
@blp.response(200, Verdict, description="The verdict and the player's progress there.")
@blp.problems(400, 401, 403, 404, 409, 422, 503)
@blp.doc(**WRITE)
def judge(body: dict[str, Any], game_id: UUID) -> Response:
    """Judge `action` at flagged action `index` as the review scored the actions there:
    `accepted` when its win share is within `threshold` (the inaccuracy threshold) of the
    best the review knows (`loss` is how far below it is). `best` is given once the
    position is solved or revealed. The try is kept for `player`; an illegal action is a
    422 `illegal_action` (`rule`) and is not kept. 409 `not_flagged` for an index the review
    does not flag, `too_many_tries` past 50 tries at one position."""
    by = _writer()
    verdict = practice.judge(game_id, body["index"], body["action"], body["player"], by)
    return json_response(verdict, cache_control=NO_STORE)


@blp.route("/<uuid:game_id>/practice/reveal", methods=["POST"])
@blp.arguments(RevealRequest)
@blp.response(200, Solution, description="The solution and the player's progress there.")
@blp.problems(400, 401, 403, 404, 409, 503)
@blp.doc(**WRITE)
def reveal(body: dict[str, Any], game_id: UUID) -> Response:
    """The review's best action at flagged action `index`, its label and win share; kept
    as seen by `player`."""
    by = _writer()
    solution = practice.reveal(game_id, body["index"], body["player"], by)
    return json_response(solution, cache_control=NO_STORE)
