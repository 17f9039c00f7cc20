"""Request bodies at the Flask app's door, as any server runs it (here werkzeug's, on both
backends): API writes need a token before their body is read, JSON bodies are UTF-8 only and
nested at most 1024 deep, as 401/403, 415 and 400 problems rather than 500s."""

from __future__ import annotations

import json
from collections.abc import Callable

from dashboard.app import CALLBACKS
from tests.api.conftest import TOKENS, Server, record_of
from tests.api.serving import connect, head, read_answer

DEEP = b"[" * 100_000 + b"]" * 100_000


def branch_body() -> bytes:
    first = json.loads(record_of("2p-00-heuristic"))["actions"][:1]
    return json.dumps({"step": 0, "actions": first}).encode()


def test_json_bodies_are_utf8_nested_at_most_1024_deep_and_checked_after_the_token(
    fresh_server: Callable[..., Server],
) -> None:
    server = fresh_server()
    ana = server.as_user(TOKENS["ana"])
    game_id = ana.upload(record_of("2p-00-heuristic")).json["game_id"]
    branches = f"/api/games/{game_id}/branches"

    for client, status in ((server.client, 401), (server.as_user("wrong"), 403)):
        for path in ("/api/games", branches):
            refused = client.request("POST", path, body=DEEP, content_type="application/json",
                                     check=False)  # fmt: skip
            assert refused.status == status, refused.body[:200]

    deep = ana.request("POST", branches, body=DEEP, content_type="application/json",
                       check=False)  # fmt: skip
    assert deep.status == 400 and "1024" in deep.json["detail"]
    callback = server.client.request("POST", "/_dash-update-component", body=DEEP,
                                     content_type="application/json", check=False)  # fmt: skip
    assert callback.status == 400 and "1024" in callback.json["detail"]

    for body, content_type in (
        (branch_body().decode().encode("utf-16"), "application/json"),
        (branch_body().decode().encode("utf-16-be"), "application/json"),
        (branch_body().decode().encode("utf-32"), "application/json"),
        (branch_body(), "application/json; charset=latin-1"),
    ):
        for path in (branches, "/api/games"):
            wrong = ana.request("POST", path, body=body, content_type=content_type, check=False)
            assert wrong.status == 415, (path, content_type, wrong.body[:200])
            assert wrong.content_type == "application/problem+json"
            assert "UTF-8" in wrong.json["detail"]
    upload16 = record_of("3p-00-heuristic").decode().encode("utf-16")
    assert ana.upload(upload16, check=False).status == 415
    for encoding in ("utf-16", "utf-32-le"):
        filed = ana.upload_file(record_of("3p-00-heuristic").decode().encode(encoding),
                                check=False)  # fmt: skip
        assert filed.status == 415 and "UTF-8" in filed.json["detail"], filed.body[:200]

    made = ana.request("POST", branches, body=branch_body(),
                       content_type="application/json; charset=UTF-8")  # fmt: skip
    assert made.status == 201, made.body[:200]


def test_chunked_callback_bodies_have_the_callbacks_body_limit(
    fresh_server: Callable[..., Server],
) -> None:
    """A chunked body gets the limit of its path, as one with a length does: a callback
    over the upload limit is read whole, not cut at that limit."""
    server = fresh_server(max_upload_bytes=1024)
    body = json.dumps({"output": "x", "outputs": {"id": "x", "property": "y"}, "inputs": [],
                       "changedPropIds": [], "pad": "a" * 4096}).encode()  # fmt: skip
    sized = server.client.request("POST", CALLBACKS, body=body, content_type="application/json",
                                  check=False)  # fmt: skip
    assert sized.status == 400 and "names no callback" in sized.json["detail"]
    with connect(server.live.url) as sock:
        headers = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
        sock.sendall(head("POST", CALLBACKS, headers))
        sock.sendall(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
        status, _, answer = read_answer(sock)
    assert (status, json.loads(answer)["detail"]) == (400, sized.json["detail"])
