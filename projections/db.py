"""Database URLs and DB-API connections for the two supported stores: SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import psycopg

Backend = Literal["sqlite", "postgresql"]

_SQLITE_PREFIX = "sqlite:///"


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


def connect(url: str) -> sqlite3.Connection | psycopg.Connection:
    """Open a DB-API connection to the store at ``url``; the caller closes it.

    For SQLite the file's folder is created when missing.
    """
    if backend_of(url) == "sqlite":
        path = sqlite_path(url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return sqlite3.connect(path)
    import psycopg

    return psycopg.connect(url, connect_timeout=10)


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
