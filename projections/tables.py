"""The read-model tables, their indexes, and the tracking rows of their log positions.

``VERSION`` names the layout: tables of another version are dropped and rebuilt from the
event store on first use, so changing a table only means bumping it. Each registered game
has a table of its own holding the columns its ruleset declares (``Ruleset.statistics``):
when one is missing or its columns differ from the declaration, the tables are rebuilt the
same way, so adding a game or changing its columns needs no bump. A rebuild fills a set
of tables beside the live ones (:data:`BESIDE`) and :func:`swap` puts it in their place in
one transaction, so readers always find a whole set.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from domain.games import ruleset, rulesets
from domain.ruleset import Ruleset
from projections.db import READ_GATE, Database
from projections.summaries import SEAT_COLUMNS, own_columns

VERSION = 14
TRACKER = "readmodels"
"""The tracking row of these read models."""

GAMES = "rm_games"
SEATS = "rm_seats"
TIMELINES = "rm_timelines"
FAILURES = "rm_failures"
ALIASES = "rm_aliases"
TRACKING = "rm_tracking"
PROJECTED = "projected"
"""The column of the seats' table holding the log position of the batch that last wrote or
changed the game's rows (what the ratings rate on from; 0 for rows written otherwise)."""
EXTRAS = "rm_x_"
"""The prefix of each game's own table (``rm_x_take_away``): its seats' rows with the
columns the game declares."""
LOCK = 0x486F776C
"""The PostgreSQL advisory lock taken while tables are created, dropped or swapped."""
SWAP_LOCK_WAIT = 1.0
"""Seconds a swap waits for the readers of the live tables before trying again later."""
SWAP_ATTEMPTS = 20
"""Times a swap waits ``SWAP_LOCK_WAIT`` before it waits as long as the readers take."""
GROWN = 0.2
"""The share of a table's rows (as PostgreSQL last counted them, plus :data:`GROWN_ROWS`)
written since its planner statistics were taken, past which :func:`restat` takes them anew."""
GROWN_ROWS = 50
T = TypeVar("T")

_TEXT_SEAT_COLUMNS = {"game_id", "name", "name_key", "color", "attribute", "game",
                      "visibility", "uploaded_at", "played_at"}  # fmt: skip
_NULLABLE_SEAT_COLUMNS = {"started", "attribute"}
FAILURE_COLUMNS = ("game_id", "position", "version", "stage", "error", "failed_at")
"""A game that could not be projected: the log position and stream version of the event
it failed on, the stage (``read``, ``fold`` or ``write``), the error, and when."""


def extras_name(game: str) -> str:
    """The name of a game's own table (without a layout's suffix).

    >>> extras_name("take-away")
    'rm_x_take_away'
    """
    slug = re.sub(r"[^a-z0-9]", "_", game.lower())
    if len(slug) > 40:
        raise ValueError(f"game {game!r}: a name of at most 40 characters makes its table")
    return EXTRAS + slug


@dataclass(frozen=True)
class Layout:
    """The names of one set of read-model tables and of its tracking row: the live set
    (``suffix`` empty) or one being built beside it (``_new``). A set holds a table of its
    own for each registered game (see :func:`extras`)."""

    suffix: str = ""

    @property
    def games(self) -> str:
        """The game rows."""
        return GAMES + self.suffix

    @property
    def seats(self) -> str:
        """The seat rows."""
        return SEATS + self.suffix

    @property
    def timelines(self) -> str:
        """The timeline documents."""
        return TIMELINES + self.suffix

    @property
    def failures(self) -> str:
        """The games that could not be projected."""
        return FAILURES + self.suffix

    def extras(self, game: str) -> str:
        """The game ``game``'s own table: its seats' rows with the columns it declares
        (``Ruleset.statistics``)."""
        return extras_name(game) + self.suffix

    @property
    def seat_tables(self) -> tuple[str, ...]:
        """The tables holding seat rows (which repeat game columns): the seats, and each
        registered game's own."""
        return (self.seats, *(self.extras(rules.name) for rules in rulesets()))

    @property
    def aliases(self) -> str:
        """The players' merged names: each alias's key, its player's key and shown name
        (a player's own key is one of its rows, with the name merges show it by)."""
        return ALIASES + self.suffix

    @property
    def game_tables(self) -> tuple[str, ...]:
        """The tables of games' rows, timelines first (the order rows are deleted in), each
        registered game's own before the failures, last."""
        own = tuple(self.extras(rules.name) for rules in rulesets())
        return (self.timelines, self.seats, self.games, *own, self.failures)

    @property
    def tables(self) -> tuple[str, ...]:
        """Every table: :attr:`game_tables`, then the aliases."""
        return (*self.game_tables, self.aliases)

    @property
    def tracker(self) -> str:
        """The name of the tracking row of its log position."""
        return TRACKER + self.suffix


