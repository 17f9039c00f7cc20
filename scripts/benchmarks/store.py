"""Store suite: importing games into PostgreSQL, and ``state_at`` on both backends.

- ``import_events_per_s``: ``howl import``'s path for 1,000 self-played 4-player records
  into empty tables: records read and replayed by the engine in one process per CPU while
  the main one saves each game in one transaction. ``ratio_to_plain_save`` compares it
  with saving the same games as pre-built aggregates (no reading, no rules) one by one,
  ``ratio_to_copy`` with a raw psycopg ``COPY`` of the same rows.
- ``upload_events_per_s``: the same records through ``GameLibrary.upload`` one by one in
  one process (what the API does per request), with its ratio to the plain save.
- ``state_at_ms``: ``state_at`` on random steps of stored 5-player games, p50 and p95 on
  SQLite and on PostgreSQL; ``first`` is the first read of each game (its per-step states
  are folded then), the rest are cached.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

from api.commands.store import Source, checked_records, store_checked
from domain.store import GameLibrary, StoreConfig
from domain.store.uploads import prepare_record
from scripts.benchmarks.common import percentile, progress, report, self_played
from scripts.benchmarks.throwaway_pg import bench_database

GAMES = int(os.environ.get("HOWL_BENCH_STORE_GAMES", "1000"))
STATE_GAMES = 20
STATE_READS = 400
SEED = 11


def _save_all(library: GameLibrary, store: Callable[[], object]) -> tuple[float, int]:
    """Seconds ``store`` takes and the events it left in ``library``."""
    started = time.perf_counter()
    store()
    return time.perf_counter() - started, library.recorder.max_notification_id() or 0


def _import_all(library: GameLibrary, todo: list[Source], jobs: int) -> None:
    """``howl import``'s checking and storing of records that are all valid."""
    for source, game in checked_records(todo, jobs):
        if isinstance(game, dict):
            raise ValueError(f"{source.label}: {game}")
        store_checked(library, game)


def bench_import(url: str, files: list[Path]) -> None:
    """``howl import``'s path and sequential uploads against plain saves and a raw COPY."""
    blobs = [f.read_bytes() for f in files]
    jobs = os.cpu_count() or 1
    progress(f"store: importing {len(blobs)} games ({jobs} checking processes)")
    with GameLibrary.open(StoreConfig(url, schema="imported")) as library:
        todo = [Source(str(f), f.read_bytes) for f in files]
        import_s, events = _save_all(library, lambda: _import_all(library, todo, jobs))
    progress(f"store: uploading {len(blobs)} games one by one")
    with GameLibrary.open(StoreConfig(url, schema="uploaded")) as library:
        upload_s, _ = _save_all(library, lambda: [library.upload(data) for data in blobs])
    progress("store: saving the same games as pre-built aggregates")
    games = [prepare_record(data).aggregate() for data in blobs]
    with GameLibrary.open(StoreConfig(url, schema="plain")) as plain:
        plain_s, _ = _save_all(plain, lambda: [plain.save(game) for game in games])
    progress("store: COPY of the same rows")
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT originator_id, originator_version, topic, state FROM imported.games_events"
        ).fetchall()
        conn.execute("CREATE TABLE copied (LIKE imported.games_events INCLUDING ALL)")
        started = time.perf_counter()
        with conn.cursor().copy(
            "COPY copied (originator_id, originator_version, topic, state) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row(row)
        conn.commit()
        copy_s = time.perf_counter() - started
    report(
        "store", "import_events_per_s", events / import_s, "1/s", games=len(blobs),
        events=events, jobs=jobs, baseline=round(events / plain_s),
        ratio_to_plain_save=round(plain_s / import_s, 3),
        copy_events_per_s=round(len(rows) / copy_s), ratio_to_copy=round(copy_s / import_s, 4),
        target_ratio_to_plain_save=0.5,
    )  # fmt: skip
    report(
        "store", "upload_events_per_s", events / upload_s, "1/s", games=len(blobs),
        ratio_to_plain_save=round(plain_s / upload_s, 3),
    )  # fmt: skip


def bench_state_at(backend: str, url: str, files: list[Path]) -> None:
    """Random-step reads of stored 5-player games on a fresh library."""
    with GameLibrary.open(url) as library:
        ids = [library.upload(f.read_bytes()).game_id for f in files]
    rng = random.Random(SEED)
    with GameLibrary.open(url) as library:
        steps = {game_id: library.info(game_id).actions for game_id in ids}
        first: list[float] = []
        later: list[float] = []
        seen: set[object] = set()
        for _ in range(STATE_READS):
            game_id = rng.choice(ids)
            step = rng.randint(0, steps[game_id])
            started = time.perf_counter()
            library.state_at(game_id, step)
            (later if game_id in seen else first).append((time.perf_counter() - started) * 1000)
            seen.add(game_id)
    every = first + later
    report(
        "store", f"state_at_ms_{backend}", percentile(every, 50), "ms",
        p95=round(percentile(every, 95), 3), first_p95=round(percentile(first, 95), 3),
        cached_p95=round(percentile(later, 95), 3), reads=len(every), target_p95=5.0,
    )  # fmt: skip


def run() -> None:
    """Measure and report the store metrics."""
    four = self_played("store", GAMES, (4,), SEED)
    five = self_played("store", STATE_GAMES, (5,), SEED)
    with bench_database() as url:
        bench_import(url, four)
    with bench_database() as url:
        bench_state_at("postgresql", url, five)
    with tempfile.TemporaryDirectory() as folder:
        bench_state_at("sqlite", f"sqlite:///{folder}/store.sqlite3", five)
