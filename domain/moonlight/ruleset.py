"""*Moonlight: The Land of the Wolves* as a :class:`~domain.ruleset.Ruleset`.

The Lone Wolf and the Alpha Powers are recorded and have no effect beyond what the rules
reference says (the Lone Wolf is a card of the record's value and moons, with no power;
an Alpha Power is a name only): the source gives neither.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from domain.moonlight import codec
from domain.moonlight.actions import Action
from domain.moonlight.events import Event
from domain.moonlight.evolve import evolve, fold
from domain.moonlight.fields import action_to_json, read_action
from domain.moonlight.legal import legal_actions
from domain.moonlight.players import make_bot, self_play
from domain.moonlight.positions import read_position, to_position
from domain.moonlight.records import Record, initial, read_record, write_record, written_start
from domain.moonlight.rules import play
from domain.moonlight.scoring import score_document
from domain.moonlight.state import SEATS, State
from domain.moonlight.statistics import STATISTICS
from domain.moonlight.timeline import MoonlightFollower, seat_scores
from domain.ruleset import Bot, Follower, InvalidRecord, Seat, SeatScore
from domain.statistics import Statistics

RULES_VERSION = "moonlight-1"
"""The version of the rules contract (M-1 … M-7) this engine implements."""


class Moonlight:
    """Moonlight: The Land of the Wolves (two players, best of three), rules M-1 … M-7."""

    name = "moonlight"
    title = "Moonlight: The Land of the Wolves"
    rules_version = RULES_VERSION
    seats = range(SEATS, SEATS + 1)
    review = None
    bots: Mapping[str, Callable[..., Bot]] = {
        "random": lambda seed: make_bot("random", seed),
        "greedy": lambda seed: make_bot("greedy", seed),
    }

    statistics: Statistics = STATISTICS

    def read_record(self, doc: Mapping[str, Any]) -> Record:
        return read_record(doc)

    def chart_item(self, key: str, item: Any) -> Any:
        return item

    def players(self, state: State) -> tuple[Seat, ...]:
        return state.table.players

    def write_record(self, record: Any) -> bytes:
        return write_record(record)

    def written_start(self, text: str) -> State:
        return written_start(text)

    def read_position(self, doc: Mapping[str, Any]) -> State:
        return read_position(doc)

    def write_position(self, state: State) -> dict[str, Any]:
        return to_position(state)

    def read_action(self, doc: Any, path: str = "") -> Action:
        return read_action(doc, path)

    def write_action(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def start(self, record: Any) -> State:
        return initial(record)

    def play(self, state: State, action: Action) -> tuple[State, Sequence[Event]]:
        return play(state, action)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def fold(self, state: State, events: Iterable[Event]) -> State:
        return fold(state, events)

    def legal_actions(self, state: State) -> Iterable[Action]:
        return legal_actions(state)

    def turn(self, state: State) -> int | None:
        return None if state.finished else state.player

    def finished(self, state: State) -> bool:
        return state.finished

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        return seat_scores(state)

    def score_json(self, state: State) -> dict[str, Any]:
        return score_document(state)

    def self_play(
        self, seats: int, bots: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> Record:
        if seats != SEATS:
            raise ValueError(f"Moonlight is played by {SEATS}, not {seats}")
        if options:
            raise InvalidRecord("setup.options", f"no option {min(options)!r}: Moonlight has none")
        return self_play(bots, seed).record

    def describe(self, state: State) -> str:
        names = [seat.name for seat in state.table.players]
        won = ", ".join(f"{names[s]} {pack.rounds_won}" for s, pack in enumerate(state.packs))
        if state.finished:
            return f"game over, rounds won: {won}"
        if state.alpha_due is not None:
            return f"round {state.round} (rounds won: {won}), {names[state.alpha_due]} to choose"
        return f"round {state.round} (rounds won: {won}), {names[state.player]} to play"

    def encode_event(self, event: Event) -> tuple[str, dict[str, Any]]:
        return codec.encode(event)

    def decode_event(self, kind: str, data: Mapping[str, Any]) -> Event:
        return codec.decode(kind, data)

    def follow(self, names: Sequence[str], start: State) -> Follower:
        return MoonlightFollower(names, start)


MOONLIGHT = Moonlight()
"""Moonlight's ruleset (registered in :mod:`domain.games`)."""