LIVE = Layout()
"""The tables readers read."""
BESIDE = Layout("_new")
"""The tables a rebuild fills before they replace the live ones."""


Shape = list[tuple[str, str, bool]]
"""A table's columns: name, SQL type, whether it may be NULL."""


_SCANNED_TEXT = ("visibility", "game", "played_at")
"""The text columns of seat rows that scans filter on."""


def _packed(shape: Shape) -> Shape:
    """``shape`` in the order its table is laid out: integers (those never NULL first), then
    the text filtered on, then other text, so that a scan reads what it filters and sums
    without stepping over long text first (PostgreSQL finds a column after text by walking
    each value before it).

    >>> [name for name, *_ in _packed([("name", "TEXT", False), ("started", "INTEGER", True),
    ...  ("visibility", "TEXT", False), ("total", "INTEGER", False)])]
    ['total', 'started', 'visibility', 'name']
    """
    return sorted(
        shape,
        key=lambda c: (c[1] == "TEXT", c[1] == "TEXT" and c[0] not in _SCANNED_TEXT, c[2]),
    )


def _seat_columns() -> Shape:
    """The generic columns of a seat's row."""
    return _packed(
        [(c, "TEXT" if c in _TEXT_SEAT_COLUMNS else "INTEGER", c in _NULLABLE_SEAT_COLUMNS)
         for c in SEAT_COLUMNS]
    )  # fmt: skip


def _extras_shape(rules: Ruleset) -> Shape:
    """The columns of a game's own table."""
    own_columns(rules.statistics)  # no declared column takes a generic one's name
    return _packed([
        *((c.name, "TEXT" if c.kind == "text" else "INTEGER", c.nullable)
          for c in rules.statistics.columns),
        *_seat_columns(),
    ])  # fmt: skip


def _columns_sql(shape: Shape) -> str:
    return ", ".join(
        f"{name} {kind}{'' if nullable else ' NOT NULL'}" for name, kind, nullable in shape
    )


def _extras_ddl(rules: Ruleset, layout: Layout, tag: str) -> list[str]:
    table = layout.extras(rules.name)
    columns = _columns_sql(_extras_shape(rules))
    slug = table.removeprefix(EXTRAS)
    made = [
        f"CREATE TABLE {table} ({columns}, PRIMARY KEY (game_id, seat))",
        f"CREATE INDEX ix_{tag}_{slug}_name_key ON {table} (name_key)",
    ]
    attribute = rules.statistics.attribute
    if attribute is not None:
        made.append(f"CREATE INDEX ix_{tag}_{slug}_{attribute} ON {table} ({attribute})")
    return made


