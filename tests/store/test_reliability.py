"""Stopping PostgreSQL in the middle of ``howl import`` leaves only whole games stored, and
importing again once it is back completes the import without duplicates.

This test really stops and restarts the throwaway cluster ``scripts/test`` started (it
exports ``HOWL_TEST_PG_CTL``, ``HOWL_TEST_PG_DATA``, ``HOWL_TEST_PG_LOG`` and
``HOWL_TEST_PG_USER``), and restarts it whatever happens. Its store is a database of its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from domain.store import game_id_for, record_digest
from domain.wolves.records import read_record
from domain.wolves.replay import replay
from tests.store.conftest import record_bytes

HOWL = str(Path(sys.executable).with_name("howl"))
GAMES = 30


class Cluster:
    """The test PostgreSQL cluster, stopped and started with ``pg_ctl`` as its OS user."""

    def __init__(self) -> None:
        names = ("HOWL_TEST_PG_CTL", "HOWL_TEST_PG_DATA", "HOWL_TEST_PG_LOG")
        missing = [name for name in names if not os.environ.get(name)]
        if missing:
            if os.environ.get("HOWL_ALLOW_SKIP_PG") == "1":
                pytest.skip(f"{', '.join(missing)} not set and HOWL_ALLOW_SKIP_PG=1")
            pytest.fail(f"{', '.join(missing)} not set: run the suite with scripts/test")
        self.pg_ctl, self.data, self.log = (os.environ[name] for name in names)
        user = os.environ.get("HOWL_TEST_PG_USER", "")
        self.as_user = ["runuser", "-u", user, "--"] if user and os.geteuid() == 0 else []

    def pg_ctl_run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run ``pg_ctl -D DATA ARGS…`` from the cluster's folder."""
        return subprocess.run(
            [*self.as_user, self.pg_ctl, "-D", self.data, *args],
            cwd=Path(self.data).parent, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip

    def running(self) -> bool:
        """True when the server runs (``pg_ctl status`` exits 0)."""
        return self.pg_ctl_run("status").returncode == 0

    def stop(self) -> None:
        """Stop the server now: sessions are cut, open transactions rolled back."""
        done = self.pg_ctl_run("stop", "-m", "fast", "-w", "-t", "60")
        assert done.returncode == 0, done.stderr

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        done = self.pg_ctl_run("start", "-w", "-t", "60", "-l", self.log)
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """The cluster, running again after the test whatever happened."""
    pg = Cluster()
    try:
        yield pg
    finally:
        if not pg.running():
            pg.start()


def stored_games(url: str) -> dict[str, int]:
    """Stored events per game id."""
    with psycopg.connect(url, connect_timeout=5) as conn:
        if conn.execute("SELECT to_regclass('games_events')").fetchone() == (None,):
            return {}
        rows = conn.execute("SELECT originator_id, count(*) FROM games_events GROUP BY 1")
        return {str(game_id): count for game_id, count in rows}


@pytest.mark.alone
def test_stopping_postgresql_mid_import_keeps_whole_games(
    pg_url: str, cluster: Cluster, tmp_path: Path
) -> None:
    expected: dict[str, int] = {}  # game id -> its events: Uploaded and each domain event
    for seed in range(GAMES):
        data = record_bytes(2, seed=500 + seed)
        (tmp_path / f"game-{seed:02}.json").write_bytes(data)
        played = replay(read_record(data))
        expected[str(game_id_for(record_digest(data)))] = 1 + sum(map(len, played.steps))
    env = {**os.environ, "HOWL_DATABASE_URL": pg_url, "HOWL_DB_CONNECT_TIMEOUT": "1"}

    importing = subprocess.Popen(
        [HOWL, "import", str(tmp_path)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        while len(stored_games(pg_url)) < 5:
            assert importing.poll() is None, "the import ended before the server was stopped"
            assert time.monotonic() < deadline, "the import stored too few games in time"
            time.sleep(0.05)
        cluster.stop()
        out, err = importing.communicate(timeout=300)
    finally:
        if importing.poll() is None:
            importing.kill()
            importing.wait()
    assert importing.returncode == 1, out.decode() + err.decode()
    assert "stopped: the store failed" in out.decode()

    cluster.start()
    partial = stored_games(pg_url)
    assert 5 <= len(partial) < GAMES
    assert {game_id: expected[game_id] for game_id in partial} == partial  # whole games only

    again = subprocess.run(
        [HOWL, "import", str(tmp_path)], env=env, capture_output=True, timeout=600, check=False
    )
    assert again.returncode == 0, again.stdout.decode() + again.stderr.decode()
    summary = again.stdout.decode().splitlines()[-1]
    assert summary == (
        f"imported {GAMES - len(partial)}, duplicates {len(partial)}, failed 0 ({GAMES} files)"
    )
    assert stored_games(pg_url) == expected
