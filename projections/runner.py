"""The projection runner: follows the store's notification log into the read-model tables.

The log is read in order and cut into *units* that are projected whole: one game's upload
(its ``Uploaded`` event and the ``Happened`` events saved with it, which one transaction
stored together) or a single metadata event. Units are gathered into batches; each batch
is written in one transaction that also moves the tracked log position, so every event
counts exactly once, and a runner stopped at any moment resumes after the last batch it
committed. Two runners never write the same batch: the position only moves from the
value a batch started at. Waits on the database overlap the folding: the next page of the
log is read in a thread while this one is used, and a batch is written in a thread while
the next is read and folded (batches still commit one after another, in order).
"""

from __future__ import annotations

import gc
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import JSONTranscoder, Notification

from domain.store import Game, GameLibrary
from projections import tables
from projections.builds import Build, Projected, meta_change, project, reload
from projections.sql import Database
from projections.summaries import GAME_COLUMNS, SEAT_COLUMNS, SEAT_GAME_COLUMNS

Progress = Callable[[int, int], None]
"""Called with (notifications done, notifications to do) while catching up."""

UPLOADED, HAPPENED = Game.Uploaded.TOPIC, Game.Happened.TOPIC
PAGE = 1000
"""Notifications read from the log at a time."""
TIMELINE_COLUMNS = ("game_id", "doc")


class PositionMoved(Exception):
    """Another runner committed a batch first: start again from its position."""


def happened_decoder(
    library: GameLibrary,
) -> Callable[[Sequence[Notification]], list[dict[str, Any]]] | None:
    """A fast reader of a run of stored ``Happened`` events (plain JSON, version 1), when it
    applies: one ``orjson.loads`` for the run, and no event objects. None when the store
    encrypts or compresses, or once ``Happened`` has a newer class version (its stored
    events then need upcasting)."""
    mapper = library.mapper
    plain = isinstance(mapper.transcoder, JSONTranscoder) and not mapper.cipher
    if not plain or mapper.compressor or Game.Happened.class_version != 1:
        return None
    return lambda run: orjson.loads(b"[" + b",".join(n.state for n in run) + b"]")


def pages(library: GameLibrary, after: int) -> Iterator[Sequence[Notification]]:
    """The log after position ``after`` a page at a time, each read while the last is used."""
    fetch = partial(library.recorder.select_notifications, limit=PAGE)
    with ThreadPoolExecutor(1) as reader:
        ahead = reader.submit(fetch, after + 1)
        while True:
            page = ahead.result()
            if len(page) == PAGE:
                ahead = reader.submit(fetch, page[-1].id + 1)
            yield page
            if len(page) < PAGE:
                return


def units(library: GameLibrary, after: int) -> Iterator[list[Notification]]:
    """The notifications after position ``after``, cut into units projected whole."""
    run: list[Notification] = []
    game = -1  # the id (as an int) of the game whose upload ``run`` gathers
    for page in pages(library, after):
        for n in page:
            if n.topic == HAPPENED and n.originator_id.int == game:
                run.append(n)
                continue
            if run:
                yield run
            if n.topic == UPLOADED:
                run, game = [n], n.originator_id.int
            else:
                yield [n]
                run, game = [], -1
    if run:
        yield run


@dataclass
class Batch:
    """Games and metadata changes read from the log, not yet written."""

    start: int
    end: int = 0
    notifications: int = 0
    builds: dict[UUID, Build] = field(default_factory=dict)
    changes: list[tuple[str, Any, str, int]] = field(default_factory=list)

    def take(
        self,
        library: GameLibrary,
        unit: Sequence[Notification],
        decode: Callable[[Sequence[Notification]], list[dict[str, Any]]] | None = None,
    ) -> None:
        """Read one unit into the batch (``decode``: see :func:`happened_decoder`)."""
        builds = self.builds
        e = library.mapper.to_domain_event(unit[0])
        build = builds.get(e.originator_id)
        if isinstance(e, Game.Uploaded):
            build = builds[e.originator_id] = Build.uploaded(e)
            run = unit[1:]
            if run and decode is not None:
                build.happened.extend(decode(run))
                build.version = run[-1].originator_version
            else:
                for n in run:
                    build.add(library.mapper.to_domain_event(n))
        elif build is not None:
            build.add(e)
        elif isinstance(e, Game.Happened):  # a game already projected got an event
            builds[e.originator_id] = reload(library, e.originator_id, e.originator_version)
        elif (change := meta_change(e)) is not None:
            self.changes.append((*change, str(e.originator_id), e.originator_version))
        self.end = unit[-1].id
        self.notifications += len(unit)