def ddl(layout: Layout) -> list[str]:
    """The statements creating ``layout``'s tables and indexes.

    Index names carry a tag of their own, so tables renamed by a swap never clash with the
    indexes of the next set built beside them.
    """
    g, s, t, f, a = layout.games, layout.seats, layout.timelines, layout.failures, layout.aliases
    tag = uuid.uuid4().hex[:10]
    return [
        f"""CREATE TABLE {g} (
            players INTEGER NOT NULL,
            turns INTEGER NOT NULL,
            actions INTEGER NOT NULL,
            events INTEGER NOT NULL,
            finished INTEGER NOT NULL,
            top_score INTEGER NOT NULL,
            version INTEGER NOT NULL,
            visibility TEXT NOT NULL,
            game TEXT NOT NULL,
            played_at TEXT NOT NULL,
            uploaded_at TEXT NOT NULL,
            game_id TEXT PRIMARY KEY,
            tags TEXT NOT NULL,
            rules_version TEXT NOT NULL,
            winners TEXT NOT NULL,
            names_key TEXT NOT NULL,
            winner_key TEXT NOT NULL,
            extras TEXT NOT NULL,
            title TEXT,
            uploaded_by TEXT,
            end_reason TEXT
        )""",
        f"CREATE TABLE {s} ({_columns_sql(_seat_columns())}, "
        f"{PROJECTED} BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (game_id, seat))",
        f"CREATE TABLE {t} (game_id TEXT PRIMARY KEY, doc TEXT NOT NULL)",
        f"""CREATE TABLE {f} (
            game_id TEXT PRIMARY KEY,
            position BIGINT NOT NULL,
            version BIGINT NOT NULL,
            stage TEXT NOT NULL,
            error TEXT NOT NULL,
            failed_at TEXT NOT NULL
        )""",
        f"""CREATE TABLE {a} (
            name_key TEXT PRIMARY KEY,
            player_key TEXT NOT NULL,
            player TEXT NOT NULL
        )""",
        f"CREATE INDEX ix_{tag}_player_key ON {a} (player_key)",
        f"CREATE INDEX ix_{tag}_uploaded_at ON {g} (uploaded_at, game_id)",
        f"CREATE INDEX ix_{tag}_players ON {g} (players, finished, visibility)",
        f"CREATE INDEX ix_{tag}_game ON {g} (game, uploaded_at)",
        f"CREATE INDEX ix_{tag}_played_at ON {g} (played_at, game_id)",
        f"CREATE INDEX ix_{tag}_names ON {g} (names_key, game_id)",
        f"CREATE INDEX ix_{tag}_winner ON {g} (winner_key, game_id)",
        f"CREATE INDEX ix_{tag}_name_key ON {s} (name_key)",
        f"CREATE INDEX ix_{tag}_projected ON {s} ({PROJECTED})",
        *(statement for rules in rulesets() for statement in _extras_ddl(rules, layout, tag)),
    ]


def insert_extras(
    db: Database, conn: Any, layout: Layout, extras: list[tuple[str, list[tuple[Any, ...]]]]
) -> None:
    """Insert games' seat rows into their games' own tables (each a game's name and rows)."""
    by_game: dict[str, list[tuple[Any, ...]]] = {}
    for game, rows in extras:
        by_game.setdefault(game, []).extend(rows)
    for game, rows in by_game.items():
        columns = own_columns(ruleset(game).statistics)
        db.insert(conn, layout.extras(game), columns, rows)


def midnight(day: date) -> datetime:
    """A day's first moment, UTC."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def timestamp(moment: datetime) -> str:
    """How times are stored: ISO 8601 in UTC with microseconds, so text order is time order.

    >>> timestamp(datetime(2026, 5, 1, 12, 30, tzinfo=UTC))
    '2026-05-01T12:30:00.000000+00:00'
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def ensure(db: Database) -> None:
    """Create the tables when missing; drop and recreate them when of another ``VERSION``
    or when a registered game's own table is missing or has other columns than the game
    declares (a game added, or its columns changed) — in one transaction, taking the live
    tables as :func:`swap` does: readers see the old tables or the new, empty ones, and
    none fails. Tables of games not registered here are left alone."""
    _retried(lambda wait: _ensure(db, wait))


def _ensure(db: Database, wait: bool) -> None:
    with db.connect() as conn:  # most find them made, and need not wait for the lock
        if _shape(db, conn, TRACKING) and _current(db, conn):
            return
    with db.connect() as conn:
        _lock(db, conn)
        if _current(db, conn):  # made meanwhile
            return
        if _version(db, conn, LIVE) is not None:
            _take_live(db, conn, wait)
        _create(db, conn, LIVE)


def _current(db: Database, conn: Any) -> bool:
    """Whether the live tables are of this ``VERSION``, each registered game's own table
    with the columns it declares."""
    return _version(db, conn, LIVE) == VERSION and all(
        _shape(db, conn, LIVE.extras(rules.name)) == _extras_shape(rules) for rules in rulesets()
    )


