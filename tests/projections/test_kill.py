"""A ``howl projections catch-up`` killed (SIGKILL) inside a batch's transaction loses that
batch whole, and the next run projects exactly the rest: nothing counted twice."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from projections.db import sqlite_path
from projections.readmodels import ReadModels
from tests.projections.conftest import Store, everything, fixture_names, upload

HOWL = str(Path(sys.executable).with_name("howl"))
GAMES = [n for n in fixture_names() if n.startswith(("2p", "3p"))][:12]


def writer_in_transaction(store: Store) -> bool:
    """True while some connection holds a write transaction open on the store."""
    if store.url.startswith("sqlite"):
        conn = sqlite3.connect(sqlite_path(store.url), timeout=0, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("ROLLBACK")
            return False
        except sqlite3.OperationalError:
            return True
        finally:
            conn.close()
    with psycopg.connect(store.url) as pg:
        row = pg.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND state = 'idle in transaction' AND pid <> pg_backend_pid()"
        ).fetchone()
    return bool(row and row[0])


def wait_for(condition, what: str, timeout: float = 60) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def games_up_to(models: ReadModels, library, position: int) -> int:  # type: ignore[no-untyped-def]
    """How many games were uploaded at or before notification ``position``."""
    uploads = library.recorder.select_notifications(1, 1_000_000, stop=position)
    return sum(1 for n in uploads if n.topic == "howl/game/uploaded")


def test_a_killed_runner_resumes_without_counting_twice(store: Store) -> None:
    env = {**os.environ, **store.env}
    with store.library() as library, store.models() as models:
        upload(library, GAMES)
        last = library.recorder.max_notification_id()
        assert last is not None
        runner = subprocess.Popen(
            [HOWL, "projections", "catch-up", "--batch-size", "400", "--delay", "0.4"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )  # fmt: skip
        try:
            wait_for(lambda: models.position() > 0, "the first batch")
            committed = models.position()
            wait_for(lambda: writer_in_transaction(store), "a batch's open transaction")
            assert runner.poll() is None, runner.stderr.read() if runner.stderr else ""
            os.kill(runner.pid, signal.SIGKILL)
            runner.wait(timeout=30)
        finally:
            if runner.poll() is None:
                runner.kill()
        assert runner.returncode == -signal.SIGKILL
        killed_at = models.position()
        assert 0 < committed <= killed_at < last
        assert models.list_games().total == games_up_to(models, library, killed_at)

        resumed = subprocess.run(
            [HOWL, "projections", "catch-up"], env=env, capture_output=True, text=True,
            timeout=300, check=False,
        )  # fmt: skip
        assert resumed.returncode == 0, resumed.stderr
        assert f"projected {last - killed_at} events (position {last})" in resumed.stdout
        assert models.position() == last
        projected = everything(models)
        assert len(projected["games"]) == len(GAMES)
        assert projected["stats"]["seats"] == sum(g["players"] for g in projected["games"]
                                                  if g["finished"])  # fmt: skip
        models.rebuild(library)
        assert everything(models) == projected
