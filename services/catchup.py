"""One thread catching the read models up for all the threads of a process: the catch-ups
asked for while one runs are served together by the next one."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext


class CatchUps:
    """Runs ``catch_up`` in a thread of its own (started on first use) each time one is asked
    for; :meth:`ask` answers a ticket that :meth:`wait` waits for (a catch-up started after
    it was asked for has finished). Each catch-up runs in a ``turn`` (the processes sharing
    the read models take turns, say): it serves the tickets asked for until its turn came.
    Neither may raise."""

    def __init__(
        self,
        catch_up: Callable[[], None],
        turn: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        self.catch_up = catch_up
        self.turn = turn
        self._changed = threading.Condition()
        self._asked = 0
        self._done = 0
        self._thread: threading.Thread | None = None

    def ask(self) -> int:
        """Ask for a catch-up; answers its ticket."""
        with self._changed:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="catch-up", daemon=True)
                self._thread.start()
            self._asked += 1
            self._changed.notify_all()
            return self._asked

    def wait(self, ticket: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the catch-up of ``ticket``; whether it is done."""
        with self._changed:
            self._changed.wait_for(lambda: self._done >= ticket or self._thread is None, timeout)
            return self._done >= ticket

    def _run(self) -> None:
        me = threading.current_thread()
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._asked > self._done or self._thread is not me)
                if self._thread is not me:
                    return
            with self.turn():
                with self._changed:
                    serving = self._asked
                self.catch_up()
            with self._changed:
                self._done = serving
                self._changed.notify_all()

    def stop(self) -> None:
        """Stop the thread after its catch-up in progress (a later :meth:`ask` starts it
        again); tickets not served are not waited for any more."""
        with self._changed:
            thread, self._thread = self._thread, None
            self._changed.notify_all()
        if thread is not None:
            thread.join()
