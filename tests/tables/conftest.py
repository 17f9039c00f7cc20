"""Live-table test fixtures: the API tests' servers and contract, and table helpers."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.api.client import Client
from tests.api.conftest import TOKENS, contract, fresh_server  # noqa: F401 (fixtures)

FIXTURES = Path(__file__).parents[1] / "fixtures"
ANA = TOKENS["ana"]


def fixture(game: str, name: str) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """A fixture record without its actions, its actions, and its expected result."""
    doc = json.loads((FIXTURES / game / f"{name}.json").read_text())
    expected = json.loads((FIXTURES / game / f"{name}.expected.json").read_text())
    actions, doc["actions"] = doc["actions"], []
    return doc, actions, expected


def open_table(client: Client, record: dict[str, Any]) -> dict[str, Any]:
    """Open a table from ``record``; its document."""
    reply = client.request("POST", "/api/tables", json_body=record)
    assert reply.status == 201, reply.body
    assert reply.header("Location") == f"/api/tables/{reply.json['table_id']}"
    doc: dict[str, Any] = reply.json
    return doc


def enter(client: Client, table_id: str, action: dict[str, Any], version: int) -> Any:
    """POST one action; the reply."""
    body = {"action": action, "version": version}
    return client.request("POST", f"/api/tables/{table_id}/actions", json_body=body)


def watch(
    url: str, table_id: str, timeout: float = 5
) -> tuple[http.client.HTTPConnection, Iterator[dict[str, Any]]]:
    """A connection to the table's stream on the server at ``url``, and its ``table`` events
    as they arrive (each one's ``id`` is its version), each within ``timeout`` seconds."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
    conn.request("GET", f"/api/tables/{table_id}/stream")
    reply = conn.getresponse()
    assert reply.status == 200
    assert reply.getheader("Content-Type", "").startswith("text/event-stream")

    def read() -> Iterator[dict[str, Any]]:
        message: dict[str, str] = {}
        while line := reply.readline():
            text = line.decode().rstrip("\n")
            if text:
                name, _, value = text.partition(": ")
                message[name] = value
            elif message.get("event") == "table":
                assert int(message["id"]) == json.loads(message["data"])["version"]
                yield json.loads(message["data"])
                message = {}

    return conn, read()
