"""Tables suite: live tables on a real ``howl serve`` (the api suite's: granian, ``WORKERS`` ×
``THREADS``), on SQLite and on PostgreSQL (``HOWL_BENCH_PG_URL``, else a throwaway cluster).
Each metric's name ends in its backend; a latency's value is its p95.

- ``table_action_roundtrip_ms``: a fixture game's actions POSTed in order, each with the
  table's version, one at a time (one watcher listening); the baseline is a GET of the same
  table after each action.
- ``table_sse_delivery_ms``: from the POST's send to that watcher's receipt of the table's
  new version on ``/stream`` (the stream polls the table's version every 100 ms).
- ``tables_load_*``: 50 tables, 2 streams each, one writer per table entering the next
  action of a fixture game every 2 s (staggered: a steady offered load of 25 actions/s, not
  as fast as possible) for 30 s: the actions' rate, round trip and delivery to every
  watcher, the server's RSS (all its processes, peak) and CPU (against the same streams
  left idle for 5 s first; on PostgreSQL also its backends'), and the streams refused (503:
  a process serves 200 at most) or ended early.
- ``table_click_highlight_ms``, ``table_action_render_ms`` (SQLite only, as the dashboard
  suite): the table page in Chromium entering a fixture game by clicking, as its tests do:
  from the click on a wolf (Move pressed) to the first frame showing its destinations, and
  from the click that sends an action to the first frame of the map at the new version.
  ``page_p95`` is the page's own timing of the same (``window.howlTableTimes``).

The clients are one asyncio loop in this process over plain HTTP/1.1 connections (the
project depends on no asynchronous HTTP client), so a hundred open streams cost one thread.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Page, sync_playwright

from scripts.benchmarks.api import TOKEN, call, serving
from scripts.benchmarks.common import percentile, progress, report
from scripts.benchmarks.throwaway_pg import bench_database

T = TypeVar("T")

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "the-wolves"
LONGEST = "5p-06-random"
"""The fixture game of the round trips (265 actions)."""
WRITE = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
POLL_S = 0.1
"""How often a stream reads its table's version (``services.tables.POLL_SECONDS``)."""
SEED = 17
GROWTH = 50
"""The round trips' p50 is also given over the first and the last this many actions (a
table's stream is read whole on every request: longer tables cost more)."""
SETTLE_S = 1.0
"""How long the watchers may take to receive the last writes of the load."""
STARTUP_S = 60.0
"""How long the load's streams may take to answer and send their first message."""
FIRST_LOAD_MS = 60_000
"""How long a fresh server's first page may take to draw (its first requests build the
dashboard's pages and open the store)."""


@dataclass(frozen=True)
class Sizes:
    """How much the suite does (the test runs it small)."""

    actions: int = 265
    """Round trips, from the longest fixture game (at most its actions)."""
    tables: int = 50
    watchers: int = 2
    """Streams per table under load."""
    pace: float = 2.0
    """Seconds between one writer's actions."""
    seconds: float = 30.0
    idle: float = 5.0
    """Seconds the load's streams are left idle first (the CPU's baseline)."""
    clicked: int = 52
    """Actions entered by clicking on the table page (at most its fixture game's)."""
    opened_with: int = 0
    """Actions of the page's game entered with its opening record, before the clicks."""


FULL = Sizes()


def fixture(name: str, entered: int = 0) -> tuple[bytes, list[dict[str, Any]]]:
    """A fixture record with its first ``entered`` actions only (a table's opening body), and
    the actions after those."""
    doc = json.loads((FIXTURES / f"{name}.json").read_bytes())
    actions, doc["actions"] = doc["actions"][entered:], doc["actions"][:entered]
    return json.dumps(doc).encode(), actions


