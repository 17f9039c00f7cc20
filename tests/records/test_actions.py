"""The action reader (records.md "Actions"): an action it accepts reads back from its
written form as the same action; one it refuses is refused with the JSON path and the
message of its first problem, fields checked in the order the format lists them."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.wolves.records import SLOTS, InvalidRecord, action_from_json, action_to_json

FIXTURES = Path(__file__).parents[1] / "fixtures" / "the-wolves"
RECORDS = sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".expected.json"))
AT = "actions[3]"

EVERY_FIELD = [
    {"type": "move", "player": 1, "pay": {"tiles": [0, 5], "bonus_terrain": 1}, "moves": [
        {"from": [3, 4], "to": [5, 4], "wolf": "alpha", "path": [[4, 4]], "push_to": [6, 4]},
        {"from": [3, 5], "to": [4, 5], "wolf": None, "path": None, "push_to": None},
    ]},
    {"type": "lair", "player": 0, "hex": [2, 2], "push_to": [2, 3], "pay": None},
    {"type": "dominate", "player": 2, "hex": [2, 2], "piece": "den", "track": "speed"},
    {"type": "dominate", "player": 2, "hex": [2, 2], "piece": None, "track": None, "pay": {}},
    {"type": "den", "player": 0, "hex": [1, 1], "track": "howl", "pay": {"tiles": None}},
]  # fmt: skip
"""Action objects using every optional field (the fixture games leave some out)."""


@cache
def recorded_actions() -> list[dict[str, Any]]:
    """One action object of each shape the fixture games hold (type and keys)."""
    shapes: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in RECORDS:
        for doc in json.loads(path.read_text())["actions"]:
            moves = doc.get("moves", [])
            key = (doc["type"], *sorted(doc), *(k for m in moves for k in sorted(m)))
            shapes.setdefault(key, doc)
    return list(shapes.values())


EDGE_VALUES = [
    None, True, False, -1, 0, 1, SLOTS - 1, SLOTS, 1.0, "", "x", "alpha", "pack", "den",
    "speed", "howl", "move", [], {}, [1], [3, 4], [True, 1], [1, 2, 3], [[3, 4]], [3, "4"],
    {"tiles": [0]}, {"bonus_terrain": -1}, {"tiles": [SLOTS]},
]  # fmt: skip
json_values = st.sampled_from(EDGE_VALUES) | st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


def paths(doc: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value, as a tuple of keys and indexes."""
    found = [at]
    if isinstance(doc, dict | list):
        for key, value in doc.items() if isinstance(doc, dict) else enumerate(doc):
            found += paths(value, (*at, key))
    return found


def changed(doc: Any, where: tuple[Any, ...], how: str, value: Any = None) -> Any:
    """``doc`` with the place ``where`` replaced by ``value``, removed, or given an extra key."""
    doc = copy.deepcopy(doc)
    if not where:
        return value
    *parent_path, last = where
    parent = doc
    for key in parent_path:
        parent = parent[key]
    if how == "replace":
        parent[last] = value
    elif how == "remove":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last]["extra"] = value
    return doc


def variants() -> list[Any]:
    """Every recorded action with each place replaced by each edge value, or removed."""
    out = []
    for doc in [*recorded_actions(), *EVERY_FIELD]:
        for where in paths(doc):
            out.append(changed(doc, where, "remove") if where else None)
            out.append(changed(doc, where, "extra", 1))
            out += [changed(doc, where, "replace", value) for value in EDGE_VALUES]
    return out


def place(path: str) -> list[str | int]:
    """The keys and indexes of a JSON path below ``AT``: ``.moves[0].to`` → moves, 0, to."""
    assert path.startswith(AT), path
    rest, keys = path[len(AT) :], list[str | int]()
    while rest:
        if rest.startswith("["):
            index, rest = rest[1:].split("]", 1)
            keys.append(int(index))
        else:
            name = rest[1:].split(".")[0].split("[")[0]
            keys.append(name)
            rest = rest[1 + len(name) :]
    return keys


def check(doc: Any) -> str:
    """Read ``doc``: an accepted action reads back from its written form as itself; a refused
    one names a place of ``doc`` (or a key its parent object lacks) and a message."""
    try:
        action = action_from_json(doc, AT)
    except InvalidRecord as err:
        assert err.message, doc
        *parents, last = [None, *place(err.path)]
        value = doc
        for key in parents[1:]:
            value = value[key]
        if last is not None:
            assert isinstance(value, dict) or last in range(len(value)), (doc, err.path)
        return "refused"
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action, doc
    return "read"


def test_every_recorded_action_reads_back_as_written() -> None:
    assert len(recorded_actions()) >= 8
    for doc in recorded_actions():
        assert action_to_json(action_from_json(doc)) == doc
    for doc in EVERY_FIELD:
        assert check(doc) == "read"


def test_every_edge_variant_is_read_or_refused_at_its_place() -> None:
    outcomes = [check(doc) for doc in variants()]
    assert outcomes.count("read") > 100 and outcomes.count("refused") > 1000


