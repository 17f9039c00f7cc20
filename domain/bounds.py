"""Bounds for untrusted JSON documents, independent of any game: parsing that refuses
non-finite numbers and deep nesting, text without NUL or lone surrogates, bounded
integers, and lists whose length is checked before their elements are read.

The readers (:func:`integer`, :func:`text`, :func:`choice`, :func:`items`, …) each take a
decoded JSON value and the JSON path it sits at, and return the value with its type or
raise :class:`~domain.ruleset.InvalidRecord` naming that path. Everything here is cheap:
checks are constant time per value, and a list that is too long is refused before one
element is looked at.

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
from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeGuard, TypeVar

from domain.ruleset import InvalidRecord

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


REQUIRED: Final = "Missing data for required field."
"""The message for a required field a document leaves out."""
NOT_NULL: Final = "Field may not be null."
"""The message for a ``null`` where a value is needed."""


def is_int(value: object) -> TypeGuard[int]:
    """True for a JSON integer (a Python int that is not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def integer(value: object, path: str, least: int, most: int) -> int:
    """A JSON integer from ``least`` to ``most`` (no float, string or boolean)."""
    if type(value) is int and least <= value <= most:  # the usual case, first
        return value
    if not is_int(value):
        raise InvalidRecord(path, "Not a valid integer.")
    if not least <= value <= most:
        raise InvalidRecord(path, f"must be an integer from {least} to {most}")
    return value


def boolean(value: object, path: str) -> bool:
    """A JSON ``true`` or ``false``, nothing else."""
    if not isinstance(value, bool):
        raise InvalidRecord(path, "Not a boolean.")
    return value


def string(value: object, path: str) -> str:
    """A JSON string (its content is the caller's to check)."""
    if not isinstance(value, str):
        raise InvalidRecord(path, "Not a valid string.")
    return value


def text(value: object, path: str, most: int, least: int = 1) -> str:
    """A string of ``least``–``most`` characters with no NUL and no lone surrogate."""
    found = string(value, path)
    problem = text_problem(found, most)
    if problem is None and len(found) < least:
        problem = "must not be empty"
    if problem is not None:
        raise InvalidRecord(path, problem)
    return found


Word = TypeVar("Word", bound=str)


def choice(value: object, path: str, what: str, choices: Sequence[Word]) -> Word:
    """One of ``choices`` (a ``Literal`` type's strings); the message names ``what`` it is
    and quotes at most the start of a wrong value.

    >>> choice("den", "piece", "piece", ("pack", "den"))
    'den'
    >>> choice("cub", "piece", "piece", ("pack", "den"))
    Traceback (most recent call last):
    ...
    domain.ruleset.InvalidRecord: piece: unknown piece 'cub' (one of pack, den)
    """
    if type(value) is str and value in choices:  # the usual case, first
        return choices[choices.index(value)]
    found = string(value, path)
    if found in choices:
        return choices[choices.index(found)]
    shown = found[:32] + "…" if len(found) > 32 else found
    raise InvalidRecord(path, f"unknown {what} {shown!r} (one of {', '.join(choices)})")


def items(value: object, path: str, most: int) -> Sequence[Any]:
    """A JSON list of at most ``most`` entries, its length checked before any entry is read."""
    if type(value) is list and len(value) <= most:  # the usual case, first
        return value
    if isinstance(value, list | tuple | dict) and len(value) > most:
        raise InvalidRecord(path, f"at most {most} entries, not {len(value)}")
    if not isinstance(value, list | tuple):
        raise InvalidRecord(path, "Not a valid list.")
    return value


def mapping(value: object, path: str) -> Mapping[str, Any]:
    """A JSON object."""
    if type(value) is dict:  # the usual case, first
        return value
    if not isinstance(value, Mapping):
        raise InvalidRecord(path, "Invalid input type.")
    return value


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
