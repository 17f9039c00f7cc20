"""*The Wolves* as a :class:`~domain.ruleset.Ruleset`: the engine's parts behind the interface."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

from domain.ruleset import Bot, Depth, Follower, InvalidRecord, Seat, SeatScore
from domain.statistics import Statistics
from domain.wolves import codec
from domain.wolves import components as box
from domain.wolves.actions import Action
from domain.wolves.analysis import practice
from domain.wolves.analysis.evaluation import StaticEvaluator
from domain.wolves.analysis.playouts import PlayoutBot
from domain.wolves.analysis.review import (
    DEPTHS,
    THRESHOLDS,
    TURNING_POINTS,
    Settings,
    position,
    review,
)
from domain.wolves.analysis.review import Review as Reviewed
from domain.wolves.analysis.whatif import outcome, what_if
from domain.wolves.events import Event
from domain.wolves.evolve import evolve, fold
from domain.wolves.legal import legal_actions, move_destinations
from domain.wolves.players import make_bot, seats, self_play
from domain.wolves.positions import from_position, to_position
from domain.wolves.records import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Record,
    action_from_json,
    action_to_json,
    read_options,
    read_record,
    write_record,
)
from domain.wolves.replay import initial, written_start
from domain.wolves.rules import play
from domain.wolves.scoring import final_scores
from domain.wolves.setup import Options, generate_setup
from domain.wolves.state import State
from domain.wolves.statistics import STATISTICS
from domain.wolves.timeline import WolvesFollower, seat_scores, shown


class WolvesReview:
    """The Wolves' review (:mod:`domain.wolves.analysis`) behind the interface."""

    thresholds: Sequence[tuple[str, float]] = THRESHOLDS
    turning_points = TURNING_POINTS

    def settings(self, **values: int) -> Settings:
        return Settings(**values)

    def depth(self, name: Depth) -> Settings:
        return DEPTHS[name]

    def review(
        self, record: Any, settings: Any, progress: Callable[[int, int], None] | None = None,
        workers: int | Executor | None = None,
    ) -> Reviewed:  # fmt: skip
        return review(record, settings, progress, workers)

    def win(self, state: State) -> tuple[float, ...]:
        return StaticEvaluator.load().evaluate(state).win

    def what_if(self, parent: Any, step: int, actions: Sequence[Action]) -> dict[str, Any]:
        return what_if(parent, step, actions).to_json()

    def outcome(self, state: State, actions: int) -> dict[str, Any]:
        return outcome(state, actions, 0, 0).to_json()

    def practice_position(self, before: State, played: Action) -> State:
        return position(before, played)

    def judge(
        self, at: State, step: Mapping[str, Any], settings: Any, action: Action
    ) -> dict[str, Any]:
        known = [practice.Known(action_from_json(step["action"]), step["label"], step["win_after"])]
        known += [
            practice.Known(action_from_json(a["action"]), a["label"], a["win"], _bought(a))
            for a in step["alternatives"]
        ]
        return practice.judge(
            at, step["index"], settings, known, action, playouts=step.get("playouts")
        ).to_json()

    def continuation(self, state: State, plies: int, settings: Any, index: int) -> list[Action]:
        """The playouts' policy (:class:`PlayoutBot`, one per seat), seeded as the review
        seeds the step at ``index`` (W-6: it passes or spends a token when out of actions)."""
        seed = settings.seed * 100_003 + index
        bots = [PlayoutBot(seed * 7 + i) for i in range(len(state.boards))]
        line: list[Action] = []
        while len(line) < plies and not state.finished:
            action = bots[state.player].choose(state)
            state, _ = play(state, action)
            line.append(action)
        return line


def _bought(alternative: Mapping[str, Any]) -> tuple[Action, ...]:
    """A stored alternative's line when it spends a bonus action token first (else none)."""
    line = alternative.get("actions", ())
    return tuple(map(action_from_json, line)) if len(line) > 1 else ()


