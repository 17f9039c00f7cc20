"""What-if branches: play other actions from step *n* of a game and compare with the original.

A branch keeps the game's first ``step`` actions and continues with its own list. The
comparison puts side by side each seat's score, expected final VP and win probability
at the end of the original game and at the end of the branch — exact for a finished
game, from the evaluator otherwise (``playouts`` > 0: the search evaluator).
``finish_with="heuristic"`` lets ``HeuristicBot`` play the branch to its end (seeded), so
both sides are real final scores.

>>> from domain.wolves.actions import Pass
>>> from domain.wolves.players import seats, self_play
>>> from domain.wolves.setup import generate_setup
>>> game = self_play(seats(2, 3), generate_setup(2, 3), "heuristic", 3)
>>> record = Record(players=game.players, setup=game.setup, actions=game.actions)
>>> result = what_if(record, 10, [Pass(game.actions[10].player)])
>>> result.step, result.original.finished, result.branch.finished
(10, True, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.wolves.actions import Action
from domain.wolves.analysis.evaluation import Evaluation, StaticEvaluator
from domain.wolves.analysis.playouts import search
from domain.wolves.events import FinalScore
from domain.wolves.players import MAX_ACTIONS, HeuristicBot
from domain.wolves.records import Record, action_to_json
from domain.wolves.replay import replay
from domain.wolves.rules import play
from domain.wolves.scoring import final_scores
from domain.wolves.state import State


@dataclass(frozen=True)
class Outcome:
    """Where a line of play ends: actions, scores, and the evaluation of that position."""

    actions: int
    finished: bool
    scores: tuple[FinalScore, ...]
    evaluation: Evaluation

    def to_json(self) -> dict[str, Any]:
        """Actions, finished, scores and evaluation as JSON."""
        return {
            "actions": self.actions,
            "finished": self.finished,
            "scores": [dataclasses.asdict(s) for s in self.scores],
            **self.evaluation.to_json(),
        }


@dataclass(frozen=True)
class WhatIf:
    """A branch from ``step`` compared with the original game."""

    step: int
    actions: tuple[Action, ...]
    original: Outcome
    branch: Outcome

    def to_json(self) -> dict[str, Any]:
        """Step, branch actions, both outcomes and the win-probability change per seat."""
        return {
            "step": self.step,
            "actions": [action_to_json(a) for a in self.actions],
            "original": self.original.to_json(),
            "branch": self.branch.to_json(),
            "win_change": [
                round(b - a, 4)
                for a, b in zip(
                    self.original.evaluation.win, self.branch.evaluation.win, strict=True
                )
            ],
        }


def branch_record(record: Record, step: int, actions: Sequence[Action]) -> Record:
    """The record of the branch: the first ``step`` actions of ``record``, then ``actions``."""
    if not 0 <= step <= len(record.actions):
        raise ValueError(f"step must be 0 … {len(record.actions)}, got {step}")
    return dataclasses.replace(record, actions=(*record.actions[:step], *actions))


def finish(state: State, seed: int) -> tuple[State, int]:
    """Play ``state`` to its end with ``HeuristicBot`` in every seat; (state, actions played)."""
    bots = [HeuristicBot(seed * 31 + i) for i in range(len(state.boards))]
    played = 0
    while not state.finished and played < MAX_ACTIONS:
        state, _ = play(state, bots[state.player].choose(state))
        played += 1
    return state, played


def outcome(state: State, actions: int, playouts: int, seed: int) -> Outcome:
    """The :class:`Outcome` of a position reached after ``actions`` actions."""
    if playouts and not state.finished:
        evaluation = search(state, playouts, seed).evaluation
    else:
        evaluation = StaticEvaluator.load().evaluate(state)
    return Outcome(actions, state.finished, final_scores(state), evaluation)


def what_if(
    record: Record,
    step: int,
    actions: Sequence[Action],
    playouts: int = 0,
    seed: int = 0,
    finish_with: str | None = None,
) -> WhatIf:
    """Branch ``record`` at ``step`` with ``actions`` and compare the two ends.

    Raises ``RecordError`` when a branch action is illegal (its index counts from the
    start of the game).
    """
    original = replay(record).state
    branched = replay(branch_record(record, step, actions)).state
    played = step + len(actions)
    if finish_with == "heuristic":
        branched, more = finish(branched, seed)
        played += more
    elif finish_with is not None:
        raise ValueError(f"finish_with must be None or 'heuristic', not {finish_with!r}")
    return WhatIf(
        step,
        tuple(actions),
        outcome(original, len(record.actions), playouts, seed),
        outcome(branched, played, playouts, seed),
    )
