"""API suite: ``howl serve`` on PostgreSQL under 16 concurrent clients (issue: HTTP API).

Uploads the fixture games (reviewed meanwhile by ``howl serve``'s analysis process, at a
lower CPU priority), then replays random steps (``GET /states/{step}``) and timelines
(accepting gzip, as browsers do; timelines also without). Every game is first read once per
worker, most likely (warm caches: a game never changes). PostgreSQL: ``HOWL_BENCH_PG_URL``,
else a throwaway cluster; ``HOWL_BENCH_WORKERS`` and ``HOWL_BENCH_THREADS`` size the server.

Two load generators share the cores with the server:

- ``*_wrk_p95_ms``, the headline where ``wrk`` is installed: wrk's 16 connections (C,
  cheap on the cores) for 10 s over every step of every game, so mostly repeat requests,
  which each worker answers from its cache.
- ``states_p95_ms``, ``timeline*_p95_ms``: 16 Python threads in one process, whose
  latencies include waiting for their own GIL; the baseline, ``not_modified_p95_ms``, is
  the states answered 304 from ``If-None-Match``, which cost the server microseconds. Their
  random states are mostly first requests, which the server renders.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from scripts.benchmarks.common import howl_serve, percentile, progress, report
from scripts.benchmarks.throwaway_pg import bench_database, free_port

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "the-wolves"
CLIENTS = 16
WORKERS = int(os.environ.get("HOWL_BENCH_WORKERS", 2))
THREADS = int(os.environ.get("HOWL_BENCH_THREADS", 8))
REQUESTS = 150
"""Requests per client in each read phase."""
TOKEN = "bench-token"
GZIP = {"Accept-Encoding": "gzip"}
"""What browsers and most HTTP clients send; read requests ask for it too."""

Request = tuple[str, str, bytes | None, dict[str, str]]


def serving(url: str) -> AbstractContextManager[int]:
    """``howl serve`` (granian, ``WORKERS`` × ``THREADS``) on ``url``; yields its port."""
    return howl_serve(free_port(), {
        "HOWL_DATABASE_URL": url, "HOWL_API_TOKENS": f"bench:{TOKEN}",
        "HOWL_WORKERS": str(WORKERS), "HOWL_THREADS": str(THREADS),
    })  # fmt: skip


def call(port: int, request: Request, conn: http.client.HTTPConnection | None = None) -> tuple[
    int, bytes, dict[str, str]
]:  # fmt: skip
    """One request (on ``conn`` if given, else a new connection): status, body, headers (their
    names in lower case: HTTP names are case-insensitive and servers differ)."""
    own = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    method, path, body, headers = request
    try:
        own.request(method, path, body=body, headers=headers)
        reply = own.getresponse()
        return reply.status, reply.read(), {k.lower(): v for k, v in reply.getheaders()}
    except (ConnectionError, OSError):
        return 0, b"", {}
    finally:
        if conn is None:
            own.close()


def hammer(
    port: int,
    make: Callable[[random.Random], Request],
    per_client: int,
    seed: int = 0,
    expect: tuple[int, ...] = (200, 201, 304),
) -> tuple[list[float], float, int]:
    """``CLIENTS`` threads, each sending ``per_client`` requests on a kept-alive connection:
    latencies (ms), wall time (s) and the count of answers whose status is not in ``expect``."""
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()

    def client(seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        mine, bad = [], 0
        for _ in range(per_client):
            request = make(rng)
            start = time.perf_counter()
            status, _, _ = call(port, request, conn)
            mine.append((time.perf_counter() - start) * 1000)
            if status not in expect:
                bad += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.close()
        with lock:
            latencies.extend(mine)
            failures[0] += bad

    threads = [threading.Thread(target=client, args=(seed + i,)) for i in range(CLIENTS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, time.perf_counter() - start, failures[0]


def upload_all(port: int, records: list[bytes]) -> tuple[list[str], float, int]:
    """Upload ``records`` from ``CLIENTS`` threads: game ids, wall time, failures."""
    queue = list(enumerate(records))
    ids: dict[int, str] = {}
    lock = threading.Lock()
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}

    def make(_: random.Random) -> Request:
        with lock:
            index, body = queue.pop() if queue else (-1, b"")
        return "POST", f"/api/games?tags=bench&i={index}", body, headers

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        while True:
            method, path, body, sent = make(random.Random())
            if not body:
                break
            status, reply, _ = call(port, (method, path, body, sent), conn)
            if status in (200, 201):
                with lock:
                    ids[int(path.rsplit("=", 1)[1])] = json.loads(reply)["game_id"]
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [ids[i] for i in sorted(ids)], time.perf_counter() - start, len(records) - len(ids)


def latency_report(metric: str, latencies: list[float], wall: float, failures: int,
                   **extra: object) -> None:  # fmt: skip
    report(
        "api", f"{metric}_p95_ms", percentile(latencies, 95), "ms",
        p50=round(percentile(latencies, 50), 3), requests=len(latencies), clients=CLIENTS,
        failures=failures, load_generator="python threads", **extra,
    )  # fmt: skip
    report("api", f"{metric}_requests_per_s", len(latencies) / wall, "1/s", clients=CLIENTS)


def run() -> None:
    """Measure and report the API metrics."""
    records = [p.read_bytes() for p in sorted(FIXTURES.glob("*.json")) if ".expected" not in p.name]
    steps = [len(json.loads(r)["actions"]) for r in records]
    progress(f"api: starting PostgreSQL and howl serve ({WORKERS} workers x {THREADS} threads)")
    with bench_database() as url, serving(url) as port:
        progress(f"api: uploading {len(records)} fixture games from {CLIENTS} clients")
        ids, wall, failed = upload_all(port, records)
        report("api", "upload_games_per_s", len(ids) / wall, "1/s", clients=CLIENTS,
               games=len(ids), actions=sum(steps), failures=failed)  # fmt: skip
        games = list(zip(ids, steps, strict=True))
        progress("api: warming up (every game folded in every worker, most likely)")
        for game_id, last in games:
            for step in range(min(last, 4 * WORKERS) + 1):  # new connections: any worker
                call(port, ("GET", f"/api/games/{game_id}/states/{step}", None, GZIP))
                call(port, ("GET", f"/api/games/{game_id}/timeline", None, GZIP))

        def state(rng: random.Random) -> Request:
            game_id, last = rng.choice(games)
            return "GET", f"/api/games/{game_id}/states/{rng.randint(0, last)}", None, GZIP

        progress(f"api: {CLIENTS} clients x {REQUESTS} random states")
        lat, wall, bad = hammer(port, state, REQUESTS)
        revalidate = not_modified(port, games)
        base_lat, base_wall, base_bad = hammer(port, revalidate, REQUESTS, 1000, expect=(304,))
        latency_report("states", lat, wall, bad, target=25,
                       baseline=round(percentile(base_lat, 95), 3),
                       ratio=round(percentile(lat, 95) / percentile(base_lat, 95), 3),
                       baseline_metric="not_modified_p95_ms")  # fmt: skip
        report("api", "not_modified_p95_ms", percentile(base_lat, 95), "ms",
               p50=round(percentile(base_lat, 50), 3), failures=base_bad,
               requests_per_s=round(len(base_lat) / base_wall))  # fmt: skip

        def timeline(rng: random.Random) -> Request:
            return "GET", f"/api/games/{rng.choice(games)[0]}/timeline", None, GZIP

        def plain_timeline(rng: random.Random) -> Request:
            return "GET", f"/api/games/{rng.choice(games)[0]}/timeline", None, {}

        if shutil.which("wrk"):
            progress(f"api: wrk, {CLIENTS} connections, random states and timelines")
            for name, paths in (
                ("states", [f"/api/games/{g}/states/{s}" for g, last in games
                            for s in range(last + 1)]),
                ("timeline", [f"/api/games/{g}/timeline" for g, _ in games]),
            ):  # fmt: skip
                wrk_report(name, port, paths)
        progress(f"api: {CLIENTS} clients x {REQUESTS} random timelines, gzip and not")
        lat, wall, bad = hammer(port, timeline, REQUESTS)
        latency_report("timeline", lat, wall, bad, target=25)
        lat, wall, bad = hammer(port, plain_timeline, REQUESTS)
        latency_report("timeline_identity", lat, wall, bad)


WRK_SCRIPT = """
local paths = {%s}
math.randomseed(7)
request = function()
  return wrk.format("GET", paths[math.random(#paths)], {["Accept-Encoding"] = "gzip"})
end
done = function(summary, latency, requests)
  io.write(string.format("WRK %%f %%f %%d %%d\\n", latency:percentile(50) / 1000,
    latency:percentile(95) / 1000, summary.requests,
    summary.errors.status + summary.errors.connect + summary.errors.timeout))
end
"""


def wrk_report(name: str, port: int, paths: list[str], seconds: int = 10) -> None:
    """Latency measured by wrk (a C load generator: the clients cost the cores little)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(WRK_SCRIPT % ", ".join(f'"{p}"' for p in paths))
        script.flush()
        out = subprocess.run(
            ["wrk", "-t2", f"-c{CLIENTS}", f"-d{seconds}s", "-s", script.name,
             f"http://127.0.0.1:{port}/"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    p50, p95, requests, errors = next(
        line.split()[1:] for line in out.splitlines() if line.startswith("WRK ")
    )
    report("api", f"{name}_wrk_p95_ms", float(p95), "ms", p50=round(float(p50), 3),
           requests_per_s=round(int(requests) / seconds), failures=int(errors),
           clients=CLIENTS, target=25, load_generator="wrk")  # fmt: skip


def not_modified(port: int, games: list[tuple[str, int]]) -> Callable[[random.Random], Request]:
    """Random states sent with the ``If-None-Match`` of their answer (all fetched first, before
    any timing): each should answer 304."""
    etags = {}
    for game_id, last in games:
        for step in range(last + 1):
            path = f"/api/games/{game_id}/states/{step}"
            etags[path] = call(port, ("GET", path, None, GZIP))[2].get("etag", "")

    def make(rng: random.Random) -> Request:
        game_id, last = rng.choice(games)
        path = f"/api/games/{game_id}/states/{rng.randint(0, last)}"
        return "GET", path, None, {**GZIP, "If-None-Match": etags[path]}

    return make
