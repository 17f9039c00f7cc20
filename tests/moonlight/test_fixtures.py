"""Replay every Moonlight fixture game and hold the engine to its stored result.

A change in engine behaviour shows up here as a failing fixture. Regenerate the expected
files only on purpose, with ``scripts/make-fixtures moonlight``, and review the diff.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domain.games import of_document
from domain.moonlight import events as ev
from domain.moonlight.evolve import evolve
from domain.moonlight.records import read_record, write_record
from domain.moonlight.ruleset import MOONLIGHT, RULES_VERSION
from domain.moonlight.state import State
from domain.replays import replay
from tests.moonlight.invariants import check_state

CORPUS = Path(__file__).parent.parent / "fixtures" / "moonlight"
RECORDS = sorted(p for p in CORPUS.glob("*.json") if not p.name.endswith(".expected.json"))


def expected_of(path: Path) -> dict[str, Any]:
    return json.loads(path.with_suffix(".expected.json").read_text())


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_fixture_replays_to_its_stored_result(path: Path) -> None:
    data = path.read_bytes()
    assert of_document(json.loads(data)) is MOONLIGHT
    record = read_record(data)
    expected = expected_of(path)
    assert write_record(record) == data, "fixtures are stored as canonical JSON"
    assert record.rules_version == expected["rules"] == RULES_VERSION
    result = replay(MOONLIGHT, record)
    events = [e for step in result.steps for e in step]
    assert len(result.steps) == expected["actions"]
    assert len(events) == expected["events"]
    assert sum(isinstance(e, ev.RoundStarted) for e in events) == expected["rounds_played"]
    assert result.state.finished and expected["finished"]
    assert MOONLIGHT.score_json(result.state)["scores"] == expected["scores"]
    state: State = result.initial
    for step in result.steps:
        for event in step:
            state = evolve(state, event)
            check_state(state, settled=False)
        check_state(state)
    assert state == result.state
    assert [type(e) for e in events].count(ev.GameEnded) == 1 and isinstance(
        events[-1], ev.GameEnded
    )


def test_the_corpus_covers_draws_counts_named_starters_replays_and_last_cards() -> None:
    assert len(RECORDS) >= 30
    assert all(p.with_suffix(".expected.json").exists() for p in RECORDS)
    records = [read_record(p.read_bytes()) for p in RECORDS]
    shown: Counter[str] = Counter()
    for record in records:
        assert record.setup is not None
        shown["draws" if record.setup.draws is not None else "counts"] += 1
        shown["other moons"] += record.setup.deck[0].moons != 0
        shown["round_start"] += any(a.type == "round_start" for a in record.actions)
        events = [e for step in replay(MOONLIGHT, record).steps for e in step]
        shown["replayed"] += any(isinstance(e, ev.RoundReplayed) for e in events)
        shown["last card"] += any(
            isinstance(e, ev.RoundEnded) and e.reason == "last_card" for e in events
        )
        shown["three rounds"] += sum(isinstance(e, ev.RoundWon) for e in events) == 3
    for kind in ("draws", "counts", "other moons", "round_start", "replayed", "last card"):
        assert shown[kind] >= 2, (kind, shown)
    assert shown["three rounds"] >= 5, shown
