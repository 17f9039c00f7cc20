"""Robustness suite: ``/api/health`` latency of ``howl serve`` while it is being abused.

One ``howl serve`` (SQLite, ``HOWL_BENCH_WORKERS`` x ``HOWL_BENCH_THREADS``, reviews off so
that the API has the cores) answers one client asking for its health, one request after the
other, first with nothing else going on (the baseline), then:

- ``health_p95_slow_bodies_ms``: while 4 connections trickle a declared 100 kB body, one byte
  every 0.2 s, two to ``/_dash-update-component`` and two to ``POST …/branches`` with a
  token (they would each hold one of the app's threads if the app read them);
- ``health_p95_cpu_uploads_ms``: while 4 clients upload at once, in a loop, the heaviest
  records at hand: the longest fixture game (5 players, 228 actions, a new title each time so
  that each is checked, stored and projected) and a 2 MB record whose ``players`` is a list
  of 10^6 zeros (which the record reader must reject at once).

Targets: p95 under 200 ms. ``ratio`` is against the baseline p95 of the same run.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path

from scripts.benchmarks.common import howl_serve, percentile, progress, report
from scripts.benchmarks.throwaway_pg import free_port

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ROOT / "tests" / "fixtures" / "the-wolves" / "5p-06-random.json"
WORKERS = int(os.environ.get("HOWL_BENCH_WORKERS", 2))
THREADS = int(os.environ.get("HOWL_BENCH_THREADS", 4))
TOKEN = "bench-token"
SECONDS = 8.0
"""How long each phase asks for health."""
TARGET_MS = 200


def serving(database: str) -> AbstractContextManager[int]:
    """``howl serve`` on ``database``; yields its port."""
    return howl_serve(free_port(), {
        "HOWL_DATABASE_URL": database, "HOWL_API_TOKENS": f"bench:{TOKEN}",
        "HOWL_WORKERS": str(WORKERS), "HOWL_THREADS": str(THREADS), "HOWL_ANALYSIS": "off",
    })  # fmt: skip


def request(port: int, method: str, path: str, body: bytes | None = None,
            timeout: float = 120) -> tuple[int, bytes]:  # fmt: skip
    """One request with the bench token on a new connection: status and body."""
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def health_latencies(port: int, seconds: float = SECONDS) -> list[float]:
    """Health asked one request after the other for ``seconds``: latencies in ms."""
    latencies = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        status, _ = request(port, "GET", "/api/health", timeout=60)
        latencies.append((time.perf_counter() - start) * 1000)
        assert status == 200, status
        time.sleep(0.01)
    return latencies


@contextmanager
def meanwhile(load: Callable[[threading.Event], None], clients: int = 4) -> Iterator[None]:
    """``clients`` threads running ``load(stop)`` until the block ends."""
    stop = threading.Event()
    threads = [threading.Thread(target=load, args=(stop,)) for _ in range(clients)]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def slow_bodies(port: int, game_id: str) -> Callable[[threading.Event], None]:
    """A client trickling a 100 kB body (to Dash and to branches, in turns)."""
    turn = iter(range(1_000_000))

    def load(stop: threading.Event) -> None:
        to_dash = next(turn) % 2 == 0
        path = "/_dash-update-component" if to_dash else f"/api/games/{game_id}/branches"
        auth = "" if to_dash else f"Authorization: Bearer {TOKEN}\r\n"
        head = (f"POST {path} HTTP/1.1\r\nHost: bench\r\n{auth}Content-Type: application/json"
                "\r\nContent-Length: 100000\r\n\r\n{").encode()  # fmt: skip
        while not stop.is_set():  # a body dropped after HOWL_BODY_SECONDS starts again
            with socket.create_connection(("127.0.0.1", port)) as sock, suppress(OSError):
                sock.sendall(head)
                while not stop.wait(0.2):
                    sock.sendall(b" ")

    return load


def cpu_uploads(port: int, counts: dict[str, int]) -> Callable[[threading.Event], None]:
    """A client uploading the heavy fixture (new title each time) and the 2 MB zeros record,
    in turns; ``counts`` gets the answers by status."""
    heavy = json.loads(HEAVY.read_bytes())
    zeros = {**heavy, "players": [0] * 1_000_000}
    bomb = json.dumps(zeros, separators=(",", ":")).encode()
    serial = iter(range(1_000_000))
    lock = threading.Lock()

    def load(stop: threading.Event) -> None:
        while not stop.is_set():
            with lock:
                n = next(serial)
            body = (json.dumps({**heavy, "meta": {**heavy["meta"], "title": f"bench {n}"}})
                    .encode() if n % 2 == 0 else bomb)  # fmt: skip
            status, _ = request(port, "POST", "/api/games", body)
            with lock:
                kind = "heavy" if n % 2 == 0 else "zeros"
                counts[f"{kind}_{status}"] = counts.get(f"{kind}_{status}", 0) + 1

    return load


def latency_report(metric: str, latencies: list[float], baseline: list[float],
                   **extra: object) -> None:  # fmt: skip
    p95, base = percentile(latencies, 95), percentile(baseline, 95)
    report("robustness", metric, p95, "ms", p50=round(percentile(latencies, 50), 3),
           max=round(max(latencies), 3), requests=len(latencies), target=TARGET_MS,
           baseline=round(base, 3), ratio=round(p95 / base, 3),
           baseline_metric="health_p95_idle_ms", **extra)  # fmt: skip


def run() -> None:
    """Measure and report the robustness metrics."""
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'howl.sqlite3'}"
        progress(f"robustness: howl serve ({WORKERS} workers x {THREADS} threads) on SQLite")
        with serving(database) as port:
            status, body = request(port, "POST", "/api/games", HEAVY.read_bytes())
            assert status in (200, 201), body
            game_id = json.loads(body)["game_id"]
            progress(f"robustness: health for {SECONDS:.0f} s, idle")
            baseline = health_latencies(port)
            report("robustness", "health_p95_idle_ms", percentile(baseline, 95), "ms",
                   p50=round(percentile(baseline, 50), 3), requests=len(baseline))  # fmt: skip
            progress("robustness: health while 4 slow bodies trickle")
            with meanwhile(slow_bodies(port, game_id)):
                time.sleep(0.5)
                slow = health_latencies(port)
            latency_report("health_p95_slow_bodies_ms", slow, baseline, slow_bodies=4)
            progress("robustness: health while 4 clients upload heavy records")
            counts: dict[str, int] = {}
            with meanwhile(cpu_uploads(port, counts)):
                time.sleep(0.5)
                busy = health_latencies(port)
            latency_report("health_p95_cpu_uploads_ms", busy, baseline, uploads=counts)
