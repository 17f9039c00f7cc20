"""A game's uploader changes its metadata through real HTTP, on both backends: title, tags and
visibility, stored as events and seen at once in its summary, the lists and the ratings;
another token is refused (403), no token too (401), and a bad change says where."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from services.withdrawals import POLL_SECONDS
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


def delete(server: Server, game_id: str, token: str | None = None) -> Any:
    return server.client.request("DELETE", f"/api/games/{game_id}", token=token)


def test_a_withdrawn_game_leaves_lists_statistics_and_ratings_and_answers_410(
    owned: tuple[Server, str],
) -> None:
    server, game_id = owned
    state = server.client.get(f"/api/games/{game_id}/states/3")  # cached by the server now
    assert state.status == 200
    assert delete(server, game_id).status == 401
    assert delete(server, game_id, TOKENS["bo"]).status == 403
    assert server.client.get("/api/games").json["total"] == 1  # refused: nothing changed
    assert delete(server, game_id, TOKENS["ana"]).status == 204
    for path in ("", "/record", "/events", "/states/3", "/timeline"):
        gone = server.client.get(f"/api/games/{game_id}{path}")
        assert (gone.status, gone.json["title"]) == (410, "Withdrawn game"), path
    assert server.as_user(TOKENS["ana"]).get("/api/games").json["total"] == 0
    assert server.client.get("/api/stats").json["games"] == 0
    assert server.client.get("/api/ratings", query={"game": "the-wolves"}).json["games"] == 0
    again = delete(server, game_id, TOKENS["ana"])
    assert (again.status, again.json["title"]) == (410, "Withdrawn game")  # twice in a row
    assert patch(server, game_id, {"title": "x"}, TOKENS["ana"]).status == 410
    reupload = server.as_user(TOKENS["ana"]).upload(record_of("2p-00-heuristic"))
    assert (reupload.status, reupload.json["title"]) == (410, "Withdrawn game")
    with server.library() as library:
        assert library.withdrawn(UUID(game_id))  # its stream stays


def test_a_withdrawn_games_comments_rating_and_short_id_answer_410(
    owned: tuple[Server, str],
) -> None:
    server, game_id = owned
    ana = server.as_user(TOKENS["ana"])
    made = ana.request(
        "POST", f"/api/games/{game_id}/comments", json_body={"step": 2, "text": "bold"}
    )
    assert made.status == 201, made.body
    comment = f"/api/comments/{made.json['comment_id']}"
    assert server.client.get(f"/api/games/{game_id}/ratings").status == 200
    assert server.client.get(f"/api/games/{game_id[:8]}", check=False).status == 308
    assert delete(server, game_id, TOKENS["ana"]).status == 204
    reads = [f"/api/games/{game_id}/comments", comment, f"/api/games/{game_id}/ratings",
             f"/api/games/{game_id[:8]}"]  # fmt: skip
    for path in reads:
        gone = server.client.get(path)
        assert (gone.status, gone.json["title"]) == (410, "Withdrawn game"), path
    removed = server.client.request("DELETE", comment, token=TOKENS["ana"])
    assert (removed.status, removed.json["title"]) == (410, "Withdrawn game")
    added = ana.request(
        "POST", f"/api/games/{game_id}/comments", json_body={"step": 1, "text": "x"}
    )
    assert (added.status, added.json["title"]) == (410, "Withdrawn game")


def ratings_of(server: Server) -> list[tuple[str, float, float, int]]:
    board = server.client.get("/api/ratings", query={"game": "moonlight"}).json
    return [(p["name"], p["mu"], p["sigma"], p["games"]) for p in board["players"]]


def test_a_withdrawn_game_changes_the_ratings_as_if_it_had_never_been_played(
    fresh_server: Callable[..., Server],
) -> None:
    everything, without = fresh_server(), fresh_server(own_store=True)
    ids = [everything.as_user(TOKENS["ana"]).upload(league_record(i)).json["game_id"]
           for i in range(6)]  # fmt: skip
    for i in (0, 1, 3, 4, 5):
        assert without.as_user(TOKENS["ana"]).upload(league_record(i)).status == 201
    before = ratings_of(everything)
    assert delete(everything, ids[2], TOKENS["ana"]).status == 204
    assert ratings_of(everything) == ratings_of(without) != before


def test_a_new_day_played_reorders_the_ratings_and_moves_the_game_between_seasons(
    fresh_server: Callable[..., Server],
) -> None:
    server, other = fresh_server(), fresh_server(own_store=True)
    days = ["2026-03-01", "2026-03-02", "2026-03-03"]
    ids = [server.as_user(TOKENS["ana"]).upload(league_record(i, days[i])).json["game_id"]
           for i in range(3)]  # fmt: skip
    for i, day in ((1, "2026-03-02"), (2, "2026-03-03"), (0, "2026-03-04")):
        assert other.as_user(TOKENS["ana"]).upload(league_record(i, day)).status == 201
    moved = patch(server, ids[0], {"played_on": "2026-03-04"}, TOKENS["ana"])
    assert moved.status == 200 and moved.json["played_at"].startswith("2026-03-04T00:00:00")
    assert ratings_of(server) == ratings_of(other)  # rated in the order played
    march_4 = server.client.get("/api/games", query={"since": "2026-03-04"}).json
    assert [g["game_id"] for g in march_4["items"]] == [ids[0]]
    unknown = patch(server, ids[0], {"played_on": None}, TOKENS["ana"])
    summary = server.client.get(f"/api/games/{ids[0]}").json
    assert (
        unknown.json["played_at"][:10] == summary["played_at"][:10] == summary["uploaded_at"][:10]
    )
    for bad in ("2026-02-30", "1969-12-31", "next tuesday"):
        refused = patch(server, ids[0], {"played_on": bad}, TOKENS["ana"])
        assert refused.status == 400 and "played_on" in refused.json["detail"], bad


def test_merging_two_names_merges_their_ratings_and_statistics(
    fresh_server: Callable[..., Server],
) -> None:
    """Bo also wrote himself "Bob": once merged, his games are one player's, rated as if
    every record had said "Bo"."""
    split, whole = fresh_server(), fresh_server(own_store=True)
    for i in range(6):
        record = league_record(i)
        split_record = record.replace(b'"Bo"', b'"Bob"') if i % 2 else record
        assert split.as_user(TOKENS["ana"]).upload(split_record).status == 201
        assert whole.as_user(TOKENS["ana"]).upload(record).status == 201
    assert {"Bo", "Bob"} <= {name for name, *_ in ratings_of(split)}
    merge = {"alias": "Bob", "into": "Bo"}
    refused = split.client.request("POST", "/api/players/merges", json_body=merge)
    assert refused.status == 401
    merged = split.client.request("POST", "/api/players/merges", json_body=merge,
                                  token=TOKENS["bo"])  # fmt: skip
    assert merged.status == 201 and merged.json == {**merge, "player": "Bo", "merged": True}
    assert ratings_of(split) == ratings_of(whole)
    again = split.client.request("POST", "/api/players/merges", json_body=merge,
                                 token=TOKENS["bo"])  # fmt: skip
    assert again.status == 200 and again.json["merged"] is False
    by_alias = split.client.get("/api/games", query={"player": "BOB"}).json
    assert by_alias["total"] == whole.client.get("/api/games", query={"player": "bo"}).json["total"]
    assert split.client.get("/api/players/Bob/vs/Bo").status == 400  # one player now
    profile = split.client.get("/api/players/Bob").json
    assert profile["games"] == whole.client.get("/api/players/Bo").json["games"]
    for bad in ({"alias": "Bo"}, {"alias": " ", "into": "Bo"}, {"alias": "a\x00", "into": "B"}):
        said = split.client.request("POST", "/api/players/merges", json_body=bad,
                                    token=TOKENS["bo"])  # fmt: skip
        assert said.status == 400, bad


def test_a_game_withdrawn_by_another_process_leaves_this_ones_cached_answers(
    owned: tuple[Server, str],
) -> None:
    server, game_id = owned
    path = f"/api/games/{game_id}/states/2"
    assert server.client.get(path).status == 200
    assert server.client.get(path).status == 200  # now answered from the server's cache
    with server.library() as library:  # as another server process would
        library.withdraw(UUID(game_id))
    time.sleep(POLL_SECONDS + 0.2)
    server.client.get("/api/health")  # the poll runs before a GET is answered
    gone = server.client.get(path)
    assert (gone.status, gone.json["title"]) == (410, "Withdrawn game")


def test_statistics_and_a_players_page_repeat_until_a_write_and_follow_it_at_once(
    owned: tuple[Server, str],
) -> None:
    """Kept in memory while the read models stand still (the same bytes again); made anew
    after an upload or a change for a request with a token at once, and for an anonymous
    one within a moment (it may be given the last answer, made again meanwhile)."""
    server, game_id = owned
    ana = server.as_user(TOKENS["ana"])
    stats, player = "/api/stats", "/api/players/Ana"
    first = server.client.get(stats)
    assert first.json["games"] == 1 and server.client.get(stats).body == first.body
    page = server.client.get(player)
    assert page.json["games"] == 1 and server.client.get(player).body == page.body
    assert ana.upload(record_of("2p-01-heuristic")).status == 201
    assert ana.get(stats).json["games"] == 2 and ana.get(player).json["games"] == 2
    assert server.client.get(stats).json["games"] in (1, 2)  # the last answer, or the new
    _eventually(lambda: server.client.get(stats).json["games"] == 2)
    _eventually(lambda: server.client.get(player).json["games"] == 2)
    assert patch(server, game_id, {"visibility": "private"}, TOKENS["ana"]).status == 200
    assert ana.get(stats).json["games"] == 1 and ana.get(player).json["games"] == 1
    _eventually(lambda: server.client.get(stats).json["games"] == 1)


def _eventually(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.05)
