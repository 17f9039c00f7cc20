"""HTTP caching of per-game answers: strong ETags, Cache-Control, 304, and an in-process
cache of rendered bodies.

A game's id is a function of its record's SHA-256 and a game never changes after upload, so
the ETag of an immutable answer (record, events, states, timeline) is computed from the id,
the endpoint and its parameters, the rules version and Howl's version — before touching the
store. A matching ``If-None-Match`` is answered 304 at once.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import date, datetime
from typing import Any
from uuid import UUID

from flask import request
from werkzeug.wrappers import Response

from api import __version__
from domain.wolves.components import RULES_VERSION

IMMUTABLE = "public, max-age=31536000, immutable"
"""Cache-Control of answers that never change."""
REVALIDATE = "public, max-age=60"
"""Cache-Control of a summary: its metadata (title, tags, visibility) may change."""
NO_CACHE = "no-cache"
"""Cache-Control of lists and statistics, which change with every upload."""
NO_STORE = "no-store"
"""Cache-Control of answers that change while a client watches (an analysis in progress)."""
GZIP_LEVEL = 6


def etag_of(*parts: object) -> str:
    """A strong entity tag (unquoted) for an answer named by ``parts``.

    >>> etag_of("record", "42") == etag_of("record", "42") != etag_of("record", "43")
    True
    """
    text = "\x1f".join(map(str, (__version__, RULES_VERSION, *parts)))
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def _default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def dumps(data: Any) -> bytes:
    """Compact UTF-8 JSON; dates and date-times in ISO 8601, UUIDs as text."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=_default).encode()


def json_response(data: Any, status: int = 200, cache_control: str = NO_CACHE) -> Response:
    """A JSON answer that is not cached per game (lists, statistics, uploads)."""
    response = Response(dumps(data), status=status, mimetype="application/json")
    response.headers["Cache-Control"] = cache_control
    return response


def not_modified(etag: str) -> bool:
    """True when the request's ``If-None-Match`` matches ``etag`` (weak comparison)."""
    return request.if_none_match.contains_weak(etag)


def tagged(body: bytes | None, etag: str, cache_control: str, mimetype: str) -> Response:
    """An answer with its ETag and Cache-Control; ``body`` None means 304 Not Modified."""
    response = Response(body, status=304 if body is None else 200, mimetype=mimetype)
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    return response


class BodyCache:
    """Rendered bodies by ETag, least recently used dropped beyond ``budget`` bytes."""

    def __init__(self, budget: int = 64 * 1024 * 1024) -> None:
        self.budget = budget
        self._bodies: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get_or_render(self, etag: str, render: Callable[[], bytes]) -> bytes:
        """The body cached for ``etag``, else ``render()`` (then cached if small enough)."""
        with self._lock:
            body = self._bodies.get(etag)
            if body is not None:
                self._bodies.move_to_end(etag)
                return body
        body = render()
        if len(body) <= self.budget // 8:
            with self._lock:
                if etag not in self._bodies:
                    self._bodies[etag] = body
                    self._size += len(body)
                while self._size > self.budget:
                    _, dropped = self._bodies.popitem(last=False)
                    self._size -= len(dropped)
        return body


def immutable_json(
    cache: BodyCache, render: Callable[[], Any], *parts: object, mimetype: str = "application/json"
) -> Response:
    """An immutable answer named by ``parts``: 304 if the client has it, else the cached or
    freshly rendered body, gzip-coded when the client accepts that (each coding has its own
    ETag). ``render`` returns JSON-able data, or bytes as they are."""
    etag = etag_of(*parts)
    gzipped = request.accept_encodings["gzip"] > 0
    tag = f"{etag}-gzip" if gzipped else etag
    if not_modified(tag):
        response = tagged(None, tag, IMMUTABLE, mimetype)
    else:

        def identity() -> bytes:
            data = render()
            return data if isinstance(data, bytes) else dumps(data)

        def coded() -> bytes:
            return gzip.compress(cache.get_or_render(etag, identity), GZIP_LEVEL, mtime=0)

        response = tagged(cache.get_or_render(tag, coded if gzipped else identity), tag,
                          IMMUTABLE, mimetype)  # fmt: skip
        if gzipped:
            response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def revalidated_json(data: Any, *parts: object) -> Response:
    """An answer that may change (a summary): its ETag is the body's own digest."""
    body = dumps(data)
    etag = etag_of(*parts, hashlib.sha256(body).hexdigest())
    return tagged(None if not_modified(etag) else body, etag, REVALIDATE, "application/json")
