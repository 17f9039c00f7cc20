"""The serving front of ``howl serve``: an ASGI layer between granian and the Flask app.

Granian has no time limit on request bodies, and a WSGI app reads its body in one of the few
Python threads that run it, so a few clients trickling bodies could hold them all. The front
reads every body on the event loop instead, before the app sees the request:

- a declared ``Content-Length`` over ``HOWL_MAX_UPLOAD_BYTES`` is refused (413) at once, and
  so is a write under ``/api`` with a body but without a known bearer token (401/403);
- the body, chunked or not, must arrive within ``HOWL_BODY_SECONDS`` (else 408) and be no
  larger than the limit (else 413); the connection of a refused body is closed;
- the app then runs with the whole body in a pool of ``HOWL_THREADS`` threads (a2wsgi).
  Refusals are answered by the app too (:data:`api.bodies.REFUSAL`), so every answer has the
  same problem documents and headers.

Repeat immutable answers (:class:`~api.caching.CachedAnswers`) are given on the event loop,
without a thread.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import TYPE_CHECKING, Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from flask import Flask
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, RequestTimeout

from api.bodies import REFUSAL, write_refusal
from api.caching import CachedAnswers
from api.config import Settings

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_MISSED: list[bytes] = []
"""What the cache probe's inner app answers: the request is not a cached one."""


def _missed(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
    return _MISSED


class _Disconnected(Exception):
    """The client went away before its body had arrived."""


class Front:
    """The ASGI app serving ``app`` (see the module's docstring)."""

    def __init__(self, app: Flask, settings: Settings) -> None:
        cached = app.wsgi_app
        if not isinstance(cached, CachedAnswers):
            raise TypeError("the app's outermost WSGI layer must be CachedAnswers")
        self.probe = copy.copy(cached)
        self.probe.app = _missed
        self.wsgi = WSGIMiddleware(app, workers=settings.threads)
        self.limit = settings.max_upload_bytes
        self.seconds = settings.body_seconds
        self.tokens = settings.api_tokens

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        if scope["method"] == "GET" and await self.answer_cached(scope, send):
            return
        headers = {name: value for name, value in scope["headers"]}
        declared = int(headers.get(b"content-length", b"0") or 0)
        chunked = b"chunked" in headers.get(b"transfer-encoding", b"").lower()
        refusal: HTTPException | None = None
        if declared > self.limit:
            refusal = RequestEntityTooLarge()
        elif declared or chunked:
            authorization = headers.get(b"authorization")
            refusal = write_refusal(scope["method"], scope["path"], self.tokens,
                                    authorization and authorization.decode("latin-1"))  # fmt: skip
        body = b""
        if refusal is None and (declared or chunked):
            try:
                body = await self.read_body(receive)
            except _Disconnected:
                return
            except HTTPException as exc:
                refusal = exc
        if refusal is not None:
            await self.wsgi({**scope, "headers": _without_body(scope), REFUSAL: refusal},
                            _replay(b""), _closing(send))  # fmt: skip
            return
        headers_sent = [*_without_body(scope), (b"content-length", str(len(body)).encode())]
        await self.wsgi({**scope, "headers": headers_sent}, _replay(body), send)

    async def read_body(self, receive: Receive) -> bytes:
        """The request's body, read within the time limit: 408 if it is slower, 413 as soon as
        it is larger than the size limit."""
        chunks, size = [], 0
        try:
            async with asyncio.timeout(self.seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        raise _Disconnected
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.limit:
                        raise RequestEntityTooLarge()
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            raise RequestTimeout(f"The request body did not arrive within {self.seconds} "
                                 "seconds (HOWL_BODY_SECONDS).") from None  # fmt: skip

    async def answer_cached(self, scope: Scope, send: Send) -> bool:
        """Answer a GET from the process's cache of immutable answers, if it is there."""
        started: list[tuple[str, list[tuple[str, str]]]] = []

        def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> Any:
            started.append((status, headers))

        environ = build_environ(scope, None)  # type: ignore[arg-type]
        body = self.probe(environ, start_response)
        if body is _MISSED:
            return False
        status, headers = started[0]
        await send({
            "type": "http.response.start", "status": int(status[:3]),
            "headers": [(n.lower().encode("latin-1"), v.encode("latin-1")) for n, v in headers],
        })  # fmt: skip
        await send({"type": "http.response.body", "body": b"".join(body)})
        return True


def _without_body(scope: Scope) -> list[tuple[bytes, bytes]]:
    """The request's headers less those describing its body."""
    return [(n, v) for n, v in scope["headers"]
            if n not in (b"content-length", b"transfer-encoding")]  # fmt: skip


def _replay(body: bytes) -> Receive:
    """An ASGI ``receive`` giving ``body`` whole, as the app's request body."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


def _closing(send: Send) -> Send:
    """``send``, asking for the connection to be closed after the answer (whose request body
    was not read)."""

    async def closing(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message["headers"], (b"connection", b"close")]}
        await send(message)

    return closing


def front_app(settings: Settings) -> Front:
    """The front of a new Flask app for ``settings`` (granian's loader in each worker)."""
    from api.app import create_app

    return Front(create_app(settings, analysis_worker=False), settings)
