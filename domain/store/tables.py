"""Live tables: games in progress, each its own stream in the game library.

A ``Table`` stream holds ``Opened`` (the game, its record without actions, who opened it),
then one ``Entered`` per action (the action as records.md writes it and the events it
caused, as the store keeps them, in one event so one save), ``TakenBack`` for an undo of
the last action not yet taken back, and ``Closed`` once the table's record is stored as a
game. The position now is the start folded with the events of the actions net of undos.

A *variation* is a table opened by ``Explored`` instead: at a stored game's position after
its first ``step`` actions (the game's own state there, never a copy of its actions), with
a name, then its own actions. After every write its own actions are also stored as a
what-if branch (:mod:`domain.store.branches`), and ``Entered``/``TakenBack`` record that
branch's id; ``Renamed`` and ``Deleted`` follow its author's wishes (a deleted variation's
stream stays, and it reads as no table).

Every write names the stream version it was made against: a stale one is refused, and two
writers on one version cannot both win, even in two processes: the store's optimistic
concurrency refuses the second save. Table events are not games: the library's read models
skip them. Event topics are this module's paths (eventsourcing's default).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

import orjson
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from domain import games
from domain.replays import RecordError
from domain.ruleset import GameRecord, IllegalAction, Ruleset
from domain.store.branches import OtherRules, keep_branch
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


class BotsTurn(Exception):
    """A person's action on the turn of a seat a bot plays (it moves by itself)."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"Seat {seat} is played by a bot: it moves by itself.")
        self.seat = seat


class NothingToUndo(Exception):
    """The table has no action left to take back."""


class VariationDeleted(UnknownTable):
    """The variation was deleted by its author: it reads as no table."""


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

    class Explored(Aggregate.Created):
        """A variation of ``game`` opened at the position of stored game ``origin`` after its
        first ``step`` actions, named ``name``; ``record`` is that game's record without
        actions."""

        class_version = 1
        game: str
        record: str
        players: list[str]
        rules_version: str
        opened_by: str | None
        title: str | None
        origin: UUID
        step: int
        name: str

        def apply(self, aggregate: Table) -> None:
            aggregate.origin, aggregate.origin_step = self.origin, self.step
            aggregate.name = self.name

    class Entered(Aggregate.Event):
        """An action entered (records.md JSON) and the events it caused (``{"type","data"}``);
        a variation's ``branch_id`` names the branch of its own actions after it (None: not
        stored at this action, or a table)."""

        class_version = 2
        action: dict[str, Any]
        events: list[dict[str, Any]]
        branch_id: UUID | None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Version 1 actions are ordinary tables' (no branch)."""
            state["branch_id"] = None

    class TakenBack(Aggregate.Event):
        """The last action not yet taken back was taken back; a variation's ``branch_id``
        names the branch of its own actions left (None: none left, or a table)."""

        class_version = 2
        branch_id: UUID | None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """Version 1 undos are ordinary tables' (no branch)."""
            state["branch_id"] = None

    class Renamed(Aggregate.Event):
        """The variation's author renamed it."""

        class_version = 1
        name: str

    class Deleted(Aggregate.Event):
        """The variation's author deleted it."""

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
        self.origin: UUID | None = None
        self.origin_step = 0
        self.name: str | None = None
        self.branch_id: UUID | None = None
        self.deleted = False

    @event(Entered)
    def enter(
        self, action: dict[str, Any], events: list[dict[str, Any]], branch_id: UUID | None
    ) -> None:
        """Append an action and the events it caused."""
        self.entered.append((action, events))
        self.branch_id = branch_id

    @event(TakenBack)
    def take_back(self, branch_id: UUID | None) -> None:
        """Take back the last action."""
        self.entered.pop()
        self.branch_id = branch_id

    @event(Renamed)
    def rename(self, name: str) -> None:
        """Rename the variation."""
        self.name = name

    @event(Deleted)
    def delete(self) -> None:
        """Delete the variation."""
        self.deleted = True

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
    origin: UUID | None = None
    """A variation's stored game (None: an ordinary table)."""
    origin_step: int = 0
    """A variation's step in its game: the game's actions it starts after."""
    name: str | None = None
    branch_id: UUID | None = None
    """The branch of a variation's own actions (None while it has none)."""
    prefix: list[dict[str, Any]] = field(default_factory=list)
    """A variation's game's first ``origin_step`` actions (records.md JSON)."""

    @property
    def state(self) -> Any:
        """The game's state now."""
        return self.states[-1]

    def record_doc(self) -> dict[str, Any]:
        """The ``howl.game`` record so far: the opening record with the actions entered (a
        variation's: its game's first actions, then its own)."""
        doc: dict[str, Any] = orjson.loads(self.record)
        doc["actions"] = [*self.prefix, *self.actions]
        return doc


