"""The fast action reader agrees with the action schemas: it never accepts what they reject,
and what it reads equals what they read."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from domain.wolves.records import SLOTS, ActionField, InvalidRecord, quick_action, read_record

FIXTURES = Path(__file__).parents[1] / "fixtures" / "the-wolves"
RECORDS = sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".expected.json"))


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
    """One action object of each shape the fixture games hold (type and keys), and the
    ones that use every optional field."""
    shapes: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in RECORDS:
        for doc in json.loads(path.read_text())["actions"]:
            moves = doc.get("moves", [])
            key = (doc["type"], *sorted(doc), *(k for m in moves for k in sorted(m)))
            shapes.setdefault(key, doc)
    return [*shapes.values(), *EVERY_FIELD]


def schema_read(doc: Any) -> Any:
    """What the schemas make of ``doc``: an action, or the ValidationError class."""
    try:
        return ActionField().deserialize(doc)
    except ValidationError:
        return ValidationError


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
        items = doc.items() if isinstance(doc, dict) else enumerate(doc)
    else:
        items = iter(())
    for key, value in items:
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
    for doc in recorded_actions():
        for where in paths(doc):
            out.append(changed(doc, where, "remove") if where else None)
            out.append(changed(doc, where, "extra", 1))
            out += [changed(doc, where, "replace", value) for value in EDGE_VALUES]
    return out


def test_quick_reader_agrees_with_the_schemas_on_every_edge() -> None:
    accepted = 0
    for doc in variants():
        action = quick_action(doc)
        if action is not None:
            accepted += 1
            assert schema_read(doc) == action, doc
        else:
            assert schema_read(doc) is ValidationError or not isinstance(doc, dict), doc
    assert accepted > 100


@st.composite
def mutated_actions(draw: st.DrawFn) -> Any:
    """A recorded action with one place replaced, removed or given an extra key."""
    doc = draw(st.sampled_from(recorded_actions()))
    how = draw(st.sampled_from(["replace", "remove", "extra"]))
    return changed(doc, draw(st.sampled_from(paths(doc))), how, draw(json_values))


def test_every_recorded_action_is_read_quickly_and_equally() -> None:
    assert len(recorded_actions()) >= 8
    for doc in recorded_actions():
        action = quick_action(doc)
        assert action is not None, doc
        assert action == schema_read(doc)


@settings(max_examples=300, deadline=None)
@given(mutated_actions())
def test_quick_reader_agrees_with_the_schemas(doc: Any) -> None:
    action = quick_action(doc)
    if action is not None:
        assert schema_read(doc) == action


def test_an_unusual_action_still_gets_the_schema_message() -> None:
    record = json.loads(RECORDS[0].read_text())
    record["actions"][3]["hex"] = [1.5, 2]
    with pytest.raises(InvalidRecord) as err:
        read_record(json.dumps(record))
    assert err.value.path.startswith("actions[3].hex")
