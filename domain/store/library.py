"""``GameLibrary``: the event-sourced store of uploaded games (an eventsourcing Application).

Uploading runs the engine over the whole record and saves the game's stream — the
``Uploaded`` event and one ``Happened`` per domain event — in one transaction; an
illegal record stores nothing. A game is named by its canonical record's SHA-256, so
uploading it again (even concurrently) stores nothing more. Games never change after
upload (only their metadata does), so states per step are folded once and cached.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, PersistenceError
from eventsourcing.utils import Environment, EnvType

from domain.store.backend import StoreConfig, prepare_store, store_env
from domain.store.game import Game, check_visibility, clean_tags, game_id_for, record_digest
from domain.store.uploads import PreparedGame, canonical_record, prepare
from domain.wolves import codec
from domain.wolves.events import Event
from domain.wolves.evolve import apply
from domain.wolves.positions import to_position
from domain.wolves.records import Record
from domain.wolves.replay import written_start
from domain.wolves.state import State

log = logging.getLogger(__name__)


class UnknownGame(LookupError):
    """No game with this id is stored."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


@dataclass(frozen=True)
class UploadResult:
    """The id of an uploaded game; ``created`` is False when it was already stored."""

    game_id: UUID
    created: bool


@dataclass(frozen=True)
class GameInfo:
    """A stored game's metadata and counts."""

    game_id: UUID
    digest: str
    uploaded_at: datetime
    uploaded_by: str | None
    title: str | None
    tags: tuple[str, ...]
    visibility: str
    rules_version: str
    actions: int
    events: int
    finished: bool


@dataclass(frozen=True)
class GameEvent:
    """One stored domain event: ``seq`` its 0-based place in the game, ``step`` its action's."""

    seq: int
    step: int
    event: Event

    def to_json(self) -> dict[str, Any]:
        """``{"seq": …, "step": …, "type": …, <fields>}`` (see ``domain.wolves.codec``)."""
        return {"seq": self.seq, "step": self.step, **codec.event_to_json(self.event)}


