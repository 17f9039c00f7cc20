"""``/api/docs``: a self-contained HTML page describing the API, made from the OpenAPI
document (no scripts, nothing loaded from elsewhere, so it works offline)."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, current_app, render_template_string
from markupsafe import Markup, escape

from api.problems import PROBLEM_KINDS

bp = Blueprint("docs", __name__, url_prefix="/api")
METHODS = ("get", "post", "put", "patch", "delete")

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ info.title }} {{ info.version }}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .2em}
.op{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.m{font-weight:bold;text-transform:uppercase;margin-right:.5em}
table{border-collapse:collapse}td,th{border-bottom:1px solid #eee;padding:.2em .6em;text-align:left}
pre{background:#f6f6f6;padding:.4rem .6rem;overflow-x:auto;border-radius:4px}
nav ul{columns:2 18rem;padding-left:1.2rem}nav li{break-inside:avoid}
</style></head><body>
<h1>{{ info.title }} <small>{{ info.version }}</small></h1>
<p>{{ md(info.description) }}</p>
<p>The machine-readable contract: <a href="openapi.json">openapi.json</a> (OpenAPI
{{ openapi }}). Uploads need <code>Authorization: Bearer &lt;token&gt;</code>. The examples
read the server's address from <code>$HOWL</code> (<code>HOWL=http://127.0.0.1:8000</code>)
and a token from <code>$TOKEN</code>.</p>
<nav aria-label="contents"><h2>Contents</h2><ul>
{% for tag, ops in groups %}<li><a href="#tag-{{ anchor(tag) }}">{{ tag }}</a>:
{% for path, method, op in ops %}<a href="#{{ op_id(method, path, op) }}">{{ method.upper() }}
{{ path }}</a>{{ ", " if not loop.last }}{% endfor %}</li>
{% endfor %}<li><a href="#schemas">Schemas</a></li><li><a href="#problems">Problems</a></li>
</ul></nav>
{% for tag, ops in groups %}<h2 id="tag-{{ anchor(tag) }}">{{ tag }}</h2>
{% for path, method, op in ops %}
<div class="op" id="{{ op_id(method, path, op) }}">
<h3><span class="m">{{ method }}</span><code>{{ path }}</code></h3>
<p><b>{{ md(op.summary) }}</b></p>{% if op.description %}<p>{{ md(op.description) }}</p>{% endif %}
{% if op.requestBody %}<p>Body: {% for type, body in op.requestBody.content.items() %}
<code>{{ type }}</code> ({{ md(body.schema.description or
", ".join(body.schema.get("properties", {}))) }}){{ "; " if not loop.last }}{% endfor %}</p>
{% endif %}{% if op.parameters %}<table>
<tr><th>parameter</th><th>in</th><th>type</th><th>about</th></tr>
{% for p in op.parameters %}<tr><td><code>{{ p.name }}</code>{{ " *" if p.required }}</td>
<td>{{ p.in }}</td><td>{{ kind(p.schema) }}</td>
<td>{{ md(p.description or p.schema.description) }}</td>
</tr>{% endfor %}</table>{% endif %}
<pre><code>{{ example(method, path, op) }}</code></pre>
<ul>{% for status, text, shape in op.answers %}<li><b>{{ status }}</b> {{ md(text) }}
{% if shape %}→ <a href="#schema-{{ shape }}">{{ shape }}</a>{% endif %}</li>{% endfor %}</ul>
</div>{% endfor %}{% endfor %}
<h2 id="schemas">Schemas</h2>
{% for name, schema in schemas %}<div class="op" id="schema-{{ name }}">
<h3>{{ name }}</h3><p>{{ md(schema.description) }}</p>
{% if schema.properties %}<table><tr><th>field</th><th>type</th><th>about</th></tr>
{% for field, prop in schema.properties.items() %}<tr><td><code>{{ field }}</code>
{{ " *" if field in schema.get("required", []) }}</td><td>{{ kind(prop) }}</td>
<td>{{ md(prop.description) }}</td></tr>{% endfor %}</table>{% endif %}</div>{% endfor %}
<h2 id="problems">Problems</h2>
<p>Errors are <code>application/problem+json</code> (RFC 9457) with <code>type</code>,
<code>title</code>, <code>status</code> and <code>detail</code>; plain HTTP errors have
<code>type</code> <code>about:blank</code>, the others link here:</p>
<dl>{% for kind, (title, about) in problems.items() %}<dt id="problem-{{ kind }}">
<code>{{ kind }}</code>: {{ title }}</dt><dd>{{ md(about) }}</dd>{% endfor %}</dl>
</body></html>"""


