"""Comment test fixtures: the API tests' servers and contract, and a stored fixture game."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.config import Settings
from tests.api.client import Client
from tests.api.conftest import (  # noqa: F401 (fixtures)
    TOKENS,
    Server,
    contract,
    fresh_server,
    record_of,
    serving,
)
from tests.api.contract import Contract

ANA, BO = TOKENS["ana"], TOKENS["bo"]
GAME = "2p-00-heuristic"


def stored(client: Client, record: bytes | None = None) -> str:
    """Upload ``record`` (default: the fixture game) as Ana; the game's id."""
    reply = client.upload(record_of(GAME) if record is None else record, token=ANA)
    assert reply.status in (200, 201), reply.body
    game_id: str = reply.json["game_id"]
    return game_id


def comment(client: Client, game_id: str, step: object, text: object, token: str = ANA) -> Any:
    """POST a comment; the reply."""
    body = {"step": step, "text": text}
    return client.request("POST", f"/api/games/{game_id}/comments", json_body=body, token=token)


@pytest.fixture
def elsewhere(
    store_url: str,
    tmp_path: Path,
    contract: Contract,  # noqa: F811 (the fixture above)
) -> Iterator[Server]:
    """A second server on a store of its own (of the test's backend), with the API tokens."""
    url, schema = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}", "public"
    if store_url.startswith("postgresql"):
        url, schema = store_url, f"e_{uuid.uuid4().hex[:12]}"
    settings = Settings(url, port=0, api_tokens=TOKENS, analysis=False, database_schema=schema)
    with serving(settings, contract) as (server, _):
        yield server
