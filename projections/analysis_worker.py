"""Reviews computed in the background: ask with :func:`enqueue`, read with :func:`analysis_status`.

A :class:`AnalysisWorker` thread takes queued reviews from the ``analyses`` table one at
a time, reads the game's record from the event store, reviews it over a few processes
(or on a cluster's executor, a task per step) and writes its progress as it goes.
Several workers (in several processes) may share one database: each review is claimed by
exactly one of them, and one whose worker died is taken up again once its heartbeat is
stale.

>>> status = analysis_status("sqlite:///:memory:", "3f2a…")
>>> status["status"], status["progress"], status["result"]
('none', 0.0, None)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, Executor
from contextlib import AbstractContextManager, ExitStack
from typing import Any, Protocol
from uuid import UUID

from domain import games
from domain.ruleset import ReviewSettings
from domain.store import GameLibrary, StoreConfig
from projections.analysis import Analyses, default_settings

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
RETRY_SECONDS = 10.0
"""Seconds between attempts to open a store that is down."""
PROGRESS_STEP = 0.02
"""Progress is written when it has grown by at least this much."""


def enqueue(
    url: str, game_id: UUID | str, settings: ReviewSettings | None = None, force: bool = False
) -> dict[str, Any]:
    """Ask for the review of a stored game (default settings); returns its status.

    Asking again is harmless: a queued, running or done review is left as it is, unless
    ``force`` asks to redo a done or failed one.
    """
    settings = settings or default_settings()
    store = Analyses(url)
    store.enqueue(game_id, settings, force)
    return store.status(game_id, settings.key)


def analysis_status(
    url: str, game_id: UUID | str, settings: ReviewSettings | None = None
) -> dict[str, Any]:
    """``{"status": "queued|running|done|failed|none", "progress": 0…1, "result": …}``.

    ``result`` is the review's JSON once done; ``error`` says why one failed; status
    ``none`` means nobody asked for this game's review with these settings.
    """
    return Analyses(url).status(game_id, (settings or default_settings()).key)


class OnCluster(Protocol):
    """A cluster's executor (Dask's), and whether the cluster is gone."""

    @property
    def executor(self) -> Executor: ...

    @property
    def lost(self) -> Callable[[], bool]: ...


Cluster = Callable[[], AbstractContextManager[OnCluster]]
"""Opens a cluster for as long as its context lasts."""


class ClusterLost(Exception):
    """The cluster a review ran on is gone; the review is back in the queue."""


def run_one(
    analyses: Analyses, library: GameLibrary, workers: int | OnCluster | None = None
) -> str | None:
    """Review the next queued game, if any, on ``workers`` processes or a cluster; returns
    its id. A cluster found lost, before or during the review, is :class:`ClusterLost` (the
    review back in the queue)."""
    cluster: OnCluster | None = None
    shared: int | Executor | None = None
    if workers is None or isinstance(workers, int):
        shared = workers
    else:
        cluster, shared = workers, workers.executor
    if cluster is not None and cluster.lost():
        raise ClusterLost("the cluster was lost while no review ran")
    job = analyses.claim()
    if job is None:
        return None
    game_id, settings, claims = job
    key = settings.key
    written = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal written
        share = done / total if total else 1.0
        if share - written >= PROGRESS_STEP and share < 1:
            analyses.progress(game_id, key, share, claims)
            written = share

    try:
        rules, record = games.read_record(library.record(UUID(game_id)))
        if rules.review is None:
            raise ValueError(f"no review for this game yet: {rules.title} has none")
        result = rules.review.review(record, settings, progress, shared)
    except Exception as exc:  # a failed review is recorded, never retried by itself
        if cluster is not None and (isinstance(exc, CancelledError) or cluster.lost()):
            analyses.release(job)
            raise ClusterLost(f"the cluster was lost reviewing game {game_id}") from exc
        log.exception("review of game %s failed", game_id)
        analyses.fail(game_id, key, f"{type(exc).__name__}: {exc}", claims)
    else:
        analyses.finish(game_id, key, result.to_json(), claims)
    return game_id


class AnalysisWorker(threading.Thread):
    """A daemon thread that reviews queued games until :meth:`stop` is called.

    ``url`` holds the ``analyses`` table; ``store`` is the event store (default: the
    same URL); ``workers`` processes share each review (default: one per CPU), unless
    ``cluster`` opens a cluster whose executor takes its steps (kept open while the worker
    runs).
    """

    def __init__(
        self, url: str, store: StoreConfig | str | None = None, workers: int | None = None,
        poll: float = POLL_SECONDS, cluster: Cluster | None = None,
        retry: float = RETRY_SECONDS,
    ) -> None:  # fmt: skip
        super().__init__(name="howl-analysis", daemon=True)
        self.analyses = Analyses(url)
        self.store = store or url
        self.workers = workers
        self.poll = poll
        self.retry = retry
        self.cluster = cluster
        self._stopping = threading.Event()

    def run(self) -> None:
        """Take and review queued games, waiting ``poll`` seconds when there is none; a store
        or cluster that cannot be opened (or a cluster lost) is tried again every ``retry``
        seconds."""
        while not self._stopping.is_set():
            try:
                with ExitStack() as opened:
                    library = opened.enter_context(GameLibrary.open(self.store))
                    workers: int | OnCluster | None = self.workers
                    if self.cluster is not None:
                        workers = opened.enter_context(self.cluster())
                    self._serve(library, workers)
            except Exception:  # the store or the cluster is down, opening or closing it
                log.exception("analysis worker lost the store or its cluster")
                self._stopping.wait(max(self.poll, self.retry))

    def _serve(self, library: GameLibrary, workers: int | OnCluster | None) -> None:
        """Review queued games until stopped, or until the cluster is lost (to be opened
        again)."""
        while not self._stopping.is_set():
            try:
                done = run_one(self.analyses, library, workers)
            except ClusterLost:
                log.exception("analysis worker lost its cluster; opening it again")
                self._stopping.wait(max(self.poll, self.retry))
                return
            except Exception:  # the database is down: try again later
                log.exception("analysis worker could not take a review")
                done = None
            if done is None:
                self._stopping.wait(self.poll)

    def stop(self, timeout: float | None = None) -> None:
        """Stop after the review in progress (if any) and wait up to ``timeout`` seconds."""
        self._stopping.set()
        self.join(timeout)


def start_worker(
    url: str, store: StoreConfig | str | None = None, workers: int | None = None,
    cluster: Cluster | None = None,
) -> AnalysisWorker:  # fmt: skip
    """Start an :class:`AnalysisWorker` on ``url`` and return it."""
    worker = AnalysisWorker(url, store, workers, cluster=cluster)
    worker.start()
    return worker


def wait_for(url: str, game_id: UUID | str, settings: ReviewSettings | None = None,
             timeout: float = 60.0) -> dict[str, Any]:  # fmt: skip
    """Poll :func:`analysis_status` until the review is done or failed (or ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        status = analysis_status(url, game_id, settings)
        if status["status"] in ("done", "failed", "none") or time.monotonic() > deadline:
            return status
        time.sleep(0.1)
