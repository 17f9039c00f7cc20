"""The serving front of ``howl serve``: an RSGI app between granian and the Flask app.

Granian has no time limit on request bodies, and a WSGI app reads its body in one of the few
Python threads that run it, so a few clients trickling bodies could hold them all. The front
reads every body on granian's event loop instead (its RSGI interface), before the app sees
the request:

- a declared ``Content-Length`` over ``HOWL_MAX_UPLOAD_BYTES`` is refused (413) at once, and
  so is a write under ``/api`` with a body but without a known bearer token (401/403);
- the body, chunked or not, must arrive within ``HOWL_BODY_SECONDS`` (else 408) and be no
  larger than the limit (else 413); the connection of a refused body is closed;
- the app then runs with the whole body in a pool of ``HOWL_THREADS`` threads, and its
  whole answer goes back to the event loop in one step. Writes to the API (any method but
  ``GET``, ``HEAD`` and ``OPTIONS`` under ``/api``: uploads, which wait for the ingest pool,
  the store and the catch-up) run in a pool of as many threads of their own, so that reads
  never wait for a thread behind them. Refusals are answered by the app
  too (:data:`api.bodies.REFUSAL`), so every answer has the same problem documents and
  headers. An event stream (``text/event-stream``) is the exception: it is sent on as the
  app yields it, each message read in a thread of a pool of its own (one per open stream).

Repeat immutable answers (:class:`~api.caching.CachedAnswers`) are given on the event loop,
without a thread. RSGI on uvloop rather than ASGI, and this small bridge rather than a
library's (such as a2wsgi, which hops between the threads four times a request): against
granian's own WSGI, ASGI cost the cached answers 40 % of their throughput, RSGI on asyncio
35 %, RSGI on uvloop under a fifth. The tasks are asyncio's: granian's Rust tasks kept every
future they awaited, so every answer rendered in a thread stayed in memory (some 30 kB a list
of games). RSGI's path comes percent-decoded, bytes that are not UTF-8 replaced by U+FFFD.
"""

from __future__ import annotations

import asyncio
import copy
import io
import sys
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from flask import Flask
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, RequestTimeout

from api.app import create_app
from api.bodies import REFUSAL, write_refusal
from api.caching import CachedAnswers
from api.routes.tables import MAX_STREAMS
from dashboard.app import body_limit
from services.config import Settings

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from granian.rsgi import HTTPProtocol, Scope

Answer = tuple[int, list[tuple[str, str]], bytes | Iterable[bytes]]
"""A WSGI app's answer: status, headers, the whole body (or an event stream's messages)."""
EVENT_STREAM = "text/event-stream"
READS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that run in the app's threads for reads (the others under ``/api`` are writes)."""

_MISSED: list[bytes] = []
"""What the cache probe's inner app answers: the request is not a cached one."""


