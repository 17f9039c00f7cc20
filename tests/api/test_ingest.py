"""Uploads checked in the ingest pool (:mod:`services.ingest`): stored and readable at once,
bad and too costly records refused as before with nothing stored, and reads answered while
an upload waits."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain.replays import RecordError
from domain.ruleset import InvalidRecord
from domain.store.purge import purge
from domain.store.uploads import prepare_record
from services.config import Settings
from services.ingest import Failed, IngestPool, checked_upload
from services.refusals import Refusal
from services.shared import Services
from tests.api.client import Client, Reply
from tests.api.conftest import TOKENS, Server, record_of
from tests.api.contract import Contract
from tests.api.serving import howl_serve

GAME, OTHER = "2p-00-heuristic", "3p-00-heuristic"
HOLD_SECONDS = 2.5
"""How long the store's write lock is held while an upload waits for it (the store waits 5 s
for a lock)."""


def changed(name: str, change: Callable[[dict], None]) -> bytes:
    doc = json.loads(record_of(name))
    change(doc)
    return json.dumps(doc).encode()


def swap_player(doc: dict) -> None:
    doc["actions"][6]["player"] = 1 - doc["actions"][6]["player"]


def off_map(doc: dict) -> None:
    doc["actions"][1]["hex"] = [99, 99]


def test_an_upload_is_stored_and_readable_at_once(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    reply = server.as_user(TOKENS["ana"]).upload(record_of(GAME))
    assert reply.status == 201 and len(reply.json["seats"]) == 2
    assert "projection" not in reply.json  # projected before the answer
    game_id = reply.json["game_id"]
    assert server.client.get(f"/api/games/{game_id}").json == reply.json
    assert server.client.get(f"/api/games/{game_id}/timeline").status == 200
    assert server.client.get(f"/api/games/{game_id}/states/3").status == 200
    assert [g["game_id"] for g in server.client.get("/api/games").json["items"]] == [game_id]


def test_bad_records_are_refused_as_the_engine_words_them_and_nothing_is_stored(
    fresh_server: Callable[..., Server],
) -> None:
    server = fresh_server()
    ana = server.as_user(TOKENS["ana"])
    for body in (changed(GAME, swap_player), changed(GAME, off_map)):
        with pytest.raises((RecordError, InvalidRecord)) as raised:
            prepare_record(body)  # in this process, as the engine answers
        assert isinstance(raised.value, RecordError | InvalidRecord)
        expected: dict[str, Any] = dict(raised.value.to_json())
        reply = ana.upload(body)
        assert reply.status == 422
        assert reply.json["type"].endswith(expected.pop("error"))
        assert {key: reply.json[key] for key in expected} == expected
    assert server.client.get("/api/games").json["total"] == 0
    assert ana.upload(record_of(GAME)).status == 201  # the pool goes on checking


def test_errors_come_back_from_the_pool_whole() -> None:
    error = RecordError(6, {"type": "move"}, "W-6", "not your turn")
    back = Failed.of(error).error()
    assert isinstance(back, RecordError) and back is not error
    assert (back.args, back.to_json()) == (error.args, error.to_json())


def test_too_costly_records_are_refused_unless_stored_already(store_url: str) -> None:
    schema = f"t_{uuid.uuid4().hex[:12]}" if store_url.startswith("postgresql") else "public"
    settings = Settings(store_url, analysis=False, database_schema=schema)
    doc = json.loads(record_of(GAME))
    generous, strict = Services(settings), Services(replace(settings, max_check_seconds=0))
    try:
        with pytest.raises(Refusal) as refused:
            strict.upload(json.loads(record_of(OTHER)), "ana")
        assert (refused.value.kind, refused.value.extra) == ("too_costly", {"limit": 0})
        assert not list(strict.library.game_ids())
        stored = generous.upload(doc, "ana")
        assert stored.created
        again = strict.upload(doc, "bo")  # a stored record is the stored game, as before
        assert (again.game_id, again.created) == (stored.game_id, False)
    finally:
        generous.close()
        strict.close()


def test_a_document_uploaded_again_through_the_process_is_not_checked_again(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = f"t_{uuid.uuid4().hex[:12]}" if store_url.startswith("postgresql") else "public"
    svc = Services(Settings(store_url, analysis=False, database_schema=schema))
    checks: list[object] = []
    run = svc.ingest.run

    def counted(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        checks.append(fn)
        return run(fn, *args, **kwargs)

    monkeypatch.setattr(svc.ingest, "run", counted)
    try:
        doc = json.loads(record_of(GAME))
        stored = svc.upload(doc, "ana")
        assert stored.created and len(checks) == 2  # checked, then caught up
        again = svc.upload(json.loads(json.dumps(doc, sort_keys=True)), "bo")
        assert (again.game_id, again.created, len(checks)) == (stored.game_id, False, 2)
        assert svc.read_models.summary(stored.game_id) is not None
        other = svc.upload({**doc, "meta": {"title": "Another night"}}, "ana")
        assert other.created and other.game_id != stored.game_id and len(checks) == 4
        svc.library.withdraw(stored.game_id)
        purge(svc.library, stored.game_id)  # the game it knew is gone: checked and stored anew
        anew = svc.upload(doc, "ana")
        assert (anew.game_id, anew.created, len(checks)) == (stored.game_id, True, 6)
    finally:
        svc.close()


def test_the_pool_does_not_check_a_record_whose_game_is_stored(store_url: str) -> None:
    schema = f"t_{uuid.uuid4().hex[:12]}" if store_url.startswith("postgresql") else "public"
    settings = Settings(store_url, analysis=False, database_schema=schema)
    first, second = Services(settings), Services(settings)  # two processes' services, say
    checks: list[tuple[Any, Any]] = []
    run = second.ingest.run

    def kept(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        answer = run(fn, *args, **kwargs)
        if fn is checked_upload:
            checks.append(answer)
        return answer

    try:
        doc = json.loads(record_of(GAME))
        stored = first.upload(doc, "ana")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(second.ingest, "run", kept)
            again = second.upload(doc, "bo")  # this process never saw the document
            other = second.upload(json.loads(record_of(OTHER)), "bo")
        assert (again.game_id, again.created, other.created) == (stored.game_id, False, True)
        [(found, nothing), (new, encoded)] = checks
        assert (found, nothing, new) == (stored.game_id, None, other.game_id)
        assert encoded.game_id == other.game_id  # a new game is checked and encoded
    finally:
        first.close()
        second.close()


def test_urgent_tasks_run_before_the_tasks_waiting() -> None:
    pool = IngestPool(1)
    started: dict[str, float] = {}

    def task(name: str, urgent: bool) -> None:
        started[name] = pool.run(time.time, urgent=urgent)

    try:
        busy = threading.Thread(target=pool.run, args=(time.sleep, 1.0))
        busy.start()
        waiting = [threading.Thread(target=task, args=("check", False)),
                   threading.Thread(target=task, args=("catch-up", True))]  # fmt: skip
        for thread in waiting:
            thread.start()
            time.sleep(0.2)  # asked for in this order while the pool is busy
        for thread in (busy, *waiting):
            thread.join(timeout=60)
        assert started["catch-up"] < started["check"]
    finally:
        pool.shutdown()


def test_reads_are_answered_while_an_upload_waits(tmp_path: Path, contract: Contract) -> None:
    path = tmp_path / "howl.sqlite3"
    env = {
        "HOWL_DATABASE_URL": f"sqlite:///{path}", "HOWL_ANALYSIS": "off",
        "HOWL_API_TOKENS": ",".join(f"{name}:{token}" for name, token in TOKENS.items()),
        "HOWL_WORKERS": "1", "HOWL_THREADS": "1",
    }  # fmt: skip
    with howl_serve(env) as (_, url):
        reader = Client(url, contract)
        game_id = Client(url, contract, TOKENS["ana"]).upload(record_of(GAME)).json["game_id"]
        uploaded: list[tuple[Reply, float]] = []

        def upload() -> None:
            began = time.perf_counter()
            reply = Client(url, contract, TOKENS["bo"]).upload(record_of(OTHER))
            uploaded.append((reply, time.perf_counter() - began))

        lock = sqlite3.connect(path, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the upload waits to write its game
        uploading = threading.Thread(target=upload)
        try:
            uploading.start()
            time.sleep(0.5)
            reads = []
            for step in range(5):
                began = time.perf_counter()
                assert reader.get(f"/api/games/{game_id}/states/{step}").status == 200
                reads.append(time.perf_counter() - began)
            time.sleep(max(0.0, HOLD_SECONDS - 0.5 - sum(reads)))
        finally:
            lock.rollback()
            lock.close()
            uploading.join(timeout=60)
        [(reply, seconds)] = uploaded
        assert reply.status == 201 and seconds >= HOLD_SECONDS - 0.5
        assert max(reads) < seconds / 3, (reads, seconds)
