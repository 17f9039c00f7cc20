"""The rulebook's worked examples (W-10) as scenario records built on positions.

Each scenario is a ``howl.game`` record whose ``start`` is a position exported from a
hand-set state; the installed ``howl score`` plays it and tells the result.
"""

from __future__ import annotations

import json
from pathlib import Path

from domain.wolves.actions import Action, Move, Pass, WolfStep
from domain.wolves.positions import to_position
from domain.wolves.records import Record, write_record
from domain.wolves.state import MoonlightPiece, State
from tests.records.test_cli import howl
from tests.rules.scenario import grid_map, scenario, set_board

CRESCENT_REGION = grid_map(
    "g1 g1 g1 g1 g1 g1",
    "g1 g1 ~1 g1 g1 g1",
    "g1 g1 g1 g1 g1 g1",
    scoring={1: ("crescent",)},
)


def scenario_file(tmp_path: Path, state: State, actions: list[Action]) -> Path:
    """Write a record that starts from ``state``'s position and plays ``actions``."""
    doc = to_position(state)
    doc["phases_scored"] = 0  # the crescent date is reached: it scores at the end of this turn
    start = Record(players=state.table.players, actions=tuple(actions))
    data = json.loads(write_record(start))
    data["start"] = doc
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data))
    return path


def crescent_due(pieces: dict, dens: dict[int, int], lairs: dict[int, int] | None = None) -> State:
    """The crescent date reached on the one-region map; seats' boards match their pieces."""
    state = scenario(CRESCENT_REGION, pieces=pieces, lone=())
    for seat, taken in dens.items():
        set_board(state, seat, dens=(taken, 0, 0), lairs=(lairs or {}).get(seat, 0))
    state.moonlight = (MoonlightPiece("lone_wolf"),) * state.table.phase_dates[0]
    state.round_start_date = state.date
    return state


def test_w10_control_example_scores_4_2_0(tmp_path: Path) -> None:
    """2 alphas + 2 pack wolves + 1 den = 5; 2 pack wolves + 1 den = 3; lair + pack + 2 dens = 6."""
    state = crescent_due({
        (0, 0): "A0 A0", (1, 0): "P0 P0", (3, 0): "D0",
        (4, 0): "P1 D1", (5, 0): "P1",
        (2, 2): "L2 P2", (0, 2): "D2", (1, 2): "D2",
    }, dens={0: 1, 1: 1, 2: 3}, lairs={2: 1})  # fmt: skip
    result = howl("score", str(scenario_file(tmp_path, state, [Pass(0)])), "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    scores = {s["seat"]: s for s in json.loads(result.stdout)["scores"]}
    assert {seat: s["regions"] for seat, s in scores.items()} == {0: 2, 1: 0, 2: 4}
    assert scores[2]["region_tokens"] == 1 and scores[0]["region_tokens"] == 0


def test_w10_tie_example_second_player_wins_first_place(tmp_path: Path) -> None:
    """2 dens + 1 pack wolf (3, no alpha) against 2 pack wolves + 1 alpha (3, one alpha)."""
    state = crescent_due({(0, 0): "D0", (1, 0): "D0", (3, 0): "P0",
                          (0, 2): "P1", (1, 2): "P1", (3, 2): "A1"}, dens={0: 2})  # fmt: skip
    result = howl("score", str(scenario_file(tmp_path, state, [Pass(0)])), "--json")
    scores = {s["seat"]: s for s in json.loads(result.stdout)["scores"]}
    assert (scores[1]["regions"], scores[0]["regions"]) == (4, 2)


def test_w10_move_example_both_wolves_on_one_grassland_hex(tmp_path: Path) -> None:
    """Speed 3, spread 2, one grassland tile: both wolves end on the same grassland hex."""
    state = scenario(CRESCENT_REGION, pieces={(0, 0): "A0", (0, 2): "P0"}, lone=())
    move = Move(0, (WolfStep((0, 0), (3, 2)), WolfStep((0, 2), (3, 2))))
    path = scenario_file(tmp_path, state, [move])
    assert howl("validate", str(path)).returncode == 0
    position = json.loads(howl("replay", str(path), "--json").stdout)
    on_hex = [p["kind"] for p in position["pieces"] if p["hex"] == [3, 2]]
    assert sorted(on_hex) == ["alpha", "pack"]
    # seat 0 is at home in forest: the grassland tile in slot 3 paid and shows its back now
    assert position["boards"][0]["flipped"] == [False, False, False, True, False, False]
