"""What a player does, as written in a record (records.md "Actions")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from domain.hexes import Hex
from domain.wolves.components import Dominable, Track, WolfKind

ActionType = Literal["draft", "bonus_action", "move", "den", "lair", "howl", "dominate", "pass"]
"""An action's ``type`` in a record (records.md "Actions")."""


@dataclass(frozen=True, slots=True)
class Pay:
    """Payment as asked: tile slots and bonus terrain tokens; None means "complete it"."""

    tiles: tuple[int, ...] | None = None
    bonus_terrain: int | None = None


@dataclass(frozen=True, slots=True)
class WolfStep:
    """One wolf of a Move: from, to, which wolf, optional path and push destination."""

    src: Hex
    dst: Hex
    wolf: WolfKind | None = None
    path: tuple[Hex, ...] | None = None
    push_to: Hex | None = None


@dataclass(frozen=True, slots=True)
class Draft:
    """Place 1 alpha and 1 pack wolf on an empty hex (W-4.1)."""

    player: int
    hex: Hex
    type: ClassVar[Literal["draft"]] = "draft"


@dataclass(frozen=True, slots=True)
class BonusAction:
    """Spend a bonus action token for one more action this turn (W-6)."""

    player: int
    type: ClassVar[Literal["bonus_action"]] = "bonus_action"


@dataclass(frozen=True, slots=True)
class Move:
    """Move up to ``spread`` wolves, each up to ``speed`` steps (W-6.1)."""

    player: int
    steps: tuple[WolfStep, ...]
    pay: Pay = Pay()
    type: ClassVar[Literal["move"]] = "move"


@dataclass(frozen=True, slots=True)
class BuildDen:
    """Build a den on or next to an alpha, taking it from a track (W-6.2)."""

    player: int
    hex: Hex
    track: Track
    pay: Pay = Pay()
    type: ClassVar[Literal["den"]] = "den"


@dataclass(frozen=True, slots=True)
class UpgradeLair:
    """Replace one of your dens by a lair (W-6.3)."""

    player: int
    hex: Hex
    pay: Pay = Pay()
    push_to: Hex | None = None
    type: ClassVar[Literal["lair"]] = "lair"


@dataclass(frozen=True, slots=True)
class Howl:
    """Replace a lone wolf within howl range by your next pack-track wolf (W-6.4)."""

    player: int
    hex: Hex
    pay: Pay = Pay()
    type: ClassVar[Literal["howl"]] = "howl"


@dataclass(frozen=True, slots=True)
class Dominate:
    """Replace an enemy pack wolf or den within howl range by your own (W-6.5)."""

    player: int
    hex: Hex
    pay: Pay = Pay()
    piece: Dominable | None = None
    track: Track | None = None
    type: ClassVar[Literal["dominate"]] = "dominate"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn, forfeiting the actions left."""

    player: int
    type: ClassVar[Literal["pass"]] = "pass"


Action = Draft | BonusAction | Move | BuildDen | UpgradeLair | Howl | Dominate | Pass
