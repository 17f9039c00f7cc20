"""API test fixtures: live servers on both backends, a contract-checking client, records.

Every reply a test gets through :class:`Client` is checked against the OpenAPI document.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from api.app import create_app
from domain.store import GameLibrary
from services.config import Settings
from services.shared import services
from tests.api.client import Client
from tests.api.contract import Contract
from tests.conftest import LiveServer
from tests.takeaway import takeaway  # noqa: F401 (the fixture, offered to the API tests)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "the-wolves"
TOKENS = {"ana": "ana-secret-token", "bo": "bo-secret-token"}
SHARED_GAMES = (
    "2p-00-heuristic", "2p-06-random", "2p-07-random-terrain", "3p-00-heuristic",
    "3p-08-three-lone-wolves", "4p-00-heuristic", "4p-01-heuristic", "5p-00-heuristic",
)  # fmt: skip
PRIVATE_GAME = "4p-01-heuristic"


def fixture_names() -> list[str]:
    """Names of the fixture records (without ``.json``)."""
    return sorted(p.stem for p in FIXTURES.glob("*.json") if not p.stem.endswith(".expected"))


def record_of(name: str) -> bytes:
    """A fixture record's bytes."""
    return (FIXTURES / f"{name}.json").read_bytes()


@pytest.fixture(scope="session")
def contract() -> Contract:
    """The OpenAPI document the API serves."""
    app = create_app(Settings("sqlite:///:memory:"))
    spec = app.test_client().get("/api/openapi.json").json
    assert spec is not None
    return Contract(spec)


@dataclass(frozen=True)
class Server:
    """A live server with a client for it (anonymous) and its settings."""

    live: LiveServer
    client: Client
    contract: Contract

    def as_user(self, token: str) -> Client:
        """A client sending ``token``."""
        return Client(self.live.url, self.contract, token)

    def library(self) -> GameLibrary:
        """A library on the server's store (the caller closes it)."""
        from services.library import open_library

        return open_library(self.live.settings)


def _isolated(store_url: str) -> dict[str, Any]:
    """Settings giving a PostgreSQL test a schema of its own (SQLite files are per test)."""
    if store_url.startswith("postgresql"):
        return {"database_schema": f"t_{uuid.uuid4().hex[:12]}"}
    return {}


@contextmanager
def serving(settings: Settings, contract: Contract) -> Iterator[tuple[Server, Flask]]:
    """Serve an app for ``settings`` from a background thread; stop it and close its store."""
    app = create_app(settings)
    httpd = make_server(settings.host, 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    port = httpd.server_port
    live = LiveServer(f"http://{settings.host}:{port}", replace(settings, port=port))
    try:
        yield Server(live, Client(live.url, contract), contract), app
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        httpd.server_close()
        services(app).close()


@pytest.fixture
def fresh_server(store_url: str, contract: Contract) -> Iterator[Callable[..., Server]]:
    """Start API servers on an empty store of the test's backend: ``start(**overrides)``
    (the analysis worker is off unless ``analysis=True``); with ``own_store``, on a store of
    its own (PostgreSQL servers always have one)."""
    with ExitStack() as stack:

        def start(own_store: bool = False, **overrides: Any) -> Server:
            defaults = {"api_tokens": TOKENS, "analysis": False, **_isolated(store_url)}
            url = store_url
            if own_store and url.startswith("sqlite"):
                url = f"{url}.{uuid.uuid4().hex[:8]}"
            settings = Settings(url, port=0, **{**defaults, **overrides})
            return stack.enter_context(serving(settings, contract))[0]

        yield start


@dataclass(frozen=True)
class Shared:
    """A module's server holding the :data:`SHARED_GAMES`, by name → game id."""

    server: Server
    ids: dict[str, str]
    app: Flask

    @property
    def client(self) -> Client:
        return self.server.client


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, contract: Contract
) -> Iterator[Shared]:
    """One server per backend and test module, with the shared games uploaded (read-only)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('api') / 'howl.sqlite3'}"
    else:
        url = request.getfixturevalue("pg_url")
    settings = Settings(url, port=0, api_tokens=TOKENS, analysis=False, **_isolated(url))
    with serving(settings, contract) as (server, app):
        uploader = server.as_user(TOKENS["ana"])
        ids = {}
        for name in SHARED_GAMES:
            private = name == PRIVATE_GAME
            query = {"visibility": "private"} if private else {"tags": f"fixture,{name[:2]}"}
            reply = uploader.upload(record_of(name), query=query)
            assert reply.status == 201, reply.body
            ids[name] = reply.json["game_id"]
        yield Shared(server, ids, app)
