"""Live tables through real HTTP on SQLite and PostgreSQL: whole games entered action by
action and finished into the library, optimistic concurrency, undo and redo, illegal
actions (W-6.1, M-3), restarts, tokens, the legal actions and their ``hex`` filter."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.games import read_record, ruleset
from domain.replays import replay
from services.library import open_library
from tests.api.conftest import Server
from tests.tables.conftest import ANA, enter, fixture, open_table

StartServer = Callable[..., Server]


def play_through(server: Server, game: str, name: str) -> None:
    """Enter a fixture game action by action, finish it, check the stored game's result."""
    record, actions, expected = fixture(game, name)
    ana = server.as_user(ANA)
    table = open_table(ana, record)
    version = table["version"]
    for index, action in enumerate(actions):
        reply = enter(ana, table["table_id"], action, version)
        assert reply.status == 201, (index, reply.body)
        assert reply.json["version"] == version + 1 and reply.json["events"]
        version = reply.json["version"]
    doc = server.client.get(f"/api/tables/{table['table_id']}").json
    assert doc["finished"] and doc["turn"] is None and doc["actions"] == actions
    reply = ana.request("POST", f"/api/tables/{table['table_id']}/finish", json_body={})
    assert reply.status == 201, reply.body
    game_id = UUID(reply.json["game_id"])
    assert reply.json["table"]["closed"] and reply.json["table"]["game_id"] == str(game_id)
    with open_library(server.live.settings) as library:
        stored = library.rules(game_id).score_json(library.state_at(game_id))
        assert library.info(game_id).finished and library.info(game_id).uploaded_by == "ana"
    assert stored["scores"] == expected["scores"]
    summary = server.client.get(f"/api/games/{game_id}")
    assert summary.status == 200, summary.body
    again = enter(ana, table["table_id"], actions[-1], version + 1)
    assert again.status == 409 and again.json["type"].endswith("table_closed")


def test_a_wolves_game_entered_action_by_action_is_stored_with_its_result(
    fresh_server: StartServer,
) -> None:
    play_through(fresh_server(), "the-wolves", "2p-00-heuristic")


def test_a_moonlight_game_entered_action_by_action_is_stored_with_its_result(
    fresh_server: StartServer,
) -> None:
    play_through(fresh_server(), "moonlight", "00-greedy")


def test_two_writers_on_one_version_one_wins_the_other_is_stale(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table = open_table(server.as_user(ANA), record)
    barrier = threading.Barrier(2)
    replies: list[Any] = []

    def write(token: str) -> None:
        client = server.as_user(token)
        barrier.wait()
        replies.append(enter(client, table["table_id"], actions[0], table["version"]))

    threads = [threading.Thread(target=write, args=(t,)) for t in ("ana-secret-token",
                                                                    "bo-secret-token")]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status for r in replies) == [201, 409]
    stale = next(r for r in replies if r.status == 409)
    assert stale.json["type"].endswith("stale_version") and stale.json["version"] == 2
    doc = server.client.get(f"/api/tables/{table['table_id']}").json
    assert doc["version"] == 2 and doc["actions"] == actions[:1]


