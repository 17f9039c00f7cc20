"""marshmallow schemas of the statistics answers (``/api/stats``, ``/api/players/{name}``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from api.schemas import Open


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
    """A win rate for one group: a terrain, a seat, a player count, or both of the latter."""

    terrain = fields.String()
    seat = fields.Integer()
    players = fields.Integer()


class WinRates(ma.Schema):
    """Win rates by group."""

    by_terrain = fields.List(fields.Nested(GroupRate), required=True)
    by_seat = fields.List(fields.Nested(GroupRate), required=True)
    by_players = fields.List(fields.Nested(GroupRate), required=True)
    by_players_seat = fields.List(fields.Nested(GroupRate), required=True)


class Average(Open):
    """Mean final VP and its breakdown over ``n`` seats (of one seat or player count)."""

    n = fields.Integer(required=True)
    total = _number()
    breakdown = fields.Dict(keys=fields.String(), values=fields.Float(allow_none=True))
    small_sample = fields.Boolean(required=True)
    seat = fields.Integer()
    players = fields.Integer()


class Averages(ma.Schema):
    """VP averages: overall, by seat, by player count."""

    average = fields.Nested(Average, required=True)
    by_seat = fields.List(fields.Nested(Average), required=True)
    by_players = fields.List(fields.Nested(Average), required=True)


class ActionShare(ma.Schema):
    """How often an action type was played."""

    type = fields.String(required=True)
    count = fields.Integer(required=True)
    share = _number()


class PhaseWinner(Rate):
    """How often the first place of a scoring phase's regions went on to win."""

    phase = fields.String(required=True)


class Bucket(ma.Schema):
    """A histogram bar: games whose count is within ``from`` … ``to``."""

    start = fields.Integer(required=True, data_key="from")
    to = fields.Integer(required=True)
    games = fields.Integer(required=True)


class Distribution(ma.Schema):
    """Mean, median, range and histogram of a count per game (null without games)."""

    games = fields.Integer(required=True)
    mean = _number()
    median = _number()
    min = fields.Integer(required=True, allow_none=True)
    max = fields.Integer(required=True, allow_none=True)
    buckets = fields.List(fields.Nested(Bucket), required=True)


class Lengths(ma.Schema):
    """Game lengths in turns and in actions."""

    turns = fields.Nested(Distribution, required=True)
    actions = fields.Nested(Distribution, required=True)


class TopPlayer(ma.Schema):
    """One of the most active players."""

    name = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    win_rate = fields.Nested(Rate, required=True)
    average_vp = fields.Float(required=True)
    terrain = fields.String(required=True, allow_none=True)


class Stats(Open):
    """Statistics over the finished public games matching the filters."""

    games = fields.Integer(required=True, metadata={"description": "games counted"})
    seats = fields.Integer(required=True)
    small_sample_below = fields.Integer(required=True)
    win_rate = fields.Nested(WinRates, required=True)
    vp = fields.Nested(Averages, required=True)
    actions = fields.List(fields.Nested(ActionShare), required=True)
    region_winners = fields.List(fields.Nested(PhaseWinner), required=True)
    length = fields.Nested(Lengths, required=True)
    players = fields.List(fields.Nested(TopPlayer), required=True)


class TerrainRecord(ma.Schema):
    """A player's games and wins on one home terrain."""

    terrain = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)


class TrendPoint(ma.Schema):
    """One of a player's games, oldest first, with the rolling mean of their VP."""

    game_id = fields.UUID(required=True)
    uploaded_at = fields.DateTime(required=True)
    players = fields.Integer(required=True)
    terrain = fields.String(required=True)
    vp = fields.Integer(required=True)
    place = fields.Integer(required=True)
    won = fields.Boolean(required=True)
    rolling_vp = fields.Float(required=True)


class PlayerProfile(Open, TopPlayer):
    """A named player's record over the finished public games: a ``TopPlayer``'s fields and
    more."""

    terrains = fields.List(fields.Nested(TerrainRecord), required=True)
    trend = fields.List(fields.Nested(TrendPoint), required=True)
