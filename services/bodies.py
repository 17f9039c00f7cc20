"""Rendered answers kept in one process's memory: bodies by tag, and which tag answers each
request answered so far (the API's immutable answers, see ``api.caching``); and the latest
answer of each request made from the read models, while they stand where they stood."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

STALE_SECONDS = 2.0
"""How old an answer of the read models may be for a request that may lag (as long as a list
may lag games another process stored)."""
REMAKE_SECONDS = 1.0
"""How old an answer must be before a request that may lag has it made again (while the read
models keep moving, each answer is made about once a second, not after every change)."""
RequestKey = tuple[str, str, bool]
"""A GET request as far as an immutable answer depends on it: path, query, gzip coding."""


class BodyCache:
    """Rendered bodies by ETag, least recently used dropped beyond ``budget`` bytes; and the
    ETag and media type answering each request answered so far (the last ``requests``)."""

    def __init__(self, budget: int = 64 * 1024 * 1024, requests: int = 65536) -> None:
        self.budget = budget
        self.requests = requests
        self._bodies: OrderedDict[str, bytes] = OrderedDict()
        self._answers: OrderedDict[RequestKey, tuple[str, str]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, tag: str) -> bytes | None:
        """The body cached for ``tag``, if any."""
        with self._lock:
            body = self._bodies.get(tag)
            if body is not None:
                self._bodies.move_to_end(tag)
            return body

    def get_or_render(self, tag: str, render: Callable[[], bytes]) -> bytes:
        """The body cached for ``tag``, else ``render()`` (then cached if small enough)."""
        body = self.get(tag)
        if body is not None:
            return body
        body = render()
        if len(body) <= self.budget // 8:
            with self._lock:
                if tag not in self._bodies:
                    self._bodies[tag] = body
                    self._size += len(body)
                while self._size > self.budget:
                    _, dropped = self._bodies.popitem(last=False)
                    self._size -= len(dropped)
        return body

    def remember(self, key: RequestKey, tag: str, mimetype: str) -> None:
        """Remember that the request ``key`` is answered by the body tagged ``tag``."""
        with self._lock:
            self._answers[key] = tag, mimetype
            self._answers.move_to_end(key)
            if len(self._answers) > self.requests:
                self._answers.popitem(last=False)

    def answer(self, key: RequestKey) -> tuple[str, str] | None:
        """The tag and media type answering the request ``key``, if remembered."""
        with self._lock:
            return self._answers.get(key)

    def forget(self, game_id: str) -> None:
        """Drop the answers to requests whose path names ``game_id``, and their bodies."""
        with self._lock:
            gone = [key for key in self._answers if game_id in key[0]]
            for key in gone:
                tag, _ = self._answers.pop(key)
                body = self._bodies.pop(tag, None)
                self._size -= len(body) if body is not None else 0


class LatestAnswers:
    """Rendered answers of the read models by request, each with the read models' state it
    was made at (their position and failures), given again while they stay there. One
    answer per request (the last ``requests`` requests), so a store that keeps changing
    holds no more of them.

    A request that may lag (an anonymous one: it wrote nothing) is given an answer made
    in the last ``stale`` seconds even when the read models moved since; once that answer
    is ``remake`` seconds old, it is made again meanwhile, in a thread of its own (one at a
    time per request): under a club night's uploads, a statistics page is made about once a
    second, not once per reader or per upload."""

    def __init__(
        self, requests: int = 256, stale: float = STALE_SECONDS, remake: float = REMAKE_SECONDS
    ) -> None:
        self.requests = requests
        self.stale = stale
        self.remake = remake
        self._answers: OrderedDict[str, tuple[object, bytes, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._making: set[str] = set()
        self._maker: ThreadPoolExecutor | None = None

    def get_or_render(
        self, key: str, state: Callable[[], object], render: Callable[[], bytes], may_lag: bool
    ) -> bytes:
        """The body answering ``key``: kept (made at ``state()``, or lately for a request
        that ``may_lag``), else ``render()`` (then kept)."""
        now = state()
        with self._lock:
            kept = self._answers.get(key)
            if kept is not None and kept[0] == now:
                self._answers.move_to_end(key)
                return kept[1]
            age = time.monotonic() - kept[2] if kept is not None else float("inf")
            lags = may_lag and age <= self.stale
            if lags and age >= self.remake and key not in self._making:
                self._making.add(key)
                if self._maker is None:
                    self._maker = ThreadPoolExecutor(1, thread_name_prefix="latest-answers")
                self._maker.submit(self._remake, key, state, render)
        if lags:
            assert kept is not None
            return kept[1]
        return self._keep(key, now, render())

    def _keep(self, key: str, state: object, body: bytes) -> bytes:
        with self._lock:
            self._answers[key] = state, body, time.monotonic()
            self._answers.move_to_end(key)
            if len(self._answers) > self.requests:
                self._answers.popitem(last=False)
        return body

    def _remake(self, key: str, state: Callable[[], object], render: Callable[[], bytes]) -> None:
        """Make ``key``'s answer again; one that fails is forgotten (the next request
        makes it, and says why)."""
        try:
            self._keep(key, state(), render())
        except Exception:
            with self._lock:
                self._answers.pop(key, None)
        finally:
            with self._lock:
                self._making.discard(key)
