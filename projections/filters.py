"""Filters shared by the game list and the statistics, as SQL over ``rm_games g`` (or
``rm_seats s``, which repeats the game columns filtered on).

A filter on a game's own columns — a setup ``option`` (``big_map``) or a seat attribute
(``terrain``), as its ruleset declares them (:mod:`domain.statistics`) — is about one
game: :func:`resolve` finds it, from ``game`` when the request names one, else from the
only game that has what the filters ask for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from domain.bounds import text_problem
from domain.games import ruleset, rulesets
from domain.players import name_key
from domain.ruleset import Ruleset
from domain.statistics import Option, Statistics
from projections.aliases import PLAYER_OF
from projections.tables import GAMES, LIVE, SEATS, timestamp

STANDARD = "standard"
"""The ``option`` filter of games with every option at its default."""


@dataclass
class Where:
    """SQL conditions joined by AND, with their parameters in order."""

    clauses: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)

    def add(self, clause: str, *params: Any) -> None:
        """Add one condition."""
        self.clauses.append(clause)
        self.params.extend(params)

    def sql(self) -> str:
        """``WHERE …`` (empty when there is no condition)."""
        return "WHERE " + " AND ".join(self.clauses) if self.clauses else ""


def player_counts() -> range:
    """The player counts games may have: any registered game's."""
    return range(min(r.seats.start for r in rulesets()), max(r.seats.stop for r in rulesets()))


def seat_attributes() -> dict[str, tuple[str, list[str]]]:
    """Each registered game's seat attribute, its label and values, by name (games sharing
    a name share its values).

    >>> seat_attributes()["terrain"][1][:2]
    ['forest', 'mountain']
    """
    out: dict[str, tuple[str, list[str]]] = {}
    for rules in rulesets():
        stats = rules.statistics
        for column in stats.seat_columns:
            if column.name == stats.attribute:
                _, values = out.setdefault(column.name, (column.label, []))
                values.extend(v for v in column.values if v not in values)
    return out


def _parts(option: str | None) -> list[str]:
    return [part.strip() for part in (option or "").split(",") if part.strip()]


def _names(option: str | None) -> list[str]:
    """The option names an ``option`` filter uses (``standard`` is every game's)."""
    return [part.partition("=")[0].strip() for part in _parts(option)]


def _has(stats: Statistics, name: str) -> bool:
    return (name == STANDARD and bool(stats.options)) or stats.option(name) is not None


def resolve(
    game: str | None, option: str | None = None, attributes: Mapping[str, Any] | None = None
) -> Ruleset | None:
    """The game the filters are about: ``game`` when named (``UnknownGame`` if no such
    game), else the one game that has every option and seat attribute asked for, else
    None (every game) when none is asked for. ValueError when no game or several have
    them, or when the game named has not the seat attribute asked for.

    >>> resolve(None) is None
    True
    >>> resolve(None, "no_such_option")
    Traceback (most recent call last):
    ...
    ValueError: unknown option 'no_such_option': choose from ...
    """
    asked = [name for name, value in (attributes or {}).items() if value is not None]
    if game is not None:
        named = ruleset(game)
        wrong = [a for a in asked if a != named.statistics.attribute]
        if wrong:
            raise ValueError(f"{named.name} has no seat attribute {', '.join(wrong)}")
        return named
    names = _names(option)
    if not names and not asked:
        return None
    games = [
        rules for rules in rulesets()
        if all(_has(rules.statistics, n) for n in names)
        and all(rules.statistics.attribute == a for a in asked)
    ]  # fmt: skip
    if len(games) == 1:
        return games[0]
    if games:
        raise ValueError(f"several games have {', '.join([*names, *asked])}: name the game")
    unknown = next((n for n in names if not any(_has(r.statistics, n) for r in rulesets())), None)
    if unknown is not None:
        known = [o.name for r in rulesets() for o in r.statistics.options]
        raise ValueError(f"unknown option {unknown!r}: choose from {', '.join([*known, STANDARD])}")
    raise ValueError(f"no game has all of {', '.join([*names, *asked])}")


