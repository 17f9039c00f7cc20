"""The review bot: a computer player that plays what the engine's deepest search thinks best.

At each decision it lists the mover's alternatives as ``HeuristicBot`` does (every legal
non-move action, moves next to prey and random ones, a few multi-wolf moves), ranks them
by that bot's evaluation, and plays out the best few to the end of the game with heuristic
bots in every seat (the deep review's playouts, ``rounds=0``; every alternative on the same
seeds). It plays the one whose finished games leave the mover the most: its mean
win share with a little for its VP margin (:func:`value`; ties: the better rank). This is
one step of policy improvement over the heuristic bot: it only departs from the bot's own
choice when the bot's own play, carried to the end, does better after another action. No
evaluator judges a position the game has not reached, so a stalled board is worth what
finishing it from there brings (the horizon of the review's cheaper playouts once made a
frozen board look good to a trailing seat).

``depth`` 1 … 4 sets how much it searches (:data:`STRENGTHS`): more alternatives played
out and more games each. The same seed and position give the same action.

>>> from domain.wolves.players import seats
>>> from domain.wolves.setup import generate_setup
>>> from domain.wolves.state import initial_state
>>> start = initial_state(seats(2, 4), generate_setup(2, 4))
>>> ReviewBot(7).choose(start) == ReviewBot(7).choose(start)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from domain.seat_bots import DEFAULT_DEPTH, DEPTHS
from domain.wolves.actions import Action
from domain.wolves.analysis.evaluation import Evaluation
from domain.wolves.analysis.playouts import (
    SearchResult,
    combine,
    playout_evaluations,
    playout_seed,
)
from domain.wolves.players import HeuristicBot, evaluate
from domain.wolves.rules import play
from domain.wolves.state import State


@dataclass(frozen=True)
class Strength:
    """How much the bot searches at one depth: candidates scored, playouts each."""

    candidates: int
    playouts: int


STRENGTHS: Final[dict[int, Strength]] = {
    1: Strength(candidates=3, playouts=2),
    2: Strength(candidates=3, playouts=4),
    3: Strength(candidates=4, playouts=8),
    4: Strength(candidates=6, playouts=16),
}
"""The search at each depth (:data:`~domain.seat_bots.DEPTHS`)."""
VP_WEIGHT: Final = 0.002
"""The win probability a point of expected VP margin is worth in a choice (:func:`value`)."""


class ReviewBot:
    """Plays the alternative whose games, finished by heuristic bots, go best for the mover."""

    def __init__(self, seed: int, depth: int = DEFAULT_DEPTH) -> None:
        if depth not in DEPTHS:
            raise ValueError(f"a review bot's depth is {DEPTHS.start} to {DEPTHS.stop - 1}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.strength = STRENGTHS[depth]
        self.prior = HeuristicBot(seed)

    def choose(self, state: State) -> Action:
        """The best action found for the seat to act."""
        seat = state.player
        ranked: dict[tuple[Any, ...], tuple[float, int, Action, State]] = {}
        for order, action in enumerate(self.prior.candidates(state)):
            after, events = play(state, action)
            key = tuple(events)
            if key not in ranked:  # two actions that cause the same events are one
                ranked[key] = (evaluate(after, seat), -order, action, after)
        top = sorted(ranked.values(), key=lambda r: (r[0], r[1]), reverse=True)
        top = top[: self.strength.candidates]
        if len(top) == 1:
            return top[0][2]
        step_seed = self.rng.randrange(2**31)
        seeds = [playout_seed(step_seed, i) for i in range(self.strength.playouts)]
        scored = [
            (value(combine(playout_evaluations(after, seeds, rounds=0)), seat), -rank, action)
            for rank, (_, _, action, after) in enumerate(top)
        ]
        return max(scored, key=lambda s: (s[0], s[1]))[2]


def value(found: Evaluation | SearchResult, seat: int) -> float:
    """What a position is worth to ``seat`` when choosing: its win probability plus
    :data:`VP_WEIGHT` for each point of its expected VP margin over the best other seat.
    A blend, not a tie-break: a margin 10 points better is worth 0.02 of win probability.
    So a seat whose win chance is gone (or certain) still plays for points. Measured with
    the bot's earlier search (one round of playouts, then the static evaluator): by win
    chance alone, and among equal chances by their order, it moved its wolves about for
    ever (``scripts/bench coaching``, 100 two-player duels: 11 at the action cap), and
    breaking only near ties (within 0.01) by the margin did worse than this blend (win
    share 0.42 against 0.49). It was not tuned again for the search to the game's end."""
    margin = found.vp[seat] - max(v for s, v in enumerate(found.vp) if s != seat)
    return found.win[seat] + VP_WEIGHT * margin
