"""The read-model tables, their indexes, and the tracking row of the log position.

``VERSION`` names the layout: tables of another version are dropped and rebuilt from the
event store on first use, so changing a table only means bumping it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from projections.sql import Database
from projections.summaries import OPTION_COLUMNS, SEAT_COLUMNS

VERSION = 3
TRACKER = "readmodels"
"""The tracking row of these read models."""

GAMES = "rm_games"
SEATS = "rm_seats"
TIMELINES = "rm_timelines"
TRACKING = "rm_tracking"
TABLES = (TIMELINES, SEATS, GAMES)

_TEXT_SEAT_COLUMNS = {"game_id", "name", "name_key", "color", "terrain", "prey", "visibility",
                      "uploaded_at"}  # fmt: skip
_INT_SEAT_COLUMNS = [c for c in SEAT_COLUMNS if c not in _TEXT_SEAT_COLUMNS]
_NULLABLE = set(OPTION_COLUMNS.values())

DDL = (
    f"""CREATE TABLE {GAMES} (
        game_id TEXT PRIMARY KEY,
        title TEXT,
        tags TEXT NOT NULL,
        visibility TEXT NOT NULL,
        uploaded_at TEXT NOT NULL,
        uploaded_by TEXT,
        rules_version TEXT NOT NULL,
        players INTEGER NOT NULL,
        {", ".join(f"{c} INTEGER" for c in OPTION_COLUMNS.values())},
        turns INTEGER NOT NULL,
        actions INTEGER NOT NULL,
        events INTEGER NOT NULL,
        finished INTEGER NOT NULL,
        end_reason TEXT,
        top_vp INTEGER NOT NULL,
        winners TEXT NOT NULL,
        version INTEGER NOT NULL
    )""",
    f"""CREATE TABLE {SEATS} (
        game_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        color TEXT NOT NULL,
        terrain TEXT NOT NULL,
        prey TEXT NOT NULL,
        visibility TEXT NOT NULL,
        uploaded_at TEXT NOT NULL,
        {
        ", ".join(
            f"{c} INTEGER{'' if c in _NULLABLE else ' NOT NULL'}"
            for c in _INT_SEAT_COLUMNS
            if c != "seat"
        )
    },
        PRIMARY KEY (game_id, seat)
    )""",
    f"""CREATE TABLE {TIMELINES} (
        game_id TEXT PRIMARY KEY,
        doc TEXT NOT NULL
    )""",
    f"CREATE INDEX {GAMES}_uploaded_at ON {GAMES} (uploaded_at, game_id)",
    f"CREATE INDEX {GAMES}_players ON {GAMES} (players, finished, visibility)",
    f"CREATE INDEX {SEATS}_name_key ON {SEATS} (name_key)",
    f"CREATE INDEX {SEATS}_terrain ON {SEATS} (terrain)",
)


def timestamp(moment: datetime) -> str:
    """How times are stored: ISO 8601 in UTC with microseconds, so text order is time order.

    >>> timestamp(datetime(2026, 5, 1, 12, 30, tzinfo=UTC))
    '2026-05-01T12:30:00.000000+00:00'
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def ensure(db: Database) -> None:
    """Create the tables when missing; drop and recreate them when of another ``VERSION``."""
    with db.connect() as conn:
        if db.postgres:  # one process at a time creates the tables
            db.execute(conn, "SELECT pg_advisory_xact_lock(?)", (0x486F776C,))
        db.execute(
            conn,
            f"CREATE TABLE IF NOT EXISTS {TRACKING} (name TEXT PRIMARY KEY, "
            "position BIGINT NOT NULL, version INTEGER NOT NULL)",
        )
        row = db.execute(
            conn, f"SELECT version FROM {TRACKING} WHERE name = ?", (TRACKER,)
        ).fetchone()
        if row is not None and row[0] == VERSION:
            return
        _create(db, conn)


def reset(db: Database) -> None:
    """Drop every read model and start again from the beginning of the log."""
    ensure(db)
    with db.connect() as conn:
        if db.postgres:
            db.execute(conn, "SELECT pg_advisory_xact_lock(?)", (0x486F776C,))
        _create(db, conn)


def _create(db: Database, conn: Any) -> None:
    for table in TABLES:
        db.execute(conn, f"DROP TABLE IF EXISTS {table}")
    for statement in DDL:
        db.execute(conn, statement)
    db.execute(conn, f"DELETE FROM {TRACKING} WHERE name = ?", (TRACKER,))
    db.execute(
        conn,
        f"INSERT INTO {TRACKING} (name, position, version) VALUES (?, 0, ?)",
        (TRACKER, VERSION),
    )


def position(db: Database, conn: Any | None = None) -> int:
    """The last notification id the read models include (0: none)."""
    query = f"SELECT position FROM {TRACKING} WHERE name = ?"
    if conn is not None:
        row = db.execute(conn, query, (TRACKER,)).fetchone()
    else:
        rows = db.fetchall(query, (TRACKER,))
        row = rows[0] if rows else None
    return int(row[0]) if row else 0


def advance(db: Database, conn: Any, old: int, new: int) -> bool:
    """Move the tracked position from ``old`` to ``new``; False when it is no longer ``old``."""
    cursor = db.execute(
        conn,
        f"UPDATE {TRACKING} SET position = ? WHERE name = ? AND position = ?",
        (new, TRACKER, old),
    )
    return cursor.rowcount == 1
