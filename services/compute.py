"""Where the heavy jobs run: processes on this machine, or a Dask cluster.

A job (reviews, record checking, self-play) asks :func:`pool` for a :class:`Pool` and submits
plain functions to it. With no scheduler named the pool is a ``ProcessPoolExecutor``; with
``HOWL_DASK_SCHEDULER`` (or a command's ``--scheduler``) set it is a Dask ``distributed``
client's executor: a scheduler's address (``tcp://10.0.0.5:8786``), or ``local`` for a
``LocalCluster`` of one worker process per CPU on this machine. Dask is an optional extra
(``pip install 'howl[dask]'``); without it only local pools exist.

On a cluster a task that raises is tried :data:`RETRIES` more times, and the tasks of a worker
that is lost are run again on another (Dask's scheduler does that); the job's own process
gathers the results and is the only one that writes to the store. A scheduler that does not
answer within Dask's connect timeout (``distributed.comm.timeouts.connect``, 30 s unless
``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT`` says otherwise) is a :class:`ComputeError`.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Final, TypeVar

LOCAL: Final = "local"
"""The scheduler name that starts a ``LocalCluster`` on this machine."""
RETRIES: Final = 2
"""Further tries of a task that raised, on a cluster."""
AHEAD_PER_WORKER: Final = 4
"""Tasks kept in flight per worker by :meth:`Pool.finished`."""
WORKERS_SECONDS: Final = 60.0
"""How long a job waits for a cluster with no worker to get one."""
COUNT_SECONDS: Final = 2.0
"""How long a cluster's count of worker threads is taken as known before it is asked again."""
EXTRA_HINT: Final = "Dask is not installed: pip install 'howl[dask]'"

J = TypeVar("J", bound=tuple[Any, ...])
R = TypeVar("R")


class ComputeError(RuntimeError):
    """A cluster cannot be reached or Dask is missing; the message says which."""


@dataclass(frozen=True)
class Pool:
    """An executor and how many of its tasks run at once (:attr:`workers`, from
    :attr:`count`)."""

    executor: Executor
    scheduler: str | None
    """The Dask scheduler's address, None for local processes."""
    count: Callable[[], int]
    """How many tasks run at once now (a cluster's workers may join or leave)."""
    lost: Callable[[], bool] = lambda: False
    """Whether the cluster is gone (its scheduler does not answer): its tasks are lost."""

    @property
    def workers(self) -> int:
        """How many tasks run at once (at least 1)."""
        return max(1, self.count())

    def finished(
        self, fn: Callable[..., R], jobs: Iterable[J], ordered: bool = False
    ) -> Iterator[tuple[J, Future[R]]]:
        """Each job (a tuple of ``fn``'s arguments) with its finished future, in the jobs'
        order when ``ordered``, else as they finish. At most :data:`AHEAD_PER_WORKER` tasks
        per worker are in flight, so that a long input is never all submitted at once; the
        tasks left are cancelled when the iterator is closed. A cluster lost on the way is a
        :class:`ComputeError` (the results yielded before it are the job's to keep)."""
        window = AHEAD_PER_WORKER * self.workers
        flight: dict[Future[R], J] = {}
        try:
            for job in jobs:
                flight[self.executor.submit(fn, *job)] = job
                if len(flight) >= window:
                    yield from self._first(flight, ordered)
                    window = AHEAD_PER_WORKER * self.workers
            while flight:
                yield from self._first(flight, ordered)
        finally:
            for left in flight:
                left.cancel()

    def _first(self, flight: dict[Future[R], J], ordered: bool) -> Iterator[tuple[J, Future[R]]]:
        """The oldest job once it is done (``ordered``), else every job done by then (at
        least one), each taken out of ``flight``."""
        if ordered:
            oldest = next(iter(flight))
            wait([oldest])
            done: Iterable[Future[R]] = (oldest,)
        else:
            done = wait(flight, return_when=FIRST_COMPLETED).done
        lost = [future for future in done if self.gone(future)]
        for future in done:
            if future not in lost:
                yield flight.pop(future), future
        if lost:
            raise ComputeError(
                f"lost the Dask cluster at {self.scheduler} with {len(flight)} tasks in "
                "flight; what came back before is kept"
            )

    def gone(self, future: Future[Any]) -> bool:
        """Whether ``future`` (done) failed because its cluster is lost, not by its task: it
        was cancelled (only a lost connection cancels a task here), or its connection
        closed on a cluster that is gone."""
        if future.cancelled():
            return True
        return isinstance(future.exception(), OSError) and self.lost()

    @property
    def where(self) -> str:
        """``4 local processes`` or ``Dask at tcp://…: 8 worker threads``, for a command to
        say."""
        if self.scheduler is None:
            return f"{self.workers} local process{'es' if self.workers != 1 else ''}"
        return f"Dask at {self.scheduler}: {self.workers} worker threads"