class Runner:
    """Projects the log into ``db`` in batches of about ``batch_size`` notifications.

    ``workers`` > 1 folds the games of a batch in that many processes (for rebuilds and
    long catch-ups; small catch-ups stay in this process). ``delay`` (seconds) pauses
    after writing each game inside a batch's transaction: it lets tests stop a runner
    mid-batch.
    """

    def __init__(
        self, db: Database, batch_size: int = 2000, delay: float = 0.0, workers: int = 1
    ) -> None:
        self.db = db
        self.batch_size = batch_size
        self.delay = delay
        self.workers = workers

    def catch_up(self, library: GameLibrary, progress: Progress | None = None) -> int:
        """Project every notification after the tracked position; returns how many."""
        done = 0
        with ExitStack() as stack, _collector_paused():
            pool: list[Executor] = []

            def fold(builds: list[Build]) -> list[Projected]:
                if self.workers <= 1 or len(builds) < 2:
                    return [project(b) for b in builds]
                if not pool:
                    context = multiprocessing.get_context("spawn")
                    pool.append(stack.enter_context(ProcessPoolExecutor(self.workers, context)))
                return list(pool[0].map(project, builds))

            while True:
                try:
                    return done + self._run(library, progress, fold)
                except PositionMoved as moved:
                    done += moved.args[0]

    def _run(
        self,
        library: GameLibrary,
        progress: Progress | None,
        fold: Callable[[list[Build]], list[Projected]],
    ) -> int:
        """Project the log from the tracked position: each batch is written (in a thread of
        its own) while the next one is read and folded."""
        start = tables.position(self.db)
        last = library.recorder.max_notification_id() or 0
        if last <= start:
            return 0
        done = 0

        def written(writing: Future[Batch]) -> None:
            nonlocal done
            batch = writing.result()
            done += batch.notifications
            if progress:
                progress(batch.end - start, max(last, batch.end) - start)

        with ThreadPoolExecutor(1) as writer:
            writing: Future[Batch] | None = None
            try:
                for batch in self._batches(library, start):
                    projected = fold(list(batch.builds.values()))
                    if writing is not None:
                        written(writing)
                    writing = writer.submit(self._write, batch, projected)
                if writing is not None:
                    written(writing)
            except PositionMoved:
                raise PositionMoved(done) from None
        return done

    def _batches(self, library: GameLibrary, start: int) -> Iterator[Batch]:
        """The log after ``start`` read into batches of about ``batch_size`` notifications."""
        decode = happened_decoder(library)
        batch = Batch(start)
        for unit in units(library, start):
            batch.take(library, unit, decode)
            if batch.notifications >= self.batch_size:
                yield batch
                batch = Batch(batch.end)
        if batch.notifications:
            yield batch

    def _write(self, batch: Batch, projected: list[Projected]) -> Batch:
        """Write a batch and move the position, in one transaction; returns the batch."""
        db = self.db
        with db.connect() as conn:
            if not tables.advance(db, conn, batch.start, batch.end):
                raise PositionMoved
            ids = [(row[0],) for row, _, _ in projected]
            for table in tables.TABLES:
                db.executemany(conn, f"DELETE FROM {table} WHERE game_id = ?", ids)
            groups = [projected] if not self.delay else [[p] for p in projected]
            for group in groups:
                seats = [seat for _, rows, _ in group for seat in rows]
                db.insert(conn, tables.GAMES, GAME_COLUMNS, [row for row, _, _ in group])
                db.insert(conn, tables.SEATS, SEAT_COLUMNS, seats)
                db.insert(conn, tables.TIMELINES, TIMELINE_COLUMNS, [
                    (row[0], doc) for row, _, doc in group
                ])  # fmt: skip
                if self.delay:
                    time.sleep(self.delay)
            for column, value, game_id, version in batch.changes:
                db.execute(
                    conn,
                    f"UPDATE {tables.GAMES} SET {column} = ?, version = ? "
                    "WHERE game_id = ? AND version < ?",
                    (value, version, game_id, version),
                )
                if column in SEAT_GAME_COLUMNS:
                    db.execute(
                        conn,
                        f"UPDATE {tables.SEATS} SET {column} = (SELECT {column} FROM "
                        f"{tables.GAMES} g WHERE g.game_id = ?) WHERE game_id = ?",
                        (game_id, game_id),
                    )
        return batch


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (as it was before, after).

    Catching up allocates many short-lived containers and no reference cycles; the
    collections they would trigger, over all a batch holds, cost a third of its time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