def test_undo_twice_then_redo_gives_the_replay_of_the_actions_left(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table_id = open_table(ana, {**record, "actions": actions[:10]})["table_id"]
    version = server.client.get(f"/api/tables/{table_id}").json["version"]
    for _ in range(2):
        reply = ana.request("POST", f"/api/tables/{table_id}/undo", json_body={"version": version})
        assert reply.status == 201, reply.body
        assert reply.json["events"][0]["type"] == "taken_back"
        version = reply.json["version"]
    redo = enter(ana, table_id, actions[8], version)
    assert redo.status == 201, redo.body
    doc = redo.json["table"]
    assert doc["actions"] == actions[:9] and doc["version"] == 1 + 10 + 2 + 1
    rules, rec = read_record({**record, "actions": actions[:9]})
    assert doc["position"] == rules.write_position(replay(rules, rec).state)
    stale = ana.request("POST", f"/api/tables/{table_id}/undo", json_body={"version": 1})
    assert stale.status == 409 and stale.json["type"].endswith("stale_version")


def test_nothing_to_undo_on_a_fresh_table(fresh_server: StartServer) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    table = open_table(ana, fixture("moonlight", "00-greedy")[0])
    reply = ana.request("POST", f"/api/tables/{table['table_id']}/undo",
                        json_body={"version": table["version"]})  # fmt: skip
    assert reply.status == 409 and reply.json["type"].endswith("nothing_to_undo")


def test_an_illegal_action_is_422_with_its_rule_and_stores_nothing(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table = open_table(ana, {**record, "actions": actions[:1]})
    table_id, version = table["table_id"], table["version"]
    again = {**actions[1], "hex": actions[0]["hex"]}  # a hex already drafted
    reply = enter(ana, table_id, again, version)
    assert reply.status == 422, reply.body
    assert reply.json["type"].endswith("illegal_action")
    assert reply.json["rule"].startswith("W-") and reply.json["index"] == 1
    assert reply.json["message"]
    doc = server.client.get(f"/api/tables/{table_id}").json
    assert doc["version"] == version and doc["actions"] == actions[:1]
    malformed = enter(ana, table_id, {"type": "fly"}, version)
    assert malformed.status == 422 and malformed.json["type"].endswith("invalid_record")
    not_over = ana.request("POST", f"/api/tables/{table_id}/finish", json_body={})
    assert not_over.status == 409 and not_over.json["type"].endswith("not_finished")


def test_a_moonlight_card_placed_apart_breaks_m3(fresh_server: StartServer) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    record, actions, _ = fixture("moonlight", "00-greedy")
    table = open_table(ana, {**record, "actions": actions[:2]})
    far = {**actions[2], "cell": [3, 0]}  # two cells away from every card
    reply = enter(ana, table["table_id"], far, table["version"])
    assert reply.status == 422 and reply.json["rule"].startswith("M-3"), reply.body


def test_an_unfinished_table_is_stored_as_an_unfinished_game(fresh_server: StartServer) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table = open_table(ana, {**record, "actions": actions[:12]})
    reply = ana.request("POST", f"/api/tables/{table['table_id']}/finish",
                        json_body={"unfinished": True})  # fmt: skip
    assert reply.status == 201, reply.body
    with open_library(server.live.settings) as library:
        info = library.info(UUID(reply.json["game_id"]))
    assert not info.finished and info.actions == 12


def test_tables_survive_a_restart(fresh_server: StartServer) -> None:
    first = fresh_server()
    ana = first.as_user(ANA)
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table = open_table(ana, {**record, "actions": actions[:5]})
    before = first.client.get(f"/api/tables/{table['table_id']}").json
    second = fresh_server(database_schema=first.live.settings.database_schema)
    after = second.client.get(f"/api/tables/{table['table_id']}").json
    assert after == before
    reply = enter(second.as_user(ANA), table["table_id"], actions[5], before["version"])
    assert reply.status == 201, reply.body
    listed = first.client.get("/api/tables").json["tables"]
    assert [t["table_id"] for t in listed] == [table["table_id"]]
    assert listed[0]["actions"] == 6 and listed[0]["players"] == ["Ana", "Bo"]


def test_writes_need_a_token_as_uploads_do(fresh_server: StartServer) -> None:
    server = fresh_server()
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table = open_table(server.as_user(ANA), record)
    path = f"/api/tables/{table['table_id']}"
    writes = [
        ("/api/tables", record),
        (f"{path}/actions", {"action": actions[0], "version": table["version"]}),
        (f"{path}/undo", {"version": table["version"]}),
        (f"{path}/finish", {"unfinished": True}),
    ]
    for token, status in ((None, 401), ("not-a-token", 403)):
        upload = server.client.upload(b"{}", token=token)
        assert upload.status == status
        for target, body in writes:
            reply = server.client.request("POST", target, json_body=body, token=token)
            assert reply.status == status, (target, reply.body)
    empty = server.client.request("POST", f"{path}/finish")  # no body: still needs a token
    assert empty.status == 401
    assert server.client.get(path).json["version"] == table["version"]


def test_legal_actions_and_the_hex_filter(fresh_server: StartServer) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    record, actions, _ = fixture("the-wolves", "2p-00-heuristic")
    table_id = open_table(ana, {**record, "actions": actions[:5]})["table_id"]  # a Move next
    legal = server.client.get(f"/api/tables/{table_id}/legal").json
    assert legal["turn"] is not None and not legal["truncated"]
    assert legal["moves"] and legal["spread"] >= 1 and legal["speed"] >= 1
    rules = ruleset("the-wolves")
    assert all(rules.read_action(a) is not None for a in legal["actions"])
    assert all("pay" in a for a in legal["actions"] if a["type"] in ("den", "lair", "howl"))
    wolf = legal["moves"][0]
    mine = server.client.get(f"/api/tables/{table_id}/legal",
                             query={"hex": "{},{}".format(*wolf["from"])}).json  # fmt: skip
    assert wolf in mine["moves"]
    assert all(m["from"] == wolf["from"] or wolf["from"] in m["to"] for m in mine["moves"])
    target = wolf["to"][0]
    there = server.client.get(f"/api/tables/{table_id}/legal",
                              query={"hex": f"{target[0]},{target[1]}"}).json  # fmt: skip
    assert all(m["to"] == [target] or m["from"] == target for m in there["moves"])
    assert any(m["from"] == wolf["from"] for m in there["moves"])
    bad = server.client.get(f"/api/tables/{table_id}/legal", query={"hex": "seven"})
    assert bad.status == 400 and "hex" in bad.json["errors"]["query"]
    moonlight = open_table(ana, fixture("moonlight", "00-greedy")[0])
    ml = server.client.get(f"/api/tables/{moonlight['table_id']}/legal").json
    assert ml["actions"] and ml["moves"] == [] and "spread" not in ml
    unknown = server.client.get("/api/tables/00000000-0000-4000-8000-000000000000")
    assert unknown.status == 404 and unknown.json["type"].endswith("unknown_table")


def test_the_tables_are_in_the_openapi_document(fresh_server: StartServer) -> None:
    spec = fresh_server().client.get("/api/openapi.json", check=False).json
    paths = spec["paths"]
    for path in ("/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/legal",
                 "/api/tables/{table_id}/actions", "/api/tables/{table_id}/undo",
                 "/api/tables/{table_id}/finish", "/api/tables/{table_id}/stream"):  # fmt: skip
        assert path in paths, path
    enter_op = paths["/api/tables/{table_id}/actions"]["post"]
    assert {"201", "409", "422"} <= set(enter_op["responses"])
    assert enter_op["security"] == [{"bearer": []}]
    assert "text/event-stream" in paths["/api/tables/{table_id}/stream"]["get"]["responses"][
        "200"]["content"]  # fmt: skip


def test_a_table_takes_at_most_the_action_limit(fresh_server: StartServer) -> None:
    server = fresh_server(max_actions=3)
    ana = server.as_user(ANA)
    record, actions, _ = fixture("moonlight", "00-greedy")
    too_long = ana.request("POST", "/api/tables", json_body={**record, "actions": actions[:4]})
    assert too_long.status == 422 and too_long.json["limit"] == 3
    table = open_table(ana, {**record, "actions": actions[:3]})
    reply = enter(ana, table["table_id"], actions[3], table["version"])
    assert reply.status == 422 and reply.json["type"].endswith("too_many_actions")
    assert reply.json["limit"] == 3
    assert server.client.get(f"/api/tables/{table['table_id']}").json["version"] == 4
