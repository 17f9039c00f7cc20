"""Take-away: a tiny third game that lives in the test suite only, to prove the ruleset seam.

A pile of stones; two players take turns taking 1, 2 or 3 of them; whoever takes the last
stone wins. Its rules (ids ``T-1`` … ``T-3``):

- T-1: seat 0 moves first, then the seats alternate;
- T-2: a take is 1 to 3 stones, and no more than the pile holds;
- T-3: the game ends when the pile is empty: the seat that took the last stone wins.

Its record is a ``howl.game`` with ``"game": "takeaway"``::

    {"format": "howl.game", "version": 1, "game": "takeaway",
     "players": [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"}],
     "setup": {"stones": 10}, "actions": [{"type": "take", "player": 0, "stones": 3}]}

:data:`TAKEAWAY` satisfies :class:`domain.ruleset.Ruleset` in full; :func:`registered`
registers it for the length of a ``with`` block (the game is never registered outside the
tests).

>>> with registered():
...     record = TAKEAWAY.self_play(2, ["greedy", "random"], seed=4)
...     TAKEAWAY.finished(TAKEAWAY.fold(TAKEAWAY.start(record), events(record)))
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from domain import games
from domain.documents import canonical_json, check_header, check_meta, join, parse
from domain.ruleset import (
    Bot,
    Follower,
    GameRecord,
    IllegalAction,
    InvalidRecord,
    Milestone,
    Ruleset,
    Seat,
    SeatScore,
    StepFacts,
)
from domain.statistics import Statistics

NAME = "takeaway"
MAX_STONES = 1000
"""The largest pile a record may start with."""
MAX_ACTIONS = MAX_STONES
"""Every take removes a stone at least, so no game has more actions than stones."""
HEADER = {"game": (("format", "howl.game"), ("version", 1), ("game", NAME)),
          "position": (("format", "howl.position"), ("version", 1), ("game", NAME))}  # fmt: skip


@dataclass(frozen=True)
class Take:
    """``player`` takes ``stones`` from the pile (T-2)."""

    player: int
    stones: int


@dataclass(frozen=True)
class StonesTaken:
    """Event: ``player`` took ``stones``; ``left`` remain."""

    player: int
    stones: int
    left: int


@dataclass(frozen=True)
class GameWon:
    """Event: ``player`` took the last stone and won (T-3)."""

    player: int


Event = StonesTaken | GameWon
EVENTS: dict[str, type[StonesTaken] | type[GameWon]] = {
    "StonesTaken": StonesTaken,
    "GameWon": GameWon,
}


@dataclass(frozen=True)
class State:
    """The pile, whose turn it is, what each seat took, and the winner once there is one."""

    players: tuple[Seat, ...]
    pile: int
    player: int = 0
    taken: tuple[int, int] = (0, 0)
    winner: int | None = None


@dataclass(frozen=True)
class Record:
    """A game of take-away: who played, the pile it started with, the takes."""

    players: tuple[Seat, ...]
    stones: int
    actions: tuple[Take, ...] = ()
    meta: Mapping[str, str] = field(default_factory=dict)


def _own(record: GameRecord) -> Record:
    """A record of this game (another game's is a programming error)."""
    if not isinstance(record, Record):
        raise TypeError(f"not a take-away record: {record!r}")
    return record


def _int(value: Any, path: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRecord(path, "expected an integer")
    if not low <= value <= high:
        raise InvalidRecord(path, f"must be {low} to {high}, not {value}")
    return value


def _object(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidRecord(path, "expected a JSON object")
    return value


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 64 or "\x00" in value:
        raise InvalidRecord(path, "expected a name of 1 to 64 characters")
    return value


def _players(value: Any, path: str = "players") -> tuple[Seat, ...]:
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidRecord(path, "expected two players")
    seats = []
    for i, entry in enumerate(value):
        at = join(path, i)
        doc = _object(entry, at)
        name, color = (_text(doc.get(k), join(at, k)) for k in ("name", "color"))
        seats.append(Seat(name, color))
    return tuple(seats)


def _seat_json(seat: Seat) -> dict[str, str]:
    return {"name": seat.name, "color": seat.color}


def _score(state: State) -> tuple[SeatScore, ...]:
    """The winner's total is 1, the other's 0 (both 0, sharing first place, until T-3 ends
    the game); the parts count the stones each took."""
    totals = [int(state.winner == seat) for seat in range(2)]
    return tuple(
        SeatScore(
            seat,
            totals[seat],
            1 + sum(t > totals[seat] for t in totals),
            {"stones": state.taken[seat]},
        )  # fmt: skip
        for seat in range(2)
    )


class RandomBot:
    """Takes a random legal number of stones."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Take:
        return Take(state.player, self.rng.randint(1, min(3, state.pile)))


class GreedyBot:
    """Leaves the opponent a multiple of four whenever it can."""

    def __init__(self, seed: int) -> None:
        del seed

    def choose(self, state: State) -> Take:
        return Take(state.player, state.pile % 4 or 1)


@dataclass
class TakeawayFollower:
    """Follows one game of take-away step by step (see :class:`domain.ruleset.Follower`)."""

    names: tuple[str, ...]
    state: State

    def first(self) -> StepFacts:
        return self._facts(None, None, "setup", ())

    def step(self, events: Sequence[Any]) -> StepFacts:
        self.state = TAKEAWAY.fold(self.state, events)
        (taken, *rest) = events
        label = f"{self.names[taken.player]} takes {taken.stones} ({taken.left} left)"
        won = tuple(
            Milestone("game_won", f"{self.names[e.player]} takes the last stone", (e.player,))
            for e in rest
        )
        return self._facts(taken.player, "take", label, won)

    def _facts(
        self, player: int | None, action: str | None, label: str, milestones: tuple[Milestone, ...]
    ) -> StepFacts:
        s = self.state
        return StepFacts(
            player, action, label, TAKEAWAY.turn(s), TAKEAWAY.finished(s), _score(s), milestones,
            {"pile": s.pile},
        )  # fmt: skip


class Takeaway:
    """Take-away (T-1 … T-3) behind the ruleset interface."""

    name = NAME
    title = "Take-away"
    rules_version = "takeaway-1"
    seats = range(2, 3)
    review = None
    bots: Mapping[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
    statistics = Statistics()

    def chart_item(self, key: str, item: Any) -> Any:
        return item

    def players(self, state: State) -> tuple[Seat, ...]:
        return state.players

    # --- records and positions ---------------------------------------------------------
    def read_record(self, doc: Mapping[str, Any]) -> Record:
        check_header(doc, HEADER["game"])
        meta = check_meta(doc.get("meta", {}))
        players = _players(doc.get("players"))
        setup = _object(doc.get("setup"), "setup")
        stones = _int(setup.get("stones"), "setup.stones", 1, MAX_STONES)
        actions = doc.get("actions")
        if not isinstance(actions, list):
            raise InvalidRecord("actions", "expected a list of actions")
        if len(actions) > MAX_ACTIONS:
            raise InvalidRecord("actions", f"at most {MAX_ACTIONS} actions")
        takes = tuple(self.read_action(a, join("actions", i)) for i, a in enumerate(actions))
        return Record(players, stones, takes, dict(meta))

    def write_record(self, record: GameRecord) -> bytes:
        record = _own(record)
        return canonical_json(
            {"format": "howl.game", "version": 1, "game": NAME, "meta": dict(record.meta),
             "players": [_seat_json(p) for p in record.players],
             "setup": {"stones": record.stones},
             "actions": [self.write_action(a) for a in record.actions]}
        )  # fmt: skip

    def written_start(self, text: str) -> State:
        return self.start(self.read_record({**parse(text), "actions": []}))

    def read_position(self, doc: Mapping[str, Any]) -> State:
        check_header(doc, HEADER["position"])
        players = _players(doc.get("players"))
        pile = _int(doc.get("pile"), "pile", 0, MAX_STONES)
        taken = doc.get("taken")
        if not isinstance(taken, list) or len(taken) != 2:
            raise InvalidRecord("taken", "expected the stones each seat took")
        took = tuple(_int(n, join("taken", i), 0, MAX_STONES) for i, n in enumerate(taken))
        turn = _int(_object(doc.get("turn"), "turn").get("player"), "turn.player", 0, 1)
        winner = doc.get("winner")
        if winner is not None:
            winner = _int(winner, "winner", 0, 1)
        if (pile == 0) != (winner is not None):
            raise InvalidRecord("winner", "a game has a winner exactly when the pile is empty")
        return State(players, pile, turn, (took[0], took[1]), winner)

    def write_position(self, state: State) -> dict[str, Any]:
        return {
            "format": "howl.position", "version": 1, "game": NAME,
            "players": [_seat_json(p) for p in state.players], "pile": state.pile,
            "taken": list(state.taken), "turn": {"player": state.player}, "winner": state.winner,
            "finished": self.finished(state),
        }  # fmt: skip

    def read_action(self, doc: Any, path: str = "") -> Take:
        action = _object(doc, path)
        if action.get("type") != "take":
            raise InvalidRecord(join(path, "type"), 'expected "take"')
        player = _int(action.get("player"), join(path, "player"), 0, 1)
        return Take(player, _int(action.get("stones"), join(path, "stones"), 1, 3))

    def write_action(self, action: Take) -> dict[str, Any]:
        return {"type": "take", "player": action.player, "stones": action.stones}

    # --- rules -------------------------------------------------------------------------
    def start(self, record: GameRecord) -> State:
        own = _own(record)
        return State(own.players, own.stones)

    def play(self, state: State, action: Take) -> tuple[State, Sequence[Event]]:
        if state.winner is not None:
            raise IllegalAction("T-3", "the game is over")
        if action.player != state.player:
            raise IllegalAction(
                "T-1", f"it is seat {state.player}'s turn, not seat {action.player}'s"
            )
        if not 1 <= action.stones <= min(3, state.pile):
            raise IllegalAction("T-2", f"cannot take {action.stones} of {state.pile} stones")
        left = state.pile - action.stones
        events: list[Event] = [StonesTaken(action.player, action.stones, left)]
        if left == 0:
            events.append(GameWon(action.player))
        return self.fold(state, events), events

    def evolve(self, state: State, event: Event) -> State:
        if isinstance(event, StonesTaken):
            taken = list(state.taken)
            taken[event.player] += event.stones
            taken_ = (taken[0], taken[1])
            return replace(state, pile=event.left, player=1 - event.player, taken=taken_)
        return replace(state, winner=event.player)

    def fold(self, state: State, events: Iterable[Event]) -> State:
        for event in events:
            state = self.evolve(state, event)
        return state

    def legal_actions(self, state: State) -> Iterator[Take]:
        if state.winner is None:
            yield from (Take(state.player, n) for n in range(1, min(3, state.pile) + 1))

    def turn(self, state: State) -> int | None:
        return None if state.winner is not None else state.player

    def finished(self, state: State) -> bool:
        return state.winner is not None

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        return _score(state)

    def score_json(self, state: State) -> dict[str, Any]:
        return {"scores": [{"seat": s.seat, "total": s.total, "place": s.place, **s.parts}
                           for s in _score(state)]}  # fmt: skip

    def self_play(
        self, seats: int, bots: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> Record:
        if seats not in self.seats:
            raise ValueError(f"take-away is played by two, not {seats}")
        unknown = set(options or {}) - {"stones"}
        if unknown:
            raise InvalidRecord("setup.options", f"no option {min(unknown)!r}: there is stones")
        stones = _int((options or {}).get("stones", 10 + seed % 20), "setup.options.stones",
                      1, MAX_STONES)  # fmt: skip
        players = (Seat("Ana", "red"), Seat("Bo", "blue"))
        chosen = [self.bots[name](seed * 31 + i) for i, name in enumerate(bots)]
        state, takes = State(players, stones), []
        while state.winner is None:
            take = chosen[state.player].choose(state)
            state, _ = self.play(state, take)
            takes.append(take)
        return Record(players, stones, tuple(takes))

    def describe(self, state: State) -> str:
        if state.winner is not None:
            return f"game over, {state.players[state.winner].name} took the last stone"
        return f"{state.pile} stones left, {state.players[state.player].name} to take"

    # --- events ------------------------------------------------------------------------
    def encode_event(self, event: Event) -> tuple[str, dict[str, Any]]:
        data = {"player": event.player}
        if isinstance(event, StonesTaken):
            data |= {"stones": event.stones, "left": event.left}
        return type(event).__name__, data

    def decode_event(self, kind: str, data: Mapping[str, Any]) -> Event:
        return EVENTS[kind](**data)

    def follow(self, names: Sequence[str], start: State) -> Follower:
        return TakeawayFollower(tuple(names), start)


TAKEAWAY: Ruleset = Takeaway()
"""Take-away's ruleset: registered only by :func:`registered`."""


def events(record: Record) -> list[Event]:
    """Every event of a record, played from its start."""
    state, out = TAKEAWAY.start(record), list[Event]()
    for action in record.actions:
        state, caused = TAKEAWAY.play(state, action)
        out.extend(caused)
    return out


@contextmanager
def registered() -> Iterator[Ruleset]:
    """Take-away registered in :mod:`domain.games` while the block runs."""
    games.register(TAKEAWAY)
    try:
        yield TAKEAWAY
    finally:
        games.unregister(NAME)


@pytest.fixture
def takeaway() -> Iterator[Ruleset]:
    """Take-away registered for the test (a conftest imports this fixture to offer it)."""
    with registered() as rules:
        yield rules


def record_json(
    stones: int = 10, takes: Sequence[int] = (3, 3, 3, 1), **doc: Any
) -> dict[str, Any]:
    """A take-away record document: seats alternate taking ``takes`` from ``stones``."""
    return {
        "format": "howl.game", "version": 1, "game": NAME,
        "players": [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"}],
        "setup": {"stones": stones},
        "actions": [{"type": "take", "player": i % 2, "stones": n} for i, n in enumerate(takes)],
        **doc,
    }  # fmt: skip
