"""Scale suite: ``howl analyse --all``'s reviews on local processes and on Dask.

``scripts/bench scale [--games 20] [--players 2] [--playouts 6] [--tasks 2000]``: the same
self-played games of The Wolves (heuristic bots, a fixed seed; cached in ``var/bench/``)
are stored in a SQLite file, and the games due for a review (:func:`services.reviews.due`,
the default review settings but ``--playouts``) are reviewed one task per game
(:func:`services.reviews.review_due` through :func:`services.compute.pool`) three times:
on a local pool of 2 processes, on a ``LocalCluster`` of 1 worker and on one of 2 workers.

- ``reviews_per_min_local``, ``reviews_per_min_dask_1``, ``reviews_per_min_dask_2``: games
  reviewed per minute of wall time, the pool's start aside (``start_s``: the processes, or
  the cluster and its client, until :data:`WARM_UP` no-op tasks per worker came back).
- ``dask_speedup_2_workers``: the 2-worker cluster's rate over the 1-worker one's (target
  1.8 with both cores free); ``ratio_to_local`` is its rate over the local pool's.
- ``dask_task_overhead_ms``: the mean wall time per no-op task (``abs``) of ``--tasks``
  ones through the 1-worker cluster (as the batch submits them, ``Pool.finished``), less
  a direct call's; ``two_workers_ms`` through the 2-worker cluster; the baseline is a
  local pool of one process's.
- ``review_seconds``: mean CPU seconds of one review, in this process, of the first
  :data:`DIRECT` games.
- ``review_save_ms``: the mean wall time of saving one review into the ``analyses`` table
  (SQLite) holding ``--filled`` reviews of other games already, which the batch's own process
  does for every game (``review_kb``: its JSON).
- ``reviews_identical``: 1 when the three runs' reviews (and the direct ones) are equal and,
  the first run's saved in the ``analyses`` table, no game is due any more; else 0.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any
from uuid import UUID, uuid4

from domain.ruleset import ReviewSettings
from domain.store import GameLibrary
from projections.analysis import TABLE, Analyses, settings_to_json
from scripts.benchmarks.common import progress, report, self_played
from services.compute import EXTRA_HINT, LOCAL, Pool, pool
from services.reviews import Due, due, review_due

SEED = 23
TARGET_SPEEDUP = 1.8
DIRECT = 2
"""Games reviewed in this process for ``review_seconds``."""
WARM_UP = 8
"""No-op tasks per worker that start a pool's processes before anything is timed."""


@dataclass(frozen=True)
class Sizes:
    """How much the suite does: games and their seats, review playouts, no-op tasks."""

    games: int = 20
    players: int = 2
    playouts: int = 6
    tasks: int = 2000
    filled: int = 200_000


@dataclass(frozen=True)
class Run:
    """One pool the games are reviewed on."""

    name: str
    workers: int
    scheduler: str | None


RUNS = (Run("local", 2, None), Run("dask_1", 1, LOCAL), Run("dask_2", 2, LOCAL))


@dataclass(frozen=True)
class Measured:
    """A run's pool start, seconds per no-op task (on a cluster; 0 for local processes,
    timed with one process apart) and per batch, and its reviews."""

    start_s: float
    noop_s: float
    batch_s: float
    reviews: dict[UUID, dict[str, Any]]


def _noops(ready: Pool, tasks: int) -> float:
    """Mean wall seconds per no-op task through ``ready``."""
    start = time.perf_counter()
    for _, done in ready.finished(abs, ((-i,) for i in range(tasks))):
        done.result()
    return (time.perf_counter() - start) / tasks


def _measure(run: Run, todo: Sequence[Due], records: dict[UUID, bytes], tasks: int) -> Measured:
    progress(f"scale: {len(todo)} reviews on {run.name}")
    opened = time.perf_counter()
    with pool(run.workers, run.scheduler) as ready:
        _noops(ready, WARM_UP * ready.workers)
        start_s = time.perf_counter() - opened
        noop_s = _noops(ready, tasks) if run.scheduler is not None else 0.0
        start = time.perf_counter()
        jobs = ((d, records[d.game_id]) for d in todo)
        reviews = {d.game_id: done.result() for (d, _), done in ready.finished(review_due, jobs)}
        batch_s = time.perf_counter() - start
    return Measured(start_s, noop_s, batch_s, reviews)


def _local_noop_s(tasks: int) -> float:
    """Mean wall seconds per no-op task through a local pool of one process, as through the
    1-worker cluster."""
    with pool(1) as ready:
        _noops(ready, WARM_UP)
        return _noops(ready, tasks)


def _direct_call_s(tasks: int) -> float:
    start = time.perf_counter()
    for i in range(tasks):
        abs(-i)
    return (time.perf_counter() - start) / tasks


