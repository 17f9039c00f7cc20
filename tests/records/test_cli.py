"""``howl validate``, ``howl replay`` and ``howl score`` as other tools run them."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from domain.games import rulesets
from domain.wolves.actions import Pass
from domain.wolves.positions import to_position
from domain.wolves.records import write_record
from domain.wolves.scoring import final_scores
from tests.games import FIXTURES, Game

HOWL = Path(sys.executable).with_name("howl")


def howl(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the installed ``howl`` (or the module, where no console script is installed)."""
    command = [str(HOWL)] if HOWL.exists() else [sys.executable, "-m", "api.cli"]
    return subprocess.run([*command, *args], input=stdin, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory, game3: Game) -> Path:
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_bytes(write_record(game3.record))
    return path


def test_validate_prints_a_summary(record_file: Path, game3: Game) -> None:
    result = howl("validate", str(record_file))
    assert result.returncode == 0, result.stderr
    best = max(s.total for s in final_scores(game3.final))
    line = result.stdout.decode()
    assert line.startswith(f"ok: 3 players, {len(game3.record.actions)} actions, finished, winner")
    assert line.endswith(f"({best})\n") and line.count("\n") == 1


@pytest.mark.parametrize("command", ["validate", "analyse"])
def test_an_illegal_record(tmp_path: Path, game3: Game, command: str) -> None:
    """``validate`` and ``analyse`` answer an illegal record alike: its error JSON, exit 1."""
    actions = list(game3.record.actions)
    mover = game3.states[40].player
    seat = (mover + 1) % 3
    actions[40] = Pass(seat)
    path = tmp_path / "illegal.json"
    path.write_bytes(write_record(dataclasses.replace(game3.record, actions=tuple(actions))))
    result = howl(command, str(path))
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    assert json.loads(result.stdout) == {
        "error": "illegal_action",
        "index": 40,
        "action": {"type": "pass", "player": seat},
        "rule": "W-6",
        "message": f"it is seat {mover} (P{mover})'s turn, not seat {seat} (P{seat})'s",
    }


def test_invalid_record_from_stdin() -> None:
    result = howl("validate", "-", stdin=b'{"format": "howl.game", "version": 1, "game": 3}')
    assert result.returncode == 1
    known = ", ".join(rules.name for rules in rulesets())
    assert json.loads(result.stdout) == {
        "error": "invalid_record", "path": "game", "message": f"no game 3: known games are {known}"
    }  # fmt: skip


def test_replay_json_is_the_position(record_file: Path, game3: Game) -> None:
    result = howl("replay", str(record_file), "--at", "57", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == to_position(game3.states[57])
    end = howl("replay", "-", "--json", stdin=record_file.read_bytes())
    assert json.loads(end.stdout) == to_position(game3.final)
    beyond = howl("replay", str(record_file), "--at", "100000", "--json")
    assert beyond.returncode == 2 and b"--at" in beyond.stderr


def test_score_json(record_file: Path, game3: Game) -> None:
    result = howl("score", str(record_file), "--json")
    assert result.returncode == 0, result.stderr
    scores = json.loads(result.stdout)["scores"]
    assert scores == [dataclasses.asdict(s) for s in final_scores(game3.final)]
    assert list(scores[0]) == [
        "seat", "total", "regions", "spread", "speed", "howl", "lairs", "prey", "pack",
        "region_tokens", "wolves_on_map", "place",
    ]  # fmt: skip
    current = json.loads(howl("score", str(record_file), "--json", "--at", "90").stdout)
    assert current["scores"] == [dataclasses.asdict(s) for s in final_scores(game3.states[90])]


def test_replay_text_names_the_token_a_player_out_of_actions_holds() -> None:
    """W-6: with no action left, a bonus action token may still be spent (or kept by passing);
    in 2p-00-heuristic Bo is there after 8 actions, holding the second seat's token."""
    fixture = str(FIXTURES / "2p-00-heuristic.json")
    held = howl("replay", fixture, "--at", "8")
    assert held.returncode == 0
    assert b"Bo to act (0 actions left, 1 bonus action token to spend or keep)" in held.stdout
    assert b"(1 action left)\n" in howl("replay", fixture, "--at", "7").stdout


def test_replay_text_is_the_situation_and_every_seats_score(record_file: Path, game3: Game) -> None:
    lines = howl("replay", str(record_file), "--at", "57").stdout.decode().splitlines()
    assert lines[0].startswith("after 57 of ") and lines[1] == "in progress; the score now:"
    scores = sorted(final_scores(game3.states[57]), key=lambda s: (s.place, s.seat))
    names = [p.name for p in game3.record.players]
    assert [line.split(" (")[0] for line in lines[2:]] == [
        f"  {s.place}. {names[s.seat]}: {s.total}" for s in scores
    ]


def test_top_level_help_shows_each_commands_description_whole() -> None:
    """Every command's first sentence, wrapped but never cut short with "…"."""
    shown = howl("--help").stdout.decode()
    listing = " ".join(shown.partition("Commands:")[2].split())
    assert "..." not in listing
    assert "validate Check a game record; print a one-line summary (exit 0) or the error JSON " \
        "(exit 1)." in listing  # fmt: skip


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ("big_map=maybe", "big_map=maybe: a value is a number or one of true, yes, on, false"),
        ("lone_wolves_per_region=9", "setup.options.lone_wolves_per_region: must be an integer "
         "from 1 to 3"),
        ("howling", "no option 'howling': W-12's are auto_push, big_map, lone_wolves_per_region"),
    ],
)  # fmt: skip
def test_simulate_names_a_bad_option_and_what_it_may_be(
    tmp_path: Path, options: str, said: str
) -> None:
    run = howl("simulate", "--players", "2", "--games", "1", "--options", options,
               "--out", str(tmp_path))  # fmt: skip
    assert run.returncode == 2 and b"Traceback" not in run.stderr
    assert said in " ".join(run.stderr.decode().split())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("game", "seats"), [("the-wolves", 4), ("moonlight", 2)])
def test_simulate_plays_four_or_the_count_nearest_it_the_game_allows(
    tmp_path: Path, game: str, seats: int
) -> None:
    run = howl("simulate", "--game", game, "--games", "2", "--out", str(tmp_path))

    assert run.returncode == 0, run.stderr
    written = sorted(tmp_path.iterdir())
    assert [p.name.endswith(f"-{seats}p.json") for p in written] == [True, True]
    assert all(len(json.loads(p.read_bytes())["players"]) == seats for p in written)
    assert f"{seats} players: 2 games" in run.stdout.decode()
