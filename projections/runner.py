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

A game that cannot be projected (its events do not read or fold, or its rows do not fit
the tables) does not stop the others: it is left out of the read models, recorded in the
failures table with the event it failed on, in the batch's transaction, and logged; the
position moves past it. :meth:`Runner.retry` projects such games again.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.persistence import JSONTranscoder, PersistenceError

from domain.players import Aliases
from domain.store import Game, GameLibrary
from domain.store.log import Logged, pager
from domain.store.players import Players
from projections import aliases, tables
from projections.builds import Build, Projected, attempt, error_text, meta_change, reload
from projections.db import Database
from projections.summaries import GAME_COLUMNS, SEAT_COLUMNS, SEAT_GAME_COLUMNS

Progress = Callable[[int, int], None]
"""Called with (notifications done, notifications to do) while catching up."""

UPLOADED, HAPPENED = Game.Uploaded.TOPIC, Game.Happened.TOPIC
PAGE = 1000
"""Notifications read from the log at a time."""
BATCH = 10_000
"""Notifications a runner projects per transaction, by default (whole games are never
split): fewer, larger transactions fold and write a long log faster."""
RESTAT_EVERY = 1.0
"""Seconds between two looks, after catch-ups, at how much the tables grew
(:func:`tables.restat`)."""
TIMELINE_COLUMNS = ("game_id", "doc")
UNAVAILABLE = (sqlite3.OperationalError, psycopg.OperationalError, psycopg.InterfaceError)
"""Errors of the database itself (down, locked, full, read-only), not of one game's rows:
they stop the runner, which starts again from its position next time."""

log = logging.getLogger(__name__)


class PositionMoved(Exception):
    """Another runner committed a batch first: start again from its position."""


def happened_joiner(library: GameLibrary) -> Callable[[Sequence[Logged]], bytes] | None:
    """A fast reader of a run of stored ``Happened`` events (plain JSON, version 1), when it
    applies: their stored states joined into one JSON array, read later with one
    ``orjson.loads`` (in the process that folds the game) and no event objects. None when
    the store encrypts or compresses, or once ``Happened`` has a newer class version (its
    stored events then need upcasting)."""
    mapper = library.mapper
    plain = isinstance(mapper.transcoder, JSONTranscoder) and not mapper.cipher
    if not plain or mapper.compressor or Game.Happened.class_version != 1:
        return None
    return lambda run: b"[" + b",".join(n.state for n in run) + b"]"


def pages(library: GameLibrary, after: int) -> Iterator[Sequence[Logged]]:
    """The log after position ``after`` a page at a time, each read (in a thread) while the
    last is used: one page ahead, no more (a reader further ahead takes the GIL from the
    fold for nothing)."""
    fetch = pager(library.recorder)
    with ThreadPoolExecutor(1) as reader:
        ahead = reader.submit(fetch, after + 1, PAGE)
        while True:
            page = ahead.result()
            if len(page) == PAGE:
                ahead = reader.submit(fetch, page[-1].id + 1, PAGE)
            yield page
            if len(page) < PAGE:
                return


def game_of(n: Logged) -> UUID:
    """The id of the game ``n`` belongs to: the library names every game by a UUID."""
    assert isinstance(n.originator_id, UUID), n.originator_id
    return n.originator_id


def units(library: GameLibrary, after: int) -> Iterator[list[Logged]]:
    """The notifications after position ``after``, cut into units projected whole."""
    run: list[Logged] = []
    game = -1  # the id (as an int) of the game whose upload ``run`` gathers
    for page in pages(library, after):
        for n in page:
            if n.topic == HAPPENED and game_of(n).int == game:
                run.append(n)
                continue
            if run:
                yield run
            if n.topic == UPLOADED:
                run, game = [n], game_of(n).int
            else:
                yield [n]
                run, game = [], -1
    if run:
        yield run


@dataclass(frozen=True)
class Failure:
    """A game left out of the read models: the row of the failures table."""

    game_id: str
    position: int
    version: int
    stage: str
    error: str
    failed_at: str = field(default_factory=lambda: tables.timestamp(datetime.now(UTC)))

    def row(self) -> tuple[Any, ...]:
        """Its row (``tables.FAILURE_COLUMNS``)."""
        return (self.game_id, self.position, self.version, self.stage, self.error, self.failed_at)