def measure(blobs: Sequence[bytes], sizes: Sizes) -> None:
    """Store ``blobs`` (records of The Wolves) in a new SQLite file, review them on each of
    :data:`RUNS` and report the suite's metrics."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/scale.sqlite3"
        with GameLibrary.open(url) as library:
            for blob in blobs:
                library.upload(blob)
            analyses = Analyses(url)
            values = {"playouts": sizes.playouts}
            todo = list(due(library, analyses, values))
            records = {d.game_id: library.record(d.game_id) for d in todo}
            measured = {run.name: _measure(run, todo, records, sizes.tasks) for run in RUNS}
            progress(f"scale: {min(DIRECT, len(todo))} reviews in this process")
            direct: dict[UUID, dict[str, Any]] = {}
            cpu = time.process_time()
            for d in todo[:DIRECT]:
                direct[d.game_id] = review_due(d, records[d.game_id])
            review_s = (time.process_time() - cpu) / max(1, len(direct))
            reviews = [m.reviews for m in measured.values()]
            first = reviews[0]
            _fill(analyses, sizes.filled, todo[0].settings if todo else None)
            saving = time.perf_counter()
            for d in todo:
                analyses.save(d.game_id, d.settings, first[d.game_id])
            save_s = (time.perf_counter() - saving) / max(1, len(todo))
            left = len(list(due(library, analyses, values)))
    key = todo[0].settings.key if todo else None
    games = {"games": len(todo), "players": sizes.players, "settings": key}
    rates = {}
    for run in RUNS:
        got = measured[run.name]
        rates[run.name] = len(todo) / got.batch_s * 60
        report(
            "scale", f"reviews_per_min_{run.name}", rates[run.name], "1/min",
            workers=run.workers, scheduler=run.scheduler, start_s=round(got.start_s, 3),
            wall_s=round(got.batch_s, 3), **games,
        )  # fmt: skip
    speedup = rates["dask_2"] / rates["dask_1"]
    report(
        "scale", "dask_speedup_2_workers", speedup, "x", target=TARGET_SPEEDUP,
        ratio_to_local=round(rates["dask_2"] / rates["local"], 3), **games,
    )  # fmt: skip
    call_s, local_s = _direct_call_s(sizes.tasks), _local_noop_s(sizes.tasks)
    report(
        "scale", "dask_task_overhead_ms", (measured["dask_1"].noop_s - call_s) * 1000, "ms",
        tasks=sizes.tasks, two_workers_ms=round((measured["dask_2"].noop_s - call_s) * 1000, 4),
        baseline=round((local_s - call_s) * 1000, 4),
        baseline_metric="local_pool_task_ms", direct_call_us=round(call_s * 1e6, 4),
    )  # fmt: skip
    report("scale", "review_seconds", review_s, "s", reviews=len(direct), **games)
    size = sum(len(_text(r)) for r in first.values()) / max(1, len(first))
    report(
        "scale", "review_save_ms", save_s * 1000, "ms", backend="sqlite",
        review_kb=round(size / 1000, 1), filled_rows=sizes.filled, **games,
    )  # fmt: skip
    differing = sorted(
        str(d.game_id) for d in todo
        if len({_text(r[d.game_id]) for r in (*reviews, direct) if d.game_id in r}) != 1
    )  # fmt: skip
    same = not differing and left == 0
    progress(
        f"scale: reviews {'identical' if not differing else 'DIFFER'} across "
        f"{', '.join(r.name for r in RUNS)} and this process; {left} games due after saving"
    )
    report(
        "scale", "reviews_identical", float(same), "bool", runs=len(RUNS), differing=differing,
        due_after_saving=left, **games,
    )  # fmt: skip


def _fill(analyses: Analyses, rows: int, settings: ReviewSettings | None) -> None:
    """Put ``rows`` small reviews of other games in the ``analyses`` table, as an archive's
    store holds, before the saves are timed."""
    if settings is None or rows == 0:
        return
    progress(f"scale: {rows:,} reviews of other games in the analyses table")
    analyses.ensure()
    stored = settings_to_json(settings)
    with analyses.db.connect() as conn:
        analyses.db.executemany(
            conn,
            f"INSERT INTO {TABLE} (game_id, settings_key, settings, status, progress, result, "
            "seq) VALUES (?, ?, ?, 'done', 1, '{}', ?)",
            [(str(uuid4()), settings.key, stored, seq) for seq in range(1, rows + 1)],
        )


def _text(review: dict[str, Any]) -> str:
    return json.dumps(review, sort_keys=True)


def options(argv: list[str]) -> Sizes:
    """The suite's sizes from its command line."""
    parser = argparse.ArgumentParser(prog="scripts/bench scale", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=Sizes.games, help="games reviewed (20)")
    parser.add_argument("--players", type=int, default=Sizes.players, choices=range(2, 6),
                        help="seats of each game (2)")  # fmt: skip
    parser.add_argument("--playouts", type=int, default=Sizes.playouts,
                        help="playouts per scored action (the review's default, 6)")  # fmt: skip
    parser.add_argument("--tasks", type=int, default=Sizes.tasks,
                        help="no-op tasks timed on each pool (2000)")  # fmt: skip
    parser.add_argument("--filled", type=int, default=Sizes.filled,
                        help="reviews already in the table saved to (200000)")  # fmt: skip
    args = parser.parse_args(argv)
    return Sizes(args.games, args.players, args.playouts, args.tasks, args.filled)


def run(argv: list[str] | None = None) -> None:
    """Measure and report the scale metrics (none, said why, without Dask)."""
    sizes = options(argv or [])
    if find_spec("distributed") is None:
        progress(f"scale: skipped: {EXTRA_HINT}")
        return
    files = self_played("scale", sizes.games, (sizes.players,), SEED, "heuristic")
    measure([f.read_bytes() for f in files], sizes)
