"""Live tables: games in progress, each its own stream in the game library.

A ``Table`` stream holds ``Opened`` (the game, its record without actions, who opened it),
then one ``Entered`` per action (the action as records.md writes it and the events it
caused, as the store keeps them, in one event so one save), ``TakenBack`` for an undo of
the last action not yet taken back, and ``Closed`` once the table's record is stored as a
game. The position now is the start folded with the events of the actions net of undos.

Every write names the stream version it was made against: a stale one is refused, and two
writers on one version cannot both win, even in two processes: the store's optimistic
concurrency refuses the second save. Table events are not games: the library's read models
skip them. Event topics are this module's paths (eventsourcing's default).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from domain import games
from domain.replays import RecordError
from domain.ruleset import GameRecord, IllegalAction, Ruleset
from domain.store.library import GameLibrary

CACHED_TABLES = 256
"""Tables whose states per action are kept in this process's memory."""


class UnknownTable(LookupError):
    """No table with this id is stored."""

    def __init__(self, table_id: UUID | str) -> None:
        super().__init__(f"no table {table_id}")
        self.table_id = table_id


class StaleVersion(Exception):
    """A write named another version than the table's (``version`` is the table's)."""

    def __init__(self, named: int, version: int) -> None:
        super().__init__(f"the table is at version {version}, not {named}")
        self.named = named
        self.version = version


class TableClosed(Exception):
    """The table was finished into the library and takes no more actions."""