def option_clause(option: str, stats: Statistics, alias: str = "x") -> tuple[str, list[Any]]:
    """SQL over a game's own table (as ``alias``) for one ``option`` filter of that game:
    ``big_map`` (used), ``name=value``, or ``standard``.

    >>> from domain.statistics import Column, Option
    >>> dice = Statistics(
    ...     game_columns=(Column("sides", "sides"), Column("loaded", "loaded die")),
    ...     options=(Option("sides", "sides", 6, 4, 20), Option("loaded", "loaded", 0, flag=True)),
    ... )
    >>> option_clause("loaded", dice), option_clause("sides", dice)
    (('x.loaded = ?', [1]), ('x.sides <> ?', [6]))
    >>> option_clause("sides=8", dice, "s")
    ('s.sides = ?', [8])
    >>> option_clause("standard", dice)
    ('x.sides = ? AND x.loaded = ?', [6, 0])
    """
    text = option.strip()
    if text == STANDARD:
        parts = [option_clause(f"{o.name}={_text(o.default)}", stats, alias) for o in stats.options]
        return " AND ".join(c for c, _ in parts), [p for _, ps in parts for p in ps]
    name, sep, raw = text.partition("=")
    found = stats.option(name.strip())
    if found is None:
        choices = ", ".join([*(o.name for o in stats.options), STANDARD])
        raise ValueError(f"unknown option {name.strip()!r}: choose from {choices}")
    column = f"{alias}.{found.column}"
    if not sep:  # the option is used: not at its default
        if found.default is None:
            return f"{column} IS NOT NULL", []
        return (f"{column} = ?", [1]) if found.flag else (f"{column} <> ?", [found.default])
    value = _value(raw.strip(), found)
    if value is not None and not found.low <= value <= found.high:
        shown = raw.strip()[:40]
        raise ValueError(f"{found.name} must be {found.low} … {found.high}, got {shown!r}")
    if value is None:
        return f"{column} IS NULL", []
    return f"{column} = ?", [value]


def check_option(option: str, game: str | None = None) -> None:
    """ValueError unless every comma-separated part of ``option`` is a filter of ``game``
    (or, none named, of the one game that has those options)."""
    rules = resolve(game, option)
    for part in _parts(option):
        option_clause(part, rules.statistics if rules else Statistics())


def _text(value: int | None) -> str:
    return "none" if value is None else str(value)


def _value(raw: str, option: Option) -> int | None:
    lowered = raw.lower()
    if lowered in ("none", "null", "off") and option.default is None:
        return None
    if lowered in ("true", "yes", "on"):
        return 1
    if lowered in ("false", "no", "off"):
        return 0
    try:
        return int(raw)
    except ValueError:
        raise ValueError(
            f"option value must be a number, true/false or none: {option.name}={raw[:40]!r}"
        ) from None


def storable(text: str) -> bool:
    """Whether ``text`` could be a stored name: no NUL and encodable as UTF-8 (no lone
    surrogate), as the record reader demands. Other names match no seat (and PostgreSQL
    could not even be asked about them).

    >>> storable("Ana"), storable("A\\x00"), storable("\\ud800")
    (True, False, False)
    """
    return text_problem(text, len(text)) is None


def moment(value: date | datetime, end: bool = False) -> str:
    """A ``since``/``until`` bound as stored text; a date ``until`` includes that whole day."""
    if not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day) + timedelta(days=1 if end else 0)
    return timestamp(value)


def among(alias: str, table: str) -> str:
    """The start of a filter keeping the rows of ``alias`` whose game has a row of ``table``
    (``x``) matching what follows, closed by ``)``: a subquery run once, not per row, for
    filters on an indexed column (a name, a seat attribute), whose rows a correlated
    ``EXISTS`` would scan anew for every game (SQLite picks that column's index over the
    game's: quadratic in the games that match).

    >>> among("g", "rm_seats") + "x.won = 1)"
    'g.game_id IN (SELECT x.game_id FROM rm_seats x WHERE x.won = 1)'
    """
    return f"{alias}.game_id IN (SELECT x.game_id FROM {table} x WHERE "


def like(text: str) -> str:
    """A LIKE pattern (``!`` escaping) of the values that hold ``text``.

    >>> like("50%_off")
    '%50!%!_off%'
    """
    return "%" + text.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%"


