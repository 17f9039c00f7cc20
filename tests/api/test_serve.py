"""``howl serve`` in production: granian workers serve the API and the dashboard, a worker that
dies is replaced, reviews run in a process of their own at a lower priority, and SIGTERM stops
every process it started."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from http.client import HTTPConnection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import urlopen

from tests.api.client import Client
from tests.api.conftest import FIXTURES, TOKENS, record_of
from tests.api.contract import Contract
from tests.api.serving import granian_workers, howl_serve, scheduled_idle, session_processes


def test_serve_runs_granian_workers_and_an_idle_analysis_and_stops_them_all(
    tmp_path: Path, contract: Contract
) -> None:
    env = {
        "HOWL_DATABASE_URL": f"sqlite:///{tmp_path / 'howl.sqlite3'}",
        "HOWL_API_TOKENS": ",".join(f"{name}:{token}" for name, token in TOKENS.items()),
        "HOWL_WORKERS": "2", "HOWL_THREADS": "2", "HOWL_ANALYSIS_PLAYOUTS": "1",
    }  # fmt: skip
    with howl_serve(env) as (proc, url):
        client = Client(url, contract, TOKENS["ana"])
        game_id = client.upload(record_of("2p-00-heuristic")).json["game_id"]
        first = client.get(f"/api/games/{game_id}/states/5")
        again = client.get(f"/api/games/{game_id}/states/5")
        assert first.status == 200 and (again.status, again.body) == (first.status, first.body)
        with urlopen(f"{url}/", timeout=10) as page:
            assert page.status == 200 and page.headers.get_content_type() == "text/html"
        deadline = time.monotonic() + 30
        while client.get(f"/api/games/{game_id}/analysis").json["status"] == "queued":
            assert time.monotonic() < deadline, "the review was not taken"
            time.sleep(0.1)
        processes = session_processes(proc.pid)
        assert len(processes) >= 4  # the server, 2 workers, the analysis (and its reviewers)
        idle = set()
        for pid in processes:
            with suppress(OSError):  # a reviewer may be done meanwhile
                if scheduled_idle(pid):
                    idle.add(pid)
        assert idle and proc.pid not in idle  # the analysis and its reviewers, only
        assert len(granian_workers(proc.pid) - idle) == 2

        _stops_cleanly(proc)


def test_the_reviewers_are_held_back_while_the_server_is_busy(
    tmp_path: Path, contract: Contract
) -> None:
    """While requests keep the workers busy, the processes of the review in progress are
    stopped (``T``); once the requests end, they go on."""
    env = {
        "HOWL_DATABASE_URL": f"sqlite:///{tmp_path / 'howl.sqlite3'}",
        "HOWL_API_TOKENS": f"ana:{TOKENS['ana']}", "HOWL_WORKERS": "2",
        "HOWL_ANALYSIS_PLAYOUTS": "400",  # a review long enough to watch
    }  # fmt: skip
    with howl_serve(env) as (proc, url):
        client = Client(url, contract, TOKENS["ana"])
        game_id = client.upload(record_of("2p-00-heuristic")).json["game_id"]
        reviewers = _waits(lambda: _reviewers(proc.pid), "the review did not start")
        assert not any(_state(pid) == "T" for pid in reviewers)
        stop = threading.Event()

        def read() -> None:
            reads = HTTPConnection(urlsplit(url).netloc, timeout=30)
            while not stop.is_set():
                reads.request("GET", "/api/games?limit=100")
                answer = reads.getresponse()
                assert answer.read() and answer.status == 200

        readers = [threading.Thread(target=read) for _ in range(4)]
        for reader in readers:
            reader.start()
        try:
            _waits(lambda: all(_state(pid) == "T" for pid in reviewers), "not held back")
        finally:
            stop.set()
            for reader in readers:
                reader.join()
        _waits(lambda: not any(_state(pid) == "T" for pid in reviewers), "not let go")
        status = client.get(f"/api/games/{game_id}/analysis").json["status"]
        assert status in ("running", "done")


def _reviewers(server: int) -> list[int]:
    """The processes the review process (the server's idle child) runs its review in."""
    processes = session_processes(server)
    analysis = [p for p in processes if _parent(p) == server and scheduled_idle(p)]
    return [p for p in processes if analysis and _parent(p) == analysis[0]
            and "resource_tracker" not in Path(f"/proc/{p}/cmdline").read_text()]  # fmt: skip


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return -1


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def _waits(check: Callable[[], Any], why: str, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, why
        time.sleep(0.05)
    return found


def test_a_worker_keeps_no_answer_it_gave(tmp_path: Path) -> None:
    """Answers rendered in the app's threads (lists: not cached) are let go once sent: a
    worker's memory does not grow with the requests it answers (granian's Rust tasks kept
    every awaited answer, some 30 kB a list)."""
    env = {
        "HOWL_DATABASE_URL": f"sqlite:///{tmp_path / 'howl.sqlite3'}",
        "HOWL_API_TOKENS": f"ana:{TOKENS['ana']}", "HOWL_WORKERS": "1", "HOWL_ANALYSIS": "off",
    }  # fmt: skip
    with howl_serve(env) as (proc, url):
        uploads = HTTPConnection(urlsplit(url).netloc, timeout=30)
        for path in sorted(FIXTURES.glob("*-heuristic.json")):
            uploads.request("POST", "/api/games", path.read_bytes(), {
                "Authorization": f"Bearer {TOKENS['ana']}", "Content-Type": "application/json",
            })  # fmt: skip
            answer = uploads.getresponse()
            assert answer.read() and answer.status == 201
        (worker,) = granian_workers(proc.pid)
        reads = HTTPConnection(urlsplit(url).netloc, timeout=30)

        def lists(times: int) -> int:
            size = 0
            for _ in range(times):
                reads.request("GET", "/api/games?limit=100")
                answer = reads.getresponse()
                size = len(answer.read())
                assert answer.status == 200
            return size

        size = lists(300)
        before = _rss_kb(worker)
        lists(3000)
        grown = _rss_kb(worker) - before
        assert size > 10_000 and grown < 3000 * size // 1024 // 4, (size, grown)


def _rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0])