class Http:
    """One kept-alive HTTP/1.1 connection to ``howl serve``, one request at a time."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Http:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def send(self, method: str, path: str, body: bytes | None = None,
                   headers: dict[str, str] | None = None) -> None:  # fmt: skip
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        await self.writer.drain()

    async def line(self) -> bytes:
        """The next line; ``ConnectionError`` at the end of the connection."""
        line = await self.reader.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        return line

    async def head(self) -> tuple[int, dict[str, str]]:
        """The answer's status and headers (their names in lower case)."""
        status = await self.line()
        headers = {}
        while (line := await self.line()).strip():
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        return int(status.split()[1]), headers

    async def chunks(self, headers: dict[str, str]) -> AsyncIterator[bytes]:
        """The answer's body as it arrives (chunked, of a known length, or to the end)."""
        if headers.get("transfer-encoding", "").lower() == "chunked":
            while size := int((await self.line()).split(b";")[0], 16):
                yield (await self.reader.readexactly(size + 2))[:-2]
            while (await self.line()).strip():  # trailers
                pass
        elif "content-length" in headers:
            yield await self.reader.readexactly(int(headers["content-length"]))
        else:
            while data := await self.reader.read(65536):
                yield data

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: dict[str, str] | None = None) -> tuple[int, bytes]:  # fmt: skip
        """Status and whole body."""
        await self.send(method, path, body, headers)
        status, got = await self.head()
        return status, b"".join([chunk async for chunk in self.chunks(got)])

    async def close(self) -> None:
        self.writer.close()
        with suppress(OSError):
            await self.writer.wait_closed()


@dataclass
class Watcher:
    """One client of a table's ``/stream``: the versions it received and when."""

    status: int = 0
    received: list[tuple[int, float]] = field(default_factory=list)
    ended: bool = False
    """The server ended the stream (or the connection) before the watcher left."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def listen(self, port: int, table_id: str) -> None:
        """Receive the table's messages until cancelled."""
        http = await Http.open(port)
        try:
            await http.send("GET", f"/api/tables/{table_id}/stream")
            self.status, headers = await http.head()
            if self.status != 200:
                return
            buffer = b""
            async for chunk in http.chunks(headers):
                buffer += chunk
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    fields = dict(line.partition(b": ")[::2] for line in message.split(b"\n"))
                    if fields.get(b"event") == b"table":
                        self.received.append((int(fields[b"id"]), time.perf_counter()))
                        self.changed.set()
            self.ended = True
        except (ConnectionError, asyncio.IncompleteReadError):
            self.ended = True
        finally:
            await http.close()

    def at(self, version: int) -> float | None:
        """When this watcher received ``version`` or a later one (None: not yet)."""
        return next((at for got, at in self.received if got >= version), None)

    async def until(self, version: int) -> float:
        """When this watcher received ``version`` or a later one, once it has."""
        while (at := self.at(version)) is None:
            self.changed.clear()
            await self.changed.wait()
        return at

    def settled(self) -> bool:
        """Refused, ended, or received the table once."""
        return self.ended or self.status not in (0, 200) or bool(self.received)


@dataclass
class Table:
    """A table one writer enters actions on over its own connection: its version, and each
    action accepted as (new version, send time, round trip in ms)."""

    http: Http
    table_id: str
    version: int
    done: list[tuple[int, float, float]] = field(default_factory=list)
    failures: int = 0

    @classmethod
    async def open(cls, port: int, body: bytes) -> Table:
        http = await Http.open(port)
        status, reply = await http.request("POST", "/api/tables", body, WRITE)
        if status != 201:
            raise RuntimeError(f"opening a table: {status} {reply[:300]!r}")
        doc = json.loads(reply)
        return cls(http, doc["table_id"], doc["version"])

    async def enter(self, action: dict[str, Any]) -> bool:
        """POST one action against the table's version; whether it was accepted (201)."""
        body = json.dumps({"action": action, "version": self.version}).encode()
        path = f"/api/tables/{self.table_id}/actions"
        sent = time.perf_counter()
        status, reply = await self.http.request("POST", path, body, WRITE)
        took = (time.perf_counter() - sent) * 1000
        if status != 201:
            self.failures += 1
            return False
        self.version = json.loads(reply)["version"]
        self.done.append((self.version, sent, took))
        return True

    def watch(self, port: int, count: int) -> tuple[list[Watcher], list[asyncio.Task[None]]]:
        """``count`` watchers of the table's stream, and their listening."""
        watchers = [Watcher() for _ in range(count)]
        return watchers, [asyncio.create_task(w.listen(port, self.table_id)) for w in watchers]

    def delivered(self, watcher: Watcher) -> tuple[list[float], int]:
        """Milliseconds from each action's send to the watcher's receipt, and the missed."""
        times = [(at - sent) * 1000 for version, sent, _ in self.done
                 if (at := watcher.at(version)) is not None]  # fmt: skip
        return times, len(self.done) - len(times)

    async def leave(self, listening: list[asyncio.Task[None]]) -> None:
        """Stop watching, take the last action back, close. (A stream whose client left
        ends at its next message: the undo's, rather than the keep-alive 15 s later.)"""
        for task in listening:
            task.cancel()
        await asyncio.gather(*listening, return_exceptions=True)
        if self.done:
            body = json.dumps({"version": self.version}).encode()
            await self.http.request("POST", f"/api/tables/{self.table_id}/undo", body, WRITE)
        await self.http.close()


