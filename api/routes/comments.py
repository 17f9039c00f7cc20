"""Comments on the steps of stored games (:mod:`services.comments`).

Reading needs no token; writing needs ``Authorization: Bearer <token>``, as uploads do, and
only a comment's author may remove it. The record export (``/api/games/{id}/record``)
carries a game's comments as ``annotations``.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import url_for
from werkzeug.wrappers import Response

from api.auth import required_user
from api.caching import NO_STORE, created, json_response
from api.comment_schemas import Comment, CommentList, CommentRequest
from api.openapi import ApiBlueprint
from services import comments
from services.shared import services

blp = ApiBlueprint("comments", __name__, url_prefix="/api",
                   description="Comments on the steps of games")  # fmt: skip
WRITE: dict[str, Any] = {"security": [{"bearer": []}]}


@blp.route("/games/<uuid:game_id>/comments", methods=["GET"])
@blp.response(200, CommentList, description=f"Cache-Control: `{NO_STORE}`.")
@blp.problems(404, 410)
def game_comments(game_id: UUID) -> Response:
    """The game's comments, by step, then in the order they were made."""
    return json_response({"comments": comments.list_comments(game_id)}, cache_control=NO_STORE)


@blp.route("/games/<uuid:game_id>/comments", methods=["POST"])
@blp.arguments(CommentRequest)
@blp.response(201, Comment, description="The comment made; `Location` names it.",
              headers={"Location": {"schema": {"type": "string"}}})  # fmt: skip
@blp.problems(400, 401, 403, 404, 409, 410, 413, 503)
@blp.doc(**WRITE)
def add_comment(body: dict[str, Any], game_id: UUID) -> Response:
    """Comment on the position after `step` actions (0: the start), as the token's name.

    `text` is 1–2,000 characters without control characters but newline and tab; a step
    outside the game or another text is a 400 naming it, more than 500 comments on one game
    a 409 `too_many_comments`."""
    by = required_user(services().settings.api_tokens)
    made = comments.add(game_id, body["step"], body["text"], by)
    return created(made, url_for(".comment", comment_id=made["comment_id"]))


@blp.route("/comments/<uuid:comment_id>", methods=["GET"])
@blp.response(200, Comment, description=f"Cache-Control: `{NO_STORE}`.")
@blp.problems(404, 410)
def comment(comment_id: UUID) -> Response:
    """One comment (a removed one is gone: 404 `unknown_comment`; one on a withdrawn game:
    410 `withdrawn_game`)."""
    return json_response(comments.find(comment_id), cache_control=NO_STORE)


@blp.route("/comments/<uuid:comment_id>", methods=["DELETE"])
@blp.response(204, description="Removed: it leaves the game's comments and its record export.")
@blp.problems(401, 403, 404, 410, 503)
@blp.doc(**WRITE)
def remove_comment(comment_id: UUID) -> Response:
    """Remove a comment: only its author may (403 `not_author` for another token)."""
    by = required_user(services().settings.api_tokens)
    comments.delete(comment_id, by)
    return Response(status=204, headers={"Cache-Control": NO_STORE})
