"""Bot seats in the statistics, over real HTTP on SQLite and PostgreSQL: a stored game keeps
each seat's ``bot`` flag; ``/api/stats`` and ``/api/players/{name}`` leave the seats bots
played out by default and count them with ``bots=include``; so do the dashboard's
statistics and player pages, by their "Count bots' seats" checkbox."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.api.conftest import Server
from tests.dashboard.callbacks import call, dependencies, find
from tests.tables.conftest import ANA

StartServer = Callable[..., Server]
FIXTURES = Path(__file__).parents[1] / "fixtures" / "the-wolves"


def record(name: str, players: list[dict[str, Any]]) -> bytes:
    """A fixture game with its seats' names (and bots) replaced."""
    doc = json.loads((FIXTURES / f"{name}.json").read_text())
    doc["players"] = [{**seat, **p} for seat, p in zip(doc["players"], players, strict=True)]
    return json.dumps(doc).encode()


def stored(server: Server) -> list[str]:
    """Three games: Ana against the heuristic bot Bo, Ana against Bo in person, and the
    review bot Rex against Ana."""
    ana = server.as_user(ANA)
    games = [
        record("2p-00-heuristic", [{"name": "Ana"}, {"name": "Bo", "bot": "heuristic"}]),
        record("2p-01-heuristic", [{"name": "Ana"}, {"name": "Bo"}]),
        record(
            "2p-02-heuristic", [{"name": "Rex", "bot": "review", "bot_depth": 2}, {"name": "Ana"}]
        ),
    ]
    ids = []
    for data in games:
        reply = ana.upload(data)
        assert reply.status == 201, reply.body
        ids.append(reply.json["game_id"])
    return ids


def test_bot_seats_are_left_out_of_player_statistics_unless_included(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    ids = stored(server)
    seats = server.client.get(f"/api/games/{ids[0]}").json["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [("Ana", False), ("Bo", True)]

    people = server.client.get("/api/stats", query={"game": "the-wolves"}).json
    everyone = server.client.get("/api/stats", query={"game": "the-wolves", "bots": "include"}).json
    assert people["games"] == everyone["games"] == 3  # the games count; their bots' seats not
    assert (people["seats"], everyone["seats"]) == (4, 6)
    assert {p["name"]: p["games"] for p in people["players"]} == {"Ana": 3, "Bo": 1}
    assert {p["name"]: p["games"] for p in everyone["players"]} == {"Ana": 3, "Bo": 2, "Rex": 1}

    bo = server.client.get("/api/players/Bo").json
    assert (bo["games"], len(bo["trend"])) == (1, 1) and bo["trend"][0]["game_id"] == ids[1]
    bo_all = server.client.get("/api/players/Bo", query={"bots": "include"}).json
    assert bo_all["games"] == 2
    rex = server.client.get("/api/players/Rex")
    assert rex.status == 404 and rex.json["type"].endswith("unknown_player")
    assert server.client.get("/api/players/Rex", query={"bots": "include"}).json["games"] == 1
    bad = server.client.get("/api/stats", query={"bots": "all"})
    assert bad.status == 400 and "bots" in bad.json["errors"]["query"]


def test_the_statistics_and_player_pages_count_bots_by_their_checkbox(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    stored(server)
    url = server.live.url
    deps = dependencies(url)
    body = find(deps, "stats-body.children")
    people, everyone = (
        call(url, body, {"stats-game.value": "the-wolves", "stats-bots.value": bots}).text()
        for bots in ([], ["include"])
    )
    assert "3 finished games, 4 seats." in people and "Rex" not in people
    assert "3 finished games, 6 seats." in everyone and "Rex" in everyone
    player = find(deps, "player-body.children")
    alone, counted = (
        call(url, player, {"player-name.data": "Bo", "player-bots.value": v}, "player-bots.value")
        for v in ([], ["include"])
    )
    assert alone.status == counted.status == 200
    assert "1 games, " in alone.text() and "2 games, " in counted.text()
