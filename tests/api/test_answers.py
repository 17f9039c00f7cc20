"""What the API answers to odd requests: range-checked parameters and cursors (400, never a
500), private games, unknown paths (404 problems) and security headers on every answer."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from tests.api.conftest import PRIVATE_GAME, SHARED_GAMES, TOKENS, Shared
from tests.api.contract import Reply

GAME = "3p-00-heuristic"


def cursor_of(doc: Any) -> str:
    """A cursor as the server encodes them, around any JSON document."""
    return base64.urlsafe_b64encode(json.dumps(doc).encode()).decode().rstrip("=")


def assert_invalid(reply: Reply, where: str, name: str, *words: str) -> None:
    """A 400 ``invalid_parameters`` problem whose errors name ``name`` (in ``where``) with
    a message holding each of ``words``."""
    assert reply.status == 400, (reply.path, reply.status, reply.body[:300])
    assert reply.content_type == "application/problem+json"
    assert reply.json["type"].endswith("#problem-invalid_parameters")
    messages = " ".join(reply.json["errors"][where][name])
    for word in words:
        assert word in messages, (reply.path, messages)


RANGES = [
    ("/api/games", {"until": "9999-12-31"}, "until", ["1970-01-01", "9999-12-30"]),
    ("/api/games", {"since": "9999-12-31"}, "since", ["9999-12-30"]),
    ("/api/games", {"since": "0001-01-01"}, "since", ["1970-01-01"]),
    ("/api/games", {"until": "9999-12-30T23:00:00-05:00"}, "until", ["9999-12-30"]),
    ("/api/games", {"option": "stall_limit_rounds=99999999999999999999"}, "option", ["1 …"]),
    ("/api/games", {"option": "lone_wolves_per_region=4"}, "option", ["1 … 3"]),
    ("/api/games", {"option": "big_map=2"}, "option", ["0 … 1"]),
    ("/api/games", {"players": "99999999999999999999"}, "players", ["2", "5"]),
    ("/api/games", {"limit": "99999999999999999999"}, "limit", ["100"]),
    ("/api/games", {"player": "x" * 201}, "player", ["200"]),
    ("/api/games", {"winner": "x" * 201}, "winner", ["200"]),
    ("/api/games", {"cursor": "x" * 4001}, "cursor", ["4000"]),
    ("/api/stats", {"until": "9999-12-31"}, "until", ["9999-12-30"]),
    ("/api/stats", {"option": "stall_limit_rounds=99999999999999999999"}, "option", ["1 …"]),
    ("/api/stats", {"players": "-1"}, "players", ["2"]),
    ("/api/stats", {"player": "x" * 201}, "player", ["200"]),
]  # fmt: skip


@pytest.mark.parametrize(("path", "query", "name", "words"), RANGES)
def test_parameters_out_of_range_are_400_naming_the_range(
    shared: Shared, path: str, query: dict[str, str], name: str, words: list[str]
) -> None:
    assert_invalid(shared.client.get(path, query=query), "query", name, *words)


def test_event_offsets_and_steps_beyond_any_game(shared: Shared) -> None:
    game = shared.ids[GAME]
    reply = shared.client.get(f"/api/games/{game}/events?from=99999999999999999999")
    assert_invalid(reply, "query", "from", "2147483647")
    last = shared.client.get(f"/api/games/{game}/events?from=2147483647")
    assert (last.status, last.json["items"], last.json["next"]) == (200, [], None)
    far = shared.client.get(f"/api/games/{game}/states/99999999999999999999")
    assert (far.status, far.json["title"]) == (404, "Unknown step")


TEXT = "UTF-8 text without NUL"


@pytest.mark.parametrize(
    ("target", "where", "name"),
    [("/api/games?player=%00", "query", "player"),
     ("/api/games?winner=Bo%00", "query", "winner"),
     ("/api/games?player=%ED%A0%80", "query", "player"),
     ("/api/games?title=%ff", "query", "title"),
     ("/api/stats?player=%00", "query", "player"),
     ("/api/players/%00", "path", "path"),
     ("/api/players/%ED%A0%80", "path", "path"),
     ("/api/games/%00/record", "path", "path")],
)  # fmt: skip
def test_nul_and_lone_surrogates_are_400(
    shared: Shared, target: str, where: str, name: str
) -> None:
    assert_invalid(shared.client.get(target), where, name, TEXT)


def test_long_player_names_in_paths_are_400(shared: Shared) -> None:
    assert_invalid(shared.client.get("/api/players/" + "x" * 201), "path", "name", "200")
    assert shared.client.get("/api/players/" + "x" * 200).status == 404


UUID0 = "00000000-0000-0000-0000-000000000000"


@pytest.mark.parametrize(
    ("sort", "cursor"),
    [("-uploaded_at", cursor_of(["-uploaded_at", [1], "x"])),
     ("-uploaded_at", cursor_of(["-uploaded_at", "\u0000", UUID0])),
     ("-uploaded_at", cursor_of(["-uploaded_at", "yesterday", UUID0])),
     ("players", cursor_of(["players", "abc", UUID0])),
     ("players", cursor_of(["players", 2**63, UUID0])),
     ("players", cursor_of(["players", True, UUID0])),
     ("title", cursor_of(["title", None, UUID0])),
     ("winner", cursor_of(["winner", 3, UUID0])),
     ("title", cursor_of(["title", "a", 7])),
     ("title", cursor_of(["-uploaded_at", "a", UUID0])),
     ("title", cursor_of({"not": "a list"})),
     ("title", base64.urlsafe_b64encode(b"[" * 2900).decode()),
     ("title", "garbage!")],
)  # fmt: skip
def test_tampered_cursors_are_400(shared: Shared, sort: str, cursor: str) -> None:
    reply = shared.client.get("/api/games", query={"sort": sort, "cursor": cursor})
    assert_invalid(reply, "query", "cursor")
    assert reply.json["detail"].startswith("Invalid parameters: cursor:")


def test_real_cursors_still_page_through(shared: Shared) -> None:
    for sort in ("-uploaded_at", "title", "-top_vp", "players"):
        seen, cursor = [], None
        while True:
            query = {"sort": sort, "limit": 2, **({"cursor": cursor} if cursor else {})}
            page = shared.client.get("/api/games", query=query)
            assert page.status == 200, page.body
            seen += [i["game_id"] for i in page.json["items"]]
            cursor = page.json["next_cursor"]
            if cursor is None:
                break
        assert len(seen) == len(set(seen)) == len(SHARED_GAMES) - 1


def test_private_games_are_unlisted_not_secret(shared: Shared) -> None:
    """Only the token that uploaded a private game lists it; its id still reads it, for
    anyone; statistics never count it."""
    game = shared.ids[PRIVATE_GAME]
    for client in (shared.client, shared.server.as_user(TOKENS["bo"])):
        listed = client.get("/api/games", query={"limit": 100}).json["items"]
        assert game not in {i["game_id"] for i in listed}
        assert client.get(f"/api/games/{game}").json["visibility"] == "private"
    owner = shared.server.as_user(TOKENS["ana"]).get("/api/games", query={"players": 4})
    assert game in {i["game_id"] for i in owner.json["items"]}
    stats = shared.server.as_user(TOKENS["ana"]).get("/api/stats").json
    assert stats["games"] == len(SHARED_GAMES) - 1


@pytest.mark.parametrize(
    "target", ["/api", "/api/", "/api//games", "/api/x/y", "/api/games/", "/api/players/"]
)
def test_unknown_api_paths_are_404_problems(shared: Shared, target: str) -> None:
    reply = shared.client.get(target)
    assert (reply.status, reply.content_type) == (404, "application/problem+json"), reply.body
    assert reply.json["status"] == 404


SECURITY = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
}


def assert_secured(reply: Reply) -> str:
    """The security headers are on ``reply``; returns its Content-Security-Policy."""
    for name, value in SECURITY.items():
        assert reply.headers.get(name) == value, (reply.path, reply.status, name)
    policy = reply.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy, (reply.path, reply.status, policy)
    return policy


def test_every_answer_carries_security_headers(shared: Shared) -> None:
    client, game = shared.client, shared.ids[GAME]
    record = f"/api/games/{game}/events"  # immutable: answered again without Flask
    first = client.get(record)
    again = client.get(record)  # from the in-memory answers, without Flask
    etag = first.headers["etag"]
    answers = [
        client.get("/api/games"), client.get(f"/api/games/{game}"), first, again,
        client.get(record, headers={"If-None-Match": etag}),
        client.get(f"/api/games/{game}/timeline", headers={"If-None-Match": '"x"'}),
        client.get(f"/api/games/{game}", headers={"If-None-Match": first.headers["etag"]}),
        client.get("/api/health"), client.get("/api/openapi.json", check=False),
        client.get("/api/games?limit=0"), client.get("/api/nothing"),
        client.request("DELETE", "/api/health"), client.upload(b"{}"),
        client.get("/assets/replay.js", check=False),
    ]  # fmt: skip
    assert again.body == first.body
    statuses = {r.status for r in answers}
    assert {200, 304, 400, 401, 404, 405} <= statuses
    for reply in answers:
        assert assert_secured(reply) == "default-src 'none'; frame-ancestors 'none'"
    cached_304 = client.get(record, headers={"If-None-Match": etag})
    assert cached_304.status == 304
    assert_secured(cached_304)


def test_pages_carry_a_policy_that_lets_the_dashboard_run(shared: Shared) -> None:
    client = shared.client
    pages = [client.get(p, check=False) for p in ("/", f"/replay/{shared.ids[GAME]}", "/nowhere")]
    pages.append(client.get("/api/docs", check=False))
    for reply in pages:
        assert reply.status == 200 and reply.content_type.startswith("text/html")
        policy = assert_secured(reply)
        assert "script-src 'self' 'sha256-" in policy
        assert "'unsafe-eval'" not in policy and "script-src 'self' 'unsafe-inline'" not in policy
    callback = client.request(
        "POST", "/_dash-update-component", json_body={"output": "x.y"}, check=False
    )
    assert_secured(callback)
