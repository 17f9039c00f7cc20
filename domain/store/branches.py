"""What-if branches stored as their own streams beside the games they leave from.

A ``Branch`` is one stream in the game library: ``Branched`` (the parent game's id, the
step where the branch leaves it, the branch's own actions as record JSON, the rules
version), then one ``Happened`` per domain event the engine produced for those actions,
numbered by their step in the branched game. The parent's stream is only ever read. A
branch is named by parent, step and actions, so saving one twice stores it once.

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

from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from domain.store.library import GameEvent, GameLibrary, UnknownGame
from domain.store.uploads import stored_events
from domain.wolves import codec
from domain.wolves import components as box
from domain.wolves.actions import Action
from domain.wolves.analysis.whatif import branch_record
from domain.wolves.evolve import apply
from domain.wolves.records import Record, action_from_json, action_to_json, read_record
from domain.wolves.replay import replay
from domain.wolves.state import State

BRANCH_ID_NAMESPACE = uuid.UUID("0b4f7d52-3c1e-5a8e-b2d4-6e9a1c7f3b20")


def branch_id_for(parent_id: UUID, step: int, actions: Sequence[dict[str, Any]]) -> UUID:
    """The id of the branch of ``parent_id`` at ``step`` with these actions (record JSON)."""
    text = json.dumps([str(parent_id), step, list(actions)], sort_keys=True, separators=(",", ":"))
    return uuid.uuid5(BRANCH_ID_NAMESPACE, text)


class Branch(Aggregate):
    """A what-if line: a parent game's first ``step`` actions, then other ones."""

    class Branched(Aggregate.Created):
        """The branch left ``parent_id`` after ``step`` actions and went on with ``actions``."""

        class_version = 1
        parent_id: UUID
        step: int
        actions: list[dict[str, Any]]
        rules_version: str

    class Happened(Aggregate.Event):
        """A domain event of the branch, by type name and JSON; ``step``: its action's index."""

        class_version = 1
        step: int
        type: str
        data: dict[str, Any]

    @staticmethod
    def create_id(parent_id: UUID, step: int, actions: list[dict[str, Any]]) -> UUID:  # type: ignore[override]
        """Branches are named by parent, step and actions."""
        return branch_id_for(parent_id, step, actions)

    @event(Branched)
    def __init__(
        self, parent_id: UUID, step: int, actions: list[dict[str, Any]], rules_version: str
    ) -> None:
        self.parent_id = parent_id
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

    def __init__(self, parent_id: UUID, rules_version: str) -> None:
        super().__init__(
            f"Game {parent_id} was stored under rules {rules_version}; branches are played "
            f"under {box.RULES_VERSION} and cannot continue it (howl migrate shows what the "
            "current rules make of it)"
        )
        self.rules_version = rules_version


@dataclass(frozen=True)
class BranchInfo:
    """A stored branch: its parent, where it leaves it, its actions."""

    branch_id: UUID
    parent_id: UUID
    step: int
    actions: tuple[Action, ...]
    rules_version: str


def save_branch(
    library: GameLibrary, parent_id: UUID, step: int, actions: Sequence[Action]
) -> UUID:
    """Check the branch with the engine and store it; returns its id.

    Raises ``UnknownGame`` for an unknown parent, :class:`OtherRules` for a parent stored
    under another rules version, ``ValueError`` for a step outside the game and
    ``RecordError`` for an illegal action (nothing is stored then).
    """
    stored_under = library.info(parent_id).rules_version
    if stored_under != box.RULES_VERSION:
        raise OtherRules(parent_id, stored_under)
    parent = read_record(library.record(parent_id))
    played = replay(branch_record(parent, step, actions))
    docs = [action_to_json(a) for a in actions]
    branch_id = branch_id_for(parent_id, step, docs)
    if library.exists(branch_id):
        return branch_id
    branch = Branch(parent_id=parent_id, step=step, actions=docs, rules_version=box.RULES_VERSION)
    for index, kind, data in stored_events(played.steps[step:], first=step):
        branch.happened(index, kind, data)
    with suppress(IntegrityError):  # saved meanwhile by someone else
        library.save(branch)
    return branch_id


def branch_info(library: GameLibrary, branch_id: UUID) -> BranchInfo:
    """A stored branch's parent, step and actions (its first event only is read)."""
    first = list(library.events.get(branch_id, lte=Branch.INITIAL_VERSION))
    if not first or not isinstance(first[0], Branch.Branched):
        raise UnknownGame(branch_id)
    e = first[0]
    actions = tuple(action_from_json(a) for a in e.actions)
    return BranchInfo(branch_id, e.parent_id, e.step, actions, e.rules_version)


def stored_branch_record(library: GameLibrary, branch_id: UUID) -> Record:
    """The record of the branched game: the parent's first ``step`` actions, then the branch's."""
    info = branch_info(library, branch_id)
    parent = read_record(library.record(info.parent_id))
    return branch_record(parent, info.step, info.actions)


def branch_events(library: GameLibrary, branch_id: UUID) -> list[GameEvent]:
    """The branch's own domain events (``seq`` from 0; ``step`` counts from the game start)."""
    stored = library.events.get(branch_id, gt=Branch.INITIAL_VERSION)
    found = [e for e in stored if isinstance(e, Branch.Happened)]
    if not found:
        branch_info(library, branch_id)  # raises for an unknown branch
    return [GameEvent(i, e.step, codec.from_stored(e.type, e.data)) for i, e in enumerate(found)]


def branch_state_at(library: GameLibrary, branch_id: UUID, step: int | None = None) -> State:
    """The branched game's state after ``step`` actions (None: its last): a fold of events.

    Up to the branch point it is the parent's state; after it, the branch's own events.
    """
    info = branch_info(library, branch_id)
    last = info.step + len(info.actions)
    step = last if step is None else step
    if not 0 <= step <= last:
        raise ValueError(f"step must be 0 … {last}, got {step}")
    state = library.state_at(info.parent_id, min(step, info.step))
    for e in branch_events(library, branch_id):
        if e.step >= step:
            break
        apply(state, e.event)
    return state