@dataclass
class Trips:
    """The round trips' measures, in ms."""

    writes: list[float]
    reads: list[float]
    """GETs of the table, one after each action (the baseline)."""
    deliveries: list[float]
    failures: int


async def roundtrips(port: int, sizes: Sizes) -> Trips:
    """One table, one watcher: each action is sent at a random moment of the stream's poll
    (a pause of up to ``POLL_S`` first) once the watcher has received the one before."""
    body, actions = fixture(LONGEST)
    table = await Table.open(port, body)
    (watcher,), listening = table.watch(port, 1)
    await asyncio.wait_for(watcher.until(table.version), STARTUP_S)
    trips, rng = Trips([], [], [], 0), random.Random(SEED)
    try:
        for action in actions[: sizes.actions]:
            await asyncio.sleep(rng.uniform(0, POLL_S))
            if not await table.enter(action):
                break
            await asyncio.wait_for(watcher.until(table.version), STARTUP_S)
            started = time.perf_counter()
            status, _ = await table.http.request("GET", f"/api/tables/{table.table_id}")
            trips.reads.append((time.perf_counter() - started) * 1000)
            trips.failures += status != 200
    finally:
        await table.leave(listening)
    trips.writes = [took for _, _, took in table.done]
    trips.deliveries = table.delivered(watcher)[0]
    trips.failures += table.failures
    return trips


def _pids(file: str, *marks: bytes) -> list[int]:
    """The processes whose ``/proc/PID/<file>`` holds every one of ``marks``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError):
                text = (entry / file).read_bytes()
                if all(mark in text for mark in marks):
                    found.append(int(entry.name))
    return found


def server_pids(port: int) -> list[int]:
    """The processes of the ``howl serve`` on ``port`` (they inherit its ``HOWL_PORT``)."""
    return _pids("environ", f"HOWL_PORT={port}\0".encode())


def database_pids(url: str) -> list[int]:
    """The PostgreSQL backends connected to ``url``'s database (none for SQLite)."""
    if not url.startswith("postgresql"):
        return []
    return _pids("cmdline", b"postgres: ", f" {urlsplit(url).path.lstrip('/')} ".encode())


