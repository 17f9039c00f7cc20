"""``POST /api/games``: uploads as JSON or multipart, duplicates, auth, limits, record errors."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable

from domain.store import game_id_for, record_digest
from domain.wolves.records import read_record, write_record
from tests.api.conftest import TOKENS, Server, record_of

GAME = "2p-00-heuristic"


def game_id(record: bytes) -> str:
    return str(game_id_for(record_digest(write_record(read_record(record)))))


def mutated(name: str, change: Callable[[dict], None]) -> bytes:
    doc = json.loads(record_of(name))
    change(doc)
    return json.dumps(doc).encode()


def stored_games(server: Server) -> int:
    with server.library() as library:
        return len(library.recorder.select_notifications(start=None, limit=1_000_000))


def test_upload_stores_the_game_and_answers_its_summary(
    fresh_server: Callable[..., Server],
) -> None:
    server = fresh_server()
    ana = server.as_user(TOKENS["ana"])
    created = ana.upload(record_of(GAME), query={"title": "Club night", "tags": "club, final"})
    assert created.status == 201
    location = f"/api/games/{game_id(record_of(GAME))}"
    assert created.header("Location") == location
    summary = created.json
    assert summary["game_id"] == game_id(record_of(GAME))
    assert summary["uploaded_by"] == "ana"
    assert summary["title"] == "Club night"
    assert summary["tags"] == ["club", "final"]
    assert summary["visibility"] == "public"
    assert server.client.get(location).json == summary

    again = server.as_user(TOKENS["bo"]).upload(record_of(GAME), query={"title": "Other"})
    assert again.status == 200
    assert again.json["game_id"] == summary["game_id"]
    assert again.json["uploaded_by"] == "ana" and again.json["title"] == "Club night"


def test_multipart_upload_with_form_fields(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    bo = server.as_user(TOKENS["bo"])
    fields = {"title": "From a file", "tags": "cup", "visibility": "private"}
    reply = bo.upload_file(record_of("3p-00-heuristic"), fields)
    assert reply.status == 201
    assert (reply.json["title"], reply.json["tags"], reply.json["visibility"]) == (
        "From a file", ["cup"], "private",
    )  # fmt: skip
    assert reply.json["uploaded_by"] == "bo"
    assert bo.upload_file(record_of("3p-00-heuristic")).status == 200
    missing = bo.request("POST", "/api/games", body=b"--x--\r\n",
                         content_type="multipart/form-data; boundary=x")  # fmt: skip
    assert missing.status == 400
    assert missing.json["errors"] == {"form": {"file": ["Missing data for required field."]}}


def test_upload_needs_a_known_bearer_token(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    anonymous = server.client.upload(record_of(GAME))
    assert anonymous.status == 401
    assert anonymous.content_type == "application/problem+json"
    assert (anonymous.header("WWW-Authenticate") or "").startswith("Bearer")
    basic = server.client.upload(record_of(GAME), headers={"Authorization": "Basic YW5hOng="})
    assert basic.status == 401
    stranger = server.as_user("not-a-token").upload(record_of(GAME))
    assert stranger.status == 403
    assert stranger.json["title"] == "Unknown token"
    assert stored_games(server) == 0


def test_oversized_bodies_are_413(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server(max_upload_bytes=4096)
    ana = server.as_user(TOKENS["ana"])
    for reply in (ana.upload(record_of(GAME)), ana.upload_file(record_of(GAME))):
        assert reply.status == 413
        assert reply.content_type == "application/problem+json"
        assert reply.json["status"] == 413
        assert reply.json["type"] == "/api/docs#problem-too_large"
        assert reply.json["limit"] == 4096
        assert "the limit is 0.00391 MiB (4096 bytes" in reply.json["detail"]
    assert stored_games(server) == 0


def test_chunked_bodies_over_the_limit_are_413_too(fresh_server: Callable[..., Server]) -> None:
    record = record_of(GAME)
    server = fresh_server(max_upload_bytes=len(record))

    def send_chunked(body: bytes) -> int:
        conn = http.client.HTTPConnection(server.client.host, server.client.port, timeout=60)
        headers = {"Authorization": f"Bearer {TOKENS['ana']}", "Content-Type": "application/json"}
        try:
            conn.request("POST", "/api/games", body=iter([body[:999], body[999:]]),
                         headers=headers, encode_chunked=True)  # fmt: skip
            return conn.getresponse().status
        finally:
            conn.close()

    assert send_chunked(record + b" ") == 413
    assert stored_games(server) == 0
    assert send_chunked(record) == 201


def test_records_with_too_many_actions_are_refused(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server(max_actions=20)
    reply = server.as_user(TOKENS["ana"]).upload(record_of(GAME))
    assert reply.status == 422
    assert reply.json["limit"] == 20
    assert "20" in reply.json["detail"] and reply.json["type"].endswith("too_many_actions")


def test_record_errors_are_422_problems_and_store_nothing(
    fresh_server: Callable[..., Server],
) -> None:
    server = fresh_server()
    ana = server.as_user(TOKENS["ana"])

    def swap_player(doc: dict) -> None:
        doc["actions"][6]["player"] = 1 - doc["actions"][6]["player"]

    illegal = ana.upload(mutated(GAME, swap_player))
    assert illegal.status == 422
    assert illegal.content_type == "application/problem+json"
    problem = illegal.json
    assert problem["title"] == "Illegal action"
    assert (problem["index"], problem["rule"]) == (6, "W-6")
    assert "turn" in problem["message"] and problem["action"]["type"] == "move"

    def off_map(doc: dict) -> None:
        doc["actions"][1]["hex"] = [99, 99]

    invalid = ana.upload(mutated(GAME, off_map))
    assert invalid.status == 422
    assert (invalid.json["title"], invalid.json["path"]) == ("Invalid record", "actions[1].hex")
    assert "not on the map" in invalid.json["message"]

    for body in (b"{not json", b"[1, 2]", b"", b"[" * 100_000, record_of(GAME)[:-40]):
        reply = ana.upload(body)
        assert reply.status == 422, body[:40]
        assert reply.json["path"] == ""
    assert "Traceback" not in illegal.body.decode()
    assert stored_games(server) == 0


def test_bad_upload_parameters(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    ana = server.as_user(TOKENS["ana"])
    bad = ana.upload(record_of(GAME), query={"visibility": "secret"})
    assert bad.status == 400
    assert "visibility" in bad.json["errors"]["query"]
    form = ana.upload_file(record_of(GAME), {"visibility": "secret"})
    assert form.status == 400
    assert "visibility" in form.json["errors"]["form"]
    text = ana.request("POST", "/api/games", body=record_of(GAME), content_type="text/plain")
    assert text.status == 415
    assert stored_games(server) == 0
