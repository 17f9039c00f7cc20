"""The store works through the ruleset: a game it has never heard of (take-away, registered
by the test only) is validated, stored, folded, paged and branched on SQLite and PostgreSQL;
a game no ruleset plays is refused at path ``game`` with nothing stored."""

from __future__ import annotations

import json

import pytest

from domain.games import UnknownGame
from domain.replays import RecordError
from domain.ruleset import InvalidRecord, Ruleset
from domain.store import GameLibrary, game_id_for, record_digest
from domain.store.branches import (
    branch_events,
    branch_info,
    branch_state_at,
    save_branch,
    stored_branch_record,
)
from domain.store.migrate import UNCHANGED, recheck_all
from tests.store.conftest import record_bytes, stored_count
from tests.takeaway import Take, record_json


def test_a_game_of_another_ruleset_is_stored_and_replayed(
    library: GameLibrary, takeaway: Ruleset
) -> None:
    doc = record_json(stones=10, takes=(3, 3, 3, 1), meta={"title": "Ten stones"})
    result = library.upload(json.dumps(doc, indent=2))
    canonical = takeaway.write_record(takeaway.read_record(doc))

    assert result.created and result.game_id == game_id_for(record_digest(canonical))
    assert library.record(result.game_id) == canonical
    info = library.info(result.game_id)
    assert (info.game, info.rules_version, info.title) == ("takeaway", "takeaway-1", "Ten stones")
    assert (info.actions, info.events, info.finished) == (4, 5, True)  # T-3: GameWon at the end
    assert library.rules(result.game_id) is takeaway
    events = [e.to_json() for e in library.game_events(result.game_id)]
    assert events[0] == {"seq": 0, "step": 0, "type": "StonesTaken", "player": 0, "stones": 3,
                         "left": 7}  # fmt: skip
    assert events[-1] == {"seq": 4, "step": 3, "type": "GameWon", "player": 1}
    piles = [library.position_at(result.game_id, step)["pile"] for step in range(5)]
    assert piles == [10, 7, 4, 1, 0]
    first_two = [e.event for e in library.game_events(result.game_id, 0, 2)]
    start = takeaway.start(takeaway.read_record(doc))
    assert library.state_at(result.game_id, 2) == takeaway.fold(start, first_two)
    assert library.upload(canonical).created is False
    assert {r.change for r in recheck_all(library, every=True)} == {UNCHANGED}


def test_a_running_game_of_another_ruleset_is_not_finished(
    library: GameLibrary, takeaway: Ruleset
) -> None:
    game_id = library.upload(json.dumps(record_json(stones=10, takes=(3, 3)))).game_id
    info = library.info(game_id)
    assert (info.finished, library.steps(game_id)) == (False, 2)
    assert library.position_at(game_id)["turn"] == {"player": 0}


def test_an_illegal_take_stores_nothing(library: GameLibrary, takeaway: Ruleset) -> None:
    with pytest.raises(RecordError) as caught:
        library.upload(json.dumps(record_json(stones=5, takes=(3, 3))))  # T-2: 2 stones left
    assert caught.value.to_json() == {
        "error": "illegal_action", "index": 1, "action": {"type": "take", "player": 1, "stones": 3},
        "rule": "T-2", "message": "cannot take 3 of 2 stones",
    }  # fmt: skip
    with pytest.raises(InvalidRecord) as invalid:
        library.upload(json.dumps(record_json(takes=(4,))))
    assert (invalid.value.path, invalid.value.message) == (
        "actions[0].stones", "must be 1 to 3, not 4",
    )  # fmt: skip
    assert stored_count(library) == 0


def test_a_game_no_ruleset_plays_is_refused_at_its_path(library: GameLibrary) -> None:
    doc = json.loads(record_bytes(2, seed=120))
    for game in ("the-sheep", 7, None):
        doc["game"] = game
        with pytest.raises(UnknownGame) as caught:
            library.upload(json.dumps(doc))
        assert caught.value.path == "game"
        assert caught.value.message.startswith(f"no game {game!r}: known games are ")
    with pytest.raises(InvalidRecord) as refused:
        library.upload(json.dumps(record_json(takes=(1,))))  # take-away is not registered here
    assert refused.value.path == "game"
    assert stored_count(library) == 0


def test_a_branch_of_a_game_of_another_ruleset(library: GameLibrary, takeaway: Ruleset) -> None:
    parent = library.upload(json.dumps(record_json(stones=10, takes=(3, 3, 3, 1)))).game_id
    branch_id = save_branch(library, parent, 2, [Take(0, 1), Take(1, 3)])

    info = branch_info(library, branch_id)
    assert (info.parent_id, info.game, info.step) == (parent, "takeaway", 2)
    assert info.actions == (Take(0, 1), Take(1, 3))
    kinds = [e.to_json()["type"] for e in branch_events(library, branch_id)]
    assert kinds == ["StonesTaken", "StonesTaken", "GameWon"]
    assert [branch_state_at(library, branch_id, s).pile for s in (0, 2, 3, 4)] == [10, 4, 3, 0]
    assert branch_state_at(library, branch_id).winner == 1
    assert [t.stones for t in stored_branch_record(library, branch_id).actions] == [3, 3, 1, 3]
    with pytest.raises(RecordError) as caught:
        save_branch(library, parent, 2, [Take(0, 1), Take(1, 3), Take(0, 1)])  # T-3: over
    assert (caught.value.index, caught.value.rule) == (4, "T-3")