_cache: OrderedDict[UUID, tuple[int, list[Any]]] = OrderedDict()
_cache_lock = threading.Lock()


def _states(table: Table, rules: Ruleset, start: Callable[[], Any] | None = None) -> list[Any]:
    """The states of ``table`` before and after each action: its start (the record's, or
    ``start()``) folded with each action's stored events (cached by table id and version)."""
    with _cache_lock:
        cached = _cache.get(table.id)
        if cached is not None:
            _cache.move_to_end(table.id)
    if cached is not None and cached[0] == table.version:
        return cached[1]
    if start is None:
        states = [rules.start(rules.read_record(orjson.loads(table.record)))]
    else:
        states = [start()]
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


def _table_states(library: GameLibrary, table: Table, rules: Ruleset) -> list[Any]:
    """The table's states (:func:`_states`); a variation starts from its game's state."""
    if table.origin is None:
        return _states(table, rules)
    origin, step = table.origin, table.origin_step
    return _states(table, rules, lambda: library.state_at(origin, step))


def _load(library: GameLibrary, table_id: UUID) -> Table:
    try:
        table: Any = library.repository.get(table_id)
    except AggregateNotFoundError:
        raise UnknownTable(table_id) from None
    if not isinstance(table, Table):  # a game or a branch
        raise UnknownTable(table_id)
    if table.deleted:
        raise VariationDeleted(table_id)
    return table


def _view(library: GameLibrary, table: Table, states: list[Any] | None = None) -> TableView:
    rules = games.ruleset(table.game)
    prefix: list[dict[str, Any]] = []
    if table.origin is not None:
        prefix = orjson.loads(library.record(table.origin))["actions"][: table.origin_step]
    return TableView(
        table.id, rules, table.title, table.version, table.record, list(table.players),
        [a for a, _ in table.entered], states or _table_states(library, table, rules),
        table.game_id, table.opened_by, table.created_on, table.modified_on, table.origin,
        table.origin_step, table.name, table.branch_id, prefix,
    )  # fmt: skip


def _stored(rules: Ruleset, events: Any) -> list[dict[str, Any]]:
    return [dict(zip(("type", "data"), rules.encode_event(e), strict=True)) for e in events]


def _save(library: GameLibrary, table: Table, named: int) -> None:
    """Save the table's pending events; a concurrent write that won is a stale version."""
    try:
        library.save(table)
    except IntegrityError:
        raise StaleVersion(named, table_version(library, table.id) or named + 1) from None


def _played(
    rules: Ruleset, start: Any, actions: Sequence[Any], docs: Sequence[dict[str, Any]]
) -> tuple[list[Any], list[list[dict[str, Any]]]]:
    """The states after each of ``actions`` from ``start`` and the events each caused, as
    stored; a ``RecordError`` (its index counting these actions) for an illegal one."""
    states, caused = [start], []
    for index, action in enumerate(actions):
        try:
            state, events = rules.play(states[-1], action)
        except IllegalAction as err:
            raise RecordError(index, docs[index], err.rule, err.message) from None
        states.append(state)
        caused.append(_stored(rules, events))
    return states, caused


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
    states, caused = _played(rules, start, record.actions, docs)
    for written, stored in zip(docs, caused, strict=True):
        table.enter(written, stored, None)
    library.save(table)
    _remember(table.id, table.version, states)
    return _view(library, table, states)


def _branch(
    library: GameLibrary, table: Table, rules: Ruleset,
    entered: Sequence[tuple[dict[str, Any], list[dict[str, Any]]]],
) -> UUID | None:  # fmt: skip
    """The branch of a variation's own actions ``entered`` (each one's records.md JSON and
    the events it caused, as stored: the rules checked them), stored unless it was; None
    for an ordinary table or no own action."""
    if table.origin is None or not entered:
        return None
    step = table.origin_step
    events = [
        (step + i, e["type"], e["data"]) for i, (_, caused) in enumerate(entered) for e in caused
    ]
    return keep_branch(library, table.origin, rules, step, [a for a, _ in entered], events)


