"""Moonlight records (``howl.game``): written canonically, read back equal, and every
malformed field refused as ``invalid_record`` with its JSON path; nothing else refused."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from domain.documents import parse
from domain.games import of_document
from domain.moonlight.actions import AlphaPower, Place, RoundStart
from domain.moonlight.fields import MAX_ACTIONS
from domain.moonlight.players import self_play
from domain.moonlight.records import Record, initial, read_record, write_record, written_start
from domain.moonlight.ruleset import MOONLIGHT
from domain.replays import RecordError, replay
from domain.ruleset import InvalidRecord
from tests.moonlight.scenario import PLAYERS, make_setup

GAME = self_play(("greedy", "random"), seed=11, round_starts=True).record
DOC: dict[str, Any] = json.loads(write_record(GAME))


def test_a_record_reads_back_equal_and_writes_the_same_bytes() -> None:
    data = write_record(GAME)
    assert read_record(data) == GAME
    assert write_record(read_record(data)) == data
    assert data == json.dumps(json.loads(data), sort_keys=True, separators=(",", ":")).encode()


def test_the_record_format_is_the_rules_references() -> None:
    assert DOC["format"] == "howl.game" and DOC["version"] == 1 and DOC["game"] == "moonlight"
    assert DOC["players"] == [{"name": "Ana", "color": "green"}, {"name": "Bo", "color": "blue"}]
    assert set(DOC["setup"]) == {"seed", "deck", "lone_wolf", "draws"}
    assert DOC["setup"]["deck"][1] == {"value": 2, "count": 2, "moons": 1}
    assert DOC["setup"]["lone_wolf"] == {"value": 4, "moons": 0}
    types = {a["type"] for a in DOC["actions"]}
    assert types == {"place", "round_start", "alpha_power"}
    place = next(a for a in DOC["actions"] if a["type"] == "place")
    assert set(place) == {"type", "player", "card", "cell"}


def test_the_registry_finds_moonlight_by_the_records_game() -> None:
    assert of_document(DOC) is MOONLIGHT
    assert MOONLIGHT.read_record(DOC) == GAME


def test_a_reader_ignores_fields_it_does_not_know() -> None:
    doc = copy.deepcopy(DOC)
    doc["extra"] = {"any": "thing"}
    doc["setup"]["options"] = {}
    doc["players"][0]["terrain"] = "forest"
    doc["actions"][0]["note"] = "first"
    assert read_record(doc) == GAME


def test_meta_draws_seed_and_rules_are_optional() -> None:
    doc = copy.deepcopy(DOC)
    del doc["setup"]["draws"], doc["setup"]["seed"]
    doc["meta"] = {"title": "Club night"}
    doc["rules"] = "moonlight-1"
    record = read_record(doc)
    assert record.setup is not None and record.setup.draws is None and record.setup.seed is None
    assert record.meta == {"title": "Club night"} and record.rules_version == "moonlight-1"
    assert read_record(write_record(record)) == record


def test_written_start_is_the_records_start() -> None:
    assert written_start(write_record(GAME).decode()) == initial(GAME)


def set_in(path: list[str | int], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def drop(*path: str | int) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def place_at(i: int) -> int:
    return next(j for j, a in enumerate(DOC["actions"][i:], i) if a["type"] == "place")


P = place_at(0)
A = next(j for j, a in enumerate(DOC["actions"]) if a["type"] == "alpha_power")
BAD: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("format", set_in(["format"], "howl.position")),
    ("version", set_in(["version"], 2)),
    ("game", set_in(["game"], "the-wolves")),
    ("meta.title", set_in(["meta"], {"title": 3})),
    ("rules", set_in(["rules"], "")),
    ("players", set_in(["players"], [{"name": "Ana", "color": "green"}])),
    ("players", drop("players")),
    ("players[1].name", drop("players", 1, "name")),
    ("players[0].name", set_in(["players", 0, "name"], "x" * 65)),
    ("players[0].color", set_in(["players", 0, "color"], "bl\x00ue")),
    ("setup", drop("setup")),
    ("setup", set_in(["setup"], [])),
    ("setup.seed", set_in(["setup", "seed"], -1)),
    ("setup.seed", set_in(["setup", "seed"], 1.5)),
    ("setup.deck", set_in(["setup", "deck"], [])),
    ("setup.deck", drop("setup", "deck")),
    ("setup.deck[0].value", set_in(["setup", "deck", 0, "value"], 6)),
    ("setup.deck[0].value", set_in(["setup", "deck", 0, "value"], True)),
    ("setup.deck[4].count", set_in(["setup", "deck", 4, "count"], 2)),
    ("setup.deck[1].moons", set_in(["setup", "deck", 1, "moons"], -1)),
    ("setup.deck[1].moons", set_in(["setup", "deck", 1, "moons"], 6)),
    ("setup.lone_wolf", drop("setup", "lone_wolf")),
    ("setup.lone_wolf.value", set_in(["setup", "lone_wolf", "value"], "4")),
    ("setup.lone_wolf.moons", drop("setup", "lone_wolf", "moons")),
    ("setup.draws", set_in(["setup", "draws"], {})),
    ("setup.draws", set_in(["setup", "draws"], [[[1], [1]]] * 101)),
    ("setup.draws[0]", set_in(["setup", "draws", 0], [[1, 2]])),
    ("setup.draws[0][1]", set_in(["setup", "draws", 0, 1], [1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4])),
    ("setup.draws[0][0][3]", set_in(["setup", "draws", 0, 0, 3], 7)),
    ("setup.draws[0][0]", set_in(["setup", "draws", 0, 0], list(range(1, 6)) * 3)),
    ("actions", drop("actions")),
    ("actions", set_in(["actions"], {})),
    ("actions", set_in(["actions"], [{"type": "round_start", "player": 0}] * (MAX_ACTIONS + 1))),
    ("actions[0]", set_in(["actions", 0], [])),
    ("actions[0].type", set_in(["actions", 0, "type"], "draft")),
    ("actions[0].type", drop("actions", 0, "type")),
    (f"actions[{P}].player", set_in(["actions", P, "player"], 2)),
    (f"actions[{P}].player", set_in(["actions", P, "player"], False)),
    (f"actions[{P}].player", drop("actions", P, "player")),
    (f"actions[{P}].card", set_in(["actions", P, "card"], 0)),
    (f"actions[{P}].card", set_in(["actions", P, "card"], "wolf")),
    (f"actions[{P}].card", set_in(["actions", P, "card"], 3.0)),
    (f"actions[{P}].cell", set_in(["actions", P, "cell"], [4, 0])),
    (f"actions[{P}].cell", set_in(["actions", P, "cell"], [0, -4])),
    (f"actions[{P}].cell", set_in(["actions", P, "cell"], [0])),
    (f"actions[{P}].cell", set_in(["actions", P, "cell"], [0, True])),
    (f"actions[{P}].cell", drop("actions", P, "cell")),
    (f"actions[{A}].power", set_in(["actions", A, "power"], "")),
    (f"actions[{A}].power", set_in(["actions", A, "power"], "p" * 201)),
    (f"actions[{A}].power", set_in(["actions", A, "power"], "\ud800")),
    (f"actions[{A}].power", drop("actions", A, "power")),
]


@pytest.mark.parametrize(("path", "change"), BAD, ids=[f"{p}-{i}" for i, (p, _) in enumerate(BAD)])
def test_a_malformed_field_is_invalid_with_its_path(
    path: str, change: Callable[[dict[str, Any]], None]
) -> None:
    doc = copy.deepcopy(DOC)
    doc.setdefault("meta", {})
    change(doc)
    with pytest.raises(InvalidRecord) as caught:
        read_record(doc)
    assert caught.value.path == path, caught.value
    assert caught.value.to_json()["error"] == "invalid_record"


def test_malformed_json_is_invalid() -> None:
    for data in (b"{", b"[]", b'{"a": NaN}', b"\xff"):
        with pytest.raises(InvalidRecord):
            read_record(data)
    with pytest.raises(InvalidRecord):
        parse(b"[1]")


def test_a_record_with_a_start_position_has_no_setup() -> None:
    doc = copy.deepcopy(DOC)
    doc["start"] = MOONLIGHT.write_position(initial(GAME))
    with pytest.raises(InvalidRecord) as caught:
        read_record(doc)
    assert caught.value.path == "setup"
    del doc["setup"]
    assert read_record(doc).start == initial(GAME)
    doc["players"] = [{"name": "Cy", "color": "red"}, {"name": "Bo", "color": "blue"}]
    with pytest.raises(InvalidRecord) as caught:
        read_record(doc)
    assert caught.value.path == "players"
    doc["start"]["round"] = 2
    with pytest.raises(InvalidRecord) as caught:
        read_record(doc)
    assert caught.value.path == "start.round"


def test_an_illegal_action_rejects_the_record_with_its_index_and_rule() -> None:
    actions = (Place(0, 3, (0, 0)), Place(1, 4, (0, 0)), Place(0, 2, (1, 1)))
    record = Record(players=PLAYERS, setup=make_setup(), actions=actions)
    with pytest.raises(RecordError) as caught:
        replay(MOONLIGHT, record)
    assert caught.value.to_json() == {
        "error": "illegal_action",
        "index": 1,
        "action": {"type": "place", "player": 1, "card": 4, "cell": [0, 0]},
        "rule": "M-3",
        "message": "a 4 cannot cover the 3 on [0, 0]: it is seat 0 (Ana)'s only visible card",
    }


def test_every_action_type_round_trips() -> None:
    for action in (Place(1, "lone_wolf", (-3, 3)), RoundStart(1), AlphaPower(0, "Pack Call")):
        assert MOONLIGHT.read_action(MOONLIGHT.write_action(action), "a") == action
