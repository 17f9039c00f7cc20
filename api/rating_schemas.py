"""marshmallow schemas of the ratings answers (``/api/ratings``, a player's ``ratings``,
``/api/players/{a}/vs/{b}``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.schemas import MAX_TAG, DateOrDateTime, check_game, plain_text
from projections.statistics import RECENT_GAMES


def _bots() -> fields.String:
    return fields.String(
        load_default="exclude", validate=validate.OneOf(["exclude", "include"]),
        metadata={"description": "`include`: rate the seats bots played too"},
    )  # fmt: skip


PLAYED_AT = "when the game was played: its record's meta.played_on (midnight UTC), else its upload"


class RatingQuery(ma.Schema):
    """Which league: one game's finished public games, of a season (a date range) and a tag;
    the seats bots played only with ``bots=include``."""

    game = fields.String(
        validate=[validate.Length(1, 100), check_game],
        metadata={"description": "a game's name (default: the game with most finished games)"},
    )
    since = DateOrDateTime(
        metadata={"description": "played (meta.played_on, else uploaded) at or after: an ISO "
                  "date (from that day on) or date-time"}
    )  # fmt: skip
    until = DateOrDateTime(
        metadata={"description": "played before: an ISO date (to that day's end) or date-time"}
    )
    tag = fields.String(
        validate=[validate.Length(1, MAX_TAG), plain_text],
        metadata={"description": "only games with this tag"},
    )
    bots = _bots()


class Skill(ma.Schema):
    """A rating from openskill's Plackett–Luce model: ``rating`` is the conservative
    ``mu - 3 sigma`` pages show (0 at the start)."""

    rating = fields.Float(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)


class Rated(Skill):
    """A player's rating, and the games they were rated in and won."""

    name = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)


class Leaderboard(ma.Schema):
    """Every rated player of the league, best rating first; ``games``: the games rated."""

    game = fields.String(required=True)
    games = fields.Integer(required=True)
    players = fields.List(fields.Nested(Rated), required=True)


class RatingChange(Skill):
    """A seat's rating after a game and its ``change``, its place, and the place and chance
    to win the ratings predicted before the game."""

    change = fields.Float(required=True)
    place = fields.Integer(required=True)
    predicted_place = fields.Integer(required=True)
    win_chance = fields.Float(required=True)


class RatingStep(RatingChange):
    """One rated game of a player, first played first."""

    game_id = fields.UUID(required=True)
    number = fields.Integer(
        required=True, metadata={"description": "which of their rated games (1: first)"}
    )
    played_at = fields.DateTime(required=True, metadata={"description": PLAYED_AT})
    players = fields.Integer(required=True)


class Opponent(ma.Schema):
    """An opponent met often: games together, and the player's wins and losses against them
    (places better or worse)."""

    name = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    losses = fields.Integer(required=True)


class PlayerRating(Rated):
    """A player's rating in one game's league, its history and their most frequent
    opponents (up to 10)."""

    game = fields.String(required=True)
    history = fields.List(
        fields.Nested(RatingStep), required=True,
        metadata={"description": f"their last {RECENT_GAMES} rated games (`games`: all)"},
    )  # fmt: skip
    opponents = fields.List(fields.Nested(Opponent), required=True)


class Side(Rated):
    """One of two players met: their rating, wins against the other and average place in
    the games together."""

    wins_against = fields.Integer(required=True)
    average_place = fields.Float(required=True, allow_none=True)


class Meeting(ma.Schema):
    """A game two players played together: each one's place."""

    game_id = fields.UUID(required=True)
    played_at = fields.DateTime(required=True, metadata={"description": PLAYED_AT})
    places = fields.List(fields.Integer(), required=True)


class HeadToHead(ma.Schema):
    """Two players in one game's league: each side, the first's rating less the second's,
    and their games together, oldest first."""

    game = fields.String(required=True)
    players = fields.List(fields.Nested(Side), required=True)
    rating_gap = fields.Float(required=True)
    games = fields.List(fields.Nested(Meeting), required=True)


class RatedSeat(RatingChange):
    """One rated seat of a game: its player, and their rating ``before`` it."""

    name = fields.String(required=True)
    before = fields.Float(required=True)


class GameRating(ma.Schema):
    """A game as its game's league rated it (``seats`` empty: not rated, with fewer than two
    players or one player at two seats)."""

    game_id = fields.UUID(required=True)
    game = fields.String(required=True)
    played_at = fields.DateTime(required=True, metadata={"description": PLAYED_AT})
    seats = fields.List(fields.Nested(RatedSeat), required=True)


class GameRatingQuery(ma.Schema):
    """Whether the league counts the seats bots played."""

    bots = _bots()
