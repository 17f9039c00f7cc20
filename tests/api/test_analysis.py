"""Analysis after upload and what-if branches, through real HTTP on both backends."""

from __future__ import annotations

import dataclasses
import time
import uuid
from collections.abc import Callable

from domain.store.branches import branch_id_for
from domain.wolves.actions import Pass
from domain.wolves.analysis.review import Settings as AnalysisSettings
from domain.wolves.analysis.whatif import branch_record
from domain.wolves.positions import to_position
from domain.wolves.records import action_to_json, read_record, write_record
from domain.wolves.replay import replay
from tests.analysis.test_branches import continuation
from tests.api.conftest import TOKENS, Server, record_of
from tests.api.test_replay import assert_cached

QUICK = {"analysis_playouts": 1, "analysis_candidates": 1, "analysis_processes": 1}
CLASSES = {None, "inaccuracy", "mistake", "blunder"}
GAME, STEP = "3p-00-heuristic", 30


def test_an_upload_is_reviewed_in_the_background(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server(analysis=True, **QUICK)
    record = read_record(record_of("2p-00-heuristic"))
    short = write_record(dataclasses.replace(record, actions=record.actions[:16]))
    game_id = server.as_user(TOKENS["ana"]).upload(short).json["game_id"]
    path = f"/api/games/{game_id}/analysis"

    first = server.client.get(path)  # the review is queued before the upload answers
    key = AnalysisSettings(playouts=1, candidates=1).key
    assert first.json["settings_key"] == key
    if first.json["status"] != "done":  # so this short one may be done already
        assert first.json["status"] in ("queued", "running") and first.json["result"] is None
        assert first.header("Cache-Control") == "no-store" and first.header("ETag") is None
    deadline = time.monotonic() + 30
    reply = first
    while reply.json["status"] in ("queued", "running") and time.monotonic() < deadline:
        assert 0 <= reply.json["progress"] <= 1
        time.sleep(0.1)
        reply = server.client.get(path)
    assert reply.json["status"] == "done", reply.json
    steps = reply.json["result"]["steps"]
    assert [s["index"] for s in steps] == list(range(16))
    assert {s["classification"] for s in steps} <= CLASSES
    assert any(s["classification"] for s in steps)
    assert all(0 <= s["win_after"] <= s["win_before"] + 1e-9 <= 1 + 1e-9 for s in steps)
    assert_cached(server.client, path)

    assert server.client.request("POST", path).status == 401
    again = server.as_user(TOKENS["bo"]).request("POST", path)
    assert (again.status, again.json["status"]) == (202, "queued")
    assert again.header("Location") == path
    redone = server.client.get(path)  # not the done review's answer, though it was cached
    assert redone.json["status"] in ("queued", "running") and redone.header("ETag") is None
    for method in ("GET", "POST"):
        unknown = server.as_user(TOKENS["bo"]).request(
            method, f"/api/games/{uuid.uuid4()}/analysis"
        )
        assert (unknown.status, unknown.json["title"]) == (404, "Unknown game")


def test_a_branch_is_stored_compared_and_replayed(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    user = server.as_user(TOKENS["ana"])
    game_id = user.upload(record_of(GAME)).json["game_id"]
    record = read_record(record_of(GAME))
    actions = continuation(replay(record, at=STEP).state, 4)
    docs = [action_to_json(a) for a in actions]
    with server.library() as library:
        parent_events = len(library.recorder.select_events(uuid.UUID(game_id)))
    path = f"/api/games/{game_id}/branches"

    assert (
        server.client.request("POST", path, json_body={"step": STEP, "actions": docs}).status == 401
    )
    made = user.request("POST", path, json_body={"step": STEP, "actions": docs})
    assert made.status == 201, made.json
    branch = made.json
    assert made.header("Location") == f"/api/branches/{branch['branch_id']}"
    assert (branch["parent_id"], branch["step"], branch["actions"]) == (game_id, STEP, docs)
    assert branch["steps"] == STEP + 4
    comparison = branch["comparison"]
    assert comparison["original"]["finished"] and not comparison["branch"]["finished"]
    assert (
        comparison["branch"]["actions"] == comparison["original_same_step"]["actions"] == STEP + 4
    )
    assert all(len(comparison[k]) == 3 for k in ("win_change", "win_change_same_step"))
    assert len(comparison["branch"]["scores"]) == len(comparison["branch"]["win"]) == 3
    with server.library() as library:
        assert len(library.recorder.select_events(uuid.UUID(game_id))) == parent_events

    same = user.request("POST", path, json_body={"step": STEP, "actions": docs})
    assert (same.status, same.json) == (200, branch)
    location = made.header("Location")
    assert location is not None
    assert server.client.get(location).json == branch
    assert_cached(server.client, location)
    played = replay(branch_record(record, STEP, actions))
    for step in (0, STEP, STEP + 4):
        position = server.client.get(f"{location}/states/{step}").json
        assert position == to_position(played.state_at(step))
    beyond = server.client.get(f"{location}/states/{STEP + 5}")
    assert (beyond.status, beyond.json["limit"]) == (404, STEP + 4)
    unknown = server.client.get(f"/api/branches/{uuid.uuid4()}")
    assert (unknown.status, unknown.json["title"]) == (404, "Unknown branch")
    assert server.client.get(f"/api/branches/{game_id}").status == 404  # a game is no branch
    for part in ("", "/record", "/events", "/states/0", "/timeline"):  # and a branch no game
        assert server.client.get(f"/api/games/{branch['branch_id']}{part}").status == 404


def test_a_bad_branch_is_refused_and_stores_nothing(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server()
    user = server.as_user(TOKENS["ana"])
    game_id = user.upload(record_of(GAME)).json["game_id"]
    state = replay(read_record(record_of(GAME)), at=STEP).state
    good = continuation(state, 2)
    mover = replay(branch_record(read_record(record_of(GAME)), STEP, good)).state.player
    bad = [*good, Pass((mover + 1) % 3), *good]
    docs = [action_to_json(a) for a in bad]
    with server.library() as library:
        before = library.recorder.max_notification_id()
    path = f"/api/games/{game_id}/branches"

    refused = user.request("POST", path, json_body={"step": STEP, "actions": docs})
    assert (refused.status, refused.json["title"]) == (422, "Illegal action")
    assert refused.json["index"] == 2 and refused.json["action"] == docs[2]
    assert refused.json["rule"] and refused.json["message"]
    malformed = user.request("POST", path, json_body={"step": STEP, "actions": [{"type": "x"}]})
    assert (malformed.status, malformed.json["path"]) == (422, "actions[0].type")
    too_far = user.request("POST", path, json_body={"step": 10_000, "actions": docs[:1]})
    assert too_far.status == 400 and "step" in too_far.json["errors"]["json"]
    assert user.request("POST", path, json_body={"step": STEP, "actions": []}).status == 400
    not_lists: tuple[object, ...] = ({}, "move", None)
    for actions in not_lists:
        odd = user.request("POST", path, json_body={"step": STEP, "actions": actions})
        assert odd.status == 400
    not_an_action = user.request("POST", path, json_body={"step": STEP, "actions": [1]})
    assert (not_an_action.status, not_an_action.json["path"]) == (422, "actions[0]")
    crowd = user.request("POST", path, json_body={"step": STEP, "actions": [{}] * 100_000})
    assert (crowd.status, crowd.json["type"].rsplit("-", 1)[-1]) == (422, "too_many_actions")
    assert user.request("POST", path, json_body={"actions": docs}).status == 400
    elsewhere = f"/api/games/{uuid.uuid4()}/branches"
    assert user.request("POST", elsewhere, json_body={"step": 0, "actions": docs}).status == 404
    with server.library() as library:
        assert library.recorder.max_notification_id() == before
        assert not library.exists(branch_id_for(uuid.UUID(game_id), STEP, docs))


def test_a_review_is_asked_for_and_read_at_a_depth(fresh_server: Callable[..., Server]) -> None:
    server = fresh_server(analysis=True, **QUICK)
    record = read_record(record_of("2p-00-heuristic"))
    short = write_record(dataclasses.replace(record, actions=record.actions[:8]))
    user = server.as_user(TOKENS["ana"])
    game_id = user.upload(short).json["game_id"]
    path = f"/api/games/{game_id}/analysis"
    assert server.client.get(path).json["depth"] is None  # the server's own settings

    for wrong in ({"depth": "abyss"}, {"depth": 3}, {"deep": True}):
        refused = user.request("POST", path, json_body=wrong)
        assert refused.status == 400 and set(refused.json["errors"]["json"]) == set(wrong)
    assert server.client.get(f"{path}?depth=abyss").status == 400
    assert server.client.get(f"{path}?depth=quick").json["status"] == "none"  # none stored

    asked = user.request("POST", path, json_body={"depth": "quick"})
    assert (asked.status, asked.json["depth"]) == (202, "quick"), asked.json
    assert asked.json["settings_key"] == AnalysisSettings().key
    assert asked.header("Location") == f"{path}?depth=quick"
    deadline = time.monotonic() + 60
    reply = server.client.get(f"{path}?depth=quick")
    while reply.json["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.2)
        reply = server.client.get(f"{path}?depth=quick")
    assert (reply.json["status"], reply.json["depth"]) == ("done", "quick"), reply.json
    assert len(reply.json["result"]["steps"]) == 8
    deep = server.client.get(f"{path}?depth=deep").json
    assert (deep["status"], deep["depth"]) == ("none", "deep")
    assert deep["settings_key"] == AnalysisSettings(playouts=16, candidates=5, rounds=0).key
    # the server's own depth (standard) named is what it reviews uploads with, as the
    # replay page shows it: here with HOWL_ANALYSIS_PLAYOUTS/_CANDIDATES in place of its own
    own = server.client.get(f"{path}?depth=standard").json
    assert (
        own["depth"] is None and own["settings_key"] == server.client.get(path).json["settings_key"]
    )
    assert own["settings_key"] == AnalysisSettings(playouts=1, candidates=1).key
