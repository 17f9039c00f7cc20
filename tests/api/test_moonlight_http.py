"""Moonlight over real HTTP, on SQLite and PostgreSQL: upload, events, states, timeline and
``/api/stats?game=moonlight`` (M-3, M-5, M-7)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.api.conftest import TOKENS, Server

FIXTURES = Path(__file__).parents[1] / "fixtures" / "moonlight"
GAMES = ("00-greedy", "08-random", "18-random-greedy-starts")


@pytest.fixture
def server(fresh_server: Callable[..., Server]) -> Server:
    return fresh_server()


def test_upload_events_states_timeline_and_stats(server: Server) -> None:
    ana = server.as_user(TOKENS["ana"])
    ids = {}
    for name in GAMES:
        stored = ana.upload((FIXTURES / f"{name}.json").read_bytes())
        assert stored.status == 201, stored.body[:300]
        ids[name] = stored.json["game_id"]
    game_id = ids["00-greedy"]
    record = json.loads((FIXTURES / "00-greedy.json").read_text())
    expected = json.loads((FIXTURES / "00-greedy.expected.json").read_text())

    summary = server.client.get(f"/api/games/{game_id}").json
    assert summary["game"] == "moonlight"
    assert [s["total"] for s in summary["seats"]] == [s["total"] for s in expected["scores"]]
    assert summary["seats"][0]["points"]["total"] == sum(
        r["points"] for r in expected["scores"][0]["rounds"]
    )
    events = server.client.get(f"/api/games/{game_id}/events", query={"limit": 2}).json
    assert (events["total"], events["next"]) == (expected["events"], 2)
    assert events["items"][0]["type"] == "RoundStarted"
    last = len(record["actions"])
    end = server.client.get(f"/api/games/{game_id}/states/{last}").json
    assert end["game"] == "moonlight"
    beyond = server.client.get(f"/api/games/{game_id}/states/{last + 1}")
    assert beyond.status == 404

    steps = server.client.get(f"/api/games/{game_id}/timeline").json["steps"]
    assert len(steps) == last + 1
    scored = [s for s in steps if any(m["kind"] == "round_won" for m in s["milestones"])]
    won = sum(r["won"] is True for s in expected["scores"] for r in s["rounds"])
    assert len(scored) == won
    final = steps[-1]["scores"]
    assert [s["total"] for s in final] == [s["total"] for s in expected["scores"]]
    assert (
        steps[-1]["scoring"]["seats"][0]["points"] == expected["scores"][0]["rounds"][-1]["points"]
    )

    stats = server.client.get("/api/stats", query={"game": "moonlight"})
    assert stats.status == 200
    body = stats.json
    assert (body["game"], body["games"]) == ("moonlight", len(GAMES))
    assert {"card_values", "cards_played", "round_points", "round_winners"} <= set(body)
    assert {f["key"] for f in body["figures"]} >= {"card_values", "round_winners"}
    placed = sum(
        a["type"] == "place"
        for name in GAMES
        for a in json.loads((FIXTURES / f"{name}.json").read_text())["actions"]
    )
    assert sum(row["count"] for row in body["card_values"]) == placed
    assert [r["seat"] for r in body["win_rate"]["by_seat"]] == [0, 1]
    assert sum(r["wins"] for r in body["win_rate"]["by_seat"]) == len(GAMES)
    assert {r["started"] for r in body["win_rate"]["by_start"]} == {True, False}
    wolves = server.client.get("/api/stats", query={"game": "the-wolves"}).json
    assert wolves["games"] == 0
