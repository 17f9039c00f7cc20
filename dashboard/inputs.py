"""What a Dash callback accepts of its inputs: a callback request is JSON from anyone, so
each callback reads its inputs through these helpers first, and a value of the wrong type
or out of range counts as absent (``None``, or the default given).

>>> text("  Ana "), text(7), text("a\\x00b"), text("x" * 300)
('Ana', None, None, None)
>>> integer(3, range(2, 6)), integer(True, range(2, 6)), integer(9, range(2, 6))
(3, None, None)
>>> choice("forest", ("forest", "tundra")), choice(["forest"], ("forest",), "tundra")
('forest', 'tundra')
>>> day("2024-05-01"), day("9999-12-31"), day(20240501)
(datetime.date(2024, 5, 1), None, None)
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date
from typing import Any, TypeVar

from dash import dcc, html

T = TypeVar("T")

DEBOUNCE = 0.4
"""Seconds after the last key typed in a name filter (library, statistics) before it applies."""
MAX_TEXT = 200
"""Longest text a filter or name input may have (longer ones match no stored name)."""


def text(value: Any, limit: int = MAX_TEXT) -> str | None:
    """A string stripped of surrounding blanks; None for a blank one, another type, one
    over ``limit`` characters, or one with a NUL or a lone surrogate (no store holds those)."""
    if not isinstance(value, str) or len(value) > limit or "\x00" in value:
        return None
    if any("\ud800" <= c <= "\udfff" for c in value):
        return None
    return value.strip() or None


def integer(value: Any, allowed: range) -> int | None:
    """An integer within ``allowed`` (``True`` and ``1.0`` are not integers here)."""
    return value if type(value) is int and value in allowed else None


def choice(value: Any, allowed: Collection[T], default: T | None = None) -> T | None:
    """``value`` when it is one of ``allowed`` (compared with its type), else ``default``."""
    if isinstance(value, str | int) and not isinstance(value, bool) and value in allowed:
        return value  # type: ignore[return-value]
    return default


def day(value: Any) -> date | None:
    """An ISO date (``YYYY-MM-DD``) before the last day a date can have (a day is added
    to an ``until``)."""
    found = text(value, 10)
    try:
        parsed = date.fromisoformat(found) if found else None
    except ValueError:
        return None
    return parsed if parsed is not None and parsed < date.max else None


def texts(value: Any, limit: int, default: list[str | None]) -> list[str | None]:
    """A list of at most ``limit`` strings or nulls (a stack of page cursors), else
    ``default``."""
    if not isinstance(value, list) or not 0 < len(value) <= limit:
        return default
    if not all(v is None or text(v, 10_000) for v in value):
        return default
    return value


def search_box(
    id_: str, label: str, placeholder: str | None = None, value: str | None = None
) -> list[Any]:
    """A search field (``placeholder``: the label, by default) holding ``value``, and its
    label for screen readers; what is typed applies after a pause (:data:`DEBOUNCE`) or on
    Enter."""
    return [
        html.Label(label, htmlFor=id_, className="sr-only"),
        dcc.Input(
            id=id_,
            type="search",
            placeholder=placeholder or label,
            value=value,
            debounce=DEBOUNCE,
            className="filter",
        ),  # fmt: skip
    ]
