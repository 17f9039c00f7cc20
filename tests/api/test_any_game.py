"""The API and the command line work through the ruleset: take-away, a game registered by
the test only, is uploaded, served (record, events, states, branches) and scored with no
change outside the tests; its review is refused as "no review for this game yet"."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from api.caching import etag_of
from api.cli import main
from domain.ruleset import Ruleset
from projections.analysis_worker import analysis_status
from services.library import analyses_url, analysis_settings
from tests.api.conftest import TOKENS, Server, record_of
from tests.takeaway import Record, record_json, registered

FIXTURES = Path(__file__).parents[1] / "fixtures"
TEN = record_json(stones=10, takes=(3, 3, 3, 1), meta={"title": "Ten stones"})


@pytest.fixture
def server(fresh_server: Callable[..., Server], takeaway: Ruleset) -> Server:
    """A server on an empty store of the test's backend, with take-away registered."""
    return fresh_server()


def test_a_game_of_another_ruleset_is_uploaded_and_served(server: Server) -> None:
    ana = server.as_user(TOKENS["ana"])
    stored = ana.upload(json.dumps(TEN).encode())
    assert stored.status == 201, stored.body[:300]
    game_id = stored.json["game_id"]
    assert (stored.header("Location") or "").endswith(f"/api/games/{game_id}")
    assert ana.upload(json.dumps(TEN, indent=2).encode()).status == 200  # the same game

    record = server.client.get(f"/api/games/{game_id}/record")
    assert json.loads(record.body) == {**TEN, "meta": {"title": "Ten stones"}}
    events = server.client.get(f"/api/games/{game_id}/events", query={"limit": 3}).json
    assert (events["total"], events["next"]) == (5, 3)
    assert events["items"][1] == {"seq": 1, "step": 1, "type": "StonesTaken", "player": 1,
                                  "stones": 3, "left": 4}  # fmt: skip
    rest = server.client.get(f"/api/games/{game_id}/events", query={"from": 3}).json["items"]
    assert [e["type"] for e in rest] == ["StonesTaken", "GameWon"]
    piles = [server.client.get(f"/api/games/{game_id}/states/{s}").json for s in range(5)]
    assert [p["pile"] for p in piles] == [10, 7, 4, 1, 0]
    assert piles[0]["game"] == "takeaway" and piles[4]["winner"] == 1
    beyond = server.client.get(f"/api/games/{game_id}/states/5")
    assert (beyond.status, beyond.json["type"].rsplit("-", 1)[-1]) == (404, "unknown_step")


def test_a_bad_record_of_another_ruleset_stores_nothing(server: Server) -> None:
    ana = server.as_user(TOKENS["ana"])
    illegal = ana.upload(json.dumps(record_json(stones=5, takes=(3, 3))).encode())
    assert illegal.status == 422
    assert (illegal.json["index"], illegal.json["rule"]) == (1, "T-2")
    assert illegal.json["message"] == "cannot take 3 of 2 stones"
    invalid = ana.upload(json.dumps(record_json(takes=(0,))).encode())
    assert (invalid.status, invalid.json["path"]) == (422, "actions[0].stones")
    unknown = ana.upload(json.dumps({**TEN, "game": "the-sheep"}).encode())
    assert (unknown.status, unknown.json["path"]) == (422, "game")
    assert unknown.json["message"].startswith("no game 'the-sheep': known games are ")
    assert "takeaway" in unknown.json["message"]
    with server.library() as library:
        assert list(library.game_ids()) == []


def take(player: int, stones: int) -> dict[str, object]:
    """A take-away action as a record writes it."""
    return {"type": "take", "player": player, "stones": stones}


def test_a_branch_of_a_game_with_no_review_has_no_comparison(server: Server) -> None:
    ana = server.as_user(TOKENS["ana"])
    game_id = ana.upload(json.dumps(TEN).encode()).json["game_id"]
    path = f"/api/games/{game_id}/branches"
    actions = [take(0, 1), take(1, 3)]
    made = ana.request("POST", path, json_body={"step": 2, "actions": actions})
    assert made.status == 201, made.body[:300]
    branch = made.json
    assert (branch["game"], branch["step"], branch["steps"]) == ("takeaway", 2, 4)
    assert branch["actions"] == actions and branch["comparison"] is None
    location = made.header("Location")
    assert location is not None and server.client.get(location).json == branch
    states = f"/api/branches/{branch['branch_id']}/states"
    piles = [server.client.get(f"{states}/{s}").json["pile"] for s in (0, 2, 3, 4)]
    assert piles == [10, 4, 3, 0]
    late = ana.request("POST", path, json_body={"step": 2, "actions": [*actions, take(0, 1)]})
    assert (late.status, late.json["index"], late.json["rule"]) == (422, 2, "T-3")
    wrong = ana.request("POST", path, json_body={"step": 2, "actions": [{"type": "move"}]})
    assert (wrong.status, wrong.json["path"]) == (422, "actions[0].type")


def test_the_review_of_a_game_with_no_review_is_refused(server: Server) -> None:
    ana = server.as_user(TOKENS["ana"])
    game_id = ana.upload(json.dumps(TEN).encode()).json["game_id"]
    for reply in (
        server.client.get(f"/api/games/{game_id}/analysis"),
        ana.request("POST", f"/api/games/{game_id}/analysis"),
    ):
        assert reply.status == 409, reply.body[:300]
        assert reply.json["type"].endswith("problem-no_review")
        assert reply.json["game"] == "takeaway"
        assert reply.json["detail"].startswith("No review for this game yet")
    wolves = ana.upload(record_of("2p-00-heuristic")).json["game_id"]
    assert server.client.get(f"/api/games/{wolves}/analysis").status == 200


