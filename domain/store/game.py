"""``Game``: the event-sourced aggregate holding one uploaded game (one stream per game).

Its first event, ``Uploaded``, keeps which game it is (the ruleset's name), the canonical
record and the game's metadata; then one ``Happened`` per domain event the ruleset
produced, in order, each with the index of the action that caused it; later metadata
changes follow (``Retitled``, ``Retagged``, ``VisibilityChanged``, ``Redated``), and a
``Withdrawn`` ends a game its uploader took back: nothing follows it, and the stream stays
until it is purged. The aggregate itself holds only metadata and counts.

Stored names are explicit ``TOPIC`` strings, so modules can move without breaking stored
streams. Every event class has a ``class_version``: to change an event's fields, bump it
and add a ``upcast_v1_v2(state: dict) -> None`` static method that rewrites the stored
dict of an older version in place (eventsourcing runs it on read). The aggregate's own
``class_version`` and upcasts do the same for its stored snapshots.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from eventsourcing.domain import Aggregate, event

from domain.games import FIRST as FIRST_GAME

VISIBILITIES = ("public", "private")
FIRST_GAME_END = "GameEnded"
"""The event type that ends a game of :data:`~domain.games.FIRST`, the game of every stream
stored before ``Uploaded`` named its game (version 1): how a version 1 stream, which did
not say whether its game was finished, tells it."""
GAME_ID_NAMESPACE = uuid.UUID("6f1c2a4e-8d1b-5d0e-9a57-3f0b8c6d2e11")
"""Namespace of the name-based (uuid5) game ids: a game's id is uuid5(namespace, sha256)."""


def record_digest(canonical: bytes) -> str:
    """SHA-256 (hex) of a canonical record: what identifies a game.

    >>> record_digest(b"{}")[:12]
    '44136fa355b3'
    """
    return hashlib.sha256(canonical).hexdigest()


def game_id_for(digest: str) -> uuid.UUID:
    """The id of the game whose canonical record has this SHA-256 digest."""
    return uuid.uuid5(GAME_ID_NAMESPACE, digest)


MAX_TAGS = 1000
"""Most characters a game's tags take together (an upload's comma-separated ``tags``), and so
the longest one tag may be."""


def clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags stripped, empty ones dropped, duplicates removed (first kept).

    >>> clean_tags([" club ", "", "club", "final"])
    ('club', 'final')
    """
    seen: dict[str, None] = {}
    for tag in tags:
        if not isinstance(tag, str):
            raise TypeError(f"a tag must be a string, got {tag!r}")
        if tag.strip():
            seen.setdefault(tag.strip(), None)
    return tuple(seen)


def check_visibility(visibility: str) -> str:
    """``visibility`` if it is ``public`` or ``private``; ValueError otherwise."""
    if visibility not in VISIBILITIES:
        raise ValueError(f"visibility must be public or private, got {visibility!r}")
    return visibility


class Game(Aggregate):
    """One uploaded game: metadata, counts, and its stream of domain events."""

    TOPIC = "howl/game"
    class_version = 3

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """A snapshot taken before games were named holds one of :data:`FIRST_GAME`."""
        state["game"] = FIRST_GAME

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """A snapshot taken before games could be re-dated or withdrawn (at its upload):
        neither."""
        state["redated"], state["played_on"], state["withdrawn"] = False, None, False

    class Event(Aggregate.Event):
        """Base class of the game's events."""

        TOPIC = "howl/game/event"

    class Created(Event, Aggregate.Created):
        """Unused base "created" event (``Uploaded`` is the one used)."""

        TOPIC = "howl/game/created"

    class Uploaded(Created):
        """The game was uploaded: which game (its ruleset's name), its canonical record and
        metadata (uploaded at = timestamp), and whether its last action finished it."""

        TOPIC = "howl/game/uploaded"
        class_version = 2
        game: str
        digest: str
        record: str
        uploaded_by: str | None
        title: str | None
        tags: list[str]
        visibility: str
        rules_version: str
        actions: int
        finished: bool | None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Version 1 streams all hold games of :data:`FIRST_GAME`, and leave ``finished``
            to their events (None: see :data:`FIRST_GAME_END`)."""
            state["game"] = FIRST_GAME
            state["finished"] = None

    class Happened(Event):
        """A domain event, by type name and JSON payload; ``step`` is its action's index."""

        TOPIC = "howl/game/happened"
        class_version = 1
        step: int
        type: str
        data: dict[str, Any]

    class Retitled(Event):
        """The game's title changed (None: no title)."""

        TOPIC = "howl/game/retitled"
        class_version = 1
        title: str | None

    class Retagged(Event):
        """The game's tags were replaced."""

        TOPIC = "howl/game/retagged"
        class_version = 1
        tags: list[str]

    class VisibilityChanged(Event):
        """The game became public or private."""

        TOPIC = "howl/game/visibility_changed"
        class_version = 1
        visibility: str

    class Redated(Event):
        """The day the game was played changed (ISO ``YYYY-MM-DD``; None: not known, so
        its upload's day), over its record's ``meta.played_on``."""

        TOPIC = "howl/game/redated"
        class_version = 1
        played_on: str | None

    class Withdrawn(Event):
        """The uploader took the game back: it leaves every list, statistic and rating."""

        TOPIC = "howl/game/withdrawn"
        class_version = 1

    @staticmethod
    def create_id(digest: str) -> uuid.UUID:
        """Games are named by their record's digest, so one record is one game."""
        return game_id_for(digest)

    @event(Uploaded)
    def __init__(
        self,
        game: str,
        digest: str,
        record: str,
        uploaded_by: str | None,
        title: str | None,
        tags: list[str],
        visibility: str,
        rules_version: str,
        actions: int,
        finished: bool | None,
    ) -> None:
        self.game = game
        self.digest = digest
        self.uploaded_by = uploaded_by
        self.title = title
        self.tags = tuple(tags)
        self.visibility = visibility
        self.rules_version = rules_version
        self.actions = actions
        self.events = 0
        self.finished = finished  # None until a version 1 stream's events tell
        self.redated = False
        self.played_on: str | None = None  # the day it was re-dated to, once redated
        self.withdrawn = False

    @property
    def uploaded_at(self) -> datetime:
        """When the game was uploaded (the ``Uploaded`` event's timestamp)."""
        return self.created_on

    @event(Happened)
    def happened(self, step: int, type: str, data: dict[str, Any]) -> None:
        """Append a domain event caused by action ``step`` (0-based)."""
        self.events += 1
        if self.finished is None and type == FIRST_GAME_END:
            self.finished = True

    @event(Retitled)
    def retitle(self, title: str | None) -> None:
        """Change the title."""
        self.title = title

    @event(Retagged)
    def retag(self, tags: list[str]) -> None:
        """Replace the tags."""
        self.tags = tuple(tags)

    @event(VisibilityChanged)
    def change_visibility(self, visibility: str) -> None:
        """Make the game public or private."""
        self.visibility = visibility

    @event(Redated)
    def redate(self, played_on: str | None) -> None:
        """Say which day the game was played on (None: not known)."""
        self.redated = True
        self.played_on = played_on

    @event(Withdrawn)
    def withdraw(self) -> None:
        """Take the game back."""
        self.withdrawn = True
