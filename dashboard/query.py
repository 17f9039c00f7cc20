"""The filters a page keeps in its address's query string (``/?game=moonlight&tag=club``):
written as they change, so that a link or a reload shows the same view, and read back when
the page opens. What the address holds is anyone's: each page reads each value through
:mod:`dashboard.inputs`, and one it cannot use is left out.

>>> read("?tag=club&tag=cup&q=&players=3")
{'tag': 'club', 'players': '3'}
>>> write({"game": "moonlight", "tag": "a&b", "q": None})
'?game=moonlight&tag=a%26b'
>>> number("3", range(2, 6)), number("٣", range(2, 6)), number("9", range(2, 6))
(3, None, None)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode

from dash import Dash, Input, Output, State

from dashboard.inputs import text

MAX_QUERY = 2_000
"""Longest query string read (a longer one is left out whole)."""


def read(search: Any) -> dict[str, str]:
    """The parameters of a query string (``?a=1&b=2``), the first of each name; blank ones
    and those of a query string too long or not text are left out."""
    found = text(search, MAX_QUERY)
    out: dict[str, str] = {}
    for name, value in parse_qsl((found or "").removeprefix("?")):
        out.setdefault(name, value)
    return out


def write(values: dict[str, Any]) -> str:
    """The query string of ``values`` (those that are None left out); empty for none."""
    kept = {name: str(value) for name, value in values.items() if value is not None}
    return f"?{urlencode(kept)}" if kept else ""


def number(value: Any, allowed: range) -> int | None:
    """A count written in ASCII digits, within ``allowed``."""
    found = text(value, 9)
    if found is None or not re.fullmatch(r"[0-9]+", found):
        return None
    return int(found) if int(found) in allowed else None


def keep(
    app: Dash,
    prefix: str,
    filters: Sequence[str],
    address: Callable[..., Any],
    follow: Callable[..., Any],
    shared: bool = False,
) -> None:
    """Keep a page's filters (the values of ``<prefix>-<name>`` for each of ``filters``) in
    its address: ``address`` (the filters, then the query string) answers the query string
    as they change, and ``follow`` (the query string, then the filters) the filters once the
    query string changed under them (the back and forward buttons). ``shared``: other
    callbacks set the filters too."""
    app.callback(
        Output("url", "search", allow_duplicate=True),
        *(Input(f"{prefix}-{name}", "value") for name in filters),
        State("url", "search"),
        prevent_initial_call=True,
    )(address)
    app.callback(
        *(Output(f"{prefix}-{name}", "value", allow_duplicate=shared) for name in filters),
        Input("url", "search"),
        *(State(f"{prefix}-{name}", "value") for name in filters),
        prevent_initial_call=True,
    )(follow)