def test_an_upload_of_a_game_with_no_review_is_not_queued_for_one(
    fresh_server: Callable[..., Server], takeaway: Ruleset
) -> None:
    server = fresh_server(analysis=True)
    ana = server.as_user(TOKENS["ana"])
    game_id = ana.upload(json.dumps(TEN).encode()).json["game_id"]
    wolves = ana.upload(record_of("2p-00-heuristic")).json["game_id"]
    settings = server.live.settings
    url, review = analyses_url(settings), analysis_settings(settings)
    assert analysis_status(url, game_id, review)["status"] == "none"
    assert analysis_status(url, wolves, review)["status"] != "none"  # queued (or under way)


def test_etags_change_with_the_registered_games() -> None:
    before = etag_of("record", "42")
    with registered():
        during = etag_of("record", "42")
    assert before != during and etag_of("record", "42") == before


@pytest.fixture
def record_file(tmp_path: Path, takeaway: Ruleset) -> Iterator[Path]:
    path = tmp_path / "ten.json"
    path.write_text(json.dumps(TEN))
    yield path


def howl(*args: str, stdin: bytes | None = None) -> Result:
    """``howl ARGS…`` run in this process (where take-away is registered)."""
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def test_the_command_line_reads_any_game(record_file: Path) -> None:
    validated = howl("validate", str(record_file))
    assert (validated.exit_code, validated.output) == (
        0, "ok: 2 players, 4 actions, finished, winner Bo (1)\n",
    )  # fmt: skip
    assert howl("replay", str(record_file), "--at", "2").output == (
        "after 2 of 4 actions: 4 stones left, Ana to take\n"
        "in progress; the score now:\n  1. Ana: 0 (stones 3)\n  1. Bo: 0 (stones 3)\n"
    )
    position = json.loads(howl("replay", str(record_file), "--at", "1", "--json").output)
    assert (position["game"], position["pile"], position["turn"]) == ("takeaway", 7, {"player": 1})
    assert json.loads(howl("score", "-", "--json", stdin=record_file.read_bytes()).output) == {
        "scores": [{"seat": 0, "total": 0, "place": 2, "stones": 6},
                   {"seat": 1, "total": 1, "place": 1, "stones": 4}],
    }  # fmt: skip
    assert howl("score", str(record_file)).output == ("1. Bo: 1 (stones 4)\n2. Ana: 0 (stones 6)\n")
    illegal = howl("validate", "-", stdin=json.dumps(record_json(takes=(2, 2, 2, 2, 3))).encode())
    assert illegal.exit_code == 1
    assert json.loads(illegal.output) == {
        "error": "illegal_action", "index": 4, "action": {"type": "take", "player": 0, "stones": 3},
        "rule": "T-2", "message": "cannot take 3 of 2 stones",
    }  # fmt: skip
    refused = howl("analyse", str(record_file))
    assert refused.exit_code == 1
    assert "no review for this game yet: Take-away has none" in refused.output


def test_simulate_import_and_export_any_game(
    tmp_path: Path, sqlite_url: str, takeaway: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOWL_DATABASE_URL", sqlite_url)
    out = tmp_path / "games"
    made = howl("simulate", "--game", "takeaway", "--games", "1", "--players", "2",
                "--options", "stones=9", "--workers", "1", "--out", str(out))  # fmt: skip
    assert made.exit_code == 0, made.output
    (path,) = out.glob("*.json")
    record = takeaway.read_record(json.loads(path.read_bytes()))
    assert isinstance(record, Record)
    assert record.stones == 9 and record.meta["title"] == "Self-play #1"
    assert "finished: 1, unfinished: 0" in made.output
    wrong = howl("simulate", "--game", "takeaway", "--players", "3", "--out", str(out))
    assert wrong.exit_code == 2 and "Take-away is played by 2, not 3" in wrong.output
    imported = howl("import", "--jobs", "1", str(path))
    assert imported.output.splitlines()[-1] == "imported 1, duplicates 0, failed 0 (1 files)"
    from domain.store import game_id_for, record_digest

    game_id = str(game_id_for(record_digest(path.read_bytes())))
    assert howl("export", game_id).stdout_bytes == path.read_bytes()
    exported = json.loads(howl("export", game_id, "--at", "0").stdout_bytes)
    assert (exported["pile"], exported["game"]) == (9, "takeaway")
    assert (
        howl("migrate", "--all")
        .output.splitlines()[-1]
        .startswith("re-checked 1 game under the current rules (takeaway-1): 1 unchanged")
    )


def test_the_command_line_reads_moonlight() -> None:
    """The second game through the same commands: its summary, position and M-7 score."""
    path = FIXTURES / "moonlight" / "00-greedy.json"
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    validated = howl("validate", str(path))
    assert validated.exit_code == 0
    assert validated.output.startswith(f"ok: 2 players, {expected['actions']} actions, finished")
    start = f"after 0 of {expected['actions']} actions: round 1 (rounds won: Ana 0, Bo 0)"
    assert howl("replay", str(path), "--at", "0").output == (
        f"{start}, Ana to play\nin progress; the score now:\n"
        "  1. Ana: 0 (rounds won 0, points 0)\n  1. Bo: 0 (rounds won 0, points 0)\n"
    )
    position = json.loads(howl("replay", str(path), "--json").output)
    assert (position["format"], position["game"]) == ("howl.position", "moonlight")
    score = json.loads(howl("score", str(path), "--json").output)
    assert score == {"scores": expected["scores"]}
