"""How good a position is for each seat: win probability and expected final VP.

:class:`StaticEvaluator` reads the position's :mod:`features <domain.wolves.analysis.features>`:
win probabilities are a conditional logit (a softmax over seats of ``weights · features``),
expected final VP the points so far plus a linear estimate of the points still to come.
Its weights are fitted on self-play games by ``scripts/fit-evaluator`` and shipped as
``weights.json`` beside this module (with the seed, games and held-out metrics).

>>> from domain.wolves.players import seats
>>> from domain.wolves.setup import generate_setup
>>> from domain.wolves.state import initial_state
>>> ev = StaticEvaluator.load().evaluate(initial_state(seats(4, 1), generate_setup(4, 1)))
>>> round(sum(ev.win), 6), len(ev.vp)
(1.0, 4)
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from operator import mul
from typing import Any

from domain.wolves.analysis.features import FEATURES, features, progress
from domain.wolves.scoring import final_scores
from domain.wolves.state import State

WEIGHTS = "weights.json"


@dataclass(frozen=True)
class Evaluation:
    """Per seat: the probability of winning and the expected final VP."""

    win: tuple[float, ...]
    vp: tuple[float, ...]

    def to_json(self) -> dict[str, list[float]]:
        """``{"win": [...], "vp": [...]}`` rounded for storage."""
        return {"win": [round(w, 4) for w in self.win], "vp": [round(v, 2) for v in self.vp]}


def outcome(state: State) -> tuple[float, ...]:
    """Each seat's share of the win by the current scores (tied first places share it)."""
    places = [s.place for s in final_scores(state)]
    firsts = places.count(1)
    return tuple(1.0 / firsts if p == 1 else 0.0 for p in places)


def result(state: State) -> Evaluation:
    """A finished game's result as an evaluation: each seat's share of the win, its VP."""
    return Evaluation(outcome(state), tuple(float(s.total) for s in final_scores(state)))


def softmax(scores: Sequence[float]) -> list[float]:
    """Probabilities proportional to ``exp(score)``."""
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


class StaticEvaluator:
    """Win probabilities and expected final VP from the features of a position."""

    def __init__(self, model: Mapping[str, Any]) -> None:
        if list(model["features"]) != list(FEATURES):
            raise ValueError("the weights were fitted on other features: run scripts/fit-evaluator")
        self.model = model
        self.win_weights = [float(w) for w in model["win"]["weights"]]
        self.vp_weights = [float(w) for w in model["vp"]["weights"]]
        canonical = json.dumps(
            {"win": model["win"], "vp": model["vp"]}, sort_keys=True, separators=(",", ":")
        )
        self.version = "static-" + hashlib.sha256(canonical.encode()).hexdigest()[:8]

    @classmethod
    def load(cls, name: str = WEIGHTS) -> StaticEvaluator:
        """The evaluator with the weights shipped in this package."""
        return _load(name)

    def win(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Win probability per seat from its feature rows."""
        w = self.win_weights
        return softmax([sum(map(mul, w, row)) for row in rows])

    def final_vp(self, rows: Sequence[Sequence[float]], left: float) -> list[float]:
        """Expected final VP per seat: VP so far plus the estimated points to come."""
        base, per_left, *w = self.vp_weights
        to_come = [base + per_left * left + sum(map(mul, w, r)) for r in rows]
        return [row[0] + max(0.0, gain) for row, gain in zip(rows, to_come, strict=True)]

    def evaluate(self, state: State) -> Evaluation:
        """The evaluation of ``state`` (a finished game: its actual result)."""
        if state.finished:
            return result(state)
        rows = features(state)
        return Evaluation(tuple(self.win(rows)), tuple(self.final_vp(rows, 1 - progress(state))))


@cache
def _load(name: str) -> StaticEvaluator:
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return StaticEvaluator(json.loads(text))
