"""Every bound of the record and position readers, from both sides: the largest value the
rules allow reads, one more is ``invalid_record`` at its JSON path with a message naming
the limit; odd text, non-finite numbers and huge lists are refused before any work."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain.documents import MAX_META_KEYS, MAX_META_VALUE
from domain.wolves.actions import Draft
from domain.wolves.positions import (
    MAX_DATE,
    MAX_PIECES,
    MAX_REGION_POINTS,
    MAX_REGION_TOKENS,
)
from domain.wolves.records import (
    MAX_BONUS_TOKENS,
    MAX_COORD,
    MAX_MAP_HEXES,
    MAX_PATH,
    MAX_REGION_ID,
    MAX_SEED,
    MAX_STALL_LIMIT,
    MAX_TEXT,
    MAX_WOLF_STEPS,
    InvalidRecord,
    action_from_json,
    read_record,
    record_to_json,
)
from tests.games import started_record

FIXTURES = Path(__file__).parents[1] / "fixtures" / "the-wolves"
Doc = dict[str, Any]


def fixture(name: str) -> Doc:
    """A fixture record as a fresh JSON document."""
    return json.loads((FIXTURES / f"{name}.json").read_text())


def started() -> Doc:
    """A record starting from the position after 40 actions of a three-player game."""
    return json.loads(started_record())


def invalid(doc: Any) -> InvalidRecord:
    """The reader's error for ``doc`` (it must be refused)."""
    with pytest.raises(InvalidRecord) as info:
        read_record(doc if isinstance(doc, bytes | str) else json.dumps(doc))
    return info.value


def setter(path: str, value: Any) -> Callable[[Doc], None]:
    """Set the value at a dotted ``path`` (list indexes as numbers)."""

    def apply(doc: Doc) -> None:
        *parents, last = [int(k) if k.lstrip("-").isdigit() else k for k in path.split(".")]
        node: Any = doc
        for key in parents:
            node = node[key]
        node[last] = value

    return apply


TILES, MAP, START = "3p-00-heuristic", "2p-07-random-terrain", "start"
# (base record, dotted path, largest allowed, one too many, JSON path, words of the message)
NUMBERS = [
    (TILES, "setup.seed", MAX_SEED, MAX_SEED + 1, "setup.seed", "0 to 9223372036854775807"),
    (TILES, "setup.seed", 0, -1, "setup.seed", "0 to"),
    (TILES, "setup.options.stall_limit_rounds", MAX_STALL_LIMIT, MAX_STALL_LIMIT + 1,
     "setup.options.stall_limit_rounds", "1 to 1000"),
    (TILES, "setup.options.stall_limit_rounds", MAX_STALL_LIMIT, 2**31,
     "setup.options.stall_limit_rounds", "1 to 1000"),
    (TILES, "setup.options.stall_limit_rounds", MAX_STALL_LIMIT, 2**63,
     "setup.options.stall_limit_rounds", "1 to 1000"),
    (TILES, "setup.tiles.1.tile", 10, 11, "setup.tiles[1].tile", "1 to 10"),
    (MAP, "setup.map.hexes.0.hex", [MAX_COORD, -MAX_COORD], [MAX_COORD + 1, 0],
     "setup.map.hexes[0].hex", "from -1000 to 1000"),
    (MAP, "setup.map.hexes.0.hex", [-MAX_COORD, MAX_COORD], [0, 2**70],
     "setup.map.hexes[0].hex", "from -1000 to 1000"),
    (TILES, "actions.12.pay", {"bonus_terrain": MAX_BONUS_TOKENS},
     {"bonus_terrain": MAX_BONUS_TOKENS + 1}, "actions[12].pay.bonus_terrain", "0 to 16"),
    (TILES, "actions.12.player", 2, 5, "actions[12].player", "0 to 4"),
    (START, "start.boards.1.region_points", MAX_REGION_POINTS, MAX_REGION_POINTS + 1,
     "start.boards[1].region_points", "0 to 1024"),
    (START, "start.boards.1.region_points", MAX_REGION_POINTS, 10**20,
     "start.boards[1].region_points", "0 to 1024"),
    (START, "start.boards.1.region_tokens", MAX_REGION_TOKENS, MAX_REGION_TOKENS + 1,
     "start.boards[1].region_tokens", "0 to 128"),
    (START, "start.boards.1.region_tokens", MAX_REGION_TOKENS, 10**20,
     "start.boards[1].region_tokens", "0 to 128"),
    (START, "start.boards.0.bonus_terrain", MAX_BONUS_TOKENS, MAX_BONUS_TOKENS + 1,
     "start.boards[0].bonus_terrain", "0 to 16"),
    (START, "start.boards.2.bonus_action", MAX_BONUS_TOKENS, MAX_BONUS_TOKENS + 1,
     "start.boards[2].bonus_action", "0 to 16"),
    (START, "start.turn.stalled_rounds", MAX_STALL_LIMIT, MAX_STALL_LIMIT + 1,
     "start.turn.stalled_rounds", "0 to 1000"),
    (START, "start.turn.actions_left", 2 + MAX_BONUS_TOKENS, 3 + MAX_BONUS_TOKENS,
     "start.turn.actions_left", "0 to 18"),
    (START, "start.turn.round_start_date", MAX_DATE, MAX_DATE + 1, "start.turn.round_start_date",
     "0 to 255"),
]  # fmt: skip


