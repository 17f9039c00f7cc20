"""``/api/players/merges``: two spellings of a name made one player everywhere."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate
from werkzeug.wrappers import Response

from api.auth import required_user
from api.caching import json_response
from api.openapi import ApiBlueprint
from api.schemas import plain_text
from domain.players import MAX_NAME, name_problem
from domain.store.players import merge
from services.shared import services

blp = ApiBlueprint("players", __name__, url_prefix="/api/players", description="Players")


def _name(description: str) -> fields.String:
    return fields.String(
        required=True, validate=[validate.Length(1, MAX_NAME), plain_text, _named],
        metadata={"description": description},
    )  # fmt: skip


def _named(value: str) -> None:
    problem = name_problem(value)
    if problem is not None:
        raise ma.ValidationError(f"A player's name: this one {problem}.")


class MergeRequest(ma.Schema):
    """Which name becomes which player."""

    alias = _name("the name merged away: its player becomes `into`'s")
    into = _name("the name merged into: the player it names is shown by it")


class Merged(ma.Schema):
    """A merge's answer."""

    alias = fields.String(required=True)
    into = fields.String(required=True)
    player = fields.String(required=True, metadata={"description": "the name now shown"})
    merged = fields.Boolean(
        required=True, metadata={"description": "false: they were one player already"}
    )


@blp.route("/merges", methods=["POST"])
@blp.arguments(MergeRequest)
@blp.response(201, Merged, description="Merged: the two names are one player everywhere.")
@blp.alt_response(200, schema=Merged, description="They were one player already; nothing "
                  "was stored.")  # fmt: skip
@blp.problems(400, 401, 403, 503)
def merge_players(body: dict[str, Any]) -> Response:
    """Make `alias`'s player the player `into` names, in every list, statistic, rating and
    page (stored as an event; any token may). Names already match case-, accent- and
    width-insensitively, so `Zoe` and `Zoë` are one player without a merge."""
    svc = services()
    user = required_user(svc.settings.api_tokens)
    with svc.writing():
        done = merge(svc.library, body["alias"], body["into"], user)
    svc.catch_up()
    answer = {**body, "player": done.shown, "merged": done.gone is not None}
    return json_response(answer, status=201 if done.gone is not None else 200)
