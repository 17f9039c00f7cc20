"""Computer players — a random one and a greedy one, deterministic per seed — and
self-play.

Self-play deals real hands: as each round begins, each seat's deck is shuffled from the
game's seed and the order kept, so the bots choose from the cards they hold; the record
keeps the orders as ``setup.draws`` (or leaves them out on request, when the record is
checked by card counts only, M-2).

>>> game = self_play(("random", "greedy"), seed=5)
>>> game.state.finished, len(game.record.setup.draws) >= 2
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from domain.moonlight.actions import Action, AlphaPower, Place, RoundStart
from domain.moonlight.cards import Order, Setup, assumed_setup, deck_cards
from domain.moonlight.events import Event
from domain.moonlight.fields import MAX_ACTIONS
from domain.moonlight.legal import UNNAMED_POWER, placements
from domain.moonlight.records import Record
from domain.moonlight.rules import play
from domain.moonlight.scoring import score_round
from domain.moonlight.state import Phase, State, initial_state
from domain.ruleset import Seat

NAMES = ("Ana", "Bo")
COLORS = ("green", "blue")
SEATS = tuple(Seat(n, c) for n, c in zip(NAMES, COLORS, strict=True))
ROUND_WON = 100.0
"""What the greedy bot makes of a round won (or lost) by its placement, in points."""


class Bot(Protocol):
    """Anything that picks the next action for the seat to act."""

    def choose(self, state: State) -> Action:
        """The action to play in ``state``."""
        ...


def _power_or_none(state: State) -> Action | None:
    return None if state.alpha_due is None else AlphaPower(state.alpha_due, UNNAMED_POWER)


class RandomBot:
    """Places a card uniformly among its legal placements."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        """A random legal placement (or the Alpha Power choice it owes)."""
        return _power_or_none(state) or self.rng.choice(placements(state))


class GreedyBot:
    """Places the card that leaves the table scoring best for it now (ties: at random): a
    round its placement wins counts far more than any lead."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        """The placement with the best value after it (or the Alpha Power choice it owes)."""
        owed = _power_or_none(state)
        if owed is not None:
            return owed
        seat = state.player
        best: tuple[float, Place] | None = None
        for action in placements(state):
            after, _ = play(state, action)
            value = evaluate(state, after, seat) + self.rng.random() * 0.5
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None, "a seat to act always has a placement (M-3, M-4)"
        return best[1]


def evaluate(before: State, after: State, seat: int) -> float:
    """How good ``after`` is for ``seat``: the round's result when the move ended it,
    otherwise its points lead if the table were scored now."""
    if len(after.rounds) > len(before.rounds):
        winner = after.rounds[-1].winner
        return 0.0 if winner is None else (ROUND_WON if winner == seat else -ROUND_WON)
    points = score_round(after).seats
    return float(points[seat].points - points[1 - seat].points)


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(kind: str, seed: int) -> Bot:
    """A bot by name: ``random`` or ``greedy``."""
    if kind not in BOTS:
        raise ValueError(f"unknown player kind {kind!r}: use {' or '.join(BOTS)}")
    return BOTS[kind](seed)


@dataclass(frozen=True)
class SelfPlayGame:
    """A self-play game: its record, every event and its last state."""

    record: Record
    events: tuple[Event, ...]
    state: State


def self_play(
    kinds: Sequence[str],
    seed: int,
    setup: Setup | None = None,
    draws: bool = True,
    round_starts: bool = False,
) -> SelfPlayGame:
    """A whole game between bots of ``kinds`` (one per seat), the same for the same
    arguments. ``setup`` defaults to the assumed deck; ``draws`` keeps the deck orders in
    the record; ``round_starts`` names each round's starter (drawn at random) with a
    ``round_start`` action, as a record following another convention would."""
    rng = random.Random(seed)
    bots = [make_bot(kind, seed * 31 + i) for i, kind in enumerate(kinds)]
    base = setup or assumed_setup(seed)
    state = initial_state(SEATS, replace(base, draws=()))
    actions: list[Action] = []
    events: list[Event] = []
    while not state.finished and len(actions) < MAX_ACTIONS:
        if state.phase is Phase.BETWEEN and state.alpha_due is None:
            state = _shuffled(state, rng)
            if round_starts:
                action: Action = RoundStart(rng.randrange(2))
                state, caused = play(state, action)
                actions.append(action)
                events.extend(caused)
        action = bots[state.player].choose(state)
        state, caused = play(state, action)
        actions.append(action)
        events.extend(caused)
    orders = state.table.setup.draws if draws else None
    record = Record(players=SEATS, setup=replace(base, draws=orders), actions=tuple(actions))
    return SelfPlayGame(record, tuple(events), state)


def _shuffled(state: State, rng: random.Random) -> State:
    """``state`` with the coming round's deck orders added to its setup, unless there."""
    setup = state.table.setup
    draws = setup.draws or ()
    if len(draws) > state.played:
        return state
    orders: list[Order] = []
    for pack in state.packs:
        cards = deck_cards(pack.lone_wolf)
        rng.shuffle(cards)
        orders.append(tuple(cards))
    table = replace(state.table, setup=replace(setup, draws=(*draws, (orders[0], orders[1]))))
    return replace(state, table=table)