@dataclass
class Batch:
    """Games and metadata changes read from the log, not yet written."""

    start: int
    end: int = 0
    notifications: int = 0
    builds: dict[UUID, Build] = field(default_factory=dict)
    changes: list[tuple[str, Any, str, int]] = field(default_factory=list)
    positions: dict[UUID, int] = field(default_factory=dict)
    """The log position each game of ``builds`` was last read from."""
    failures: dict[UUID, Failure] = field(default_factory=dict)
    withdrawn: list[str] = field(default_factory=list)
    """Games withdrawn: their rows are deleted."""
    merges: list[tuple[str, str]] = field(default_factory=list)
    """Players merged: each a name merged away and the name merged into."""

    def fail(self, game_id: UUID, position: int, version: int, stage: str, error: str) -> None:
        """Leave a game out of the batch: it is recorded as failed instead."""
        self.builds.pop(game_id, None)
        self.failures[game_id] = Failure(str(game_id), position, version, stage, error)

    def take_or_fail(
        self,
        library: GameLibrary,
        unit: Sequence[Logged],
        join: Callable[[Sequence[Logged]], bytes] | None = None,
    ) -> None:
        """:meth:`take`; a unit that does not read is recorded as its game's failure."""
        try:
            self.take(library, unit, join)
        except PersistenceError:
            raise
        except Exception as exc:
            first = unit[0]
            self.fail(
                game_of(first), first.id, unit[-1].originator_version, "read",
                error_text(exc),
            )  # fmt: skip
            self.end = unit[-1].id
            self.notifications += len(unit)

    def take(
        self,
        library: GameLibrary,
        unit: Sequence[Logged],
        join: Callable[[Sequence[Logged]], bytes] | None = None,
    ) -> None:
        """Read one unit into the batch (``join``: see :func:`happened_joiner`)."""
        builds = self.builds
        e = library.mapper.to_domain_event(unit[0].notification())
        build = builds.get(e.originator_id)
        self.positions[e.originator_id] = unit[0].id
        if isinstance(e, Game.Withdrawn):
            builds.pop(e.originator_id, None)
            self.failures.pop(e.originator_id, None)
            self.withdrawn.append(str(e.originator_id))
        elif isinstance(e, Players.Merged):
            self.merges.append((e.alias, e.into))
        elif isinstance(e, Game.Uploaded):
            build = builds[e.originator_id] = Build.uploaded(e)
            run = unit[1:]
            if run and join is not None:
                build.joined = join(run)
                build.version = run[-1].originator_version
            else:
                for n in run:
                    build.add(library.mapper.to_domain_event(n.notification()))
        elif build is not None:
            build.add(e)
        elif isinstance(e, Game.Happened):  # a game already projected got an event
            builds[e.originator_id] = reload(library, e.originator_id, e.originator_version)
            self.failures.pop(e.originator_id, None)
        elif (change := meta_change(e)) is not None:
            self.changes.append((*change, str(e.originator_id), e.originator_version))
        self.end = unit[-1].id
        self.notifications += len(unit)


