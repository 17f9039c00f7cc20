"""Property-based fuzzing from the OpenAPI document: no 5xx, no answer that breaks the
contract; mutated and truncated records are rejected with 422 and nothing is stored."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.conftest import SHARED_GAMES, TOKENS, Server, Shared, record_of
from tests.api.test_upload import stored_games

EXAMPLES = 25
FUZZ = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
GET_PATHS = [
    "/api/games", "/api/games/{game_id}", "/api/games/{game_id}/record",
    "/api/games/{game_id}/events", "/api/games/{game_id}/states/{step}",
    "/api/games/{game_id}/timeline", "/api/games/{game_id}/analysis", "/api/stats",
    "/api/players/{name}",
]  # fmt: skip
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=24)


def value_for(name: str, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values the parameter ``name`` documented by ``schema`` should take, and some it
    should not."""
    if "enum" in schema:
        good: st.SearchStrategy[Any] = st.sampled_from(schema["enum"])
    elif schema.get("type") == "integer":
        low, high = schema.get("minimum", -10), schema.get("maximum", 10_000)
        good = st.integers(low - 2, high + 2)
    elif name in ("since", "until"):
        good = st.one_of(st.dates().map(str), st.datetimes().map(lambda d: d.isoformat()))
    else:
        good = TEXT
    return st.one_of(good, good, TEXT)


@st.composite
def requests(
    draw: st.DrawFn, op: dict[str, Any], ids: list[str], names: list[str]
) -> tuple[str, dict[str, Any]]:
    """A path and query for the operation ``op``, drawn from its parameters."""
    query: dict[str, Any] = {}
    path: dict[str, int | str] = {}
    for param in op.get("parameters", []):
        name = param["name"]
        if param["in"] == "query" and draw(st.booleans()):
            query[name] = draw(value_for(name, param["schema"]))
        elif param["in"] == "path":
            if name == "game_id":
                path[name] = draw(st.sampled_from(ids) | st.uuids().map(str) | TEXT)
            elif name == "name":
                path[name] = draw(st.sampled_from(names) | TEXT)
            else:
                path[name] = draw(st.integers(0, 400) | TEXT)
    return "/".join(quote(str(v), safe="") for v in path.values()), {**query, "_path": path}


@pytest.mark.parametrize("template", GET_PATHS)
def test_get_endpoints_hold_to_the_contract(shared: Shared, template: str) -> None:
    op = shared.server.contract.spec["paths"][template]["get"]
    ids = list(shared.ids.values())
    names = sorted({p["name"] for n in SHARED_GAMES for p in json.loads(record_of(n))["players"]})

    @FUZZ
    @given(drawn=requests(op, ids, names))
    def probe(drawn: tuple[str, dict[str, Any]]) -> None:
        _, query = drawn
        path = template
        for name, value in query.pop("_path").items():
            path = path.replace("{" + name + "}", quote(str(value), safe="") or "%20")
        reply = shared.client.get(path, query=query)  # the client checks the contract
        assert reply.status < 500, (path, query, reply.body[:300])

    probe()


def _actions_with_hexes(doc: dict[str, Any]) -> list[int]:
    return [i for i, a in enumerate(doc["actions"]) if "hex" in a]


@st.composite
def broken_records(draw: st.DrawFn) -> bytes:
    """A fixture record cut short, or changed so that it must be refused."""
    name = draw(st.sampled_from(["2p-00-heuristic", "3p-01-heuristic", "4p-02-heuristic"]))
    raw = record_of(name).rstrip()
    if draw(st.booleans()):
        return raw[: draw(st.integers(0, len(raw) - 1))]
    doc = json.loads(raw)
    actions = doc["actions"]
    i = draw(st.integers(0, len(actions) - 1))
    seats = len(doc["players"])
    kind = draw(st.sampled_from(["seat", "type", "hex", "drop", "junk", "header"]))
    if kind == "seat":
        actions[i]["player"] = (actions[i]["player"] + draw(st.integers(1, seats - 1))) % seats
    elif kind == "type":
        actions[i]["type"] = draw(TEXT.filter(lambda t: t not in {"move", "den", "lair", "howl",
                                                                 "dominate", "pass", "draft",
                                                                 "bonus_action"}))  # fmt: skip
    elif kind == "hex":
        i = draw(st.sampled_from(_actions_with_hexes(doc)))
        actions[i]["hex"] = [draw(st.integers(30, 99)), draw(st.integers(-99, 99))]
    elif kind == "drop":
        del actions[i]["player"]
    elif kind == "junk":
        actions[i] = draw(st.one_of(st.integers(), TEXT, st.lists(st.integers(), max_size=3)))
    else:
        doc["format"] = draw(TEXT.filter(lambda t: t != "howl.game"))
    return json.dumps(doc).encode()


def test_broken_records_are_refused_and_store_nothing(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    ana = server.as_user(TOKENS["ana"])

    @FUZZ
    @given(record=broken_records())
    def probe(record: bytes) -> None:
        reply = ana.upload(record)
        assert reply.status == 422, reply.body[:300]
        assert reply.json["title"] in ("Illegal action", "Invalid record")

    probe()
    assert stored_games(server) == 0
    stored = ana.upload(record_of("2p-00-heuristic"))
    assert stored.status == 201
    listed = [g["game_id"] for g in ana.get("/api/games").json["items"]]
    assert listed == [stored.json["game_id"]]
