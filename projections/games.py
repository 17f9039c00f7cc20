"""Reading games back: pages of the game list, one game's summary, one game's timeline."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson

from domain.bounds import INT32_MAX
from domain.games import UnknownGame, ruleset, rulesets
from domain.statistics import Statistics
from projections.db import Database
from projections.filters import Where
from projections.summaries import GAME_COLUMNS, SEAT_COLUMNS
from projections.tables import GAMES, LIVE, SEATS, TIMELINES
from projections.timeline import expand

SORTS = {
    "uploaded_at": "g.uploaded_at",
    "title": "COALESCE(g.title, '')",
    "players": "g.players",
    "turns": "g.turns",
    "actions": "g.actions",
    "top_score": "g.top_score",
    "names": "g.names_key",
    "winner": "g.winner_key",
}
"""What the game list can be sorted by (``-`` in front: descending): ``names`` is the seats'
names in seat order, ``winner`` the winners' (a game without one first), each name's case
and accents ignored (:func:`~projections.summaries.names_key`)."""
TEXT_SORTS = ("uploaded_at", "title", "names", "winner")
"""The sorts by a text column."""

MAX_LIMIT = 500
BRIEF = ("seat", "name", "color", "total", "place", "attribute")
"""The seat columns a page of the game list shows (the attribute under its game's name)."""


def sort_names() -> dict[str, str]:
    """Every sort the list takes, and the sort it is: each of :data:`SORTS`, and
    ``top_<score name>`` of each game (``top_vp``) for ``top_score``."""
    named = {f"top_{r.statistics.score_name}": "top_score" for r in rulesets()}
    return {**{key: key for key in SORTS}, **named}


def statistics_of(game: str) -> Statistics:
    """The statistics extras of the game called ``game`` (none for a game not registered
    here: its own columns are not read)."""
    try:
        return ruleset(game).statistics
    except UnknownGame:
        return Statistics()


@dataclass(frozen=True)
class GamePage:
    """One page of game summaries; pass ``next_cursor`` back to get the next page."""

    items: list[dict[str, Any]] = field(default_factory=list)
    next_cursor: str | None = None
    total: int = 0


def game_json(row: dict[str, Any]) -> dict[str, Any]:
    """A game's summary as the API shows it, from its row (the ``GAME_COLUMNS``): with its
    game's options and other columns (its ``extras``), and its top score under the game's
    name for it too."""
    stats = statistics_of(row["game"])
    options = {o.column: o for o in stats.options}
    own = dict(zip((c.name for c in stats.game_columns), orjson.loads(row["extras"]), strict=True))
    game = {
        "game_id": row["game_id"],
        "game": row["game"],
        "title": row["title"],
        "tags": orjson.loads(row["tags"]),
        "visibility": row["visibility"],
        "uploaded_at": row["uploaded_at"],
        "played_at": row["played_at"],
        "uploaded_by": row["uploaded_by"],
        "rules_version": row["rules_version"],
        "players": row["players"],
        "options": {
            o.name: bool(own[o.column]) if o.flag else own[o.column]
            for o in stats.options if o.column in own
        },
        **{c.name: own[c.name] for c in stats.game_columns
           if c.name not in options and c.name in own},
        "turns": row["turns"],
        "actions": row["actions"],
        "events": row["events"],
        "finished": bool(row["finished"]),
        "end_reason": row["end_reason"],
        "top_score": row["top_score"],
        "winners": orjson.loads(row["winners"]),
    }  # fmt: skip
    game[f"top_{stats.score_name}"] = row["top_score"]
    return game


def seat_json(row: dict[str, Any], own: dict[str, Any] | None) -> dict[str, Any]:
    """A seat's summary as the API shows it, from its row (the ``SEAT_COLUMNS``) and its
    row of its game's own table (``own``: its seat columns, shaped by the game's
    ``seat_json``)."""
    seat = {
        "seat": row["seat"],
        "name": row["name"],
        "color": row["color"],
        "total": row["total"],
        "place": row["place"],
        "winner": bool(row["won"]),
        "started": None if row["started"] is None else bool(row["started"]),
        "bot": bool(row["bot"]),
    }
    if own is not None:
        stats = statistics_of(row["game"])
        seat.update(stats.seat_json({c.name: own[c.name] for c in stats.seat_columns}))
    return seat


MAX_TEXT_CURSOR = 1000
"""Longest sort value a cursor may carry (a title)."""


class BadCursor(ValueError):
    """A ``cursor`` this server did not make for this sort."""


def encode_cursor(sort: str, value: Any, game_id: str) -> str:
    """An opaque cursor: where the next page starts for this sort."""
    raw = json.dumps([sort, value, game_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _sort_value(key: str, value: Any) -> bool:
    """Whether ``value`` is one the ``key`` column could hold (so the query cannot fail)."""
    if key in TEXT_SORTS:
        if not isinstance(value, str) or len(value) > MAX_TEXT_CURSOR or "\x00" in value:
            return False
        if key != "uploaded_at":
            return True
        try:
            return datetime.fromisoformat(value).tzinfo is not None
        except ValueError:
            return False
    return type(value) is int and 0 <= value <= INT32_MAX


def decode_cursor(cursor: str, sort: str) -> tuple[Any, str]:
    """The (sort value, game id) a cursor continues after; :class:`BadCursor` for a cursor
    that is not one of this server's for ``sort``.

    >>> decode_cursor(encode_cursor("players", 3, "7d0e8b66-1d2c-5c5e-9d44-0f9b6a3c2e11"),
    ...               "players")
    (3, '7d0e8b66-1d2c-5c5e-9d44-0f9b6a3c2e11')
    >>> decode_cursor(encode_cursor("-uploaded_at", [1], "x"), "-uploaded_at")
    Traceback (most recent call last):
    ...
    projections.games.BadCursor: not a cursor of this list
    """
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        made_for, value, game_id = json.loads(raw)
        game_id = str(UUID(game_id)) if isinstance(game_id, str) else None
    except (ValueError, TypeError, RecursionError):
        raise BadCursor("not a cursor of this list") from None
    if made_for != sort:
        raise BadCursor("the cursor was made for another sort")
    if game_id is None or not _sort_value(sort.removeprefix("-"), value):
        raise BadCursor("not a cursor of this list")
    return value, game_id


def list_games(db: Database, where: Where, sort: str, cursor: str | None, limit: int) -> GamePage:
    """One page of the games matching ``where``, in ``sort`` order."""
    descending = sort.startswith("-")
    key = sort_names().get(sort.removeprefix("-"))
    if key is None:
        raise ValueError(f"unknown sort {sort!r}: choose from {', '.join(sort_names())}")
    expr = SORTS[key]
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be 1 … {MAX_LIMIT}, got {limit}")
    columns = ", ".join(f"g.{c}" for c in GAME_COLUMNS)
    base = f"FROM {GAMES} g {where.sql()}"
    with db.reading() as conn:
        total = db.execute(conn, f"SELECT COUNT(*) {base}", where.params).fetchone()[0]
        page = Where(list(where.clauses), list(where.params))
        if cursor:
            value, after = decode_cursor(cursor, sort)
            op = "<" if descending else ">"
            page.add(f"({expr} {op} ? OR ({expr} = ? AND g.game_id {op} ?))", value, value, after)
        order = "DESC" if descending else "ASC"
        found = db.execute(
            conn,
            f"SELECT {columns}, {expr} FROM {GAMES} g {page.sql()} "
            f"ORDER BY {expr} {order}, g.game_id {order} LIMIT ?",
            [*page.params, limit + 1],
        ).fetchall()
        more = len(found) > limit
        rows = [dict(zip(GAME_COLUMNS, row, strict=False)) for row in found[:limit]]
        seats = _seats(db, conn, rows, BRIEF, own=False)
    items = []
    for row in rows:
        item = game_json(row)
        attribute = statistics_of(row["game"]).attribute
        item["seats"] = [_brief(seat, attribute) for seat, _ in seats.get(row["game_id"], [])]
        items.append(item)
    last = found[limit - 1] if more else None
    next_cursor = encode_cursor(sort, last[-1], last[0]) if last else None
    return GamePage(items, next_cursor, total)


def _brief(seat: dict[str, Any], attribute: str | None) -> dict[str, Any]:
    """A seat of a page of the game list: its attribute under its game's name for it."""
    value = seat.pop("attribute")
    return {**seat, attribute: value} if attribute else seat


def _seats(
    db: Database,
    conn: Any,
    games: list[dict[str, Any]],
    columns: tuple[str, ...],
    own: bool = True,
) -> dict[str, list[tuple[dict[str, Any], dict[str, Any] | None]]]:
    """The games' seats in seat order, by game id: each seat's ``columns`` and (``own``)
    its seat columns of its game's own table (None if the game has none), in one query."""
    if not games:
        return {}
    names = {game["game_id"]: game["game"] for game in games}
    select, joins = [f"s.{c}" for c in ("game_id", *columns)], []
    at: dict[str, tuple[int, tuple[str, ...]]] = {}  # per game: where its own columns are
    for index, name in enumerate(dict.fromkeys(names.values()) if own else ()):
        wanted = tuple(c.name for c in statistics_of(name).seat_columns)
        if not wanted:
            continue
        x = f"x{index}"
        at[name] = (len(select), wanted)
        select += [f"{x}.seat", *(f"{x}.{c}" for c in wanted)]
        joins.append(
            f"LEFT JOIN {LIVE.extras(name)} {x} ON {x}.game_id = s.game_id AND {x}.seat = s.seat"
        )
    marks = ", ".join("?" * len(names))
    rows = db.execute(
        conn,
        f"SELECT {', '.join(select)} FROM {SEATS} s {' '.join(joins)} "
        f"WHERE s.game_id IN ({marks}) ORDER BY s.game_id, s.seat",
        list(names),
    ).fetchall()
    out: dict[str, list[tuple[dict[str, Any], dict[str, Any] | None]]] = {}
    width = len(columns) + 1
    for row in rows:
        seat = dict(zip(columns, row[1:width], strict=True))
        extra, (first, own_columns) = None, at.get(names[row[0]], (0, ()))
        if own_columns and row[first] is not None:
            extra = dict(zip(own_columns, row[first + 1 :], strict=False))
        out.setdefault(row[0], []).append((seat, extra))
    return out


def summary(db: Database, game_id: UUID) -> dict[str, Any] | None:
    """A game's summary with every seat's row, or None."""
    gid = str(game_id)
    columns = ", ".join(GAME_COLUMNS)
    with db.reading() as conn:
        found = db.execute(
            conn, f"SELECT {columns} FROM {GAMES} WHERE game_id = ?", (gid,)
        ).fetchone()
        if found is None:
            return None
        row = dict(zip(GAME_COLUMNS, found, strict=True))
        seats = _seats(db, conn, [row], SEAT_COLUMNS[1:]).get(gid, [])
    game = game_json(row)
    game["seats"] = [seat_json(seat, extra) for seat, extra in seats]
    return game


def timeline(db: Database, game_id: UUID) -> list[dict[str, Any]] | None:
    """A game's stored timeline (kept compact, see ``projections.timeline``), or None."""
    rows = db.fetchall(f"SELECT doc FROM {TIMELINES} WHERE game_id = ?", (str(game_id),))
    return expand(orjson.loads(rows[0][0])) if rows else None
