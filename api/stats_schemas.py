"""marshmallow schemas of the statistics answers (``/api/stats``, ``/api/players/{name}``).

The generic parts are listed; a game's own figures are documented under their keys from
each registered game's declaration (:mod:`domain.statistics`).
"""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.rating_schemas import PlayerRating
from api.schemas import Open, StatsFilters, check_game
from domain.games import rulesets
from domain.statistics import Breakdown, Mix, RatesWhen
from projections.statistics import RECENT_GAMES


def _number() -> fields.Float:
    return fields.Float(required=True, allow_none=True)


class Rate(Open):
    """A win rate: wins of ``n``, the 95 % Wilson interval, and whether ``n`` is small."""

    n = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    rate = _number()
    low = fields.Float(required=True)
    high = fields.Float(required=True)
    small_sample = fields.Boolean(required=True)


class GroupRate(Rate):
    """A win rate for one group: a seat, a player count, both, whether the seat started, or
    a value of a game's seat column (``terrain``)."""

    seat = fields.Integer()
    players = fields.Integer()
    started = fields.Boolean()


class WinRates(Open):
    """Win rates by group (and by the game's own columns, for one game: ``by_terrain``)."""

    by_seat = fields.List(fields.Nested(GroupRate), required=True)
    by_players = fields.List(fields.Nested(GroupRate), required=True)
    by_players_seat = fields.List(fields.Nested(GroupRate), required=True)
    by_start = fields.List(
        fields.Nested(GroupRate), required=True,
        metadata={"description": "seats that started and the others (games with a starting "
                  "seat)"},
    )  # fmt: skip


class Average(Open):
    """Mean final score and its parts over ``n`` seats (of one seat or player count)."""

    n = fields.Integer(required=True)
    total = _number()
    breakdown = fields.Dict(keys=fields.String(), values=fields.Float(allow_none=True))
    small_sample = fields.Boolean(required=True)
    seat = fields.Integer()
    players = fields.Integer()


class Averages(ma.Schema):
    """A game's ``breakdown`` figure: score averages overall, by seat, by player count."""

    average = fields.Nested(Average, required=True)
    by_seat = fields.List(fields.Nested(Average), required=True)
    by_players = fields.List(fields.Nested(Average), required=True)


class Share(Open):
    """One count of a game's ``mix`` figure (its name under the figure's ``field``)."""

    count = fields.Integer(required=True)
    share = _number()


class CaseRate(Rate):
    """The win rate of one case of a game's ``rates_when`` figure (its name under the
    figure's ``field``)."""


class Bucket(Open):
    """A histogram bar: games (or seats) whose count is within ``from`` … ``to``."""

    start = fields.Integer(required=True, data_key="from")
    to = fields.Integer(required=True)
    games = fields.Integer()
    seats = fields.Integer()


class Distribution(Open):
    """Mean, median, range and histogram of a count per game (``games``) or per seat
    (``seats``); null without any."""

    games = fields.Integer()
    seats = fields.Integer()
    mean = _number()
    median = _number()
    min = fields.Integer(required=True, allow_none=True)
    max = fields.Integer(required=True, allow_none=True)
    buckets = fields.List(fields.Nested(Bucket), required=True)


class Lengths(Open):
    """Game lengths in turns and in actions (and a game's ``spread`` figures)."""

    turns = fields.Nested(Distribution, required=True)
    actions = fields.Nested(Distribution, required=True)


class TopPlayer(Open):
    """One of the most active players (for one game, also their most played seat attribute
    and ``average_`` and the game's name for its score: ``average_vp``)."""

    name = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    win_rate = fields.Nested(Rate, required=True)
    average_score = fields.Float(required=True)


class GameCount(Open):
    """The games counted of one game (in a player's record, their wins and average score
    there too)."""

    game = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer()
    average_score = fields.Float()


class FigureDoc(Open):
    """A figure a game declares over its own columns: ``kind`` (``rates_by``,
    ``breakdown``, ``mix``, ``rates_when``, ``spread``), the ``key`` its answer is under,
    its ``title``, and what it counts (``column``, ``field``, ``parts``, ``cases``)."""

    kind = fields.String(
        required=True,
        validate=validate.OneOf(["rates_by", "breakdown", "mix", "rates_when", "spread"]),
    )
    key = fields.String(required=True)
    title = fields.String(required=True)


