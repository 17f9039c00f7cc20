"""A game's uploader changes its metadata through real HTTP, on both backends: title, tags and
visibility, stored as events and seen at once in its summary, the lists and the ratings;
another token is refused (403), no token too (401), and a bad change says where."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.conftest import TOKENS, Server, record_of
from tests.api.test_ratings import league_record


@pytest.fixture
def owned(fresh_server: Callable[..., Server]) -> tuple[Server, str]:
    """A server holding one game of The Wolves that ``ana`` uploaded; its id."""
    server = fresh_server()
    reply = server.as_user(TOKENS["ana"]).upload(record_of("2p-00-heuristic"), query={"tags": "a"})
    assert reply.status == 201
    return server, reply.json["game_id"]


def patch(server: Server, game_id: str, body: Any, token: str | None = None) -> Any:
    return server.client.request("PATCH", f"/api/games/{game_id}", json_body=body, token=token)


def test_the_uploader_changes_title_tags_and_visibility(owned: tuple[Server, str]) -> None:
    server, game_id = owned
    before = server.client.get(f"/api/games/{game_id}")
    changed = patch(server, game_id, {"title": " Club night #3 ", "tags": ["club", "finals"]},
                    TOKENS["ana"])  # fmt: skip
    assert changed.status == 200, changed.body
    assert (changed.json["title"], changed.json["tags"]) == ("Club night #3", ["club", "finals"])
    again = server.client.get(f"/api/games/{game_id}",
                              headers={"If-None-Match": before.header("ETag")})  # fmt: skip
    assert again.status == 200 and again.json["title"] == "Club night #3"  # its ETag moved on
    listed = server.client.get("/api/games", query={"tag": "club"}).json
    assert [g["game_id"] for g in listed["items"]] == [game_id]
    assert patch(server, game_id, {"title": None}, TOKENS["ana"]).json["title"] is None
    hidden = patch(server, game_id, {"visibility": "private"}, TOKENS["ana"])
    assert hidden.json["visibility"] == "private"
    assert server.client.get("/api/games").json["total"] == 0
    assert server.as_user(TOKENS["ana"]).get("/api/games").json["total"] == 1
    assert server.client.get("/api/ratings", query={"game": "the-wolves"}).json["games"] == 0
    shown = patch(server, game_id, {"visibility": "public"}, TOKENS["ana"])
    assert shown.json["visibility"] == "public"
    assert server.client.get("/api/ratings", query={"game": "the-wolves"}).json["games"] == 1


def test_a_private_game_leaves_the_ratings_and_comes_back(
    fresh_server: Callable[..., Server],
) -> None:
    server = fresh_server()
    uploader = server.as_user(TOKENS["ana"])
    ids = [uploader.upload(league_record(i)).json["game_id"] for i in range(4)]
    rated = server.client.get("/api/ratings", query={"game": "moonlight"}).json
    patch(server, ids[1], {"visibility": "private"}, TOKENS["ana"])
    without = server.client.get("/api/ratings", query={"game": "moonlight"}).json
    assert without["games"] == 3 and without != rated
    patch(server, ids[1], {"visibility": "public"}, TOKENS["ana"])
    assert server.client.get("/api/ratings", query={"game": "moonlight"}).json == rated


@pytest.mark.parametrize(
    ("body", "token", "status", "said"),
    [
        ({"title": "mine now"}, "bo", 403, "Only the token that uploaded this game"),
        ({"title": "mine now"}, None, 401, "Authorization: Bearer"),
        ({}, "ana", 400, "at least one of title, tags, visibility"),
        ({"visibility": "secret"}, "ana", 400, "visibility"),
        ({"title": "a\x00b"}, "ana", 400, "title"),
        ({"tags": ["x" * 600, "y" * 600]}, "ana", 400, "tags: Longer than 1000 characters"),
        ({"owner": "bo"}, "ana", 400, "owner"),
        ({"tags": ["a,b"]}, "ana", 400, "tags: A tag is not blank and holds no comma"),
        ({"tags": [" "]}, "ana", 400, "tags: A tag is not blank"),
    ],
)  # fmt: skip
def test_a_change_by_another_or_a_bad_one_is_refused_and_nothing_changes(
    owned: tuple[Server, str], body: Any, token: str | None, status: int, said: str
) -> None:
    server, game_id = owned
    refused = patch(server, game_id, body, TOKENS[token] if token else None)
    assert refused.status == status, refused.body
    assert said in refused.json["detail"]
    summary = server.client.get(f"/api/games/{game_id}").json
    assert (summary["title"], summary["tags"]) == ("Self-play #1", ["a"])


def test_an_unknown_game_is_a_404(owned: tuple[Server, str]) -> None:
    server, _ = owned
    missing = patch(server, "00000000-0000-0000-0000-000000000000", {"title": "x"}, TOKENS["ana"])
    assert (missing.status, missing.json["title"]) == (404, "Unknown game")
