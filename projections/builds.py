"""A game built from its stored events: its summary rows and its timeline document.

:func:`project` is pure and picklable, so worker processes can fold games in parallel.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from itertools import groupby
from operator import itemgetter
from typing import Any
from uuid import UUID

import orjson

from domain.documents import played_day, written_header
from domain.games import ruleset
from domain.ruleset import Stored
from domain.store import Game, GameLibrary
from projections import summaries
from projections.tables import midnight, timestamp
from projections.timeline import Timeline


def meta_change(event: Any) -> tuple[str, Any] | None:
    """The game column a metadata event sets, and its stored value (``played_at`` None:
    the game's upload time)."""
    match event:
        case Game.Retitled():
            return "title", event.title
        case Game.Retagged():
            return "tags", json.dumps(list(event.tags))
        case Game.VisibilityChanged():
            return "visibility", event.visibility
        case Game.Redated():
            day = None if event.played_on is None else date.fromisoformat(event.played_on)
            return "played_at", None if day is None else timestamp(midnight(day))
    return None


@dataclass
class Build:
    """A game read from the log: its upload, its events (as stored), its metadata so far."""

    game_id: UUID
    game: str
    """The ruleset's name (the record's ``"game"``)."""
    record: str
    actions: int
    meta: dict[str, Any]
    version: int
    happened: list[dict[str, Any]] = field(default_factory=list)
    """Its ``Happened`` events as stored: ``{"step", "type", "data"}``."""
    joined: bytes = b""
    """Its first ``Happened`` events as one JSON array of such dicts, not yet read (cheap
    to send to a folding process; read before any event added after them)."""

    @classmethod
    def uploaded(cls, e: Game.Uploaded) -> Build:
        """The game as its ``Uploaded`` event describes it."""
        uploaded = timestamp(e.timestamp)
        day = played_day(written_header(e.record).get("meta") or {})
        meta = {
            "title": e.title, "tags": json.dumps(list(e.tags)), "visibility": e.visibility,
            "uploaded_at": uploaded, "played_at": timestamp(midnight(day)) if day else uploaded,
            "uploaded_by": e.uploaded_by, "rules_version": e.rules_version,
        }  # fmt: skip
        return cls(e.originator_id, e.game, e.record, e.actions, meta, e.originator_version)

    def add(self, e: Any) -> None:
        """Take in the game's next stored event (a ``Game`` event)."""
        self.version = e.originator_version
        if isinstance(e, Game.Happened):
            self.events().append({"step": e.step, "type": e.type, "data": e.data})
        elif (change := meta_change(e)) is not None:
            column, value = change
            self.meta[column] = self.meta["uploaded_at"] if value is None else value

    def events(self) -> list[dict[str, Any]]:
        """Its ``Happened`` events as stored, ``joined`` ones read."""
        if self.joined:
            self.happened[:0] = orjson.loads(self.joined)
            self.joined = b""
        return self.happened

    def steps(self) -> list[list[Stored]]:
        """The stored events of each action."""
        steps: list[list[Stored]] = [[] for _ in range(self.actions)]
        for step, events in groupby(self.events(), itemgetter("step")):
            if step >= len(steps):
                steps += [[] for _ in range(step + 1 - len(steps))]
            steps[step] += events
        return steps


Projected = tuple[tuple[Any, ...], list[tuple[Any, ...]], tuple[str, list[tuple[Any, ...]]], str]
"""A game's row, its seats' rows, its game's name and its seats' rows in that game's own
table, and its timeline document."""


def project(build: Build) -> Projected:
    """Follow a game's events with its ruleset into its summary rows and timeline (runs in
    worker processes)."""
    steps = build.steps()
    rules = ruleset(build.game)
    start = rules.written_start(build.record)
    line = Timeline(rules, start)
    line.walk(steps)
    identity = {**build.meta, "game_id": str(build.game_id), "version": build.version}
    game, seats, extras = summaries.rows(rules, start, steps, line.follower.state, identity)
    return game, seats, extras, orjson.dumps(line.doc()).decode()


def attempt(build: Build) -> Projected | str:
    """:func:`project`, or the error it raised as text (a game whose events cannot be
    folded must not stop the others)."""
    try:
        return project(build)
    except Exception as exc:
        return error_text(exc)


def error_text(exc: BaseException) -> str:
    """An error as the failures table keeps it: its type and message, cut to 2,000
    characters, NUL and lone surrogates escaped (both databases can store it).

    >>> error_text(ValueError(f"bad {chr(0)} {chr(0xD800)}"))
    'ValueError: bad \\\\x00 \\\\ud800'
    """
    text = f"{type(exc).__name__}: {exc}"[:2000]
    return text.encode("utf-8", "backslashreplace").decode().replace("\x00", "\\x00")


def reload(library: GameLibrary, game_id: UUID, version: int | None = None) -> Build:
    """A game rebuilt from its stream up to ``version`` (default: all of it)."""
    stored = iter(library.events.get(game_id, lte=version))
    build = Build.uploaded(next(stored))  # type: ignore[arg-type]
    for e in stored:
        build.add(e)
    return build
