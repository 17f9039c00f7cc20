"""The ``analyses`` table: one review per game and analysis settings, with its progress.

A row is ``(game_id, settings_key)``: the settings it was asked with (JSON), ``status``
(``queued``, ``running``, ``done`` or ``failed``), ``progress`` (0…1), the review as JSON
when done or the error when failed, a queue number, a claim count (each claim bumps it,
so two workers never take one review) and a heartbeat (Unix seconds) that a running
review refreshes. It is a projection: dropping the table loses nothing that
asking again cannot recompute, and results of other settings keys live side by side.
The same SQL runs on SQLite and PostgreSQL through :class:`projections.db.Database`.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any, NamedTuple
from uuid import UUID

from domain import games
from domain.ruleset import DEFAULT_DEPTH, DEPTHS, Depth, ReviewSettings
from projections.db import Database

TABLE = "analyses"
STALE_SECONDS = 600.0
"""A running review whose heartbeat is older than this is taken to have died: it is redone."""

_DDL = (
    f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    game_id TEXT NOT NULL,
    settings_key TEXT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,
    progress DOUBLE PRECISION NOT NULL DEFAULT 0,
    result TEXT,
    error TEXT,
    seq INTEGER NOT NULL,
    claims INTEGER NOT NULL DEFAULT 0,
    heartbeat DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, settings_key)
)""",
    f"CREATE INDEX IF NOT EXISTS {TABLE}_seq ON {TABLE} (seq)",
    f"CREATE INDEX IF NOT EXISTS {TABLE}_queue ON {TABLE} (status, seq)",
)
_NEXT_SEQ = f"(SELECT COALESCE(MAX(seq), 0) + 1 FROM {TABLE})"
"""The next queue number (from the ``seq`` index, not a scan)."""
_made: set[str] = set()
_made_lock = threading.Lock()
POOLED = 4
"""Databases whose connections a process keeps in a pool for this table (the least recently
used one's are closed): a server has one, whose reviews' status is read on many requests."""
_pooled: OrderedDict[tuple[int, str], Database] = OrderedDict()
_pooled_lock = threading.Lock()


def _database(url: str) -> Database:
    """This process's connections to the database at ``url`` for this table: pooled on
    PostgreSQL (a connection there costs the server a process), one per use on SQLite."""
    if not url.startswith("postgres"):
        return Database(url, schema=None, pool_size=0)
    key = (os.getpid(), url)  # a pool does not survive a fork
    with _pooled_lock:
        found = _pooled.pop(key, None) or Database(url, schema=None, pool_size=2)
        _pooled[key] = found
        while len(_pooled) > POOLED:
            _pooled.popitem(last=False)[1].close()
    return found


def default_settings(depth: Depth = DEFAULT_DEPTH, **values: int) -> ReviewSettings:
    """Analysis settings of the registered games' review (the first reviewable ruleset's):
    those of ``depth`` (by default the settings asked for when nobody says), with
    ``values`` in place of theirs."""
    review = next(r.review for r in games.rulesets() if r.review is not None)
    return review.settings(**{**settings_values(review.depth(depth)), **values})


def settings_values(settings: ReviewSettings) -> dict[str, int]:
    """The values of review settings by name (they are a frozen dataclass of numbers)."""
    return asdict(settings)  # type: ignore[call-overload,no-any-return]


def depth_of(key: str) -> Depth | None:
    """The depth whose settings have ``key`` (None: no depth's)."""
    return next((d for d in DEPTHS if default_settings(d).key == key), None)


def settings_to_json(settings: ReviewSettings) -> str:
    """The stored form of analysis settings."""
    return json.dumps(settings_values(settings), sort_keys=True)


def settings_from_json(text: str, key: str) -> ReviewSettings:
    """Analysis settings from their stored form, as the review whose settings have ``key``
    reads them (``ValueError`` when no registered review does)."""
    values = json.loads(text)
    for rules in games.rulesets():
        if rules.review is None:
            continue
        try:
            settings = rules.review.settings(**values)
        except TypeError:  # another review's settings
            continue
        if settings.key == key:
            return settings
    raise ValueError(f"no registered review has analysis settings {key}")


IDS_PER_QUERY = 500
"""Most game ids :meth:`Analyses.done` looks up at once."""


