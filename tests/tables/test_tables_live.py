"""Watching a live table (Server-Sent Events across two servers on one store), the tables'
command line, and the read models, which keep tables out."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from api.cli import main
from api.routes import tables as routes
from services import tables
from services.shared import Services
from tests.api.conftest import Server
from tests.tables.conftest import ANA, enter, fixture, open_table, watch

StartServer = Callable[..., Server]


def test_a_watcher_sees_a_change_made_through_another_server_within_a_second(
    fresh_server: StartServer,
) -> None:
    first = fresh_server()
    second = fresh_server(database_schema=first.live.settings.database_schema)
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table = open_table(first.as_user(ANA), record)
    conn, stream = watch(first.live.url, table["table_id"])
    try:
        now = next(stream)
        assert now["version"] == table["version"] and "record" not in now
        delays = []
        version = table["version"]
        for action in actions[:3]:
            sent = time.monotonic()
            assert enter(second.as_user(ANA), table["table_id"], action, version).status == 201
            seen = next(stream)
            delays.append(time.monotonic() - sent)
            version += 1
            assert seen["version"] == version and seen["actions"][-1] == action
        assert max(delays) < 1.0, delays
    finally:
        conn.close()


def test_streams_beyond_the_bound_are_refused(
    fresh_server: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = fresh_server()
    table = open_table(server.as_user(ANA), fixture("moonlight", "00-greedy")[0])
    unknown = server.client.get("/api/tables/00000000-0000-4000-8000-000000000000/stream")
    assert unknown.status == 404
    monkeypatch.setattr(routes, "_streams", threading.BoundedSemaphore(1))
    conn, stream = watch(server.live.url, table["table_id"])
    try:
        next(stream)
        reply = server.client.get(f"/api/tables/{table['table_id']}/stream")
        assert reply.status == 503 and reply.json["type"].endswith("too_many_streams")
    finally:
        conn.close()


def test_howl_tables_and_howl_table_open_and_play(
    fresh_server: StartServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    server = fresh_server()
    settings = server.live.settings
    monkeypatch.setenv("HOWL_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("HOWL_DATABASE_SCHEMA", settings.database_schema)
    record, actions, _ = fixture("moonlight", "00-greedy")
    path = tmp_path / "table.json"
    path.write_text(json.dumps(record))
    runner = CliRunner()
    opened = runner.invoke(main, ["table", "open", str(path)])
    assert opened.exit_code == 0, opened.output
    table_id = json.loads(opened.stdout)["table_id"]
    lines = "\n".join(json.dumps(a) for a in actions[:4]) + "\n"
    played = runner.invoke(main, ["table", "play", table_id], input=lines)
    assert played.exit_code == 0, played.output
    results = [json.loads(line) for line in played.stdout.splitlines()]
    assert [r["version"] for r in results] == [2, 3, 4, 5] and all(r["events"] for r in results)
    bad = runner.invoke(
        main, ["table", "play", table_id], input=json.dumps(actions[0]) + "\nnot json\n"
    )
    assert bad.exit_code == 1
    refused, unreadable = (json.loads(line) for line in bad.stdout.splitlines())
    assert refused["error"] == "illegal_action" and refused["rule"].startswith("M-")
    assert unreadable["error"] == "invalid_json" and unreadable["line"] == 2
    listed = runner.invoke(main, ["tables", "--json"])
    assert listed.exit_code == 0
    assert [json.loads(line)["actions"] for line in listed.stdout.splitlines()] == [4]
    assert server.client.get(f"/api/tables/{table_id}").json["actions"] == actions[:4]
    text = runner.invoke(main, ["tables"])
    assert table_id in text.stdout and "Ana, Bo" in text.stdout


def test_a_catch_up_over_tables_stores_no_games_and_no_failures(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    svc = Services(server.live.settings, analysis_worker=False)
    try:
        record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
        doc = tables.open_table(json.dumps({**record, "actions": actions[:3]}).encode(), "ana", svc)
        done = tables.enter(doc["table_id"], actions[3], doc["version"], "ana", svc)
        tables.undo(doc["table_id"], done["version"], "ana", svc)
        models = svc.catch_up()
        assert models.position() > 0  # the tables' events were read
        assert models.list_games().items == [] and models.failures() == []
    finally:
        svc.close()
