"""``howl serve`` in production: granian workers serve the API and the dashboard, reviews run
in a process of their own at a lower priority, and SIGTERM stops every process it started."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.request import urlopen

from tests.api.client import Client
from tests.api.conftest import TOKENS, record_of
from tests.api.contract import Contract


def _session(sid: int) -> dict[int, int]:
    """The processes of session ``sid``: pid → nice value (Linux's /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        with suppress(OSError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if entry.name.isdigit() and int(fields[3]) == sid:
                found[int(entry.name)] = int(fields[16])
    return found


@contextmanager
def howl_serve(env: dict[str, str]) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``howl serve`` in a session of its own, with ``env``; yields it and its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    howl = Path(sys.executable).with_name("howl")
    proc = subprocess.Popen(
        [str(howl), "serve", "--port", str(port)], env={**os.environ, **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with suppress(OSError), urlopen(f"{url}/api/health", timeout=5) as health:
                if health.status == 200:
                    break
            assert proc.poll() is None and time.monotonic() < deadline, "howl serve did not start"
            time.sleep(0.2)
        yield proc, url
    finally:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_serve_runs_granian_workers_and_a_niced_analysis_and_stops_them_all(
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
        processes = _session(proc.pid)
        assert len(processes) >= 4  # the server, 2 workers, the analysis (and its reviewers)
        assert 10 in processes.values() and processes[proc.pid] == 0

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        deadline = time.monotonic() + 10
        while _session(proc.pid):
            assert time.monotonic() < deadline, f"left running: {_session(proc.pid)}"
            time.sleep(0.1)
