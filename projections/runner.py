"""The projection runner: follows the store's notification log into the read-model tables.

The log is read in order and cut into *units* that are projected whole: one game's upload
(its ``Uploaded`` event and the ``Happened`` events saved with it, which one transaction
stored together) or a single metadata event. Units are gathered into batches; each batch
is written in one transaction that also moves the tracked log position, so every event
counts exactly once, and a runner stopped at any moment resumes after the last batch it
committed. Two runners never write the same batch: the position only moves from the
value a batch started at.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

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


class PositionMoved(Exception):
    """Another runner committed a batch first: start again from its position."""


def happened_reader(library: GameLibrary) -> Callable[[Notification], dict[str, Any]] | None:
    """A fast reader of stored ``Happened`` events (plain JSON, version 1), when it applies.

    Skips building event objects; None when the store encrypts or compresses, or once
    ``Happened`` has a newer class version (its stored events then need upcasting).
    """
    mapper = library.mapper
    plain = isinstance(mapper.transcoder, JSONTranscoder) and not mapper.cipher
    if not plain or mapper.compressor or Game.Happened.class_version != 1:
        return None
    return lambda n: json.loads(n.state)


def units(library: GameLibrary, after: int) -> Iterator[list[Notification]]:
    """The notifications after position ``after``, cut into units projected whole."""
    run: list[Notification] = []
    start = after + 1
    while True:
        page = library.recorder.select_notifications(start, PAGE)
        for n in page:
            if run and n.topic == HAPPENED and n.originator_id == run[0].originator_id:
                run.append(n)
                continue
            if run:
                yield run
            run = [n]
            if n.topic != UPLOADED:
                yield run
                run = []
        if len(page) < PAGE:
            break
        start = page[-1].id + 1
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
        read: Callable[[Notification], dict[str, Any]] | None = None,
    ) -> None:
        """Read one unit into the batch (``read``: see :func:`happened_reader`)."""
        builds = self.builds
        for n in unit:
            build = builds.get(n.originator_id)  # type: ignore[call-overload]
            if read is not None and build is not None and n.topic == HAPPENED:
                state = read(n)
                build.version = n.originator_version
                build.happened.append((state["step"], state["type"], state["data"]))
                continue
            e = library.mapper.to_domain_event(n)
            if isinstance(e, Game.Uploaded):
                builds[e.originator_id] = Build.uploaded(e)
            elif build is not None:
                build.add(e)
            elif isinstance(e, Game.Happened):  # a game already projected got an event
                gid = e.originator_id
                builds[gid] = reload(library, gid, n.originator_version)
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
        with ExitStack() as stack:
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
        start = tables.position(self.db)
        last = library.recorder.max_notification_id() or 0
        if last <= start:
            return 0
        read = happened_reader(library)
        batch = Batch(start)
        done = 0
        try:
            for unit in units(library, start):
                batch.take(library, unit, read)
                if batch.notifications >= self.batch_size:
                    self._write(batch, fold(list(batch.builds.values())))
                    done += batch.notifications
                    if progress:
                        progress(batch.end - start, max(last, batch.end) - start)
                    batch = Batch(batch.end)
            if batch.notifications:
                self._write(batch, fold(list(batch.builds.values())))
                done += batch.notifications
                if progress:
                    progress(batch.end - start, max(last, batch.end) - start)
        except PositionMoved:
            raise PositionMoved(done) from None
        return done

    def _write(self, batch: Batch, projected: list[Projected]) -> None:
        """Write a batch and move the position, in one transaction."""
        db = self.db
        games = ", ".join(GAME_COLUMNS)
        seats = ", ".join(SEAT_COLUMNS)
        with db.connect() as conn:
            if not tables.advance(db, conn, batch.start, batch.end):
                raise PositionMoved
            ids = [(row[0],) for row, _, _ in projected]
            for table in tables.TABLES:
                db.executemany(conn, f"DELETE FROM {table} WHERE game_id = ?", ids)
            groups = [projected] if not self.delay else [[p] for p in projected]
            for group in groups:
                db.executemany(
                    conn,
                    f"INSERT INTO {tables.GAMES} ({games}) VALUES ({_marks(GAME_COLUMNS)})",
                    [row for row, _, _ in group],
                )
                db.executemany(
                    conn,
                    f"INSERT INTO {tables.SEATS} ({seats}) VALUES ({_marks(SEAT_COLUMNS)})",
                    [seat for _, rows, _ in group for seat in rows],
                )
                db.executemany(
                    conn,
                    f"INSERT INTO {tables.TIMELINES} (game_id, doc) VALUES (?, ?)",
                    [(row[0], doc) for row, _, doc in group],
                )
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


def _marks(columns: Sequence[str]) -> str:
    return ", ".join("?" * len(columns))
