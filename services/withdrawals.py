"""Withdrawn games leave every process's cached answers: each process reads the store's
log for withdrawals (any process's) at most every :data:`POLL_SECONDS`, and forgets the
answers it keeps about those games."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from domain.store import Game, GameLibrary
from services.bodies import BodyCache

POLL_SECONDS = 1.0
"""Longest a process may still answer from its cache about a game withdrawn elsewhere."""

log = logging.getLogger(__name__)


class Withdrawals:
    """Follows the log's withdrawals into a :class:`BodyCache`."""

    def __init__(self, library: Callable[[], GameLibrary], cache: BodyCache) -> None:
        self.library = library
        self.cache = cache
        self._seen: int | None = None  # the last log position read
        self._next = 0.0
        self._lock = threading.Lock()

    def check(self) -> None:
        """Forget the withdrawn games' answers, when :data:`POLL_SECONDS` passed since the last
        look (another thread looking meanwhile is enough)."""
        if time.monotonic() < self._next or not self._lock.acquire(blocking=False):
            return
        try:
            self._next = time.monotonic() + POLL_SECONDS
            recorder = self.library().recorder
            end = recorder.max_notification_id() or 0
            if self._seen is not None and end > self._seen:
                for n in recorder.select_notifications(
                    self._seen + 1, end - self._seen, stop=end, topics=[Game.Withdrawn.TOPIC]
                ):
                    self.cache.forget(str(n.originator_id))
            self._seen = end
        except Exception:  # the store does not answer: the request says so itself
            log.warning("could not read the store's withdrawals", exc_info=True)
        finally:
            self._lock.release()
