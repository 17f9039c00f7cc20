"""Explore suite: how soon a variation is playable, on a real ``howl serve`` (the api
suite's: granian, ``WORKERS`` × ``THREADS``), on SQLite and on PostgreSQL
(``HOWL_BENCH_PG_URL``, else a throwaway cluster).

- ``explore_ready_p95_ms``: for fixture games of 2, 3 and 5 seats, at steps spread over
  each game (its start, a quarter, half, three quarters and its last move: a finished
  game has none to explore at its end), ``POST
  /api/games/{id}/variations`` then ``GET /api/tables/{vid}/legal``: the time from the
  POST's send to the legal actions' last byte, one kept-alive connection, one at a time.
  Each game is first explored once by every worker (its states folded and cached, as for
  anyone who opened its replay), then measured. The baseline is ``GET
  /api/games/{id}/states/{step}`` of the same steps (the replay's own read of the
  position); ``backend`` names the store.
"""

from __future__ import annotations

import http.client
import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from scripts.benchmarks.api import TOKEN, WORKERS, call, serving
from scripts.benchmarks.common import percentile, progress, report
from scripts.benchmarks.throwaway_pg import bench_database

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "the-wolves"
GAMES = ("2p-00-heuristic", "3p-00-heuristic", "5p-06-random")
SHARES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Where in each game the variations start."""
WRITE = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
TARGET_MS = 300


@dataclass(frozen=True)
class Sizes:
    """How much the suite does (the test runs it small)."""

    rounds: int = 8
    """Variations opened at each step of each game."""
    games: tuple[str, ...] = GAMES


FULL = Sizes()


def _upload(port: int, name: str) -> tuple[str, int]:
    """Store a fixture game; its id and its number of actions."""
    record = (FIXTURES / f"{name}.json").read_bytes()
    status, body, _ = call(port, ("POST", "/api/games", record, WRITE))
    assert status in (200, 201), body
    return json.loads(body)["game_id"], len(json.loads(record)["actions"])


def _ready(conn: http.client.HTTPConnection | None, port: int, game_id: str, step: int) -> float:
    """Milliseconds from opening a variation at ``step`` to its legal actions (on ``conn``,
    else on connections of their own)."""
    body = json.dumps({"step": step}).encode()
    start = time.perf_counter()
    status, got, _ = call(port, ("POST", f"/api/games/{game_id}/variations", body, WRITE), conn)
    assert status == 201, got
    vid = json.loads(got)["table_id"]
    status, got, _ = call(port, ("GET", f"/api/tables/{vid}/legal", None, {}), conn)
    assert status == 200 and "actions" in json.loads(got), got
    return (time.perf_counter() - start) * 1000


def _read(conn: http.client.HTTPConnection, port: int, game_id: str, step: int) -> float:
    """Milliseconds of the replay's read of the position at ``step``."""
    start = time.perf_counter()
    status, got, _ = call(port, ("GET", f"/api/games/{game_id}/states/{step}", None, {}), conn)
    assert status == 200, got
    return (time.perf_counter() - start) * 1000


def measure(backend: str, url: str, sizes: Sizes = FULL) -> None:
    """``explore_ready_p95_ms`` of one backend, on a ``howl serve`` of its own."""
    with serving(url) as port:
        games = [_upload(port, name) for name in sizes.games]
        plan = [(g, min(round(share * last), last - 1)) for g, last in games for share in SHARES]
        progress(f"explore ({backend}): {len(plan)} steps of {len(games)} games, "
                 f"{sizes.rounds} variations each")  # fmt: skip
        ready, reads = [], []
        for game_id, _ in games:  # every worker folds and caches the game's states once
            for _ in range(2 * WORKERS):
                _ready(None, port, game_id, 0)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for _ in range(sizes.rounds):
            for game_id, step in plan:
                ready.append(_ready(conn, port, game_id, step))
                reads.append(_read(conn, port, game_id, step))
        conn.close()
    base = percentile(reads, 95)
    report("explore", "explore_ready_p95_ms", percentile(ready, 95), "ms", backend=backend,
           p50=round(percentile(ready, 50), 4), max=round(max(ready), 4), count=len(ready),
           target=TARGET_MS, baseline=round(base, 3),
           baseline_metric="GET /api/games/{id}/states/{step}",
           ratio=round(percentile(ready, 95) / base, 3) if base else None,
           games=list(sizes.games), shares=list(SHARES))  # fmt: skip


def run(sizes: Sizes = FULL) -> None:
    """Measure and report on SQLite, then on PostgreSQL."""
    with tempfile.TemporaryDirectory() as folder:
        measure("sqlite", f"sqlite:///{folder}/explore.sqlite3", sizes)
    progress("explore: starting PostgreSQL")
    with bench_database() as url:
        measure("postgresql", url, sizes)
