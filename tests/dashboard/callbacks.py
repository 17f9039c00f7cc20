"""Calling the dashboard's Dash callbacks over HTTP, as the browser does."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.error import HTTPError
from urllib.request import Request, urlopen


@dataclass(frozen=True)
class Answer:
    """A callback's HTTP status and its JSON body (``{}`` for an empty one)."""

    status: int
    body: dict[str, Any]

    def output(self, component: str, prop: str) -> Any:
        """What the callback set ``component``'s ``prop`` to."""
        return self.body["response"][component][prop]

    def text(self) -> str:
        """The whole answer as text, for looking for a message in it."""
        return json.dumps(self.body, ensure_ascii=False)


def dependencies(url: str) -> list[dict[str, Any]]:
    """The app's callbacks as the browser gets them, server-side ones only."""
    with urlopen(f"{url}/_dash-dependencies", timeout=30) as response:
        return [d for d in json.load(response) if not d.get("clientside_function")]


def find(deps: list[dict[str, Any]], output: str) -> dict[str, Any]:
    """The callback whose output string contains ``output`` (``id.property``)."""
    return next(d for d in deps if output in d["output"])


def component_id(text: str) -> Any:
    """A dependency's id: a string, or a pattern-matching id's dict."""
    return json.loads(text) if text.startswith("{") else text


def outputs(output: str) -> Any:
    """The ``outputs`` a browser sends for a callback's output string."""
    parts = output[2:-2].split("...") if output.startswith("..") else [output]
    listed = []
    for part in parts:
        id_, _, prop = part.rpartition(".")
        listed.append({"id": component_id(id_), "property": prop})
    return listed if output.startswith("..") else listed[0]


def post(url: str, body: Any, timeout: float = 60) -> Answer:
    """POST a callback request; the answer whatever its status."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = Request(f"{url}/_dash-update-component", raw, {"Content-Type": "application/json"})
    try:
        with urlopen(request, timeout=timeout) as response:
            text = response.read()
            return Answer(response.status, json.loads(text) if text else {})
    except HTTPError as err:
        text = err.read()
        return Answer(err.code, json.loads(text) if text.startswith(b"{") else {})


def call(
    url: str, dep: dict[str, Any], values: dict[str, Any], trigger: str | None = None
) -> Answer:
    """Run a callback with the given ``{"id.property": value}`` (others null); ``trigger``
    (default: the first input) is the input that changed."""

    def slot(spec: dict[str, Any]) -> Any:
        key = f"{spec['id']}.{spec['property']}"
        return {"id": component_id(spec["id"]), "property": spec["property"],
                "value": values.get(key)}  # fmt: skip

    first = dep["inputs"][0]
    body = {
        "output": dep["output"], "outputs": outputs(dep["output"]),
        "inputs": [slot(s) for s in dep["inputs"]], "state": [slot(s) for s in dep["state"]],
        "changedPropIds": [trigger or f"{first['id']}.{first['property']}"],
    }  # fmt: skip
    return post(url, body)