def base(name: str) -> Doc:
    return started() if name == START else fixture(name)


@pytest.mark.parametrize(("name", "where", "most", "over", "path", "words"), NUMBERS)
def test_numbers_read_up_to_their_bound_and_no_further(
    name: str, where: str, most: Any, over: Any, path: str, words: str
) -> None:
    good = base(name)
    setter(where, most)(good)
    read_record(json.dumps(good))
    bad = base(name)
    setter(where, over)(bad)
    error = invalid(bad)
    assert (error.path, words in error.message) == (path, True), error


def test_custom_map_region_ids_are_bounded() -> None:
    doc = fixture(MAP)
    regions = doc["setup"]["map"]["regions"]
    regions += [{"id": MAX_REGION_ID}, {"id": -MAX_REGION_ID}]
    read_record(json.dumps(doc))
    regions[-1]["id"] = -MAX_REGION_ID - 1
    error = invalid(doc)
    assert (error.path, "-999 to 999" in error.message) == (
        f"setup.map.regions[{len(regions) - 1}].id", True
    )  # fmt: skip


def test_the_moonlight_date_is_bounded() -> None:
    doc = started()
    doc["start"].pop("moonlight_pieces")
    doc["start"]["moonlight"] = MAX_DATE
    read_record(json.dumps(doc))
    doc["start"]["moonlight"] = MAX_DATE + 1
    assert invalid(doc).path == "start.moonlight"


@pytest.mark.parametrize("field", ["name", "color"])
def test_names_and_colours_are_bounded_plain_text(field: str) -> None:
    doc = fixture(TILES)
    doc["players"][0][field] = "é" * MAX_TEXT
    assert getattr(read_record(json.dumps(doc)).players[0], field) == "é" * MAX_TEXT
    for value, words in [("é" * (MAX_TEXT + 1), "longer than 64"), ("A\x00na", "NUL"),
                         ("\ud800", "lone surrogate"), ("", "empty")]:  # fmt: skip
        doc["players"][0][field] = value
        error = invalid(doc)
        assert (error.path, words in error.message) == (f"players[0].{field}", True), error


def test_a_lone_surrogate_escaped_in_json_is_refused() -> None:
    text = json.dumps(fixture(TILES)).replace('"Ana"', '"A\\udc00na"', 1)
    assert invalid(text).path == "players[0].name"


def test_meta_is_bounded() -> None:
    doc = fixture(TILES)
    doc["meta"] = {f"k{i}": "x" * MAX_META_VALUE for i in range(MAX_META_KEYS)}
    assert len(read_record(json.dumps(doc)).meta) == MAX_META_KEYS
    doc["meta"]["one more"] = "x"
    assert (invalid(doc).path, "at most 32" in invalid(doc).message) == ("meta", True)
    doc["meta"] = {"title": "x" * (MAX_META_VALUE + 1)}
    assert invalid(doc).path == "meta.title"
    doc["meta"] = {"title": "Club\x00night"}
    assert invalid(doc).path == "meta.title"
    doc["meta"] = {"ti\x00tle": "x"}
    assert invalid(doc).path == "meta"


def test_rules_version_is_bounded_text() -> None:
    doc = fixture(TILES)
    doc["rules"] = "r" * MAX_TEXT
    read_record(json.dumps(doc))
    for value in ("r" * (MAX_TEXT + 1), "wolves\x00"):
        doc["rules"] = value
        assert invalid(doc).path == "rules"