@st.composite
def mutated_actions(draw: st.DrawFn) -> Any:
    """A recorded action with one place replaced, removed or given an extra key."""
    doc = draw(st.sampled_from([*recorded_actions(), *EVERY_FIELD]))
    how = draw(st.sampled_from(["replace", "remove", "extra"]))
    return changed(doc, draw(st.sampled_from(paths(doc))), how, draw(json_values))


@settings(max_examples=300, deadline=None)
@given(mutated_actions())
def test_any_mutated_action_is_read_or_refused_at_its_place(doc: Any) -> None:
    check(doc)


MOVE = {"type": "move", "player": 0, "moves": [{"from": [3, 4], "to": [5, 4]}]}
DEN = {"type": "den", "player": 0, "hex": [1, 1], "track": "howl"}
TYPES = "draft, bonus_action, move, den, lair, howl, dominate, pass"
# (action object, JSON path below AT, message)
REFUSED = [
    ("pass", "", "An action is a JSON object."),
    (None, "", "Field may not be null."),
    ({"player": 0}, ".type", "Missing data for required field."),
    ({**DEN, "type": "eat"}, ".type", f"unknown action type 'eat' ({TYPES})"),
    ({**DEN, "type": "e" * 40}, ".type", f"unknown action type '{'e' * 32}…' ({TYPES})"),
    ({**DEN, "type": ["den"] * 1000}, ".type", f"unknown action type a list ({TYPES})"),
    ({**DEN, "type": 7}, ".type", f"unknown action type 7 ({TYPES})"),
    ({**DEN, "player": None}, ".player", "Field may not be null."),
    ({"type": "den", "hex": [1, 1], "track": "howl"}, ".player",
     "Missing data for required field."),
    ({**DEN, "player": "1"}, ".player", "Not a valid integer."),
    ({**DEN, "player": True}, ".player", "Not a valid integer."),
    ({**DEN, "player": 5}, ".player", "must be an integer from 0 to 4"),
    ({**DEN, "hex": [1, 1, 1]}, ".hex", "A hex is [x, y]: a list of two integers."),
    ({**DEN, "hex": [1.0, 1]}, ".hex", "A hex is [x, y]: a list of two integers."),
    ({**DEN, "hex": [0, -1001]}, ".hex", "a hex coordinate is an integer from -1000 to 1000"),
    ({**DEN, "track": "teeth"}, ".track", "unknown track 'teeth' (one of spread, speed, howl)"),
    ({**DEN, "track": 3}, ".track", "Not a valid string."),
    ({**DEN, "pay": []}, ".pay", "Invalid input type."),
    ({**DEN, "pay": {"tiles": "0"}}, ".pay.tiles", "Not a valid list."),
    ({**DEN, "pay": {"tiles": [0] * 7}}, ".pay.tiles", "at most 6 entries, not 7"),
    ({**DEN, "pay": {"tiles": [0, 6]}}, ".pay.tiles[1]", "must be an integer from 0 to 5"),
    ({**DEN, "pay": {"tiles": [None]}}, ".pay.tiles[0]", "Field may not be null."),
    ({**DEN, "pay": {"bonus_terrain": 17}}, ".pay.bonus_terrain",
     "must be an integer from 0 to 16"),
    ({**MOVE, "moves": {}}, ".moves", "Not a valid list."),
    ({**MOVE, "moves": [None]}, ".moves[0]", "Field may not be null."),
    ({**MOVE, "moves": [{"from": [3, 4]}]}, ".moves[0].to", "Missing data for required field."),
    ({**MOVE, "moves": [{"from": [3, 4], "to": [5, 4], "wolf": "cub"}]}, ".moves[0].wolf",
     "unknown wolf 'cub' (one of alpha, pack)"),
    ({**MOVE, "moves": [{"from": [3, 4], "to": [5, 4], "path": [[0, 0]] * 33}]},
     ".moves[0].path", "at most 32 entries, not 33"),
    ({"type": "dominate", "player": 0, "hex": [1, 1], "piece": "lair"}, ".piece",
     "unknown piece 'lair' (one of pack, den)"),
    # fields are checked in the format's order: player, pay, then the action's own
    ({**DEN, "player": "x", "pay": [], "hex": None}, ".player", "Not a valid integer."),
    ({**DEN, "pay": [], "hex": None}, ".pay", "Invalid input type."),
    ({**MOVE, "pay": {"bonus_terrain": -1}, "moves": None}, ".pay.bonus_terrain",
     "must be an integer from 0 to 16"),
]  # fmt: skip


@pytest.mark.parametrize(("doc", "path", "message"), REFUSED)
def test_a_refused_action_names_its_first_problem(doc: Any, path: str, message: str) -> None:
    with pytest.raises(InvalidRecord) as caught:
        action_from_json(doc, AT)
    assert (caught.value.path, caught.value.message) == (AT + path, message)
