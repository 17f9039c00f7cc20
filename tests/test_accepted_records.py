"""Property: any record the reader accepts (and the engine then plays through) can be stored,
projected, listed and replayed step by step without an exception, on SQLite and PostgreSQL.

Records are fixture records (and one that starts from a position) with a few values
swapped for edge values: numbers at and beyond the limits, odd text, wrong types, list
entries dropped or repeated, the actions cut short.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domain.replays import RecordError
from domain.ruleset import InvalidRecord
from domain.store import GameLibrary, StoreConfig
from domain.store.uploads import prepare_record
from projections.readmodels import ReadModels
from tests.games import started_record

FIXTURES = Path(__file__).parent / "fixtures" / "the-wolves"
BASES = ("2p-00-heuristic", "2p-07-random-terrain", "3p-00-heuristic", "5p-00-heuristic", "start")
INTS = (0, 1, -1, 2, 3, 4, 5, 10, 16, 17, 30, 128, 255, 999, 1000, 1001, 1024, 2**31 - 1,
        2**31, 2**63 - 1, 2**63, 10**20, -(2**63))  # fmt: skip
TEXTS = ("", "\x00", "a\x00b", "\ud800", "x" * 64, "x" * 65, "é" * 64, "Ana", "#ff0000", "full",
         "forest", "start", "lone_wolf", "\u202eevil", "x" * 1000, "x" * 1001)  # fmt: skip
ODD: tuple[Any, ...] = (None, 1.5, 1e308, [], {}, [0, 0], [1000, -1000], [2**70, 0], "7", True)


@cache
def _base(name: str) -> str:
    if name != "start":
        return (FIXTURES / f"{name}.json").read_text()
    return started_record()


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into ``doc`` (keys and list indexes), outside the action list's entries."""
    entries = doc.items() if isinstance(doc, dict) else enumerate(doc)
    for key, value in entries:
        here = (*prefix, key)
        yield here
        if isinstance(value, dict | list) and here != ("actions",):
            yield from paths(value, here)


def edge(draw: st.DrawFn, value: Any) -> Any:
    """A value to put where ``value`` was: mostly of its own type, at or past a limit."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from(ODD))
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return draw(st.sampled_from(INTS))
    if isinstance(value, str):
        return draw(st.sampled_from(TEXTS))
    return draw(st.sampled_from(ODD))


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A base record with its actions cut short and one or two values changed."""
    doc = json.loads(_base(draw(st.sampled_from(BASES))))
    doc["actions"] = doc["actions"][: draw(st.integers(0, len(doc["actions"])))]
    for _ in range(draw(st.integers(1, 2))):
        where = draw(st.sampled_from(list(paths(doc))))
        parent = doc
        for key in where[:-1]:
            parent = parent[key]
        key, how = where[-1], draw(st.sampled_from(["edge", "edge", "edge", "drop", "repeat"]))
        if how == "drop":
            del parent[key]
        elif how == "repeat" and isinstance(parent, list):
            parent.insert(key, parent[key])
        else:
            parent[key] = edge(draw, parent[key])
    return doc


@pytest.fixture
def store(store_url: str) -> Iterator[tuple[GameLibrary, ReadModels]]:
    """An empty library and its read models on the test's backend (a schema of its own)."""
    schema = f"t_{uuid.uuid4().hex[:12]}" if store_url.startswith("postgresql") else "public"
    with (
        GameLibrary.open(StoreConfig(store_url, schema=schema)) as library,
        ReadModels(store_url, schema) as models,
    ):
        yield library, models


@settings(
    max_examples=100, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
@given(doc=mutated())
def test_an_accepted_record_is_stored_projected_listed_and_replayed(
    store: tuple[GameLibrary, ReadModels], doc: Any
) -> None:
    library, models = store
    try:
        game = prepare_record(json.dumps(doc).encode())
    except (InvalidRecord, RecordError) as err:
        event(f"refused: {type(err).__name__}")
        return
    event("stored")
    game_id = library.add(game).game_id
    models.catch_up(library)
    summary = models.summary(game_id)
    assert summary is not None, f"game {game_id} was not projected"
    listed = models.list_games(limit=100, include_private=True)
    assert str(game_id) in {str(g["game_id"]) for g in listed.items}
    assert models.timeline(game_id) is not None
    for step in range(library.steps(game_id) + 1):
        library.position_at(game_id, step)
