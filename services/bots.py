"""Bots at tables: the seats a computer plays, and the mover that plays their turns.

A table's record marks its bot seats (``players[i].bot``, records.md); opening a table
may name them in a top-level ``"bots"`` object (seat → ``"heuristic"`` or ``{"bot":
"review", "depth": 2}``), which :func:`seated` writes into the record's players before
the record is read. Whenever it is a bot's turn at an open table, this process's
:class:`Mover` plays for it, one action at a time, each entered as any action is (against
the table's version, its events stored). The mover is a thread of the
:class:`~services.shared.Services`, started on the first :func:`kick` and stopped by
``Services.close()``; the tables service kicks it after a table is opened or written, and
whenever a table is read or watched while a bot is to move (so a restart goes on where it
stopped). Several processes may serve one store: when two movers play the same turn, the
store's optimistic concurrency keeps one and the other's is dropped.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from domain import games
from domain.documents import join
from domain.ruleset import Bot, GameRecord, InvalidRecord, Ruleset
from domain.seat_bots import DEPTHS
from domain.store import tables as store
from domain.store.tables import (
    NothingToUndo,
    StaleVersion,
    TableClosed,
    TableFull,
    TableView,
    UnknownTable,
)
from services.shared import Services

MAX_BOT_SECONDS = 30.0
"""How long :meth:`Mover.stop` waits for a move in progress."""
SETTLE_SECONDS, SETTLE_POLL = 120.0, 0.05
"""How long :func:`settle` waits for the bots at most, and how often it looks."""
SEED_STRIDE = 100_003
"""A bot's seed at action ``n`` of a table: (its id's first 8 bytes modulo this) × this
+ ``n``, so a table's bots play the same whichever process moves them."""

log = logging.getLogger(__name__)


def _seat_bot(value: Any, path: str) -> dict[str, Any]:
    """One entry of ``bots`` as a seat's record fields: a name, or ``{"bot", "depth"?}``."""
    if isinstance(value, str):
        return {"bot": value}
    if not isinstance(value, Mapping) or not isinstance(value.get("bot"), str):
        raise InvalidRecord(path, 'expected a bot\'s name or {"bot": name, "depth": n}')
    unknown = sorted(set(value) - {"bot", "depth"})
    if unknown:
        raise InvalidRecord(join(path, unknown[0]), "unknown field: a bot has bot and depth")
    depth = value.get("depth")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)):
        raise InvalidRecord(join(path, "depth"), f"expected an integer {DEPTHS.start} to "
                            f"{DEPTHS.stop - 1}")  # fmt: skip
    return {"bot": value["bot"]} if depth is None else {"bot": value["bot"], "bot_depth": depth}


