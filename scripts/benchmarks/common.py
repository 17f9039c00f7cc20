"""Shared pieces of the benchmark suites: timing, medians, one JSON line per metric."""

from __future__ import annotations

import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path


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


def _play(players: tuple[int, ...], seed: int, kind: str, index: int) -> bytes:
    from api.commands.simulate import simulate_one

    return simulate_one(index, players[index % len(players)], seed, kind)[0]


def self_played(
    suite: str, games: int, players: tuple[int, ...], seed: int, kind: str = "random"
) -> list[Path]:
    """``games`` self-played records (player counts cycling through ``players``), played once
    on every CPU and then read from ``var/bench/`` (playing them takes minutes)."""
    from domain.wolves.components import RULES_VERSION

    counts = "".join(map(str, players))
    cache = Path("var/bench") / suite / f"{RULES_VERSION}-{kind}-{counts}p-{games}-{seed}"
    cache.mkdir(parents=True, exist_ok=True)
    files = sorted(cache.glob("*.json"))
    if len(files) < games:
        progress(f"{suite}: self-playing {games} {kind} games (cached in {cache})")
        play = partial(_play, players, seed, kind)
        with ProcessPoolExecutor(os.cpu_count() or 1) as pool:
            for i, data in enumerate(pool.map(play, range(games), chunksize=10)):
                (cache / f"{i:05d}.json").write_bytes(data)
        files = sorted(cache.glob("*.json"))
    return files[:games]


@contextmanager
def howl_serve(port: int, env: dict[str, str]) -> Iterator[int]:
    """``howl serve`` on ``port`` with the ``HOWL_…`` settings ``env`` (in its own session, so
    that a worker left behind can be killed); yields the port once its health answers."""
    howl = Path(sys.executable).with_name("howl")
    proc = subprocess.Popen([str(howl), "serve"], env={**os.environ, **env, "HOWL_PORT": str(port)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not _healthy(port):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("howl serve did not start")
            time.sleep(0.2)
        yield port
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _healthy(port: int) -> bool:
    with suppress(OSError):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", "/api/health")
            return conn.getresponse().status == 200
        finally:
            conn.close()
    return False