class TableFull(Exception):
    """The table has as many actions as it may take (``limit``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"A table takes at most {limit} actions.")
        self.limit = limit


class NothingToUndo(Exception):
    """The table has no action left to take back."""


class Table(Aggregate):
    """A game in progress: its record's start and the actions entered so far."""

    class Opened(Aggregate.Created):
        """A table of ``game`` opened from ``record`` (canonical JSON, no actions)."""

        class_version = 1
        game: str
        record: str
        players: list[str]
        rules_version: str
        opened_by: str | None
        title: str | None

    class Entered(Aggregate.Event):
        """An action entered (records.md JSON) and the events it caused (``{"type","data"}``)."""

        class_version = 1
        action: dict[str, Any]
        events: list[dict[str, Any]]

    class TakenBack(Aggregate.Event):
        """The last action not yet taken back was taken back."""

        class_version = 1

    class Closed(Aggregate.Event):
        """The table's record was stored as game ``game_id`` (``unfinished``: before its end)."""

        class_version = 1
        game_id: UUID
        unfinished: bool

    @event(Opened)
    def __init__(
        self,
        game: str,
        record: str,
        players: list[str],
        rules_version: str,
        opened_by: str | None,
        title: str | None,
    ) -> None:
        self.game = game
        self.record = record
        self.players = players
        self.rules_version = rules_version
        self.opened_by = opened_by
        self.title = title
        self.entered: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self.game_id: UUID | None = None

    @event(Entered)
    def enter(self, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """Append an action and the events it caused."""
        self.entered.append((action, events))

    @event(TakenBack)
    def take_back(self) -> None:
        """Take back the last action."""
        self.entered.pop()

    @event(Closed)
    def close(self, game_id: UUID, unfinished: bool) -> None:
        """Mark the table stored as ``game_id``."""
        self.game_id = game_id


@dataclass(frozen=True)
class TableView:
    """A table as read now: its stream's facts and the game's state after each action."""

    table_id: UUID
    rules: Ruleset
    title: str | None
    version: int
    record: str
    players: list[str]
    actions: list[dict[str, Any]]
    states: list[Any]
    """The state before any action, then after each one (``[-1]``: now)."""
    game_id: UUID | None
    opened_by: str | None
    opened_at: datetime
    updated_at: datetime

    @property
    def state(self) -> Any:
        """The game's state now."""
        return self.states[-1]

    def record_doc(self) -> dict[str, Any]:
        """The ``howl.game`` record so far: the opening record with the actions entered."""
        doc: dict[str, Any] = orjson.loads(self.record)
        doc["actions"] = list(self.actions)
        return doc


_cache: OrderedDict[UUID, tuple[int, list[Any]]] = OrderedDict()
_cache_lock = threading.Lock()


def _states(table: Table, rules: Ruleset) -> list[Any]:
    """The states of ``table`` before and after each action: its start folded with each
    action's stored events (cached by table id and version)."""
    with _cache_lock:
        cached = _cache.get(table.id)
        if cached is not None:
            _cache.move_to_end(table.id)
    if cached is not None and cached[0] == table.version:
        return cached[1]
    states = [rules.start(rules.read_record(orjson.loads(table.record)))]
    for _, stored in table.entered:
        caused = [rules.decode_event(e["type"], e["data"]) for e in stored]
        states.append(rules.fold(states[-1], caused))
    _remember(table.id, table.version, states)
    return states


def _remember(table_id: UUID, version: int, states: list[Any]) -> None:
    with _cache_lock:
        _cache[table_id] = (version, states)
        _cache.move_to_end(table_id)
        while len(_cache) > CACHED_TABLES:
            _cache.popitem(last=False)


def _load(library: GameLibrary, table_id: UUID) -> Table:
    try:
        table: Any = library.repository.get(table_id)
    except AggregateNotFoundError:
        raise UnknownTable(table_id) from None
    if not isinstance(table, Table):  # a game or a branch
        raise UnknownTable(table_id)
    return table


def _view(table: Table, states: list[Any] | None = None) -> TableView:
    rules = games.ruleset(table.game)
    return TableView(
        table.id, rules, table.title, table.version, table.record, list(table.players),
        [a for a, _ in table.entered], states or _states(table, rules), table.game_id,
        table.opened_by, table.created_on, table.modified_on,
    )  # fmt: skip


def _stored(rules: Ruleset, events: Any) -> list[dict[str, Any]]:
    return [dict(zip(("type", "data"), rules.encode_event(e), strict=True)) for e in events]


def _save(library: GameLibrary, table: Table, named: int) -> None:
    """Save the table's pending events; a concurrent write that won is a stale version."""
    try:
        library.save(table)
    except IntegrityError:
        raise StaleVersion(named, table_version(library, table.id) or named + 1) from None


def open_table(
    library: GameLibrary, rules: Ruleset, record: GameRecord, opened_by: str | None
) -> TableView:
    """Open a table from a checked ``record`` of ``rules``'s game, entering its actions (a
    ``RecordError`` for an illegal one: nothing is stored)."""
    doc = orjson.loads(rules.write_record(record))
    docs, doc["actions"] = doc["actions"], []
    start = rules.start(record)
    table = Table(
        game=rules.name, record=orjson.dumps(doc).decode(),
        players=[s.name for s in rules.players(start)], rules_version=rules.rules_version,
        opened_by=opened_by, title=record.meta.get("title") or None,
    )  # fmt: skip
    states = [start]
    for index, action in enumerate(record.actions):
        try:
            state, events = rules.play(states[-1], action)
        except IllegalAction as err:
            raise RecordError(index, docs[index], err.rule, err.message) from None
        table.enter(docs[index], _stored(rules, events))
        states.append(state)
    library.save(table)
    _remember(table.id, table.version, states)
    return _view(table, states)


def load_table(library: GameLibrary, table_id: UUID) -> TableView:
    """The table as stored now; ``UnknownTable`` for an id that names none."""
    return _view(_load(library, table_id))


def table_version(library: GameLibrary, table_id: UUID) -> int | None:
    """The table's stream version (its last event's), read cheaply; None for no stream."""
    last = library.recorder.select_events(table_id, desc=True, limit=1)
    return last[0].originator_version if last else None


def _writable(library: GameLibrary, table_id: UUID, version: int | None = None) -> Table:
    """The table, open and at ``version`` (None: any)."""
    table = _load(library, table_id)
    if table.game_id is not None:
        raise TableClosed(f"Table {table_id} is finished into game {table.game_id}.")
    if version is not None and version != table.version:
        raise StaleVersion(version, table.version)
    return table


def enter_action(
    library: GameLibrary, table_id: UUID, doc: Any, version: int, max_actions: int
) -> tuple[TableView, list[dict[str, Any]]]:
    """Enter one action (records.md JSON) against ``version``: the table after it and the
    events it caused. Raises ``StaleVersion``, ``TableClosed``, ``TableFull`` past
    ``max_actions``, ``InvalidRecord`` for a malformed action and ``RecordError`` for an
    illegal one; nothing is stored then."""
    table = _writable(library, table_id, version)
    rules = games.ruleset(table.game)
    index = len(table.entered)
    action = rules.read_action(doc, "action")
    written = rules.write_action(action)
    if index >= max_actions:
        raise TableFull(max_actions)
    states = _states(table, rules)
    try:
        state, events = rules.play(states[-1], action)
    except IllegalAction as err:
        raise RecordError(index, written, err.rule, err.message) from None
    stored = _stored(rules, events)
    table.enter(written, stored)
    _save(library, table, version)
    after = [*states, state]
    _remember(table.id, table.version, after)
    return _view(table, after), stored


def undo_action(
    library: GameLibrary, table_id: UUID, version: int
) -> tuple[TableView, dict[str, Any]]:
    """Take back the last action against ``version``: the table after it and the action
    taken back (``NothingToUndo`` when none is left)."""
    table = _writable(library, table_id, version)
    rules = games.ruleset(table.game)
    if not table.entered:
        raise NothingToUndo(f"Table {table_id} has no action to take back.")
    states = _states(table, rules)[:-1]
    taken = table.entered[-1][0]
    table.take_back()
    _save(library, table, version)
    _remember(table.id, table.version, states)
    return _view(table, states), taken


def close_table(library: GameLibrary, table_id: UUID, game_id: UUID, unfinished: bool) -> TableView:
    """Mark the table stored as ``game_id`` (``TableClosed`` if it was closed already)."""
    table = _writable(library, table_id)
    version = table.version
    table.close(game_id, unfinished)
    _save(library, table, version)
    return _view(table)


def table_ids(library: GameLibrary) -> Iterator[UUID]:
    """The id of every table, in the order they were opened."""
    start: int | None = None
    while page := library.recorder.select_notifications(
        start, 1000, topics=[get_topic(Table.Opened)], inclusive_of_start=start is None
    ):
        for n in page:
            assert isinstance(n.originator_id, UUID)
            yield n.originator_id
        start = page[-1].id


def stored_players(view: TableView) -> list[dict[str, Any]]:
    """The record's seats as written (name, colour and the game's own fields), numbered."""
    seats: list[Mapping[str, Any]] = orjson.loads(view.record).get("players", [])
    return [{"seat": i, **seat} for i, seat in enumerate(seats)]
