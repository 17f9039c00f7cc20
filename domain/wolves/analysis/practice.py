"""Practice from a reviewed game's mistakes: judge another action where the mover erred.

At a step the review flagged (a mistake or a blunder), the player enters an action of their
own. It is scored as the review scored the played action and its alternatives — the same
playouts with the same seeds (:func:`~domain.wolves.analysis.review.review_step`) and the
review's settings — and accepted when its win share is within the inaccuracy threshold
(``0.1 / N`` for ``N`` players, :data:`~domain.wolves.analysis.review.THRESHOLDS`) of the
best the review knows there: the best of the stored alternatives, the played action and the
entered one. An entered action that a stored alternative buys with a bonus action token
("spends a bonus action token, then …") is scored as that alternative, token first. The
flagged action itself lost at least the mistake threshold (``0.2 / N``), so it is never
accepted; the known best always is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.wolves.actions import Action
from domain.wolves.analysis.evaluation import StaticEvaluator
from domain.wolves.analysis.review import THRESHOLDS, Settings, _score, step_seeds
from domain.wolves.records import action_to_json
from domain.wolves.rules import play
from domain.wolves.state import State

WIN_DIGITS = 4
"""Win shares are compared as the review stores them (rounded to this many digits)."""


@dataclass(frozen=True)
class Known:
    """An action the review scored at the step: the played one or a stored alternative."""

    action: Action
    """The action a player enters for it: the one a bonus action token buys, in a line
    that spends one first."""
    label: str
    win: float
    """The mover's win share after it, as the review stored it."""
    line: tuple[Action, ...] = ()
    """The actions the review played for it (a bonus action token, then ``action``), when
    more than ``action`` alone."""


@dataclass(frozen=True)
class Verdict:
    """An entered action judged against the best action the review knows at its step."""

    accepted: bool
    win: float
    """The mover's win share after the entered action (the review's search)."""
    loss: float
    """How much less that is than the best known (0 when the entered action is the best)."""
    threshold: float
    label: str
    """What the entered action did."""
    best: Known

    def to_json(self) -> dict[str, Any]:
        """The verdict, with the best action known and its label."""
        return {
            "accepted": self.accepted,
            "win": self.win,
            "loss": self.loss,
            "threshold": self.threshold,
            "label": self.label,
            "best": action_to_json(self.best.action),
            "best_label": self.best.label,
        }


def threshold(players: int) -> float:
    """The least loss the review calls an inaccuracy, for ``players`` seats."""
    return THRESHOLDS[-1][1] / players


def score(
    at: State, line: Sequence[Action], index: int, settings: Settings,
    evaluator: StaticEvaluator | None = None, playouts: int | None = None,
) -> tuple[float, str]:  # fmt: skip
    """The mover's win share after the actions of ``line`` (one, or a bonus action token
    and the action it buys) from the position ``at`` of step ``index`` as the review scores
    them (with the ``playouts`` it stored for the step), and their label
    (``IllegalAction`` for an illegal one)."""
    evaluator = evaluator or StaticEvaluator.load()
    names = [p.name for p in at.table.players]
    after = at
    for action in line:
        after, _ = play(after, action)
    static = evaluator.evaluate(after).win[at.player]
    seeds = step_seeds(settings, index, playouts)
    scored = _score(at, tuple(line), names, static, seeds, settings, evaluator)
    return round(scored.evaluation.win[at.player], WIN_DIGITS), scored.label


def judge(
    at: State, index: int, settings: Settings, known: Sequence[Known], entered: Action,
    evaluator: StaticEvaluator | None = None, playouts: int | None = None,
) -> Verdict:  # fmt: skip
    """Judge ``entered`` at the position ``at`` of step ``index`` against the ``known``
    actions the review scored there with ``playouts`` each (``IllegalAction`` for an
    illegal one)."""
    line = next((k.line for k in known if k.line and k.action == entered), (entered,))
    win, label = score(at, line, index, settings, evaluator, playouts)
    mine = Known(entered, label, win)
    best = max((*known, mine), key=lambda k: k.win)
    loss = round(max(0.0, best.win - win), WIN_DIGITS)
    least = threshold(len(at.boards))
    return Verdict(loss < least, win, loss, round(least, WIN_DIGITS), label, best)
