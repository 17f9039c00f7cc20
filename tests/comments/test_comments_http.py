"""Comments on a game's steps through real HTTP on SQLite and PostgreSQL: made, listed in
step order, removed by their author only, bounded, and exported with the record."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.documents import Annotation
from domain.store.comments import MAX_COMMENTS, add_comments
from tests.api.conftest import Server, record_of
from tests.comments.conftest import ANA, BO, GAME, comment, stored

StartServer = Callable[..., Server]


def test_comments_are_made_listed_by_step_and_removed_by_their_author(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    client = server.client
    game_id = stored(client)
    late = comment(client, game_id, 12, "Bo's den here decides the crescent scoring.")
    assert late.status == 201, late.body
    made = late.json
    assert (made["step"], made["author"]) == (12, "ana")
    assert made["text"] == "Bo's den here decides the crescent scoring."
    assert late.header("Location") == f"/api/comments/{made['comment_id']}"
    early = comment(client, game_id, 0, "Both start\nfar apart.\tQuiet opening.", token=BO).json
    same_step = comment(client, game_id, 12, "Agreed.", token=BO).json
    listed = client.get(f"/api/games/{game_id}/comments")
    assert listed.status == 200 and listed.header("Cache-Control") == "no-store"
    assert listed.json == {"comments": [early, made, same_step]}
    assert client.get(f"/api/comments/{made['comment_id']}").json == made

    refused = client.request("DELETE", f"/api/comments/{made['comment_id']}", token=BO)
    assert refused.status == 403 and refused.json["type"].endswith("not_author")
    anonymous = client.request("DELETE", f"/api/comments/{made['comment_id']}")
    assert anonymous.status == 401
    removed = client.request("DELETE", f"/api/comments/{made['comment_id']}", token=ANA)
    assert (removed.status, removed.body) == (204, b"")
    again = client.request("DELETE", f"/api/comments/{made['comment_id']}", token=ANA)
    assert again.status == 404 and again.json["type"].endswith("unknown_comment")
    assert client.get(f"/api/comments/{made['comment_id']}").status == 404
    assert client.get(f"/api/games/{game_id}/comments").json == {"comments": [early, same_step]}


def test_writing_needs_a_known_token_and_a_stored_game(fresh_server: StartServer) -> None:
    server = fresh_server()
    client = server.client
    game_id = stored(client)
    path = f"/api/games/{game_id}/comments"
    anonymous = client.request("POST", path, json_body={"step": 1, "text": "hi"})
    assert anonymous.status == 401 and anonymous.json["type"].endswith("missing_token")
    unknown = comment(client, game_id, 1, "hi", token="not-a-token")
    assert unknown.status == 403 and unknown.json["type"].endswith("unknown_token")
    nowhere = comment(client, str(UUID(int=7)), 1, "hi")
    assert nowhere.status == 404 and nowhere.json["type"].endswith("unknown_game")
    assert client.get(f"/api/games/{UUID(int=7)}/comments").status == 404
    assert client.get(path).json == {"comments": []}


def test_bad_comments_are_refused_naming_the_field_and_nothing_is_stored(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    client = server.client
    game_id = stored(client)
    last = len(json.loads(record_of(GAME))["actions"])
    cases: list[tuple[object, object, str]] = [
        (last + 1, "after the end", "step"), (-1, "before the start", "step"),
        ("3", "a string step", "step"), (True, "a boolean step", "step"),
        (3, "", "text"), (3, "   \n", "text"), (3, "x" * 2001, "text"),
        (3, "a bell \x07 rings", "text"), (3, "a NUL \x00 here", "text"),
        (3, "an escape \x1b[2J", "text"), (3, 42, "text"), (3, None, "text"),
    ]  # fmt: skip
    for step, text, field in cases:
        reply = comment(client, game_id, step, text)
        assert reply.status == 400, (step, text, reply.body)
        assert reply.json["type"].endswith("invalid_parameters")
        assert field in reply.json["errors"]["json"], (step, text, reply.json)
    missing = client.request("POST", f"/api/games/{game_id}/comments", json_body={"step": 1},
                             token=ANA)  # fmt: skip
    assert missing.status == 400 and "text" in missing.json["errors"]["json"]
    assert client.get(f"/api/games/{game_id}/comments").json == {"comments": []}
    longest = comment(client, game_id, last, "y" * 2000)
    assert longest.status == 201 and longest.json["step"] == last


def test_a_game_takes_at_most_500_comments(fresh_server: StartServer) -> None:
    server = fresh_server()
    client = server.client
    game_id = stored(client)
    with server.library() as library:
        notes = [Annotation(i % 10, "ana", f"note {i}") for i in range(MAX_COMMENTS - 1)]
        assert len(add_comments(library, UUID(game_id), notes)) == MAX_COMMENTS - 1
    assert comment(client, game_id, 1, "the last one").status == 201
    full = comment(client, game_id, 1, "one too many")
    assert full.status == 409 and full.json["type"].endswith("too_many_comments")
    assert full.json["limit"] == MAX_COMMENTS
    assert len(client.get(f"/api/games/{game_id}/comments").json["comments"]) == MAX_COMMENTS


def test_two_writers_at_once_both_keep_their_comment(fresh_server: StartServer) -> None:
    server = fresh_server()
    game_id = stored(server.client)
    barrier = threading.Barrier(4)
    replies: list[Any] = []

    def write(token: str, n: int) -> None:
        client = server.as_user(token)
        barrier.wait()
        replies.append(comment(client, game_id, n, f"at the same time {n}", token=token))

    threads = [threading.Thread(target=write, args=(t, n)) for n, t in enumerate((ANA, BO) * 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status for r in replies) == [201] * 4
    texts = [
        c["text"] for c in server.client.get(f"/api/games/{game_id}/comments").json["comments"]
    ]
    assert texts == [f"at the same time {n}" for n in range(4)]


def test_the_record_export_carries_the_comments_as_annotations(fresh_server: StartServer) -> None:
    server = fresh_server()
    client = server.client
    game_id = stored(client)
    path = f"/api/games/{game_id}/record"
    bare = client.get(path)
    assert bare.status == 200 and bare.body == record_of_stored(server, game_id)
    assert bare.header("Cache-Control") == "no-cache"
    etag = bare.header("ETag")
    assert client.get(path, headers={"If-None-Match": etag}).status == 304
    made = comment(client, game_id, 5, "Here it turns.").json
    comment(client, game_id, 2, "Opening.", token=BO)
    annotated = client.get(path, headers={"If-None-Match": etag})
    assert annotated.status == 200 and annotated.header("ETag") != etag
    doc = json.loads(annotated.body)
    assert doc["annotations"] == [
        {"step": 2, "author": "bo", "text": "Opening."},
        {"step": 5, "author": "ana", "text": "Here it turns."},
    ]
    assert {k: v for k, v in doc.items() if k != "annotations"} == json.loads(bare.body)
    current = annotated.header("ETag")
    assert client.get(path, headers={"If-None-Match": current}).status == 304
    client.request("DELETE", f"/api/comments/{made['comment_id']}", token=ANA)
    after = client.get(path, headers={"If-None-Match": current})
    assert after.status == 200
    assert json.loads(after.body)["annotations"] == [
        {"step": 2, "author": "bo", "text": "Opening."}
    ]


def record_of_stored(server: Server, game_id: str) -> bytes:
    """The game's record as the store keeps it."""
    with server.library() as library:
        return library.record(UUID(game_id))
