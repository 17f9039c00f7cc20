"""Domain events of Moonlight: what happened, in the past tense. Immutable; facts only.

One action causes a few events in order: a round's first card is preceded by
:class:`RoundStarted` (and the dealt cards when the record knows the draws), a placement
by the card it draws, a round's last card by :class:`RoundEnded`, :class:`RoundScored`,
then :class:`RoundWon` or :class:`RoundReplayed`, and what the win brings
(:class:`LoneWolfGained` or :class:`GameEnded`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from domain.moonlight.cards import Card
from domain.moonlight.cells import Cell

EndReason = Literal["rectangle_full", "last_card"]
"""Why a round ended (M-4): its 12 cells were filled, or a seat placed its last card and
the opponent took the one more turn that follows."""
Decider = Literal["points", "cards"]
"""What decided a round (M-5): more points, or on a tie of points more visible cards."""


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round began (M-2): the table was cleared, each seat shuffled its whole deck (with
    the Lone Wolf if held) and drew 3 cards; ``starter`` plays first. ``named`` is true
    when a ``round_start`` action named the starter."""

    round: int
    starter: int
    named: bool


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A seat drew the top card of its deck (only when the record gives ``setup.draws``)."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardPlaced:
    """A seat placed a card from its hand on an empty cell (M-3)."""

    player: int
    card: Card
    cell: Cell


@dataclass(frozen=True, slots=True)
class CardCovered:
    """A seat covered the opponent's visible ``covered`` card on ``cell`` (M-3)."""

    player: int
    card: Card
    cell: Cell
    covered: Card


@dataclass(frozen=True, slots=True)
class LastCardPlaced:
    """A seat placed its last card (hand and deck empty): the opponent takes one more
    turn, then the round ends (M-4)."""

    player: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round ended (M-4); its scoring follows."""

    round: int
    reason: EndReason


@dataclass(frozen=True, slots=True)
class RowResult:
    """One row of a round's scoring (M-5 step 2): each seat's sum and the winner (None on
    a tie, when every card of the row is ignored)."""

    y: int
    sums: tuple[int, int]
    winner: int | None


@dataclass(frozen=True, slots=True)
class RoundPoints:
    """A seat's points of one round (M-5, M-7): ``moons`` the moon-majority points (2 or
    0), ``cards`` one per visible card not ignored, ``threes`` one per 3 in a row the seat
    won, ``points`` their sum; ``moons_shown`` and ``visible`` count its visible moons and
    cards (the tie-break)."""

    points: int
    moons: int
    cards: int
    threes: int
    moons_shown: int
    visible: int


@dataclass(frozen=True, slots=True)
class RoundScored:
    """A round's scoring (M-5): both seats' points, each row with its winner, the cells
    whose cards step 3 ignored, and the corner cells whose 1 counted 3 in its row."""

    round: int
    seats: tuple[RoundPoints, RoundPoints]
    rows: tuple[RowResult, ...]
    ignored: tuple[Cell, ...]
    tripled: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class RoundWon:
    """A seat won the round (M-5), decided ``by`` points or by visible cards."""

    round: int
    player: int
    by: Decider


@dataclass(frozen=True, slots=True)
class RoundReplayed:
    """The round was tied on points and visible cards: it is played again, with the same
    number and the same starting seat; nobody gains the Lone Wolf or an Alpha Power (M-5)."""

    round: int


@dataclass(frozen=True, slots=True)
class LoneWolfGained:
    """The round's winner added the Lone Wolf to its deck (M-6; it has no power)."""

    player: int


@dataclass(frozen=True, slots=True)
class AlphaPowerChosen:
    """The round's loser chose an Alpha Power (M-6). Recorded only: the source names no
    power and no effect, so the engine applies none."""

    player: int
    power: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A seat won its second round and the game (M-7)."""

    winner: int


Event = (
    RoundStarted | CardDrawn | CardPlaced | CardCovered | LastCardPlaced | RoundEnded
    | RoundScored | RoundWon | RoundReplayed | LoneWolfGained | AlphaPowerChosen | GameEnded
)  # fmt: skip
"""Every Moonlight event."""