def seated(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The record ``doc`` without its top-level ``bots``, each named seat marked as its
    bot's in ``players`` (and in the ``start`` position's players). ``InvalidRecord`` naming
    ``bots.<seat>`` for a seat the record does not have or an entry of the wrong shape."""
    record = dict(doc)
    bots = record.pop("bots", None)
    if bots is None:
        return record
    if not isinstance(bots, Mapping):
        raise InvalidRecord("bots", "expected an object: seat → bot")
    if isinstance(record.get("start"), Mapping):
        record["start"] = dict(record["start"])
    holders = [h for h in (record, record.get("start")) if isinstance(h, dict)
               and isinstance(h.get("players"), list)]  # fmt: skip
    count = min((len(h["players"]) for h in holders), default=0)
    marks: dict[int, dict[str, Any]] = {}
    for key, value in bots.items():
        path = join("bots", str(key))
        if not (isinstance(key, str) and key.isdecimal() and str(int(key)) == key
                and int(key) < count):  # fmt: skip
            raise InvalidRecord(path, f"no such seat: the game has seats 0 to {count - 1}")
        marks[int(key)] = _seat_bot(value, path)
    for holder in holders:
        holder["players"] = [
            {**{k: v for k, v in p.items() if k not in ("bot", "bot_depth")}, **marks[i]}
            if i in marks and isinstance(p, Mapping) else p
            for i, p in enumerate(holder["players"])
        ]  # fmt: skip
    return record


def read_seated(doc: Mapping[str, Any]) -> tuple[Ruleset, GameRecord]:
    """The game and record of ``doc`` with its ``bots`` seated (:func:`seated`); a bot the
    game does not have (or a depth it does not take) is refused naming ``bots.<seat>``."""
    record = seated(doc)
    try:
        return games.read_record(record)
    except InvalidRecord as exc:
        at = seat_of(exc.path)
        if at is None or not isinstance(doc.get("bots"), Mapping) or at[5:] not in doc["bots"]:
            raise
        raise InvalidRecord(at, exc.message) from None


def seat_of(path: str) -> str | None:
    """The ``bots.<seat>`` a record path about a seat's bot is about, or None.

    >>> seat_of("players[1].bot_depth"), seat_of("start.players[0].bot"), seat_of("actions[2]")
    ('bots.1', 'bots.0', None)
    """
    head, _, field = path.rpartition(".")
    if field not in ("bot", "bot_depth") or not head.endswith("]") or "players[" not in head:
        return None
    return "bots." + head[head.rindex("[") + 1 : -1]


def table_bots(view: TableView) -> dict[str, dict[str, Any]]:
    """The table's bot seats: seat → ``{"bot", "depth"}`` (depth None for a bot that does
    not search); none in a variation, where a person plays every seat."""
    if view.origin is not None:
        return {}
    return {
        str(seat): {"bot": s.bot, "depth": s.bot_depth}
        for seat, s in enumerate(view.rules.players(view.state))
        if s.bot is not None
    }


def to_move(view: TableView) -> int | None:
    """The seat of the bot to act at the open table ``view`` (None: a person, or no one)."""
    if view.origin is not None:  # a person plays every seat of a variation
        return None
    rules, state = view.rules, view.state
    if view.game_id is not None or rules.finished(state):
        return None
    seat = rules.turn(state)
    return seat if seat is not None and rules.players(state)[seat].bot is not None else None


def bot_for(view: TableView, seat: int) -> Bot:
    """The bot of ``seat``, seeded by the table and the action it is to play."""
    rules = view.rules
    player = rules.players(view.state)[seat]
    seed = int.from_bytes(view.table_id.bytes[:8]) % SEED_STRIDE * SEED_STRIDE + len(view.actions)
    make = rules.bots[player.bot or ""]
    return make(seed) if player.bot_depth is None else make(seed, depth=player.bot_depth)


def play_turn(svc: Services, table_id: UUID) -> bool:
    """Play one action for the bot to act at the table, if one is; whether one was
    entered (a write that lost to another lands nowhere: False)."""
    try:
        view = store.load_table(svc.library, table_id)
    except UnknownTable:
        return False
    seat = to_move(view)
    if seat is None or len(view.actions) >= svc.settings.max_actions:
        return False  # no bot to act, or a full table (it takes no more actions)
    doc = view.rules.write_action(bot_for(view, seat).choose(view.state))
    try:
        with svc.writing():
            store.enter_action(
                svc.library, table_id, doc, view.version, svc.settings.max_actions, by_bot=True
            )
    except (StaleVersion, TableClosed, TableFull) as exc:
        log.info("bot move at table %s dropped: %s", table_id, exc)
        return False
    return True


def take_back_bots(svc: Services, view: TableView, taken: list[dict[str, Any]]) -> TableView:
    """After an undo at a table where a person plays: take back the bots' actions before
    it too, back to a person's turn (else the bot would play its turn again), each as its
    own undo (added to ``taken``); a write that loses to another stops there."""
    seats = view.rules.players(view.state)
    while view.actions and to_move(view) is not None and any(s.bot is None for s in seats):
        try:
            with svc.writing():
                view, action = store.undo_action(svc.library, view.table_id, view.version)
        except (StaleVersion, TableClosed, NothingToUndo):
            break
        taken.append({"type": "taken_back", "data": {"index": len(view.actions), "action": action}})
    return view


class Mover:
    """A thread playing the bots' turns at the tables it is kicked about, one at a time."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._due: dict[UUID, None] = {}
        self._wake = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="howl-bots", daemon=True)
        self._thread.start()

    def kick(self, table_id: UUID) -> None:
        """Look at this table soon: play its bots' turns until a person is to act."""
        with self._wake:
            self._due[table_id] = None
            self._wake.notify()

    @property
    def alive(self) -> bool:
        """Whether the mover's thread runs (until :meth:`stop`)."""
        return self._thread.is_alive()

    def stop(self, timeout: float = MAX_BOT_SECONDS) -> None:
        """Stop after the move in progress (waiting at most ``timeout`` seconds)."""
        with self._wake:
            self._stopped = True
            self._wake.notify()
        self._thread.join(timeout)

    def _next(self) -> UUID | None:
        with self._wake:
            while not self._due and not self._stopped:
                self._wake.wait()
            if self._stopped:
                return None
            table_id = next(iter(self._due))
            del self._due[table_id]
            return table_id

    def _run(self) -> None:
        while (table_id := self._next()) is not None:
            try:
                if play_turn(self.svc, table_id):
                    self.kick(table_id)  # the next turn may be a bot's too
            except Exception:  # one table's failure must not stop the others' bots
                log.exception("a bot could not move at table %s", table_id)


def settle(svc: Services, table_id: UUID, timeout: float = SETTLE_SECONDS) -> TableView:
    """The table once no bot is to act there (its mover playing their turns), or as it is
    after ``timeout`` seconds; ``UnknownTable`` for no table."""
    deadline = time.monotonic() + timeout
    while True:
        view = store.load_table(svc.library, table_id)
        if to_move(view) is None or time.monotonic() > deadline:
            return view
        kick(svc, view)
        time.sleep(SETTLE_POLL)


_start_lock = threading.Lock()


def kick(svc: Services, view: TableView) -> None:
    """Have ``svc``'s mover (started now if it is not running) play at ``view``'s table
    when a bot is to act there."""
    if to_move(view) is None:
        return
    with _start_lock:
        if svc.mover is None:
            svc.mover = Mover(svc)
        mover = svc.mover
    mover.kick(view.table_id)
