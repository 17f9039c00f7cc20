"""Live tables on a real ``howl serve`` (granian, two worker processes of two threads): an
event stream is sent as it goes, not gathered, holds none of the request threads, and shows
a change whichever worker made it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.request import Request, urlopen

import pytest

from tests.api.conftest import TOKENS
from tests.api.serving import howl_serve
from tests.tables.conftest import ANA, fixture, watch


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    env = {
        "HOWL_DATABASE_URL": f"sqlite:///{tmp_path / 'howl.sqlite3'}", "HOWL_ANALYSIS": "off",
        "HOWL_API_TOKENS": ",".join(f"{name}:{token}" for name, token in TOKENS.items()),
        "HOWL_WORKERS": "2", "HOWL_THREADS": "2",
    }  # fmt: skip
    with howl_serve(env) as (_, url):
        yield url


def post(url: str, body: object) -> dict[str, object]:
    request = Request(url, json.dumps(body).encode(), method="POST", headers={
        "Authorization": f"Bearer {ANA}", "Content-Type": "application/json"})  # fmt: skip
    with urlopen(request, timeout=10) as reply:
        assert reply.status == 201
        answer: dict[str, object] = json.load(reply)
        return answer


def test_streams_flow_through_the_front_and_hold_no_request_thread(served: str) -> None:
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table = post(f"{served}/api/tables", record)
    table_id = str(table["table_id"])
    watchers = [watch(served, table_id) for _ in range(4)]  # more than the threads
    try:
        streams = [stream for _, stream in watchers]
        assert all(next(s)["version"] == table["version"] for s in streams)
        with urlopen(f"{served}/api/tables/{table_id}", timeout=5) as reply:  # threads free
            assert json.load(reply)["version"] == table["version"]
        version = table["version"]
        for action in actions[:3]:
            sent = time.monotonic()
            done = post(f"{served}/api/tables/{table_id}/actions",
                        {"action": action, "version": version})  # fmt: skip
            version = done["version"]
            for stream in streams:
                assert next(stream)["version"] == version
            assert time.monotonic() - sent < 1.0
    finally:
        for conn, _ in watchers:
            conn.close()
