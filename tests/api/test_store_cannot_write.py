"""A store that cannot write (a full disk, a read-only database) answers every
write with a 503 ``store_cannot_write`` problem, keeps serving reads (or, when it never held
the read models, answers reads with the same problem saying so), and ``/api/health`` says so
until a write goes through again. Real stores: SQLite on a small tmpfs mounted for
the test (needs root), PostgreSQL with ``default_transaction_read_only``."""

from __future__ import annotations

import errno
import json
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from flask import Flask
from psycopg import sql

from services.config import Settings
from services.library import open_library
from tests.api.conftest import TOKENS, Server, record_of, serving
from tests.api.contract import Contract, Reply

GAMES = ("2p-00-heuristic", "3p-00-heuristic", "4p-00-heuristic", "5p-00-heuristic")
STEP = 3


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 MiB tmpfs of the test's own, unmounted afterwards."""
    where = tmp_path / "disk"
    where.mkdir()
    try:
        mount("-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where))
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {exc}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte; returns the file that does it."""
    filler = disk / "filler"
    chunk = b"\0" * 65536
    with filler.open("wb", buffering=0) as out:
        while chunk:
            try:
                out.write(chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                chunk = chunk[: len(chunk) // 2]
    return filler


def assert_cannot_write(reply: Reply, reason: str) -> None:
    assert reply.status == 503, (reply.path, reply.status, reply.body[:300])
    assert reply.content_type == "application/problem+json"
    assert reply.json["type"].endswith("#problem-store_cannot_write")
    assert reply.json["title"] == "The store cannot write"
    assert reason in reply.json["detail"]


def health(server: Server) -> dict[str, str]:
    reply = server.client.get("/api/health")
    assert reply.status == 200
    return reply.json


def branch_of(name: str) -> dict[str, object]:
    """A branch body: the game's own next action, from step :data:`STEP`."""
    return {"step": STEP, "actions": json.loads(record_of(name))["actions"][STEP : STEP + 1]}


def check_writes_refused(server: Server, stored: str, reason: str, games: tuple[str, ...]) -> str:
    """Every kind of write is a 503 while reads go on; returns a game that was refused."""
    user = server.as_user(TOKENS["ana"])
    refused = None
    for name in games:  # a small write may still fit in pages the store had already
        reply = user.upload(record_of(name))
        if reply.status != 201:
            assert_cannot_write(reply, reason)
            refused = name
            break
    assert refused is not None, "every upload was stored"
    assert health(server) == {**health(server), "status": "degraded",
                              "store": f"cannot write ({reason})"}  # fmt: skip
    branch = user.request("POST", f"/api/games/{stored}/branches", json_body=branch_of(GAMES[0]))
    assert_cannot_write(branch, reason)
    assert_cannot_write(user.request("POST", f"/api/games/{stored}/analysis"), reason)
    listed = server.client.get("/api/games")
    assert listed.status == 200 and stored in {g["game_id"] for g in listed.json["items"]}
    assert server.client.get(f"/api/games/{stored}/timeline").status == 200
    return refused


def sqlite_server(disk: Path, contract: Contract) -> AbstractContextManager[tuple[Server, Flask]]:
    """A server whose SQLite store lives on ``disk``."""
    settings = Settings(f"sqlite:///{disk / 'howl.sqlite3'}", port=0, api_tokens=TOKENS,
                        analysis=False)  # fmt: skip
    return serving(settings, contract)


def test_a_full_disk_is_a_503_until_there_is_room(tiny_disk: Path, contract: Contract) -> None:
    with sqlite_server(tiny_disk, contract) as (server, _):
        user = server.as_user(TOKENS["ana"])
        stored = user.upload(record_of(GAMES[0])).json["game_id"]
        filler = fill(tiny_disk)
        refused = check_writes_refused(server, stored, "full", GAMES[1:])
        filler.unlink()
        assert user.upload(record_of(refused)).status == 201
        assert health(server)["status"] == "ok" and "store" not in health(server)


@contextmanager
def read_only(url: str) -> Iterator[None]:
    """Make the database of ``url`` read-only for every new session, and end the sessions
    open on it (pools then reconnect, read-only); undone on exit."""
    name = urlsplit(url).path.lstrip("/")
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))

    def switch(on: bool) -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(
                sql.SQL("ALTER DATABASE {} SET default_transaction_read_only = {}").format(
                    sql.Identifier(name), sql.SQL("on" if on else "off")
                )
            )
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))  # fmt: skip

    switch(True)
    try:
        yield
    finally:
        switch(False)


def test_a_read_only_postgresql_is_a_503(pg_url: str, contract: Contract) -> None:
    settings = Settings(pg_url, port=0, api_tokens=TOKENS, analysis=False, db_connect_timeout=1,
                        database_schema=f"t_{uuid.uuid4().hex[:12]}")  # fmt: skip
    # the short timeout: the store's pool waits that long for the sessions ended below
    with serving(settings, contract) as (server, _):
        user = server.as_user(TOKENS["ana"])
        stored = user.upload(record_of(GAMES[0])).json["game_id"]
        with read_only(pg_url):
            refused = check_writes_refused(server, stored, "read-only", GAMES[1:])
        assert user.upload(record_of(refused)).status == 201
        assert health(server)["status"] == "ok"


def test_a_read_only_postgresql_that_never_held_the_read_models_refuses_reads_saying_so(
    pg_url: str, contract: Contract
) -> None:
    settings = Settings(pg_url, port=0, api_tokens=TOKENS, analysis=False, db_connect_timeout=1,
                        database_schema=f"t_{uuid.uuid4().hex[:12]}")  # fmt: skip
    with open_library(settings) as library:  # the events stored, the read models never made
        stored = str(library.upload(record_of(GAMES[0])).game_id)
    with read_only(pg_url), serving(settings, contract) as (server, _):
        for path in ("/api/games", f"/api/games/{stored}", "/api/stats"):
            reply = server.client.get(path)
            assert_cannot_write(reply, "read-only")
            assert "no read models yet" in reply.json["detail"]
        assert health(server) == {**health(server), "status": "degraded",
                                  "store": "cannot write (read-only)"}  # fmt: skip
    with serving(settings, contract) as (server, _):  # writable again: made and caught up
        assert stored in {g["game_id"] for g in server.client.get("/api/games").json["items"]}
        assert health(server)["status"] == "ok"
