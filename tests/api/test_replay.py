"""Per-game answers: summary, record, events, states, timeline, analysis; ETags and 304."""

from __future__ import annotations

import json
import uuid

import pytest

from domain.wolves import codec
from domain.wolves.positions import to_position
from domain.wolves.records import read_record, write_record
from domain.wolves.replay import initial, replay
from services.shared import services
from tests.api.client import Client
from tests.api.conftest import Shared, record_of

GAME = "3p-00-heuristic"
IMMUTABLE = "public, max-age=31536000, immutable"


def assert_cached(client: Client, path: str, cache_control: str = IMMUTABLE, **kw: object) -> None:
    """``path`` carries a strong ETag and ``cache_control``; the ETag answers 304."""
    first = client.get(path, **kw)
    assert first.status == 200, first.body[:300]
    etag = first.header("ETag")
    assert etag and etag.startswith('"') and not etag.startswith("W/"), etag
    assert first.header("Cache-Control") == cache_control
    again = client.get(path, headers={"If-None-Match": etag}, **kw)
    assert (again.status, again.body) == (304, b"")
    assert again.header("ETag") == etag and again.header("Cache-Control") == cache_control
    other = client.get(path, headers={"If-None-Match": '"something-else"'}, **kw)
    assert other.status == 200 and other.body == first.body


def test_summary(shared: Shared) -> None:
    game_id = shared.ids[GAME]
    summary = shared.client.get(f"/api/games/{game_id}").json
    assert summary["game_id"] == game_id
    assert summary["finished"] in (True, 1)
    expected = json.loads(record_of(GAME))
    assert [s["name"] for s in summary["seats"]] == [p["name"] for p in expected["players"]]
    assert_cached(shared.client, f"/api/games/{game_id}", "public, max-age=60")


def test_summary_etag_follows_the_metadata(shared: Shared) -> None:
    game_id = shared.ids["2p-07-random-terrain"]
    path = f"/api/games/{game_id}"
    before = shared.client.get(path)
    with shared.server.library() as library:
        library.retitle(uuid.UUID(game_id), "Renamed")
    services(shared.app).catch_up()  # as the server does within seconds of the change
    after = shared.client.get(path, headers={"If-None-Match": before.header("ETag")})
    assert after.status == 200 and after.json["title"] == "Renamed"
    assert after.header("ETag") != before.header("ETag")


def test_record_is_the_stored_canonical_json(shared: Shared) -> None:
    game_id = shared.ids[GAME]
    reply = shared.client.get(f"/api/games/{game_id}/record")
    assert reply.content_type == "application/json"
    assert reply.body == write_record(read_record(record_of(GAME)))
    # revalidated, not immutable: the export carries the game's comments as annotations
    assert_cached(shared.client, f"/api/games/{game_id}/record", "no-cache")


def test_events_are_paged(shared: Shared) -> None:
    game_id = shared.ids[GAME]
    played = replay(read_record(record_of(GAME)))
    expected = [
        {"step": step, **codec.event_to_json(event)}
        for step, events in enumerate(played.steps)
        for event in events
    ]
    got, start = [], 0
    while start is not None:
        page = shared.client.get(
            f"/api/games/{game_id}/events", query={"from": start, "limit": 50}
        ).json
        assert page["total"] == len(expected) and page["from"] == start
        got += page["items"]
        start = page["next"]
    assert [e.pop("seq") for e in got] == list(range(len(expected)))
    assert got == expected
    past = shared.client.get(f"/api/games/{game_id}/events", query={"from": 10**6}).json
    assert (past["items"], past["next"]) == ([], None)
    assert_cached(shared.client, f"/api/games/{game_id}/events", query={"from": 3, "limit": 7})
    for bad in ({"limit": 0}, {"limit": 1001}, {"from": -1}, {"from": "x"}):
        reply = shared.client.get(f"/api/games/{game_id}/events", query=bad)
        assert reply.status == 400 and reply.json["errors"]["query"]


def test_states_are_positions(shared: Shared) -> None:
    game_id = shared.ids[GAME]
    record = read_record(record_of(GAME))
    played = replay(record)
    assert shared.client.get(f"/api/games/{game_id}/states/0").json == to_position(initial(record))
    last = len(played.steps)
    assert shared.client.get(f"/api/games/{game_id}/states/{last}").json == to_position(
        played.state
    )
    beyond = shared.client.get(f"/api/games/{game_id}/states/{last + 1}")
    assert beyond.status == 404
    assert (beyond.json["title"], beyond.json["limit"]) == ("Unknown step", last)
    assert shared.client.get(f"/api/games/{game_id}/states/-1").status == 404
    assert_cached(shared.client, f"/api/games/{game_id}/states/7")


def test_timeline(shared: Shared) -> None:
    game_id = shared.ids[GAME]
    reply = shared.client.get(f"/api/games/{game_id}/timeline")
    steps = reply.json["steps"]
    assert len(steps) == len(read_record(record_of(GAME)).actions) + 1
    assert [row["step"] for row in steps] == list(range(len(steps)))
    assert steps[-1]["finished"] is True
    assert [s["place"] for s in steps[-1]["scores"]] == [v["place"] for v in steps[-1]["vp"]]
    assert steps[-1]["milestones"][-1]["kind"] == "game_ended"
    assert_cached(shared.client, f"/api/games/{game_id}/timeline")


def test_analysis_not_asked_for_is_none_and_not_stored_by_caches(shared: Shared) -> None:
    reply = shared.client.get(f"/api/games/{shared.ids[GAME]}/analysis")
    assert (reply.json["status"], reply.json["result"]) == ("none", None)
    assert reply.header("Cache-Control") == "no-store" and reply.header("ETag") is None


@pytest.mark.parametrize(
    "suffix", ["", "/record", "/events", "/states/0", "/timeline", "/analysis"]
)
def test_unknown_games_are_404_problems(shared: Shared, suffix: str) -> None:
    reply = shared.client.get(f"/api/games/{uuid.uuid4()}{suffix}")
    assert reply.status == 404
    assert reply.content_type == "application/problem+json"
    assert reply.json["title"] == "Unknown game"


def test_malformed_game_ids_are_404_problems(shared: Shared) -> None:
    for path in ("/api/games/not-a-uuid", "/api/games/not-a-uuid/record", "/api/games/x/states/1"):
        reply = shared.client.get(path)
        assert (reply.status, reply.content_type) == (404, "application/problem+json")


def test_immutable_answers_are_gzipped_for_clients_that_ask(shared: Shared) -> None:
    path = f"/api/games/{shared.ids[GAME]}/timeline"
    plain = shared.client.get(path)
    zipped = shared.client.get(path, headers={"Accept-Encoding": "gzip, br"})
    assert zipped.header("Content-Encoding") == "gzip" and plain.header("Content-Encoding") is None
    assert zipped.body == plain.body  # the client decodes it
    assert all("Accept-Encoding" in (r.header("Vary") or "") for r in (zipped, plain))
    assert zipped.header("ETag") != plain.header("ETag")
    again = shared.client.get(
        path, headers={"Accept-Encoding": "gzip", "If-None-Match": zipped.header("ETag")}
    )
    assert again.status == 304
    assert shared.client.get(path, headers={"If-None-Match": zipped.header("ETag")}).status == 200
