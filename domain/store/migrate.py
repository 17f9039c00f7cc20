"""Re-checking stored games under the current rules: which would change, and how.

A stored game keeps the events and the rules version it was stored with, and replays from
them as it was stored. After a rules change, :func:`recheck` replays its record with the
current engine and compares; nothing stored is ever rewritten.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from uuid import UUID

from domain.store.library import GameLibrary
from domain.wolves import codec
from domain.wolves.components import RULES_VERSION
from domain.wolves.records import InvalidRecord, read_record
from domain.wolves.replay import RecordError, replay
from domain.wolves.scoring import final_scores

UNCHANGED, EVENTS, RESULT, ILLEGAL = "unchanged", "events", "result", "illegal"
"""How a game fares under the current rules: the same events; other events but the same
result (finished or not, scores); another result; or a record the rules (or the record
reader's bounds) now reject."""


@dataclass(frozen=True)
class Recheck:
    """One stored game replayed under the current rules: ``change`` and what differs."""

    game_id: UUID
    rules_version: str
    change: str
    detail: str = ""


def recheck(library: GameLibrary, game_id: UUID) -> Recheck:
    """Replay a stored game's record with the current engine and compare with what is stored."""
    info = library.info(game_id)
    try:
        record = read_record(library.record(game_id))
    except InvalidRecord as err:  # stored before the reader bounded what it reads
        return Recheck(game_id, info.rules_version, ILLEGAL, f"the record reader refuses it: {err}")
    try:
        now = replay(record)
    except RecordError as err:
        return Recheck(game_id, info.rules_version, ILLEGAL, str(err))
    stored = [(e.step, e.event) for e in library.game_events(game_id)]
    fresh = [(step, e) for step, events in enumerate(now.steps) for e in events]
    then = library.state_at(game_id)
    if then.finished != now.state.finished:
        was, becomes = (("finished" if s.finished else "in progress") for s in (then, now.state))
        return Recheck(game_id, info.rules_version, RESULT, f"{was} → {becomes}")
    if final_scores(then) != final_scores(now.state):
        return Recheck(game_id, info.rules_version, RESULT, "scores change")
    if [(s, codec.stored(e)) for s, e in stored] != [(s, codec.stored(e)) for s, e in fresh]:
        return Recheck(game_id, info.rules_version, EVENTS, "same result")
    return Recheck(game_id, info.rules_version, UNCHANGED)


def recheck_all(library: GameLibrary, every: bool = False) -> Iterator[Recheck]:
    """:func:`recheck` of each game stored under another rules version (all with ``every``)."""
    for game_id in library.game_ids():
        if every or library.info(game_id).rules_version != RULES_VERSION:
            yield recheck(library, game_id)
