"""Variations: what-if lines played at a table from any step of a stored game
(:mod:`services.variations`).

A variation is a table (``/api/tables/{id}`` plays it); its own actions are kept as a
branch of its game after every write (``/api/branches/{id}``). Reading needs no token;
opening one needs ``Authorization: Bearer <token>``, as uploads do, and changing one its
author's token.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import url_for
from werkzeug.wrappers import Response

from api.auth import required_user
from api.caching import NO_STORE, created, json_response
from api.openapi import ApiBlueprint
from api.table_schemas import TableDocument
from api.variation_schemas import GameBranches, RenameRequest, VariationDocument, VariationRequest
from services import variations
from services.shared import services

blp = ApiBlueprint("variations", __name__, url_prefix="/api",
                   description="What-if lines played from any step of a game")  # fmt: skip
WRITE: dict[str, Any] = {"security": [{"bearer": []}]}
LOCATION = {"Location": {"schema": {"type": "string"}}}


def _writer() -> str:
    return required_user(services().settings.api_tokens)


@blp.route("/games/<uuid:game_id>/variations", methods=["POST"])
@blp.arguments(VariationRequest)
@blp.response(201, TableDocument, description="The variation's table, with its `variation`; "
              "`Location` names the table.", headers=LOCATION)  # fmt: skip
@blp.problems(400, 401, 403, 404, 409, 413, 422, 503)
@blp.doc(**WRITE)
def open_variation(body: dict[str, Any], game_id: UUID) -> Response:
    """Open a variation at step `step` of the game: a table from the position after its
    first `step` actions, with its own first `actions`, or `suggested`: the review's better
    alternative to the action at index `step` then `plies` actions of the review's
    continuation (409 `no_review` without a stored review at the current settings, 409
    `not_flagged` where the review found nothing better; 409 `game_over` at a step where
    the game is over, without actions). An illegal action is a 422
    `illegal_action` whose `index` counts the variation's actions; nothing is stored then."""
    by = _writer()
    doc = variations.open_variation(
        game_id, body["step"], by, body.get("name"), body.get("actions"), body["suggested"],
        body["plies"],
    )  # fmt: skip
    return created(doc, url_for("tables.table", table_id=doc["table_id"]))


@blp.route("/games/<uuid:game_id>/branches", methods=["GET"])
@blp.response(200, GameBranches, description=f"Cache-Control: `{NO_STORE}`.")
@blp.problems(404)
def game_branches(game_id: UUID) -> Response:
    """The game's variations with at least one own action (deleted ones left out), by step
    then creation (at most 500)."""
    branches = variations.game_variations(game_id)
    return json_response({"game_id": str(game_id), "branches": branches}, cache_control=NO_STORE)


@blp.route("/variations/<uuid:variation_id>", methods=["GET"])
@blp.response(200, VariationDocument, description=f"Cache-Control: `{NO_STORE}`.")
@blp.problems(404)
def variation(variation_id: UUID) -> Response:
    """The variation: where it leaves its game, its name, author and own actions, its
    branch's comparison with the game, and the score totals and win chances at its end and
    on the game's main line at the same step."""
    return json_response(variations.variation_doc(variation_id), cache_control=NO_STORE)


@blp.route("/variations/<uuid:variation_id>", methods=["PATCH"])
@blp.arguments(RenameRequest)
@blp.response(200, VariationDocument, description="The variation renamed.")
@blp.problems(400, 401, 403, 404, 409, 503)
@blp.doc(**WRITE)
def rename(body: dict[str, Any], variation_id: UUID) -> Response:
    """Rename the variation (its author's token: 403 `not_author` for another)."""
    by = _writer()
    return json_response(variations.rename(variation_id, body["name"], by), cache_control=NO_STORE)


@blp.route("/variations/<uuid:variation_id>", methods=["DELETE"])
@blp.response(204, description="Deleted: it leaves every list, and later writes are 404.")
@blp.problems(401, 403, 404, 409, 503)
@blp.doc(**WRITE)
def delete(variation_id: UUID) -> Response:
    """Delete the variation (its author's token: 403 `not_author` for another)."""
    variations.delete(variation_id, _writer())
    return Response(status=204)