def md(text: str | None) -> Markup:
    """Escape ``text`` and show its `backticks` as code."""
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text or ""))))


def anchor(text: str) -> str:
    """``text`` as an element id.

    >>> anchor("Live tables")
    'live-tables'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def op_id(method: str, path: str, op: dict[str, Any]) -> str:
    """An operation's element id: its ``operationId``, else made of its method and path."""
    return str(op.get("operationId") or anchor(f"{method} {path}"))


def example(method: str, path: str, op: dict[str, Any]) -> str:
    """A ``curl`` command for the operation: its method, the token for a write, a body of
    its media type (a record file for one that takes a record, ``{}`` to fill in else).

    >>> print(example("post", "/api/games/{game_id}/comments", {"requestBody": {"content": {
    ...     "application/json": {}}}}))  # doctest: +NORMALIZE_WHITESPACE
    curl -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json"
    -d '{}' "$HOWL/api/games/{game_id}/comments"
    >>> print(example("get", "/api/games", {}))
    curl "$HOWL/api/games"
    """
    parts = ["curl"]
    if method != "get":
        parts += ["-X", method.upper(), '-H "Authorization: Bearer $TOKEN"']
    content = (op.get("requestBody") or {}).get("content", {})
    if content:
        media = next(iter(content))
        about = str(content[media].get("schema", {}).get("description", ""))
        data = "--data-binary @game.json" if "record" in about.lower() else "-d '{}'"
        parts += [f'-H "Content-Type: {media}"', data]
    return " ".join([*parts, f'"$HOWL{path}"'])


def kind(schema: dict[str, Any] | None) -> str:
    """A parameter's or field's type in a word or two."""
    schema = schema or {}
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "enum" in schema:
        return " | ".join(map(str, schema["enum"]))
    types = schema.get("type", "")
    text = " | ".join(types) if isinstance(types, list) else types
    if "items" in schema:
        text += f" of {kind(schema['items'])}"
    return " ".join(filter(None, (text, schema.get("format"))))


def answers(spec: dict[str, Any], responses: dict[str, Any]) -> list[tuple[str, str, str]]:
    """An operation's responses in status order: (status, description, schema name)."""
    out = []
    for status, response in responses.items():
        if "$ref" in response:
            response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
        media: dict[str, Any] = next(iter(response.get("content", {}).values()), {})
        schema = media.get("schema", {})
        shape = schema["$ref"].rsplit("/", 1)[-1] if "$ref" in schema else ""
        out.append((status, response.get("description", ""), shape))
    return sorted(out, key=lambda a: (a[0] == "default", a[0]))


@bp.get("/docs")
def docs() -> str:
    """The API described for people."""
    spec = current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    groups: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                op = {  # a copy: the spec's own dicts are apispec's live document
                    **item[method],
                    "parameters": item.get("parameters", []) + item[method].get("parameters", []),
                    "answers": answers(spec, item[method].get("responses", {})),
                }
                groups.setdefault(op.get("tags", ["api"])[0], []).append((path, method, op))
    return render_template_string(
        PAGE, info=spec["info"], openapi=spec["openapi"], groups=groups.items(),
        problems=PROBLEM_KINDS, md=md, kind=kind, anchor=anchor, op_id=op_id, example=example,
        schemas=sorted(spec["components"]["schemas"].items()),
    )  # fmt: skip