def pool(
    workers: int | None = None, scheduler: str | None = None, preload: Sequence[str] = ()
) -> AbstractContextManager[Pool]:
    """A pool of ``workers`` local processes (default: one per CPU; forked from a server
    that imported the ``preload`` modules once), or of the Dask cluster at ``scheduler``
    (``local``: a ``LocalCluster`` of ``workers`` processes), shut down on exit."""
    workers = workers or os.cpu_count() or 1
    if scheduler is None:
        return _local(workers, preload)
    return _dask(scheduler, workers)


@contextmanager
def _local(workers: int, preload: Sequence[str]) -> Iterator[Pool]:
    context = multiprocessing.get_context("forkserver")
    if preload:
        context.set_forkserver_preload(list(preload))
    executor = ProcessPoolExecutor(workers, mp_context=context)
    try:
        yield Pool(executor, None, lambda: workers)
    finally:
        executor.shutdown(cancel_futures=True)


@contextmanager
def _dask(scheduler: str, workers: int) -> Iterator[Pool]:
    try:
        import dask.config
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise ComputeError(EXTRA_HINT) from exc
    cluster = None
    if scheduler == LOCAL:  # its scheduler's web routes on a free port of this host only
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True,
            dashboard_address="127.0.0.1:0",
        )  # fmt: skip
    connect = dask.config.get("distributed.comm.timeouts.connect")
    try:
        try:
            client = Client(cluster if cluster is not None else scheduler, timeout=connect)
        except (OSError, ValueError) as exc:  # no answer, or not an address
            raise ComputeError(f"no Dask scheduler answers at {scheduler}: {exc}") from exc
        with client:
            try:
                client.wait_for_workers(1, timeout=WORKERS_SECONDS)
            except TimeoutError:
                raise ComputeError(
                    f"the Dask scheduler at {scheduler} has no worker "
                    f"(waited {WORKERS_SECONDS:.0f} s)"
                ) from None
            executor = client.get_executor(retries=RETRIES, pure=False)
            address = scheduler if cluster is None else cluster.scheduler_address
            lost = lambda: client.status != "running"  # noqa: E731
            try:
                yield Pool(executor, address, _threads(client, lost), lost)
            finally:
                if client.status == "running":  # a client that lost its cluster has no tasks
                    executor.shutdown(wait=False)
    finally:
        if cluster is not None:
            cluster.close()


def _threads(client: Any, lost: Callable[[], bool]) -> Callable[[], int]:
    """The cluster's worker threads now, asked of its scheduler at most every
    :data:`COUNT_SECONDS` (the last known count once it is lost)."""
    known, asked = 1, -COUNT_SECONDS

    def count() -> int:
        nonlocal known, asked
        now = time.monotonic()
        if now - asked >= COUNT_SECONDS and not lost():
            try:
                known = sum(client.nthreads().values())
            except OSError:  # the scheduler went away between the two questions
                return known
            asked = now
        return known

    return count


def opener(
    scheduler: str | None, workers: int | None = None
) -> Callable[[], AbstractContextManager[Pool]] | None:
    """What opens the pool of the Dask cluster at ``scheduler`` (None: no cluster; ``local``:
    a ``LocalCluster`` of ``workers`` processes), for a long-lived job such as the
    background reviews."""
    if scheduler is None:
        return None
    return lambda: pool(workers, scheduler)