def game_filters(
    *,
    rules: Ruleset | None = None,
    players: int | None = None,
    option: str | None = None,
    since: date | datetime | None = None,
    until: date | datetime | None = None,
    tag: str | None = None,
    q: str | None = None,
    player: str | None = None,
    attributes: Mapping[str, str | None] | None = None,
    winner: str | None = None,
    include_private: bool = False,
    viewer: str | None = None,
    finished_only: bool = False,
    alias: str = "g",
    own: bool = False,
) -> Where:
    """Conditions on games (``since``/``until``: when the game was played, its record's
    ``meta.played_on`` or else its upload; ``until`` excludes that moment; a date, that
    day's end).

    ``rules``: the games of that ruleset only (None: every game); ``option`` and
    ``attributes`` (a seat attribute's value, ``{"terrain": "tundra"}``) are that game's
    and need it. Private games are left out, except with ``include_private`` (all of
    them) or those uploaded by ``viewer`` (a token's name; on ``rm_games`` only).

    ``tag``: games with that tag (surrounding space and ASCII case ignored); ``q``: games
    whose title or a seat's player key holds that text (a name's case and accents ignored,
    as :func:`~domain.players.name_key` does; a title's case, for ASCII letters only on
    SQLite). ``player`` and ``winner`` name players, through their merged names.

    ``alias`` names the table: ``rm_games``, or a table of seat rows (which repeat the game
    columns filtered on): ``rm_seats``, or (``own``) the game's own table, which also holds
    its options and seat attribute.
    """
    where = Where()
    if viewer is not None and not include_private:
        where.add(f"({alias}.visibility = ? OR {alias}.uploaded_by = ?)", "public", viewer)
    elif not include_private:
        where.add(f"{alias}.visibility = ?", "public")
    if rules is not None and not own:
        where.add(f"{alias}.game = ?", rules.name)
    if finished_only:
        where.add(f"{alias}.finished = ?", 1)
    if players is not None:
        where.add(f"{alias}.players = ?", players)
    asked = {name: value for name, value in (attributes or {}).items() if value is not None}
    if (_parts(option) or asked) and rules is None:
        raise ValueError("options and seat attributes are a game's: name the game")
    if rules is not None:
        stats = rules.statistics
        for name in asked:
            if stats.attribute != name:
                raise ValueError(f"{name!r} is not a seat attribute of {rules.name}")
        here = alias if own else "x"
        options = [option_clause(part, stats, here) for part in _parts(option)]
        seats = [(f"{here}.{name} = ?", [value]) for name, value in asked.items()]
        extras = LIVE.extras(rules.name)
        inside = f"EXISTS (SELECT 1 FROM {extras} x WHERE x.game_id = {alias}.game_id AND "
        for clause, params in options:  # the game's columns: on its first seat's row
            where.add(clause if own else inside + f"x.seat = 0 AND {clause})", *params)
        for clause, params in seats:  # a seat's: on any seat's
            where.add(clause if own else among(alias, extras) + f"{clause})", *params)
    if since is not None:
        where.add(f"{alias}.played_at >= ?", moment(since))
    if until is not None:
        where.add(f"{alias}.played_at < ?", moment(until, end=True))
    seat = f"EXISTS (SELECT 1 FROM {SEATS} x WHERE x.game_id = {alias}.game_id AND "
    named = among(alias, SEATS)
    game = f"EXISTS (SELECT 1 FROM {GAMES} t WHERE t.game_id = {alias}.game_id AND "
    if not all(storable(text) for text in (player, winner, tag, q) if text):
        where.add("1 = 0")
        return where
    if tag and tag.strip():  # a whole tag, as stored (stripped); ASCII case ignored
        tagged = like(json.dumps(tag.strip()).lower())
        where.add(game + "LOWER(t.tags) LIKE ? ESCAPE '!')", tagged)
    if q:
        title, name = like(q.casefold()), like(name_key(q))
        where.add(f"({game}LOWER(COALESCE(t.title, '')) LIKE ? ESCAPE '!') OR "
                  f"{seat}x.name_key LIKE ? ESCAPE '!'))", title, name)  # fmt: skip
    if player:
        where.add(named + f"x.name_key = {PLAYER_OF})", *[name_key(player)] * 2)
    if winner:
        where.add(named + f"x.name_key = {PLAYER_OF} AND x.won = 1)", *[name_key(winner)] * 2)
    return where
