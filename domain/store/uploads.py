"""Games made ready for the store: a record checked by the engine, with the events it caused.

Preparing touches no store, so an import can prepare records in other processes and save
them in one; a ``PreparedGame`` is plain data, cheap to send between processes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.store.game import Game, check_visibility, clean_tags, game_id_for, record_digest
from domain.wolves import codec
from domain.wolves import components as box
from domain.wolves.events import Event
from domain.wolves.records import Record, read_record, write_record
from domain.wolves.replay import replay

StoredEvent = tuple[int, str, dict[str, Any]]
"""A domain event as the store keeps it: its action's step, its type name, its fields."""


@dataclass(frozen=True)
class PreparedGame:
    """A valid game and its metadata, as one ``Game`` stream will hold them."""

    digest: str
    record: str
    uploaded_by: str | None
    title: str | None
    tags: tuple[str, ...]
    visibility: str
    actions: int
    events: tuple[StoredEvent, ...]

    @property
    def game_id(self) -> UUID:
        """The id the game is stored under (from its canonical record's digest)."""
        return game_id_for(self.digest)

    def aggregate(self) -> Game:
        """The new ``Game`` aggregate, with every event pending, ready to save."""
        game = Game(
            digest=self.digest, record=self.record, uploaded_by=self.uploaded_by,
            title=self.title, tags=list(self.tags), visibility=self.visibility,
            rules_version=box.RULES_VERSION, actions=self.actions,
        )  # fmt: skip
        for step, kind, data in self.events:
            game.happened(step, kind, data)
        return game


def stored_events(steps: Sequence[Sequence[Event]], first: int = 0) -> tuple[StoredEvent, ...]:
    """The events of each action in ``steps`` as the store keeps them, numbered from ``first``."""
    out = []
    for step, caused in enumerate(steps, start=first):
        for event in caused:
            doc = codec.stored(event)
            out.append((step, doc["type"], doc["data"]))
    return tuple(out)


def canonical_record(data: bytes | str | Mapping[str, Any] | Record) -> tuple[Record, bytes]:
    """The record ``data`` holds and its canonical bytes; ``InvalidRecord`` when malformed."""
    record = data if isinstance(data, Record) else read_record(data)
    return record, write_record(record)


def prepare(
    record: Record,
    canonical: bytes,
    uploaded_by: str | None = None,
    title: str | None = None,
    tags: Iterable[str] = (),
    visibility: str = "public",
    check: Callable[[], None] | None = None,
) -> PreparedGame:
    """Replay ``record`` with the engine (``RecordError`` for an illegal action) and keep
    every event it caused. ``title`` defaults to the record's ``meta.title``; ``check`` is
    called every few actions of the replay (a work budget: what it raises ends it)."""
    check_visibility(visibility)
    tags = clean_tags(tags)
    played = replay(record, check=check)
    if title is None:
        title = record.meta.get("title")
    return PreparedGame(
        digest=record_digest(canonical), record=canonical.decode("utf-8"),
        uploaded_by=uploaded_by, title=(title or "").strip() or None, tags=tags,
        visibility=visibility, actions=len(record.actions), events=stored_events(played.steps),
    )  # fmt: skip


def prepare_record(data: bytes | str | Mapping[str, Any] | Record, **metadata: Any) -> PreparedGame:
    """:func:`prepare` for a record given as JSON, a parsed document or a ``Record``."""
    return prepare(*canonical_record(data), **metadata)
