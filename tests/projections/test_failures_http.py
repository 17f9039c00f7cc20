"""Through real HTTP: a game whose projection fails wedges nothing, and health says so."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from flask import Flask

from api.app import create_app
from domain import games
from services.config import Settings
from services.library import open_read_models
from tests.api.conftest import TOKENS, Server, record_of, serving
from tests.api.contract import Contract
from tests.projections.poison import store_poison
from tests.takeaway import NAME, TAKEAWAY, Takeaway, record_json


@pytest.fixture(scope="module")
def contract() -> Contract:
    """The OpenAPI document the API serves."""
    app: Flask = create_app(Settings("sqlite:///:memory:"))
    document = app.test_client().get("/api/openapi.json").json
    assert isinstance(document, dict)
    return Contract(document)


@pytest.fixture
def server(store_url: str, contract: Contract) -> Iterator[Server]:
    """A live server on an empty store of the test's backend, with API tokens."""
    schema = f"t_{uuid.uuid4().hex[:12]}" if store_url.startswith("postgresql") else "public"
    settings = Settings(
        store_url, port=0, api_tokens=TOKENS, analysis=False, database_schema=schema
    )
    with serving(settings, contract) as (live, _):
        yield live


@pytest.mark.parametrize("stage", ["fold", "write"])
def test_a_poisoned_game_wedges_nothing(server: Server, stage: str) -> None:
    ana = server.as_user(TOKENS["ana"])
    assert ana.upload(record_of("2p-06-random")).status == 201
    with server.library() as library:
        poison = store_poison(library, stage)
    later = ana.upload(record_of("3p-00-heuristic"))
    assert later.status == 201 and later.json["seats"]  # its own summary, not the poison's error
    again = ana.upload(record_of("4p-00-heuristic"))
    assert again.status == 201 and again.json["players"] == 4
    games = server.client.get("/api/games")
    assert games.status == 200 and games.json["total"] == 3
    assert server.client.get("/api/stats").status == 200
    assert server.client.get("/api/games", query={"sort": "players", "limit": 1}).status == 200
    health = server.client.get("/api/health")
    assert health.status == 200
    assert (health.json["status"], health.json["failures"]) == ("degraded", 1)
    assert server.client.get(f"/api/games/{poison}/record").status == 200  # stored all the same
    summary = server.client.get(f"/api/games/{poison}")  # its metadata and why it has no seats
    assert summary.status == 200 and summary.header("cache-control") == "no-store"
    assert summary.json["seats"] == [] and summary.json["projection"]["status"] == "failed"


def test_health_is_ok_without_failures(server: Server) -> None:
    assert server.as_user(TOKENS["bo"]).upload(record_of("2p-06-random")).status == 201
    health = server.client.get("/api/health").json
    assert (health["status"], health["failures"]) == ("ok", 0)


class Unprojectable(Takeaway):
    """Take-away whose games cannot be projected (a bug in its follower)."""

    def follow(self, names: Sequence[str], start: Any) -> Any:
        raise ZeroDivisionError("a bug in the projection")


def test_an_upload_that_cannot_be_projected_is_still_answered_as_stored(server: Server) -> None:
    doc = record_json()
    games.register(Unprojectable())  # the ingest pool folds with the server's rulesets
    try:
        reply = server.as_user(TOKENS["ana"]).upload(json.dumps(doc).encode())
        assert reply.status == 201
        game_id = reply.json["game_id"]
        assert reply.header("location") == f"/api/games/{game_id}"
        assert reply.json["seats"] == [] and reply.json["actions"] == len(doc["actions"])
        assert reply.json["projection"]["status"] == "failed"
        assert "ZeroDivisionError: a bug in the projection" in reply.json["projection"]["detail"]
        assert server.client.get("/api/health").json["failures"] == 1
        games.register(TAKEAWAY)
        settings = server.live.settings
        with server.library() as library, open_read_models(settings) as models:
            assert models.retry(library) == ([game_id], [])
        assert server.client.get(f"/api/games/{game_id}").json["seats"]
        assert server.client.get("/api/health").json["status"] == "ok"
    finally:
        games.unregister(NAME)
