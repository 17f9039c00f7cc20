"""The one way to the read models' database (SQLite or PostgreSQL, the store's own): its URL,
its connections (:func:`connect`), and :class:`Database`, the same queries on both.

Queries are written once with ``?`` placeholders; :meth:`Database.sql` turns them into
psycopg's ``%s`` for PostgreSQL. PostgreSQL connections come from a small pool (or one per
use) and use the store's schema (``search_path``); SQLite connections are kept open between
uses too (a few idle ones per :class:`Database` and process), not in memory.
"""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import psycopg

Backend = Literal["sqlite", "postgresql"]

_SQLITE_PREFIX = "sqlite:///"
SQLITE_BUSY_TIMEOUT = 30.0
"""Seconds a SQLite connection waits for another's write lock."""
CONNECT_TIMEOUT = 10
"""Seconds a PostgreSQL connection may take to open."""
READ_GATE = 0x486F7772
"""The PostgreSQL advisory lock every read transaction takes shared, first: a swap of the
read-model tables takes it exclusive, so it waits for the reads under way (holding no
table they need) and the reads after it wait for the swap, then read the new tables."""
TURNS = 0x486F7773
"""The first key of the PostgreSQL advisory locks :meth:`Database.turn` takes (the second
is the hash of the connection's schema and the turn's name)."""
IN_LIST = 500
"""Most values one ``IN (…)`` list of a statement holds."""
SQLITE_IDLE = 8
"""SQLite connections a :class:`Database` keeps open between uses (each opening cost a
read some 0.3 ms: the file's folder made, the connection, its journal mode)."""
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def backend_of(url: str) -> Backend:
    """Name the store a URL selects.

    >>> backend_of("sqlite:///var/howl.sqlite3"), backend_of("postgresql://localhost/howl")
    ('sqlite', 'postgresql')
    """
    scheme = url.partition(":")[0].lower()
    if scheme == "sqlite":
        return "sqlite"
    if scheme in ("postgresql", "postgres"):
        return "postgresql"
    raise ValueError(f"unsupported database URL {url!r}: use sqlite:///PATH or postgresql://…")


def sqlite_path(url: str) -> str:
    """The file a ``sqlite:///PATH`` URL names (``sqlite:////abs/path`` is absolute).

    >>> sqlite_path("sqlite:////tmp/howl.sqlite3")
    '/tmp/howl.sqlite3'
    """
    if not url.startswith(_SQLITE_PREFIX) or len(url) == len(_SQLITE_PREFIX):
        raise ValueError(f"SQLite URL must look like sqlite:///PATH, got {url!r}")
    return url[len(_SQLITE_PREFIX) :]


def _pg_options(schema: str | None) -> dict[str, Any]:
    """psycopg's connection options: the timeout, and ``schema`` as the ``search_path``
    (None: the URL's own)."""
    options: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT}
    if schema is not None:
        options["options"] = f"-c search_path={schema}"
    return options


