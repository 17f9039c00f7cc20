"""Shared pieces of the benchmark suites: timing, medians, one JSON line per metric."""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable


def median_time(fn: Callable[[], object], runs: int = 5) -> float:
    """Median wall time of ``runs`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values`` by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def report(suite: str, metric: str, value: float, unit: str, **extra: object) -> None:
    """Print one metric as a JSON line (names are stable: other tools read them)."""
    line = {"suite": suite, "metric": metric, "value": round(value, 4), "unit": unit, **extra}
    print(json.dumps(line), flush=True)


def progress(message: str) -> None:
    """A progress note on stderr, so stdout stays one JSON object per line."""
    print(f"… {message}", file=sys.stderr, flush=True)
