"""The API's contract: every answer must match its operation's response in the OpenAPI
document (status documented, content type documented, body valid against the schema)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from jsonschema import Draft202012Validator


@dataclass
class Reply:
    """One HTTP answer as the tests see it."""

    method: str
    path: str
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip()

    @cached_property
    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


@dataclass
class Contract:
    """The OpenAPI document, checking replies against it."""

    spec: dict[str, Any]
    _routes: list[tuple[re.Pattern[str], str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        by_literals = sorted(self.spec["paths"], key=lambda template: template.count("{"))
        for template in by_literals:  # the most literal first: /games/{id}/record before /…/{rest}
            pattern = re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template))
            self._routes.append((re.compile(pattern + "$"), template))

    def operation(self, method: str, path: str) -> dict[str, Any] | None:
        """The documented operation serving ``method path`` (None: not in the API)."""
        path = path.split("?")[0]
        for pattern, template in self._routes:
            if pattern.match(path):
                return self.spec["paths"][template].get(method.lower())
        return None

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        """Follow a ``$ref`` within the document."""
        while "$ref" in node:
            target: Any = self.spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def check(self, reply: Reply) -> None:
        """Raise AssertionError when ``reply`` breaks the contract."""
        where = f"{reply.method} {reply.path} → {reply.status}"
        op = self.operation(reply.method, reply.path)
        if op is None:  # unknown API routes answer 404/405 problems, outside the document
            assert reply.status in (404, 405), where
            assert reply.content_type == "application/problem+json", where
            self.validate(reply.json, {"$ref": "#/components/schemas/Problem"}, where)
            return
        responses = op["responses"]
        doc = responses.get(str(reply.status))
        if doc is None:
            assert reply.status >= 400 and "default" in responses, f"{where}: undocumented"
            doc = responses["default"]
        doc = self.resolve(doc)
        if reply.status == 304 or not reply.body:
            assert reply.status in (204, 304), f"{where}: empty body"
            return
        content = doc.get("content", {})
        assert reply.content_type in content, f"{where}: {reply.content_type} not documented"
        schema = content[reply.content_type].get("schema")
        if schema is not None:
            self.validate(reply.json, schema, where)

    def validate(self, instance: Any, schema: dict[str, Any], where: str) -> None:
        validator = Draft202012Validator({**schema, "components": self.spec["components"]})
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
        assert not errors, f"{where}: " + "; ".join(
            f"{'/'.join(map(str, e.path))}: {e.message[:300]}" for e in errors[:5]
        )
