"""``/api/stats`` and ``/api/players/{name}``: statistics across games."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from api.caching import NO_CACHE, json_response
from api.openapi import ApiBlueprint
from api.problems import Problem
from api.schemas import MAX_NAME, StatsFilters
from api.stats_schemas import PlayerProfile, Stats
from services.shared import services

blp = ApiBlueprint("statistics", __name__, url_prefix="/api", description="Statistics")


@blp.route("/stats")
@blp.arguments(StatsFilters, location="query")
@blp.response(200, Stats, description=f"Statistics. Cache-Control: `{NO_CACHE}`.")
def stats(filters: dict[str, Any]) -> Response:
    """Statistics over the finished public games matching every filter given."""
    return json_response(services().fresh().stats(**filters))


@blp.route("/players/<name>")
@blp.response(200, PlayerProfile, description=f"The player. Cache-Control: `{NO_CACHE}`.")
@blp.alt_response(400, response="BAD_REQUEST")
@blp.alt_response(404, response="NOT_FOUND")
def player(name: str) -> Response:
    """A named player's games, wins, average VP, most played terrain and VP trend (over
    finished public games)."""
    if len(name) > MAX_NAME:
        message = f"Longer than {MAX_NAME} characters."
        raise Problem(400, "invalid_parameters", f"Invalid parameters: name: {message}",
                      errors={"path": {"name": [message]}})  # fmt: skip
    profile = services().fresh().player(name)
    if profile is None:
        raise Problem(404, "unknown_player", f"No stored game has a player named {name!r}.")
    return json_response(profile)
