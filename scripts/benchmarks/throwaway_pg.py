"""A throwaway PostgreSQL cluster for benchmarks, like the one ``scripts/test`` starts."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: run scripts/test once, or apt-get it")
    return Path(found[-1])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def throwaway_pg() -> Iterator[str]:
    """Start a fresh cluster (fsync off) and yield its URL; stop and delete it afterwards."""
    pg_bin = _pg_bin()
    folder = Path(tempfile.mkdtemp(prefix="howl-bench-pg."))
    as_pg: list[str] = []
    if os.geteuid() == 0:  # postgres refuses to run as root
        subprocess.run(["id", "postgres"], check=True, capture_output=True)
        shutil.chown(folder, "postgres")
        as_pg = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", _free_port()

    def run(*args: str) -> None:
        subprocess.run([*as_pg, *args], cwd=folder, check=True, capture_output=True)

    try:
        run(str(pg_bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
            "--no-sync", "-E", "UTF8", "--no-locale")  # fmt: skip
        settings = (
            f"listen_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = "
            f"'{folder}'\nfsync = off\nfull_page_writes = off\nsynchronous_commit = off\n"
        )
        with open(data / "postgresql.conf", "a") as conf:
            conf.write(settings)
        run(str(pg_bin / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "start")
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if (data / "postmaster.pid").exists():
            run(str(pg_bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)
