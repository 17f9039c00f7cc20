"""The CPU work of uploads and catch-ups, off the processes serving requests.

Reading a record, replaying it and encoding its stream (:func:`checked_upload`), and catching
the read models up (:func:`caught_up`: reading the log, folding the games, writing their
rows), run in one pool of ``HOWL_INGEST_PROCESSES`` processes per server process, shared by
its threads (forked from a server that imported the rules once). A thread that hands work to
the pool waits without holding the interpreter, so the requests of the other threads go on
meanwhile; an upload's thread writes its game to the store itself, once it is checked. Each
task brings the server's rulesets, so the pool plays the games registered after it started
too.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import multiprocessing.util
import threading
import traceback
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

import orjson

from domain import games
from domain.ruleset import Ruleset
from domain.store import GameLibrary, game_id_for, record_digest
from domain.store.uploads import EncodedGame, canonical_record, encode, prepare
from projections.readmodels import ReadModels
from services.config import Settings
from services.library import open_library, open_read_models
from services.uploads import work_budget

PRELOAD = ["domain.store.uploads", "projections.readmodels", "services.ingest"]
"""Modules the pool's processes import before their first task."""
STORES = 4
"""Stores a pool process keeps open for its catch-ups (the least recently used is closed)."""

KNOWN = 4096
"""Documents whose games a process remembers (:class:`KnownDocuments`)."""
SHUTDOWN_PRIORITY = 100
"""The pool's place among what multiprocessing finalizes at exit: before its queues (10)."""

R = TypeVar("R")
_stores: OrderedDict[tuple[str, str], tuple[GameLibrary, ReadModels]] = OrderedDict()
"""The stores this (pool) process catches up, by URL and schema."""


@dataclass(frozen=True)
class Failed:
    """An error raised in the pool, sent back as its class, arguments and attributes (errors
    whose constructor takes other arguments than their ``args`` do not unpickle)."""

    kind: type[Exception]
    args: tuple[Any, ...]
    attrs: dict[str, Any]

    @classmethod
    def of(cls, exc: Exception) -> Failed:
        """``exc``, ready to send back."""
        return cls(type(exc), exc.args, dict(vars(exc)))

    def error(self) -> Exception:
        """The error as it was raised."""
        exc = self.kind.__new__(self.kind)
        exc.args = self.args
        vars(exc).update(self.attrs)
        return exc


class KnownDocuments:
    """The ids of the games this process stored, or found stored, by a digest of the record
    documents uploaded (the last :data:`KNOWN`): the same document uploaded again is stored
    already, and needs no check (a game's id depends on its record alone)."""

    def __init__(self, size: int = KNOWN) -> None:
        self.size = size
        self._ids: OrderedDict[bytes, UUID] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def digest(doc: Mapping[str, Any]) -> bytes | None:
        """A digest of ``doc`` (keys sorted); None for one JSON cannot hold as it is.

        >>> KnownDocuments.digest({"a": 1, "b": [2]}) == KnownDocuments.digest({"b": [2], "a": 1})
        True
        """
        try:
            text = orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # orjson's errors are TypeErrors: an integer past 64 bits, say
            return None
        return hashlib.blake2b(text, digest_size=16).digest()

    def get(self, digest: bytes | None) -> UUID | None:
        """The id of the game of the document of ``digest``, if known."""
        with self._lock:
            return self._ids.get(digest) if digest is not None else None

    def add(self, digest: bytes | None, game_id: UUID) -> None:
        """Remember that the document of ``digest`` is the game ``game_id``."""
        if digest is None:
            return
        with self._lock:
            self._ids[digest] = game_id
            self._ids.move_to_end(digest)
            if len(self._ids) > self.size:
                self._ids.popitem(last=False)


def _know(rulesets: Sequence[Ruleset]) -> None:
    """Register, in this process, the server's rulesets it does not have (those the server
    registered after the pool started, or in place of another of the same name)."""
    for rules in rulesets:
        try:
            known = type(games.ruleset(rules.name)) is type(rules)
        except games.UnknownGame:
            known = False
        if not known:
            games.register(rules)


def checked_upload(
    rulesets: Sequence[Ruleset],
    doc: Mapping[str, Any],
    fields: Mapping[str, Any],
    seconds: int,
    store: Settings | None = None,
) -> tuple[UUID | None, EncodedGame | Failed | None]:
    """A record read, replayed with its game's rules (one of ``rulesets``, within ``seconds``
    of CPU time, see :func:`~services.uploads.work_budget`) and encoded as the store keeps
    it, under the id it is stored as; or the error that stopped it (with no id when the
    record does not read); or None once its game is found in the store of ``store`` (it
    was checked when it was stored: a game's id depends on its record alone)."""
    _know(rulesets)
    try:
        rules, record, canonical = canonical_record(doc)
    except Exception as exc:
        return None, Failed.of(exc)
    game_id = game_id_for(record_digest(canonical))
    if store is not None and _stored(store, game_id):
        return game_id, None
    try:
        prepared = prepare(rules, record, canonical, check=work_budget(seconds), **fields)
        return game_id, encode(prepared)
    except Exception as exc:
        return game_id, Failed.of(exc)


