"""HTTP caching of per-game answers: strong ETags, Cache-Control, 304, and an in-process
cache of rendered bodies.

A game's id is a function of its record's SHA-256 and a game never changes after upload, so
the ETag of an immutable answer (record, events, states, timeline) is computed from the id,
the endpoint and its parameters, every registered game with its rules version (which game
an id holds is not known before the store is read) and Howl's version — before touching
the store. A matching ``If-None-Match`` is answered 304 at once. Once a process has answered a
path, :class:`CachedAnswers` answers it again straight from the cache, without Flask.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson
from flask import request
from werkzeug.http import parse_accept_header, parse_etags
from werkzeug.wrappers import Response

from api import __version__
from api.headers import HEADERS
from domain.games import rulesets
from services.bodies import BodyCache, RequestKey
from services.shared import services

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

    from projections.readmodels import ReadModels

IMMUTABLE = "public, max-age=31536000, immutable"
"""Cache-Control of answers that never change."""
REVALIDATE = "public, max-age=60"
"""Cache-Control of a summary: its metadata (title, tags, visibility) may change."""
NO_CACHE = "no-cache"
"""Cache-Control of lists and statistics, which change with every upload."""
NO_STORE = "no-store"
"""Cache-Control of answers that change while a client watches (an analysis in progress)."""
GZIP_LEVEL = 6


def games_in_play() -> str:
    """Every registered game and the rules version its answers are made under."""
    return ",".join(f"{rules.name} {rules.rules_version}" for rules in rulesets())


def etag_of(*parts: object) -> str:
    """A strong entity tag (unquoted) for an answer named by ``parts``, under the registered
    games' rules (:func:`games_in_play`).

    >>> etag_of("record", "42") == etag_of("record", "42") != etag_of("record", "43")
    True
    """
    text = "\x1f".join(map(str, (__version__, games_in_play(), *parts)))
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def _default(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def dumps(data: Any) -> bytes:
    """Compact UTF-8 JSON (orjson); dates and date-times in ISO 8601, UUIDs as text.

    >>> dumps({"tags": ("a",), 7: None})
    b'{"tags":["a"],"7":null}'
    """
    return orjson.dumps(data, default=_default, option=orjson.OPT_NON_STR_KEYS)


def json_response(data: Any, status: int = 200, cache_control: str = NO_CACHE) -> Response:
    """A JSON answer that is not cached per game (lists, statistics, uploads)."""
    return json_body(dumps(data), status, cache_control)


def json_body(body: bytes, status: int = 200, cache_control: str = NO_CACHE) -> Response:
    """:func:`json_response` of a body encoded already."""
    response = Response(body, status=status, mimetype="application/json")
    response.headers["Cache-Control"] = cache_control
    return response


def latest(render: Callable[[ReadModels], Any], viewer: str | None = None) -> Response:
    """The answer ``render`` makes from the read models (caught up as lists are), kept in
    this process and given again to the same request (of the same ``viewer``) while they
    stand where they stood; an anonymous request may be given one made in the last two
    seconds (:class:`~services.bodies.LatestAnswers`)."""
    svc = services()
    models = svc.fresh()
    body = svc.latest.get_or_render(
        request.full_path if viewer is None else f"{request.full_path}\x1f{viewer}",
        lambda: (models.state(), games_in_play()),  # a game registered changes answers too
        lambda: dumps(render(models)),
        may_lag="Authorization" not in request.headers,
    )
    return json_body(body)


def created(data: Any, location: str) -> Response:
    """A 201 answer that is not cached: what a write made, and where it is read."""
    response = json_response(data, 201, NO_STORE)
    response.headers["Location"] = location
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


@lru_cache(maxsize=256)
def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether a request's ``Accept-Encoding`` lets its answer be gzip-coded.

    >>> accepts_gzip("gzip, br"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip(None)
    (True, False, False)
    """
    return parse_accept_header(accept_encoding)["gzip"] > 0


def request_key(environ: WSGIEnvironment) -> RequestKey:
    """The :data:`RequestKey` of a request."""
    gzipped = accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING"))
    return environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""), gzipped


def immutable_headers(
    tag: str, gzipped: bool, mimetype: str | None = None, length: int = 0
) -> list[tuple[str, str]]:
    """The headers of an immutable answer tagged ``tag`` (security headers included): of a
    304 when ``mimetype`` is None."""
    headers = [("ETag", f'"{tag}"'), ("Cache-Control", IMMUTABLE), ("Vary", "Accept-Encoding"),
               *HEADERS]  # fmt: skip
    if mimetype is None:
        return headers
    coding = [("Content-Encoding", "gzip")] if gzipped else []
    return [("Content-Type", mimetype), ("Content-Length", str(length)), *coding, *headers]


class CachedAnswers:
    """WSGI middleware: a GET of an immutable answer the process has given before (same path,
    query and coding; see :func:`immutable_json`) is answered from the :class:`BodyCache`,
    or 304, without Flask. Anything else goes on to ``app``. ``before`` runs first (it may
    make the cache forget answers)."""

    def __init__(
        self, app: WSGIApplication, cache: BodyCache, before: Callable[[], None] = lambda: None
    ) -> None:
        self.app = app
        self.cache = cache
        self.before = before

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ["REQUEST_METHOD"] == "GET":
            self.before()
            key = request_key(environ)
            answer = self.cache.answer(key)
            if answer is not None:
                tag, mimetype = answer
                if parse_etags(environ.get("HTTP_IF_NONE_MATCH")).contains_weak(tag):
                    start_response("304 NOT MODIFIED", immutable_headers(tag, key[2]))
                    return []
                body = self.cache.get(tag)
                if body is not None:
                    headers = immutable_headers(tag, key[2], mimetype, len(body))
                    start_response("200 OK", headers)
                    return [body]
        return self.app(environ, start_response)


def immutable_json(
    cache: BodyCache,
    render: Callable[[], Any],
    *parts: object,
    mimetype: str = "application/json",
    by_path: bool = True,
) -> Response:
    """An immutable answer named by ``parts``: 304 if the client has it, else the cached or
    freshly rendered body, gzip-coded when the client accepts that (each coding has its own
    ETag). ``render`` returns JSON-able data, or bytes as they are. ``by_path``: the request's
    path and query alone name the answer (``parts`` come from them), so
    :class:`CachedAnswers` may give it again."""
    etag = etag_of(*parts)
    key = request_key(request.environ)
    gzipped = key[2]
    tag = f"{etag}-gzip" if gzipped else etag
    if not_modified(tag):
        return Response(None, 304, immutable_headers(tag, gzipped))

    def identity() -> bytes:
        data = render()
        return data if isinstance(data, bytes) else dumps(data)

    def coded() -> bytes:  # the plain body is kept only when asked for itself
        return gzip.compress(cache.get(etag) or identity(), GZIP_LEVEL, mtime=0)

    body = cache.get_or_render(tag, coded if gzipped else identity)
    if by_path:
        cache.remember(key, tag, mimetype)
    return Response(body, 200, immutable_headers(tag, gzipped, mimetype, len(body)))


def revalidated_json(data: Any, *parts: object) -> Response:
    """An answer that may change (a summary): its ETag is the body's own digest."""
    body = dumps(data)
    etag = etag_of(*parts, hashlib.sha256(body).hexdigest())
    return tagged(None if not_modified(etag) else body, etag, REVALIDATE, "application/json")
