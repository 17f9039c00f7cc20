"""Replay every fixture game of every game and hold its ruleset to the stored result (as
18xx.games does).

``tests/fixtures/<game>/`` holds one corpus per registered game (``<game>`` is the
ruleset's name): records, each beside its ``.expected.json`` (the rules version, the
actions and events counted, whether it finished, the ``howl score --json`` scores). Each
record is read and replayed through the registry; a game's own invariants are checked
after every event where :data:`INVARIANTS` has them. A change in engine behaviour shows up
here as a failing fixture. Regenerate the expected files only on purpose, with
``scripts/make-fixtures``, and review the diff.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain import games
from domain.replays import Replay, replay
from domain.wolves import events as ev
from domain.wolves.components import RULES_VERSION
from domain.wolves.evolve import apply
from domain.wolves.records import Record, read_record
from tests.invariants import check_boards, check_pieces, check_scores

FIXTURES = Path(__file__).parent / "fixtures"
NOT_A_GAME = {"stored"}
"""Folders of ``tests/fixtures/`` that are no game's corpus (``stored``: streams as older
versions of the store kept them)."""
CORPORA = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name not in NOT_A_GAME)
RECORDS = sorted(
    p for corpus in CORPORA for p in corpus.glob("*.json") if not p.name.endswith(".expected.json")
)


def expected_of(path: Path) -> dict[str, Any]:
    return json.loads(path.with_suffix(".expected.json").read_text())


def wolves_invariants(record: Record, result: Replay) -> None:
    """The Wolves: the record's rules, the scores, pieces and boards after every event (a push
    completes a move first), and one end of the game for a reason its options allow."""
    assert record.rules_version == RULES_VERSION
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


INVARIANTS: dict[str, Callable[[Any, Replay], None]] = {"the-wolves": wolves_invariants}
"""Each game's invariants, checked on every fixture of its corpus, by the game's name."""


def test_every_corpus_is_a_registered_game() -> None:
    assert "the-wolves" in [c.name for c in CORPORA]
    for corpus in CORPORA:
        assert games.ruleset(corpus.name).name == corpus.name
        assert all(p.with_suffix(".expected.json").exists() for p in RECORDS if p.parent == corpus)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_replays_to_its_stored_result(path: Path) -> None:
    data = path.read_bytes()
    rules, record = games.read_record(data)
    expected = expected_of(path)
    assert rules.name == path.parent.name, "a fixture lies in its game's corpus"
    assert rules.write_record(record) == data, "fixtures are stored as canonical JSON"
    assert expected["rules"] == rules.rules_version
    result = replay(rules, record)
    assert len(result.steps) == expected["actions"]
    assert sum(len(events) for events in result.steps) == expected["events"]
    assert rules.finished(result.state) == expected["finished"]
    assert rules.score_json(result.state)["scores"] == expected["scores"]
    INVARIANTS.get(rules.name, lambda record, result: None)(record, result)


def test_the_wolves_corpus_covers_every_player_count_and_the_digital_options() -> None:
    paths = [p for p in RECORDS if p.parent.name == "the-wolves"]
    records = [read_record(p.read_bytes()) for p in paths]
    assert Counter(len(r.players) for r in records) == {2: 10, 3: 10, 4: 10, 5: 10}
    assert all(expected_of(p)["finished"] for p in paths)
    options = [r.setup.options for r in records if r.setup is not None]
    assert sum(o.random_terrain for o in options) >= 4
    assert sum(o.lone_wolves_per_region == 3 for o in options) >= 3
    assert any(o.big_map for o in options) and any(o.auto_push for o in options)
