"""Store suite: importing games into PostgreSQL, and ``state_at`` on both backends.

- ``import_events_per_s``: ``GameLibrary.upload`` of 1,000 self-played 4-player records
  (read, replayed by the engine, saved in one transaction each) into an empty database;
  ``ratio_to_plain_save`` compares it with saving the same games as pre-built aggregates
  (no reading, no rules), ``ratio_to_copy`` with a raw psycopg ``COPY`` of the same rows.
- ``state_at_ms``: ``state_at`` on random steps of stored 5-player games, p50 and p95 on
  SQLite and on PostgreSQL; ``first`` is the first read of each game (its per-step states
  are folded then), the rest are cached.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path

import psycopg
from common import percentile, progress, report, self_played
from throwaway_pg import bench_database

from domain.store import GameLibrary, StoreConfig
from domain.store.game import Game, game_id_for, record_digest
from domain.wolves import codec
from domain.wolves.components import RULES_VERSION
from domain.wolves.records import read_record, write_record
from domain.wolves.replay import replay

GAMES = int(os.environ.get("HOWL_BENCH_STORE_GAMES", "1000"))
STATE_GAMES = 20
STATE_READS = 400
SEED = 11


def _aggregate(data: bytes) -> Game:
    """The game aggregate an upload would save, built outside any timing."""
    record = read_record(data)
    canonical = write_record(record)
    game = Game(
        digest=record_digest(canonical), record=canonical.decode(), uploaded_by=None,
        title=None, tags=[], visibility="public", rules_version=RULES_VERSION,
        actions=len(record.actions),
    )  # fmt: skip
    for step, caused in enumerate(replay(record).steps):
        for event in caused:
            doc = codec.event_to_json(event)
            game.happened(step, doc.pop("type"), doc)
    assert game.id == game_id_for(game.digest)
    return game


def bench_import(url: str, files: list[Path]) -> None:
    """Uploads against plain saves and a raw COPY of the same rows."""
    blobs = [f.read_bytes() for f in files]
    progress(f"store: uploading {len(blobs)} games")
    with GameLibrary.open(url) as library:
        started = time.perf_counter()
        for data in blobs:
            library.upload(data)
        upload_s = time.perf_counter() - started
        events = library.recorder.max_notification_id() or 0
    progress("store: building the same games as aggregates")
    games = [_aggregate(data) for data in blobs]
    progress("store: saving pre-built aggregates")
    with GameLibrary.open(StoreConfig(url, schema="plain")) as plain:
        started = time.perf_counter()
        for game in games:
            plain.save(game)
        plain_s = time.perf_counter() - started
    progress("store: COPY of the same rows")
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT originator_id, originator_version, topic, state FROM games_events"
        ).fetchall()
        conn.execute("CREATE TABLE copied (LIKE games_events INCLUDING ALL)")
        started = time.perf_counter()
        with conn.cursor().copy(
            "COPY copied (originator_id, originator_version, topic, state) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row(row)
        conn.commit()
        copy_s = time.perf_counter() - started
    report(
        "store", "import_events_per_s", events / upload_s, "1/s", games=len(blobs),
        events=events, baseline=round(events / plain_s), ratio_to_plain_save=round(
            plain_s / upload_s, 3), copy_events_per_s=round(len(rows) / copy_s),
        ratio_to_copy=round(copy_s / upload_s, 4), target_ratio_to_plain_save=0.5,
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