@pytest.mark.parametrize("text", ["1e400", "-1e400", "NaN", "Infinity"])
def test_non_finite_numbers_are_refused(text: str) -> None:
    raw = json.dumps(fixture(TILES)).replace('"seed": ', f'"x": {text}, "seed": ', 1)
    error = invalid(raw)
    assert (error.path, error.message.startswith("malformed JSON")) == ("", True)


def test_deep_nesting_is_refused() -> None:
    error = invalid("[" * 100_000 + "]" * 100_000)
    assert error.message == "malformed JSON: nested too deeply"


def test_a_wrong_header_value_is_quoted_briefly() -> None:
    doc = fixture(TILES)
    doc["format"] = [[0] * 1000] * 1000
    assert invalid(doc).message == 'expected "howl.game", got a list'


HUGE = 100_000
LISTS = [
    (TILES, "players", "players", "at most 5 entries"),
    (TILES, "setup.tiles", "setup.tiles", "at most 11 entries"),
    (TILES, "setup.terrain_tiles", "setup.terrain_tiles", "at most 5 entries"),
    (TILES, "setup.tiles.1.scoring", "setup.tiles[1].scoring", "at most 2 entries"),
    (MAP, "setup.map.hexes", "setup.map.hexes", f"at most {MAX_MAP_HEXES} entries"),
    (MAP, "setup.map.regions", "setup.map.regions", "at most 64 entries"),
    (TILES, "actions.12.pay.tiles", "actions[12].pay.tiles", "at most 6 entries"),
    (TILES, "actions.12.moves", "actions[12].moves", f"at most {MAX_WOLF_STEPS} entries"),
    (START, "start.pieces", "start.pieces", f"at most {MAX_PIECES} entries"),
    (START, "start.boards", "start.boards", "at most 5 entries"),
    (START, "start.boards.0.flipped", "start.boards[0].flipped", "at most 6 entries"),
    (START, "start.boards.0.prey", "start.boards[0].prey", "at most 5 entries"),
    (START, "start.moonlight_pieces", "start.moonlight_pieces", "at most 255 entries"),
    (START, "start.players", "start.players", "at most 5 entries"),
]


@pytest.mark.parametrize(("name", "where", "path", "words"), LISTS)
def test_long_lists_are_refused_before_their_entries_are_read(
    name: str, where: str, path: str, words: str
) -> None:
    doc = base(name)
    if where == "actions.12.moves":
        doc["actions"][12] = {"type": "move", "player": 0, "moves": []}
    setter(where, [0] * HUGE)(doc)
    raw = json.dumps(doc)
    began = time.process_time()
    error = invalid(raw)
    assert (error.path, words in error.message) == (path, True), error
    assert time.process_time() - began < 0.5


def test_a_wolf_path_is_bounded() -> None:
    step = {"from": [0, 0], "to": [0, 1], "path": [[0, 0]] * MAX_PATH}
    action_from_json({"type": "move", "player": 0, "moves": [step]})
    step["path"] = [[0, 0]] * (MAX_PATH + 1)
    with pytest.raises(InvalidRecord) as info:
        action_from_json({"type": "move", "player": 0, "moves": [step]}, "actions[3]")
    assert info.value.path == "actions[3].moves[0].path"


def test_action_hexes_are_bounded_on_the_quick_path_and_the_schemas_alike() -> None:
    for doc in ({"type": "draft", "player": 0, "hex": [2**70, 0]},
                {"type": "draft", "player": 0, "hex": [0, MAX_COORD + 1], "x": {}}):  # fmt: skip
        with pytest.raises(InvalidRecord) as info:
            action_from_json(doc, "actions[0]")
        assert info.value.path == "actions[0].hex"
    drafted = action_from_json({"type": "draft", "player": 0, "hex": [MAX_COORD, 0]})
    assert isinstance(drafted, Draft) and drafted.hex == (MAX_COORD, 0)


@pytest.mark.parametrize("key", ["²", "١", "1" * 5000, "a\x00", "\ud800", ""])
def test_scoring_keys_are_short_ascii_numbers(key: str) -> None:
    doc = started()
    doc["start"]["scoring"][key] = []
    error = invalid(doc)
    assert (error.path, "region id" in error.message) == ("start.scoring", True), error


def test_a_read_record_keeps_its_bounded_values_through_a_round_trip() -> None:
    doc = copy.deepcopy(started())
    doc["start"]["boards"][1]["region_points"] = MAX_REGION_POINTS
    record = read_record(json.dumps(doc))
    assert record.start is not None and record.start.boards[1].region_points == MAX_REGION_POINTS
    assert read_record(json.dumps(record_to_json(record))) == record
