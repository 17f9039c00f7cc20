"""Re-checking stored games under the current rules: which would change, and how.

A stored game keeps the events and the rules version it was stored with, and replays from
them as it was stored. After a rules change, :func:`recheck` replays its record with its
game's current ruleset and compares; nothing stored is ever rewritten.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from uuid import UUID

from domain.documents import parse
from domain.games import ruleset
from domain.replays import RecordError, replay
from domain.ruleset import InvalidRecord
from domain.store.library import GameLibrary

UNCHANGED, EVENTS, RESULT, ILLEGAL = "unchanged", "events", "result", "illegal"
"""How a game fares under the current rules: the same events; other events but the same
result (finished or not, scores); another result; or a record the rules (or the record
reader's bounds) now reject."""


@dataclass(frozen=True)
class Recheck:
    """One stored game replayed under the current rules of its game (``current``): ``change``
    and what differs."""

    game_id: UUID
    rules_version: str
    current: str
    change: str
    detail: str = ""


def recheck(library: GameLibrary, game_id: UUID) -> Recheck:
    """Replay a stored game's record with its game's current ruleset and compare with what is
    stored."""
    info = library.info(game_id)
    rules = ruleset(info.game)

    def found(change: str, detail: str = "") -> Recheck:
        return Recheck(game_id, info.rules_version, rules.rules_version, change, detail)

    try:
        record = rules.read_record(parse(library.record(game_id)))
    except InvalidRecord as err:  # stored before the reader bounded what it reads
        return found(ILLEGAL, f"the record reader refuses it: {err}")
    try:
        now = replay(rules, record)
    except RecordError as err:
        return found(ILLEGAL, str(err))
    then = library.state_at(game_id)
    if rules.finished(then) != rules.finished(now.state):
        was, becomes = (
            "finished" if rules.finished(s) else "in progress" for s in (then, now.state)
        )
        return found(RESULT, f"{was} → {becomes}")
    if rules.scores(then) != rules.scores(now.state):
        return found(RESULT, "scores change")
    stored = [(e.step, rules.encode_event(e.event)) for e in library.game_events(game_id)]
    fresh = [(step, rules.encode_event(e)) for step, events in enumerate(now.steps) for e in events]
    if stored != fresh:
        return found(EVENTS, "same result")
    return found(UNCHANGED)


def recheck_all(library: GameLibrary, every: bool = False) -> Iterator[Recheck]:
    """:func:`recheck` of each game stored under another rules version than its game's
    current one (all with ``every``)."""
    for game_id in library.game_ids():
        info = library.info(game_id)
        if every or info.rules_version != ruleset(info.game).rules_version:
            yield recheck(library, game_id)