def _figures() -> dict[str, fields.Field]:
    """Each registered game's figures under their keys (``win_rate[key]`` and
    ``length[key]`` figures are within those)."""
    answers = {
        Breakdown: lambda: fields.Nested(Averages),
        Mix: lambda: fields.List(fields.Nested(Share)),
        RatesWhen: lambda: fields.List(fields.Nested(CaseRate)),
    }
    out: dict[str, fields.Field] = {}
    for rules in rulesets():
        for figure in rules.statistics.figures:
            if type(figure) in answers:
                field = answers[type(figure)]()
                field.metadata = {"description": f"{figure.title} ({rules.title})"}
                out.setdefault(figure.key, field)
    return out


class _Stats(Open):
    game = fields.String(
        required=True, allow_none=True, metadata={"description": "the game counted (null: all)"}
    )
    games = fields.Integer(required=True, metadata={"description": "games counted"})
    seats = fields.Integer(required=True)
    small_sample_below = fields.Integer(required=True)
    by_game = fields.List(fields.Nested(GameCount), required=True)
    win_rate = fields.Nested(WinRates, required=True)
    score = fields.Nested(
        Distribution, required=True, metadata={"description": "final totals, per seat"}
    )
    length = fields.Nested(Lengths, required=True)
    players = fields.List(fields.Nested(TopPlayer), required=True)
    figures = fields.List(
        fields.Nested(FigureDoc), metadata={"description": "the game's own figures (one game)"}
    )


Stats = _Stats.from_dict(_figures(), name="Stats")
"""Statistics over the finished public games matching the filters: of every game, or of one
(then with its own figures, each under its key)."""


class AttributeRecord(Open):
    """A player's games and wins with one value of the game's seat attribute (under its
    name: ``terrain``)."""

    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)


class TrendPoint(Open):
    """One of a player's games, first played first, with the rolling mean of their score over
    their last games of the same game (for one game, also under the game's name for its
    score, ``vp``/``rolling_vp``, and their seat attribute)."""

    game_id = fields.UUID(required=True)
    game = fields.String(required=True)
    number = fields.Integer(
        required=True, metadata={"description": "which of their games of that game (1: first)"}
    )
    uploaded_at = fields.DateTime(required=True)
    played_at = fields.DateTime(
        required=True, metadata={"description": "its record's meta.played_on, else its upload"}
    )
    players = fields.Integer(required=True)
    score = fields.Integer(required=True)
    place = fields.Integer(required=True)
    won = fields.Boolean(required=True)
    rolling_score = fields.Float(required=True)


class PlayerProfile(TopPlayer):
    """A named player's record over the finished public games (of one game, or all): a
    ``TopPlayer``'s fields and more; for one game, their record per value of its seat
    attribute (under its name and ``s``: ``terrains``)."""

    game = fields.String(required=True, allow_none=True)
    by_game = fields.List(fields.Nested(GameCount), required=True)
    trend = fields.List(
        fields.Nested(TrendPoint), required=True,
        metadata={"description": f"their last {RECENT_GAMES} games (`games` counts them all)"},
    )  # fmt: skip
    ratings = fields.List(
        fields.Nested(PlayerRating), required=True,
        metadata={"description": "their rating in each game's league they were rated in"},
    )  # fmt: skip


def _bots() -> fields.String:
    return fields.String(
        load_default="exclude", validate=validate.OneOf(["exclude", "include"]),
        metadata={"description": "`include`: count the seats bots played (left out by "
                  "default, as they are in ratings)"},
    )  # fmt: skip


class StatsQuery(StatsFilters):
    """``GET /api/stats``: the filters, and whether bots' seats count."""

    bots = _bots()


class PlayerQuery(ma.Schema):
    """``GET /api/players/{name}``: of one game, or all; whether bots' seats count."""

    bots = _bots()

    game = fields.String(
        validate=[validate.Length(1, 100), check_game],
        metadata={"description": "a game's name (default: every game)"},
    )
