"""``howl analyse``: a record file is reviewed and printed; a stored game's review is saved."""

from __future__ import annotations

import dataclasses
import json

from click.testing import CliRunner

from api.cli import main
from domain.store import GameLibrary
from domain.wolves.analysis.review import Settings
from domain.wolves.records import write_record
from projections.analysis_worker import analysis_status
from tests.analysis.conftest import QUICK, fixture_record

QUICK_ARGS = ["--playouts", "2", "--candidates", "1", "--workers", "1"]


def short_record(actions: int) -> bytes:
    record = fixture_record("3p-01-heuristic")
    return write_record(dataclasses.replace(record, actions=record.actions[:actions]))


def test_analyse_a_record_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(short_record(12))
    result = CliRunner().invoke(main, ["analyse", str(path), *QUICK_ARGS, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout.strip().splitlines()[-1])
    assert len(doc["steps"]) == 12 and doc["settings"]["key"] == QUICK.key
    text = CliRunner().invoke(main, ["analyse", str(path), *QUICK_ARGS])
    assert text.exit_code == 0 and "Accuracy" in text.stdout
    assert "opening" in text.stdout  # the seats' accuracy per stage of the game


def test_analyse_at_a_depth_takes_its_settings_and_the_values_given(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(short_record(4))
    keys = {}
    for depth, extra in (("quick", []), ("standard", ["--playouts", "2"])):
        args = ["analyse", str(path), "--depth", depth, *extra, "--workers", "1", "--json"]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        keys[depth] = json.loads(result.stdout.strip().splitlines()[-1])["settings"]["key"]
    assert keys == {
        "quick": Settings().key, "standard": Settings(playouts=2, candidates=4).key,
    }  # fmt: skip
    wrong = CliRunner().invoke(main, ["analyse", str(path), "--depth", "abyss"])
    assert wrong.exit_code == 2 and "abyss" in wrong.output


def test_analyse_a_stored_game_saves_the_review(tmp_path, sqlite_url):
    with GameLibrary.open(sqlite_url) as library:
        game = library.upload(short_record(8)).game_id
    result = CliRunner().invoke(
        main, ["analyse", str(game), *QUICK_ARGS], env={"HOWL_DATABASE_URL": sqlite_url}
    )
    assert result.exit_code == 0, result.output
    status = analysis_status(sqlite_url, game, QUICK)
    assert status["status"] == "done" and len(status["result"]["steps"]) == 8


def test_analyse_refuses_what_is_neither_a_game_nor_a_file(tmp_path):
    result = CliRunner().invoke(main, ["analyse", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)  # a usage error
    assert "not a game id nor a readable file" in result.output