class Wolves:
    """The Wolves (Pandasaurus, 2022), rules contract W-1 … W-12."""

    name = "the-wolves"
    title = "The Wolves"
    rules_version = box.RULES_VERSION
    seats = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    review = WolvesReview()
    bots: Mapping[str, Callable[..., Bot]] = {
        "random": lambda seed: make_bot("random", seed),
        "heuristic": lambda seed: make_bot("heuristic", seed),
        "review": lambda seed, depth=None: make_bot("review", seed, depth),
    }
    statistics: Statistics = STATISTICS

    def read_record(self, doc: Mapping[str, Any]) -> Record:
        return read_record(doc)

    def write_record(self, record: Any) -> bytes:
        return write_record(record)

    def written_start(self, text: str) -> State:
        return written_start(text)

    def read_position(self, doc: Mapping[str, Any]) -> State:
        return from_position(doc)

    def write_position(self, state: State) -> dict[str, Any]:
        return to_position(state)

    def read_action(self, doc: Any, path: str = "") -> Action:
        return action_from_json(doc, path)

    def write_action(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def players(self, state: State) -> tuple[Seat, ...]:
        return tuple(Seat(p.name, p.color, p.bot, p.bot_depth) for p in state.table.players)

    def start(self, record: Any) -> State:
        return initial(record)

    def play(self, state: State, action: Action) -> tuple[State, Sequence[Event]]:
        return play(state, action)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def fold(self, state: State, events: Iterable[Event]) -> State:
        return fold(state, list(events))

    def legal_actions(self, state: State) -> Iterable[Action]:
        return legal_actions(state)

    def turn(self, state: State) -> int | None:
        return None if state.finished else state.player

    def finished(self, state: State) -> bool:
        return state.finished

    def scores(self, state: State) -> tuple[SeatScore, ...]:
        return seat_scores(final_scores(state))

    def score_json(self, state: State) -> dict[str, Any]:
        return {"scores": [dataclasses.asdict(s) for s in final_scores(state)]}

    def self_play(
        self, seats_: int, bots: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> Record:
        known = {f.name for f in dataclasses.fields(Options)}
        for name in options or {}:
            if name not in known:
                raise InvalidRecord(
                    "setup.options", f"no option {name!r}: W-12's are {', '.join(sorted(known))}"
                )
        setup = generate_setup(seats_, seed, read_options(dict(options or {}), "setup.options"))
        game = self_play(seats(seats_, seed), setup, list(bots), seed)
        return Record(
            players=game.players, setup=setup, actions=game.actions,
            rules_version=self.rules_version,
        )  # fmt: skip

    def move_options(self, state: State) -> dict[str, Any]:
        """What a Move may do now (W-6.1): each wolf's reachable hexes, and the ``spread``
        (wolves one Move may move) and ``speed`` of the seat to act."""
        board = state.boards[state.player]
        moves = [
            {"from": list(src), "wolf": kind, "to": [list(h) for h in dests]}
            for (src, kind), dests in move_destinations(state).items()
        ]
        return {"moves": moves, "spread": board.track("spread"), "speed": board.track("speed")}

    def describe(self, state: State) -> str:
        player = state.table.players[state.player].name
        if state.finished:
            now = "game over"
        elif state.drafting:
            now = f"draft pick {state.draft_picks + 1}, {player} to pick"
        else:
            left, tokens = state.actions_left, state.boards[state.player].bonus_action
            now = f"{player} to act ({left} action{'s' if left != 1 else ''} left"
            if state.out_of_actions:  # W-6: a token may still be spent, or the turn passed
                now += f", {tokens} bonus action token{'s' if tokens != 1 else ''} to spend or keep"
            now += ")"
        return f"Moonlight date {state.date}, {now}"

    def encode_event(self, event: Event) -> tuple[str, dict[str, Any]]:
        doc = codec.stored(event)
        return doc["type"], doc["data"]

    def decode_event(self, kind: str, data: Mapping[str, Any]) -> Event:
        return codec.from_stored(kind, data)

    def follow(self, names: Sequence[str], start: State) -> Follower:
        return WolvesFollower(names, start)

    def chart_item(self, key: str, item: Any) -> Any:
        return shown(key, item)


WOLVES = Wolves()
"""The Wolves' ruleset (registered in :mod:`domain.games`)."""
