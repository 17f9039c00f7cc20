"""Reading an uploaded record: a JSON body or a multipart ``file``, within the limits."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from flask import request
from marshmallow import EXCLUDE, ValidationError
from werkzeug.exceptions import UnsupportedMediaType

from api.problems import Problem, problem_of
from api.schemas import UploadFields
from domain.replays import RecordError
from domain.ruleset import InvalidRecord
from services.tables import record_refusal
from services.uploads import read_upload

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

BOMS = {
    b"\x00\x00\xfe\xff": "UTF-32", b"\xff\xfe\x00\x00": "UTF-32",
    b"\xfe\xff": "UTF-16", b"\xff\xfe": "UTF-16",
}  # fmt: skip
"""Byte order marks of the JSON encodings that are not UTF-8."""


def is_json(mimetype: str) -> bool:
    """Whether a body of ``mimetype`` is read as JSON (uploads take a typeless body as JSON).

    >>> is_json("application/json"), is_json("application/problem+json"), is_json("text/csv")
    (True, True, False)
    """
    return mimetype in ("application/json", "text/json", "") or mimetype.endswith("+json")


def utf16_or_32(data: bytes) -> str | None:
    """The encoding of a JSON text that is UTF-16 or UTF-32 (by its byte order mark, or the
    NUL bytes around its first character, always ASCII in JSON), else None.

    >>> utf16_or_32('{"a": 1}'.encode("utf-16-le")), utf16_or_32(b'{"a": 1}')
    ('UTF-16', None)
    """
    for bom, name in BOMS.items():
        if data.startswith(bom):
            return name
    head = data[:4]
    if len(head) == 4 and head.count(0) == 3:
        return "UTF-32"
    return "UTF-16" if 0 in head[:2] else None


class SizedBodies:
    """WSGI middleware: a chunked body is read first, up to one byte over ``limit(path)``
    (the body limit of the request's path), and sent on with its ``Content-Length``, so that
    one over the limit is refused with 413 like any other (werkzeug would cut it at the
    limit)."""

    def __init__(self, app: WSGIApplication, limit: Callable[[str], int]) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.pop("HTTP_TRANSFER_ENCODING", None) is not None:
            left = self.limit(environ.get("PATH_INFO", "")) + 1
            stream, chunks = environ["wsgi.input"], []
            while left > 0 and (chunk := stream.read(left)):
                chunks.append(chunk)
                left -= len(chunk)
            body = b"".join(chunks)
            environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))
        return self.app(environ, start_response)


def record_body() -> tuple[bytes, Mapping[str, Any]]:
    """The uploaded record's bytes and the form fields sent with it (multipart only)."""
    mimetype = request.mimetype
    if mimetype == "multipart/form-data":
        file = request.files.get("file")
        if file is None:
            missing = {"form": {"file": ["Missing data for required field."]}}
            raise Problem(400, "invalid_parameters", "A multipart upload has its record in "
                          "the `file` field.", errors=missing)  # fmt: skip
        data = file.read()
        encoding = utf16_or_32(data)
        if encoding is not None:
            raise UnsupportedMediaType(f"Records are UTF-8 (RFC 8259); this one is {encoding}.")
        return data, request.form
    if is_json(mimetype):
        return request.get_data(cache=False), {}
    raise UnsupportedMediaType("Send the record as application/json or multipart/form-data.")


def upload_fields(query: Mapping[str, Any], form: Mapping[str, Any]) -> dict[str, Any]:
    """Title, tags and visibility for ``GameLibrary.upload``: the query's (already loaded),
    overridden by the form's. A blank title means the record's ``meta.title``."""
    fields = dict(query)
    if form:
        try:
            loaded = UploadFields().load(dict(form.items()), unknown=EXCLUDE, partial=True)
        except ValidationError as exc:
            raise Problem(400, "invalid_parameters", "Invalid form fields.",
                          errors={"form": exc.messages}) from None  # fmt: skip
        fields.update({k: v for k, v in loaded.items() if k in form})
    fields["title"] = (fields.get("title") or "").strip() or None
    fields["tags"] = [t.strip() for t in (fields.get("tags") or "").split(",") if t.strip()]
    return fields


def read_document(body: bytes, max_actions: int) -> Mapping[str, Any]:
    """The record's JSON object, with no more than ``max_actions`` actions.

    Raises the 422 problems of :func:`record_problem` (and the ``too_many_actions`` refusal of
    :func:`services.uploads.read_upload`).
    """
    try:
        return read_upload(body, max_actions)
    except InvalidRecord as exc:
        raise record_problem(exc) from None


def record_problem(exc: InvalidRecord | RecordError) -> Problem:
    """The 422 problem for a rejected record, with the engine's error fields (as a live
    table's action is refused)."""
    return problem_of(record_refusal(exc))
