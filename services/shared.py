"""What one app shares across requests and threads: one game library, one set of read
models, one body cache, the process's ingest pool, one catch-up thread and the background
analysis worker, opened or started on first use (so building the app stays fast and a store
that is down does not stop it from starting)."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

from domain import games
from domain.ruleset import Depth, ReviewSettings
from domain.store import GameLibrary, UploadResult
from domain.store.comments import TooManyComments, annotate
from domain.store.game import check_visibility
from projections.analysis_worker import AnalysisWorker, enqueue, start_worker
from projections.readmodels import ReadModels
from services.bodies import BodyCache, LatestAnswers
from services.catchup import CatchUps
from services.compute import opener
from services.config import Settings
from services.ingest import Failed, KnownDocuments, caught_up, checked_upload, ingest_pool
from services.library import (
    analyses_url,
    analysis_settings,
    open_library,
    open_read_models,
    review_settings,
    store_config,
)
from services.refusals import Refusal
from services.streams import Streams
from services.withdrawals import Withdrawals

if TYPE_CHECKING:
    from uuid import UUID

    from domain.store.uploads import EncodedGame
    from services.bots import Mover

SERVICES_KEY = "howl.services"
CATCH_UP_INTERVAL = 2.0
"""Seconds a list or statistics answer may lag games stored by another process."""
CATCH_UP_SECONDS = 30.0
"""How long a read waits for a catch-up it asked for before answering what is projected."""
PROJECTED_SECONDS = 10.0
"""How long an upload waits for its game to be projected before answering it as stored but
not projected yet."""

log = logging.getLogger(__name__)

SQLITE_CANNOT_WRITE = {sqlite3.SQLITE_FULL: "full", sqlite3.SQLITE_READONLY: "read-only"}
POSTGRES_CANNOT_WRITE = {"53100": "full", "25006": "read-only"}
"""Errors (SQLite result codes, PostgreSQL SQLSTATEs) that mean the store cannot write."""


def cannot_write(exc: BaseException) -> str | None:
    """Why the store refused a write when that is because it is full or read-only (an error
    of :data:`SQLITE_CANNOT_WRITE` or :data:`POSTGRES_CANNOT_WRITE` anywhere in ``exc``'s
    chain); None for any other error.

    >>> cannot_write(RuntimeError("no")) is None
    True
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        code = getattr(current, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in SQLITE_CANNOT_WRITE:
            return SQLITE_CANNOT_WRITE[code & 0xFF]
        state = getattr(current, "sqlstate", None)
        if state in POSTGRES_CANNOT_WRITE:
            return POSTGRES_CANNOT_WRITE[state]
        current = current.__cause__ or current.__context__
    return None


_workers: dict[str, AnalysisWorker] = {}
"""The process's analysis workers by analyses URL: one per store, whichever app started it."""
_workers_lock = threading.Lock()


def runs_analysis(settings: Settings) -> bool:
    """Whether a server of ``settings`` reviews games (``HOWL_ANALYSIS``, not in memory)."""
    return settings.analysis and not settings.database_url.endswith(":memory:")


def start_reviews(settings: Settings) -> AnalysisWorker:
    """Start the background reviews of a server of ``settings``: on ``HOWL_ANALYSIS_PROCESSES``
    local processes, or on the Dask cluster of ``HOWL_DASK_SCHEDULER`` (``local``: one of that
    many worker processes)."""
    processes = settings.analysis_processes or None
    return start_worker(
        analyses_url(settings), store_config(settings), processes,
        opener(settings.dask_scheduler, processes),
    )  # fmt: skip


class Services:
    """The app's shared game library, read models, body cache, ingest pool and catch-up thread
    (thread-safe); with ``analysis_worker``, :meth:`ensure_worker` runs the analysis worker in
    this process."""

    def __init__(self, settings: Settings, analysis_worker: bool = True) -> None:
        self.settings = settings
        self.analysis_worker = analysis_worker
        self.bodies = BodyCache()
        self.latest = LatestAnswers()
        """The latest statistics and player pages, while the read models stay as they were."""
        self.withdrawals = Withdrawals(lambda: self.library, self.bodies)
        """Forgets the cached answers of games withdrawn (call ``check`` before answering)."""
        self._library: GameLibrary | None = None
        self._read_models: ReadModels | None = None
        self._open_lock = threading.Lock()
        self.streams = Streams()
        """The event streams being served (ended before the library is closed)."""
        self.ingest = ingest_pool(settings.ingest_processes)
        self.documents = KnownDocuments()
        """The games uploaded through this process, by their documents."""
        self.catch_ups = CatchUps(self._catch_up, self._turn)
        self._pool_settings = replace(settings, api_tokens={})
        """The settings the pool catches up with (picklable, without the tokens)."""
        memory = settings.database_url.endswith(":memory:")
        self._shared_store = None if memory else self._pool_settings
        """The settings the pool finds stored games with (None: only this process sees the
        store)."""
        self._caught_up_at = float("-inf")
        self.analyses_url = analyses_url(settings)
        self.analysis_settings: ReviewSettings = analysis_settings(settings)
        self._worker: AnalysisWorker | None = None
        self.mover: Mover | None = None
        """The thread playing the bots' turns at tables (:mod:`services.bots`), started on
        first use."""
        self.write_failure: str | None = None
        """Why this process's last write failed because the store cannot write (None: the
        last write went through)."""

    @property
    def library(self) -> GameLibrary:
        """The game library (event store), opened on first use."""
        if self._library is None:
            with self._open_lock:
                if self._library is None:
                    library = open_library(self.settings)
                    library.cached_games = self.settings.cached_games
                    self._library = library
        return self._library

    @property
    def read_models(self) -> ReadModels:
        """The read models, opened on first use, their tables made (a 503 :class:`Refusal`
        ``store_cannot_write`` while a full or read-only store that never held them cannot
        make them)."""
        if self._read_models is None:
            with self._open_lock:
                if self._read_models is None:
                    self._read_models = open_read_models(self.settings)
        models = self._read_models
        if not models.ready:
            unmade = "It holds no read models yet: nothing can be read until it can write."
            with self.writing(unmade):  # making them is a write: health says so when it fails
                models.ensure()
        return models

    def upload(self, doc: Mapping[str, Any], uploader: str | None, **fields: Any) -> UploadResult:
        """Store a record (``InvalidRecord``/``RecordError`` for a bad one, a 422
        :class:`Refusal` ``too_costly`` past ``HOWL_MAX_CHECK_SECONDS``: nothing is stored),
        store its ``annotations`` as comments (those the game has not: a 409 ``too_many_comments``
        past the limit), project it, and queue its review when it is new and its game has a
        review (``HOWL_ANALYSIS``).

        The record is checked in the ingest pool (:mod:`services.ingest`) while this thread
        waits, unless the same document was uploaded through this process before and its
        game is still stored (:attr:`documents`), or the pool finds its game stored; the game
        is written here, then projected by the catch-up thread (waited for up to
        :data:`PROJECTED_SECONDS`, unless it is stored and projected already) while this
        thread queues its review. Once stored, the game is the answer: catching up never
        raises (a game that cannot be projected is recorded as such, see :meth:`catch_up`)."""
        check_visibility(fields.get("visibility", "public"))
        digest = self.documents.digest(doc)
        known = self.documents.get(digest)
        ready: EncodedGame | Failed | None = None
        if known is not None and self.library.exists(known):
            game_id: UUID | None = known
        else:
            metadata = {**fields, "uploaded_by": uploader}
            game_id, ready = self.ingest.run(
                checked_upload, tuple(games.rulesets()), doc, metadata,
                self.settings.max_check_seconds, self._shared_store,
            )  # fmt: skip
        with self.writing():
            stored = ready is None or (game_id is not None and self.library.exists(game_id))
            if isinstance(ready, Failed) and not stored:
                raise ready.error()
            if stored or isinstance(ready, Failed):
                assert game_id is not None
                result = UploadResult(game_id, created=False)
            else:
                assert ready is not None
                result = self.library.add(ready)
            try:
                annotate(self.library, result.game_id, doc, uploader)
            except TooManyComments as exc:
                raise Refusal(409, "too_many_comments", str(exc), limit=exc.limit) from None
        self.documents.add(digest, result.game_id)
        if not result.created and self.read_models.summary(result.game_id) is not None:
            return result  # stored and projected before
        projected = self.catch_ups.ask()  # the review is queued while the game is projected
        queue = result.created and self.settings.analysis
        if queue and games.of_document(doc).review is not None:  # the rules it was checked by
            try:
                enqueue(self.analyses_url, result.game_id, self.analysis_settings)
            except Exception:  # the game is stored; its review can be asked for again
                log.exception("could not queue the review of game %s", result.game_id)
        self.catch_ups.wait(projected, PROJECTED_SECONDS)
        return result

    def review_settings(self, depth: Depth | None) -> ReviewSettings:
        """The settings of a review at ``depth`` (:func:`services.library.review_settings`:
        the server's own for its depth and for None)."""
        return review_settings(self.settings, depth)

    @contextmanager
    def writing(self, refused: str = "Nothing was stored.") -> Iterator[None]:
        """Around a write to the store: a full or read-only store is a 503 :class:`Refusal`
        ``store_cannot_write`` whose detail ends with ``refused`` (remembered in
        :attr:`write_failure` until a write succeeds); other errors go on as they are."""
        try:
            yield
        except Exception as exc:
            reason = cannot_write(exc)
            if reason is None:
                raise
            self.write_failure = reason
            log.error("the store cannot write (%s): %s", reason, exc)
            raise Refusal(503, "store_cannot_write",
                          f"The store cannot write ({reason}). {refused}") from exc  # fmt: skip
        self.write_failure = None

    def catch_up(self, timeout: float | None = None) -> ReadModels:
        """Project every stored event not yet projected (in the catch-up thread, which has
        the ingest pool do it; waited for up to ``timeout`` seconds, default
        :data:`CATCH_UP_SECONDS`), then answer the read models.

        A catch-up that fails (the database cannot write, say) is logged and the read
        models answer as they are: reads are still served, and the next catch-up goes on
        from where this one stopped."""
        self.catch_ups.wait(self.catch_ups.ask(), CATCH_UP_SECONDS if timeout is None else timeout)
        return self.read_models

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """This process's turn to catch up the read models it shares with the other server
        processes (:meth:`ReadModels.catching_up`); a turn that cannot be taken (the
        database is down, say) is logged, and the catch-up goes on beside the others."""
        with ExitStack() as stack:
            try:
                stack.enter_context(self.read_models.catching_up())
            except Exception as exc:  # a read-only folder, say: the runner needs no turn
                log.warning("catching up without taking a turn: %s", exc)
            yield

    def _catch_up(self) -> None:
        """One catch-up, in the catch-up thread, in this process's turn: in the ingest pool
        (in this thread for a store in memory, which only this process sees), unless
        another process's turn projected the whole log already."""
        started = time.monotonic()
        try:
            if self._shared_store is None:  # in memory: the pool cannot see the store
                self.read_models.catch_up(self.library)
            elif self.read_models.position() < (self.library.recorder.max_notification_id() or 0):
                rulesets = tuple(games.rulesets())
                failed = self.ingest.run(caught_up, rulesets, self._pool_settings, urgent=True)
                if failed is not None:
                    log.error("catching up the read models failed; they answer as they are:\n%s",
                              failed)  # fmt: skip
        except Exception:
            log.exception("catching up the read models failed; they answer as they are")
        self._caught_up_at = started

    def fresh(self) -> ReadModels:
        """The read models, caught up unless that was done in the last moments."""
        if time.monotonic() - self._caught_up_at > CATCH_UP_INTERVAL:
            return self.catch_up()
        return self.read_models

    def ensure_worker(self) -> None:
        """Start this process's analysis worker for the store unless it runs already (or
        ``HOWL_ANALYSIS`` is off, the worker runs elsewhere, or the store is in memory)."""
        if not self.analysis_worker or not runs_analysis(self.settings):
            return
        running = _workers.get(self.analyses_url)
        if running is not None and running.is_alive():
            return
        try:
            _ = self.library  # its tables made first: the worker's library must not race them
        except Exception:  # the store is down: the request itself will say so
            return
        with _workers_lock:
            running = _workers.get(self.analyses_url)
            if running is None or not running.is_alive():
                worker = start_reviews(self.settings)
                _workers[self.analyses_url] = self._worker = worker
                log.info("analysis worker started (%s)", self.analysis_settings.key)

    def end_streams(self) -> None:
        """End the event streams being served, once their reads in progress are done: each
        ends at its next poll, and none reads the library once this returns."""
        self.streams.end()

    def close(self) -> None:
        """End the event streams and the bots' mover (after its move in progress), stop the
        analysis worker this app started (after its review in progress) and close the
        library and the read models (they open again on next use)."""
        self.end_streams()
        self.catch_ups.stop()
        mover, self.mover = self.mover, None
        if mover is not None:
            mover.stop()
        with _workers_lock:
            worker, self._worker = self._worker, None
            if worker is not None and _workers.get(self.analyses_url) is worker:
                del _workers[self.analyses_url]
        if worker is not None:
            worker.stop(timeout=30)
        with self._open_lock:
            if self._library is not None:
                self._library.close()
                self._library = None
            if self._read_models is not None:
                self._read_models.close()
                self._read_models = None


def services(app: Flask | None = None) -> Services:
    """The :class:`Services` of ``app`` (default: the current app)."""
    return (app or current_app).extensions[SERVICES_KEY]
