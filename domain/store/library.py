"""``GameLibrary``: the event-sourced store of uploaded games (an eventsourcing Application).

Uploading runs the record's ruleset (found by its ``"game"``) over the whole record and
saves the game's stream — the ``Uploaded`` event and one ``Happened`` per domain event — in
one transaction; an illegal record stores nothing. A game is named by its canonical
record's SHA-256, so uploading it again (even concurrently) stores nothing more. Games never
change after upload (only their metadata does), so states per step are folded once, by the
stored game's ruleset, and cached.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, Mapper, Notification, PersistenceError
from eventsourcing.utils import Environment, EnvType

from domain.documents import PLAYED_DAYS, played_day, written_header
from domain.games import ruleset
from domain.ruleset import Ruleset
from domain.store.backend import StoreConfig, prepare_store, store_env
from domain.store.game import Game, check_visibility, clean_tags, game_id_for, record_digest
from domain.store.transcoding import store_mapper
from domain.store.uploads import EncodedGame, PreparedGame, canonical_record, encode, prepare

log = logging.getLogger(__name__)


CHANGE_TRIES = 3
"""How many times a metadata change is applied when others write the game meanwhile."""


class UnknownGame(LookupError):
    """No game with this id is stored."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class WithdrawnGame(UnknownGame):
    """The game's uploader withdrew it: its stream stays, but it is no longer shown."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(game_id)
        self.args = (f"game {game_id} was withdrawn by its uploader",)


@dataclass(frozen=True)
class UploadResult:
    """The id of an uploaded game; ``created`` is False when it was already stored."""

    game_id: UUID
    created: bool


@dataclass(frozen=True)
class GameInfo:
    """A stored game's metadata and counts; ``game`` names its ruleset."""

    game_id: UUID
    game: str
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
    played_on: date | None
    """The day it was played: as re-dated, else its record's ``meta.played_on``."""


