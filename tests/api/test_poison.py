"""Poison uploads through real HTTP on both backends: every one is
refused with its JSON path and stores nothing, and the service goes on storing, listing and
counting good games after them. Also the per-record work budget (``too_costly``)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from typing import Any

from tests.api.client import Client
from tests.api.conftest import record_of
from tests.api.contract import Contract
from tests.conftest import LiveServer

GAME, OTHER = "3p-00-heuristic", "2p-00-heuristic"
TOKEN = "t"
Doc = dict[str, Any]


def server(factory: Callable[..., LiveServer], store_url: str, **settings: Any) -> LiveServer:
    """A live server on ``store_url`` (a schema of its own on PostgreSQL) with one token."""
    if store_url.startswith("postgresql"):
        settings["database_schema"] = f"t_{uuid.uuid4().hex[:12]}"
    return factory(store_url, api_tokens={"ana": TOKEN}, **settings)


def poisoned(change: Callable[[Doc], None], name: str = GAME) -> bytes:
    doc = json.loads(record_of(name))
    change(doc)
    return json.dumps(doc).encode()


def at(path: str, value: Any) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        *parents, last = [int(k) if k.isdigit() else k for k in path.split(".")]
        node: Any = doc
        for key in parents:
            node = node[key]
        node[last] = value

    return change


def started(change: Callable[[Doc], None]) -> bytes:
    """A record starting from the 3-player fixture's position after 40 actions, changed."""
    from domain.wolves.positions import to_position
    from domain.wolves.records import read_record, record_to_json
    from domain.wolves.replay import replay

    record = read_record(record_of(GAME))
    doc = record_to_json(record)
    del doc["setup"]
    doc["start"] = to_position(replay(record, at=40).state)
    doc["actions"] = doc["actions"][40:]
    change(doc)
    return json.dumps(doc).encode()


POISONS = [
    ("stall limit 2^63", poisoned(at("setup.options.stall_limit_rounds", 2**63)),
     "setup.options.stall_limit_rounds"),
    ("stall limit 2^31", poisoned(at("setup.options.stall_limit_rounds", 2**31)),
     "setup.options.stall_limit_rounds"),
    ("seed 2^64", poisoned(at("setup.seed", 2**64)), "setup.seed"),
    ("seed 2^63", poisoned(at("setup.seed", 2**63)), "setup.seed"),
    ("seed 10^309", poisoned(at("setup.seed", 10**309)), "setup.seed"),
    ("seed 1e400", record_of(GAME).replace(b'"seed":', b'"seed":1e400,"was":', 1), ""),
    ("NUL in a name", poisoned(at("players.0.name", "A\x00na")), "players[0].name"),
    ("NUL in a colour", poisoned(at("players.1.color", "r\x00ed")), "players[1].color"),
    ("NUL in meta.title", poisoned(at("meta.title", "Club\x00night")), "meta.title"),
    ("lone surrogate in a name",
     record_of(GAME).replace(b'"Ana"', b'"\\ud800"', 1), "players[0].name"),
    ("region points 10^20", started(at("start.boards.1.region_points", 10**20)),
     "start.boards[1].region_points"),
    ("region tokens 10^20", started(at("start.boards.1.region_tokens", 10**20)),
     "start.boards[1].region_tokens"),
    ("hex at 2^70", poisoned(at("setup.map.hexes.0.hex", [2**70, 0]), "2p-07-random-terrain"),
     "setup.map.hexes[0].hex"),
]  # fmt: skip


def total(client: Client) -> int:
    reply = client.get("/api/games")
    assert reply.status == 200, reply.body[:300]
    return reply.json["total"]


def test_poison_uploads_are_refused_and_the_service_goes_on(
    live_server_factory: Callable[..., LiveServer], store_url: str, contract: Contract
) -> None:
    live = server(live_server_factory, store_url)
    ana = Client(live.url, contract, TOKEN)
    for name, body, path in POISONS:
        reply = ana.upload(body)
        assert reply.status == 422, (name, reply.body[:300])
        assert (reply.json["type"].endswith("invalid_record"), reply.json["path"]) == (True, path)
        assert total(ana) == 0, name
    for query in ({"title": "Club\x00night"}, {"tags": "club,fi\x00nal"}):
        assert ana.upload(record_of(GAME), query=query).status == 400, query
        reply = ana.upload_file(record_of(GAME), query)
        assert reply.status == 400, (query, reply.body[:300])
        assert reply.json["type"].endswith("invalid_parameters")
    assert total(ana) == 0
    stored = ana.upload(record_of(GAME), query={"title": "After the poison", "tags": "club"})
    assert stored.status == 201, stored.body[:300]
    assert stored.json["title"] == "After the poison"
    assert total(ana) == 1
    assert ana.upload(record_of(OTHER)).status == 201
    assert total(ana) == 2
    assert ana.get("/api/stats").status == 200


def test_a_huge_players_list_is_refused_at_once(
    live_server_factory: Callable[..., LiveServer], store_url: str, contract: Contract
) -> None:
    live = server(live_server_factory, store_url)
    ana = Client(live.url, contract, TOKEN)
    body = poisoned(at("players", [0] * 100_000))
    began = time.perf_counter()
    reply = ana.upload(body)
    assert time.perf_counter() - began < 2
    assert (reply.status, reply.json["path"]) == (422, "players")
    assert "at most 5" in reply.json["message"]
    assert ana.upload(record_of(GAME)).status == 201 and total(ana) == 1


def test_a_record_over_its_work_budget_is_too_costly(
    live_server_factory: Callable[..., LiveServer], store_url: str, contract: Contract
) -> None:
    live = server(live_server_factory, store_url, max_check_seconds=0)
    ana = Client(live.url, contract, TOKEN)
    reply = ana.upload(record_of(GAME))
    assert (reply.status, reply.json["type"].endswith("too_costly")) == (422, True)
    assert reply.json["limit"] == 0 and "CPU" in reply.json["detail"]
    assert total(ana) == 0
