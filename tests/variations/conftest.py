"""Variation test fixtures: the API tests' servers and contract, and variation helpers."""

from __future__ import annotations

import json
from typing import Any

from domain.store.tables import TableView
from tests.api.client import Client
from tests.api.conftest import TOKENS, contract, fresh_server  # noqa: F401 (fixtures)
from tests.tables.conftest import FIXTURES, enter

ANA, BO = TOKENS["ana"], TOKENS["bo"]
__all__ = ["ANA", "BO", "enter", "explore", "legal", "legal_actions", "undo", "upload"]


def upload(client: Client, game: str, name: str) -> tuple[str, list[dict[str, Any]]]:
    """Store a fixture game; its id and its actions."""
    record = (FIXTURES / game / f"{name}.json").read_bytes()
    reply = client.upload(record)
    assert reply.status == 201, reply.body
    return reply.json["game_id"], json.loads(record)["actions"]


def explore(client: Client, game_id: str, **body: Any) -> Any:
    """POST a variation of the game; the reply."""
    return client.request("POST", f"/api/games/{game_id}/variations", json_body=body)


def legal(client: Client, table_id: str) -> dict[str, Any]:
    """The table's legal actions now."""
    reply = client.get(f"/api/tables/{table_id}/legal")
    assert reply.status == 200, reply.body
    doc: dict[str, Any] = reply.json
    return doc


def undo(client: Client, table_id: str, version: int) -> Any:
    """POST an undo to the table; the reply."""
    return client.request("POST", f"/api/tables/{table_id}/undo", json_body={"version": version})


def legal_actions(view: TableView) -> list[dict[str, Any]]:
    """A table view's legal actions now, as records.md writes them."""
    return [view.rules.write_action(a) for a in view.rules.legal_actions(view.state)]