def cpu_times(pids: list[int]) -> dict[int, float]:
    """Each process's user and system CPU seconds so far."""
    times = {}
    for pid in pids:
        with suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            times[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return times


def cpu_since(before: dict[int, float], pids: list[int]) -> float:
    """CPU seconds the processes used since ``before`` (a process new since: all of its)."""
    return sum(t - before.get(pid, 0.0) for pid, t in cpu_times(pids).items())


def rss_mb(pids: list[int]) -> float:
    """The processes' resident memory, summed (shared pages count once per process)."""
    pages = 0
    for pid in pids:
        with suppress(OSError):
            pages += int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@dataclass
class Load:
    """The load's measures."""

    writes: list[float]
    """Round trips (ms) of the actions sent within the load's seconds."""
    failures: int
    deliveries: list[float]
    missed: int
    """Actions a watcher had not received when the load ended (1 s after the last write)."""
    cpu: float
    idle_cpu: float
    database_cpu: float
    """PostgreSQL's backends serving the server, in % of a core, as ``cpu`` (0 on SQLite)."""
    idle_database_cpu: float
    client_cpu: float
    rss: list[float]
    processes: int
    refused: int
    ended: int


async def load(port: int, url: str, sizes: Sizes) -> Load:
    """Tables opened and watched, left idle, then written at a steady pace."""
    games = sorted(p.stem for p in FIXTURES.glob("*.json") if ".expected" not in p.name)
    plays = [fixture(games[i % len(games)]) for i in range(sizes.tables)]
    tables = await asyncio.gather(*(Table.open(port, body) for body, _ in plays))
    watching = [table.watch(port, sizes.watchers) for table in tables]
    every = [w for watchers, _ in watching for w in watchers]
    deadline = time.perf_counter() + STARTUP_S
    while not all(w.settled() for w in every):
        if time.perf_counter() > deadline:
            raise RuntimeError(f"the streams did not start within {STARTUP_S:g} s")
        await asyncio.sleep(0.05)
    pids = server_pids(port)
    finds = (lambda: pids, lambda: database_pids(url))

    def usage(before: list[dict[int, float]], since: float) -> list[float]:
        """The server's and the database's CPU since ``before``, in % of a core."""
        wall = time.perf_counter() - since
        return [cpu_since(b, find()) / wall * 100 for b, find in zip(before, finds, strict=True)]

    idle_started, before = time.perf_counter(), [cpu_times(find()) for find in finds]
    await asyncio.sleep(sizes.idle)
    idle = usage(before, idle_started)
    rss = [rss_mb(pids)]
    started, client_started = time.perf_counter(), time.process_time()
    before = [cpu_times(find()) for find in finds]
    end = started + sizes.seconds

    async def write(i: int) -> None:
        due = started + i * sizes.pace / sizes.tables
        for action in plays[i][1]:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if time.perf_counter() >= end or not await tables[i].enter(action):
                return
            due += sizes.pace

    async def sample() -> None:
        while True:
            await asyncio.sleep(1)
            rss.append(rss_mb(pids))

    sampling = asyncio.create_task(sample())
    await asyncio.gather(*(write(i) for i in range(sizes.tables)))
    await asyncio.sleep(SETTLE_S)
    busy = usage(before, started)
    client = (time.process_time() - client_started) / (time.perf_counter() - started) * 100
    sampling.cancel()
    leaving = zip(tables, watching, strict=True)
    await asyncio.gather(*(table.leave(listening) for table, (_, listening) in leaving))
    deliveries, missed = [], 0
    for table, (watchers, _) in zip(tables, watching, strict=True):
        for watcher in watchers:
            if watcher.status == 200:
                times, lost = table.delivered(watcher)
                deliveries += times
                missed += lost
    return Load(
        writes=[took for t in tables for _, _, took in t.done],
        failures=sum(t.failures for t in tables), deliveries=deliveries, missed=missed,
        cpu=busy[0], idle_cpu=idle[0], database_cpu=busy[1], idle_database_cpu=idle[1],
        client_cpu=client, rss=rss, processes=len(pids),
        refused=sum(w.status != 200 for w in every),
        ended=sum(w.ended and w.status == 200 for w in every),
    )  # fmt: skip


PAGE_GAME = "2p-03-heuristic"
"""The table page's fixture game (every kind of action, payments, bonus actions)."""
PAGE_WATCH = """() => {
    const b = window.__bench = {click: 0, dest: null, shown: {}};
    document.addEventListener('click', () => { b.click = performance.now(); b.dest = null; },
                              {capture: true});
    const frame = () => {
        const now = performance.now(), map = document.querySelector('#table-board svg');
        if (b.dest === null && document.querySelector('#table-board .choice.dest')) b.dest = now;
        if (map && !(map.dataset.version in b.shown)) b.shown[map.dataset.version] = now;
        requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
}"""
"""On the page: the last click's time, and the first frame showing a wolf's destinations
since, and each version's map (``window.__bench``)."""


def highlight(page: Page, port: int, table_id: str) -> float | None:
    """Press Move and click a wolf that may move (one alone on its hex if any; else the hex,
    then the wolf among the choices): milliseconds from that last click to the frame showing
    its destinations, checked against the legal ones; then Esc. None when no wolf may move."""
    _, body, _ = call(port, ("GET", f"/api/tables/{table_id}/legal", None, {}))
    moves = [m for m in json.loads(body)["moves"] if m["to"]]
    froms = [m["from"] for m in moves]
    wolf = min(moves, key=lambda m: froms.count(m["from"]), default=None)
    if wolf is None:
        return None
    page.click('[data-act="move"]')
    page.locator(f'#table-board [data-hex="{wolf["from"][0]},{wolf["from"][1]}"]').click()
    if froms.count(wolf["from"]) > 1:
        label = "the alpha" if wolf["wolf"] == "alpha" else "the pack wolf"
        page.locator("#table-pending [data-choose]").filter(has_text=label).click()
    page.wait_for_function("() => window.__bench.dest !== null", polling="raf")
    took: float = page.evaluate("window.__bench.dest - window.__bench.click")
    shown = page.locator("#table-board .choice.dest").count()
    if shown != len({tuple(h) for h in wolf["to"]}):
        raise RuntimeError(f"the page shows {shown} destinations of {wolf}")
    page.keyboard.press("Escape")
    page.wait_for_selector('#table-board svg[data-mode="idle"]', state="attached")
    return took


def rendered(page: Page, version: int) -> float:
    """Milliseconds from the last click (the one that sent an action) to the first frame
    showing the map of ``version``; then waits for its legal actions."""
    from tests.dashboard.test_table_page import ready

    page.wait_for_function("(v) => v in window.__bench.shown", arg=str(version), polling="raf")
    took: float = page.evaluate("(v) => window.__bench.shown[v] - window.__bench.click",
                                str(version))  # fmt: skip
    ready(page, version)
    return took


def page_times(port: int, sizes: Sizes, browser: Browser) -> tuple[
    list[float], list[float], dict[str, Any]
]:  # fmt: skip
    """The table page entering the page's fixture game by clicking, as a person does (the
    page tests' steps): click → destinations, and submit → map, in ms; and the page's own
    timings of both (``window.howlTableTimes``)."""
    from tests.dashboard.test_table_page import enter, ready, turn

    body, actions = fixture(PAGE_GAME, sizes.opened_with)
    status, reply, _ = call(port, ("POST", "/api/tables", body, WRITE))
    if status != 201:
        raise RuntimeError(f"opening a table: {status} {reply[:300]!r}")
    table_id, version = json.loads(reply)["table_id"], json.loads(reply)["version"]
    highlights, renders = [], []
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    try:
        page.set_default_timeout(20_000)
        page.goto(f"http://127.0.0.1:{port}/table/{table_id}")
        page.wait_for_selector("#auth-input", timeout=FIRST_LOAD_MS)
        page.fill("#auth-input", TOKEN)
        page.click("#auth-use")
        page.wait_for_selector(".auth-name")
        ready(page, version)
        page.evaluate(PAGE_WATCH)
        for action in actions[: sizes.clicked]:
            if turn(page) != action["player"]:  # records.md: the next seat's action
                page.click('[data-act="pass"]')
                version += 1
                renders.append(rendered(page, version))
            if (took := highlight(page, port, table_id)) is not None:
                highlights.append(took)
            enter(page, action)
            version += 1
            renders.append(rendered(page, version))
        own: dict[str, Any] = page.evaluate("window.howlTableTimes")
    finally:
        page.close()  # and its stream ends at its next message, the undo's (as Table.leave)
        call(port, ("POST", f"/api/tables/{table_id}/undo",
                    json.dumps({"version": version}).encode(), WRITE))  # fmt: skip
    return highlights, renders, own


def measure_page(url: str, sizes: Sizes = FULL, browser: Browser | None = None) -> None:
    """The table page's metrics in Chromium (``browser``, else the system's launched), on a
    ``howl serve`` of its own."""
    if browser is None:
        chromium = shutil.which("chromium")
        if chromium is None:
            progress("tables: no chromium on PATH (scripts/test installs it); page skipped")
            return
        with sync_playwright() as pw:
            launched = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                measure_page(url, sizes, launched)
            finally:
                launched.close()
        return
    with serving(url) as port:
        progress(f"tables: the table page in Chromium, {sizes.clicked} actions by clicking")
        highlights, renders, own = page_times(port, sizes, browser)
    for metric, values, mine, target in (
        ("table_click_highlight_ms", highlights, own["select"], 50),
        ("table_action_render_ms", renders, own["submit"], 150),
    ):  # fmt: skip
        page_p95 = round(percentile(mine, 95), 3) if mine else None
        latency(metric, values, target=target, page_p95=page_p95, page_count=len(mine))


def latency(metric: str, values: list[float], **extra: object) -> None:
    """A latency's p95 (its value) and p50."""
    if not values:
        progress(f"tables: {metric}: nothing measured")
        return
    report("tables", metric, percentile(values, 95), "ms",
           p50=round(percentile(values, 50), 3), count=len(values), **extra)  # fmt: skip


def run_apart(clients: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(clients)`` in a thread of its own: the caller's thread may be running
    an event loop already (Playwright's, in a test process)."""
    with ThreadPoolExecutor(1) as apart:
        return apart.submit(asyncio.run, clients).result()


def measure(backend: str, url: str, sizes: Sizes = FULL) -> None:
    """Every metric of one backend, on a ``howl serve`` of its own."""
    with serving(url) as port:
        progress(f"tables ({backend}): {sizes.actions} round trips, one watcher")
        trips = run_apart(roundtrips(port, sizes))
        progress(f"tables ({backend}): {sizes.tables} tables, {sizes.watchers} streams each, "
                 f"an action per table every {sizes.pace:g} s for {sizes.seconds:g} s")  # fmt: skip
        got = run_apart(load(port, url, sizes))
    read_p95 = percentile(trips.reads, 95) if trips.reads else 0.0
    ratio = percentile(trips.writes, 95) / read_p95 if trips.writes and read_p95 else 0.0
    first, last = trips.writes[:GROWTH], trips.writes[-GROWTH:]
    ends = {f"p50_first_{GROWTH}": round(percentile(first, 50), 3),
            f"p50_last_{GROWTH}": round(percentile(last, 50), 3)} if first else {}  # fmt: skip
    latency(f"table_action_roundtrip_ms_{backend}", trips.writes, failures=trips.failures,
            target=150, baseline=round(read_p95, 3), baseline_metric="GET /api/tables/{id}",
            ratio=round(ratio, 3), **ends)  # fmt: skip
    latency(f"table_sse_delivery_ms_{backend}", trips.deliveries, target=500, poll_ms=100)
    shape = {"tables": sizes.tables, "streams": sizes.tables * sizes.watchers,
             "pace_s": sizes.pace, "seconds": sizes.seconds}  # fmt: skip
    report("tables", f"tables_load_actions_per_s_{backend}", len(got.writes) / sizes.seconds,
           "1/s", offered_per_s=round(sizes.tables / sizes.pace, 2), failures=got.failures,
           **shape)  # fmt: skip
    latency(f"tables_load_action_roundtrip_ms_{backend}", got.writes, target=150, **shape)
    latency(f"tables_load_sse_delivery_ms_{backend}", got.deliveries, missed=got.missed,
            target=500, **shape)  # fmt: skip
    report("tables", f"tables_load_server_rss_mb_{backend}", max(got.rss), "MB",
           at_start=round(got.rss[0], 1), processes=got.processes, **shape)  # fmt: skip
    report("tables", f"tables_load_server_cpu_percent_{backend}", got.cpu, "%",
           baseline=round(got.idle_cpu, 1), baseline_metric="the same streams idle",
           ratio=round(got.cpu / got.idle_cpu, 3) if got.idle_cpu else None,
           database_cpu_percent=round(got.database_cpu, 1),
           idle_database_cpu_percent=round(got.idle_database_cpu, 1),
           client_cpu_percent=round(got.client_cpu, 1), cores=os.cpu_count(),
           **shape)  # fmt: skip
    report("tables", f"tables_load_streams_refused_{backend}", got.refused, "streams",
           ended_early=got.ended, **shape)  # fmt: skip


def run(sizes: Sizes = FULL) -> None:
    """Measure and report the tables metrics on SQLite, then on PostgreSQL."""
    with tempfile.TemporaryDirectory() as folder:
        measure("sqlite", f"sqlite:///{folder}/tables.sqlite3", sizes)
        measure_page(f"sqlite:///{folder}/page.sqlite3", sizes)
    progress("tables: starting PostgreSQL")
    with bench_database() as url:
        measure("postgresql", url, sizes)