def open_variation(
    library: GameLibrary, origin: UUID, step: int, actions: Sequence[Any],
    opened_by: str | None, name: str, max_actions: int,
) -> TableView:  # fmt: skip
    """Open a variation of stored game ``origin`` at ``step`` with its first own ``actions``
    (its ruleset's), storing their branch. Raises ``UnknownGame``, ``OtherRules`` for a game
    stored under other rules, ``ValueError`` for a step outside the game, ``TableFull`` past
    ``max_actions`` in all and ``RecordError`` (its index counting the variation's own
    actions) for an illegal action; nothing is stored then."""
    info = library.info(origin)
    rules = games.ruleset(info.game)
    if info.rules_version != rules.rules_version:
        raise OtherRules(origin, info.rules_version, rules.rules_version)
    if not 0 <= step <= info.actions:
        raise ValueError(f"step must be 0 … {info.actions}, got {step}")
    if step + len(actions) > max_actions:
        raise TableFull(max_actions)
    doc = orjson.loads(library.record(origin))
    doc["actions"] = []
    start = library.state_at(origin, step)
    docs = [rules.write_action(a) for a in actions]
    states, caused = _played(rules, start, actions, docs)
    table = Table._create(
        Table.Explored, id=uuid4(), game=rules.name, record=orjson.dumps(doc).decode(),
        players=[s.name for s in rules.players(start)], rules_version=rules.rules_version,
        opened_by=opened_by, title=info.title, origin=origin, step=step, name=name,
    )  # fmt: skip
    branch_id = _branch(library, table, rules, list(zip(docs, caused, strict=True)))
    for index, (written, stored) in enumerate(zip(docs, caused, strict=True)):
        table.enter(written, stored, branch_id if index == len(docs) - 1 else None)
    library.save(table)
    _remember(table.id, table.version, states)
    return _view(library, table, states)


def load_table(library: GameLibrary, table_id: UUID) -> TableView:
    """The table as stored now; ``UnknownTable`` for an id that names none (or a deleted
    variation: ``VariationDeleted``)."""
    return _view(library, _load(library, table_id))


def table_version(library: GameLibrary, table_id: UUID) -> int | None:
    """The table's stream version (its last event's), read cheaply; None for no stream."""
    last = library.recorder.select_events(table_id, desc=True, limit=1)
    return last[0].originator_version if last else None


def opening(library: GameLibrary, table_id: UUID) -> Table.Opened | Table.Explored:
    """The table's first event (who opened it, a variation's origin), read cheaply;
    ``UnknownTable`` for an id that names no table."""
    first = list(library.events.get(table_id, lte=Table.INITIAL_VERSION))
    if not first or not isinstance(first[0], Table.Opened | Table.Explored):
        raise UnknownTable(table_id)
    return first[0]


def _writable(library: GameLibrary, table_id: UUID, version: int | None = None) -> Table:
    """The table, open and at ``version`` (None: any)."""
    table = _load(library, table_id)
    if table.game_id is not None:
        raise TableClosed(f"Table {table_id} is finished into game {table.game_id}.")
    if version is not None and version != table.version:
        raise StaleVersion(version, table.version)
    return table


def bot_to_act(table: Table, rules: Ruleset, state: Any) -> int | None:
    """The seat of the bot to act at the open table now (None: a person or no one; in a
    variation a person plays every seat)."""
    if table.origin is not None or table.game_id is not None or rules.finished(state):
        return None
    seat = rules.turn(state)
    return seat if seat is not None and rules.players(state)[seat].bot is not None else None