def _stored(settings: Settings, game_id: UUID) -> bool:
    """Whether the store of ``settings`` holds the game ``game_id`` (False when it cannot
    tell: the upload's own write will say why)."""
    try:
        return _opened(settings)[0].exists(game_id)
    except Exception:
        _drop(settings)
        return False


def caught_up(rulesets: Sequence[Ruleset], settings: Settings) -> str | None:
    """The read models of the store of ``settings`` caught up in this process, with its own
    library and read models (kept open for the next catch-up, :data:`STORES` stores at most);
    None, or why it failed (the store is opened anew next time)."""
    _know(rulesets)
    try:
        library, models = _opened(settings)
        models.catch_up(library)
    except Exception:
        _drop(settings)
        return traceback.format_exc()
    return None


def _opened(settings: Settings) -> tuple[GameLibrary, ReadModels]:
    """The library and read models of the store of ``settings``, as this process keeps them
    open (:data:`STORES` stores at most, the least recently used closed)."""
    key = (settings.database_url, settings.database_schema)
    opened = _stores.pop(key, None)
    if opened is None:
        opened = open_library(settings), open_read_models(settings)
    _stores[key] = opened
    while len(_stores) > STORES:
        _close(*_stores.popitem(last=False)[1])
    return opened


def _drop(settings: Settings) -> None:
    """Close the store of ``settings`` if this process keeps it open (it opens anew)."""
    opened = _stores.pop((settings.database_url, settings.database_schema), None)
    if opened is not None:
        _close(*opened)


def _close(library: GameLibrary, models: ReadModels) -> None:
    """Close a store's library and read models, whichever fails."""
    with suppress(Exception):
        library.close()
    with suppress(Exception):
        models.close()


class IngestPool:
    """The process's pool of ``processes`` processes, made on first use and made anew when
    one of its processes died (the task it lost is run again once).

    Its tasks run as its processes come free, urgent ones first (a catch-up, which the
    uploads already stored wait for, goes before the checks queued after them), each kind
    in the order asked."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._free = threading.Condition()
        self._busy = 0
        self._waiting: tuple[deque[object], deque[object]] = (deque(), deque())
        """The tasks waiting for a process, in order: urgent ones, then the others."""
        # Shut down when the process exits, a granian worker too (a process multiprocessing
        # started: it runs no atexit hooks, and would wait for the pool's processes forever).
        multiprocessing.util.Finalize(None, self.shutdown, exitpriority=SHUTDOWN_PRIORITY)

    @property
    def executor(self) -> Executor:
        """The pool's executor, started on first use."""
        with self._lock:
            if self._executor is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(PRELOAD)
                self._executor = ProcessPoolExecutor(self.processes, mp_context=context)
            return self._executor

    def run(self, fn: Callable[..., R], *args: Any, urgent: bool = False) -> R:
        """``fn(*args)`` in the pool once a process is free for it (``urgent``: before the
        tasks waiting that are not), waited for."""
        with self._turn(0 if urgent else 1):
            executor = self.executor
            try:
                return executor.submit(fn, *args).result()
            except BrokenProcessPool:
                self.renew(executor)
                return self.executor.submit(fn, *args).result()

    @contextmanager
    def _turn(self, kind: int) -> Iterator[None]:
        """Hold one of the pool's processes: the next free one, once the tasks of ``kind``
        asked for before, and urgent ones, have theirs."""
        me, waiting, urgent = object(), self._waiting[kind], self._waiting[0]
        with self._free:
            waiting.append(me)
            try:
                self._free.wait_for(
                    lambda: self._busy < self.processes and waiting[0] is me
                    and (kind == 0 or not urgent)
                )  # fmt: skip
            finally:
                waiting.remove(me)
                self._free.notify_all()  # the next task may have a process (or its turn) now
            self._busy += 1
        try:
            yield
        finally:
            with self._free:
                self._busy -= 1
                self._free.notify_all()

    def shutdown(self) -> None:
        """Stop the pool's processes after their tasks in progress (a later task starts it
        anew)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(cancel_futures=True)

    def renew(self, broken: Executor) -> None:
        """Drop the pool ``broken`` (one of its processes died): the next task starts anew."""
        with self._lock:
            if self._executor is broken:
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)


_pools: dict[int, IngestPool] = {}
_pools_lock = threading.Lock()


def ingest_pool(processes: int) -> IngestPool:
    """This process's ingest pool of ``processes`` processes, shared by its apps."""
    with _pools_lock:
        found = _pools.get(processes)
        if found is None:
            found = _pools[processes] = IngestPool(processes)
        return found
