"""One SQL database for the read models: SQLite or PostgreSQL, with the same queries on both.

Queries are written once with ``?`` placeholders; :meth:`Database.sql` turns them into
psycopg's ``%s`` for PostgreSQL. PostgreSQL connections come from a small pool and use
the store's schema (``search_path``); SQLite gets a connection per use.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from projections.db import backend_of, sqlite_path

SQLITE_BUSY_TIMEOUT = 30.0
READ_GATE = 0x486F7772
"""The PostgreSQL advisory lock every read transaction takes shared, first: a swap of the
read-model tables takes it exclusive, so it waits for the reads under way (holding no
table they need) and the reads after it wait for the swap, then read the new tables."""
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@cache
def _pg_sql(query: str) -> str:
    return query.replace("%", "%%").replace("?", "%s")


class Database:
    """Connections to the database at ``url`` (``schema``: PostgreSQL only)."""

    def __init__(self, url: str, schema: str | None = None, pool_size: int = 5) -> None:
        self.url = url
        self.backend = backend_of(url)
        self.schema = schema or "public"
        if not _IDENTIFIER.fullmatch(self.schema):
            raise ValueError(f"schema must be a plain SQL identifier, got {self.schema!r}")
        self.pool_size = pool_size
        self._pool: Any = None
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
        if not self.postgres:
            conn = self._sqlite()
            try:
                conn.execute("BEGIN IMMEDIATE")
                yield conn
                conn.commit()
            except BaseException:
                conn.rollback()
                raise
            finally:
                conn.close()
            return
        with self._pg_pool().connection() as conn:
            yield conn

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A read-only connection whose reads all see one snapshot (no write lock on SQLite;
        on PostgreSQL, behind the :data:`READ_GATE`)."""
        if not self.postgres:
            conn = self._sqlite()
            try:
                conn.execute("BEGIN")
                yield conn
            finally:
                conn.rollback()
                conn.close()
            return
        with self._pg_pool().connection() as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", (READ_GATE,))
            yield conn

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
        """Close the PostgreSQL pool (a later use opens a new one)."""
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def _sqlite(self) -> sqlite3.Connection:
        path = sqlite_path(self.url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        return conn

    def _pg_pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                from psycopg_pool import ConnectionPool

                self._ensure_schema()
                self._pool = ConnectionPool(
                    self.url,
                    min_size=1,
                    max_size=self.pool_size,
                    kwargs={"options": f"-c search_path={self.schema}", "connect_timeout": 10},
                    check=ConnectionPool.check_connection,  # drop ones a restart broke
                    open=True,
                )
            return self._pool

    def _ensure_schema(self) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as conn:
            conn.execute(
                sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema))
            )
