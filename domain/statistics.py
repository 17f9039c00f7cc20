"""What a game adds to its summaries and statistics: its own columns and how they are shown.

Every game's summary holds the same generic columns, which the projections read from the
ruleset's own outputs (its scores, places, turn and finish): players, actions, events,
turns, top score, winners, and per seat its name, colour, total, place and whether it won
or started. A game keeps more through its :class:`Statistics`:

- ``game_columns`` and ``seat_columns``: named numbers (or text) per game and per seat,
  filled by ``summarize`` from the start state, each action's stored events, the end state
  and the final scores. The read models keep them in a table of the game's own — its seats'
  rows, one typed column each (the game's repeated on every seat) — so the statistics of one
  game are a few SQL ``GROUP BY`` queries over one table, as those of every game are;
- ``options``: the setup options games may be filtered by (``option=big_map``);
- ``attribute``: a text seat column that tells seats apart (a home terrain, a faction):
  lists show it, the game list filters by it and players are known by the value they play
  most;
- ``figures``: which statistics are computed over those columns and charted (win rates by a
  column's value, a score's parts, a mix of counts, win rates when a count is above zero,
  the spread of a game column).

A game without extras declares ``Statistics()``: it gets every generic statistic.

>>> Statistics(seat_columns=(Column("bad name", "x"),))
Traceback (most recent call last):
...
ValueError: column 'bad name': a name is a-z, 0-9 and _, starting with a letter, at most 40
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from domain.ruleset import JSON, SeatScore, Stored

Value = int | str | None
"""What a column holds."""
NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


def _named(what: str, name: str) -> None:
    if not NAME.fullmatch(name):
        raise ValueError(
            f"{what} {name!r}: a name is a-z, 0-9 and _, starting with a letter, at most 40"
        )


@dataclass(frozen=True, slots=True)
class Column:
    """One named value a summary keeps: an integer (``int``) or text (``text``), which may
    be missing (``nullable``); a text column may list every value it takes, in the order
    they are shown (``values``: a filter's choices)."""

    name: str
    label: str
    kind: Literal["int", "text"] = "int"
    nullable: bool = False
    values: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _named("column", self.name)


@dataclass(frozen=True, slots=True)
class Option:
    """A setup option games are filtered by, held in the game column ``column``: a yes/no
    option (``flag``: 0 or 1) or a number from ``low`` to ``high``; ``default`` is its value
    when unused (None: no value)."""

    name: str
    column: str
    default: int | None
    low: int = 0
    high: int = 1
    flag: bool = False


@dataclass(frozen=True, slots=True)
class RatesBy:
    """Win rates per value of the seat column ``column``: ``win_rate[key]``, a list of
    ``{column: value, …rate}``, charted as bars with their intervals."""

    key: str
    column: str
    title: str


@dataclass(frozen=True, slots=True)
class Breakdown:
    """The mean final total and the mean of each part (``parts``: name and seat column),
    overall, by seat and by player count: ``answer[key]``, charted as stacked bars in
    ``unit`` (None: the game's ``score_label``)."""

    key: str
    title: str
    parts: tuple[tuple[str, str], ...]
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class Mix:
    """Counts summed over seats and each one's share of their sum (``parts``: name and seat
    column): ``answer[key]``, a list of ``{field: name, "count", "share"}``, charted as
    horizontal bars."""

    key: str
    title: str
    field: str
    parts: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class RatesWhen:
    """Win rates of the seats whose count is above zero, one per case (``cases``: name and
    seat column): ``answer[key]``, a list of ``{field: case, …rate}``, charted as bars."""

    key: str
    title: str
    field: str
    cases: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Spread:
    """The distribution of the game column ``column`` over games: ``length[key]``, charted
    as a histogram of bars ``width`` values wide."""

    key: str
    column: str
    title: str
    width: int = 1


Figure = RatesBy | Breakdown | Mix | RatesWhen | Spread
"""A statistic a game declares over its columns, and its chart."""


@dataclass(frozen=True, slots=True)
class Summary:
    """What a game's ``summarize`` says of one game: the turns played (None: one per action),
    the seat that started (None: the game has no starting seat), why it ended, and the
    values of the declared game columns and, per seat, of the seat columns."""

    turns: int | None = None
    starter: int | None = None
    end_reason: str | None = None
    game: Mapping[str, Value] = field(default_factory=dict)
    seats: Sequence[Mapping[str, Value]] = ()


def _nothing(start: Any, steps: Sequence[Sequence[Stored]], end: Any, scores: Any) -> Summary:
    return Summary(seats=[{} for _ in scores])


Summarize = Callable[[Any, Sequence[Sequence[Stored]], Any, Sequence[SeatScore]], Summary]
"""``summarize(start, steps, end, scores)``: a game's :class:`Summary` from its start state,
each action's events as the store keeps them (``Ruleset.encode_event``: what the projections
read, so nothing is decoded twice), its end state and its final scores (``Ruleset.scores``
of ``end``)."""


@dataclass(frozen=True)
class Statistics:
    """A game's statistics extras (see the module's docstring).

    ``seat_json`` shapes a seat's column values (as stored) into the fields the game's
    summaries show beside the generic ones. ``choices`` are the ``option`` filters a
    statistics page offers (filter text, label). ``score_name`` is what the game calls its
    score (``vp``): answers about one game repeat ``top_score``, ``average_score`` and the
    trend's ``score`` under that name too; ``score_label`` is how charts write it and
    ``score_bucket`` the width of the score histogram's bars. The players' list of the
    values they played (see ``attribute``) is ``attribute`` + ``s`` (``terrains``).
    """

    summarize: Summarize = _nothing
    seat_json: Callable[[Mapping[str, Value]], dict[str, JSON]] = dict
    game_columns: tuple[Column, ...] = ()
    seat_columns: tuple[Column, ...] = ()
    options: tuple[Option, ...] = ()
    choices: tuple[tuple[str, str], ...] = ()
    figures: tuple[Figure, ...] = ()
    attribute: str | None = None
    score_name: str = "score"
    score_label: str = "score"
    score_bucket: int = 1

    def __post_init__(self) -> None:
        names = [c.name for c in (*self.game_columns, *self.seat_columns)]
        if len(set(names)) < len(names):
            raise ValueError(f"column names must be distinct: {', '.join(names)}")
        _named("score name", self.score_name)
        game = {c.name for c in self.game_columns}
        seat = {c.name: c for c in self.seat_columns}
        for option in self.options:
            if option.column not in game:
                raise ValueError(f"option {option.name!r}: no game column {option.column!r}")
        if self.attribute is not None and getattr(seat.get(self.attribute), "kind", "") != "text":
            raise ValueError(f"attribute {self.attribute!r}: not a text seat column")
        for figure in self.figures:
            _named("figure", figure.key)
            known, wanted = set(seat), [getattr(figure, "column", "")]
            if isinstance(figure, Spread):
                known = game
            elif isinstance(figure, Breakdown | Mix | RatesWhen):
                pairs = figure.cases if isinstance(figure, RatesWhen) else figure.parts
                wanted = [column for _, column in pairs]
            missing = [c for c in wanted if c not in known]
            if missing:
                raise ValueError(f"figure {figure.key!r}: no column {', '.join(missing)}")

    @property
    def columns(self) -> tuple[Column, ...]:
        """Every column of the game's table (game columns first)."""
        return (*self.game_columns, *self.seat_columns)

    def option(self, name: str) -> Option | None:
        """The option called ``name``, if the game has one."""
        return next((o for o in self.options if o.name == name), None)