class Claim(NamedTuple):
    """A review a worker has taken: the game, the settings and the table's claim count
    then (which tells its claim from a later one)."""

    game_id: str
    settings: ReviewSettings
    claims: int


def _json(result: dict[str, Any]) -> str:
    return json.dumps(result, separators=(",", ":"))


class Analyses:
    """The ``analyses`` table of the database at ``url`` (created on first use; in the
    schema the URL names)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.db = _database(url)

    @contextmanager
    def _connection(self, read: bool = False) -> Iterator[Any]:
        """A connection in a transaction (``read``: a read-only snapshot), committed on
        success and closed after; the table is made first (:meth:`ensure`)."""
        if self.url.endswith(":memory:"):  # a new database every connection: made in it
            with self.db.connect() as conn:
                self._make(conn)
                yield conn
            return
        self.ensure()
        with self.db.reading() if read else self.db.connect() as conn:
            yield conn

    def ensure(self) -> None:
        """Make the table and its indexes unless this process has, in a transaction of their
        own (one process at a time on PostgreSQL), so that no use waits on them."""
        if self.url in _made:
            return
        with _made_lock:
            if self.url not in _made:
                with self.db.connect() as conn:
                    self._make(conn)
                _made.add(self.url)

    def _make(self, conn: Any) -> None:
        if self.db.postgres:
            self._run(
                conn, f"SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.{TABLE}'))"
            )
        for statement in _DDL:
            self._run(conn, statement)

    def _run(self, conn: Any, query: str, params: tuple[Any, ...] = ()) -> Any:
        return self.db.execute(conn, query, params)

    def enqueue(self, game_id: UUID | str, settings: ReviewSettings, force: bool = False) -> str:
        """Ask for a review; returns the row's status. ``force`` redoes a done or failed one."""
        key, gid = settings.key, str(game_id)
        with self._connection() as conn:
            row = self._run(
                conn, f"SELECT status FROM {TABLE} WHERE game_id = ? AND settings_key = ?",
                (gid, key),
            ).fetchone()  # fmt: skip
            if row is None:
                self._run(
                    conn,
                    f"INSERT INTO {TABLE} (game_id, settings_key, settings, status, seq) "
                    f"VALUES (?, ?, ?, 'queued', {_NEXT_SEQ}) "
                    "ON CONFLICT (game_id, settings_key) DO NOTHING",
                    (gid, key, settings_to_json(settings)),
                )
                return "queued"
            if force and row[0] in ("done", "failed"):
                self._run(
                    conn,
                    f"UPDATE {TABLE} SET status = 'queued', progress = 0, result = NULL, "
                    f"error = NULL, seq = {_NEXT_SEQ} WHERE game_id = ? AND settings_key = ?",
                    (gid, key),
                )
                return "queued"
            return str(row[0])

    def forget(self, game_id: UUID | str) -> int:
        """Delete a game's reviews (of any settings); returns how many."""
        with self._connection() as conn:
            cursor = self._run(conn, f"DELETE FROM {TABLE} WHERE game_id = ?", (str(game_id),))
            return int(cursor.rowcount)

    def status(self, game_id: UUID | str, settings_key: str) -> dict[str, Any]:
        """``{"status", "progress", "result", "error", "settings_key"}``; ``none``: never asked."""
        with self._connection(read=True) as conn:
            row = self._run(
                conn,
                f"SELECT status, progress, result, error FROM {TABLE} "
                "WHERE game_id = ? AND settings_key = ?",
                (str(game_id), settings_key),
            ).fetchone()
        if row is None:
            return {"status": "none", "progress": 0.0, "result": None, "error": None,
                    "settings_key": settings_key}  # fmt: skip
        status, progress, result, error = row
        return {
            "status": status,
            "progress": float(progress),
            "result": json.loads(result) if result is not None else None,
            "error": error,
            "settings_key": settings_key,
        }

    def done(self, settings_key: str, game_ids: Sequence[str]) -> set[str]:
        """Those of ``game_ids`` (at most :data:`IDS_PER_QUERY`) whose review with these
        settings is done."""
        if len(game_ids) > IDS_PER_QUERY:
            raise ValueError(f"at most {IDS_PER_QUERY} game ids at once, got {len(game_ids)}")
        if not game_ids:
            return set()
        marks = ", ".join("?" * len(game_ids))
        with self._connection(read=True) as conn:  # by the primary key, status read here
            rows = self._run(
                conn,
                f"SELECT game_id, status FROM {TABLE} WHERE settings_key = ? "
                f"AND game_id IN ({marks})",
                (settings_key, *game_ids),
            ).fetchall()
        return {game_id for game_id, status in rows if status == "done"}

    def claim(self) -> Claim | None:
        """Take the oldest queued (or abandoned running) review, marking it running."""
        now = time.time()
        with self._connection() as conn:
            rows = self._run(
                conn,
                f"SELECT game_id, settings_key, settings, claims FROM {TABLE} "
                "WHERE status = 'queued' OR (status = 'running' AND heartbeat < ?) "
                "ORDER BY seq LIMIT 5",
                (now - STALE_SECONDS,),
            ).fetchall()
            for gid, key, settings, claims in rows:
                taken = self._run(
                    conn,
                    f"UPDATE {TABLE} SET status = 'running', progress = 0, heartbeat = ?, "
                    "claims = claims + 1 WHERE game_id = ? AND settings_key = ? AND claims = ? "
                    "AND (status = 'queued' OR (status = 'running' AND heartbeat < ?))",
                    (now, gid, key, claims, now - STALE_SECONDS),
                )
                if taken.rowcount == 1:
                    return Claim(gid, settings_from_json(settings, key), claims + 1)
        return None

    def progress(
        self, game_id: str, settings_key: str, progress: float, claims: int | None = None
    ) -> None:
        """Record how far a running review is (and that it is alive); with ``claims``, only
        while that claim holds."""
        self._update(
            "progress = ?, heartbeat = ?", (progress, time.time()), game_id, settings_key,
            claims, running=True,
        )  # fmt: skip

    def release(self, claim: Claim) -> None:
        """Put a claimed review back in the queue, as if it had not been claimed (its worker
        lost what it reviews on), unless another worker has claimed it since."""
        with self._connection() as conn:
            self._run(
                conn,
                f"UPDATE {TABLE} SET status = 'queued', progress = 0 "
                "WHERE game_id = ? AND settings_key = ? AND status = 'running' AND claims = ?",
                (claim.game_id, claim.settings.key, claim.claims),
            )

    def finish(
        self, game_id: str, settings_key: str, result: dict[str, Any], claims: int | None = None
    ) -> None:
        """Store a review's result: status ``done`` (with ``claims``, only while that claim
        holds)."""
        self._update(
            "status = 'done', progress = 1, result = ?, error = NULL", (_json(result),),
            game_id, settings_key, claims,
        )  # fmt: skip

    def fail(self, game_id: str, settings_key: str, error: str, claims: int | None = None) -> None:
        """Record why a review failed: status ``failed`` (with ``claims``, only while that
        claim holds)."""
        self._update("status = 'failed', error = ?", (error,), game_id, settings_key, claims)

    def _update(
        self, assignments: str, values: tuple[Any, ...], game_id: str, settings_key: str,
        claims: int | None, running: bool = False,
    ) -> None:  # fmt: skip
        """``UPDATE … SET assignments`` of one row: while it runs (``running``), and while
        the claim ``claims`` holds when given."""
        where = "game_id = ? AND settings_key = ?" + (" AND status = 'running'" if running else "")
        params = (*values, game_id, settings_key)
        if claims is not None:
            where, params = f"{where} AND claims = ?", (*params, claims)
        with self._connection() as conn:
            self._run(conn, f"UPDATE {TABLE} SET {assignments} WHERE {where}", params)

    def save(self, game_id: UUID | str, settings: ReviewSettings, result: dict[str, Any]) -> None:
        """Store a review computed elsewhere (the command line) as done, in one statement."""
        with self._connection() as conn:
            self._run(
                conn,
                f"INSERT INTO {TABLE} (game_id, settings_key, settings, status, progress, "
                f"result, seq) VALUES (?, ?, ?, 'done', 1, ?, {_NEXT_SEQ}) "
                "ON CONFLICT (game_id, settings_key) DO UPDATE SET status = 'done', "
                "progress = 1, result = excluded.result, error = NULL",
                (str(game_id), settings.key, settings_to_json(settings), _json(result)),
            )
