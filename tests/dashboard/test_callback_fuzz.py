"""No request to the dashboard answers 500: every server-side Dash callback given inputs
and states of the wrong types, malformed callback requests, and paths outside the
component suites."""

from __future__ import annotations

import base64
import http.client
import json
import random
import time
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest

from services.library import open_library
from tests.conftest import LiveServer
from tests.dashboard.callbacks import component_id, dependencies, find, outputs, post
from tests.dashboard.conftest import FIXTURES

TOKENS = {"ana": "ana-fuzz-token"}
GAME = FIXTURES / "3p-00-heuristic.json"
TAMPERED = base64.urlsafe_b64encode(b'["-uploaded_at",[1],"x"]').decode()
RECORD = "data:application/json;base64," + base64.b64encode(GAME.read_bytes()).decode()
WRONG: list[Any] = [
    None, 0, -1, 2**70, 1.5, True, "", "x" * 5_000, "-", "\x00", "\ud800", "9999-12-31",
    "nan", [], [1, "a", None], {}, {"a": [1]}, TAMPERED, RECORD, TOKENS["ana"],
]  # fmt: skip
"""Values every input and state gets in turn: wrong types, out-of-range numbers, strings no
store holds, a tampered cursor, and a few valid ones (a record, a token) to go deeper. A
body with a lone surrogate may be refused whole (400) before any callback runs."""


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer], store_url: str) -> LiveServer:
    """A live server with API tokens, on each backend."""
    extra = {"database_schema": f"t_{uuid.uuid4().hex[:12]}"} if "postgresql" in store_url else {}
    return live_server_factory(store_url, api_tokens=TOKENS, **extra)


def slot(spec: dict[str, Any], value: Any, rng: random.Random, pool: list[Any]) -> Any:
    """An input or state entry of a request; a pattern-matching one lists two components."""
    id_ = component_id(spec["id"])
    if isinstance(id_, dict):
        names = ("title", "top_vp")
        return [
            {
                "id": {k: name for k in id_},
                "property": spec["property"],
                "value": rng.choice(pool) if value is None else value,
            }
            for name in names
        ]
    return {"id": id_, "property": spec["property"], "value": value}  # fmt: skip


def requests(dep: dict[str, Any], rng: random.Random, pool: list[Any]) -> list[dict[str, Any]]:
    """For each input and state in turn, each value of ``pool``; the others random ones."""
    specs = dep["inputs"] + dep["state"]
    bodies = []
    for k in range(len(specs)):
        for value in pool:
            values = [rng.choice(pool) for _ in specs]
            values[k] = value
            trigger = rng.choice(dep["inputs"])
            changed = trigger["id"]
            if changed.startswith("{"):
                changed = json.dumps({"sort": "title"}, separators=(",", ":"))
            slots = [slot(s, v, rng, pool) for s, v in zip(specs, values, strict=True)]
            bodies.append({
                "output": dep["output"], "outputs": outputs(dep["output"]),
                "inputs": slots[: len(dep["inputs"])], "state": slots[len(dep["inputs"]) :],
                "changedPropIds": [f"{changed}.{trigger['property']}"],
            })  # fmt: skip
    return bodies


def test_every_callback_answers_wrongly_typed_inputs_without_an_error(server: LiveServer) -> None:
    with open_library(server.settings) as library:  # a stored game's id, to go deeper
        game_id = str(library.upload(GAME.read_bytes(), uploaded_by="ana").game_id)
    deps = dependencies(server.url)
    assert len(deps) >= 8  # page, upload, table, sort, analysis, statistics, token ×2
    rng, failed, count, began = random.Random(14), [], 0, time.monotonic()
    for dep in deps:
        for body in requests(dep, rng, [*WRONG, game_id]):
            answer = post(server.url, body)
            count += 1
            surrogate = "\ud800" in json.dumps(body, ensure_ascii=False)
            if answer.status not in (200, 204) and not (surrogate and answer.status == 400):
                failed.append((answer.status, dep["output"], body["inputs"], body["state"]))
    assert not failed, f"{len(failed)} of {count} callback requests failed: {failed[:3]}"
    assert count > 400 and time.monotonic() - began < 60


MALFORMED: list[Any] = [
    b"[" * 100_000 + b"]" * 100_000,
    b"not json",
    [],
    {"output": "nothing.children", "outputs": {}, "inputs": []},
    {"output": 7},
    {"output": "stats-body.children", "outputs": {"id": "stats-body", "property": "children"},
     "inputs": [{"id": "stats-players"}]},
    {"output": "stats-body.children", "outputs": {"id": "stats-body", "property": "children"},
     "inputs": "x"},
    {"output": "library-sort.value", "outputs": {"id": "library-sort", "property": "value"},
     "inputs": [{"id": {"sort": "title"}, "property": "n_clicks", "value": 1}],
     "state": [{"id": "library-sort", "property": "value", "value": "title"}]},
    {"output": "page.children", "outputs": {"id": "page", "property": "children"},
     "inputs": [{"id": "url", "property": "pathname", "value": "/"}],
     "state": [{"id": "url", "property": "search", "value": ""}], "changedPropIds": [{}]},
]  # fmt: skip


def test_a_malformed_callback_request_is_a_400_problem(server: LiveServer) -> None:
    for body in MALFORMED:
        answer = post(server.url, body)
        assert answer.status == 400, (body if not isinstance(body, bytes) else body[:20], answer)
        assert answer.body.get("status") == 400
    page = find(dependencies(server.url), "page.children")
    fine = {"output": page["output"], "outputs": outputs(page["output"]),
            "inputs": [{"id": "url", "property": "pathname", "value": "/statistics"}],
            "state": [{"id": "url", "property": "search", "value": ""}],
            "changedPropIds": ["url.pathname"]}  # fmt: skip
    answer = post(server.url, fine)
    assert answer.status == 200 and "stats-body" in answer.text()


@pytest.mark.parametrize(
    "path",
    [
        "/_dash-component-suites/../../../etc/passwd",
        "/_dash-component-suites/dash/../../../../etc/passwd",
        "/_dash-component-suites/dash/dcc/../../../../../etc/passwd",
        "/_dash-component-suites/os/__init__.py",
        "/_dash-component-suites/dash/nothing.v1m1.js",
    ],
)
def test_a_path_outside_the_component_suites_is_404(live_server: LiveServer, path: str) -> None:
    address = urlsplit(live_server.url)
    conn = http.client.HTTPConnection(address.hostname or "", address.port, timeout=30)
    try:
        conn.request("GET", path)  # sent as is: http.client does not resolve the dots
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    assert response.status == 404, body[:200]
    assert b"root:" not in body
