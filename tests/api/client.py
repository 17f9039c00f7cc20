"""A small HTTP client over ``http.client`` that checks every answer against the contract."""

from __future__ import annotations

import gzip
import http.client
import json
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode, urlsplit

from tests.api.contract import Contract, Reply


def multipart(fields: Mapping[str, str], file: bytes, filename: str = "game.json") -> tuple[
    bytes, str
]:  # fmt: skip
    """A ``multipart/form-data`` body with ``fields`` and the record as the ``file`` field."""
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
            .encode()
        )  # fmt: skip
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: application/json\r\n\r\n".encode()
        + file
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class Client:
    """Requests to one live server; every reply is checked against ``contract``."""

    def __init__(self, base_url: str, contract: Contract, token: str | None = None) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.contract = contract
        self.token = token

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: bytes | None = None,
        json_body: Any = None,
        content_type: str | None = None,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        check: bool = True,
    ) -> Reply:
        """Send one request and return the checked reply."""
        sent = dict(headers or {})
        if json_body is not None:
            body, content_type = json.dumps(json_body).encode(), "application/json"
        if content_type:
            sent["Content-Type"] = content_type
        if token or self.token:
            sent.setdefault("Authorization", f"Bearer {token or self.token}")
        target = path + ("?" + urlencode(query, doseq=True) if query else "")
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, target, body=body, headers=sent)
            raw = conn.getresponse()
            got = {k.lower(): v for k, v in raw.getheaders()}
            body = raw.read()
            if got.get("content-encoding") == "gzip":
                body = gzip.decompress(body)
            reply = Reply(method, target, raw.status, got, body)
        finally:
            conn.close()
        if check:
            self.contract.check(reply)
        return reply

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def upload(
        self, record: bytes, *, query: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> Reply:
        """POST a record as a JSON body."""
        return self.request(
            "POST", "/api/games", body=record, content_type="application/json", query=query,
            **kwargs,
        )  # fmt: skip

    def upload_file(
        self, record: bytes, fields: Mapping[str, str] | None = None, **kwargs: Any
    ) -> Reply:
        """POST a record as the ``file`` field of a multipart form."""
        body, content_type = multipart(fields or {}, record)
        return self.request("POST", "/api/games", body=body, content_type=content_type, **kwargs)