def connect(url: str, schema: str | None = None) -> sqlite3.Connection | psycopg.Connection:
    """Open a DB-API connection to the database at ``url``; the caller closes it.

    SQLite: the file's folder is made when missing; the connection is in WAL mode, waits
    up to ``SQLITE_BUSY_TIMEOUT`` for a lock, begins transactions only when told
    (``BEGIN``), and may be used by one thread after another. PostgreSQL: ``schema`` is the
    ``search_path`` (None: the URL's own).
    """
    if backend_of(url) == "sqlite":
        path = sqlite_path(url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            path, timeout=SQLITE_BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA journal_mode=WAL")
        return conn
    import psycopg

    return psycopg.connect(url, **_pg_options(schema))


def ping(url: str) -> None:
    """Run ``SELECT 1`` on the store at ``url``; raises when the store cannot answer."""
    conn = connect(url)
    try:
        cursor = conn.cursor()
        cursor.execute("SELECT 1")
        row = cursor.fetchone()
        if row is None or row[0] != 1:
            raise RuntimeError(f"unexpected answer to SELECT 1: {row!r}")
    finally:
        conn.close()


@cache
def _pg_sql(query: str) -> str:
    return query.replace("%", "%%").replace("?", "%s")


class Database:
    """Connections to the database at ``url``.

    ``schema`` (PostgreSQL only) is the ``search_path``, made when missing; None keeps the
    URL's own. ``pool_size`` PostgreSQL connections are pooled; 0 opens one per use.
    """

    def __init__(self, url: str, schema: str | None = "public", pool_size: int = 5) -> None:
        self.url = url
        self.backend = backend_of(url)
        if schema is not None and not _IDENTIFIER.fullmatch(schema):
            raise ValueError(f"schema must be a plain SQL identifier, got {schema!r}")
        self.schema = schema
        self.pool_size = pool_size
        self._pool: Any = None
        self._idle: list[sqlite3.Connection] = []
        """SQLite connections kept open between uses, opened by process ``_idle_pid``."""
        self._idle_pid = os.getpid()
        self._schema_made = False
        self._lock = threading.Lock()

    @property
    def postgres(self) -> bool:
        """True on PostgreSQL."""
        return self.backend == "postgresql"

    def sql(self, query: str) -> str:
        """``query`` in this backend's placeholder style."""
        return _pg_sql(query) if self.postgres else query

    @contextmanager
    def connect(self) -> Iterator[Any]:
        """A connection in a transaction: committed on success, rolled back on error."""
        if self.postgres and self.pool_size:
            with self._pg_pool().connection() as conn:
                yield conn
            return
        with self._connection() as conn:
            try:
                if not self.postgres:
                    conn.execute("BEGIN IMMEDIATE")
                yield conn
                conn.commit()
            except BaseException:
                conn.rollback()
                raise

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A read-only connection whose reads all see one snapshot (no write lock on SQLite;
        on PostgreSQL, behind the :data:`READ_GATE`)."""
        if self.postgres and self.pool_size:
            with self._pg_pool().connection() as conn, _behind_gate(conn):
                yield conn
            return
        with self._connection() as conn:
            if self.postgres:
                with _behind_gate(conn):
                    yield conn
                return
            try:
                conn.execute("BEGIN")
                yield conn
            finally:
                conn.rollback()

    @contextmanager
    def turn(self, name: str) -> Iterator[None]:
        """Hold this database's lock ``name`` while the block runs, across processes and
        threads (the others wait their turn): a PostgreSQL advisory lock of the schema, on
        SQLite a lock on a file beside the database (none in memory, which only this process
        sees)."""
        if self.postgres:
            key = "%s, hashtext(current_schema() || %s)"
            named = (TURNS, f":{name}")
            with self._session() as conn:
                conn.execute(f"SELECT pg_advisory_lock({key})", named)
                conn.commit()  # the lock is the session's: it outlives the transaction
                try:
                    yield
                finally:
                    try:
                        conn.execute(f"SELECT pg_advisory_unlock({key})", named)
                        conn.commit()
                    except Exception:
                        conn.close()  # its session ends, and the lock with it
            return
        path = sqlite_path(self.url)
        if path == ":memory:":
            yield
            return
        with open(f"{path}.{name}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield  # closing the file releases the lock

    def execute(self, conn: Any, query: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement on ``conn``; returns its cursor."""
        return conn.execute(self.sql(query), params)

    def executemany(self, conn: Any, query: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        if not rows:
            return
        if self.postgres:
            with conn.cursor() as cursor:
                cursor.executemany(self.sql(query), rows)
        else:
            conn.executemany(query, rows)

    def delete(self, conn: Any, table: str, column: str, values: Sequence[Any]) -> None:
        """Delete the rows of ``table`` whose ``column`` holds one of ``values`` (a statement
        per :data:`IN_LIST` of them, not one per value)."""
        for at in range(0, len(values), IN_LIST):
            chunk = values[at : at + IN_LIST]
            marks = ", ".join("?" * len(chunk))
            self.execute(conn, f"DELETE FROM {table} WHERE {column} IN ({marks})", chunk)

    def insert(
        self, conn: Any, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert ``rows`` of ``columns`` into ``table`` (COPY on PostgreSQL)."""
        if not rows:
            return
        names = ", ".join(columns)
        if not self.postgres:
            marks = ", ".join("?" * len(columns))
            conn.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)
            return
        with conn.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)

    def fetchall(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows of a read query."""
        with self.reading() as conn:
            return list(self.execute(conn, query, params).fetchall())

    def close(self) -> None:
        """Close the PostgreSQL pool and the idle SQLite connections (a later use opens new
        ones)."""
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        """A connection of its own for the block: on SQLite (not in memory) an idle one
        when there is one, kept for the next use after (unless the block failed with a
        database error, or :data:`SQLITE_IDLE` are idle already)."""
        pooled = not self.postgres and sqlite_path(self.url) != ":memory:"
        conn = self._take_idle() if pooled else None
        conn = conn or self._open()
        kept = False
        try:
            yield conn
            kept = pooled
        except sqlite3.DatabaseError:
            raise
        except BaseException:
            kept = pooled
            raise
        finally:
            if not (kept and self._keep(conn)):
                conn.close()

    def _take_idle(self) -> sqlite3.Connection | None:
        with self._lock:
            if self._idle_pid != os.getpid():  # forked: the parent's are not ours to use
                self._idle, self._idle_pid = [], os.getpid()
            return self._idle.pop() if self._idle else None

    def _keep(self, conn: sqlite3.Connection) -> bool:
        """Keep ``conn`` for the next use, when there is room: whether it was kept."""
        with self._lock:
            if conn.in_transaction or len(self._idle) >= SQLITE_IDLE:
                return False
            if self._idle_pid != os.getpid():
                self._idle, self._idle_pid = [], os.getpid()
            self._idle.append(conn)
            return True

    @contextmanager
    def _session(self) -> Iterator[Any]:
        """A PostgreSQL connection of the pool (or of its own) for the block, as it is."""
        if self.pool_size:
            with self._pg_pool().connection() as conn:
                yield conn
            return
        conn = self._open()
        try:
            yield conn
        finally:
            conn.close()

    def _open(self) -> Any:
        """A new connection of its own (:func:`connect`), in the schema, made first."""
        if self.postgres:
            self._ensure_schema()
        return connect(self.url, self.schema)

    def _pg_pool(self) -> Any:
        self._ensure_schema()
        with self._lock:
            if self._pool is None:
                from psycopg_pool import ConnectionPool

                self._pool = ConnectionPool(
                    self.url,
                    min_size=1,
                    max_size=self.pool_size,
                    kwargs=_pg_options(self.schema),
                    check=ConnectionPool.check_connection,  # drop ones a restart broke
                    open=True,
                )
            return self._pool

    def _ensure_schema(self) -> None:
        """Make the schema on first use (``CREATE SCHEMA IF NOT EXISTS``, committed alone)."""
        schema = self.schema
        if self._schema_made or schema is None:
            return
        from psycopg import sql

        with self._lock:
            if self._schema_made:
                return
            conn: Any = connect(self.url)
            try:
                conn.execute(
                    sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema))
                )
                conn.commit()
            finally:
                conn.close()
            self._schema_made = True


@contextmanager
def _behind_gate(conn: Any) -> Iterator[None]:
    """A PostgreSQL read-only snapshot behind the :data:`READ_GATE` while the block runs:
    begun with the gate in one round trip (the connection in autocommit meanwhile, so that
    psycopg sends no ``BEGIN`` of its own first) and ended in one."""
    conn.autocommit = True
    try:
        conn.execute(
            "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; "
            f"SELECT pg_advisory_xact_lock_shared({READ_GATE:d})"
        )
        yield
    finally:
        try:
            conn.execute("ROLLBACK")
            conn.autocommit = False
        except Exception:  # closed rather than given back in autocommit: the pool drops it
            conn.close()
