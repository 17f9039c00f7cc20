"""The event streams a service is serving, and their end before its library is closed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

WAIT_SECONDS = 10.0
"""How long :meth:`Streams.end` waits for the store reads of streams in progress."""


class Streams:
    """Ends the event streams of one service: a stream reads the store only inside
    :meth:`reading`, and :meth:`end` waits until no such read is left, so a library closed
    after it is not read by a stream thread at the same time."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._era = 0
        self._reading = 0

    def era(self) -> int:
        """The streams' era: a stream started in it ends when :meth:`end` starts another."""
        return self._era

    @contextmanager
    def reading(self, era: int) -> Iterator[bool]:
        """A stream's read of the store: yields whether the stream of ``era`` may go on
        (False once :meth:`end` has run, and then it must not read)."""
        with self._changed:
            going = era == self._era
            self._reading += going
        try:
            yield going
        finally:
            if going:
                with self._changed:
                    self._reading -= 1
                    self._changed.notify_all()

    def end(self, timeout: float = WAIT_SECONDS) -> None:
        """End the streams of the era: each ends at its next read; waits (up to
        ``timeout`` seconds) for the reads in progress."""
        with self._changed:
            self._era += 1
            self._changed.wait_for(lambda: self._reading == 0, timeout)
