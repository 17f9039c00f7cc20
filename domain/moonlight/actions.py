"""What a player does, as a Moonlight record writes it (rules reference, "Record format").

>>> Place(0, 3, (0, 0)).type, RoundStart(1).type, AlphaPower(1, "Howl").type
('place', 'round_start', 'alpha_power')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from domain.moonlight.cards import Card
from domain.moonlight.cells import Cell

ActionType = Literal["place", "round_start", "alpha_power"]


@dataclass(frozen=True, slots=True)
class Place:
    """Place ``card`` from the hand on ``cell``: an empty cell, or a cover of the
    opponent's visible card there (M-3)."""

    player: int
    card: Card
    cell: Cell
    type: ClassVar[ActionType] = "place"


@dataclass(frozen=True, slots=True)
class RoundStart:
    """Name ``player`` as the seat that starts the coming round (M-2: for records that
    follow another convention than the loser starting)."""

    player: int
    type: ClassVar[ActionType] = "round_start"


@dataclass(frozen=True, slots=True)
class AlphaPower:
    """The loser of a round chooses an Alpha Power, by name (M-6). Recorded only: the
    engine knows no power and applies no effect."""

    player: int
    power: str
    type: ClassVar[ActionType] = "alpha_power"


Action = Place | RoundStart | AlphaPower
"""Every Moonlight action."""
