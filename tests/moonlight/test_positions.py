"""Moonlight positions (``howl.position``): every state round-trips, a position exported at
step n replays the rest of its game to the same result, malformed positions are refused
with their JSON path."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from domain.moonlight.players import self_play
from domain.moonlight.positions import read_position, to_position
from domain.moonlight.records import Record, read_record, write_record
from domain.moonlight.ruleset import MOONLIGHT
from domain.replays import replay
from domain.ruleset import InvalidRecord
from tests.moonlight.test_records import drop, set_in

GAME = self_play(("greedy", "greedy"), seed=4).record
PLAYED = replay(MOONLIGHT, GAME)


def state_at(n: int) -> Any:
    return PLAYED.state_at(n)


def test_a_position_holds_what_the_rules_reference_names() -> None:
    n = next(i for i, events in enumerate(PLAYED.steps) if "RoundWon" in map(_name, events)) + 1
    doc = to_position(state_at(n + 3))
    assert doc["format"] == "howl.position" and doc["game"] == "moonlight"
    assert doc["round"] == 2 and sorted(doc["rounds_won"]) == [0, 1]
    assert doc["cells"][0] == {"cell": [0, 0], "stack": doc["cells"][0]["stack"]}
    assert {"player", "card"} == set(doc["cells"][0]["stack"][0])
    assert {"left", "hand", "deck", "lone_wolf", "power"} == set(doc["seats"][0])
    assert len(doc["rounds"]) == 1 and set(doc["rounds"][0]) == {"round", "winner", "seats"}
    assert set(doc["turn"]) == {"phase", "player", "starter", "last_turn", "alpha_power"}
    json.dumps(doc)


def _name(event: object) -> str:
    return type(event).__name__


@pytest.mark.parametrize("n", range(0, len(GAME.actions) + 1, 3))
def test_every_state_round_trips(n: int) -> None:
    state = state_at(n)
    assert read_position(to_position(state)) == state
    assert read_position(json.dumps(to_position(state))) == state


@pytest.mark.parametrize("n", [0, 1, 7, 12, 13, 14, len(GAME.actions) - 1])
def test_a_position_used_as_a_start_replays_the_rest_to_the_same_result(n: int) -> None:
    rest = Record(players=GAME.players, start=state_at(n), actions=GAME.actions[n:])
    again = replay(MOONLIGHT, read_record(write_record(rest)))
    assert again.steps == PLAYED.steps[n:]
    assert MOONLIGHT.score_json(again.state) == MOONLIGHT.score_json(PLAYED.state)
    assert again.state == PLAYED.state


def test_positions_without_draws_round_trip_too() -> None:
    game = self_play(("random", "random"), seed=8, draws=False).record
    played = replay(MOONLIGHT, game)
    for n in range(0, len(game.actions), 5):
        state = played.state_at(n)
        assert state.packs[0].hand is None
        assert read_position(to_position(state)) == state


def cell(at: list[int], *stack: tuple[int, int]) -> dict[str, Any]:
    return {"cell": at, "stack": [{"player": p, "card": c} for p, c in stack]}


def both(*changes: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        for one in changes:
            one(doc)

    return change


MID = to_position(state_at(5))
BAD: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("format", set_in(["format"], "howl.game")),
    ("players", set_in(["players"], [])),
    ("setup.deck", drop("setup", "deck")),
    ("round", set_in(["round"], 2)),
    ("round", set_in(["round"], 0)),
    ("rounds_won[0]", set_in(["rounds_won", 0], 1)),
    ("rounds_won", set_in(["rounds_won"], [0])),
    ("finished", set_in(["finished"], True)),
    ("cells", set_in(["cells"], [cell([1, 0], (0, 1))])),
    ("cells", set_in(["cells"], [cell([0, 0], (0, 1)), cell([0, 2], (1, 1))])),
    ("cells", set_in(["cells"], [cell([x, 0], (x % 2, 1)) for x in range(-2, 3)])),
    ("cells[1].cell", set_in(["cells"], [cell([0, 0], (0, 1)), cell([0, 0], (1, 1))])),
    ("cells[0].stack", set_in(["cells"], [cell([0, 0])])),
    ("cells[0].stack[1]", set_in(["cells"], [cell([0, 0], (0, 2), (0, 3))])),
    ("cells[0].stack[1]", set_in(["cells"], [cell([0, 0], (0, 2), (1, 4))])),
    ("cells[0].stack", set_in(["cells"], [cell([0, 0], *[(i % 2, i + 1) for i in range(6)])])),
    ("cells[0].stack[0].card", set_in(["cells"], [cell([0, 0], (0, 9))])),
    ("seats[0].left", set_in(["seats", 0, "left"], [1, 1])),
    ("seats[0].hand", set_in(["seats", 0, "hand"], None)),
    ("seats[0].hand", set_in(["seats", 0, "hand"], [5, 5, 5])),
    ("seats[0].hand", set_in(["seats", 0, "hand"], [1, 1, 2, 2])),
    ("seats[1].lone_wolf", set_in(["seats", 1, "lone_wolf"], 1)),
    ("seats[1].power", set_in(["seats", 1, "power"], "")),
    ("turn.phase", set_in(["turn", "phase"], "drafting")),
    ("turn.phase", set_in(["turn", "phase"], "over")),
    ("turn.player", set_in(["turn", "player"], 2)),
    ("turn.starter", drop("turn", "starter")),
    (
        "turn.last_turn",
        both(set_in(["turn", "phase"], "between"), set_in(["turn", "last_turn"], 1)),
    ),
    ("turn.alpha_power", set_in(["turn", "alpha_power"], 1)),
    ("rounds", set_in(["rounds"], {})),
]


@pytest.mark.parametrize(("path", "change"), BAD, ids=[f"{p}-{i}" for i, (p, _) in enumerate(BAD)])
def test_a_malformed_position_is_invalid_with_its_path(
    path: str, change: Callable[[dict[str, Any]], None]
) -> None:
    doc = copy.deepcopy(MID)
    change(doc)
    with pytest.raises(InvalidRecord) as caught:
        read_position(doc)
    assert caught.value.path == path, caught.value


def test_a_malformed_round_scored_is_invalid_with_its_path() -> None:
    n = next(i for i, events in enumerate(PLAYED.steps) if "RoundWon" in map(_name, events)) + 1
    doc = to_position(state_at(n))
    bad = copy.deepcopy(doc)
    bad["rounds"][0]["seats"][0]["points"] += 1
    with pytest.raises(InvalidRecord) as caught:
        read_position(bad)
    assert caught.value.path == "rounds[0].seats[0].points"
    bad = copy.deepcopy(doc)
    bad["rounds"][0]["seats"][1]["moons"] = 1
    with pytest.raises(InvalidRecord) as caught:
        read_position(bad)
    assert caught.value.path == "rounds[0].seats[1].moons"
    bad = copy.deepcopy(doc)
    bad["rounds"][0]["round"] = 2
    with pytest.raises(InvalidRecord) as caught:
        read_position(bad)
    assert caught.value.path == "rounds[0].round"
    bad = copy.deepcopy(doc)
    bad["turn"]["alpha_power"] = doc["rounds"][0]["winner"]
    with pytest.raises(InvalidRecord) as caught:
        read_position(bad)
    assert caught.value.path == "turn.alpha_power"