@dataclass(frozen=True)
class GameEvent:
    """One stored domain event of the game ``rules`` plays: ``seq`` its 0-based place in the
    game, ``step`` its action's."""

    seq: int
    step: int
    event: Any
    rules: Ruleset = field(repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """``{"seq": …, "step": …, "type": …, <fields>}`` (as the ruleset encodes it)."""
        kind, data = self.rules.encode_event(self.event)
        return {"seq": self.seq, "step": self.step, "type": kind, **data}


Steps = tuple[Ruleset, list[Any]]
"""A stored game's ruleset and its state after each step (``[0]``: before any action)."""


class GameLibrary(Application[UUID]):
    """Uploaded games, one ``Game`` stream each, on SQLite or PostgreSQL.

    Build it with :meth:`open` from a store URL (the environment is never read here).
    """

    name = "games"  # PostgreSQL tables: games_events, games_snapshots
    cached_games = 32
    """Games whose per-step states are kept in memory."""

    def __init__(self, env: EnvType | None = None) -> None:
        super().__init__(env)
        self._states: OrderedDict[UUID, Steps] = OrderedDict()
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

    def construct_mapper(self) -> Mapper[UUID]:
        """The store's own (:func:`~domain.store.transcoding.store_mapper`): a game encoded
        in the process that checked it is stored as this library would encode it."""
        return store_mapper()

    # --- writing ------------------------------------------------------------------------

    def upload(
        self,
        record: bytes | str | Mapping[str, Any],
        uploaded_by: str | None = None,
        title: str | None = None,
        tags: Iterable[str] = (),
        visibility: str = "public",
        check: Callable[[], None] | None = None,
    ) -> UploadResult:
        """Validate ``record`` with its game's ruleset and store the game with all its events.

        ``record`` is JSON (bytes or text) or a parsed document; its ``"game"`` names the
        ruleset. ``title`` defaults to the record's ``meta.title``; ``check`` is the
        replay's work budget (:func:`~domain.store.uploads.prepare`). Raises
        ``InvalidRecord`` (``UnknownGame`` of :mod:`domain.games` for a game no ruleset
        plays) or ``RecordError`` for a bad record (nothing is stored); a game already
        stored is left as it is and its id returned with ``created=False``
        (:class:`WithdrawnGame` when it was withdrawn).
        """
        check_visibility(visibility)
        rules, rec, canonical = canonical_record(record)
        game_id = game_id_for(record_digest(canonical))
        if self.exists(game_id):
            self._uploaded(game_id)  # raises for a withdrawn game
            return UploadResult(game_id, created=False)
        prepared = prepare(rules, rec, canonical, uploaded_by, title, tags, visibility, check)
        return self.add(prepared)

    def add(self, game: PreparedGame | EncodedGame) -> UploadResult:
        """Save a prepared game (encoded here unless it was already) in one transaction,
        then its snapshot (``created=False`` if it is stored)."""
        encoded = game if isinstance(game, EncodedGame) else encode(game)
        try:
            self.recorder.insert_events(list(encoded.events))
        except IntegrityError:  # stored meanwhile by a concurrent upload
            return UploadResult(encoded.game_id, created=False)
        assert self.snapshots is not None
        try:
            self.snapshots.recorder.insert_events([encoded.snapshot])
        except PersistenceError as exc:  # the game is stored; a snapshot only saves time
            log.warning("no snapshot of game %s: %s", encoded.game_id, exc)
        return UploadResult(encoded.game_id, created=True)

    def retitle(self, game_id: UUID, title: str | None) -> None:
        """Change a game's title (None or blank: no title)."""
        self.change(game_id, {"title": title})

    def retag(self, game_id: UUID, tags: Iterable[str]) -> None:
        """Replace a game's tags."""
        self.change(game_id, {"tags": tags})

    def set_visibility(self, game_id: UUID, visibility: str) -> None:
        """Make a game ``public`` or ``private``."""
        self.change(game_id, {"visibility": visibility})

    def change(self, game_id: UUID, changes: Mapping[str, Any]) -> None:
        """Change any of a game's ``title`` (None or blank: none), ``tags``, ``visibility``
        and ``played_on`` (a date; None: not known) in one write, an event for each that
        differs from what the game has. A write another made to the game meanwhile is read
        and the changes applied again (a few times)."""
        if "visibility" in changes:
            check_visibility(changes["visibility"])
        day = changes.get("played_on")
        if day is not None and not PLAYED_DAYS[0] <= day <= PLAYED_DAYS[1]:
            raise ValueError(f"played_on must be a day from 1970 to 9999-12-30, got {day}")

        def apply(game: Game) -> None:
            if "played_on" in changes and day != self._played_on(game):
                game.redate(None if day is None else day.isoformat())
            title = (changes.get("title") or "").strip() or None
            if "title" in changes and title != game.title:
                game.retitle(title)
            tags = clean_tags(changes.get("tags") or ())
            if "tags" in changes and tags != tuple(game.tags):
                game.retag(list(tags))
            if "visibility" in changes and changes["visibility"] != game.visibility:
                game.change_visibility(changes["visibility"])

        self._write(game_id, apply)

    def withdraw(self, game_id: UUID) -> None:
        """Withdraw a game (:class:`WithdrawnGame` if it already is): it leaves lists,
        statistics and ratings, and its stream stays until it is purged."""
        self._write(game_id, Game.withdraw)
        with self._states_lock:
            self._states.pop(game_id, None)

    def _write(self, game_id: UUID, apply: Callable[[Game], None]) -> None:
        """``apply`` the game's new events to it and save them; a write another made to the
        game meanwhile is read and ``apply`` run again (:data:`CHANGE_TRIES` times at most)."""
        for attempt in range(CHANGE_TRIES):
            game = self._game(game_id)
            apply(game)
            try:
                self.save(game)
                return
            except IntegrityError:  # written meanwhile
                if attempt + 1 == CHANGE_TRIES:
                    raise

    def withdrawn(self, game_id: UUID) -> bool:
        """True when the game is stored and withdrawn (``UnknownGame`` when not stored)."""
        try:
            self._game(game_id)
        except WithdrawnGame:
            return True
        return False

    # --- reading ------------------------------------------------------------------------

    def exists(self, game_id: UUID) -> bool:
        """True when a game with this id is stored."""
        return bool(self.recorder.select_events(game_id, limit=1))

    def withdrawn_ids(self) -> set[UUID]:
        """The id of every withdrawn game still stored."""
        return {cast(UUID, n.originator_id) for n in self.notifications(Game.Withdrawn.TOPIC)}

    def game_ids(self) -> Iterator[UUID]:
        """The id of every stored game not withdrawn, in upload order."""
        gone = self.withdrawn_ids()
        for n in self.notifications(Game.Uploaded.TOPIC):
            if n.originator_id not in gone:
                yield cast(UUID, n.originator_id)

    def uploads(self) -> Iterator[Game.Uploaded]:
        """Every stored game's upload (its ruleset's name, record, metadata and timestamp),
        in upload order, withdrawn games left out: two reads of the log, no game's stream
        replayed."""
        gone = self.withdrawn_ids()
        for n in self.notifications(Game.Uploaded.TOPIC):
            if n.originator_id not in gone:
                yield cast(Game.Uploaded, self.mapper.to_domain_event(n))

    def notifications(self, topic: str) -> Iterator[Notification]:
        """The log's notifications of one topic, in order, read a page at a time."""
        start: int | None = None
        while page := self.recorder.select_notifications(
            start, 1000, topics=[topic], inclusive_of_start=start is None
        ):
            yield from page
            start = page[-1].id

    def info(self, game_id: UUID) -> GameInfo:
        """A game's metadata and counts."""
        game = self._game(game_id)
        return GameInfo(
            game.id, game.game, game.digest, game.uploaded_at, game.uploaded_by, game.title,
            tuple(game.tags), game.visibility, game.rules_version, game.actions, game.events,
            game.finished is True, self._played_on(game),
        )  # fmt: skip

    def rules(self, game_id: UUID) -> Ruleset:
        """The ruleset of a stored game (``UnknownGame`` of :mod:`domain.games` when no
        registered ruleset plays it)."""
        with self._states_lock:
            cached = self._states.get(game_id)
        return cached[0] if cached is not None else ruleset(self._uploaded(game_id).game)

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
            self._uploaded(game_id)  # raises for no game, or a withdrawn one
            return []
        first = start + Game.INITIAL_VERSION + 1  # version of domain event `start`
        stored = [
            e
            for e in self.events.get(
                game_id, gt=first - 1, lte=None if limit is None else first + limit - 1
            )
            if isinstance(e, Game.Happened)
        ]
        self._uploaded(game_id)  # raises for no game, or a withdrawn one
        if not stored:
            return []
        rules = self.rules(game_id)
        return [
            GameEvent(
                e.originator_version - first + start,
                e.step,
                rules.decode_event(e.type, e.data),
                rules,
            )
            for e in stored
        ]

    def state_at(self, game_id: UUID, step: int | None = None) -> Any:
        """The state after the first ``step`` actions (0: before any; None: the last), in the
        game's ruleset's terms.

        Equal to replaying the record up to ``step``. The caller owns the result.
        """
        rules, states = self._states_of(game_id)
        return rules.fold(states[self._step(states, step)], ())

    def position_at(self, game_id: UUID, step: int | None = None) -> dict[str, Any]:
        """The position (``howl.position``, as the game's ruleset writes it) after the first
        ``step`` actions."""
        rules, states = self._states_of(game_id)
        return rules.write_position(states[self._step(states, step)])

    def steps(self, game_id: UUID) -> int:
        """How many actions the game has (its last step); folds nothing."""
        with self._states_lock:
            cached = self._states.get(game_id)
        return len(cached[1]) - 1 if cached is not None else self._uploaded(game_id).actions

    # --- internals ----------------------------------------------------------------------

    def _game(self, game_id: UUID) -> Game:
        try:
            game: Any = self.repository.get(game_id)
        except AggregateNotFoundError:
            raise UnknownGame(game_id) from None
        if not isinstance(game, Game):  # another stream, such as a branch
            raise UnknownGame(game_id)
        if game.withdrawn:
            raise WithdrawnGame(game_id)
        return game

    def _played_on(self, game: Game) -> date | None:
        if game.redated:
            return None if game.played_on is None else date.fromisoformat(game.played_on)
        return played_day(written_header(self._uploaded(game.id).record).get("meta") or {})

    def _uploaded(self, game_id: UUID) -> Game.Uploaded:
        """The game's first event (``UnknownGame``, or ``WithdrawnGame`` when its last event
        withdrew it)."""
        first = list(self.events.get(game_id, lte=Game.INITIAL_VERSION))
        if not first or not isinstance(first[0], Game.Uploaded):
            raise UnknownGame(game_id)
        self._check_shown(game_id)
        return first[0]

    def _check_shown(self, game_id: UUID) -> None:
        """``UnknownGame`` when the game's stream is gone (purged), ``WithdrawnGame`` when its
        last event withdrew it."""
        last = self.recorder.select_events(game_id, desc=True, limit=1)
        if not last:
            raise UnknownGame(game_id)
        if last[0].topic == Game.Withdrawn.TOPIC:
            raise WithdrawnGame(game_id)

    @staticmethod
    def _step(states: list[Any], step: int | None) -> int:
        if step is None:
            return len(states) - 1
        if not 0 <= step < len(states):
            raise ValueError(f"step must be 0 … {len(states) - 1}, got {step}")
        return step

    def _states_of(self, game_id: UUID) -> Steps:
        with self._states_lock:
            cached = self._states.get(game_id)
            if cached is not None:
                self._states.move_to_end(game_id)
        if cached is not None:
            try:
                self._check_shown(game_id)
            except UnknownGame:
                with self._states_lock:
                    self._states.pop(game_id, None)
                raise
            return cached
        folded = self._fold(game_id)
        with self._states_lock:
            self._states[game_id] = folded
            while len(self._states) > self.cached_games:
                self._states.popitem(last=False)
        return folded

    def _fold(self, game_id: UUID) -> Steps:
        """Every step's state: the record's start (as its ruleset reads a stored record),
        then each action's stored events folded in, in order."""
        uploaded = self._uploaded(game_id)
        rules = ruleset(uploaded.game)
        states = [rules.written_start(uploaded.record)]
        caused: list[Any] = []  # the events of action len(states) - 1 so far
        for stored in self.events.get(game_id, gt=Game.INITIAL_VERSION):
            if not isinstance(stored, Game.Happened):
                continue
            while len(states) <= stored.step:
                states.append(rules.fold(states[-1], caused))
                caused = []
            caused.append(rules.decode_event(stored.type, stored.data))
        while len(states) <= uploaded.actions:
            states.append(rules.fold(states[-1], caused))
            caused = []
        return rules, states
