"""Replaying records: the first illegal action rejects the record, summaries of a game."""

from __future__ import annotations

import dataclasses

import pytest

from domain.wolves.actions import Action, Draft, Howl, Pass
from domain.wolves.records import action_to_json
from domain.wolves.replay import RecordError, describe, replay
from tests.games import Game, random_game


def _with(game: Game, index: int, action: Action) -> RecordError:
    actions = list(game.record.actions)
    actions[index : index + 1] = [action]
    with pytest.raises(RecordError) as caught:
        replay(dataclasses.replace(game.record, actions=tuple(actions)))
    return caught.value


def test_illegal_action_names_index_rule_and_action(game3: Game) -> None:
    index = next(
        i for i, s in enumerate(game3.states) if not s.drafting and not s.out_of_actions and i > 20
    )
    state = game3.states[index]
    empty = next(h for h in sorted(state.table.map.land_neighbours) if h not in state.lone_wolves)
    howl = Howl(state.player, empty)
    error = _with(game3, index, howl)
    assert (error.index, error.rule) == (index, "W-6.4")
    assert error.to_json() == {
        "error": "illegal_action",
        "index": index,
        "action": {"type": "howl", "player": state.player, "hex": list(empty)},
        "rule": "W-6.4",
        "message": f"no lone wolf on [{empty[0]}, {empty[1]}]",
    }


def test_wrong_seat_and_draft_rules(game3: Game) -> None:
    index = 30
    other = (game3.states[index].player + 1) % 3
    error = _with(game3, index, Pass(other))
    assert (error.index, error.rule, error.action) == (index, "W-6", action_to_json(Pass(other)))
    assert _with(game3, 10, Draft(game3.states[10].player, (8, 8))).rule == "W-4.1"
    assert _with(game3, 2, Pass(game3.states[2].player)).rule == "W-4.1"


def test_no_action_after_the_end(game3: Game) -> None:
    assert game3.final.finished
    end = len(game3.record.actions)
    error = _with(game3, end, Pass(game3.final.player))
    assert (error.index, error.rule) == (end, "W-7")


def test_replay_at(game3: Game) -> None:
    assert replay(game3.record, at=0).state == game3.states[0] == replay(game3.record).initial
    assert len(replay(game3.record, at=12).steps) == 12
    with pytest.raises(ValueError):
        replay(game3.record, at=len(game3.record.actions) + 1)


def test_describe(game3: Game) -> None:
    summary = describe(game3.record)
    assert summary.finished and summary.actions == len(game3.record.actions)
    best = max(s.total for s in summary.scores)
    winners = [game3.record.players[s.seat].name for s in summary.scores if s.total == best]
    assert summary.leaders == winners
    assert str(summary) == (
        f"3 players, {summary.actions} actions, finished, "
        f"winner{'s' if len(winners) > 1 else ''} {', '.join(winners)} ({best})"
    )
    early = describe(dataclasses.replace(game3.record, actions=game3.record.actions[:3]))
    assert str(early) == "3 players, 3 actions, in progress, leaders P0, P1, P2 (0)"


def test_unfinished_game_summary() -> None:
    game = random_game(4, seed=2, max_actions=60)
    assert not describe(game.record).finished
    assert "in progress, leader" in str(describe(game.record))
