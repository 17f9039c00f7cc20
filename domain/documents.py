"""Reading and writing the JSON documents every game shares (``howl.game``, ``howl.position``).

A reader parses bytes once (:func:`parse`, bounded by :mod:`domain.bounds`), checks the
header its format speaks (:func:`check_header`) and reports any problem as an
:class:`~domain.ruleset.InvalidRecord` naming the JSON path (:func:`join`). Writers give
canonical bytes (:func:`canonical_json`), so one game always serialises the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

import orjson

from domain import bounds
from domain.ruleset import InvalidRecord

RECORD_FORMAT, RECORD_VERSION = "howl.game", 1
"""The header of every game record (records.md)."""
PLAYED_DAYS = (date(1970, 1, 1), date(9999, 12, 30))
"""The days a record's ``meta.played_on`` may name to date its game."""
MAX_META_KEYS, MAX_META_KEY, MAX_META_VALUE = 32, 64, 1000
"""A record's ``meta``: how many entries, how long a key and a value may be."""
MAX_ANNOTATIONS, MAX_NOTE, MAX_AUTHOR = 500, 2000, 64
"""A record's ``annotations``: how many, how long a text and an author's name may be."""
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters (Unicode's ``Cc``) but tab and newline."""


def join(path: str, key: str | int) -> str:
    """A JSON path one step further: ``join("actions", 3)`` is ``actions[3]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def parse(data: bytes | str | Mapping[str, Any], kind: str = "record") -> Mapping[str, Any]:
    """A JSON object from bytes, text or an already decoded mapping."""
    if isinstance(data, Mapping):
        return data
    try:
        doc = bounds.loads(data)
    except UnicodeDecodeError:
        raise InvalidRecord("", "not UTF-8 text") from None
    except json.JSONDecodeError as err:
        where = f"line {err.lineno}, column {err.colno}"
        raise InvalidRecord("", f"malformed JSON: {err.msg} ({where})") from None
    except ValueError as err:
        raise InvalidRecord("", f"malformed JSON: {err}") from None
    if not isinstance(doc, dict):
        raise InvalidRecord("", f"a {kind} is a JSON object")
    return doc


def check_header(doc: Mapping[str, Any], want: Iterable[tuple[str, Any]], path: str = "") -> None:
    """Each ``(key, value)`` of ``want`` is in ``doc`` with that very value and type."""
    for key, value in want:
        at = join(path, key)
        if key not in doc:
            raise InvalidRecord(at, f"missing: expected {json.dumps(value)}")
        got = doc[key]
        if got != value or type(got) is not type(value):
            raise InvalidRecord(at, f"expected {json.dumps(value)}, got {bounds.brief(got)}")


def check_meta(meta: Any) -> Mapping[str, str]:
    """``meta``: at most ``MAX_META_KEYS`` strings, keys and values bounded text."""
    if not isinstance(meta, Mapping):
        raise InvalidRecord("meta", "expected a JSON object of strings")
    if len(meta) > MAX_META_KEYS:
        raise InvalidRecord("meta", f"at most {MAX_META_KEYS} entries, not {len(meta)}")
    for key, value in meta.items():
        problem = bounds.text_problem(key, MAX_META_KEY)
        if problem is not None:
            raise InvalidRecord("meta", f"a key {problem}")
        if not isinstance(value, str):
            raise InvalidRecord(f"meta.{key}", "expected a string")
        problem = bounds.text_problem(value, MAX_META_VALUE)
        if problem is not None:
            raise InvalidRecord(f"meta.{key}", problem)
    return meta


_ACTIONS, _AFTER_ACTIONS = '{"actions":[', '],"format":'
"""How a canonical record begins, and what follows its actions (its keys are sorted:
``actions`` comes first, ``format`` next)."""


def written_header(text: str) -> dict[str, Any]:
    """A stored record's JSON but for its actions (``[]``): those are left unparsed when the
    text is canonical (:func:`canonical_json`), else the whole text is parsed.

    >>> written_header('{"actions":[{"type":"pass"}],"format":"howl.game","meta":{}}')
    {'format': 'howl.game', 'meta': {}, 'actions': []}
    """
    end = text.find(_AFTER_ACTIONS) if text.startswith(_ACTIONS) else -1
    doc = orjson.loads(text) if end < 0 else orjson.loads("{" + text[end + 2 :])
    return {**doc, "actions": []}


def played_day(meta: Mapping[str, Any]) -> date | None:
    """The day a record's ``meta.played_on`` names (``2026-11-20``, from 1970 to 9999-12-30, the
    days a date filter takes); None when it has none or names no such day.

    >>> played_day({"played_on": "2026-11-20"}), played_day({"played_on": "20261120"})
    (datetime.date(2026, 11, 20), None)
    >>> played_day({"played_on": "0001-01-01"}), played_day({"played_on": "2026-02-30"})
    (None, None)
    """
    text = meta.get("played_on")
    if not isinstance(text, str) or len(text) != 10 or text[4] != "-" or text[7] != "-":
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    return day if PLAYED_DAYS[0] <= day <= PLAYED_DAYS[1] else None


def canonical_json(doc: Any) -> bytes:
    """Canonical bytes: sorted keys, compact separators, UTF-8, no trailing newline."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def record_document(
    game: str,
    players: list[dict[str, Any]],
    actions: list[dict[str, Any]],
    meta: Mapping[str, str],
    **parts: Any,
) -> dict[str, Any]:
    """A ``howl.game`` document: its header, ``players`` and ``actions``, ``meta`` when it
    has entries, and each of ``parts`` (``setup``, ``start``, ``rules``) that is not None."""
    doc: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": game}
    doc.update(players=players, actions=actions)
    if meta:
        doc["meta"] = dict(meta)
    doc.update({key: value for key, value in parts.items() if value is not None})
    return doc