def _stops_cleanly(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    deadline = time.monotonic() + 10
    while session_processes(proc.pid):
        assert time.monotonic() < deadline, f"left running: {session_processes(proc.pid)}"
        time.sleep(0.1)


def test_a_killed_worker_is_replaced_while_requests_stream(tmp_path: Path) -> None:
    env = {
        "HOWL_DATABASE_URL": f"sqlite:///{tmp_path / 'howl.sqlite3'}",
        "HOWL_WORKERS": "2", "HOWL_THREADS": "2", "HOWL_ANALYSIS": "off",
    }  # fmt: skip
    with howl_serve(env) as (proc, url):
        workers = granian_workers(proc.pid)
        assert len(workers) == 2
        answers: list[tuple[float, bool]] = []
        streaming = True

        def stream() -> None:
            while streaming:
                ok = False
                with suppress(OSError), urlopen(f"{url}/api/health", timeout=2) as health:
                    ok = health.status == 200
                answers.append((time.monotonic(), ok))
                time.sleep(0.02)

        thread = threading.Thread(target=stream)
        thread.start()
        try:
            time.sleep(0.5)
            victim = min(workers)
            os.kill(victim, signal.SIGKILL)
            killed = time.monotonic()
            while len(granian_workers(proc.pid) - {victim}) < 2:
                assert time.monotonic() < killed + 10, "the killed worker was not replaced"
                time.sleep(0.05)
            replaced = time.monotonic()
            time.sleep(1.5)  # answers from both workers again
        finally:
            streaming = False
            thread.join()
        after = [(at, ok) for at, ok in answers if at > killed]
        first = min(at for at, ok in after if ok)
        assert first - killed < 5
        respawned = [ok for at, ok in after if at >= replaced + 0.5]  # the new one listens
        assert respawned and all(respawned), "a request failed after the respawn"
        assert proc.poll() is None
        _stops_cleanly(proc)