class GameLibrary(Application):
    """Uploaded games, one ``Game`` stream each, on SQLite or PostgreSQL.

    Build it with :meth:`open` from a store URL (the environment is never read here).
    """

    name = "games"  # PostgreSQL tables: games_events, games_snapshots
    cached_games = 32
    """Games whose per-step states are kept in memory."""

    def __init__(self, env: EnvType | None = None) -> None:
        super().__init__(env)
        self._states: OrderedDict[UUID, list[State]] = OrderedDict()
        self._states_lock = threading.Lock()

    @classmethod
    def open(cls, config: StoreConfig | str) -> GameLibrary:
        """A library on the store ``config`` names (a URL or a ``StoreConfig``)."""
        config = StoreConfig(config) if isinstance(config, str) else config
        prepare_store(config)
        return cls(store_env(config))

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        """Only the given settings (plus snapshotting): never ``os.environ``."""
        return Environment(name, {"IS_SNAPSHOTTING_ENABLED": "y", **(env or {})})

    # --- writing ------------------------------------------------------------------------

    def upload(
        self,
        record: bytes | str | Mapping[str, Any] | Record,
        uploaded_by: str | None = None,
        title: str | None = None,
        tags: Iterable[str] = (),
        visibility: str = "public",
        check: Callable[[], None] | None = None,
    ) -> UploadResult:
        """Validate ``record`` with the engine and store the game with all its events.

        ``record`` is JSON (bytes or text), a parsed document or a ``Record``. ``title``
        defaults to the record's ``meta.title``; ``check`` is the replay's work budget
        (:func:`~domain.store.uploads.prepare`). Raises ``InvalidRecord`` or
        ``RecordError`` for a bad record (nothing is stored); a game already stored is
        left as it is and its id returned with ``created=False``.
        """
        check_visibility(visibility)
        rec, canonical = canonical_record(record)
        game_id = game_id_for(record_digest(canonical))
        if self.exists(game_id):
            return UploadResult(game_id, created=False)
        return self.add(prepare(rec, canonical, uploaded_by, title, tags, visibility, check))

    def add(self, game: PreparedGame) -> UploadResult:
        """Save a prepared game in one transaction (``created=False`` if it is stored)."""
        aggregate = game.aggregate()
        try:
            self.save(aggregate)
        except IntegrityError:  # stored meanwhile by a concurrent upload
            return UploadResult(game.game_id, created=False)
        self._snapshot(aggregate)
        return UploadResult(game.game_id, created=True)

    def retitle(self, game_id: UUID, title: str | None) -> None:
        """Change a game's title (None or blank: no title)."""
        game = self._game(game_id)
        title = (title or "").strip() or None
        if title != game.title:
            game.retitle(title)
            self.save(game)

    def retag(self, game_id: UUID, tags: Iterable[str]) -> None:
        """Replace a game's tags."""
        game = self._game(game_id)
        cleaned = clean_tags(tags)
        if cleaned != tuple(game.tags):
            game.retag(list(cleaned))
            self.save(game)

    def set_visibility(self, game_id: UUID, visibility: str) -> None:
        """Make a game ``public`` or ``private``."""
        check_visibility(visibility)
        game = self._game(game_id)
        if visibility != game.visibility:
            game.change_visibility(visibility)
            self.save(game)

    # --- reading ------------------------------------------------------------------------

    def exists(self, game_id: UUID) -> bool:
        """True when a game with this id is stored."""
        return bool(self.recorder.select_events(game_id, limit=1))

    def game_ids(self) -> Iterator[UUID]:
        """The id of every stored game, in upload order."""
        start: int | None = None
        while page := self.recorder.select_notifications(
            start, 1000, topics=[Game.Uploaded.TOPIC], inclusive_of_start=start is None
        ):
            yield from (n.originator_id for n in page)
            start = page[-1].id

    def info(self, game_id: UUID) -> GameInfo:
        """A game's metadata and counts."""
        game = self._game(game_id)
        return GameInfo(
            game.id, game.digest, game.uploaded_at, game.uploaded_by, game.title, tuple(game.tags),
            game.visibility, game.rules_version, game.actions, game.events, game.finished,
        )  # fmt: skip

    def record(self, game_id: UUID) -> bytes:
        """The game's record as uploaded, in canonical JSON (byte for byte as stored)."""
        return self._uploaded(game_id).record.encode("utf-8")

    def game_events(
        self, game_id: UUID, start: int = 0, limit: int | None = None
    ) -> list[GameEvent]:
        """The game's domain events from ``start`` (0-based), at most ``limit`` of them."""
        if start < 0 or (limit is not None and limit < 0):
            raise ValueError("start and limit must not be negative")
        if limit == 0:
            return []
        first = start + Game.INITIAL_VERSION + 1  # version of domain event `start`
        stored = self.events.get(
            game_id, gt=first - 1, lte=None if limit is None else first + limit - 1
        )
        found = [
            GameEvent(
                e.originator_version - first + start,
                e.step,
                codec.from_stored(e.type, e.data),
            )
            for e in stored
            if isinstance(e, Game.Happened)
        ]
        if not found:
            self._uploaded(game_id)  # raises for no game
        return found

    def state_at(self, game_id: UUID, step: int | None = None) -> State:
        """The state after the first ``step`` actions (0: before any; None: the last).

        Equal to replaying the record up to ``step``. The caller owns the result.
        """
        states = self._states_of(game_id)
        if step is None:
            step = len(states) - 1
        if not 0 <= step < len(states):
            raise ValueError(f"step must be 0 … {len(states) - 1}, got {step}")
        return states[step].copy()

    def position_at(self, game_id: UUID, step: int | None = None) -> dict[str, Any]:
        """The position (records.md "Position") after the first ``step`` actions."""
        return to_position(self.state_at(game_id, step))

    def steps(self, game_id: UUID) -> int:
        """How many actions the game has (its last step); folds nothing."""
        with self._states_lock:
            states = self._states.get(game_id)
        return len(states) - 1 if states is not None else self._uploaded(game_id).actions

    # --- internals ----------------------------------------------------------------------

    def _game(self, game_id: UUID) -> Game:
        try:
            game = self.repository.get(game_id)
        except AggregateNotFoundError:
            raise UnknownGame(game_id) from None
        if not isinstance(game, Game):  # another stream, such as a branch
            raise UnknownGame(game_id)
        return game

    def _snapshot(self, game: Game) -> None:
        """Snapshot a just-saved game, so reading its metadata skips its domain events."""
        assert self.snapshots is not None
        try:
            self.snapshots.put([Game.Snapshot.take(game)])
        except PersistenceError as exc:  # the game is stored; a snapshot only saves time
            log.warning("no snapshot of game %s: %s", game.id, exc)

    def _uploaded(self, game_id: UUID) -> Game.Uploaded:
        first = list(self.events.get(game_id, lte=Game.INITIAL_VERSION))
        if not first or not isinstance(first[0], Game.Uploaded):
            raise UnknownGame(game_id)
        return first[0]

    def _states_of(self, game_id: UUID) -> list[State]:
        with self._states_lock:
            if game_id in self._states:
                self._states.move_to_end(game_id)
                return self._states[game_id]
        states = self._fold(game_id)
        with self._states_lock:
            self._states[game_id] = states
            while len(self._states) > self.cached_games:
                self._states.popitem(last=False)
        return states

    def _fold(self, game_id: UUID) -> list[State]:
        """Every step's state: the record's start, then the stored events folded in order."""
        uploaded = self._uploaded(game_id)
        work = written_start(uploaded.record)
        states = [work.copy()]
        for stored in self.events.get(game_id, gt=Game.INITIAL_VERSION):
            if not isinstance(stored, Game.Happened):
                continue
            while len(states) <= stored.step:
                states.append(work.copy())
            apply(work, codec.from_stored(stored.type, stored.data))
        while len(states) <= uploaded.actions:
            states.append(work.copy())
        return states