def _missed(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
    return _MISSED


def _address(text: str) -> tuple[str, str]:
    """``host:port`` split (``[::1]:80`` too)."""
    host, _, port = text.rpartition(":")
    return host.strip("[]"), port


def environ_of(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environment (PEP 3333) of the RSGI request ``scope`` with its whole ``body``."""
    host, port = _address(scope.server)
    client, client_port = _address(scope.client)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope.method,
        "SCRIPT_NAME": "",
        "PATH_INFO": scope.path.encode().decode("latin-1"),
        "QUERY_STRING": scope.query_string,
        "SERVER_NAME": host,
        "SERVER_PORT": port,
        "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
        "REMOTE_ADDR": client,
        "REMOTE_PORT": client_port,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.scheme,
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for name, value in scope.headers.items():
        key = name.upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = "HTTP_" + key
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def _probe_environ(scope: Scope) -> dict[str, Any]:
    """As much of a GET's WSGI environment as :class:`~api.caching.CachedAnswers` reads to
    find its answer."""
    headers = scope.headers
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": scope.path.encode().decode("latin-1"),
        "QUERY_STRING": scope.query_string,
        "HTTP_ACCEPT_ENCODING": headers.get("accept-encoding"),
        "HTTP_IF_NONE_MATCH": headers.get("if-none-match"),
    }


def respond(app: WSGIApplication, environ: WSGIEnvironment) -> Answer | None:
    """Run the WSGI ``app`` on ``environ`` to the end of its answer (None: the cache probe
    missed)."""
    started: list[tuple[str, list[tuple[str, str]]]] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        if exc_info is not None and started:
            raise exc_info[1].with_traceback(exc_info[2])
        started[:] = [(status, headers)]
        return _no_write

    result = app(environ, start_response)
    if result is _MISSED:
        return None
    if started and any(
        k.lower() == "content-type" and v.startswith(EVENT_STREAM) for k, v in started[0][1]
    ):
        return int(started[0][0][:3]), started[0][1], result
    try:
        body = b"".join(result)
    finally:
        getattr(result, "close", lambda: None)()
    status, headers = started[0]
    return int(status[:3]), headers, body


def _no_write(data: bytes) -> None:
    raise NotImplementedError("Howl's app does not use WSGI's write()")


class _Disconnected(Exception):
    """The client went away before its body had arrived."""


class Front:
    """The RSGI app serving ``app`` (see the module's docstring)."""

    def __init__(self, app: Flask, settings: Settings) -> None:
        cached = app.wsgi_app
        if not isinstance(cached, CachedAnswers):
            raise TypeError("the app's outermost WSGI layer must be CachedAnswers")
        self.probe = copy.copy(cached)
        self.probe.app = _missed
        self.app = app
        self.pool = ThreadPoolExecutor(settings.threads, thread_name_prefix="howl")
        self.writes = ThreadPoolExecutor(settings.threads, thread_name_prefix="howl-write")
        self.streams = ThreadPoolExecutor(MAX_STREAMS, thread_name_prefix="howl-stream")
        self.limit = settings.max_upload_bytes
        self.seconds = settings.body_seconds
        self.tokens = settings.api_tokens

    async def __rsgi__(self, scope: Scope, proto: HTTPProtocol) -> None:
        if scope.proto != "http":
            return
        if scope.method == "GET" and (cached := respond(self.probe, _probe_environ(scope))):
            status, headers, content = cached
            assert isinstance(content, bytes)  # cached answers are whole
            proto.response_bytes(status, headers, content)
            return
        try:
            body, refusal = await self.body_of(scope, proto)
        except _Disconnected:
            return
        environ = environ_of(scope, body)
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["CONTENT_LENGTH"] = str(len(body))
        if refusal is not None:
            environ[REFUSAL] = refusal
        loop = asyncio.get_running_loop()
        writes = scope.method not in READS and scope.path.startswith("/api/")
        answer = await loop.run_in_executor(
            self.writes if writes else self.pool, respond, self.app, environ
        )
        assert answer is not None
        status, headers, content = answer
        if refusal is not None:  # the rest of the body is not read: close the connection
            headers = [*headers, ("Connection", "close")]
        if isinstance(content, bytes):
            proto.response_bytes(status, headers, content)
            return
        transport = proto.response_stream(status, headers)
        messages = iter(content)
        try:
            while message := await loop.run_in_executor(self.streams, next, messages, None):
                await transport.send_bytes(message)
        except RuntimeError:  # granian's ProtocolClosed: the client went away
            pass
        finally:
            await loop.run_in_executor(self.streams, getattr(content, "close", lambda: None))

    async def body_of(
        self, scope: Scope, proto: HTTPProtocol
    ) -> tuple[bytes, HTTPException | None]:
        """The request's whole body, or the refusal answering it (its body left unread)."""
        headers = scope.headers
        declared = int(headers.get("content-length") or 0)
        chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        if not declared and not chunked:
            return b"", None
        limit = body_limit(scope.path, self.limit)
        if declared > limit:
            return b"", self.too_large(limit)
        refusal = write_refusal(scope.method, scope.path, self.tokens,
                                headers.get("authorization"))  # fmt: skip
        if refusal is not None:
            return b"", refusal
        try:
            return await self.read_body(proto, None if chunked else declared, limit), None
        except HTTPException as exc:
            return b"", exc

    @staticmethod
    def too_large(limit: int) -> RequestEntityTooLarge:
        return RequestEntityTooLarge(f"A request body may have at most {limit} bytes "
                                     "(HOWL_MAX_UPLOAD_BYTES).")  # fmt: skip

    async def read_body(self, proto: HTTPProtocol, declared: int | None, limit: int) -> bytes:
        """The request's body (``declared`` bytes, or chunked), read within the time limit:
        408 if it is slower, 413 as soon as it is larger than the size limit (read in a task
        of its own, cancelled at the time limit)."""
        reading = asyncio.ensure_future(self.collect(proto, limit))
        done, _ = await asyncio.wait({reading}, timeout=self.seconds)
        if not done:
            reading.cancel()
            raise RequestTimeout(f"The request body did not arrive within {self.seconds} "
                                 "seconds (HOWL_BODY_SECONDS).")  # fmt: skip
        body = reading.result()
        if declared is not None and len(body) < declared:  # (a cut chunked body goes on, cut)
            raise _Disconnected
        return body

    async def collect(self, proto: HTTPProtocol, limit: int) -> bytes:
        """The body's chunks as they come, joined; 413 once it is over ``limit`` bytes."""
        chunks, size = [], 0
        async for chunk in proto:
            size += len(chunk)
            if size > limit:
                raise self.too_large(limit)
            chunks.append(chunk)
        return b"".join(chunks)


def front_app(settings: Settings) -> Front:
    """The front of a new Flask app for ``settings`` (granian's loader in each worker)."""
    return Front(create_app(settings, analysis_worker=False), settings)
