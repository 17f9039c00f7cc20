"""Bots at tables over real HTTP on SQLite and PostgreSQL: a table of bots plays to its end
with no action entered after it is opened, and its stored record (bot seats marked)
validates; a person's action at a table with a bot is answered by the bot by itself, on
the table's stream; an undo takes the bot's answer back with the person's action; bad
``bots`` are refused naming ``bots.<seat>``, nothing opened; ``howl table open --bot``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner

from api.cli import main
from domain.store import tables as store
from services import bots, tables
from services.shared import Services
from tests.api.conftest import Server
from tests.tables.conftest import ANA, enter, fixture, open_table, watch

StartServer = Callable[..., Server]
WAIT = 240.0
"""Seconds a whole game of bots may take on a shared machine."""


def bot_record(game: str = "the-wolves", name: str = "2p-00-heuristic") -> dict[str, Any]:
    """A fixture's record without actions; The Wolves' ends after 10 rounds without the
    Moonlight board advancing (W-12's stall limit), so a game of bots always ends."""
    record, _, _ = fixture(game, name)
    if game == "the-wolves":
        record["setup"]["options"]["stall_limit_rounds"] = 10
    return record


def until(server: Server, table_id: str, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Read the table until ``done`` holds (reading it also wakes its bots after a restart)."""
    deadline = time.monotonic() + WAIT
    while True:
        doc: dict[str, Any] = server.client.get(f"/api/tables/{table_id}").json
        if done(doc) or time.monotonic() > deadline:
            return doc
        time.sleep(0.2)


def test_a_table_of_bots_plays_to_its_end_and_its_record_validates(
    fresh_server: StartServer, tmp_path: Path
) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    table = open_table(ana, {**bot_record(), "bots": {"0": "heuristic", "1": "random"}})
    assert table["bots"] == {"0": {"bot": "heuristic", "depth": None},
                             "1": {"bot": "random", "depth": None}}  # fmt: skip
    assert [p.get("bot") for p in table["players"]] == ["heuristic", "random"]
    doc = until(server, table["table_id"], lambda d: d["finished"])
    assert doc["finished"] and doc["turn"] is None and not doc["closed"], doc["status"]
    assert doc["version"] == 1 + len(doc["actions"]) > 20  # every action its own write
    finished = ana.request("POST", f"/api/tables/{table['table_id']}/finish", json_body={})
    assert finished.status == 201, finished.body
    game_id = finished.json["game_id"]
    record = server.client.get(f"/api/games/{game_id}/record").json
    assert [p.get("bot") for p in record["players"]] == ["heuristic", "random"]
    assert record["actions"] == doc["actions"]
    path = tmp_path / "bots.json"
    path.write_text(json.dumps(record))
    validated = CliRunner().invoke(main, ["validate", str(path)])
    assert validated.exit_code == 0 and validated.stdout.startswith("ok: "), validated.output
    seats = server.client.get(f"/api/games/{game_id}").json["seats"]
    assert [s["bot"] for s in seats] == [True, True]


def test_a_persons_action_is_answered_by_the_bot_on_the_stream(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table = open_table(ana, {**record, "bots": {"1": {"bot": "review", "depth": 1}}})
    table_id, version = table["table_id"], table["version"]
    assert table["turn"] == 0 and table["bots"] == {"1": {"bot": "review", "depth": 1}}
    # a review bot's pick plays whole games out: seconds on a busy machine, not 5 s at most
    conn, stream = watch(server.live.url, table_id, timeout=60)
    try:
        assert next(stream)["version"] == version
        reply = enter(ana, table_id, actions[0], version)  # seat 0 drafts (W-4.1)
        assert reply.status == 201, reply.body
        assert reply.json["table"]["turn"] == 1
        seen = [next(stream)]
        while seen[-1]["turn"] != 0:
            seen.append(next(stream))
    finally:
        conn.close()
    answered = seen[-1]
    assert answered["version"] > version + 1  # the bot's draft picks, entered by the server
    assert all(a["player"] == 1 for a in answered["actions"][1:])
    assert [d["version"] for d in seen] == sorted({d["version"] for d in seen})
    again = server.client.get(f"/api/tables/{table_id}").json
    assert again["actions"] == answered["actions"] and again["turn"] == 0

    undone = ana.request("POST", f"/api/tables/{table_id}/undo",
                         json_body={"version": again["version"]})  # fmt: skip
    assert undone.status == 201, undone.body
    taken = [e["data"]["index"] for e in undone.json["events"]]
    assert taken == list(range(len(again["actions"]) - 1, -1, -1))  # the bot's, then Ana's
    assert undone.json["table"]["actions"] == [] and undone.json["table"]["turn"] == 0
    time.sleep(1.0)
    assert server.client.get(f"/api/tables/{table_id}").json["actions"] == []


def test_a_table_read_while_its_bot_is_to_move_wakes_the_bot(fresh_server: StartServer) -> None:
    """As after a restart: the table is stored with a bot to move and no mover knows it."""
    server = fresh_server()
    rules, record = bots.read_seated({**bot_record(), "bots": {"0": "heuristic"}})
    library = server.library()
    try:
        view = store.open_table(library, rules, record, "ana")
    finally:
        library.close()
    assert view.version == 1 and view.actions == []
    doc = until(server, str(view.table_id), lambda d: d["turn"] == 1)
    assert doc["turn"] == 1 and doc["actions"] and all(a["player"] == 0 for a in doc["actions"])


def test_the_mover_starts_with_the_first_bot_to_move_and_ends_with_the_services(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    svc = Services(server.live.settings, analysis_worker=False)
    try:
        record = json.dumps(bot_record()).encode()
        tables.open_table(record, "ana", svc)  # no bot: nothing to move
        assert svc.mover is None
        doc = tables.open_table(json.dumps({**bot_record(), "bots": {"0": "random"}}).encode(),
                                "ana", svc)  # fmt: skip
        mover = svc.mover
        assert mover is not None and mover.alive
        assert bots.settle(svc, UUID(doc["table_id"])).actions  # it played seat 0's turn
    finally:
        svc.close()
    assert svc.mover is None and not mover.alive


@pytest.mark.parametrize(
    ("game", "bots", "path", "words"),
    [
        ("the-wolves", {"2": "heuristic"}, "bots.2", "no such seat"),
        ("the-wolves", {"one": "heuristic"}, "bots.one", "no such seat"),
        ("the-wolves", {"1": "stockfish"}, "bots.1", "random, heuristic, review"),
        ("the-wolves", {"1": {"bot": "review", "depth": 7}}, "bots.1", "1 to 4"),
        ("the-wolves", {"1": {"bot": "review", "depth": "2"}}, "bots.1.depth", "integer"),
        ("the-wolves", {"1": {"bot": "heuristic", "depth": 2}}, "bots.1", "does not search"),
        ("the-wolves", {"1": {"bot": "review", "speed": 3}}, "bots.1.speed", "unknown"),
        ("the-wolves", {"1": ["heuristic"]}, "bots.1", "a bot's name"),
        ("the-wolves", ["heuristic"], "bots", "an object"),
        ("moonlight", {"1": "review"}, "bots.1", "random, greedy"),
    ],
)
def test_bad_bots_are_refused_naming_the_seat_and_nothing_is_opened(
    fresh_server: StartServer, game: str, bots: Any, path: str, words: str
) -> None:
    server = fresh_server()
    record = bot_record(game, "2p-00-heuristic" if game == "the-wolves" else "00-greedy")
    reply = server.as_user(ANA).request("POST", "/api/tables", json_body={**record, "bots": bots})
    assert reply.status == 422, reply.body
    assert reply.json["type"].endswith("invalid_record") and reply.json["path"] == path
    assert words in reply.json["detail"]
    assert server.client.get("/api/tables").json["tables"] == []


def test_howl_table_open_with_bots_and_play_against_them(
    fresh_server: StartServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    server = fresh_server()
    settings = server.live.settings
    monkeypatch.setenv("HOWL_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("HOWL_DATABASE_SCHEMA", settings.database_schema)
    record, actions, _ = fixture("moonlight", "00-greedy")
    path = tmp_path / "table.json"
    path.write_text(json.dumps(record))
    runner = CliRunner()
    bad = runner.invoke(main, ["table", "open", str(path), "--bot", "1=greedy:x"])
    assert bad.exit_code == 2 and "SEAT=NAME" in bad.output
    opened = runner.invoke(main, ["table", "open", str(path), "--bot", "1=greedy"])
    assert opened.exit_code == 0, opened.output
    table = json.loads(opened.stdout)
    assert table["bots"] == {"1": {"bot": "greedy", "depth": None}} and table["turn"] == 0
    mine = next(a for a in actions if a["player"] == 0)
    played = runner.invoke(main, ["table", "play", table["table_id"]], input=json.dumps(mine))
    assert played.exit_code == 0, played.output
    (result,) = (json.loads(line) for line in played.stdout.splitlines())
    doc = server.client.get(f"/api/tables/{table['table_id']}").json
    assert result["version"] == doc["version"] > 2 and doc["turn"] == 0  # the bot answered
    assert doc["actions"][0] == mine and doc["actions"][1]["player"] == 1
