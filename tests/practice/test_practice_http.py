"""Practice through real HTTP on both backends: positions, legal actions, verdicts, solutions,
progress kept per player name across requests, servers and processes, and the bounds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.store.practice import MAX_TRIES, record_try
from tests.api.conftest import FIXTURES, TOKENS, Server, record_of
from tests.practice.conftest import ANA, GAME, Practised, flagged
from tests.tables.conftest import open_table

BO = TOKENS["bo"]


def _try(p: Practised, step: dict[str, Any], action: Any, player: str = "Ana",
         token: str = ANA) -> Any:  # fmt: skip
    body = {"index": step["index"], "action": action, "player": player}
    return p.server.as_user(token).request("POST", p.path(), json_body=body)


def _positions(p: Practised, seat: int, player: str | None = None) -> Any:
    query = {"seat": seat} if player is None else {"seat": seat, "player": player}
    return p.server.client.get(p.path(), query=query)


def test_a_seat_practises_its_mistakes_and_blunders(practised: Callable[..., Practised]) -> None:
    p = practised()
    for seat in (0, 1):
        reply = _positions(p, seat)
        assert reply.status == 200 and reply.header("Cache-Control") == "no-store"
        found = reply.json["positions"]
        expected = flagged(p.result, seat)
        assert [x["index"] for x in found] == [s["index"] for s in expected] != []
        for x, step in zip(found, expected, strict=True):
            assert x["step"] == step["index"] + 1
            assert x["classification"] == step["classification"]
            assert x["played"] == step["action"]
            assert (x["tries"], x["solved"], x["revealed"]) == (0, False, False)
            assert x["position"]["format"] == "howl.position"
            assert x["position"]["turn"]["player"] == seat
        assert reply.json["player"] is None and reply.json["seat"] == seat


def test_the_better_action_is_accepted_and_the_flagged_one_rejected(
    practised: Callable[..., Practised],
) -> None:
    p = practised()
    step = flagged(p.result)[0]
    rejected = _try(p, step, step["action"])
    assert rejected.status == 200, rejected.body
    verdict = rejected.json
    assert verdict["accepted"] is False and verdict["best"] is None
    assert verdict["threshold"] == 0.05  # 0.1 / 2 players
    assert verdict["loss"] >= 0.1 and verdict["label"] == step["label"]
    assert (verdict["tries"], verdict["solved"], verdict["revealed"]) == (1, False, False)

    accepted = _try(p, step, step["best"]["action"])
    assert accepted.status == 200, accepted.body
    verdict = accepted.json
    assert verdict["accepted"] is True and verdict["loss"] == 0.0
    assert verdict["best"] == step["best"]["action"]
    assert verdict["best_label"] == step["best"]["label"]
    assert (verdict["tries"], verdict["solved"], verdict["revealed"]) == (2, True, False)

    again = _try(p, step, step["action"])  # once solved, the best is shown even when wrong
    assert again.json["accepted"] is False and again.json["best"] == step["best"]["action"]


def test_show_solution_is_kept(practised: Callable[..., Practised]) -> None:
    p = practised()
    step = flagged(p.result)[-1]
    body = {"index": step["index"], "player": "Bo"}
    shown = p.server.as_user(BO).request("POST", p.path("/reveal"), json_body=body)
    assert shown.status == 200, shown.body
    assert shown.json["best"] == step["best"]["action"]
    assert shown.json["best_label"] == step["best"]["label"]
    assert shown.json["win"] == step["best"]["win"]
    assert (shown.json["tries"], shown.json["solved"], shown.json["revealed"]) == (0, False, True)
    wrong = _try(p, step, step["action"], player="Bo", token=BO)
    assert wrong.json["accepted"] is False and wrong.json["best"] == step["best"]["action"]
    listed = _positions(p, step["seat"], "Bo").json["positions"]
    mine = next(x for x in listed if x["index"] == step["index"])
    assert (mine["tries"], mine["solved"], mine["revealed"]) == (1, False, True)


def test_progress_is_kept_per_player_name_across_requests_servers_and_processes(
    practised: Callable[..., Practised], fresh_server: Callable[..., Server]
) -> None:
    p = practised()
    step = flagged(p.result)[0]
    assert _try(p, step, step["best"]["action"], player="Ana").json["accepted"]
    assert not _try(p, step, step["action"], player="Cleo").json["accepted"]

    def progress(player: str) -> dict[str, Any]:
        listed = _positions(p, step["seat"], player).json["positions"]
        return next(x for x in listed if x["index"] == step["index"])

    assert (progress("  ana ")["tries"], progress("ANA")["solved"]) == (1, True)
    assert (progress("Cleo")["tries"], progress("Cleo")["solved"]) == (1, False)
    assert progress("Dee")["tries"] == 0

    settings = p.server.live.settings  # another app on the same store
    other = fresh_server(**{"analysis_playouts": settings.analysis_playouts,
                            "analysis_candidates": settings.analysis_candidates,
                            "database_schema": settings.database_schema})  # fmt: skip
    listed = other.client.get(p.path(), query={"seat": step["seat"], "player": "ana"})
    mine = next(x for x in listed.json["positions"] if x["index"] == step["index"])
    assert (mine["tries"], mine["solved"]) == (1, True)

    script = (
        "import json, sys, uuid\n"
        "from domain.store.practice import progress\n"
        "from services.library import open_library\n"
        "with open_library() as library:\n"
        "    found = progress(library, sys.argv[1], uuid.UUID(sys.argv[2]))\n"
        "print(json.dumps({i: [p.tries, p.solved, p.revealed] for i, p in found.items()}))\n"
    )
    env = {**os.environ, "HOWL_DATABASE_URL": settings.database_url,
           "HOWL_DATABASE_SCHEMA": settings.database_schema}  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", script, "Cleo", p.game_id], env=env, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr  # its traceback, should it fail
    assert json.loads(out.stdout) == {str(step["index"]): [1, False, False]}


def test_tries_at_once_by_one_player_are_all_kept(practised: Callable[..., Practised]) -> None:
    p = practised()
    steps = flagged(p.result)[:4]
    replies: list[Any] = []
    threads = [
        threading.Thread(target=lambda s=s: replies.append(_try(p, s, s["action"], "Gus")))
        for s in steps
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status for r in replies) == [200] * len(steps)
    kept = {x["index"]: x["tries"] for seat in (0, 1)
            for x in _positions(p, seat, "gus").json["positions"]}  # fmt: skip
    assert [kept[s["index"]] for s in steps] == [1] * len(steps)


def test_the_legal_actions_are_a_tables_at_that_position(
    practised: Callable[..., Practised],
) -> None:
    p = practised()
    step = flagged(p.result)[0]
    reply = p.server.client.get(p.path("/legal"), query={"index": step["index"]})
    assert reply.status == 200, reply.body
    legal = reply.json
    assert legal["index"] == step["index"] and legal["turn"] == step["seat"]
    doc = json.loads(record_of(GAME))
    doc["actions"] = doc["actions"][: step["index"]]
    table = open_table(p.server.as_user(ANA), doc)
    assert table["turn"] == step["seat"]  # no turn held open by tokens here
    same = p.server.client.get(f"/api/tables/{table['table_id']}/legal").json
    assert {k: v for k, v in legal.items() if k not in ("index", "version")} == {
        k: v for k, v in same.items() if k != "version"
    }
    best = step["best"]["action"]
    if "hex" in best:
        at = ",".join(map(str, best["hex"]))
        near = p.server.client.get(p.path("/legal"), query={"index": step["index"], "hex": at})
        assert near.json["actions"] and len(near.json["actions"]) <= len(legal["actions"])


def test_refusals(practised: Callable[..., Practised]) -> None:
    p = practised()
    step = flagged(p.result)[0]
    anon = p.server.client.request("POST", p.path(), json_body={
        "index": step["index"], "action": step["action"], "player": "Ana"})  # fmt: skip
    assert anon.status == 401
    bad = p.server.client.request("POST", p.path("/reveal"), token="nope",
                                  json_body={"index": step["index"], "player": "Ana"})  # fmt: skip
    assert bad.status == 403
    for name in ("", "   ", "x" * 65, "a\u0007b", "tab\there"):
        reply = _try(p, step, step["action"], player=name)
        assert reply.status == 400 and "player" in reply.json["errors"]["json"], name
        listed = _positions(p, 0, name)
        assert listed.status == 400 and "player" in listed.json["errors"]["query"], name
    assert _try(p, step, step["action"], player="x" * 64).status == 200

    illegal = {"type": "den", "player": 1 - step["seat"], "hex": [0, 0], "track": "speed"}
    reply = _try(p, step, illegal, player="Eve")
    assert reply.status == 422 and reply.json["type"].endswith("illegal_action")
    assert reply.json["rule"].startswith("W-") and reply.json["index"] == step["index"]
    malformed = _try(p, step, {"type": "fly"}, player="Eve")
    assert malformed.status == 422 and malformed.json["type"].endswith("invalid_record")
    listed = _positions(p, step["seat"], "Eve").json["positions"]
    assert all(x["tries"] == 0 for x in listed)  # nothing kept for either

    quiet = next(s for s in p.result["steps"] if s["classification"] is None)
    reply = _try(p, quiet, quiet["action"])
    assert reply.status == 409 and reply.json["type"].endswith("not_flagged")
    legal = p.server.client.get(p.path("/legal"), query={"index": quiet["index"]})
    assert legal.status == 409 and legal.json["type"].endswith("not_flagged")
    assert _positions(p, 2).status == 400
    assert p.server.client.get(p.path()).status == 400  # no seat
    unknown = p.server.client.get(f"/api/games/{uuid.uuid4()}/practice", query={"seat": 0})
    assert unknown.status == 404 and unknown.json["type"].endswith("unknown_game")

    with p.server.library() as library:
        for _ in range(MAX_TRIES):
            record_try(library, "Fay", UUID(p.game_id), step["index"], step["action"], False, None)
    full = _try(p, step, step["best"]["action"], player="fay")
    assert full.status == 409 and full.json["type"].endswith("too_many_tries")
    assert full.json["limit"] == MAX_TRIES


def test_a_game_without_a_stored_review_is_refused(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    game_id = server.as_user(ANA).upload(record_of(GAME)).json["game_id"]
    reply = server.client.get(f"/api/games/{game_id}/practice", query={"seat": 0})
    assert reply.status == 409 and reply.json["type"].endswith("no_review")
    body = {"index": 0, "action": {"type": "pass", "player": 0}, "player": "Ana"}
    tried = server.as_user(ANA).request("POST", f"/api/games/{game_id}/practice", json_body=body)
    assert tried.status == 409 and tried.json["type"].endswith("no_review")
    moonlight = (FIXTURES.parent / "moonlight" / "00-greedy.json").read_bytes()
    other = server.as_user(ANA).upload(moonlight).json["game_id"]
    reply = server.client.get(f"/api/games/{other}/practice", query={"seat": 0})
    assert reply.status == 409 and reply.json["game"] == "moonlight"  # no review for this game
