"""The ``howl.game`` format: canonical round trips and ``invalid_record`` paths."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.wolves.actions import BuildDen, Dominate, Move, Pay, WolfStep
from domain.wolves.records import (
    InvalidRecord,
    Record,
    action_from_json,
    action_to_json,
    read_record,
    record_to_json,
    setup_from_json,
    setup_to_json,
    write_record,
)
from domain.wolves.replay import replay
from domain.wolves.setup import Options, generate_setup
from tests.games import Game, play_out, random_game, random_players

Doc = dict[str, Any]
TEXT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=20)
"""Text a record may hold: no NUL, no lone surrogate."""


@settings(max_examples=20, deadline=None)
@given(
    n=st.sampled_from([2, 3, 4, 5]),
    seed=st.integers(0, 2),
    cut=st.integers(0, 400),
    meta=st.dictionaries(TEXT.filter(bool), TEXT, max_size=3),
    rules=st.sampled_from([None, "wolves-1"]),
)
def test_write_read_write_is_byte_identical(
    n: int, seed: int, cut: int, meta: dict[str, str], rules: str | None
) -> None:
    game = random_game(n, seed)
    record = dataclasses.replace(
        game.record, actions=game.record.actions[:cut], meta=meta, rules_version=rules
    )
    data = write_record(record)
    assert read_record(data) == record
    assert write_record(read_record(data)) == data
    assert read_record(data.decode()) == read_record(json.loads(data)) == record


def test_canonical_bytes(game: Game) -> None:
    data = write_record(game.record)
    assert (
        data
        == json.dumps(
            json.loads(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode()
    )
    assert not data.endswith((b"\n", b" "))
    doc = json.loads(data)
    assert (doc["format"], doc["version"], doc["game"]) == ("howl.game", 1, "the-wolves")
    assert doc["rules"] == game.record.rules_version


def test_replayed_record_reaches_the_played_state(game: Game) -> None:
    result = replay(read_record(write_record(game.record)))
    assert result.state == game.final
    assert len(result.steps) == len(game.record.actions)
    assert result.state_at(7) == game.states[7] == replay(game.record, at=7).state


def test_a_non_canonical_record_reads_the_same() -> None:
    record = random_game(2, seed=1, max_actions=12).record
    doc = record_to_json(record)
    doc["unknown_field"] = {"ignored": True}
    doc["actions"][5]["comment"] = "readers ignore fields they do not know"
    doc["actions"][6]["pay"] = None  # a bonus action has no pay: ignored
    doc["setup"]["seed"] = None
    pretty = json.dumps(doc, indent=2)
    assert read_record(pretty).actions == record.actions
    assert record.setup is not None
    unseeded = dataclasses.replace(record, setup=dataclasses.replace(record.setup, seed=None))
    assert write_record(read_record(pretty)) == write_record(unseeded)


@pytest.mark.parametrize(
    "action",
    [
        Move(1, (WolfStep((1, 2), (2, 3)),)),
        Move(0, (WolfStep((1, 2), (2, 2), "alpha", ((1, 2), (2, 2)), (3, 3)),), Pay((0,), 0)),
        BuildDen(2, (4, 4), "howl", Pay(None, 2)),
        Dominate(0, (5, 5), Pay((), None), "den", "spread"),
        Dominate(0, (5, 5)),
    ],
)
def test_action_json_round_trip(action: Any) -> None:
    doc = action_to_json(action)
    assert action_from_json(json.loads(json.dumps(doc))) == action
    assert all(value is not None for value in doc.values())


def test_optional_action_fields_stay_omitted() -> None:
    doc = action_to_json(Move(0, (WolfStep((1, 2), (2, 3)),)))
    assert doc == {"type": "move", "player": 0, "moves": [{"from": [1, 2], "to": [2, 3]}]}


def test_custom_map_record_round_trips_and_replays() -> None:
    setup = generate_setup(3, seed=4, options=Options(random_terrain=True))
    assert setup.custom_map is not None
    import random

    game = play_out(random_players(3, random.Random(4)), setup, seed=4)
    data = write_record(game.record)
    assert "map" in json.loads(data)["setup"] and "tiles" not in json.loads(data)["setup"]
    record = read_record(data)
    assert record == game.record and write_record(record) == data
    assert replay(record).state == game.final
    doc = json.loads(data)
    doc["actions"][0]["hex"] = [40, 40]
    with pytest.raises(InvalidRecord) as caught:
        read_record(doc)
    assert caught.value.path == "actions[0].hex"


@pytest.mark.parametrize(("players", "options"), [
    (2, Options()), (3, Options()), (5, Options()), (2, Options(big_map=True)),
    (4, Options(random_terrain=True)), (3, Options(lone_wolves_per_region=3)),
])  # fmt: skip
def test_a_written_setup_reads_back(players: int, options: Options) -> None:
    setup = generate_setup(players, seed=players, options=options)
    doc = json.loads(json.dumps(setup_to_json(setup)))
    assert setup_from_json(doc) == setup


# --- invalid records ------------------------------------------------------------------------


def _first(doc: Doc, kind: str) -> int:
    return next(i for i, a in enumerate(doc["actions"]) if a["type"] == kind)


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    """A change that sets ``doc[a][b]…`` (dotted, list indices as numbers) to ``value``."""

    def change(doc: Doc) -> None:
        *parents, last = [int(k) if k.lstrip("-").isdigit() else k for k in path.split(".")]
        node: Any = doc
        for key in parents:
            node = node[key]
        node[last] = value

    return change


def _move(doc: Doc) -> Doc:
    return doc["actions"][_first(doc, "move")]


def _den(doc: Doc) -> Doc:
    return doc["actions"][_first(doc, "den")]


CASES: list[tuple[str, Callable[[Doc], Any], str]] = [
    ("format", _set("format", "howl.position"), "format"),
    ("version", _set("version", 2), "version"),
    ("version is true", _set("version", True), "version"),
    ("game", _set("game", "the-sheep"), "game"),
    ("no format", lambda d: d.pop("format"), "format"),
    ("one player", lambda d: d.__setitem__("players", d["players"][:1]), "players"),
    ("six players", lambda d: d["players"].extend([d["players"][0]] * 3), "players"),
    ("unknown terrain", _set("players.2.terrain", "lava"), "players[2].terrain"),
    (
        "duplicate home",
        lambda d: d["players"][2].update(terrain=d["players"][0]["terrain"]),
        "players[2].terrain",
    ),
    ("unnamed", _set("players.1.name", ""), "players[1].name"),
    ("meta", _set("meta", {"title": 12}), "meta.title"),
    ("unknown action", _set("actions.7.type", "eat"), "actions[7].type"),
    ("no action type", lambda d: d["actions"][3].pop("type"), "actions[3].type"),
    ("action not an object", _set("actions.4", "pass"), "actions[4]"),
    ("seat as text", _set("actions.2.player", "1"), "actions[2].player"),
    ("seat out of range", _set("actions.2.player", 3), "actions[2].player"),
    ("hex of three", _set("actions.1.hex", [1, 2, 3]), "actions[1].hex"),
    ("hex of floats", _set("actions.1.hex", [1.0, 2]), "actions[1].hex"),
    ("draft off the map", _set("actions.0.hex", [99, 0]), "actions[0].hex"),
    (
        "move off the map",
        lambda d: _move(d)["moves"][0].update(to=[-20, 5]),
        "actions[{move}].moves[0].to",
    ),
    (
        "path off the map",
        lambda d: _move(d)["moves"][0].update(path=[[8, 9], [90, 9]]),
        "actions[{move}].moves[0].path[1]",
    ),
    (
        "unknown wolf",
        lambda d: _move(d)["moves"][0].update(wolf="cub"),
        "actions[{move}].moves[0].wolf",
    ),
    ("no moves", lambda d: _move(d).pop("moves"), "actions[{move}].moves"),
    ("tile slot 6", lambda d: _move(d).update(pay={"tiles": [6]}), "actions[{move}].pay.tiles[0]"),
    (
        "negative tokens",
        lambda d: _den(d).update(pay={"bonus_terrain": -1}),
        "actions[{den}].pay.bonus_terrain",
    ),
    ("den without track", lambda d: _den(d).pop("track"), "actions[{den}].track"),
    ("unknown track", lambda d: _den(d).update(track="teeth"), "actions[{den}].track"),
    ("no actions", lambda d: d.pop("actions"), "actions"),
    ("no setup", lambda d: d.pop("setup"), "setup"),
    (
        "tiles and map",
        _set("setup.map", {"hexes": [{"hex": [0, 0], "terrain": "forest"}]}),
        "setup.tiles",
    ),
    (
        "tile twice",
        lambda d: d["setup"]["tiles"][2].update(tile=d["setup"]["tiles"][1]["tile"]),
        "setup.tiles[2].tile",
    ),
    ("tile eleven", _set("setup.tiles.3.tile", 11), "setup.tiles[3].tile"),
    ("tile named", _set("setup.tiles.3.tile", "three"), "setup.tiles[3].tile"),
    (
        "overlapping tiles",
        lambda d: d["setup"]["tiles"][4].update(center=d["setup"]["tiles"][1]["center"]),
        "setup.tiles[4].center",
    ),
    ("rotated yes", _set("setup.tiles.1.rotated", "yes"), "setup.tiles[1].rotated"),
    (
        "unknown prey",
        _set("setup.tiles.2.prey", {"type": "rabbit", "count": 2}),
        "setup.tiles[2].prey.type",
    ),
    ("scoring token", _set("setup.tiles.2.scoring", ["new"]), "setup.tiles[2].scoring[0]"),
    ("option type", _set("setup.options.auto_push", 1), "setup.options.auto_push"),
    ("terrain tiles", _set("setup.terrain_tiles", [["forest", "desert"]]), "setup.terrain_tiles"),
    ("start and setup", _set("start", {}), "setup"),
]


@pytest.mark.parametrize(("change", "path"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_invalid_record_names_the_path(
    game3: Game, change: Callable[[Doc], Any], path: str
) -> None:
    doc = copy.deepcopy(record_to_json(game3.record))
    indices = {"move": _first(doc, "move"), "den": _first(doc, "den")}
    change(doc)
    with pytest.raises(InvalidRecord) as caught:
        read_record(json.dumps(doc).encode())
    assert caught.value.path == path.format(**indices), caught.value.message
    error = caught.value.to_json()
    assert error == {"error": "invalid_record", "path": error["path"], "message": error["message"]}
    assert error["message"]


@pytest.mark.parametrize(
    "data", [b"{", b"[1, 2]", b"\xff\xfe{", b'{"version": NaN}', b"", '{"a": 1,}']
)
def test_malformed_json_is_an_invalid_record_at_the_root(data: bytes | str) -> None:
    with pytest.raises(InvalidRecord) as caught:
        read_record(data)
    assert caught.value.path == ""


def test_custom_map_errors() -> None:
    record = Record(players=random_game(2, 0, 1).record.players, setup=generate_setup(2, 5))
    doc = record_to_json(record)
    base = {"hexes": [{"hex": [0, 0], "terrain": "forest", "region": 1},
                      {"hex": [1, 0], "terrain": "water", "region": 1}],
            "regions": [{"id": 1, "scoring": ["full"]}]}  # fmt: skip
    doc["setup"].pop("tiles")
    cases = [
        (lambda m: m["hexes"][1].update(marker="prey"), "setup.map.hexes[1].marker"),
        (lambda m: m["hexes"][1].update(region=2), "setup.map.hexes[1].region"),
        (lambda m: m["hexes"][1].update(hex=[0, 0]), "setup.map.hexes[1].hex"),
        (lambda m: m["hexes"][1].update(terrain="lava"), "setup.map.hexes[1].terrain"),
        (lambda m: m["regions"].append({"id": 1}), "setup.map.regions[1].id"),
        (lambda m: m.update(hexes=[]), "setup.map.hexes"),
    ]
    doc["setup"]["map"] = base
    setup = read_record(doc).setup
    assert setup is not None and setup.custom_map is not None
    for change, path in cases:
        bad = copy.deepcopy(doc)
        change(bad["setup"]["map"])
        with pytest.raises(InvalidRecord) as caught:
            read_record(bad)
        assert caught.value.path == path
