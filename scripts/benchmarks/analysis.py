"""Analysis suite: a full review of a 4-player fixture game, playouts and static evaluations.

Baseline measured in the same run: ``HeuristicBot``'s choice against the playout player's.
``playout_ms`` (one playout to the end from a mid-game position) has none.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from domain.wolves.analysis.evaluation import StaticEvaluator
from domain.wolves.analysis.playouts import PlayoutBot, playout
from domain.wolves.analysis.review import Settings, review
from domain.wolves.players import HeuristicBot
from domain.wolves.records import read_record
from domain.wolves.replay import replay
from scripts.benchmarks.common import median_time, progress, report

FIXTURE = Path(__file__).resolve().parents[2] / "tests/fixtures/the-wolves/4p-00-heuristic.json"


def run() -> None:
    """Measure and report the analysis metrics."""
    record = read_record(FIXTURE.read_bytes())
    played = replay(record)
    states = [played.state_at(i) for i in range(len(record.actions))]
    midgame = [s for s in states[len(states) // 4 : 3 * len(states) // 4 : 3] if not s.drafting]

    progress("analysis: static evaluations")
    evaluator = StaticEvaluator.load()
    seconds = median_time(lambda: [evaluator.evaluate(s) for s in states])
    report("analysis", "static_eval_us", seconds / len(states) * 1e6, "us", positions=len(states))

    progress("analysis: playout player against HeuristicBot")
    heuristic = median_time(lambda: [HeuristicBot(i).choose(s) for i, s in enumerate(midgame)], 3)
    cheap = median_time(lambda: [PlayoutBot(i).choose(s) for i, s in enumerate(midgame)], 3)
    report(
        "analysis", "playout_choice_ms", cheap / len(midgame) * 1000, "ms", median_of=3,
        baseline=round(heuristic / len(midgame) * 1000, 3), ratio=round(heuristic / cheap, 3),
        baseline_metric="heuristic_choice_ms", positions=len(midgame),
    )  # fmt: skip
    start = time.perf_counter()
    for i, s in enumerate(midgame):
        playout(s, i)
    one = (time.perf_counter() - start) / len(midgame)
    report("analysis", "playout_ms", one * 1000, "ms", positions=len(midgame))

    workers = min(2, os.cpu_count() or 1)
    settings = Settings()
    progress(f"analysis: full review of {FIXTURE.name} on {workers} processes ({settings.key})")
    start = time.perf_counter()
    result = review(record, settings, workers=workers)
    wall = time.perf_counter() - start
    steps = len(result.steps)
    playouts = sum((1 + len(s.alternatives)) * settings.playouts for s in result.steps)
    report(
        "analysis", "review_4p_s", wall, "s", target=60, steps=steps, workers=workers,
        settings=settings.key,
    )  # fmt: skip
    report("analysis", "review_step_ms", wall / steps * 1000, "ms", steps=steps, workers=workers)
    report(
        "analysis", "review_playouts_per_s", playouts / wall, "1/s", playouts=playouts,
        workers=workers,
    )  # fmt: skip
