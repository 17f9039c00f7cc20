"""Moonlight game records (``howl.game``, ``"game": "moonlight"``): read and written.

A record holds the two seats, the ``setup`` (the cards' moons, the Lone Wolf and, when
known, the deck orders) or a ``start`` position, and the actions in order; rounds, their
ends and their scoring are derived by the engine. Reading checks every field against its
bound and reports the first problem as an :class:`~domain.ruleset.InvalidRecord` with its
JSON path; writing gives canonical bytes.

>>> from domain.ruleset import Seat
>>> from domain.moonlight.actions import Place
>>> from domain.moonlight.cards import assumed_setup
>>> record = Record(players=(Seat("Ana", "green"), Seat("Bo", "blue")),
...                 setup=assumed_setup(seed=7), actions=(Place(0, 3, (0, 0)),))
>>> read_record(write_record(record)) == record
True
>>> header = '"format": "howl.game", "version": 1, "game": "moonlight"'
>>> read_record("{" + header + ', "setup": {}, "players": [], "actions": []}')
Traceback (most recent call last):
...
domain.ruleset.InvalidRecord: players: expected 2 entries, not 0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain import documents
from domain.documents import canonical_json, check_meta, join, parse, written_header
from domain.moonlight.actions import Action
from domain.moonlight.cards import Setup
from domain.moonlight.fields import (
    GAME,
    MAX_ACTIONS,
    MAX_TEXT,
    action_to_json,
    check_header,
    optional,
    players_to_json,
    read_action,
    read_list,
    read_players,
    read_setup,
    read_text,
    setup_to_json,
)
from domain.moonlight.positions import read_position, to_position
from domain.moonlight.state import State, initial_state
from domain.ruleset import InvalidRecord, Seat

FORMAT = "howl.game"


@dataclass(frozen=True)
class Record:
    """One game as recorded: the seats, where it started, and every action in order."""

    meta: Mapping[str, str] = field(default_factory=dict)
    players: tuple[Seat, ...] = ()
    setup: Setup | None = None
    start: State | None = None
    actions: tuple[Action, ...] = ()
    rules_version: str | None = None


def read_record(data: bytes | str | Mapping[str, Any]) -> Record:
    """A :class:`Record` from its JSON (bytes, text or decoded), or :class:`InvalidRecord`."""
    doc = parse(data)
    check_header(doc, FORMAT)
    meta = check_meta(doc.get("meta", {}))
    rules = optional(doc, "rules")
    if rules is not None:
        rules = read_text(rules, "rules", MAX_TEXT)
    setup: Setup | None = None
    start: State | None = None
    if optional(doc, "start") is not None:
        if optional(doc, "setup") is not None:
            raise InvalidRecord("setup", "a record with a start position has no setup")
        start = read_position(doc["start"], "start")
        players = start.table.players
        if optional(doc, "players") is not None and read_players(doc["players"]) != players:
            raise InvalidRecord("players", "the players differ from start.players")
    else:
        if optional(doc, "setup") is None:
            raise InvalidRecord("setup", "missing: a record has a setup or a start position")
        if "players" not in doc:
            raise InvalidRecord("players", "missing")
        players = read_players(doc["players"])
        setup = read_setup(doc["setup"])
    if "actions" not in doc:
        raise InvalidRecord("actions", "missing")
    entries = read_list(doc["actions"], "actions", MAX_ACTIONS)
    actions = tuple(read_action(a, join("actions", i)) for i, a in enumerate(entries))
    return Record(dict(meta), players, setup, start, actions, rules)


def initial(record: Record) -> State:
    """The state before the record's first action: its ``start`` position or its setup's."""
    if record.start is not None:
        return record.start
    if record.setup is None:
        raise ValueError("a record needs a setup or a start position")
    return initial_state(record.players, record.setup)


def written_start(text: str) -> State:
    """The state before the first action of a record :func:`write_record` wrote: its
    actions are left unread, unparsed too."""
    return initial(read_record(written_header(text)))


def record_to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON-able dict (what :func:`write_record` serialises)."""
    return documents.record_document(
        GAME,
        players_to_json(record.players),
        [action_to_json(a) for a in record.actions],
        record.meta,
        setup=None if record.setup is None else setup_to_json(record.setup),
        start=None if record.start is None else to_position(record.start),
        rules=record.rules_version,
    )


def write_record(record: Record) -> bytes:
    """The record's canonical JSON bytes; ``read_record(write_record(r)) == r``."""
    return canonical_json(record_to_json(record))
