"""Mixed suite: a club night's load on ``howl serve``, reads while others upload.

``scripts/bench mixed [--duration S] [--clients N,N] [--backends sqlite,postgresql]``
(defaults 30 s, 16 and 64 clients, both backends). One ``howl serve`` per backend (granian,
``HOWL_WORKERS`` and ``HOWL_THREADS`` as ``howl serve`` defaults them unless
``HOWL_BENCH_WORKERS``/``HOWL_BENCH_THREADS`` are set; reviews on, as a club's server runs)
holds the fixture games of The Wolves. For each client count, ``clients`` asyncio clients on
kept-alive connections (aiohttp, in this one process) send requests back to back for
``duration`` seconds, twice:

- reads only (the baseline, ``read_only_p95_ms``): game lists (with filters and sorts),
  summaries, states at a random step, timelines, pages of events, statistics, player pages,
  records and analyses, in equal parts;
- the mix (``mixed_read_p95_ms``, ``mixed_upload_p95_ms``): 85 % such reads and 15 %
  uploads, a tenth of them duplicates (a record stored before: 200) and the rest new records
  (a fixture game under a title of its own: checked, stored and projected, 201);
- then uploads only, of the same kinds (``upload_only_p95_ms``): what the server's upload
  path takes with no reads beside it.

``--soak S`` then runs the 16-client mix for ``S`` more seconds (300: the issue's five
minutes), reading the server's RSS every :data:`RSS_EVERY` seconds: ``server_rss_soak``
is the largest reading over the smallest once the first minute (the warm-up) is past, with
every reading (target 1.1: stable within 10 %). Before it, every answer of the stored games
that the reads can ask for (each state, timeline, record, page of events, summary and
analysis) is read :data:`WARM_PASSES` times over, so that each worker's cache of answers is
full (bounded, see ``services.bodies.BodyCache``): what grows after that is what the mix
adds, not a cache filling up.

``mixed_read_ratio`` is the mix's read p95 over the baseline's. An answer other than 200
(reads), 201 (new) or 200 (duplicate) is an error, and so is a connection that fails; both
are counted (``errors``, with their statuses). The server's RSS (the sum over its processes)
is measured before the baseline, after it (``warm``: its caches filled by the reads) and after
the mix (``server_rss_mb``, with its ratio to each).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from scripts.benchmarks.common import howl_serve, percentile, progress, report
from scripts.benchmarks.throwaway_pg import bench_database, free_port

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "the-wolves"
TOKEN = "bench-token"
UPLOAD_SHARE = 0.15
DUPLICATE_SHARE = 0.10
"""Of the uploads, how many send a record already stored."""
READ_TARGET_MS = 50
UPLOAD_TARGET_MS = 300
RATIO_TARGET = 2
RSS_EVERY = 10.0
"""Seconds between two readings of the server's memory while it soaks."""
SOAK_WARM_UP = 60.0
"""Seconds of the soak before its memory readings count."""
WARM_PASSES = 4
"""How many times the soak first reads each answer of the stored games (each time from a
worker drawn by the connection it goes on: four passes leave a worker without a given
answer one time in 16)."""
RSS_TARGET = 1.1
GZIP = {"Accept-Encoding": "gzip"}
UPLOAD_HEADERS = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


@dataclass(frozen=True)
class Stored:
    """A game the server holds: its id, its steps and its players' names."""

    game_id: str
    steps: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class Workload:
    """What clients ask for: the games stored, records to upload anew, records stored."""

    games: list[Stored]
    records: list[dict[str, object]]
    duplicates: list[bytes]


