"""Games made ready for the store: a record checked by its game's ruleset, with the events
it caused.

The record's ``"game"`` picks the ruleset (:func:`domain.games.read_record`); the ruleset
writes its canonical bytes, replays it and encodes the events the store keeps. Preparing
touches no store, so an import can prepare records in other processes and save them in
one; a ``PreparedGame`` is plain data, cheap to send between processes, and so is the
``EncodedGame`` it is encoded to (:func:`encode`): its stream as the store keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import Mapper
from eventsourcing.persistence import StoredEvent as Recorded
from eventsourcing.utils import get_topic

from domain import games
from domain.replays import replay
from domain.ruleset import GameRecord, Ruleset
from domain.store.game import Game, check_visibility, clean_tags, game_id_for, record_digest
from domain.store.transcoding import kept_time, store_mapper

StoredEvent = tuple[int, str, dict[str, Any]]
"""A domain event as the store keeps it: its action's step, its type name, its fields."""


@dataclass(frozen=True)
class PreparedGame:
    """A valid game and its metadata, as one ``Game`` stream will hold them."""

    game: str
    digest: str
    record: str
    uploaded_by: str | None
    title: str | None
    tags: tuple[str, ...]
    visibility: str
    rules_version: str
    actions: int
    finished: bool
    events: tuple[StoredEvent, ...]

    @property
    def game_id(self) -> UUID:
        """The id the game is stored under (from its canonical record's digest)."""
        return game_id_for(self.digest)

    def aggregate(self) -> Game:
        """The new ``Game`` aggregate, with every event pending, ready to save."""
        game = self.uploaded()
        for step, kind, data in self.events:
            game.happened(step, kind, data)
        return game

    def uploaded(self) -> Game:
        """The new ``Game`` aggregate with its ``Uploaded`` event pending, no other."""
        return Game(
            game=self.game, digest=self.digest, record=self.record,
            uploaded_by=self.uploaded_by, title=self.title, tags=list(self.tags),
            visibility=self.visibility, rules_version=self.rules_version, actions=self.actions,
            finished=self.finished,
        )  # fmt: skip


@dataclass(frozen=True)
class EncodedGame:
    """A prepared game in the store's own form: its stream's events and its snapshot as
    the store's mapper encodes them, for a library only to write."""

    game_id: UUID
    events: tuple[Recorded, ...]
    snapshot: Recorded


HAPPENED_TOPIC = get_topic(Game.Happened)


def encode(game: PreparedGame) -> EncodedGame:
    """``game`` as its new ``Game`` stream and snapshot are stored (timestamped now, its
    ``Happened`` events all at one moment).

    The ``Happened`` events are applied to the aggregate as a stored stream is, and their
    states written by orjson rather than the mapper's ``json`` module: the same bytes for
    the JSON data a ruleset encodes (:func:`plain`); any other data goes through the
    mapper."""
    mapper = store_mapper()
    aggregate = game.uploaded()
    events = [mapper.to_stored_event(e) for e in aggregate.collect_events()]
    at = Game.Happened.create_timestamp()
    stamp = kept_time(at)
    gid = aggregate.id
    for step, kind, data in game.events:
        fields: dict[str, Any] = {
            "originator_id": gid, "originator_version": aggregate.version + 1,
            "timestamp": at, "step": step, "type": kind, "data": data,
        }  # fmt: skip
        happened = Game.Happened(**fields)
        happened.mutate(aggregate)
        events.append(_stored(mapper, happened, stamp))
    snapshot = mapper.to_stored_event(Game.Snapshot.take(aggregate))
    return EncodedGame(game.game_id, tuple(events), snapshot)


def _stored(mapper: Mapper[UUID], happened: Game.Happened, stamp: dict[str, str]) -> Recorded:
    """A ``Happened`` event as the store keeps it (``stamp``: its timestamp as kept)."""
    if plain(happened.data):
        state = {"timestamp": stamp, "step": happened.step, "type": happened.type,
                 "data": happened.data}  # fmt: skip
        with suppress(orjson.JSONEncodeError):  # text that is not UTF-8: the mapper says so
            return Recorded(
                happened.originator_id, happened.originator_version, HAPPENED_TOPIC,
                orjson.dumps(state),
            )  # fmt: skip
    return mapper.to_stored_event(happened)


def plain(value: Any) -> bool:
    """Whether ``value`` is JSON data that orjson writes as the ``json`` module does: text,
    booleans, None, integers within 64 bits, finite floats written alike, and lists,
    tuples and dicts with text keys of them.

    >>> plain({"hex": (7, 12), "kind": "den", "n": None}), plain([1.5]), plain([1e-7])
    (True, True, False)
    >>> plain({1: "a"}), plain(float("nan")), plain(2**64)
    (False, False, False)
    """
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-(2**63) <= value < 2**64)
    if kind is float:
        return repr(value) == orjson.dumps(value).decode()
    if kind is list or kind is tuple:
        return all(map(plain, value))
    if kind is dict:
        return all(type(k) is str for k in value) and all(map(plain, value.values()))
    return False


def stored_events(
    rules: Ruleset, steps: Sequence[Sequence[Any]], first: int = 0
) -> tuple[StoredEvent, ...]:
    """The events of each action in ``steps`` as the store keeps them (encoded by ``rules``),
    numbered from ``first``."""
    return tuple(
        (step, *rules.encode_event(event))
        for step, caused in enumerate(steps, start=first)
        for event in caused
    )


def canonical_record(data: bytes | str | Mapping[str, Any]) -> tuple[Ruleset, GameRecord, bytes]:
    """The ruleset of the record ``data`` holds (JSON or a parsed document), the record and
    its canonical bytes; ``InvalidRecord`` when it is malformed or its game is unknown."""
    rules, record = games.read_record(data)
    return rules, record, rules.write_record(record)


def prepare(
    rules: Ruleset,
    record: GameRecord,
    canonical: bytes,
    uploaded_by: str | None = None,
    title: str | None = None,
    tags: Iterable[str] = (),
    visibility: str = "public",
    check: Callable[[], None] | None = None,
) -> PreparedGame:
    """Replay ``record`` with ``rules`` (``RecordError`` for an illegal action) and keep every
    event it caused. ``title`` defaults to the record's ``meta.title``; ``check`` is called
    every few actions of the replay (a work budget: what it raises ends it)."""
    check_visibility(visibility)
    tags = clean_tags(tags)
    played = replay(rules, record, check=check)
    if title is None:
        title = record.meta.get("title")
    return PreparedGame(
        game=rules.name, digest=record_digest(canonical), record=canonical.decode("utf-8"),
        uploaded_by=uploaded_by, title=(title or "").strip() or None, tags=tags,
        visibility=visibility, rules_version=rules.rules_version, actions=len(record.actions),
        finished=rules.finished(played.state), events=stored_events(rules, played.steps),
    )  # fmt: skip


def prepare_record(data: bytes | str | Mapping[str, Any], **metadata: Any) -> PreparedGame:
    """:func:`prepare` for a record given as JSON or a parsed document."""
    return prepare(*canonical_record(data), **metadata)
