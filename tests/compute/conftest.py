"""Fixtures of the Dask tests: one ``LocalCluster`` of two worker processes for the whole
folder, the environment of a ``howl`` process and small stored games."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from distributed import Client, LocalCluster

from api.cli import main
from domain.store import StoreConfig
from domain.wolves.records import write_record
from services.config import Settings
from services.library import analyses_url
from tests.analysis.conftest import fixture_record
from tests.store.conftest import HOWL

WORKERS = 2
ROOT = Path(__file__).resolve().parents[2]
DASK = str(Path(sys.executable).with_name("dask"))
"""Dask's command line, installed beside this Python."""


@pytest.fixture(scope="package")
def dask_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """Two worker processes of one thread each, with their nannies, for every test here.
    No dashboard; the scheduler's own HTTP routes take a free port, not 8787."""
    with LocalCluster(
        n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        local_directory=str(tmp_path_factory.mktemp("dask")),
    ) as cluster:  # fmt: skip
        yield cluster


@pytest.fixture(scope="package")
def scheduler(dask_cluster: LocalCluster) -> str:
    """The test cluster's scheduler address, as ``--scheduler`` takes it."""
    return str(dask_cluster.scheduler_address)


@pytest.fixture(scope="package")
def client(dask_cluster: LocalCluster) -> Iterator[Client]:
    """A client of the test cluster, for looking at it (its workers, their tasks)."""
    with Client(dask_cluster) as connected:
        yield connected


def howl_env(url: str | None = None, schema: str | None = None) -> dict[str, str]:
    """The environment of a ``howl`` process on the store at ``url`` (a PostgreSQL one in
    ``schema``; none: a command that uses no store), with no cluster."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOWL_DATABASE", "HOWL_DASK"))}
    if url is not None:
        env["HOWL_DATABASE_URL"] = url
    if schema is not None:
        env["HOWL_DATABASE_SCHEMA"] = schema
    return env


def howl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``howl ARGS…`` to the end."""
    return subprocess.run(
        [HOWL, *args], capture_output=True, env=env, text=True, timeout=300, check=False
    )


def howl_here(env: dict[str, str], *args: str) -> Result:
    """Run ``howl ARGS…`` in this process with ``env`` (and no ``HOWL_DASK_SCHEDULER``)."""
    return CliRunner().invoke(main, list(args), env={**env, "HOWL_DASK_SCHEDULER": None})


@dataclasses.dataclass(frozen=True)
class Store:
    """A store of its own for one ``howl`` run: its environment and how to open it."""

    env: dict[str, str]
    config: StoreConfig

    @property
    def url(self) -> str:
        """The ``analyses`` table's database (the store's; its schema on PostgreSQL)."""
        return analyses_url(Settings(self.config.url, database_schema=self.config.schema))


def new_store(folder: Path, name: str, pg_url: str | None = None) -> Store:
    """A store called ``name``: a SQLite file in ``folder``, or with ``pg_url`` a schema of
    that PostgreSQL database."""
    if pg_url is not None:
        schema = f"{name}_{uuid.uuid4().hex[:12]}"
        return Store(howl_env(pg_url, schema), StoreConfig(pg_url, schema=schema))
    url = f"sqlite:///{folder / f'{name}.sqlite3'}"
    return Store(howl_env(url), StoreConfig(url))


def short_game(name: str, actions: int, **meta: str) -> bytes:
    """The record of a fixture game's first ``actions`` actions, with ``meta`` added."""
    record = fixture_record(name)
    cut = dataclasses.replace(record, actions=record.actions[:actions])
    return write_record(dataclasses.replace(cut, meta={**record.meta, **meta}))


def cluster_of_one(port: int) -> list[subprocess.Popen[bytes]]:
    """A scheduler on ``port`` and one worker process of one thread, as ``dask`` starts them
    on the machines of a cluster (to be killed by the test)."""
    commands = [
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port),
         "--dashboard-address", "127.0.0.1:0"],
        [DASK, "worker", f"tcp://127.0.0.1:{port}", "--nthreads", "1", "--nworkers", "1",
         "--no-dashboard"],
    ]  # fmt: skip
    quiet, env = subprocess.DEVNULL, {**os.environ, "PYTHONPATH": str(ROOT)}  # tests' tasks too
    return [subprocess.Popen(c, stdout=quiet, stderr=quiet, env=env) for c in commands]


def kill(processes: list[subprocess.Popen[bytes]]) -> None:
    """Kill ``processes`` and wait for them."""
    for process in processes:
        process.kill()
        process.wait()
