"""The OpenAPI document, the offline docs page, and errors outside the documented routes."""

from __future__ import annotations

import html
import re
import uuid
from collections.abc import Callable

from jsonschema import Draft202012Validator

from tests.api.client import Client
from tests.api.conftest import Server
from tests.api.contract import Contract
from tests.conftest import LiveServer

ENDPOINTS = {
    ("post", "/api/games"), ("get", "/api/games"), ("get", "/api/games/{game_id}"),
    ("get", "/api/games/{prefix}"), ("get", "/api/games/{prefix}/{rest}"),
    ("get", "/api/games/{game_id}/record"), ("get", "/api/games/{game_id}/events"),
    ("get", "/api/games/{game_id}/states/{step}"), ("get", "/api/games/{game_id}/timeline"),
    ("get", "/api/games/{game_id}/analysis"), ("post", "/api/games/{game_id}/analysis"),
    ("post", "/api/games/{game_id}/branches"), ("get", "/api/branches/{branch_id}"),
    ("get", "/api/branches/{branch_id}/states/{step}"), ("get", "/api/stats"),
    ("get", "/api/players/{name}"), ("get", "/api/health"), ("get", "/api/ratings"),
    ("get", "/api/players/{name}/vs/{other}"), ("get", "/api/games/{game_id}/ratings"),
    ("patch", "/api/games/{game_id}"), ("delete", "/api/games/{game_id}"),
    ("post", "/api/players/merges"),
    ("post", "/api/tables"), ("get", "/api/tables"), ("get", "/api/tables/{table_id}"),
    ("get", "/api/tables/{table_id}/legal"), ("post", "/api/tables/{table_id}/actions"),
    ("post", "/api/tables/{table_id}/undo"), ("post", "/api/tables/{table_id}/finish"),
    ("get", "/api/tables/{table_id}/stream"),
    ("post", "/api/games/{game_id}/variations"), ("get", "/api/games/{game_id}/branches"),
    ("get", "/api/variations/{variation_id}"), ("patch", "/api/variations/{variation_id}"),
    ("delete", "/api/variations/{variation_id}"),
    ("get", "/api/games/{game_id}/practice"), ("post", "/api/games/{game_id}/practice"),
    ("get", "/api/games/{game_id}/practice/legal"),
    ("post", "/api/games/{game_id}/practice/reveal"),
    ("get", "/api/games/{game_id}/comments"), ("post", "/api/games/{game_id}/comments"),
    ("get", "/api/comments/{comment_id}"), ("delete", "/api/comments/{comment_id}"),
}  # fmt: skip


def test_openapi_document_lists_every_endpoint(
    fresh_server: Callable[..., Server], contract: Contract
) -> None:
    server = fresh_server()
    reply = server.client.get("/api/openapi.json", check=False)
    assert reply.status == 200 and reply.content_type == "application/json"
    spec = reply.json
    assert spec == contract.spec and spec["openapi"].startswith("3.1")
    found = {(m, p) for p, item in spec["paths"].items() for m in item if m != "parameters"}
    assert found == ENDPOINTS
    for schema in spec["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    problem = spec["components"]["responses"]["NOT_FOUND"]["content"]
    assert list(problem) == ["application/problem+json"]


def test_docs_page_works_offline(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    reply = server.client.get("/api/docs", check=False)
    assert reply.status == 200 and reply.content_type == "text/html"
    page = reply.body.decode()
    for _, path in ENDPOINTS:
        assert f"<code>{path}</code>" in page, path
    assert 'id="problem-illegal_action"' in page
    contents = page.split('<nav aria-label="contents">', 1)[1].split("</nav>", 1)[0]
    ids = re.findall(r'<div class="op" id="([^"]+)"', page)
    assert ids and all(f'href="#{i}"' in contents for i in ids if not i.startswith("schema-"))
    examples = [html.unescape(e) for e in re.findall(r"<pre><code>(curl [^<]*)</code>", page)]
    assert len(examples) == len([i for i in ids if not i.startswith("schema-")])
    assert any(e.startswith("curl -X POST") and "@game.json" in e and '/api/games"' in e
               for e in examples), "an upload's example sends a record file"  # fmt: skip
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "loads nothing from elsewhere"
    assert "<script" not in page
    before = server.client.get("/api/openapi.json", check=False).json
    again = server.client.get("/api/docs", check=False).body.decode()
    assert again == page  # reading the document for the page leaves it as it was
    assert server.client.get("/api/openapi.json", check=False).json == before


def test_errors_outside_the_routes_are_problems(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    for method, path, status in (
        ("GET", "/api/nothing/here", 404),
        ("POST", "/api/nothing", 404),
        ("DELETE", "/api/games", 405),
        ("PUT", "/api/stats", 405),
    ):
        reply = server.client.request(method, path)
        assert reply.status == status, (method, path)
        assert reply.content_type == "application/problem+json"
        assert set(reply.json) >= {"type", "title", "status", "detail"}
        assert reply.json["status"] == status


def test_unexpected_failures_are_500_problems_without_details(
    live_server_factory: Callable[..., LiveServer], contract: Contract
) -> None:
    live = live_server_factory("sqlite:////proc/no-such-folder/howl.sqlite3")
    reply = Client(live.url, contract).get(f"/api/games/{uuid.uuid4()}/record")
    assert reply.status == 500
    assert reply.json == {
        "type": "about:blank", "title": "Internal Server Error", "status": 500,
        "detail": "An unexpected error occurred.",
    }  # fmt: skip
