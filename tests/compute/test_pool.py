"""``Pool.finished`` on local processes and on the test cluster: results in the order asked
for, a bounded number of tasks in flight, every result when a worker process dies or a task
fails once, and one clear error when the whole cluster is lost."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import Client

from services.compute import AHEAD_PER_WORKER, RETRIES, ComputeError, Pool, pool
from tests.api.serving import free_port
from tests.compute.conftest import WORKERS, cluster_of_one, kill
from tests.compute.tasks import flaky, nap

JOBS = 20
SLOW = 0.8
"""Seconds the first job sleeps, while the others take a few milliseconds."""


@pytest.fixture(params=["local", "dask"])
def ready(request: pytest.FixtureRequest) -> Iterator[Pool]:
    """A pool of two local processes, or of the test cluster's two workers."""
    scheduler = request.getfixturevalue("scheduler") if request.param == "dask" else None
    with pool(WORKERS, scheduler) as opened:
        yield opened


def counted(jobs: list[tuple[int, float]], pulled: list[int]) -> Iterator[tuple[int, float]]:
    """The ``jobs``, adding 1 to ``pulled[0]`` as each is taken (that is, submitted)."""
    for job in jobs:
        pulled[0] += 1
        yield job


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "as-finished"])
def test_finished_keeps_the_order_asked_for_and_at_most_four_tasks_per_worker_in_flight(
    ready: Pool, ordered: bool
) -> None:
    """The first job is slow: the others finish first, so the order kept is the pool's
    doing, and the window of submitted tasks fills up while it runs."""
    jobs = [(i, SLOW if i == 0 else 0.01) for i in range(JOBS)]
    pulled = [0]
    seen: list[int] = []
    woke: dict[int, float] = {}
    most = 0
    for job, done in ready.finished(nap, counted(jobs, pulled), ordered):
        most = max(most, pulled[0] - len(seen))  # submitted, not yet handed back
        index, _, at = done.result()
        assert index == job[0]
        seen.append(index)
        woke[index] = at
    assert ready.workers == WORKERS
    assert most == AHEAD_PER_WORKER * WORKERS
    assert min(woke, key=woke.__getitem__) != 0  # the first job did not finish first
    if ordered:
        assert seen == list(range(JOBS))
    else:
        assert sorted(seen) == list(range(JOBS)) and seen[0] != 0


def test_a_worker_killed_mid_batch_loses_no_result(
    scheduler: str, client: Client, tmp_path: Path
) -> None:
    """Once the first result is back, the worker process running another task is killed:
    its nanny starts a new one and Dask runs the lost task again, so the batch ends with
    every result, the lost one from another process."""
    log = tmp_path / "started.txt"
    log.touch()
    jobs = [(i, 0.2 if i == 0 else 1.0, str(log)) for i in range(6)]
    before = set(client.run(os.getpid).values())
    results: dict[int, int] = {}
    killed = None
    with pool(None, scheduler) as ready:
        for _, done in ready.finished(nap, jobs):
            index, pid, _ = done.result()
            results[index] = pid
            if killed is None:
                killed = running_elsewhere(log, results)
                os.kill(killed, signal.SIGKILL)
    assert killed in before
    assert sorted(results) == list(range(len(jobs)))
    started = [tuple(map(int, line.split())) for line in log.read_text().splitlines()]
    lost = [i for i, pid in started if pid == killed and results[i] != killed]
    assert lost, f"the kill interrupted no task: {started}, {results}"
    client.wait_for_workers(WORKERS, timeout=60)  # the lost one is gone: its task was rerun
    pids = set(client.run(os.getpid).values())
    assert len(pids) == WORKERS and killed not in pids


def running_elsewhere(log: Path, results: dict[int, int]) -> int:
    """The process id of a worker that has started a task whose result is not back."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        lines = [line.split() for line in log.read_text().splitlines()]
        running = [int(pid) for index, pid in lines if int(index) not in results]
        if running:
            return running[0]
        time.sleep(0.02)
    raise AssertionError("no worker started a second task")


def test_a_task_that_fails_is_tried_again_on_the_cluster(scheduler: str, tmp_path: Path) -> None:
    """Each task raises on its first try: on the cluster every one is tried again and its
    result comes back; on local processes the first failure is the result."""
    jobs = [(i, str(tmp_path)) for i in range(4)]
    with pool(None, scheduler) as ready:
        got = sorted(done.result() for _, done in ready.finished(flaky, jobs))
    assert got == [0, 1, 2, 3] and RETRIES >= 1
    assert all(len((tmp_path / str(i)).read_text().splitlines()) == 2 for i in range(4))
    with pool(1) as local:
        (_, done), *_ = local.finished(flaky, [(9, str(tmp_path))])
        with pytest.raises(RuntimeError, match="task 9: first try fails"):
            done.result()


def test_a_cluster_lost_mid_batch_is_one_clear_error() -> None:
    """Its scheduler and worker killed once a first result is back: the batch stops with one
    error naming the cluster, not one per task; the result had is kept."""
    port = free_port()
    processes = cluster_of_one(port)
    address = f"tcp://127.0.0.1:{port}"
    got: list[int] = []
    try:
        with pool(None, address) as ready, pytest.raises(ComputeError) as lost:
            for _, done in ready.finished(nap, [(i, 0.3) for i in range(12)]):
                got.append(done.result()[0])
                kill(processes)
    finally:
        kill(processes)
    assert got == [0]
    assert str(lost.value).startswith(f"lost the Dask cluster at {address} with ")
    assert str(lost.value).endswith("tasks in flight; what came back before is kept")
