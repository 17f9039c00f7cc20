"""Games whose projection fails, stored through the library's own API (no mocked store).

The record reader refuses such records at upload, so these are saved as prepared games
whose stored record or events were changed after the engine checked them: what an older
reader, a bug or a hand-edited store could leave behind.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any
from uuid import UUID

from domain.store import GameLibrary, record_digest
from domain.store.uploads import canonical_record, prepare
from tests.projections.conftest import fixture_record

BASE = "2p-00-heuristic"


def _fold(doc: dict[str, Any], events: list[Any]) -> None:
    """The setup is gone: the start position cannot be read (fails while folding)."""
    doc["setup"] = {}


def _write(doc: dict[str, Any], events: list[Any]) -> None:
    """Region points beyond 64 bits: the game folds but its rows fit neither database."""
    doc["meta"] = {"title": "poison"}  # a record of its own, apart from the base game's
    scored = (s for _, kind, e in events if kind == "RegionScored" for s in e["standings"])
    next(s for s in scored if s["seat"] is not None and s["points"])["points"] = 2**63


POISONS = {"fold": _fold, "write": _write}


def store_poison(library: GameLibrary, stage: str, base: str = BASE, title: str = "") -> UUID:
    """Store ``base``'s game with its record poisoned so that projecting it fails at
    ``stage`` (``fold`` or ``write``); returns its id."""
    read = canonical_record(fixture_record(base))
    game = prepare(*read, uploaded_by="mallory", title=title or f"poison {stage}")
    doc = json.loads(game.record)
    events = copy.deepcopy(list(game.events))
    POISONS[stage](doc, events)
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    poisoned = replace(game, record=text, digest=record_digest(text.encode()), events=tuple(events))
    result = library.add(poisoned)
    assert result.created
    return result.game_id
