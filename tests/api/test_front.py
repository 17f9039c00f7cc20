"""The serving front of a real ``howl serve`` (granian), byte by byte over sockets: slow bodies
hold no thread and are dropped after ``HOWL_BODY_SECONDS``, anonymous writes and declared
lengths over the limit are refused before their body is sent, chunked bodies are bounded,
and JSON bodies are UTF-8 and bounded in depth."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from urllib.request import urlopen

import pytest

from dashboard.app import CALLBACKS, body_limit
from services.config import Settings
from tests.api.conftest import TOKENS, record_of
from tests.api.serving import closed, connect, head, howl_serve, read_answer

LIMIT = 256 * 1024
BODY_SECONDS = 2
AUTH = {"Authorization": f"Bearer {TOKENS['ana']}"}
JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class Served:
    url: str
    game_id: str

    @property
    def branches(self) -> str:
        return f"/api/games/{self.game_id}/branches"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
    Served
]:  # fmt: skip
    """One ``howl serve`` per backend (1 worker of 2 threads, short body limit) with a game."""
    if request.param == "sqlite":
        database = f"sqlite:///{tmp_path_factory.mktemp('front') / 'howl.sqlite3'}"
    else:
        database = request.getfixturevalue("pg_url")
    env = {
        "HOWL_DATABASE_URL": database, "HOWL_ANALYSIS": "off",
        "HOWL_API_TOKENS": ",".join(f"{name}:{token}" for name, token in TOKENS.items()),
        "HOWL_WORKERS": "1", "HOWL_THREADS": "2", "HOWL_BODY_SECONDS": str(BODY_SECONDS),
        "HOWL_MAX_UPLOAD_BYTES": str(LIMIT),
    }  # fmt: skip
    with howl_serve(env) as (_, url):
        status, _, body = exchange(url, "POST", "/api/games", {**AUTH, **JSON},
                                   record_of("2p-00-heuristic"))  # fmt: skip
        assert status == 201, body
        yield Served(url, json.loads(body)["game_id"])


def exchange(
    url: str, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """One whole request on a new connection, and its answer."""
    with connect(url) as sock:
        sock.sendall(head(method, path, {**headers, "Content-Length": str(len(body))}) + body)
        return read_answer(sock)


def health_seconds(url: str) -> float:
    start = time.perf_counter()
    with urlopen(f"{url}/api/health", timeout=30) as answer:
        assert answer.status == 200
    return time.perf_counter() - start


def problem(answer: tuple[int, dict[str, str], bytes]) -> dict[str, object]:
    status, headers, body = answer
    assert headers["content-type"] == "application/problem+json"
    document = json.loads(body)
    assert document["status"] == status
    return document


def test_slow_bodies_hold_no_thread_and_are_dropped_after_the_limit(served: Served) -> None:
    targets = [("/_dash-update-component", {}), (served.branches, AUTH)] * 2  # 4 > 2 threads
    socks = []
    for path, headers in targets:
        sock = connect(served.url)
        sock.sendall(head("POST", path, {**headers, **JSON, "Content-Length": "100000"}) + b"{")
        socks.append(sock)
    started = time.monotonic()
    trickling = True

    def trickle() -> None:
        while trickling:
            for sock in socks:
                with suppress(OSError):  # dropped by the server
                    sock.send(b" ")
            time.sleep(0.2)

    thread = threading.Thread(target=trickle)
    thread.start()
    try:
        waits = [health_seconds(served.url) for _ in range(5)]
        assert max(waits) < 1, waits
        answers = [read_answer(sock) for sock in socks]
        dropped = time.monotonic() - started
    finally:
        trickling = False
        thread.join()
    for answer in answers:
        assert answer[0] == 408 and "HOWL_BODY_SECONDS" in str(problem(answer)["detail"])
        assert answer[1]["connection"] == "close"  # granian may still drain the unread body
    assert BODY_SECONDS <= dropped < BODY_SECONDS + 3
    for sock in socks:
        sock.close()


@pytest.mark.parametrize(
    ("authorization", "status", "kind"),
    [(None, 401, "missing_token"), ("Bearer wrong", 403, "unknown_token"),
     ("Basic YW5hOng=", 401, "missing_token")],
)  # fmt: skip
def test_an_anonymous_write_is_refused_before_its_body(
    served: Served, authorization: str | None, status: int, kind: str
) -> None:
    headers = {**JSON, "Content-Length": "50000"}
    if authorization:
        headers["Authorization"] = authorization
    for path in ("/api/games", served.branches):
        with connect(served.url, timeout=5) as sock:
            sock.sendall(head("POST", path, headers))  # and no body
            answer = read_answer(sock)
            assert answer[0] == status and str(problem(answer)["type"]).endswith(kind)
            assert closed(sock)


def test_a_declared_length_over_the_limit_is_413_before_the_body(served: Served) -> None:
    for path in ("/api/games", served.branches, CALLBACKS):
        limit = body_limit(path, LIMIT)  # a dashboard callback has room for an upload over LIMIT
        with connect(served.url, timeout=5) as sock:
            sock.sendall(head("POST", path, {**AUTH, **JSON, "Content-Length": str(limit + 1)}))
            answer = read_answer(sock)
            assert answer[0] == 413 and str(limit) in str(problem(answer)["detail"])
            assert closed(sock)


def chunked(data: bytes, size: int = 8192) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        part = data[start : start + size]
        yield b"%x\r\n%s\r\n" % (len(part), part)
    yield b"0\r\n\r\n"


def test_chunked_bodies_are_read_whole_and_bounded(served: Served) -> None:
    chunked_head = {**AUTH, **JSON, "Transfer-Encoding": "chunked"}
    with connect(served.url) as sock:
        sock.sendall(head("POST", "/api/games", chunked_head))
        for chunk in chunked(record_of("3p-00-heuristic")):
            sock.sendall(chunk)
        status, _, body = read_answer(sock)
        assert status == 201 and json.loads(body)["players"] == 3
    with connect(served.url) as sock:
        sock.sendall(head("POST", "/api/games", chunked_head))
        with suppress(OSError):  # the server may close once it has one byte too many
            for chunk in chunked(b" " * (LIMIT + 1)):
                sock.sendall(chunk)
        answer = read_answer(sock)
        assert answer[0] == 413 and str(LIMIT) in str(problem(answer)["detail"])


def test_json_bodies_are_utf8_and_nested_at_most_1024_deep(served: Served) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    for path in (served.branches, "/_dash-update-component"):
        answer = exchange(served.url, "POST", path, {**AUTH, **JSON}, deep)
        assert answer[0] == 400 and "1024" in str(problem(answer)["detail"])
    answer = exchange(served.url, "POST", "/api/games", {**AUTH, **JSON}, deep)
    assert answer[0] == 422 and problem(answer)["path"] == ""  # the record reader's answer
    first = json.loads(record_of("2p-00-heuristic"))["actions"][:1]
    step = json.dumps({"step": 0, "actions": first})
    utf16 = [
        ({**AUTH, **JSON}, step.encode("utf-16")),
        ({**AUTH, **JSON}, step.encode("utf-32")),
        ({**AUTH, "Content-Type": "application/json; charset=utf-16"}, step.encode("utf-16")),
    ]
    for path in (served.branches, "/_dash-update-component", "/api/games"):
        for headers, body in utf16:
            answer = exchange(served.url, "POST", path, headers, body)
            assert answer[0] == 415 and "UTF-8" in str(problem(answer)["detail"])
    status, _, _ = exchange(served.url, "POST", served.branches, {**AUTH, **JSON}, step.encode())
    assert status in (200, 201)


def test_workers_default_to_one_per_cpu_and_bodies_to_ten_seconds() -> None:
    settings = Settings.from_env({})
    assert settings.workers == (os.cpu_count() or 1)
    assert settings.body_seconds == 10
    assert Settings.from_env({"HOWL_BODY_SECONDS": "3"}).body_seconds == 3
    with pytest.raises(ValueError, match="HOWL_BODY_SECONDS"):
        Settings.from_env({"HOWL_BODY_SECONDS": "0"})


def test_a_kept_alive_connection_gets_rendered_then_cached_answers(served: Served) -> None:
    with connect(served.url) as sock:
        for _ in range(3):
            sock.sendall(head("GET", f"/api/games/{served.game_id}/states/1", {}))
            status, _, body = read_answer(sock)
            assert status == 200 and json.loads(body)["format"] == "howl.position"