@dataclass
class Phase:
    """What one phase's clients saw: latencies (ms) by kind of request, and the errors."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, kind: str, ms: float) -> None:
        self.latencies.setdefault(kind, []).append(ms)

    def of(self, upload: bool) -> list[float]:
        """Every read's latency, or every upload's."""
        return [ms for k, v in self.latencies.items() if k.startswith("upload") == upload
                for ms in v]  # fmt: skip


Read = Callable[[random.Random, list[Stored]], str]
FILTERS = ("", "?players=2", "?players=3&sort=-top_score", "?sort=title&limit=20",
           "?terrain=forest", "?winner=Ana", "?sort=actions&limit=100", "?player=Bo")  # fmt: skip
EVENT_PAGES = range(0, 400, 50)
"""Where the pages of events the reads ask for start."""
STATS_FILTERS = ("", "?players=2", "?game=the-wolves", "?players=4")
READS: dict[str, Read] = {
    "list": lambda rng, games: f"/api/games{rng.choice(FILTERS)}",
    "summary": lambda rng, games: f"/api/games/{rng.choice(games).game_id}",
    "state": lambda rng, games: (
        lambda g: f"/api/games/{g.game_id}/states/{rng.randint(0, g.steps)}"
    )(rng.choice(games)),
    "timeline": lambda rng, games: f"/api/games/{rng.choice(games).game_id}/timeline",
    "events": lambda rng, games: (
        f"/api/games/{rng.choice(games).game_id}/events?from={rng.choice(EVENT_PAGES)}&limit=100"
    ),
    "statistics": lambda rng, games: f"/api/stats{rng.choice(STATS_FILTERS)}",
    "player": lambda rng, games: f"/api/players/{rng.choice(rng.choice(games).players)}",
    "record": lambda rng, games: f"/api/games/{rng.choice(games).game_id}/record",
    "analysis": lambda rng, games: f"/api/games/{rng.choice(games).game_id}/analysis",
}  # fmt: skip
"""The nine kinds of read, each a path for a random game (or filter)."""


def fixture_records() -> list[dict[str, object]]:
    """The fixture games of The Wolves, parsed."""
    paths = sorted(p for p in FIXTURES.glob("*.json") if ".expected" not in p.name)
    return [json.loads(p.read_bytes()) for p in paths]


def retitled(record: dict[str, object], title: str) -> bytes:
    """``record`` under another ``meta.title``: a new game with the same actions."""
    meta = dict(record.get("meta") or {})  # type: ignore[call-overload]
    return json.dumps({**record, "meta": {**meta, "title": title}}).encode()


def server_rss_mb(port: int) -> float:
    """The resident memory of the processes listening on ``port`` and their descendants."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":
                inodes.add(fields[9])
    parents: dict[int, int] = {}
    roots: set[int] = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            parents[int(proc.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd).removeprefix("socket:[").rstrip("]") in inodes:
                    roots.add(int(proc.name))
                    break
        except OSError:
            continue
    tree = set(roots)
    while grown := {p for p, parent in parents.items() if parent in tree} - tree:
        tree |= grown
    kb = 0
    for pid in tree:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        kb += next((int(line.split()[1]) for line in status.splitlines()
                    if line.startswith("VmRSS:")), 0)  # fmt: skip
    return kb / 1024


async def _client(
    session: aiohttp.ClientSession, base: str, work: Workload, upload_share: float,
    deadline: float, seed: int, phase: Phase,
) -> None:  # fmt: skip
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        if rng.random() < upload_share:
            duplicate = rng.random() < DUPLICATE_SHARE
            kind, expect = ("upload_duplicate", 200) if duplicate else ("upload_new", 201)
            body = rng.choice(work.duplicates) if duplicate else retitled(
                rng.choice(work.records), f"Club night {uuid.uuid4().hex[:12]}")  # fmt: skip
            method, path, data, headers = "POST", "/api/games?tags=club", body, UPLOAD_HEADERS
        else:
            kind, expect = rng.choice(tuple(READS)), 200
            method, path, data, headers = "GET", READS[kind](rng, work.games), None, GZIP
        start = time.perf_counter()
        try:
            async with session.request(method, base + path, data=data, headers=headers) as answer:
                await answer.read()
                status = answer.status
        except (aiohttp.ClientError, TimeoutError) as exc:
            status, error = 0, type(exc).__name__
        else:
            error = f"{kind} {status}"
        phase.add(kind, (time.perf_counter() - start) * 1000)
        if status != expect:
            phase.errors[error] += 1


async def _load(port: int, work: Workload, clients: int, seconds: float,
                upload_share: float) -> Phase:  # fmt: skip
    phase = Phase()
    connector = aiohttp.TCPConnector(limit=clients)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        start = time.monotonic()
        deadline = start + seconds
        await asyncio.gather(*(
            _client(session, f"http://127.0.0.1:{port}", work, upload_share, deadline, i, phase)
            for i in range(clients)
        ))  # fmt: skip
        phase.seconds = time.monotonic() - start
    return phase


def load(port: int, work: Workload, clients: int, seconds: float, upload_share: float) -> Phase:
    """``clients`` clients for ``seconds``, uploading ``upload_share`` of their requests."""
    return asyncio.run(_load(port, work, clients, seconds, upload_share))


def seed_games(port: int, records: list[dict[str, object]]) -> Workload:
    """Upload the fixture games (their bytes are the duplicates later)."""

    async def seed() -> Workload:
        bodies = [json.dumps(r).encode() for r in records]
        games = []
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as session:
            for record, body in zip(records, bodies, strict=True):
                async with session.post("/api/games", data=body, headers=UPLOAD_HEADERS) as answer:
                    summary = await answer.json()
                    if answer.status not in (200, 201):
                        raise RuntimeError(f"seeding failed: {answer.status} {summary}")
                names = tuple(p["name"] for p in record["players"])  # type: ignore[attr-defined]
                games.append(Stored(summary["game_id"], len(record["actions"]), names))  # type: ignore[arg-type]
        return Workload(games, records, bodies)

    return asyncio.run(seed())


def phase_report(name: str, phase: Phase, upload: bool, clients: int, backend: str,
                 **extra: object) -> float:  # fmt: skip
    """Report one phase's reads (or uploads); answer their p95 (ms)."""
    ms = phase.of(upload)
    p95 = percentile(ms, 95) if ms else 0.0
    kinds = {k: round(percentile(v, 95), 1) for k, v in sorted(phase.latencies.items())
             if k.startswith("upload") == upload}  # fmt: skip
    report("mixed", name, p95, "ms", p50=round(percentile(ms, 50), 2) if ms else 0,
           p99=round(percentile(ms, 99), 2) if ms else 0, requests=len(ms),
           requests_per_s=round(len(ms) / phase.seconds, 1), clients=clients, backend=backend,
           errors=sum(phase.errors.values()), p95_by_kind=kinds, **extra)  # fmt: skip
    return p95


def game_paths(games: list[Stored]) -> list[str]:
    """Every answer of ``games`` that :data:`READS` can ask for."""
    paths = []
    for game in games:
        at = f"/api/games/{game.game_id}"
        paths += [at, f"{at}/timeline", f"{at}/record", f"{at}/analysis"]
        paths += [f"{at}/states/{step}" for step in range(game.steps + 1)]
        paths += [f"{at}/events?from={start}&limit=100" for start in EVENT_PAGES]
    return paths


def read_all(port: int, paths: list[str], clients: int = 16) -> None:
    """GET each of ``paths`` once, gzip-coded, from ``clients`` clients."""

    async def reads() -> None:
        todo = iter(paths)  # shared by the clients, each taking the next path
        base, connector = f"http://127.0.0.1:{port}", aiohttp.TCPConnector(limit=clients)
        async with aiohttp.ClientSession(base, connector=connector) as session:

            async def client() -> None:
                for path in todo:
                    async with session.get(path, headers=GZIP) as answer:
                        await answer.read()

            await asyncio.gather(*(client() for _ in range(clients)))

    asyncio.run(reads())


def soak(port: int, work: Workload, seconds: float, backend: str) -> None:
    """The 16-client mix for ``seconds``, the server's memory read as it goes, once every
    answer of the stored games was read :data:`WARM_PASSES` times."""
    paths = game_paths(work.games)
    progress(f"mixed: {backend}: reading {len(paths)} answers {WARM_PASSES} times (warm-up)")
    read_all(port, random.Random(0).sample(paths * WARM_PASSES, len(paths) * WARM_PASSES))
    progress(f"mixed: {backend}: 16 clients, {seconds:g} s of the mix, memory read as it goes")
    readings: list[tuple[float, float]] = []
    done = threading.Event()

    def read_memory() -> None:
        start = time.monotonic()
        while not done.wait(RSS_EVERY):
            readings.append((round(time.monotonic() - start), round(server_rss_mb(port), 1)))

    reader = threading.Thread(target=read_memory)
    reader.start()
    try:
        phase = load(port, work, 16, seconds, UPLOAD_SHARE)
    finally:
        done.set()
        reader.join()
    warm = [mb for at, mb in readings if at >= SOAK_WARM_UP] or [mb for _, mb in readings]
    report("mixed", "server_rss_soak", max(warm) / min(warm), "x", target=RSS_TARGET,
           clients=16, backend=backend, seconds=round(seconds), warm_up_s=SOAK_WARM_UP,
           readings_mb=readings, requests=sum(len(v) for v in phase.latencies.values()),
           errors=sum(phase.errors.values()))  # fmt: skip


def measure(
    backend: str, url: str, clients_list: list[int], seconds: float, soaked: float = 0.0
) -> None:
    """The suite on one store (``url``)."""
    records = fixture_records()
    env = {"HOWL_DATABASE_URL": url, "HOWL_API_TOKENS": f"bench:{TOKEN}"}
    for name in ("WORKERS", "THREADS"):
        if value := os.environ.get(f"HOWL_BENCH_{name}"):
            env[f"HOWL_{name}"] = value
    progress(f"mixed: {backend}: starting howl serve")
    with howl_serve(free_port(), env) as port:
        progress(f"mixed: {backend}: uploading {len(records)} fixture games")
        work = seed_games(port, records)
        progress(f"mixed: {backend}: warming up (reads only, 5 s)")
        load(port, work, 16, 5, 0.0)
        for clients in clients_list:
            rss_before = server_rss_mb(port)
            progress(f"mixed: {backend}: {clients} clients, {seconds:g} s of reads only")
            alone = load(port, work, clients, seconds, 0.0)
            rss_warm = server_rss_mb(port)
            progress(f"mixed: {backend}: {clients} clients, {seconds:g} s of the mix")
            mixed = load(port, work, clients, seconds, UPLOAD_SHARE)
            rss_after = server_rss_mb(port)
            progress(f"mixed: {backend}: {clients} clients, {seconds:g} s of uploads only")
            uploads = load(port, work, clients, seconds, 1.0)
            for errors in (alone.errors, mixed.errors, uploads.errors):
                if errors:
                    progress(f"mixed: {backend}: {clients} clients: errors {dict(errors)}")
            base = phase_report("read_only_p95_ms", alone, False, clients, backend)
            read = phase_report("mixed_read_p95_ms", mixed, False, clients, backend,
                                target=READ_TARGET_MS)  # fmt: skip
            phase_report("mixed_upload_p95_ms", mixed, True, clients, backend,
                         target=UPLOAD_TARGET_MS, errors_by_kind=dict(mixed.errors))  # fmt: skip
            phase_report("upload_only_p95_ms", uploads, True, clients, backend,
                         errors_by_kind=dict(uploads.errors))  # fmt: skip
            report("mixed", "mixed_read_ratio", read / base, "x", clients=clients,
                   backend=backend, baseline=round(base, 3), baseline_metric="read_only_p95_ms",
                   target=RATIO_TARGET)  # fmt: skip
            report("mixed", "server_rss_mb", rss_after, "MB", before=round(rss_before, 1),
                   ratio=round(rss_after / rss_before, 3), warm=round(rss_warm, 1),
                   ratio_to_warm=round(rss_after / rss_warm, 3), clients=clients,
                   backend=backend, seconds=round(2 * seconds))  # fmt: skip
        if soaked:
            soak(port, work, soaked, backend)


@contextmanager
def store(backend: str) -> Iterator[str]:
    """A new, empty store of ``backend``: its URL."""
    if backend == "postgresql":
        with bench_database() as url:
            yield url
    else:
        with tempfile.TemporaryDirectory(prefix="howl-bench-mixed.") as folder:
            yield f"sqlite:///{folder}/howl.sqlite3"


def options(argv: list[str]) -> argparse.Namespace:
    """The suite's options (``scripts/bench mixed --help``)."""
    parser = argparse.ArgumentParser(prog="scripts/bench mixed", description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=30, help="seconds of each phase (30)")
    parser.add_argument("--clients", default="16,64", help="client counts, comma-separated")
    parser.add_argument("--backends", default="sqlite,postgresql",
                        help="stores, comma-separated (sqlite, postgresql)")  # fmt: skip
    parser.add_argument("--soak", type=float, default=0,
                        help="seconds of a 16-client mix, its memory read (0: none)")  # fmt: skip
    return parser.parse_args(argv)


def run(argv: list[str] | None = None) -> None:
    """Measure and report the mixed load's metrics."""
    args = options(argv or [])
    clients = [int(c) for c in args.clients.split(",")]
    for backend in args.backends.split(","):
        if backend not in ("sqlite", "postgresql"):
            raise SystemExit(f"unknown backend {backend!r}: sqlite or postgresql")
        with store(backend) as url:
            measure(backend, url, clients, args.duration, args.soak)
