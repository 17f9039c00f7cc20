"""The CPU work of uploads and catch-ups, off the threads serving requests.

Reading a record, replaying it and encoding its events (:func:`checked_upload`), and folding
stored games into read-model rows (:func:`folded`), run in one pool of
``HOWL_INGEST_PROCESSES`` processes per server process, shared by its threads (forked from a
server that imported the rules once). A thread that hands work to the pool waits without
holding the interpreter, so the requests of the other threads go on meanwhile; it writes to
the store itself, once the work is back. Each task brings the server's rulesets, so the pool
plays the games registered after it started too.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from domain import games
from domain.ruleset import Ruleset
from domain.store import game_id_for, record_digest
from domain.store.uploads import PreparedGame, canonical_record, prepare
from projections.builds import Build, Projected, attempt
from services.uploads import work_budget

PRELOAD = ["domain.store.uploads", "projections.builds", "services.ingest"]
"""Modules the pool's processes import before their first task."""

SHUTDOWN_PRIORITY = 100
"""The pool's place among what multiprocessing finalizes at exit: before its queues (10)."""

R = TypeVar("R")


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
    rulesets: Sequence[Ruleset], doc: Mapping[str, Any], fields: Mapping[str, Any], seconds: int
) -> tuple[UUID | None, PreparedGame | Failed]:
    """A record read, replayed with its game's rules (one of ``rulesets``, within ``seconds``
    of CPU time, see :func:`~services.uploads.work_budget`) and made ready for the store,
    under the id it is stored as; or the error that stopped it (with no id when the record
    does not read)."""
    _know(rulesets)
    try:
        rules, record, canonical = canonical_record(doc)
    except Exception as exc:
        return None, Failed.of(exc)
    game_id = game_id_for(record_digest(canonical))
    try:
        return game_id, prepare(rules, record, canonical, check=work_budget(seconds), **fields)
    except Exception as exc:
        return game_id, Failed.of(exc)


def folded(rulesets: Sequence[Ruleset], builds: list[Build]) -> list[Projected | str]:
    """Each game of ``builds`` folded (:func:`~projections.builds.attempt`) with its rules,
    one of ``rulesets``."""
    _know(rulesets)
    return [attempt(build) for build in builds]


class IngestPool:
    """The process's pool of ``processes`` processes, made on first use and made anew when
    one of its processes died (the task it lost is run again once)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
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

    def run(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` in the pool, waited for."""
        executor = self.executor
        try:
            return executor.submit(fn, *args).result()
        except BrokenProcessPool:
            self.renew(executor)
            return self.executor.submit(fn, *args).result()

    def fold(self, builds: list[Build]) -> list[Projected | str]:
        """A batch of games folded in the pool (a :data:`~projections.runner.Folder`), in
        as many parts as the pool has processes."""
        rulesets = tuple(games.rulesets())
        size = -(-len(builds) // self.processes)
        if len(builds) <= 1 or self.processes == 1:
            return self.run(folded, rulesets, builds)
        parts = [builds[i : i + size] for i in range(0, len(builds), size)]
        executor = self.executor
        try:
            futures = [executor.submit(folded, rulesets, part) for part in parts]
            return [done for future in futures for done in future.result()]
        except BrokenProcessPool:
            self.renew(executor)
            return self.run(folded, rulesets, builds)

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
