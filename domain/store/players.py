"""The players' aliases, kept as one stream in the game library (:mod:`domain.players`).

The ``Players`` stream (a fixed id) holds ``Started``, then one ``Merged`` per merge: the
name merged away, the name it was merged into, and the token that asked. The projection
runner follows them in the log like the games' events, so every read model sees one
player where a merge made one.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from domain.players import Aliases, name_problem
from domain.store.library import GameLibrary

PLAYERS_ID = uuid.UUID("9a3e5c71-2b4d-5f60-8e1a-4c7b9d2f6a05")
RETRIES = 5
"""Saves tried again when another merge was saved first."""


class Players(Aggregate):
    """Every merge of two names into one player, in order."""

    TOPIC = "howl/players"
    class_version = 1

    class Event(Aggregate.Event):
        """Base class of the stream's events."""

        TOPIC = "howl/players/event"

    class Created(Event, Aggregate.Created):
        """Unused base "created" event (``Started`` is the one used)."""

        TOPIC = "howl/players/created"

    class Started(Created):
        """The stream's first event."""

        TOPIC = "howl/players/started"

    class Merged(Event):
        """``alias``'s player became ``into``'s (``by``: the token that asked, if any)."""

        TOPIC = "howl/players/merged"
        class_version = 1
        alias: str
        into: str
        by: str | None

    @event(Started)
    def __init__(self) -> None:
        self.aliases = Aliases()

    @event(Merged)
    def _merged(self, alias: str, into: str, by: str | None) -> None:
        self.aliases.merge(alias, into)


@dataclass(frozen=True)
class Merge:
    """A merge's outcome: the player keys merged away and kept (None when ``alias`` and
    ``into`` were already one player, and nothing was stored), and the name now shown."""

    gone: str | None
    kept: str
    shown: str


def aliases(library: GameLibrary) -> Aliases:
    """Every merge so far."""
    return _players(library).aliases


def merge(library: GameLibrary, alias: str, into: str, by: str | None = None) -> Merge:
    """Make ``alias``'s player ``into``'s, everywhere (ValueError for a name a merge does
    not take); two names already one player store nothing."""
    for name, problem in ((alias, name_problem(alias)), (into, name_problem(into))):
        if problem is not None:
            raise ValueError(f"the name {name[:40]!r} {problem}")
    for attempt in range(RETRIES):
        players = _players(library)
        kept = players.aliases.player(into)
        if players.aliases.player(alias) == kept:
            return Merge(None, kept, players.aliases.shown.get(kept, into.strip()))
        gone = players.aliases.player(alias)
        players._merged(alias.strip(), into.strip(), by)
        try:
            library.save(players)
        except IntegrityError:  # another merge was saved first
            if attempt + 1 == RETRIES:
                raise
            continue
        return Merge(gone, kept, players.aliases.shown[kept])
    raise AssertionError("unreachable")


def _players(library: GameLibrary) -> Players:
    try:
        found: Any = library.repository.get(PLAYERS_ID)
    except AggregateNotFoundError:
        return Players._create(Players.Started, id=PLAYERS_ID)
    assert isinstance(found, Players)
    return found
