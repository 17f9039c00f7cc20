"""Where games are stored: a database URL mapped to eventsourcing's persistence settings.

This is the one place that knows eventsourcing's environment names (``PERSISTENCE_MODULE``,
``SQLITE_DBNAME``, ``POSTGRES_*``, ``CREATE_TABLE``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

SQLITE_PREFIX = "sqlite:///"


@dataclass(frozen=True)
class StoreConfig:
    """A store URL with its PostgreSQL options (ignored for SQLite)."""

    url: str
    schema: str = "public"
    pool_size: int = 5
    max_overflow: int = 10
    connect_timeout: int = 10


def store_env(config: StoreConfig) -> dict[str, str]:
    """eventsourcing's environment for ``config``: SQLite or PostgreSQL, tables made on use.

    >>> store_env(StoreConfig("sqlite:////srv/howl.sqlite3"))["SQLITE_DBNAME"]
    '/srv/howl.sqlite3'
    >>> env = store_env(StoreConfig("postgresql://ann:s%40fe@db:5433/howl", schema="howl"))
    >>> env["POSTGRES_USER"], env["POSTGRES_PASSWORD"], env["POSTGRES_PORT"], env["POSTGRES_SCHEMA"]
    ('ann', 's@fe', '5433', 'howl')
    """
    scheme = config.url.partition(":")[0].lower()
    if scheme == "sqlite":
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": _sqlite_dbname(config.url),
            "CREATE_TABLE": "y",
        }
    if scheme not in ("postgresql", "postgres"):
        raise ValueError(
            f"unsupported database URL {config.url!r}: use sqlite:///PATH or postgresql://…"
        )
    parts = urlsplit(config.url)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    dbname = unquote(parts.path.lstrip("/")) or query.get("dbname", "")
    if not dbname:
        raise ValueError(f"PostgreSQL URL names no database: {config.url!r}")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": unquote(parts.hostname or "") or query.get("host", "localhost"),
        "POSTGRES_PORT": str(parts.port or query.get("port", 5432)),
        "POSTGRES_USER": unquote(parts.username or "") or query.get("user", "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or "") or query.get("password", ""),
        "POSTGRES_SCHEMA": config.schema,
        "POSTGRES_POOL_SIZE": str(config.pool_size),
        "POSTGRES_MAX_OVERFLOW": str(config.max_overflow),
        "POSTGRES_CONNECT_TIMEOUT": str(config.connect_timeout),
        "POSTGRES_PRE_PING": "y",  # drop pooled connections a server restart broke
        "CREATE_TABLE": "y",
    }


def prepare_store(config: StoreConfig) -> None:
    """Make what eventsourcing will not: the SQLite file's folder, the PostgreSQL schema."""
    env = store_env(config)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite":
        name = env["SQLITE_DBNAME"]
        if not name.startswith("file:"):
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        return
    if config.schema == "public":
        return
    import psycopg
    from psycopg import sql

    with psycopg.connect(
        dbname=env["POSTGRES_DBNAME"],
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"],
        connect_timeout=config.connect_timeout,
        autocommit=True,
    ) as conn:
        conn.execute(
            sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(config.schema))
        )


def _sqlite_dbname(url: str) -> str:
    if not url.startswith(SQLITE_PREFIX) or len(url) == len(SQLITE_PREFIX):
        raise ValueError(f"SQLite URL must look like sqlite:///PATH, got {url!r}")
    path = url[len(SQLITE_PREFIX) :]
    if path == ":memory:":  # one shared in-memory database for the whole connection pool
        return f"file:howl-{uuid.uuid4().hex}?mode=memory&cache=shared"
    return path