def enter_action(
    library: GameLibrary, table_id: UUID, doc: Any, version: int, max_actions: int,
    by_bot: bool = False,
) -> tuple[TableView, list[dict[str, Any]]]:  # fmt: skip
    """Enter one action (records.md JSON) against ``version``: the table after it and the
    events it caused. Raises ``StaleVersion``, ``TableClosed``, ``TableFull`` past
    ``max_actions`` (a variation's game's actions before it count), :class:`BotsTurn` for a
    person's action (not ``by_bot``) on a bot's turn at a table, ``InvalidRecord`` for a
    malformed action and ``RecordError`` for an illegal one; nothing is stored then."""
    table = _writable(library, table_id, version)
    rules = games.ruleset(table.game)
    index = len(table.entered)
    action = rules.read_action(doc, "action")
    written = rules.write_action(action)
    if table.origin_step + index >= max_actions:
        raise TableFull(max_actions)
    states = _table_states(library, table, rules)
    seat = bot_to_act(table, rules, states[-1])
    if seat is not None and not by_bot:
        raise BotsTurn(seat)
    try:
        state, events = rules.play(states[-1], action)
    except IllegalAction as err:
        raise RecordError(index, written, err.rule, err.message) from None
    stored = _stored(rules, events)
    branch_id = _branch(library, table, rules, [*table.entered, (written, stored)])
    table.enter(written, stored, branch_id)
    _save(library, table, version)
    after = [*states, state]
    _remember(table.id, table.version, after)
    return _view(library, table, after), stored


def undo_action(
    library: GameLibrary, table_id: UUID, version: int
) -> tuple[TableView, dict[str, Any]]:
    """Take back the last action against ``version``: the table after it and the action
    taken back (``NothingToUndo`` when none is left: a variation's game's actions before
    it are not its own)."""
    table = _writable(library, table_id, version)
    rules = games.ruleset(table.game)
    if not table.entered:
        raise NothingToUndo(f"Table {table_id} has no action to take back.")
    states = _table_states(library, table, rules)[:-1]
    taken = table.entered[-1][0]
    table.take_back(_branch(library, table, rules, table.entered[:-1]))
    _save(library, table, version)
    _remember(table.id, table.version, states)
    return _view(library, table, states), taken


def close_table(library: GameLibrary, table_id: UUID, game_id: UUID, unfinished: bool) -> TableView:
    """Mark the table stored as ``game_id`` (``TableClosed`` if it was closed already)."""
    table = _writable(library, table_id)
    version = table.version
    table.close(game_id, unfinished)
    _save(library, table, version)
    return _view(library, table)


def _variation(library: GameLibrary, table_id: UUID) -> Table:
    """A live variation; ``UnknownTable`` for none (an ordinary table is none)."""
    table = _load(library, table_id)
    if table.origin is None:
        raise UnknownTable(table_id)
    return table


def rename_variation(library: GameLibrary, table_id: UUID, name: str) -> TableView:
    """Rename a live variation (``StaleVersion`` when a write came in meanwhile)."""
    table = _variation(library, table_id)
    version = table.version
    table.rename(name)
    _save(library, table, version)
    return _view(library, table)


def delete_variation(library: GameLibrary, table_id: UUID) -> None:
    """Delete a live variation: its stream stays, and it reads as no table from now on."""
    table = _variation(library, table_id)
    version = table.version
    table.delete()
    _save(library, table, version)


@dataclass(frozen=True)
class VariationLine:
    """A live variation as a game's list shows it (read without folding any state)."""

    variation_id: UUID
    origin: UUID
    step: int
    name: str
    author: str | None
    actions: int
    branch_id: UUID | None
    opened_at: datetime
    updated_at: datetime


def variations_of(library: GameLibrary, origin: UUID) -> list[VariationLine]:
    """The live variations of stored game ``origin``, in the order they were opened."""
    lines = []
    for n in library.notifications(get_topic(Table.Explored)):
        opened = library.mapper.to_domain_event(n)
        if not isinstance(opened, Table.Explored) or opened.origin != origin:
            continue
        table: Any = library.repository.get(opened.originator_id)
        if not table.deleted:
            lines.append(VariationLine(
                table.id, origin, table.origin_step, table.name, table.opened_by,
                len(table.entered), table.branch_id, table.created_on, table.modified_on,
            ))  # fmt: skip
    return lines


def table_ids(library: GameLibrary) -> Iterator[UUID]:
    """The id of every table, in the order they were opened."""
    for n in library.notifications(get_topic(Table.Opened)):
        assert isinstance(n.originator_id, UUID)
        yield n.originator_id


def stored_players(view: TableView) -> list[dict[str, Any]]:
    """The record's seats as written (name, colour and the game's own fields), numbered."""
    seats: list[Mapping[str, Any]] = orjson.loads(view.record).get("players", [])
    return [{"seat": i, **seat} for i, seat in enumerate(seats)]
