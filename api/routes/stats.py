"""``/api/stats`` and ``/api/players/{name}``: statistics across games."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from api.caching import NO_CACHE, latest
from api.openapi import ApiBlueprint
from api.problems import Problem
from api.schemas import MAX_NAME
from api.stats_schemas import PlayerProfile, PlayerQuery, Stats, StatsQuery
from projections.ratings import Season
from projections.readmodels import ReadModels

blp = ApiBlueprint("statistics", __name__, url_prefix="/api", description="Statistics")


@blp.route("/stats")
@blp.arguments(StatsQuery, location="query")
@blp.response(200, Stats, description=f"Statistics. Cache-Control: `{NO_CACHE}`.")
def stats(filters: dict[str, Any]) -> Response:
    """Statistics over the finished public games matching every filter given.

    Of one game (`game`), or of every game; without `game`, options (`option`) name the
    game they are of. Every game's answer has the win rates by seat, player count and
    start, the score's distribution, lengths and the most active players; one game's adds
    its own figures (listed in `figures`, each under its key). The seats bots played are
    left out unless `bots=include`."""
    bots = filters.pop("bots") == "include"
    return latest(lambda models: models.stats(**filters, bots=bots))


def refuse_long_names(**names: str) -> None:
    """A 400 problem for a player name of the path (by its key) over :data:`MAX_NAME`."""
    for key, name in names.items():
        if len(name) > MAX_NAME:
            message = f"Longer than {MAX_NAME} characters."
            raise Problem(400, "invalid_parameters", f"Invalid parameters: {key}: {message}",
                          errors={"path": {key: [message]}})  # fmt: skip


@blp.route("/players/<name>")
@blp.arguments(PlayerQuery, location="query")
@blp.response(200, PlayerProfile, description=f"The player. Cache-Control: `{NO_CACHE}`.")
@blp.problems(400, 404)
def player(query: dict[str, Any], name: str) -> Response:
    """A named player's games, wins, average score and score trend over finished public
    games: of one game (`game`, then also the seat attribute they play most), or all; the
    seats a bot of that name played only with `bots=include`. `ratings`: their rating in
    each game's league they were rated in (as `/api/ratings` rates it), its history and
    their most frequent opponents."""
    refuse_long_names(name=name)
    bots = query["bots"] == "include"

    def render(models: ReadModels) -> dict[str, Any]:
        profile = models.player(name, query.get("game"), bots)
        if profile is None:
            raise Problem(404, "unknown_player", f"No stored game has a player named {name!r}.")
        leagues = (Season(g["game"], bots=bots) for g in profile["by_game"])
        profile["ratings"] = [r for league in leagues if (r := models.player_rating(name, league))]
        return profile

    return latest(render)
