"""What-if branches stored as their own streams beside the games they leave from.

A ``Branch`` is one stream in the game library: ``Branched`` (the parent game's id and
game, the step where the branch leaves it, the branch's own actions as record JSON, the
rules version), then one ``Happened`` per domain event the parent's ruleset produced for
those actions, numbered by their step in the branched game. The parent's stream is only
ever read. A branch is named by parent, step and actions, so saving one twice stores it
once. Comparing a branch with its game (the review's what-if) is not the store's business:
the store only checks, keeps and replays branches.

Event topics are this module's paths (eventsourcing's default), so any process reading
the store's log — the projection runner too — resolves them by importing this module.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from domain.games import FIRST, ruleset
from domain.replays import replay
from domain.ruleset import GameRecord, Ruleset
from domain.store.library import GameEvent, GameLibrary, UnknownGame
from domain.store.uploads import stored_events

BRANCH_ID_NAMESPACE = uuid.UUID("0b4f7d52-3c1e-5a8e-b2d4-6e9a1c7f3b20")


def branch_id_for(parent_id: UUID, step: int, actions: Sequence[dict[str, Any]]) -> UUID:
    """The id of the branch of ``parent_id`` at ``step`` with these actions (record JSON)."""
    text = json.dumps([str(parent_id), step, list(actions)], sort_keys=True, separators=(",", ":"))
    return uuid.uuid5(BRANCH_ID_NAMESPACE, text)


class Branch(Aggregate):
    """A what-if line: a parent game's first ``step`` actions, then other ones."""

    class Branched(Aggregate.Created):
        """The branch left ``parent_id`` (a game of ``game``) after ``step`` actions and went
        on with ``actions``."""

        class_version = 2
        parent_id: UUID
        game: str
        step: int
        actions: list[dict[str, Any]]
        rules_version: str

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Version 1 branches all leave games of :data:`~domain.games.FIRST`."""
            state["game"] = FIRST

    class Happened(Aggregate.Event):
        """A domain event of the branch, by type name and JSON; ``step``: its action's index."""

        class_version = 1
        step: int
        type: str
        data: dict[str, Any]

    @staticmethod
    def create_id(parent_id: UUID, step: int, actions: list[dict[str, Any]]) -> UUID:
        """Branches are named by parent, step and actions."""
        return branch_id_for(parent_id, step, actions)

    @event(Branched)
    def __init__(
        self,
        parent_id: UUID,
        game: str,
        step: int,
        actions: list[dict[str, Any]],
        rules_version: str,
    ) -> None:
        self.parent_id = parent_id
        self.game = game
        self.step = step
        self.actions = actions
        self.rules_version = rules_version
        self.events = 0

    @event(Happened)
    def happened(self, step: int, type: str, data: dict[str, Any]) -> None:
        """Append a domain event caused by action ``step`` of the branched game."""
        self.events += 1


class OtherRules(ValueError):
    """A branch of a game stored under another rules version: the current engine cannot
    continue the stored events of another one."""

    def __init__(self, parent_id: UUID, rules_version: str, current: str) -> None:
        super().__init__(
            f"Game {parent_id} was stored under rules {rules_version}; branches are played "
            f"under {current} and cannot continue it (howl migrate shows what the current "
            "rules make of it)"
        )
        self.rules_version = rules_version


@dataclass(frozen=True)
class BranchInfo:
    """A stored branch: its parent and the parent's game, where it leaves it, its actions
    (as the game's ruleset reads them)."""

    branch_id: UUID
    parent_id: UUID
    game: str
    step: int
    actions: tuple[Any, ...]
    rules_version: str


def branch_record(
    rules: Ruleset, parent: bytes | str, step: int, actions: Sequence[Any]
) -> GameRecord:
    """The record of a branch: the first ``step`` actions of the ``parent`` record (its
    stored JSON), then ``actions``; ValueError for a step outside the parent."""
    doc = orjson.loads(parent)
    if not 0 <= step <= len(doc["actions"]):
        raise ValueError(f"step must be 0 … {len(doc['actions'])}, got {step}")
    doc["actions"] = [*doc["actions"][:step], *(rules.write_action(a) for a in actions)]
    return rules.read_record(doc)


