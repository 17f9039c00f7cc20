"""What-if branches: compared with the original game, and stored as streams of their own."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator

import pytest

from domain.store import GameLibrary, StoreConfig, UnknownGame
from domain.store.branches import (
    Branch,
    branch_events,
    branch_info,
    branch_state_at,
    save_branch,
    stored_branch_record,
)
from domain.wolves.actions import Action, Pass
from domain.wolves.analysis.whatif import branch_record, what_if
from domain.wolves.players import HeuristicBot
from domain.wolves.positions import to_position
from domain.wolves.records import write_record
from domain.wolves.replay import RecordError, replay
from domain.wolves.rules import play
from domain.wolves.state import State
from tests.analysis.conftest import fixture_record

GAME, STEP = "3p-00-heuristic", 30


def continuation(state: State, count: int, seed: int = 5) -> list[Action]:
    """``count`` actions ``HeuristicBot`` plays from ``state`` (other than the game's own)."""
    bot, actions = HeuristicBot(seed), []
    for _ in range(count):
        action = bot.choose(state)
        actions.append(action)
        state, _ = play(state, action)
    return actions


@pytest.fixture
def library(store_url: str) -> Iterator[GameLibrary]:
    """An empty game library of its own on each backend."""
    if store_url.startswith("postgresql"):
        config = StoreConfig(store_url, schema=f"b_{uuid.uuid4().hex[:12]}")
    else:
        config = StoreConfig(store_url)
    with GameLibrary.open(config) as lib:
        yield lib


def test_a_branch_replays_and_never_touches_its_parents_stream(library):
    parent = library.upload(write_record(fixture_record(GAME))).game_id
    parent_events = library.recorder.select_events(parent)
    last_before = library.recorder.max_notification_id()
    actions = continuation(library.state_at(parent, STEP), 6)

    branch_id = save_branch(library, parent, STEP, actions)

    assert library.recorder.select_events(parent) == parent_events
    stored = library.recorder.select_events(branch_id)
    assert all(e.originator_id == branch_id for e in stored)
    new = library.recorder.select_notifications(last_before + 1, 10_000)
    assert {n.originator_id for n in new} == {branch_id} and len(new) == len(stored)
    info = branch_info(library, branch_id)
    assert (info.parent_id, info.step, info.actions) == (parent, STEP, tuple(actions))
    record = stored_branch_record(library, branch_id)
    played = replay(record)
    events = branch_events(library, branch_id)
    assert [e.event for e in events] == [e for step in played.steps[STEP:] for e in step]
    assert {e.step for e in events} == set(range(STEP, STEP + len(actions)))
    for step in (0, STEP, STEP + 2, None):
        expected = played.state if step is None else played.state_at(step)
        assert to_position(branch_state_at(library, branch_id, step)) == to_position(expected)
    assert to_position(library.state_at(parent)) == to_position(replay(fixture_record(GAME)).state)


def test_saving_a_branch_twice_stores_it_once_and_bad_branches_store_nothing(library):
    parent = library.upload(write_record(fixture_record(GAME))).game_id
    actions = continuation(library.state_at(parent, STEP), 3)
    first = save_branch(library, parent, STEP, actions)
    last = library.recorder.max_notification_id()
    assert save_branch(library, parent, STEP, actions) == first
    assert save_branch(library, parent, STEP, actions[:2]) != first
    after = library.recorder.max_notification_id()
    with pytest.raises(RecordError):
        save_branch(library, parent, STEP, [Pass((actions[0].player + 1) % 3)])
    with pytest.raises(UnknownGame):
        save_branch(library, uuid.uuid4(), STEP, actions)
    with pytest.raises(ValueError):
        save_branch(library, parent, 10_000, actions)
    assert library.recorder.max_notification_id() == after > last
    with pytest.raises(UnknownGame):
        branch_info(library, parent)  # a game is no branch
    assert isinstance(library.repository.get(first), Branch)
    for read in (library.info, library.record, library.state_at, library.game_events):
        with pytest.raises(UnknownGame):
            read(first)  # and a branch no game


def test_what_if_compares_the_branch_with_the_original():
    record = fixture_record(GAME)
    state = replay(record, at=STEP).state
    result = what_if(record, STEP, [Pass(state.player)])
    assert result.original.finished and not result.branch.finished
    assert result.branch.actions == STEP + 1
    assert result.original.evaluation.win == tuple(
        1.0 if s.place == 1 else 0.0 for s in result.original.scores
    )
    assert sum(result.branch.evaluation.win) == pytest.approx(1)
    doc = result.to_json()
    assert doc["actions"] == [{"type": "pass", "player": state.player}]
    assert len(doc["win_change"]) == 3

    finished = what_if(record, STEP, [Pass(state.player)], finish_with="heuristic", seed=3)
    assert finished.branch.finished and finished.branch.actions > STEP + 1


def test_branch_record_keeps_the_first_actions():
    record = fixture_record(GAME)
    branched = branch_record(record, 4, [])
    assert branched.actions == record.actions[:4]
    assert dataclasses.replace(branched, actions=record.actions) == record
    with pytest.raises(ValueError):
        branch_record(record, -1, [])
