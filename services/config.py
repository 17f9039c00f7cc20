"""Howl's settings, read from ``HOWL_…`` environment variables in this one place."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import overload

from domain.ruleset import DEFAULT_DEPTH, DEPTHS, Depth

DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 * 1024
DEFAULT_MAX_ACTIONS = 5000
DEFAULT_BODY_SECONDS = 10


def data_folder(env: Mapping[str, str], platform: str = sys.platform) -> Path:
    """The user's data folder for Howl: ``$XDG_DATA_HOME/howl`` (an absolute
    ``XDG_DATA_HOME``, else ``~/.local/share/howl``) on Linux and other Unixes,
    ``~/Library/Application Support/howl`` on macOS, ``%LOCALAPPDATA%\\howl`` on Windows.

    >>> str(data_folder({"XDG_DATA_HOME": "/data", "HOME": "/home/ana"}, "linux"))
    '/data/howl'
    >>> str(data_folder({"XDG_DATA_HOME": "relative", "HOME": "/home/ana"}, "linux"))
    '/home/ana/.local/share/howl'
    """
    home = Path(env.get("HOME") or Path.home())
    if platform == "darwin":
        return home / "Library" / "Application Support" / "howl"
    if platform == "win32":
        return Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local") / "howl"
    xdg = env.get("XDG_DATA_HOME", "").strip()
    return (Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share") / "howl"


def default_database_url(env: Mapping[str, str] | None = None) -> str:
    """The SQLite file ``howl.db`` in the user's :func:`data_folder`, as an absolute URL: one
    store per user, whatever the working directory."""
    env = os.environ if env is None else env
    return "sqlite:///" + str(data_folder(env) / "howl.db")


def store_name(url: str, schema: str = "public") -> str:
    """The store a database URL names, for people (a PostgreSQL password left out).

    >>> store_name("sqlite:////home/ana/.local/share/howl/howl.db")
    'SQLite /home/ana/.local/share/howl/howl.db'
    >>> store_name("postgresql://howl:s3cret@db:5432/howl", "t1")
    'PostgreSQL postgresql://howl@db:5432/howl, schema t1'
    """
    if url.startswith("sqlite:///"):
        return f"SQLite {url.removeprefix('sqlite:///')}"
    scheme, sep, rest = url.partition("://")
    user, at, host = rest.rpartition("@")
    shown = f"{scheme}{sep}{user.partition(':')[0]}{at}{host}"
    return f"PostgreSQL {shown}, schema {schema}"


TOKEN_NAME = re.compile(r"[\w.-]{1,64}")
"""What a token's name may be (it is who uploads and writes: shown on pages, kept in events)."""


class ConfigError(ValueError):
    """A setting of the environment that cannot be used; the message names its variable."""


DASHBOARD_UPLOADER = "dashboard"
"""The uploader stored with records dropped on the dashboard when no API tokens are
configured (it then asks for no token)."""
DEMO_UPLOADER = "demo"
"""The uploader of the demo games."""
RESERVED_NAMES = frozenset((DASHBOARD_UPLOADER, DEMO_UPLOADER))
"""Uploaders the service stores itself: no token is named so (it would own their games)."""


def parse_api_tokens(text: str) -> Mapping[str, str]:
    """Parse ``name:token`` pairs separated by commas into a read-only name → token map.

    >>> dict(parse_api_tokens("alice:s3cret, bob:hunter2"))
    {'alice': 's3cret', 'bob': 'hunter2'}
    """
    tokens: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, token = item.partition(":")
        name, token = name.strip(), token.strip()
        if not sep or not TOKEN_NAME.fullmatch(name) or not token or " " in token:
            raise ConfigError(
                f"HOWL_API_TOKENS entry {item!r} is not of the form name:token (a name of "
                "letters, digits, '.', '_' or '-', at most 64; a token without spaces)"
            )
        if name in tokens:
            raise ConfigError(f"HOWL_API_TOKENS names {name!r} twice")
        if name in RESERVED_NAMES:
            raise ConfigError(
                f"HOWL_API_TOKENS names {name!r}, the uploader of games the service stores "
                "itself: give the token another name"
            )
        tokens[name] = token
    return MappingProxyType(tokens)


def _switch_env(env: Mapping[str, str], name: str, default: bool) -> bool:
    """An ``on``/``off`` variable (also ``1``/``0``, ``true``/``false``, ``yes``/``no``)."""
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("on", "1", "true", "yes"):
        return True
    if raw in ("off", "0", "false", "no"):
        return False
    raise ConfigError(f"{name} must be on or off, got {raw!r}")


def _depth_env(env: Mapping[str, str], name: str, default: Depth) -> Depth:
    """A review depth's name (``quick``, ``standard``, ``deep``)."""
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    for depth in DEPTHS:
        if raw == depth:
            return depth
    raise ConfigError(f"{name} must be one of {', '.join(DEPTHS)}, got {raw!r}")


