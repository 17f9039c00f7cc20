"""Replay every fixture game and hold the engine to its stored result (as 18xx.games does).

A change in engine behaviour shows up here as a failing fixture. Regenerate the expected
files only on purpose, with ``scripts/make-fixtures``, and review the diff.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest

from domain.wolves import events as ev
from domain.wolves.components import RULES_VERSION
from domain.wolves.evolve import apply
from domain.wolves.records import read_record, write_record
from domain.wolves.replay import replay
from domain.wolves.scoring import final_scores
from tests.invariants import check_boards, check_pieces, check_scores

CORPUS = Path(__file__).parent / "fixtures" / "the-wolves"
RECORDS = sorted(p for p in CORPUS.glob("*.json") if not p.name.endswith(".expected.json"))


def expected_of(path: Path) -> dict:
    return json.loads(path.with_suffix(".expected.json").read_text())


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_fixture_replays_to_its_stored_result(path: Path) -> None:
    data = path.read_bytes()
    record = read_record(data)
    expected = expected_of(path)
    assert write_record(record) == data, "fixtures are stored as canonical JSON"
    assert record.rules_version == expected["rules"] == RULES_VERSION
    result = replay(record)
    assert len(result.steps) == expected["actions"]
    assert sum(len(events) for events in result.steps) == expected["events"]
    assert result.state.finished and expected["finished"]
    assert [dataclasses.asdict(s) for s in final_scores(result.state)] == expected["scores"]
    check_scores(result.state)
    state = result.initial.copy()
    for events in result.steps:
        for i, event in enumerate(events):
            apply(state, event)
            if not (i + 1 < len(events) and isinstance(events[i + 1], ev.WolfPushed)):
                check_pieces(state)
            check_boards(state)
    ended = [e for e in result.steps[-1] if isinstance(e, ev.GameEnded)]
    # W-12: a stall ends only games with a stall limit (set, or implied by the big map)
    reasons = {"full_moon", "stall"} if result.state.table.stall_limit else {"full_moon"}
    assert len(ended) == 1 and ended[0].reason in reasons


def test_corpus_covers_every_player_count_and_the_digital_options() -> None:
    records = [read_record(p.read_bytes()) for p in RECORDS]
    assert Counter(len(r.players) for r in records) == {2: 10, 3: 10, 4: 10, 5: 10}
    options = [r.setup.options for r in records if r.setup is not None]
    assert sum(o.random_terrain for o in options) >= 4
    assert sum(o.lone_wolves_per_region == 3 for o in options) >= 3
    assert any(o.big_map for o in options) and any(o.auto_push for o in options)
    assert all(p.with_suffix(".expected.json").exists() for p in RECORDS)