def save_branch(library: GameLibrary, parent_id: UUID, step: int, actions: Sequence[Any]) -> UUID:
    """Check the branch with the parent's ruleset and store it; returns its id.

    ``actions`` are the ruleset's own (``Ruleset.read_action``). Raises ``UnknownGame`` for
    an unknown parent, :class:`OtherRules` for a parent stored under another rules version,
    ``ValueError`` for a step outside the game and ``RecordError`` for an illegal action
    (its index counts from the start of the game; nothing is stored then).
    """
    info = library.info(parent_id)
    rules = ruleset(info.game)
    if info.rules_version != rules.rules_version:
        raise OtherRules(parent_id, info.rules_version, rules.rules_version)
    played = replay(rules, branch_record(rules, library.record(parent_id), step, actions))
    docs = [rules.write_action(a) for a in actions]
    return keep_branch(
        library, parent_id, rules, step, docs, stored_events(rules, played.steps[step:], step)
    )


def keep_branch(
    library: GameLibrary, parent_id: UUID, rules: Ruleset, step: int,
    docs: Sequence[dict[str, Any]], events: Sequence[tuple[int, str, dict[str, Any]]],
) -> UUID:  # fmt: skip
    """Store a branch the current rules of ``rules`` already checked: its own actions
    ``docs`` (record JSON) and the events they caused as the store keeps them (their step,
    type and data); returns its id (stored once)."""
    branch_id = branch_id_for(parent_id, step, docs)
    if library.exists(branch_id):
        return branch_id
    branch = Branch(
        parent_id=parent_id, game=rules.name, step=step, actions=list(docs),
        rules_version=rules.rules_version,
    )  # fmt: skip
    for index, kind, data in events:
        branch.happened(index, kind, data)
    with suppress(IntegrityError):  # saved meanwhile by someone else
        library.save(branch)
    return branch_id


def _stream(library: GameLibrary, branch_id: UUID) -> tuple[Branch.Branched, list[Branch.Happened]]:
    """A stored branch's first event and its domain events; ``UnknownGame`` for no branch."""
    stored = list(library.events.get(branch_id))
    if not stored or not isinstance(stored[0], Branch.Branched):
        raise UnknownGame(branch_id)
    return stored[0], [e for e in stored[1:] if isinstance(e, Branch.Happened)]


def branch_info(library: GameLibrary, branch_id: UUID) -> BranchInfo:
    """A stored branch's parent, step and actions (its first event only is read)."""
    first = list(library.events.get(branch_id, lte=Branch.INITIAL_VERSION))
    if not first or not isinstance(first[0], Branch.Branched):
        raise UnknownGame(branch_id)
    e = first[0]
    actions = tuple(ruleset(e.game).read_action(a) for a in e.actions)
    return BranchInfo(branch_id, e.parent_id, e.game, e.step, actions, e.rules_version)


def stored_branch_record(library: GameLibrary, branch_id: UUID) -> GameRecord:
    """The record of the branched game: the parent's first ``step`` actions, then the branch's."""
    info = branch_info(library, branch_id)
    parent = library.record(info.parent_id)
    return branch_record(ruleset(info.game), parent, info.step, info.actions)


def branch_events(library: GameLibrary, branch_id: UUID) -> list[GameEvent]:
    """The branch's own domain events (``seq`` from 0; ``step`` counts from the game start)."""
    branched, happened = _stream(library, branch_id)
    rules = ruleset(branched.game)
    return [
        GameEvent(i, e.step, rules.decode_event(e.type, e.data), rules)
        for i, e in enumerate(happened)
    ]


def branch_state_at(library: GameLibrary, branch_id: UUID, step: int | None = None) -> Any:
    """The branched game's state after ``step`` actions (None: its last), in its ruleset's
    terms: up to the branch point the parent's state, after it a fold of the branch's own
    events."""
    branched, happened = _stream(library, branch_id)
    last = branched.step + len(branched.actions)
    step = last if step is None else step
    if not 0 <= step <= last:
        raise ValueError(f"step must be 0 … {last}, got {step}")
    rules = ruleset(branched.game)
    state = library.state_at(branched.parent_id, min(step, branched.step))
    caused = [rules.decode_event(e.type, e.data) for e in happened if e.step < step]
    return rules.fold(state, caused)
