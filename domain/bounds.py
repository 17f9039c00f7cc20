"""Bounds for untrusted JSON documents, independent of any game: parsing that refuses
non-finite numbers and deep nesting, text without NUL or lone surrogates, bounded
integers, and lists whose length is checked before their elements are read.

Everything here is cheap: checks are constant time per value, and a list that is too long
is refused before one element is looked at.

>>> text_problem("Ana", 64) is None
True
>>> text_problem("A\\x00na", 64)
'contains a NUL character'
>>> text_problem("\\ud800", 64)
'contains a lone surrogate (not UTF-8 text)'
"""

from __future__ import annotations

import json
import math
from typing import Any

from marshmallow import ValidationError, fields, validate

INT32_MAX = 2**31 - 1
"""The largest value of a PostgreSQL ``INTEGER`` column."""
INT64_MAX = 2**63 - 1
"""The largest value of a SQLite ``INTEGER`` or a PostgreSQL ``BIGINT``."""


class Malformed(ValueError):
    """A document that is not acceptable JSON (the message says why)."""


def loads(data: bytes | str) -> Any:
    """JSON text decoded, refusing ``NaN``, ``Infinity`` and numbers beyond a double's range
    (``1e400``), and nesting deeper than the decoder's recursion allows."""
    try:
        return json.loads(data, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise Malformed("nested too deeply") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is beyond the range of a double")
    return value


def text_problem(value: str, most: int) -> str | None:
    """Why ``value`` is not acceptable text of at most ``most`` characters, or None."""
    if len(value) > most:
        return f"longer than {most} characters"
    if "\x00" in value:
        return "contains a NUL character"
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "contains a lone surrogate (not UTF-8 text)"
    return None


class Text(fields.String):
    """A string of ``least``–``most`` characters with no NUL and no lone surrogate."""

    def __init__(self, most: int, least: int = 1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.most, self.least = most, least

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        problem = text_problem(text, self.most)
        if problem is None and len(text) < self.least:
            problem = "must not be empty"
        if problem is not None:
            raise ValidationError(problem)
        return text


def between(least: int, most: int) -> validate.Range:
    """A range validator whose message names both limits."""
    return validate.Range(least, most, error=f"must be an integer from {least} to {most}")


class Int(fields.Integer):
    """A JSON integer from ``least`` to ``most``: no floats, strings or booleans."""

    def __init__(self, least: int, most: int, **kwargs: Any) -> None:
        super().__init__(strict=True, validate=between(least, most), **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


class List(fields.List):
    """A list of at most ``most`` entries, its length checked before any entry is read."""

    def __init__(self, inner: fields.Field, most: int, **kwargs: Any) -> None:
        super().__init__(inner, **kwargs)
        self.most = most

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        check_length(value, self.most)
        return super()._deserialize(value, attr, data, **kwargs)


def check_length(value: Any, most: int) -> None:
    """``ValidationError`` when ``value`` is a list or object of more than ``most`` entries."""
    if isinstance(value, list | dict) and len(value) > most:
        raise ValidationError(f"at most {most} entries, not {len(value)}")


def brief(value: Any) -> str:
    """A short JSON rendering of ``value`` for a message: scalars up to 40 characters,
    containers by kind (quoting a client's huge or deep value would cost more than it says).

    >>> brief([1, 2]), brief("x" * 50)
    ('a list', '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…')
    """
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    shown = json.dumps(value[:40] if isinstance(value, str) else value)
    return shown if len(shown) <= 40 else shown[:40] + "…"
