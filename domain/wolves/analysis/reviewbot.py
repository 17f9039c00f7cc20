"""The review bot: a computer player that plays what the review engine thinks best.

At each decision it lists the mover's alternatives as the review does
(:func:`~domain.wolves.analysis.review.candidates`: every legal non-move action, every
one-wolf Move and a few random multi-wolf Moves), ranks them with the static evaluator,
scores the best few with seeded playouts (the review's search,
:func:`~domain.wolves.analysis.playouts.playout_evaluations`) and plays the one whose
playouts leave the mover the highest mean win probability, its expected VP margin
breaking near ties (:func:`best_first`; then the better static rank).

``depth`` 1 … 4 sets how much it searches (:data:`STRENGTHS`): more candidates scored and
more playouts each. Depth 1 answers well under a second on one core (``scripts/bench
bots``: ``bot_move_p95_ms``). The same seed and position give the same action.

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
from typing import Any, Final, TypeVar

from domain.seat_bots import DEFAULT_DEPTH, DEPTHS
from domain.wolves.actions import Action
from domain.wolves.analysis.evaluation import Evaluation, StaticEvaluator
from domain.wolves.analysis.playouts import (
    SearchResult,
    combine,
    playout_evaluations,
    playout_seed,
)
from domain.wolves.analysis.review import candidates
from domain.wolves.rules import play
from domain.wolves.state import State


@dataclass(frozen=True)
class Strength:
    """How much the bot searches at one depth: candidates scored, playouts each."""

    candidates: int
    playouts: int


STRENGTHS: Final[dict[int, Strength]] = {
    1: Strength(candidates=2, playouts=3),
    2: Strength(candidates=3, playouts=6),
    3: Strength(candidates=4, playouts=10),
    4: Strength(candidates=6, playouts=16),
}
"""The search at each depth (:data:`~domain.seat_bots.DEPTHS`)."""
NEAR: Final = 0.01
"""Win probabilities this close to the best are a tie, broken by the expected VP margin."""


class ReviewBot:
    """Plays the alternative the review's search scores best for the mover."""

    def __init__(
        self, seed: int, depth: int = DEFAULT_DEPTH, evaluator: StaticEvaluator | None = None
    ) -> None:
        if depth not in DEPTHS:
            raise ValueError(f"a review bot's depth is {DEPTHS.start} to {DEPTHS.stop - 1}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.strength = STRENGTHS[depth]
        self.evaluator = evaluator or StaticEvaluator.load()

    def choose(self, state: State) -> Action:
        """The best action found for the seat to act."""
        seat, evaluator = state.player, self.evaluator
        ranked: dict[tuple[Any, ...], tuple[Worth, int, Action, State]] = {}
        for order, action in enumerate(candidates(state, self.rng)):
            after, events = play(state, action)
            key = tuple(events)
            if key not in ranked:  # two actions that cause the same events are one
                ranked[key] = (worth(evaluator.evaluate(after), seat), -order, action, after)
        top = best_first(list(ranked.values()))[: self.strength.candidates]
        if len(top) == 1:
            return top[0][2]
        step_seed = self.rng.randrange(2**31)
        seeds = [playout_seed(step_seed, i) for i in range(self.strength.playouts)]
        scored = [
            (worth(combine(playout_evaluations(after, seeds, 1, evaluator)), seat), -rank, action)
            for rank, (_, _, action, after) in enumerate(top)
        ]
        return best_first(scored)[0][2]


Worth = tuple[float, float]
"""What a position is worth to a seat: its win probability and its expected VP margin over
the best other seat."""
R = TypeVar("R", bound=tuple[Any, ...])


def worth(found: Evaluation | SearchResult, seat: int) -> Worth:
    """``seat``'s :data:`Worth` in an evaluation or a search's result."""
    return found.win[seat], found.vp[seat] - max(v for s, v in enumerate(found.vp) if s != seat)


def best_first(choices: list[R]) -> list[R]:
    """``choices`` (each a :data:`Worth`, then a tie-break such as the better static rank)
    best first: by win probability, but among those within :data:`NEAR` of the best by
    VP margin, so that a seat whose win chance is gone (or certain) still plays for
    points. One that chose among equal chances by their order moved its wolves about for
    ever (``scripts/bench coaching``: 11 of 100 two-player games ran to the action cap)."""
    best = max(c[0][0] for c in choices)

    def key(c: R) -> tuple[bool, float, Any]:
        near = c[0][0] >= best - NEAR
        return near, c[0][1] if near else c[0][0], c[1]

    return sorted(choices, key=key, reverse=True)