@overload
def _int_env(env: Mapping[str, str], name: str, default: int, minimum: int) -> int: ...
@overload
def _int_env(env: Mapping[str, str], name: str, default: None, minimum: int) -> int | None: ...
def _int_env(env: Mapping[str, str], name: str, default: int | None, minimum: int) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return value


@dataclass(frozen=True)
class Settings:
    """Everything Howl can be configured with; build it with :meth:`from_env`.

    >>> Settings("sqlite:///:memory:").port
    8050
    """

    database_url: str
    host: str = "127.0.0.1"
    port: int = 8050
    api_tokens: Mapping[str, str] = field(default_factory=dict, hash=False)
    max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    """Granian worker processes (default: one per CPU)."""
    threads: int = 4
    body_seconds: int = DEFAULT_BODY_SECONDS
    """Seconds a request body may take to arrive (``howl serve``: slower ones get a 408)."""
    database_schema: str = "public"
    db_pool_size: int = 5
    db_max_overflow: int = 10
    db_connect_timeout: int = 10
    max_actions: int = DEFAULT_MAX_ACTIONS
    max_check_seconds: int = 5
    """CPU seconds the engine may spend checking one uploaded record."""
    ingest_processes: int = 1
    """Processes each server process checks uploaded records and catches the read models up
    in (:mod:`services.ingest`)."""
    cached_games: int = 128
    analysis: bool = True
    """Review uploaded games in the background (``howl serve``: a process; ``--dev``: a thread)."""
    analysis_depth: Depth = DEFAULT_DEPTH
    """The depth of the reviews asked for when nobody names one (uploads, the page)."""
    analysis_playouts: int | None = None
    analysis_candidates: int | None = None
    """Playouts and alternatives of those reviews (None: the depth's)."""
    analysis_processes: int = 0
    """Processes sharing one review (0: one per CPU; 1: the worker thread itself)."""
    dask_scheduler: str | None = None
    """The Dask cluster the heavy jobs run on (:mod:`services.compute`): an address or
    ``local``; None runs them in local processes."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read settings from ``env`` (default: ``os.environ``); unset or empty means default."""
        env = os.environ if env is None else env
        return cls(
            database_url=env.get("HOWL_DATABASE_URL", "").strip() or default_database_url(env),
            host=env.get("HOWL_HOST", "").strip() or cls.host,
            port=_int_env(env, "HOWL_PORT", cls.port, minimum=0),
            api_tokens=parse_api_tokens(env.get("HOWL_API_TOKENS", "")),
            max_upload_bytes=_int_env(
                env, "HOWL_MAX_UPLOAD_BYTES", DEFAULT_MAX_UPLOAD_BYTES, minimum=1
            ),
            max_actions=_int_env(env, "HOWL_MAX_ACTIONS", DEFAULT_MAX_ACTIONS, minimum=1),
            max_check_seconds=_int_env(
                env, "HOWL_MAX_CHECK_SECONDS", cls.max_check_seconds, minimum=1
            ),
            ingest_processes=_int_env(
                env, "HOWL_INGEST_PROCESSES", cls.ingest_processes, minimum=1
            ),
            cached_games=_int_env(env, "HOWL_CACHED_GAMES", cls.cached_games, minimum=1),
            workers=_int_env(env, "HOWL_WORKERS", os.cpu_count() or 1, minimum=1),
            threads=_int_env(env, "HOWL_THREADS", cls.threads, minimum=1),
            body_seconds=_int_env(env, "HOWL_BODY_SECONDS", DEFAULT_BODY_SECONDS, minimum=1),
            database_schema=env.get("HOWL_DATABASE_SCHEMA", "").strip() or cls.database_schema,
            db_pool_size=_int_env(env, "HOWL_DB_POOL_SIZE", cls.db_pool_size, minimum=1),
            db_max_overflow=_int_env(env, "HOWL_DB_MAX_OVERFLOW", cls.db_max_overflow, minimum=0),
            db_connect_timeout=_int_env(
                env, "HOWL_DB_CONNECT_TIMEOUT", cls.db_connect_timeout, minimum=1
            ),
            analysis=_switch_env(env, "HOWL_ANALYSIS", cls.analysis),
            analysis_depth=_depth_env(env, "HOWL_ANALYSIS_DEPTH", cls.analysis_depth),
            analysis_playouts=_int_env(env, "HOWL_ANALYSIS_PLAYOUTS", None, minimum=1),
            analysis_candidates=_int_env(env, "HOWL_ANALYSIS_CANDIDATES", None, minimum=0),
            analysis_processes=_int_env(
                env, "HOWL_ANALYSIS_PROCESSES", cls.analysis_processes, minimum=0
            ),
            dask_scheduler=env.get("HOWL_DASK_SCHEDULER", "").strip() or None,
        )
