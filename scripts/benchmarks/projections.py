"""Projections suite: catching up over 1,000 stored games, and the dashboard's statistics query.

Runs on PostgreSQL: ``HOWL_BENCH_PG_URL`` if set (a database of its own is made there and
dropped afterwards), else a throwaway cluster like the one ``scripts/test`` starts. The
self-played records are cached under ``var/bench/`` (they take minutes to play).

- ``catch_up_events_per_s``: a full catch-up (timelines, summaries) from an empty read
  model, against a raw sequential read of the same notification log (pages of stored
  notifications, undecoded) made just before it; the median of three such pairs, and
  ``ratios`` each pair's; ``decoded_baseline`` also decodes each notification to its
  event, which any reader of the log must do; ``lean_baseline`` reads the log's rows as
  the catch-up itself does (about 2.5 times faster than the store's reader).
- ``catch_up_parallel_events_per_s``: the same with one folding process per CPU.
- ``stats_query_ms``: ``ReadModels.stats(game="the-wolves")`` with no other filter (the
  dashboard's default view, the most played game) over 10,000 games whose summaries are
  written straight into the tables, then vacuumed (as autovacuum would leave them).
- ``rebuild_read_stall_ms``: the longest read (a page of the game list) any of 16 reading
  threads waited while ``howl projections rebuild`` ran in a process of its own, against
  the longest read of the same clients without a rebuild; ``rebuild_events_per_s`` is that
  rebuild's pace.

``HOWL_BENCH_GAMES`` sets how many games are stored (default 1,000).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from domain.store import GameLibrary, StoreConfig, store_env
from domain.store.log import pager
from domain.wolves import components as box
from projections import tables
from projections.readmodels import ReadModels
from scripts.benchmarks.common import median_time, percentile, progress, report, self_played
from scripts.benchmarks.throwaway_pg import bench_database

if TYPE_CHECKING:
    from tests.projections.synthetic import Played

GAMES = int(os.environ.get("HOWL_BENCH_GAMES") or 1000)
READERS = 16
RUNS = 3
"""Catch-ups measured per metric (each after a raw read of its own)."""
STATS_GAMES = 10_000
SEED = 7
ACTION_MIX = {"move": 40, "den": 12, "howl": 8, "lair": 4, "dominate": 5, "pass": 3}
"""Most actions of each kind a synthetic seat takes."""


def records() -> list[Path]:
    """The self-played records (played once, then read from the cache)."""
    return self_played("projections", GAMES, (2, 3, 4, 5), SEED)


def _upload(job: tuple[str, list[str]]) -> int:
    url, paths = job
    env = {**store_env(StoreConfig(url)), "CREATE_TABLE": "n"}  # made once, by fill()
    with GameLibrary(env) as library:
        for path in paths:
            library.upload(Path(path).read_bytes())
    return len(paths)


def fill(url: str, paths: list[Path]) -> None:
    """Store the games (one uploading process per CPU)."""
    progress(f"projections: storing {len(paths)} games")
    GameLibrary.open(url).close()  # tables made once
    workers = os.cpu_count() or 1
    jobs = [(url, [str(p) for p in paths[i::workers]]) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_upload, jobs))


def raw_read(library: GameLibrary, decode: bool = False) -> int:
    """Read the whole notification log in order, a page at a time, with the event store's
    own reader (eventsourcing's ``select_notifications``: the baseline the target names)."""
    start, count = 1, 0
    while True:
        page = library.recorder.select_notifications(start, 1000)
        if not page:
            return count
        if decode:
            for n in page:
                library.mapper.to_domain_event(n)
        count += len(page)
        start = page[-1].id + 1


def lean_read(library: GameLibrary) -> int:
    """Read the whole log as the catch-up does, as plain rows (``domain.store.log``)."""
    fetch, start, count = pager(library.recorder), 1, 0
    while page := fetch(start, 1000):
        count += len(page)
        start = page[-1].id + 1
    return count


def catch_up_once(url: str, library: GameLibrary, workers: int) -> tuple[int, float]:
    """A full catch-up from an empty read model (a schema of its own): its events, seconds."""
    with ReadModels(url, f"rm_{uuid.uuid4().hex[:8]}", batch_size=10_000, workers=workers) as rm:
        rm.position()
        started = time.perf_counter()
        done = rm.catch_up(library)
        return done, time.perf_counter() - started


def bench_catch_up(url: str) -> None:
    """Full catch-ups against raw reads of the same log, each catch-up right after its own
    raw read (the raw read alone varies by ±15 % on these machines): the ratio is the
    median of the ``RUNS`` pairs'."""
    with GameLibrary.open(url) as library:
        events = raw_read(library)
        decoded = median_time(lambda: raw_read(library, decode=True), runs=3)
        lean = median_time(lambda: lean_read(library), runs=3)
        for metric, workers in (
            ("catch_up_events_per_s", 1),
            ("catch_up_parallel_events_per_s", os.cpu_count() or 1),
        ):
            progress(f"projections: catching up over {events} events, {workers} process(es)")
            raws, times = [], []
            for _ in range(RUNS):
                raws.append(median_time(lambda: raw_read(library), runs=1))
                done, elapsed = catch_up_once(url, library, workers)
                assert done == events, (done, events)
                times.append(elapsed)
            ratios = [r / t for r, t in zip(raws, times, strict=True)]
            elapsed, raw = statistics.median(times), statistics.median(raws)
            report(
                "projections", metric, events / elapsed, "1/s", median_of=RUNS, games=GAMES,
                events=events, workers=workers, baseline=round(events / raw),
                baseline_metric="raw_log_read_events_per_s",
                ratio=round(statistics.median(ratios), 4), ratios=[round(r, 4) for r in ratios],
                target_ratio=0.25, decoded_baseline=round(events / decoded),
                decoded_ratio=round(decoded / elapsed, 4), lean_baseline=round(events / lean),
                lean_ratio=round(lean / elapsed, 4),
            )  # fmt: skip


def synthetic_games(count: int) -> list[Played]:
    """Random finished games: 2–5 seats, results, firsts and dates over a year."""
    from tests.projections.synthetic import Played, Seat

    rng = random.Random(SEED)
    names = [f"Player {i}" for i in range(400)]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    out = []
    for _ in range(count):
        n = rng.randint(2, 5)
        places = rng.sample(range(1, n + 1), n)
        seats = [
            Seat(
                name, terrain, rng.randint(15, 90), place,
                {p: rng.randint(0, 2) for p in box.PHASES},
                {kind: rng.randint(0, top) for kind, top in ACTION_MIX.items()},
            )
            for name, terrain, place in zip(
                rng.sample(names, n), rng.sample(box.TERRAINS, n), places, strict=True
            )
        ]  # fmt: skip
        out.append(
            Played(
                seats, start + timedelta(minutes=rng.randint(0, 525_600)),
                turns=rng.randint(25, 80), visibility=rng.choice(["public"] * 9 + ["private"]),
                options={"random_terrain": int(rng.random() < 0.2)},
            )
        )  # fmt: skip
    return out


def vacuum(url: str, schema: str | None) -> None:
    """Vacuum and analyze the tables of ``schema`` until every page of the games' table is
    all-visible, as autovacuum leaves them a while after writes: index-only scans need it (a
    count of the games read every row of a table autovacuum had not reached yet). A pass
    right after the writes does not always get there; ten passes at most, a second apart."""
    import psycopg

    options = f"-c search_path={schema}" if schema else ""
    with psycopg.connect(url, autocommit=True, options=options) as conn:
        for _ in range(10):
            conn.execute("VACUUM ANALYZE")
            row = conn.execute(
                "SELECT relallvisible, relpages FROM pg_class WHERE relname = %s "
                "AND relnamespace = current_schema()::regnamespace",
                (tables.GAMES,),
            ).fetchone()
            if row is not None and row[0] >= row[1]:
                return
            time.sleep(1)


def bench_stats(url: str) -> None:
    """The dashboard's default statistics over 10,000 games."""
    from tests.projections.synthetic import insert

    progress(f"projections: writing {STATS_GAMES} synthetic summaries")
    with ReadModels(url, f"stats_{uuid.uuid4().hex[:8]}") as models:
        insert(models, synthetic_games(STATS_GAMES))
        vacuum(url, models.db.schema)
        stats = models.stats(game="the-wolves")
        times = []
        for _ in range(40):
            started = time.perf_counter()
            models.stats(game="the-wolves")
            times.append((time.perf_counter() - started) * 1000)
        pages = []
        for _ in range(40):
            started = time.perf_counter()
            models.list_games()
            pages.append((time.perf_counter() - started) * 1000)
    report(
        "projections", "stats_query_ms", percentile(times, 50), "ms",
        p95=round(percentile(times, 95), 3), target=200, target_of="p95", runs=len(times),
        games=stats["games"], seats=stats["seats"],
    )  # fmt: skip
    report(
        "projections", "list_games_ms", percentile(pages, 50), "ms",
        p95=round(percentile(pages, 95), 3), runs=len(pages),
    )  # fmt: skip


def _reads(url: str, seconds: float | None, done: threading.Event | None = None) -> list[float]:
    """Per-read latencies (ms) of ``READERS`` threads paging the game list, each with
    connections of its own, for ``seconds`` or until ``done`` is set."""
    latencies: list[float] = []
    errors: list[BaseException] = []
    deadline = time.perf_counter() + (seconds or 1e9)

    def read(index: int) -> None:
        with ReadModels(url, pool_size=1) as models:
            sort = ("-uploaded_at", "top_vp", "players", "-turns")[index % 4]
            while time.perf_counter() < deadline and not (done and done.is_set()):
                started = time.perf_counter()
                try:
                    page = models.list_games(limit=20, sort=sort)
                    assert page.total > 0, "a reader saw no games"
                except BaseException as exc:  # noqa: BLE001 - reported below
                    errors.append(exc)
                    return
                latencies.append((time.perf_counter() - started) * 1000)

    threads = [threading.Thread(target=read, args=(i,)) for i in range(READERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    return latencies


def bench_rebuild(url: str) -> None:
    """``howl projections rebuild`` while 16 clients read the game list."""
    with GameLibrary.open(url) as library, ReadModels(url) as models:
        events = library.recorder.max_notification_id() or 0
        progress(f"projections: catching up the live read models over {events} events")
        models.catch_up(library)
    quiet = _reads(url, 5.0)
    progress(f"projections: rebuilding under {READERS} reading clients")
    done = threading.Event()
    env = {**os.environ, "HOWL_DATABASE_URL": url, "HOWL_DATABASE_SCHEMA": ""}
    howl = str(Path(sys.executable).with_name("howl"))
    reading: list[list[float]] = []
    readers = threading.Thread(target=lambda: reading.append(_reads(url, None, done)))
    readers.start()
    try:
        time.sleep(0.5)
        started = time.perf_counter()
        subprocess.run([howl, "projections", "rebuild"], env=env, check=True, capture_output=True)
        elapsed = time.perf_counter() - started
        time.sleep(0.5)
    finally:
        done.set()
        readers.join()
    during = reading[0]
    report(
        "projections", "rebuild_read_stall_ms", max(during), "ms", target=500,
        target_of="value", readers=READERS, reads=len(during),
        p95=round(percentile(during, 95), 3), p50=round(percentile(during, 50), 3),
        baseline=round(max(quiet), 3), baseline_metric="read_max_ms_without_rebuild",
        baseline_p95=round(percentile(quiet, 95), 3),
    )  # fmt: skip
    report(
        "projections", "rebuild_events_per_s", events / elapsed, "1/s", median_of=1,
        events=events, seconds=round(elapsed, 3), readers=READERS,
    )  # fmt: skip


def run() -> None:
    """Measure and report the projections metrics."""
    paths = records()
    with bench_database() as url:
        fill(url, paths)
        bench_catch_up(url)
        bench_rebuild(url)
        bench_stats(url)
