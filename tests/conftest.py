"""Shared fixtures: stores on SQLite and PostgreSQL, a live server, and the system Chromium.

``scripts/test`` starts a throwaway PostgreSQL cluster and exports ``HOWL_TEST_PG_URL``;
without it the PostgreSQL tests fail unless ``HOWL_ALLOW_SKIP_PG=1`` is set.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from flask import Flask
from psycopg import sql
from werkzeug.serving import BaseWSGIServer, make_server

from api.app import create_app
from dashboard.pages import replay
from services.config import Settings
from services.shared import services

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(autouse=True)
def replay_cache_cleared() -> Iterator[None]:
    """After each test, forget the replay pages' prepared games: their cache holds the game
    library of each app that served one, which would keep every test's library (and its
    PostgreSQL datastore) alive until the interpreter exits."""
    yield
    replay.prepared.cache_clear()


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for this test module, dropped afterwards."""
    base = os.environ.get("HOWL_TEST_PG_URL")
    if not base:
        if os.environ.get("HOWL_ALLOW_SKIP_PG") == "1":
            pytest.skip("HOWL_TEST_PG_URL is not set and HOWL_ALLOW_SKIP_PG=1")
        pytest.fail(
            "HOWL_TEST_PG_URL is not set: run the suite with scripts/test, "
            "or set HOWL_ALLOW_SKIP_PG=1 to skip the PostgreSQL tests"
        )
    name = f"howl_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield urlunsplit(urlsplit(base)._replace(path=f"/{name}"))
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A SQLite store in a file under the test's tmp_path (created on first connect)."""
    return f"sqlite:///{tmp_path / 'howl.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest) -> str:
    """A store URL on each backend in turn, so a test using it runs on both."""
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")


@dataclass(frozen=True)
class LiveServer:
    """A running Howl app: ``url`` has no trailing slash."""

    url: str
    settings: Settings


class InFlight:
    """A WSGI app counting the requests it is answering (an answer's body included), so a
    server's store is closed only once none reads it."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.count = 0
        self.lock = threading.Lock()

    def _add(self, n: int) -> None:
        with self.lock:
            self.count += n

    def __call__(self, environ: Any, start_response: Any) -> Iterator[bytes]:
        self._add(1)
        result: Any = ()
        try:
            result = self.app(environ, start_response)
            yield from result
        finally:
            try:
                getattr(result, "close", lambda: None)()
            finally:
                self._add(-1)

    def wait(self, seconds: float) -> None:
        """Wait until no request is being answered (at most ``seconds``)."""
        deadline = time.monotonic() + seconds
        while self.count and time.monotonic() < deadline:
            time.sleep(0.02)


@pytest.fixture
def live_server_factory(sqlite_url: str) -> Iterator[Callable[..., LiveServer]]:
    """Start real Howl apps on free ports: ``start(store_url=None, **settings_overrides)``.

    Each app is served by werkzeug's threaded WSGI server in a background thread and
    stopped when the test ends. The store defaults to the test's SQLite file; the analysis
    worker is off unless ``analysis=True``.
    """
    running: list[tuple[BaseWSGIServer, threading.Thread, Flask, InFlight]] = []

    def start(store_url: str | None = None, **overrides: Any) -> LiveServer:
        settings = Settings(
            database_url=store_url or sqlite_url, port=0, **{"analysis": False, **overrides}
        )
        app = create_app(settings)
        answering = InFlight(app)
        server = make_server(settings.host, 0, answering, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        running.append((server, thread, app, answering))
        settings = replace(settings, port=server.server_port)
        return LiveServer(f"http://{settings.host}:{settings.port}", settings)

    yield start
    for server, thread, app, answering in running:
        server.shutdown()
        thread.join(timeout=10)
        services(app).end_streams()  # a page still open may be watching a table
        answering.wait(10)
        server.server_close()
        services(app).close()


@pytest.fixture
def live_server(live_server_factory: Callable[..., LiveServer]) -> LiveServer:
    """A live Howl app on the test's SQLite store."""
    return live_server_factory()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the system Chromium (never a downloaded browser) without network chatter.

    pytest-playwright then provides the session-scoped ``browser`` and per-test ``page``.
    """
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("chromium is not installed: run the suite with scripts/test")
    return {
        "headless": True,
        **browser_type_launch_args,
        "executable_path": chromium,
        "args": CHROMIUM_ARGS,
    }
