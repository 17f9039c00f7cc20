"""Domain events: what happened, in the past tense. Immutable; carry only facts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from domain.hexes import Hex
from domain.wolves.actions import ActionType
from domain.wolves.components import (
    BonusToken,
    Dominable,
    Phase,
    PieceKind,
    PreyType,
    Terrain,
    Track,
    WolfKind,
)

EndReason = Literal["full_moon", "stall"]
"""Why a game ended: the last phase was scored (W-7), or the Moonlight stalled (W-12)."""


@dataclass(frozen=True, slots=True)
class Paid:
    """A settled payment: tile slots flipped, bonus terrain tokens spent, terrain paid."""

    tiles: tuple[int, ...]
    bonus_terrain: int
    terrain: Terrain


@dataclass(frozen=True, slots=True)
class Moved:
    """One wolf's move within a Move action."""

    src: Hex
    dst: Hex
    kind: WolfKind


@dataclass(frozen=True, slots=True)
class Standing:
    """One contender's result in a region scoring (``seat`` None: the automaton)."""

    seat: int | None
    control: int
    alphas: int
    place: int | None  # 1, 2 or None (no points)
    points: int
    token: bool  # took the region scoring token


@dataclass(frozen=True, slots=True)
class FinalScore:
    """A seat's score with its breakdown and place (W-9; records.md ``howl score``)."""

    seat: int
    total: int
    regions: int
    spread: int
    speed: int
    howl: int
    lairs: int
    prey: int
    pack: int
    region_tokens: int
    wolves_on_map: int
    place: int


@dataclass(frozen=True, slots=True)
class WolvesDrafted:
    """A seat placed 1 alpha and 1 pack wolf (W-4.1)."""

    player: int
    hex: Hex


@dataclass(frozen=True, slots=True)
class BonusActionSpent:
    """A seat spent a bonus action token for one more action."""

    player: int


@dataclass(frozen=True, slots=True)
class WolvesMoved:
    """A Move action (W-6.1); pushes follow as their own events."""

    player: int
    paid: Paid
    moves: tuple[Moved, ...]


@dataclass(frozen=True, slots=True)
class WolfPushed:
    """A wolf of ``player`` was pushed from ``src`` to ``dst`` (W-6.6).

    Pushes follow the ``WolvesMoved`` or ``LairBuilt`` event that caused them and complete
    it: positions are read after a whole action's events, never between an event and its
    pushes.
    """

    player: int
    kind: WolfKind
    src: Hex
    dst: Hex


@dataclass(frozen=True, slots=True)
class DenBuilt:
    """A den was built, taken from ``track`` (W-6.2)."""

    player: int
    paid: Paid
    hex: Hex
    track: Track


@dataclass(frozen=True, slots=True)
class LairBuilt:
    """A den was upgraded to a lair; the den went to the Moonlight board (W-6.3)."""

    player: int
    paid: Paid
    hex: Hex


@dataclass(frozen=True, slots=True)
class LoneWolfHowled:
    """A lone wolf joined: token to Moonlight, the next pack-track wolf on its hex (W-6.4)."""

    player: int
    paid: Paid
    hex: Hex
    wolf: WolfKind


@dataclass(frozen=True, slots=True)
class PieceDominated:
    """An enemy ``piece`` went to Moonlight, replaced by ``replacement`` (W-6.5)."""

    player: int
    paid: Paid
    hex: Hex
    victim: int
    piece: Dominable
    replacement: PieceKind
    track: Track | None


@dataclass(frozen=True, slots=True)
class BonusTokenGained:
    """A seat gained a bonus ``action`` or ``terrain`` token."""

    player: int
    token: BonusToken


@dataclass(frozen=True, slots=True)
class PreyHunted:
    """A seat hunted the top prey token of the stack on ``hex`` (W-6.7)."""

    player: int
    hex: Hex
    prey: PreyType


@dataclass(frozen=True, slots=True)
class Passed:
    """A seat passed, forfeiting the actions left."""

    player: int


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """A turn ended; ``stalled_rounds`` counts full rounds without a Moonlight advance and
    ``tokens_left`` the bonus action tokens the player kept (W-6; 0 in games stored before
    rules version ``wolves-2``)."""

    player: int
    next_player: int
    stalled_rounds: int
    tokens_left: int = 0


@dataclass(frozen=True, slots=True)
class RegionScored:
    """A region's top token was scored in ``phase`` (W-8)."""

    phase: Phase
    region: int
    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class PhaseScored:
    """Every region of a phase has been scored (W-7)."""

    phase: Phase


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game ended (``full_moon`` or ``stall``) with these final scores (W-9)."""

    reason: EndReason
    scores: tuple[FinalScore, ...]


Event = (
    WolvesDrafted | BonusActionSpent | WolvesMoved | WolfPushed | DenBuilt | LairBuilt
    | LoneWolfHowled | PieceDominated | BonusTokenGained | PreyHunted | Passed | TurnEnded
    | RegionScored | PhaseScored | GameEnded
)  # fmt: skip

ActionEvent = (
    WolvesDrafted | BonusActionSpent | WolvesMoved | DenBuilt | LairBuilt | LoneWolfHowled
    | PieceDominated | Passed
)  # fmt: skip
"""The events that settle a player's action (the first of the events it caused)."""

ACTION_TYPES: dict[type[ActionEvent], ActionType] = {
    WolvesDrafted: "draft", BonusActionSpent: "bonus_action", WolvesMoved: "move",
    DenBuilt: "den", LairBuilt: "lair", LoneWolfHowled: "howl", PieceDominated: "dominate",
    Passed: "pass",
}  # fmt: skip
"""The record action type each action event settles."""
