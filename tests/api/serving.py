"""A real ``howl serve`` (granian) for tests, and raw HTTP/1.1 over a socket to talk to it
byte by byte (headers first, bodies trickled, answers read as they come)."""

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


def session_processes(sid: int) -> dict[int, int]:
    """The processes of session ``sid``: pid → nice value (Linux's /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        with suppress(OSError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if entry.name.isdigit() and int(fields[3]) == sid:
                found[int(entry.name)] = int(fields[16])
    return found


def scheduled_idle(pid: int) -> bool:
    """Whether process ``pid`` runs in Linux's idle scheduling class (its stat's policy)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[38]) == os.SCHED_IDLE


def granian_workers(server: int) -> set[int]:
    """The granian worker processes of the ``howl serve`` process ``server``: its children
    running the same command (not multiprocessing's helpers)."""
    command = Path(f"/proc/{server}/cmdline").read_bytes()
    workers = set()
    for pid in session_processes(server):
        with suppress(OSError):
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            same = Path(f"/proc/{pid}/cmdline").read_bytes() == command
            if int(stat[1]) == server and same:
                workers.add(pid)
    return workers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def howl_serve(env: dict[str, str]) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``howl serve`` in a session of its own, with ``env``; yields it and its URL."""
    port = free_port()
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


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def connect(url: str, timeout: float = 10) -> socket.socket:
    """A connection to the server at ``url``."""
    return socket.create_connection(("127.0.0.1", port_of(url)), timeout=timeout)


def head(method: str, path: str, headers: dict[str, str]) -> bytes:
    """An HTTP/1.1 request's line and headers, up to the body."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in
             headers.items())]  # fmt: skip
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """The status, headers (lower-case names) and body of the answer on ``sock``; status 0
    if the server closed the connection without one."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return 0, {}, b""
        data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    length = int(headers.get("content-length", "0"))
    while len(body) < length and (chunk := sock.recv(65536)):
        body += chunk
    return int(status_line.split()[1]), headers, body


def closed(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (after its answer, if it gave one)."""
    try:
        return sock.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
