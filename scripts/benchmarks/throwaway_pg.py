"""A throwaway PostgreSQL cluster for benchmarks, like the one ``scripts/test`` starts."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: run scripts/test once, or apt-get it")
    return Path(found[-1])


def free_port() -> int:
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
    data, port = folder / "data", free_port()

    def run(*args: str) -> None:
        subprocess.run([*as_pg, *args], cwd=folder, check=True, capture_output=True)

    try:
        run(str(pg_bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
            "--no-sync", "-E", "UTF8", "--no-locale")  # fmt: skip
        settings = (
            f"listen_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = "
            f"'{folder}'\nfsync = off\nfull_page_writes = off\nsynchronous_commit = off\n"
            "max_connections = 300\n"
        )
        with open(data / "postgresql.conf", "a") as conf:
            conf.write(settings)
        run(str(pg_bin / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "start")
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        if (data / "postmaster.pid").exists():
            run(str(pg_bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def bench_database() -> Iterator[str]:
    """A new, empty database for one bench run, dropped afterwards.

    It lives on ``HOWL_BENCH_PG_URL``'s server when that is set, else on a throwaway cluster.
    """
    given = os.environ.get("HOWL_BENCH_PG_URL", "").strip()
    with nullcontext(given) if given else throwaway_pg() as base:
        name = f"howl_bench_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            yield urlunsplit(urlsplit(base)._replace(path=f"/{name}"))
        finally:
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