@dataclass(frozen=True, slots=True)
class Annotation:
    """A comment on the position after ``step`` actions, by ``author`` (None: not named)."""

    step: int
    author: str | None
    text: str

    def to_json(self) -> dict[str, Any]:
        """``{"step", "author", "text"}`` as records.md writes it."""
        return {"step": self.step, "author": self.author, "text": self.text}


def note_problem(value: object, most: int) -> str | None:
    """Why ``value`` is not the text of a comment (1 to ``most`` characters, no control
    character but newline and tab, no lone surrogate), or None.

    >>> note_problem("Good move.\\nReally.", 2000) is None
    True
    >>> note_problem("bell\\x07", 2000)
    'contains a control character (U+0007)'
    """
    if not isinstance(value, str):
        return "Not a valid string."
    if not value.strip():
        return "must not be empty"
    problem = bounds.text_problem(value, most)
    if problem is not None:
        return problem
    control = CONTROL.search(value)
    if control is not None:
        return f"contains a control character (U+{ord(control.group()):04X})"
    return None


def read_annotations(doc: Mapping[str, Any], steps: int) -> tuple[Annotation, ...]:
    """A record's optional ``annotations`` (records.md): at most ``MAX_ANNOTATIONS`` of
    ``{"step": 0…steps, "author"?: name or null, "text": …}``; ``InvalidRecord`` naming the
    path (``annotations[3].text``) otherwise. Other fields of an entry are ignored."""
    found = doc.get("annotations")
    if found is None:
        return ()
    notes = []
    for i, entry in enumerate(bounds.items(found, "annotations", MAX_ANNOTATIONS)):
        at = join("annotations", i)
        entry = bounds.mapping(entry, at)
        if "step" not in entry:
            raise InvalidRecord(join(at, "step"), bounds.REQUIRED)
        step = bounds.integer(entry["step"], join(at, "step"), 0, steps)
        author = entry.get("author")
        if author is not None:
            problem = note_problem(author, MAX_AUTHOR)
            if problem is not None:
                raise InvalidRecord(join(at, "author"), problem)
        if "text" not in entry:
            raise InvalidRecord(join(at, "text"), bounds.REQUIRED)
        problem = note_problem(entry["text"], MAX_NOTE)
        if problem is not None:
            raise InvalidRecord(join(at, "text"), problem)
        notes.append(Annotation(step, author, entry["text"]))
    return tuple(notes)


def annotated(record: bytes, notes: Iterable[Annotation]) -> bytes:
    """A record's canonical bytes with ``annotations`` (the record as it is without any)."""
    listed = [note.to_json() for note in notes]
    if not listed:
        return record
    doc = json.loads(record)
    doc["annotations"] = listed
    return canonical_json(doc)