class Runner:
    """Projects the log into ``db`` in batches of about ``batch_size`` notifications.

    ``workers`` > 1 folds the games of a batch in that many processes (for rebuilds and
    long catch-ups; small catch-ups stay in this process). ``delay`` (seconds) pauses
    after writing each game inside a batch's transaction: it lets tests stop a runner
    mid-batch. ``layout`` names the tables written (the live ones, or a set being rebuilt
    beside them).
    """

    def __init__(
        self,
        db: Database,
        batch_size: int = BATCH,
        delay: float = 0.0,
        workers: int = 1,
        layout: tables.Layout = tables.LIVE,
    ) -> None:
        self.db = db
        self.batch_size = batch_size
        self.delay = delay
        self.workers = workers
        self.layout = layout
        self._restat_at = float("-inf")

    def catch_up(self, library: GameLibrary, progress: Progress | None = None) -> int:
        """Project every notification after the tracked position; returns how many."""
        done = 0
        with ExitStack() as stack, _collector_paused():
            pool: list[Executor] = []

            def fold(builds: list[Build]) -> list[Projected | str]:
                if self.workers <= 1 or len(builds) < 2:
                    return [attempt(b) for b in builds]
                if not pool:  # forked from a server that imported the folding code once
                    context = multiprocessing.get_context("forkserver")
                    context.set_forkserver_preload([attempt.__module__])
                    pool.append(stack.enter_context(
                        ProcessPoolExecutor(self.workers, context, initializer=gc.disable)
                    ))  # fmt: skip
                chunk = max(1, len(builds) // (self.workers * 4))  # a few sends per worker
                return list(pool[0].map(attempt, builds, chunksize=chunk))

            while True:
                try:
                    done += self._run(library, progress, fold)
                    break
                except PositionMoved as moved:
                    done += moved.args[0]
        if done and time.monotonic() - self._restat_at > RESTAT_EVERY:
            self._restat_at = time.monotonic()
            tables.restat(self.db, self.layout)
        return done

    def retry(self, library: GameLibrary) -> tuple[list[str], list[Failure]]:
        """Project again, from their whole streams, the games recorded as failed: those
        that now project leave the failures table. Returns their ids and the failures
        that remain. One transaction, holding the position still while it runs."""
        db, layout = self.db, self.layout
        with db.connect() as conn:
            batch = Batch(tables.hold(db, conn, layout))
            batch.end = batch.start
            rows = db.execute(
                conn, f"SELECT game_id, position FROM {layout.failures} ORDER BY position"
            ).fetchall()
            for game_id, position in rows:
                gid = UUID(game_id)
                try:
                    batch.builds[gid] = reload(library, gid)
                    batch.positions[gid] = position
                except PersistenceError:
                    raise
                except Exception as exc:
                    batch.fail(gid, position, 0, "read", error_text(exc))
            projected = [attempt(b) for b in batch.builds.values()]
            self._store(conn, batch, self._sorted(batch, projected), isolated=True)
        return [gid for gid, _ in rows if UUID(gid) not in batch.failures], list(
            batch.failures.values()
        )

    def _run(
        self,
        library: GameLibrary,
        progress: Progress | None,
        fold: Callable[[list[Build]], list[Projected | str]],
    ) -> int:
        """Project the log from the tracked position: each batch is written (in a thread of
        its own) while the next one is read and folded."""
        start = tables.position(self.db, layout=self.layout)
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
                    projected = self._sorted(batch, fold(list(batch.builds.values())))
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
        join = happened_joiner(library)
        batch = Batch(start)
        for unit in units(library, start):
            batch.take_or_fail(library, unit, join)
            if batch.notifications >= self.batch_size:
                yield batch
                batch = Batch(batch.end)
        if batch.notifications:
            yield batch

    @staticmethod
    def _sorted(batch: Batch, folded: list[Projected | str]) -> list[Projected]:
        """The games that folded; those that did not become the batch's failures."""
        projected = []
        for build, result in zip(list(batch.builds.values()), folded, strict=True):
            if isinstance(result, str):
                position = batch.positions[build.game_id]
                batch.fail(build.game_id, position, build.version, "fold", result)
            else:
                projected.append(result)
        return projected

    def _write(self, batch: Batch, projected: list[Projected]) -> Batch:
        """Write a batch and move the position, in one transaction; returns the batch.

        When some game's rows do not go in, the batch is written again game by game, each
        in a savepoint, and the games that fail are recorded instead."""
        try:
            with self.db.connect() as conn:
                self._store(conn, batch, projected, isolated=False)
        except (PositionMoved, tables.TrackingGone, *UNAVAILABLE):
            raise
        except Exception:
            with self.db.connect() as conn:
                self._store(conn, batch, projected, isolated=True)
        return batch

    def _store(self, conn: Any, batch: Batch, projected: list[Projected], isolated: bool) -> None:
        """Write ``batch`` on ``conn``: all at once, or (``isolated``) each game and each
        metadata change in a savepoint, recording those that fail."""
        db, layout = self.db, self.layout
        if not tables.advance(db, conn, batch.start, batch.end, layout):
            raise PositionMoved
        ids = [row[0] for row, *_ in projected] + [*map(str, batch.failures), *batch.withdrawn]
        for table in layout.game_tables:
            db.delete(conn, table, "game_id", ids)
        players = (
            aliases.merge(db, conn, layout, batch.merges)
            if batch.merges
            else aliases.load(db, conn, layout)
        )
        insert = partial(self._insert, players=players, projected=batch.end)
        change = partial(self._change, projected=batch.end)
        groups = [projected] if not (self.delay or isolated) else [[p] for p in projected]
        for group in groups:
            if isolated:
                game = group[0][0]
                self._isolated(conn, batch, (game[0], game[-1]), insert, group)
            else:
                insert(conn, group)
        for changed in batch.changes:
            if isolated:
                self._isolated(conn, batch, (changed[2], changed[3]), change, changed)
            else:
                change(conn, changed)
        db.insert(conn, layout.failures, tables.FAILURE_COLUMNS, [
            f.row() for f in batch.failures.values()
        ])  # fmt: skip
        for failure in batch.failures.values():
            log.error(
                "game %s left out of the read models (%s failed at log position %d): %s",
                failure.game_id, failure.stage, failure.position, failure.error,
            )  # fmt: skip

    def _isolated(
        self, conn: Any, batch: Batch, game: tuple[str, int], write: Callable[..., None],
        what: Any,
    ) -> None:  # fmt: skip
        """``write(conn, what)`` in a savepoint; on an error of this game's rows (``game``:
        its id and stream version), roll back to it, delete them and record its failure."""
        game_id, version = game
        db = self.db
        db.execute(conn, "SAVEPOINT one_game")
        try:
            write(conn, what)
        except UNAVAILABLE:
            raise
        except Exception as exc:
            db.execute(conn, "ROLLBACK TO SAVEPOINT one_game")
            for table in self.layout.game_tables:
                db.execute(conn, f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            gid = UUID(game_id)
            batch.fail(gid, batch.positions.get(gid, batch.end), version, "write", error_text(exc))
        db.execute(conn, "RELEASE SAVEPOINT one_game")

    def _insert(self, conn: Any, group: list[Projected], players: Aliases, projected: int) -> None:
        """Insert the rows of some games, their seats under their players' keys and with
        the batch's end (``projected``)."""
        db, layout = self.db, self.layout
        seats = [
            (*seat, projected)
            for seat in aliases.players_of(
                [seat for _, rows, _, _ in group for seat in rows], players
            )
        ]
        db.insert(conn, layout.games, GAME_COLUMNS, [row for row, *_ in group])
        db.insert(conn, layout.seats, (*SEAT_COLUMNS, tables.PROJECTED), seats)
        tables.insert_extras(db, conn, layout, [
            (game, aliases.players_of(rows, players)) for _, _, (game, rows), _ in group
        ])  # fmt: skip
        db.insert(conn, layout.timelines, TIMELINE_COLUMNS, [
            (row[0], doc) for row, _, _, doc in group
        ])  # fmt: skip
        if self.delay:
            time.sleep(self.delay)

    def _change(self, conn: Any, change: tuple[str, Any, str, int], projected: int) -> None:
        """Apply one metadata change to a game's rows (when newer than what they show), and
        mark its seats as changed by the batch ending at ``projected``."""
        db, layout = self.db, self.layout
        column, value, game_id, version = change
        set_to = "COALESCE(?, uploaded_at)" if column == "played_at" else "?"
        db.execute(
            conn,
            f"UPDATE {layout.games} SET {column} = {set_to}, version = ? "
            "WHERE game_id = ? AND version < ?",
            (value, version, game_id, version),
        )
        for seats in layout.seat_tables if column in SEAT_GAME_COLUMNS else ():
            db.execute(
                conn,
                f"UPDATE {seats} SET {column} = (SELECT {column} FROM "
                f"{layout.games} g WHERE g.game_id = ?) WHERE game_id = ?",
                (game_id, game_id),
            )
        db.execute(
            conn,
            f"UPDATE {layout.seats} SET {tables.PROJECTED} = ? WHERE game_id = ?",
            (projected, game_id),
        )


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
