"""``/api/ratings``, ``/api/players/{a}/vs/{b}`` and ``/api/games/{id}/ratings``: players'
ratings over one game's league."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from werkzeug.wrappers import Response

from api.caching import NO_CACHE, json_response
from api.openapi import ApiBlueprint
from api.problems import Problem
from api.rating_schemas import GameRating, GameRatingQuery, HeadToHead, Leaderboard, RatingQuery
from api.routes.stats import refuse_long_names
from domain.store import WithdrawnGame
from projections.ratings import Season
from projections.readmodels import ReadModels
from services.shared import services

blp = ApiBlueprint("ratings", __name__, url_prefix="/api", description="Ratings")


def season(models: ReadModels, query: dict[str, Any]) -> Season:
    """The league a query asks for (its game, the most played one by default)."""
    return Season(
        query.get("game") or models.most_played(), query.get("since"), query.get("until"),
        query.get("tag"), query["bots"] == "include",
    )  # fmt: skip


@blp.route("/ratings")
@blp.arguments(RatingQuery, location="query")
@blp.response(200, Leaderboard, description=f"The leaderboard. Cache-Control: `{NO_CACHE}`.")
def ratings(query: dict[str, Any]) -> Response:
    """The leaderboard of one game: every player of its finished public games matching the
    filters (a season: `since`, `until`; a `tag`), rated game by game in the order the games
    were stored with openskill's Plackett–Luce model (ties share a place); best rating
    (`mu - 3 sigma`) first, with the games each was rated in. Bots' seats are left out unless
    `bots=include`."""
    models = services().fresh()
    return json_response(models.ratings(season(models, query)))


@blp.route("/players/<name>/vs/<other>")
@blp.arguments(RatingQuery, location="query")
@blp.response(200, HeadToHead, description=f"Head to head. Cache-Control: `{NO_CACHE}`.")
@blp.problems(400, 404)
def head_to_head(query: dict[str, Any], name: str, other: str) -> Response:
    """Two players in one game's league (filtered as `/api/ratings`): each one's rating, wins
    against the other and average place in their games together, the rating gap, and those
    games."""
    refuse_long_names(name=name, other=other)
    models = services().fresh()
    players = models.aliases()
    if players.player(name) == players.player(other):
        message = "Name two players: these are one (their names match, or were merged)."
        raise Problem(400, "invalid_parameters", f"Invalid parameters: other: {message}",
                      errors={"path": {"other": [message]}})  # fmt: skip
    found = models.head_to_head(name, other, season(models, query))
    if found is None:
        raise Problem(404, "unknown_player",
                      f"{name!r} and {other!r} are not both rated in these games.")  # fmt: skip
    return json_response(found)


@blp.route("/games/<uuid:game_id>/ratings")
@blp.arguments(GameRatingQuery, location="query")
@blp.response(200, GameRating, description=f"The game as rated. Cache-Control: `{NO_CACHE}`.")
@blp.problems(404, 410)
def game_rating(query: dict[str, Any], game_id: UUID) -> Response:
    """A game as its game's league (every finished public game of it) rated it: each seat's
    rating before and after, its change, and the place and chance to win the ratings
    predicted before it. A game not in the league (unfinished, private, unknown) is a 404, a
    withdrawn one a 410."""
    svc = services()
    found = svc.fresh().game_rating(game_id, bots=query["bots"] == "include")
    if found is None and svc.library.exists(game_id) and svc.library.withdrawn(game_id):
        raise WithdrawnGame(game_id)
    if found is None:
        raise Problem(404, "unrated_game", f"No rated game {game_id}: ratings take the finished "
                      "public games.")  # fmt: skip
    return json_response(found)
