"""Practice progress: one ``Practice`` stream per player name in the game library.

A player practising a reviewed game's mistakes enters actions at its flagged steps. Their
stream holds ``Started`` (the name as first given), then ``Tried`` for every action judged
(the game, the step's index, the action as records.md writes it, whether it was accepted,
who wrote it) and ``Revealed`` when the solution was shown. A stream is named by the
normalised name (NFC, trimmed, case-folded), so "Ana" and " ana " practise as one player.
Progress per position is folded from these events: tries, solved (an accepted try) and
revealed. Event topics are this module's paths (eventsourcing's default); the read models
skip them.
"""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from domain.store.library import GameLibrary

PRACTICE_ID_NAMESPACE = uuid.UUID("5f0c2a8e-91d4-5b7a-8c3e-2d6f4b1a9e07")
MAX_NAME = 64
"""Longest player name, in characters."""
MAX_TRIES = 50
"""Tries kept per player and position."""
MAX_EVENTS = 5_000
"""Events one player's stream takes at most."""
SAVE_ATTEMPTS = 20
"""Saves tried when another request wrote the same player's stream meanwhile (each lost
save means another one won: this many lost in a row is a :class:`PracticeContended`)."""


class PracticeFull(Exception):
    """The player's stream, or their tries at this position, reached its bound."""


class PracticeContended(Exception):
    """Other writers of the player's stream won :data:`SAVE_ATTEMPTS` saves in a row."""


def normalised(name: str) -> str:
    """A player name as streams are named by it.

    >>> normalised("  Ana "), normalised("ANA") == normalised("ana")
    ('ana', True)
    """
    return unicodedata.normalize("NFC", name).strip().casefold()


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (None: it can): 1–64 characters once trimmed,
    no control characters.

    >>> check_name("Ana"), check_name("  "), check_name("a\\tb")
    (None, 'Must be 1 to 64 characters.', 'Must not hold control characters.')
    """
    trimmed = name.strip()
    if not 1 <= len(trimmed) <= MAX_NAME:
        return f"Must be 1 to {MAX_NAME} characters."
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in trimmed):
        return "Must not hold control characters."
    return None


def practice_id(name: str) -> UUID:
    """The id of the stream of the player called ``name``."""
    return uuid.uuid5(PRACTICE_ID_NAMESPACE, normalised(name))


@dataclass(frozen=True)
class Progress:
    """A player's progress at one position: tries, solved (a try accepted), revealed."""

    tries: int = 0
    solved: bool = False
    revealed: bool = False


class Practice(Aggregate):
    """One player's practice: every action they tried and every solution they saw."""

    class Started(Aggregate.Created):
        """The player ``name`` (as first given) began practising."""

        class_version = 1
        name: str

    class Tried(Aggregate.Event):
        """``action`` (records.md JSON) was judged at action ``index`` of game ``game_id``."""

        class_version = 1
        game_id: UUID
        index: int
        action: dict[str, Any]
        accepted: bool
        by: str | None

    class Revealed(Aggregate.Event):
        """The solution at action ``index`` of game ``game_id`` was shown."""

        class_version = 1
        game_id: UUID
        index: int
        by: str | None

    @staticmethod
    def create_id(name: str) -> UUID:
        """Streams are named by the normalised player name."""
        return practice_id(name)

    @event(Started)
    def __init__(self, name: str) -> None:
        self.name = name
        self.progress: dict[tuple[UUID, int], Progress] = {}

    @event(Tried)
    def tried(
        self, game_id: UUID, index: int, action: dict[str, Any], accepted: bool, by: str | None
    ) -> None:
        """Count a try, solving the position when it was accepted."""
        was = self.progress.get((game_id, index), Progress())
        now = Progress(was.tries + 1, was.solved or accepted, was.revealed)
        self.progress[game_id, index] = now

    @event(Revealed)
    def revealed(self, game_id: UUID, index: int, by: str | None) -> None:
        """Mark the position's solution shown."""
        was = self.progress.get((game_id, index), Progress())
        self.progress[game_id, index] = Progress(was.tries, was.solved, True)


def _load(library: GameLibrary, name: str) -> Practice | None:
    try:
        found: Any = library.repository.get(practice_id(name))
    except AggregateNotFoundError:
        return None
    return found if isinstance(found, Practice) else None


def progress(library: GameLibrary, name: str, game_id: UUID) -> dict[int, Progress]:
    """The player's progress in game ``game_id``, by action index (positions never tried
    are left out)."""
    practice = _load(library, name)
    if practice is None:
        return {}
    return {i: p for (g, i), p in practice.progress.items() if g == game_id}


def _write(
    library: GameLibrary, name: str, game_id: UUID, index: int, write: Callable[[Practice], None]
) -> Progress:
    """Apply ``write`` to the player's stream (made first if new) and save it; a save that
    lost to another writer is tried again on the stream as it is then."""
    attempts = 0
    while True:
        practice = _load(library, name) or Practice(name=name.strip())
        if practice.version >= MAX_EVENTS:
            raise PracticeFull(f"A player's practice keeps at most {MAX_EVENTS} events.")
        write(practice)
        try:
            library.save(practice)
        except IntegrityError:
            attempts += 1
            if attempts == SAVE_ATTEMPTS:
                raise PracticeContended(f"{name}'s practice is being written by others") from None
            continue
        return practice.progress[game_id, index]


def record_try(
    library: GameLibrary, name: str, game_id: UUID, index: int, action: dict[str, Any],
    accepted: bool, by: str | None,
) -> Progress:  # fmt: skip
    """Keep a judged try; the position's progress after it (``PracticeFull`` past
    :data:`MAX_TRIES` at one position or :data:`MAX_EVENTS` in all)."""

    def write(practice: Practice) -> None:
        if practice.progress.get((game_id, index), Progress()).tries >= MAX_TRIES:
            raise PracticeFull(f"A player keeps at most {MAX_TRIES} tries per position.")
        practice.tried(game_id, index, action, accepted, by)

    return _write(library, name, game_id, index, write)


def record_reveal(
    library: GameLibrary, name: str, game_id: UUID, index: int, by: str | None
) -> Progress:
    """Keep that the solution was shown; the position's progress after it."""

    def write(practice: Practice) -> None:
        if not practice.progress.get((game_id, index), Progress()).revealed:
            practice.revealed(game_id, index, by)

    return _write(library, name, game_id, index, write)
