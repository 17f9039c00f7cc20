"""The state of a game of Moonlight at one moment: the table's stacks, each seat's cards,
rounds won and Alpha Power, the rounds scored so far, and whose turn it is.

A state is immutable: :mod:`domain.moonlight.evolve` returns a new one. Between two rounds
the table still shows the last round's cards (what its scoring read); the next round's
first action clears it.

>>> from domain.ruleset import Seat
>>> from domain.moonlight.cards import assumed_setup
>>> state = initial_state((Seat("Ana", "green"), Seat("Bo", "blue")), assumed_setup())
>>> state.phase, state.round, state.player, sum(state.packs[1].left)
(<Phase.BETWEEN: 'between'>, 1, 0, 11)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from domain.moonlight.cards import Card, Faces, Setup, deck_cards
from domain.moonlight.cells import Cell
from domain.moonlight.events import RoundPoints
from domain.ruleset import Seat

SEATS = 2
"""Moonlight is a game for two."""
WINS = 2
"""Rounds a seat must win to win the game (M-2, M-7)."""


class Phase(StrEnum):
    """Where a game is: between rounds (before the first, too), in a round, or over."""

    BETWEEN = "between"
    PLAYING = "playing"
    OVER = "over"


class Placed(NamedTuple):
    """A card on the table and the seat it belongs to."""

    player: int
    card: Card


Stack = tuple[Placed, ...]
"""The cards on one cell, bottom first: the last one is visible."""


@dataclass(frozen=True, slots=True)
class Table:
    """What does not change during a game: the seats, the setup and the cards' faces."""

    players: tuple[Seat, ...]
    setup: Setup
    faces: Faces


@dataclass(frozen=True, slots=True)
class Pack:
    """One seat's cards and standing.

    ``left`` counts, per kind of card (:data:`~domain.moonlight.cards.CARDS` order), the
    cards of the current (or last) round still in hand or deck. When the record gives the
    deck orders, ``hand`` and ``deck`` (top first) hold them; otherwise both are None.
    Before a seat's first round its deck is unshuffled (value order).
    """

    left: tuple[int, ...]
    hand: tuple[Card, ...] | None
    deck: tuple[Card, ...] | None
    lone_wolf: bool = False
    rounds_won: int = 0
    power: str | None = None

    @property
    def cards_left(self) -> int:
        """Cards still in hand or deck."""
        return sum(self.left)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A round scored: its number, both seats' points, and its winner (None: replayed)."""

    round: int
    seats: tuple[RoundPoints, RoundPoints]
    winner: int | None


@dataclass(frozen=True, slots=True)
class State:
    """A game position.

    ``starter`` is the seat that started the round in play or, between rounds, the one
    that starts the next round unless a ``round_start`` names another. ``player`` is the
    seat to act. ``last_turn`` is the seat taking the one more turn of M-4, and
    ``alpha_due`` the loser who still chooses an Alpha Power (M-6).
    """

    table: Table
    packs: tuple[Pack, Pack]
    cells: Mapping[Cell, Stack]
    phase: Phase = Phase.BETWEEN
    starter: int = 0
    player: int = 0
    last_turn: int | None = None
    alpha_due: int | None = None
    rounds: tuple[RoundResult, ...] = ()

    @property
    def finished(self) -> bool:
        """Whether a seat has won the game."""
        return self.phase is Phase.OVER

    @property
    def wins(self) -> int:
        """Rounds won so far, both seats together."""
        return self.packs[0].rounds_won + self.packs[1].rounds_won

    @property
    def round(self) -> int:
        """The number of the round in play; between rounds, of the next one; once the game
        is over, of the last one (a replayed round keeps its number)."""
        return self.wins if self.finished else self.wins + 1

    @property
    def played(self) -> int:
        """Rounds begun so far, replayed ones included (the index into ``setup.draws``)."""
        return len(self.rounds) + (self.phase is Phase.PLAYING)

    def visible(self, seat: int) -> int:
        """How many of a seat's cards are visible on the table."""
        return sum(1 for stack in self.cells.values() if stack[-1].player == seat)


def initial_state(players: tuple[Seat, ...], setup: Setup) -> State:
    """The state before round 1: an empty table, each seat's whole deck, seat 0 to start."""
    table = Table(tuple(players), setup, Faces.of(setup))
    known = setup.draws is not None
    pack = Pack(
        Faces.full(lone_wolf=False),
        () if known else None,
        tuple(deck_cards(lone_wolf=False)) if known else None,
    )
    return State(table, (pack, pack), {})
