"""Filters shared by the game list and the statistics, as SQL over ``rm_games g``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from domain.bounds import INT32_MAX, text_problem
from domain.wolves.records import OPTION_RANGES
from domain.wolves.setup import Options
from projections.summaries import OPTION_COLUMNS, name_key, option_value
from projections.tables import SEATS, timestamp

DEFAULTS = {name: option_value(getattr(Options(), name)) for name in OPTION_COLUMNS}
"""Each option's stored value when it is not used (W-12)."""


def _value_range(name: str) -> tuple[int, int]:
    """The values an integer option may take: what the record reader accepts, within what
    the read models' columns hold."""
    low, high = OPTION_RANGES[name]
    return max(0, low), min(INT32_MAX, high)


VALUE_RANGES = {
    name: _value_range(name) for name, default in DEFAULTS.items()
    if not isinstance(getattr(Options(), name), bool)
}  # fmt: skip
"""The range of each option that takes a number (``lone_wolves_per_region=3``)."""


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


def option_clause(option: str, alias: str = "g") -> tuple[str, list[Any]]:
    """SQL for one option filter: ``big_map`` (used), ``name=value``, or ``standard``.

    >>> option_clause("big_map")
    ('g.opt_big_map = ?', [1])
    >>> option_clause("stall_limit_rounds=10", "s")
    ('s.opt_stall_limit = ?', [10])
    >>> option_clause("standard")[0].count("AND")
    4
    """
    text = option.strip()
    if text == "standard":
        parts = [option_clause(f"{n}={_text(value)}", alias) for n, value in DEFAULTS.items()]
        return " AND ".join(c for c, _ in parts), [p for _, ps in parts for p in ps]
    name, sep, raw = text.partition("=")
    column = OPTION_COLUMNS.get(name.strip())
    if column is None:
        choices = ", ".join([*OPTION_COLUMNS, "standard"])
        raise ValueError(f"unknown option {name!r}: choose from {choices}")
    column = f"{alias}.{column}"
    default = DEFAULTS[name.strip()]
    if not sep:  # the option is used: not at its default
        if default is None:
            return f"{column} IS NOT NULL", []
        return (f"{column} = ?", [1]) if default == 0 else (f"{column} <> ?", [default])
    value = _value(raw.strip(), option)
    low, high = VALUE_RANGES.get(name.strip(), (0, 1))
    if value is not None and not low <= value <= high:
        raise ValueError(f"{name.strip()} must be {low} … {high}, got {raw.strip()[:40]!r}")
    if value is None:
        return f"{column} IS NULL", []
    return f"{column} = ?", [value]


def _text(value: int | None) -> str:
    return "none" if value is None else str(value)


def _value(raw: str, option: str) -> int | None:
    lowered = raw.lower()
    if lowered in ("none", "null", "off") and "stall" in option:
        return None
    if lowered in ("true", "yes", "on"):
        return 1
    if lowered in ("false", "no", "off"):
        return 0
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"option value must be a number, true/false or none: {option!r}") from None


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


def game_filters(
    *,
    players: int | None = None,
    option: str | None = None,
    since: date | datetime | None = None,
    until: date | datetime | None = None,
    player: str | None = None,
    terrain: str | None = None,
    winner: str | None = None,
    include_private: bool = False,
    viewer: str | None = None,
    finished_only: bool = False,
    alias: str = "g",
) -> Where:
    """Conditions on games (``until`` excludes that moment; a date, that day's end).

    Private games are left out, except with ``include_private`` (all of them) or those
    uploaded by ``viewer`` (a token's name; on ``rm_games`` only).

    ``alias`` names the table: ``rm_games``, or ``rm_seats`` (which repeats the game
    columns filtered on).
    """
    where = Where()
    if viewer is not None and not include_private:
        where.add(f"({alias}.visibility = ? OR {alias}.uploaded_by = ?)", "public", viewer)
    elif not include_private:
        where.add(f"{alias}.visibility = ?", "public")
    if finished_only:
        where.add(f"{alias}.finished = ?", 1)
    if players is not None:
        where.add(f"{alias}.players = ?", players)
    if option:
        for part in option.split(","):
            if part.strip():
                clause, params = option_clause(part, alias)
                where.add(clause, *params)
    if since is not None:
        where.add(f"{alias}.uploaded_at >= ?", moment(since))
    if until is not None:
        where.add(f"{alias}.uploaded_at < ?", moment(until, end=True))
    seat = f"EXISTS (SELECT 1 FROM {SEATS} x WHERE x.game_id = {alias}.game_id AND "
    if not all(storable(name) for name in (player, winner) if name):
        where.add("1 = 0")
        return where
    if player:
        where.add(seat + "x.name_key = ?)", name_key(player))
    if terrain:
        where.add(seat + "x.terrain = ?)", terrain)
    if winner:
        where.add(seat + "x.name_key = ? AND x.won = 1)", name_key(winner))
    return where
