"""Scoring win probabilities against what happened: Brier score, log loss and baselines.

A *sample* is one position: the predicted win probability per seat, the seats' VP at
that moment, and the seats' shares of the actual win (tied winners share it). Scores
are means over samples of the per-position sums over seats, so lower is better and a
uniform guess in an N-player game has Brier score ``(N - 1) / N`` at best.

Baselines: ``uniform`` (1/N each) and ``leader`` ("the current VP leader wins", tied
leaders sharing), blended with the uniform guess by the share ``eps`` that suits it
best on the very samples scored (exactly for the Brier score, on a 2.5 % grid for the
log loss), so that its log loss is finite and it is as strong as it can be.

>>> s = Sample((0.7, 0.3), (10, 4), (1.0, 0.0))
>>> round(brier(s.win, s.outcome), 3), round(log_loss(s.win, s.outcome), 3)
(0.18, 0.357)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

EPS_GRID = tuple(i / 40 for i in range(41))
"""Blends of the leader baseline with the uniform guess that are tried (2.5 % steps)."""


@dataclass(frozen=True)
class Sample:
    """A position to score: predicted win per seat, VP per seat now, the actual win shares."""

    win: tuple[float, ...]
    vp: tuple[float, ...]
    outcome: tuple[float, ...]


def brier(probs: Sequence[float], outcome: Sequence[float]) -> float:
    """Sum over seats of the squared error."""
    return sum((p - y) ** 2 for p, y in zip(probs, outcome, strict=True))


def log_loss(probs: Sequence[float], outcome: Sequence[float]) -> float:
    """Cross-entropy of the actual win shares under the prediction (natural log)."""
    return -sum(y * math.log(max(p, 1e-12)) for p, y in zip(probs, outcome, strict=True) if y)


def uniform(sample: Sample) -> tuple[float, ...]:
    """1/N for each seat."""
    n = len(sample.vp)
    return (1.0 / n,) * n


def leader(sample: Sample, eps: float = 0.0) -> tuple[float, ...]:
    """The current VP leaders share the win, blended with the uniform guess by ``eps``."""
    top = max(sample.vp)
    leaders = sum(v == top for v in sample.vp)
    n = len(sample.vp)
    return tuple((1 - eps) * (v == top) / leaders + eps / n for v in sample.vp)


def mean_score(
    samples: Sequence[Sample],
    predict: Callable[[Sample], Sequence[float]],
    score: Callable[[Sequence[float], Sequence[float]], float],
) -> float:
    """Mean of ``score`` over the samples for the predictions of ``predict``."""
    return sum(score(predict(s), s.outcome) for s in samples) / len(samples)


def report(samples: Sequence[Sample]) -> dict[str, dict[str, float]]:
    """Brier score and log loss of the predictions and of both baselines."""
    count = len(samples)
    hard = [leader(s) for s in samples]
    # Brier of the blend is quadratic in eps: sum (a + eps * b)^2 with a = h - y, b = u - h.
    quad = [0.0, 0.0, 0.0]
    for s, h in zip(samples, hard, strict=True):
        u = 1 / len(s.vp)
        for hi, yi in zip(h, s.outcome, strict=True):
            a, b = hi - yi, u - hi
            quad[0] += a * a
            quad[1] += a * b
            quad[2] += b * b
    brier_eps = min(1.0, max(0.0, -quad[1] / quad[2])) if quad[2] else 0.0
    wins = [
        (hi, 1 / len(s.vp), yi)
        for s, h in zip(samples, hard, strict=True)
        for hi, yi in zip(h, s.outcome, strict=True)
        if yi
    ]
    by_eps = {
        e: -sum(y * math.log(max((1 - e) * h + e * u, 1e-12)) for h, u, y in wins) / count
        for e in EPS_GRID
    }
    log_eps = min(by_eps, key=by_eps.__getitem__)
    return {
        "brier": {
            "static": mean_score(samples, lambda s: s.win, brier),
            "leader": (quad[0] + 2 * brier_eps * quad[1] + brier_eps**2 * quad[2]) / count,
            "leader_eps": round(brier_eps, 4),
            "uniform": mean_score(samples, uniform, brier),
        },
        "log_loss": {
            "static": mean_score(samples, lambda s: s.win, log_loss),
            "leader": by_eps[log_eps],
            "leader_eps": log_eps,
            "uniform": mean_score(samples, uniform, log_loss),
        },
        "positions": {"count": float(count)},
    }
