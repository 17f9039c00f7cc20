"""Request bodies at the Flask app's door, whatever server runs it.

Before any view runs (:func:`check_body`): a refusal the serving front decided
(:mod:`api.front`) is raised; a write under ``/api`` with a body needs a known bearer token
before the body is read (401/403 problems); a JSON body must be UTF-8 (RFC 8259: else 415)
and, unless it is an uploaded record (whose reader answers 422 ``invalid_record``), nested at
most :data:`MAX_DEPTH` deep (else 400). Flask's JSON parsing (Dash's callbacks) is orjson's
(:class:`StrictJSON`): UTF-8 only, no ``NaN``, no lone surrogates, bounded depth.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from api.problems import CHALLENGE, Problem, problem_of
from api.uploads import is_json, utf16_or_32
from dashboard.app import body_limit
from services.refusals import Refusal
from services.shared import services
from services.tokens import token_name

REFUSAL = "howl.refusal"
"""The WSGI environment's key of a refusal the front decided before reading the body."""
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_DEPTH = 1024
"""Deepest nesting of arrays and objects a JSON body may have (orjson's own limit)."""
UTF8 = ("utf-8", "utf8")
RECORD_UPLOAD = "games.upload"
"""The endpoint whose JSON body is a record, read (and bounded) by the record reader."""


def write_refusal(
    method: str, path: str, tokens: Mapping[str, str], authorization: str | None
) -> Problem | None:
    """The 401 or 403 problem for a write under ``/api`` without a known token, else None.

    >>> write_refusal("POST", "/api/games", {"ana": "t"}, "Bearer t") is None
    True
    >>> write_refusal("POST", "/api/games", {"ana": "t"}, None).code
    401
    """
    if method not in WRITES or not (path == "/api" or path.startswith("/api/")):
        return None
    try:
        if token_name(tokens, authorization) is not None:
            return None
    except Refusal as exc:
        return problem_of(exc)
    return Problem(401, "missing_token", "This needs Authorization: Bearer <token>.", CHALLENGE)


def too_deep(data: bytes) -> bool:
    """Whether a JSON text nests arrays and objects more than :data:`MAX_DEPTH` deep.

    >>> too_deep(b"[" * 2000 + b"]" * 2000), too_deep(b"[[1]]")
    (True, False)
    """
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:  # too few brackets to be that deep
        return False
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        return str(exc).startswith("depth limit exceeded")
    return False


def check_body() -> None:
    """Before every request: the checks of this module's docstring, in that order."""
    refusal = request.environ.get(REFUSAL)
    if refusal is not None:
        raise refusal
    request.max_content_length = body_limit(request.path, services().settings.max_upload_bytes)
    if not request.content_length:  # (a chunked body has its length by now: SizedBodies)
        return
    tokens = services().settings.api_tokens
    refused = write_refusal(request.method, request.path, tokens,
                            request.headers.get("Authorization"))  # fmt: skip
    if refused is not None:
        raise refused
    if not is_json(request.mimetype):
        return
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if charset not in UTF8:
        raise UnsupportedMediaType(f"JSON bodies are UTF-8 (RFC 8259), not {charset}.")
    data = request.get_data(cache=True)
    encoding = utf16_or_32(data)
    if encoding is not None:
        raise UnsupportedMediaType(f"JSON bodies are UTF-8 (RFC 8259); this one is {encoding}.")
    if request.endpoint != RECORD_UPLOAD and too_deep(data):
        raise BadRequest(f"The JSON body nests arrays and objects more than {MAX_DEPTH} deep.")


class StrictJSON(DefaultJSONProvider):
    """Flask's JSON provider, parsing with orjson (strict RFC 8259, depth at most 1024)."""

    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)


def install(app: Flask) -> None:
    """Check every request's body with :func:`check_body`, before any other hook; parse JSON
    with :class:`StrictJSON`."""
    app.json = StrictJSON(app)
    app.before_request_funcs.setdefault(None, []).insert(0, check_body)  # before any other