def prepare(db: Database, layout: Layout) -> None:
    """Create ``layout``'s tables afresh (dropping any left by an earlier attempt), tracked
    from the beginning of the log."""
    ensure(db)
    with db.connect() as conn:
        _lock(db, conn)
        hold(db, conn, layout)  # a batch of another rebuild under way finishes first
        _create(db, conn, layout)


def swap(db: Database, layout: Layout) -> int:
    """Make ``layout``'s tables the live ones, with their log position, in one transaction:
    the live tables are dropped and ``layout``'s renamed in their place. Returns the position.

    The live tracking row is locked first, as every batch written locks it, so a runner
    writing to the live tables finishes before and starts again from the new position after.
    """
    return _retried(lambda wait: _swap(db, layout, wait))


def _swap(db: Database, layout: Layout, wait: bool) -> int:
    with db.connect() as conn:
        _lock(db, conn)
        hold(db, conn)
        _take_live(db, conn, wait)
        moved = position(db, conn, layout)
        for old, new in zip(LIVE.tables, layout.tables, strict=True):
            db.execute(conn, f"DROP TABLE IF EXISTS {old}")
            db.execute(conn, f"ALTER TABLE {new} RENAME TO {old}")
        db.execute(conn, f"DELETE FROM {TRACKING} WHERE name = ?", (layout.tracker,))
        db.execute(
            conn,
            f"UPDATE {TRACKING} SET position = ?, version = ? WHERE name = ?",
            (moved, VERSION, TRACKER),
        )
    return moved


class _LiveBusy(Exception):
    """The readers of the live tables did not let go in time."""


def _retried(change: Callable[[bool], T]) -> T:
    """``change(wait=True)`` until the live tables are taken in time, ``SWAP_ATTEMPTS``
    times, then once waiting as long as it takes."""
    for _ in range(SWAP_ATTEMPTS):
        try:
            return change(True)
        except _LiveBusy:
            time.sleep(0.05)  # the reads queued behind the attempt go through
    return change(False)


def _take_live(db: Database, conn: Any, wait: bool) -> None:
    """On PostgreSQL, take the :data:`~projections.db.READ_GATE` and then the live tables
    that exist, waiting at most ``SWAP_LOCK_WAIT`` (``wait``): the reads under way finish
    first, and those that come later wait for the swap's commit (SQLite's readers read
    their snapshot, old tables included, and need no lock)."""
    if not db.postgres:
        return
    from psycopg.errors import DeadlockDetected, LockNotAvailable

    rows = db.execute(
        conn,
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
        f"AND tablename IN ({', '.join('?' * len(LIVE.tables))})",
        LIVE.tables,
    ).fetchall()
    if wait:
        db.execute(conn, f"SET LOCAL lock_timeout = '{int(SWAP_LOCK_WAIT * 1000)}ms'")
    try:
        db.execute(conn, "SELECT pg_advisory_xact_lock(?)", (READ_GATE,))
        if rows:
            names = ", ".join(r[0] for r in rows)
            db.execute(conn, f"LOCK TABLE {names} IN ACCESS EXCLUSIVE MODE")
    except (LockNotAvailable, DeadlockDetected):  # a reader outside the gate held on
        raise _LiveBusy from None
    db.execute(conn, "SET LOCAL lock_timeout = 0")


def restat(db: Database, layout: Layout = LIVE) -> list[str]:
    """On PostgreSQL, take anew the planner statistics of ``layout``'s tables written to by
    more than :data:`GROWN` of their rows since they were last taken; answers their names.

    Autovacuum looks once a minute: a club night's uploads grow the tables from dozens of
    games to thousands in that time, and plans chosen for dozens (a nested loop over the
    seats) then read lists 10–20 times slower."""
    if not db.postgres:
        return []
    with db.connect() as conn:
        grown = [name for (name,) in db.execute(
            conn,
            "SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid "
            "WHERE s.schemaname = current_schema() AND s.relname = ANY(?) "
            "AND s.n_mod_since_analyze > ? + ? * GREATEST(c.reltuples, 0)",
            (list(layout.tables), GROWN_ROWS, GROWN),
        ).fetchall()]  # fmt: skip
        for name in grown:
            db.execute(conn, f"ANALYZE {name}")
    return grown


