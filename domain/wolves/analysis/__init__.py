"""Coaching and post-game analysis: who was winning, where the game turned, what was better.

- :mod:`~domain.wolves.analysis.features` — what the static evaluator reads of a position.
- :mod:`~domain.wolves.analysis.evaluation` — :class:`StaticEvaluator`: win probability and
  expected final VP per seat (weights in ``weights.json``, fitted by
  ``scripts/fit-evaluator``, with their provenance and held-out metrics).
- :mod:`~domain.wolves.analysis.playouts` — the search evaluator: seeded Monte Carlo
  playouts by :class:`PlayoutBot`, scored by the static evaluator.
- :mod:`~domain.wolves.analysis.review` — :func:`review` of a whole game: per action the
  win before and after, the best alternative, a class (inaccuracy, mistake, blunder);
  turning points; accuracy per seat. The thresholds and formulas are documented there.
- :mod:`~domain.wolves.analysis.whatif` — :func:`what_if`: a branch from step *n*
  compared with the original game.
- :mod:`~domain.wolves.analysis.calibration` — Brier score and log loss with baselines.

Everything here is pure: no database, no clock; processes only when asked to share work.
"""

from domain.wolves.analysis.evaluation import Evaluation, StaticEvaluator
from domain.wolves.analysis.playouts import PlayoutBot, SearchResult, playout, search
from domain.wolves.analysis.review import Review, Settings, StepReview, review, review_step
from domain.wolves.analysis.whatif import WhatIf, branch_record, what_if

__all__ = [
    "Evaluation", "PlayoutBot", "Review", "SearchResult", "Settings", "StaticEvaluator",
    "StepReview", "WhatIf", "branch_record", "playout", "review", "review_step", "search",
    "what_if",
]  # fmt: skip
