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
from domain.wolves.setup import Options
from projections.db import Database
from projections.filters import Where
from projections.summaries import GAME_COLUMNS, OPTION_COLUMNS, SEAT_COLUMNS, seat_json
from projections.tables import GAMES, SEATS, TIMELINES
from projections.timeline import expand

DEFAULT_OPTIONS = Options()

SORTS = {
    "uploaded_at": "g.uploaded_at",
    "title": "COALESCE(g.title, '')",
    "players": "g.players",
    "turns": "g.turns",
    "actions": "g.actions",
    "top_vp": "g.top_vp",
}
"""What the game list can be sorted by (``-`` in front: descending)."""

MAX_LIMIT = 500


@dataclass(frozen=True)
class GamePage:
    """One page of game summaries; pass ``next_cursor`` back to get the next page."""

    items: list[dict[str, Any]] = field(default_factory=list)
    next_cursor: str | None = None
    total: int = 0


def game_json(row: dict[str, Any]) -> dict[str, Any]:
    """A game's summary as the API shows it, from its row (the ``GAME_COLUMNS``)."""
    return {
        "game_id": row["game_id"],
        "title": row["title"],
        "tags": json.loads(row["tags"]),
        "visibility": row["visibility"],
        "uploaded_at": row["uploaded_at"],
        "uploaded_by": row["uploaded_by"],
        "rules_version": row["rules_version"],
        "players": row["players"],
        "options": {
            name: bool(row[column]) if isinstance(getattr(DEFAULT_OPTIONS, name), bool)
            else row[column]
            for name, column in OPTION_COLUMNS.items()
        },
        "turns": row["turns"],
        "actions": row["actions"],
        "events": row["events"],
        "finished": bool(row["finished"]),
        "end_reason": row["end_reason"],
        "top_vp": row["top_vp"],
        "winners": json.loads(row["winners"]),
    }  # fmt: skip


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
    if key in ("uploaded_at", "title"):
        if not isinstance(value, str) or len(value) > MAX_TEXT_CURSOR or "\x00" in value:
            return False
        if key == "title":
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
    key = sort.removeprefix("-")
    expr = SORTS.get(key)
    if expr is None:
        raise ValueError(f"unknown sort {sort!r}: choose from {', '.join(SORTS)}")
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
        rows = db.execute(
            conn,
            f"SELECT {columns}, {expr} FROM {GAMES} g {page.sql()} "
            f"ORDER BY {expr} {order}, g.game_id {order} LIMIT ?",
            [*page.params, limit + 1],
        ).fetchall()
        more = len(rows) > limit
        rows = rows[:limit]
        seats = _seats(
            db, conn, [r[0] for r in rows], ("seat", "name", "color", "terrain", "total", "place")
        )
    items = []
    for row in rows:
        item = game_json(dict(zip(GAME_COLUMNS, row, strict=False)))
        item["seats"] = seats.get(row[0], [])
        items.append(item)
    last = rows[-1] if rows else None
    next_cursor = encode_cursor(sort, last[-1], last[0]) if more and last else None
    return GamePage(items, next_cursor, total)


def _seats(
    db: Database, conn: Any, game_ids: list[str], columns: tuple[str, ...]
) -> dict[str, list[dict[str, Any]]]:
    if not game_ids:
        return {}
    marks = ", ".join("?" * len(game_ids))
    rows = db.execute(
        conn,
        f"SELECT game_id, {', '.join(columns)} FROM {SEATS} WHERE game_id IN ({marks}) "
        "ORDER BY game_id, seat",
        game_ids,
    ).fetchall()
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(row[0], []).append(dict(zip(columns, row[1:], strict=True)))
    return out


def summary(db: Database, game_id: UUID) -> dict[str, Any] | None:
    """A game's summary with every seat's row, or None."""
    gid = str(game_id)
    columns = ", ".join(GAME_COLUMNS)
    with db.reading() as conn:
        row = db.execute(
            conn, f"SELECT {columns} FROM {GAMES} WHERE game_id = ?", (gid,)
        ).fetchone()
        if row is None:
            return None
        seats = _seats(db, conn, [gid], SEAT_COLUMNS[1:]).get(gid, [])
    game = game_json(dict(zip(GAME_COLUMNS, row, strict=True)))
    game["seats"] = [seat_json({**s, "prey": json.loads(s["prey"])}) for s in seats]
    return game


def timeline(db: Database, game_id: UUID) -> list[dict[str, Any]] | None:
    """A game's stored timeline (kept compact, see ``projections.timeline``), or None."""
    rows = db.fetchall(f"SELECT doc FROM {TIMELINES} WHERE game_id = ?", (str(game_id),))
    return expand(orjson.loads(rows[0][0])) if rows else None