def _lock(db: Database, conn: Any) -> None:
    """Make sure the tracking table exists; on PostgreSQL, one process at a time goes on."""
    if db.postgres:
        db.execute(conn, "SELECT pg_advisory_xact_lock(?)", (LOCK,))
    db.execute(
        conn,
        f"CREATE TABLE IF NOT EXISTS {TRACKING} (name TEXT PRIMARY KEY, "
        "position BIGINT NOT NULL, version INTEGER NOT NULL)",
    )


def _shape(db: Database, conn: Any, table: str) -> Shape:
    """A table's columns as the database has them (none: no such table)."""
    if db.postgres:
        rows = db.execute(
            conn,
            "SELECT column_name, data_type, is_nullable = 'YES' FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        ).fetchall()
    else:
        info = db.execute(conn, f"PRAGMA table_info({table})").fetchall()
        rows = [(name, kind, not notnull and not key) for _, name, kind, notnull, _, key in info]
    return [(name, kind.upper(), bool(nullable)) for name, kind, nullable in rows]


def _version(db: Database, conn: Any, layout: Layout) -> int | None:
    row = db.execute(
        conn, f"SELECT version FROM {TRACKING} WHERE name = ?", (layout.tracker,)
    ).fetchone()
    return None if row is None else int(row[0])


def _create(db: Database, conn: Any, layout: Layout) -> None:
    for table in layout.tables:
        db.execute(conn, f"DROP TABLE IF EXISTS {table}")
    for statement in ddl(layout):
        db.execute(conn, statement)
    db.execute(conn, f"DELETE FROM {TRACKING} WHERE name = ?", (layout.tracker,))
    db.execute(
        conn,
        f"INSERT INTO {TRACKING} (name, position, version) VALUES (?, 0, ?)",
        (layout.tracker, VERSION),
    )


def position(db: Database, conn: Any | None = None, layout: Layout = LIVE) -> int:
    """The last notification id ``layout``'s tables include (0: none)."""
    query = f"SELECT position FROM {TRACKING} WHERE name = ?"
    if conn is not None:
        row = db.execute(conn, query, (layout.tracker,)).fetchone()
    else:
        rows = db.fetchall(query, (layout.tracker,))
        row = rows[0] if rows else None
    return int(row[0]) if row else 0


def state(db: Database, conn: Any | None = None) -> tuple[int, int]:
    """Where the live read models stand: their log position and how many games failed (an
    answer made from them holds while both stay as they are)."""
    query = f"SELECT COUNT(*) FROM {FAILURES}"
    if conn is not None:
        return position(db, conn), int(db.execute(conn, query).fetchone()[0])
    with db.reading() as reading:
        return state(db, reading)


def hold(db: Database, conn: Any, layout: Layout = LIVE) -> int:
    """Lock ``layout``'s tracking row until the transaction ends (no batch is written
    meanwhile); returns its position."""
    db.execute(conn, f"UPDATE {TRACKING} SET position = position WHERE name = ?", (layout.tracker,))
    return position(db, conn, layout)


def advance(db: Database, conn: Any, old: int, new: int, layout: Layout = LIVE) -> bool:
    """Move ``layout``'s tracked position from ``old`` to ``new`` (``old`` itself: hold it
    still, locking its row); False when it is no longer ``old``."""
    cursor = db.execute(
        conn,
        f"UPDATE {TRACKING} SET position = ? WHERE name = ? AND position = ?",
        (new, layout.tracker, old),
    )
    if cursor.rowcount == 1:
        return True
    query = f"SELECT 1 FROM {TRACKING} WHERE name = ?"
    if db.execute(conn, query, (layout.tracker,)).fetchone() is None:
        raise TrackingGone(f"the tracking row {layout.tracker!r} is gone: another run swapped "
                           "its tables in or dropped them")  # fmt: skip
    return False


class TrackingGone(Exception):
    """The tables a runner writes lost their tracking row (another rebuild swapped them in)."""
