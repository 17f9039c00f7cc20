"""Variations through real HTTP on SQLite and PostgreSQL: opened at a step of a stored game,
played as tables, extended and taken back to their origin and no further, kept as branches
after every write, renamed and deleted by their author only, listed by step, compared with
their game as the branch endpoint compares them; and their bounds."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.store.tables import variations_of
from tests.api.conftest import Server
from tests.tables.conftest import FIXTURES, watch
from tests.variations.conftest import ANA, BO, enter, explore, legal, undo, upload

StartServer = Callable[..., Server]
STEP = 10


def other_than(played: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    """A legal action now that is not the game's own at this step."""
    return next(a for a in doc["actions"] if a != played)


def test_a_variation_is_a_table_from_the_step_and_a_branch_after_every_write(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    game_id, actions = upload(ana, "the-wolves", "2p-00-heuristic")

    reply = explore(ana, game_id, step=STEP)
    assert reply.status == 201, reply.body
    doc = reply.json
    vid = doc["table_id"]
    assert reply.header("Location") == f"/api/tables/{vid}"
    assert doc["variation"] == {
        "variation_id": vid, "game_id": game_id, "step": STEP, "name": f"Variation at step {STEP}",
        "author": "ana", "branch_id": None, "steps": STEP,
    }  # fmt: skip
    assert doc["actions"] == [] and doc["record"]["actions"] == actions[:STEP]
    main = server.client.get(f"/api/games/{game_id}/states/{STEP}").json
    assert doc["position"] == main
    assert server.client.get(f"/api/tables/{vid}").json == doc

    first = other_than(actions[STEP], legal(server.client, vid))
    reply = enter(ana, vid, first, doc["version"])
    assert reply.status == 201, reply.body
    one = reply.json["table"]["variation"]["branch_id"]
    second = legal(server.client, vid)["actions"][0]
    reply = enter(ana, vid, second, reply.json["version"])
    assert reply.status == 201, reply.body
    table = reply.json["table"]
    assert table["actions"] == [first, second]
    assert table["record"]["actions"] == [*actions[:STEP], first, second]
    two = table["variation"]["branch_id"]
    assert one and two and one != two and table["variation"]["steps"] == STEP + 2

    branch = server.client.get(f"/api/branches/{two}").json
    same = ana.request(
        "POST",
        f"/api/games/{game_id}/branches",
        json_body={"step": STEP, "actions": [first, second]},
    )
    assert same.status == 200 and same.json == branch  # one line, one branch
    assert branch["parent_id"] == game_id and branch["step"] == STEP
    assert branch["actions"] == [first, second]
    assert server.client.get(f"/api/branches/{two}/states/{STEP + 2}").json == table["position"]

    got = server.client.get(f"/api/variations/{vid}")
    assert got.status == 200, got.body
    var = got.json
    assert var["actions"] == [first, second] and var["steps"] == STEP + 2
    assert var["branch_id"] == two and var["version"] == table["version"]
    assert var["comparison"] == branch["comparison"] and var["comparison"] is not None
    assert var["main"]["step"] == STEP + 2 and len(var["main"]["scores"]) == 2
    assert var["end"]["win"] == var["comparison"]["branch"]["win"]
    assert var["main"]["win"] == var["comparison"]["original_same_step"]["win"]

    listed = server.client.get(f"/api/games/{game_id}/branches").json
    assert listed == {"game_id": game_id, "branches": [{
        "variation_id": vid, "branch_id": two, "step": STEP, "name": f"Variation at step {STEP}",
        "author": "ana", "actions": 2, "steps": STEP + 2, "updated_at": var["updated_at"],
    }]}  # fmt: skip
    assert vid not in {t["table_id"] for t in server.client.get("/api/tables").json["tables"]}

    version = table["version"]
    stale = enter(ana, vid, second, version - 1)
    assert stale.status == 409 and stale.json["type"].endswith("stale_version")
    reply = undo(ana, vid, version)
    assert reply.status == 201 and reply.json["table"]["variation"]["branch_id"] == one
    reply = undo(ana, vid, reply.json["version"])
    assert reply.status == 201 and reply.json["table"]["actions"] == []
    assert reply.json["table"]["variation"]["branch_id"] is None
    assert reply.json["table"]["position"] == main
    again = undo(ana, vid, reply.json["version"])  # the game's own actions are not the variation's
    assert again.status == 409 and again.json["type"].endswith("nothing_to_undo")
    assert server.client.get(f"/api/games/{game_id}/branches").json["branches"] == []
    none = server.client.get(f"/api/variations/{vid}").json
    assert none["comparison"] is None and none["branch_id"] is None
    assert none["main"]["step"] == STEP and none["end"] == {k: none["main"][k] for k in none["end"]}

    finish = ana.request("POST", f"/api/tables/{vid}/finish", json_body={"unfinished": True})
    assert finish.status == 409 and finish.json["type"].endswith("is_variation")


def test_only_its_author_changes_a_variation_and_a_deleted_one_is_gone(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    ana, bo = server.as_user(ANA), server.as_user(BO)
    game_id, actions = upload(ana, "the-wolves", "2p-00-heuristic")
    doc = explore(ana, game_id, step=STEP, actions=[actions[STEP]], name="Same as played").json
    vid, version = doc["table_id"], doc["version"]
    assert doc["variation"]["branch_id"] is not None

    for reply in (
        enter(bo, vid, legal(bo, vid)["actions"][0], version),
        undo(bo, vid, version),
        bo.request("PATCH", f"/api/variations/{vid}", json_body={"name": "Bo's"}),
        bo.request("DELETE", f"/api/variations/{vid}"),
    ):
        assert reply.status == 403 and reply.json["type"].endswith("not_author"), reply.body
    anonymous = server.client.request("PATCH", f"/api/variations/{vid}", json_body={"name": "x"})
    assert anonymous.status == 401
    assert server.client.get(f"/api/tables/{vid}").json["version"] == version  # nothing stored

    renamed = ana.request("PATCH", f"/api/variations/{vid}", json_body={"name": "Hunt first"})
    assert renamed.status == 200 and renamed.json["name"] == "Hunt first"
    assert server.client.get(f"/api/tables/{vid}").json["variation"]["name"] == "Hunt first"
    listed = server.client.get(f"/api/games/{game_id}/branches").json["branches"]
    assert [b["name"] for b in listed] == ["Hunt first"]

    conn, watched = watch(server.live.url, vid)
    assert next(watched)["variation"]["name"] == "Hunt first"
    gone = ana.request("DELETE", f"/api/variations/{vid}")
    assert gone.status == 204 and gone.body == b""
    assert list(watched) == []  # the stream of a deleted variation ends
    conn.close()
    assert server.client.get(f"/api/games/{game_id}/branches").json["branches"] == []
    for reply in (
        server.client.get(f"/api/variations/{vid}"),
        ana.request("PATCH", f"/api/variations/{vid}", json_body={"name": "back"}),
        ana.request("DELETE", f"/api/variations/{vid}"),
        enter(ana, vid, actions[STEP + 1], renamed.json["version"] + 1),
        undo(ana, vid, renamed.json["version"] + 1),
        server.client.get(f"/api/tables/{vid}"),
    ):
        assert reply.status == 404 and reply.json["type"].endswith("unknown_variation"), reply.body
    branch = server.client.get(f"/api/branches/{doc['variation']['branch_id']}")
    assert branch.status == 200  # a branch, once stored, stays


def test_a_games_variations_are_listed_by_step_then_creation(fresh_server: StartServer) -> None:
    server = fresh_server()
    ana, bo = server.as_user(ANA), server.as_user(BO)
    game_id, actions = upload(ana, "the-wolves", "2p-00-heuristic")
    other_id, other = upload(ana, "the-wolves", "2p-01-heuristic")
    made = []
    for client, step in ((ana, 20), (bo, 5), (ana, 5), (bo, 0)):
        reply = explore(client, game_id, step=step, actions=actions[step : step + 2])
        assert reply.status == 201, reply.body
        made.append((step, reply.json["table_id"]))
    assert explore(ana, game_id, step=3).status == 201  # no own action: not listed
    assert explore(ana, other_id, step=1, actions=other[1:2]).status == 201  # another game's
    listed = server.client.get(f"/api/games/{game_id}/branches").json["branches"]
    assert [(b["step"], b["variation_id"]) for b in listed] == sorted(
        made, key=lambda m: (m[0], made.index(m))
    )
    assert [b["author"] for b in listed] == ["bo", "bo", "ana", "ana"]
    assert all(b["actions"] == 2 and b["steps"] == b["step"] + 2 for b in listed)
    # two lines at one step are told apart by their default names
    assert [b["name"] for b in listed if b["step"] == 5] == [
        "Variation at step 5", "Variation at step 5 (2)"
    ]  # fmt: skip
    missing = server.client.get("/api/games/00000000-0000-0000-0000-000000000000/branches")
    assert missing.status == 404


def test_a_variation_of_a_game_without_review_plays_and_compares_nothing(
    fresh_server: StartServer,
) -> None:
    server = fresh_server()
    ana = server.as_user(ANA)
    game_id, actions = upload(ana, "moonlight", "00-greedy")
    doc = explore(ana, game_id, step=4).json
    move = legal(server.client, doc["table_id"])["actions"][-1]
    reply = enter(ana, doc["table_id"], move, doc["version"])
    assert reply.status == 201, reply.body
    var = server.client.get(f"/api/variations/{doc['table_id']}").json
    assert var["game"] == "moonlight" and var["actions"] == [move]
    assert var["comparison"] is None and var["end"]["win"] is None and var["main"]["win"] is None
    assert len(var["end"]["scores"]) == 2
    branch = server.client.get(f"/api/branches/{var['branch_id']}").json
    assert branch["actions"] == [move] and branch["comparison"] is None


def test_bad_variations_are_refused_naming_the_place_and_nothing_is_stored(
    fresh_server: StartServer,
) -> None:
    last = len(
        json.loads((FIXTURES / "the-wolves" / "2p-00-heuristic.json").read_bytes())["actions"]
    )
    server = fresh_server(max_actions=last)  # a table holds at most the game's actions
    ana = server.as_user(ANA)
    game_id, actions = upload(ana, "the-wolves", "2p-00-heuristic")
    cases: list[tuple[dict[str, Any], int, str, str]] = [
        ({"step": last + 1}, 400, "invalid_parameters", "step"),
        ({"step": -1}, 400, "invalid_parameters", "step"),
        ({"step": "3"}, 400, "invalid_parameters", "step"),
        ({"step": 3, "name": "x" * 81}, 400, "invalid_parameters", "name"),
        ({"step": 3, "name": "tab\there"}, 400, "invalid_parameters", "name"),
        ({"step": 3, "name": ""}, 400, "invalid_parameters", "name"),
        ({"step": 3, "actions": {"type": "pass"}}, 400, "invalid_parameters", "actions"),
        ({"step": 3, "suggested": True, "plies": 13}, 400, "invalid_parameters", "plies"),
        ({"step": STEP, "actions": [{"type": "fly"}]}, 422, "invalid_record", "actions[0]"),
        ({"step": STEP, "actions": [actions[STEP], actions[STEP]]}, 422, "illegal_action", "1"),
        ({"step": last - 1, "actions": [actions[-1], actions[0]]}, 422, "too_many_actions",
         str(last)),
        ({"step": last}, 409, "game_over", f"step {last}"),  # the game is over there
    ]  # fmt: skip
    for body, status, kind, where in cases:
        reply = explore(ana, game_id, **body)
        assert reply.status == status and reply.json["type"].endswith(kind), (body, reply.body)
        assert where in reply.body.decode(), (body, reply.body)
    illegal = explore(ana, game_id, step=STEP, actions=[actions[STEP], actions[STEP]]).json
    assert illegal["index"] == 1 and illegal["rule"].startswith("W-")
    unknown = explore(ana, "00000000-0000-0000-0000-000000000000", step=0)
    assert unknown.status == 404 and unknown.json["type"].endswith("unknown_game")
    assert explore(server.client, game_id, step=0).status == 401
    with server.library() as library:
        assert variations_of(library, UUID(game_id)) == []  # nothing was stored

    doc = explore(ana, game_id, step=last - 1, actions=actions[last - 1 :]).json
    refused = enter(ana, doc["table_id"], actions[0], doc["version"])
    assert refused.status == 422 and refused.json["type"].endswith("too_many_actions")
    assert refused.json["limit"] == last
