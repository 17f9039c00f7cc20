"""A map laid by hand at a table: the player count's tile positions and what the box deals
onto them (W-3, W-4), the problems of a layout as it is entered, and the setup it makes.

A person copies the table position by position: the tile number printed on the tile (its
rotation follows from the position, W-3), its region scoring token(s) top first and its
prey stack. What the box holds bounds every choice: a tile number once (W-2), each token
stack and prey stack as often as the player count deals it (W-4.2, W-4.4).

>>> layout = table_layout(3)
>>> layout.start, layout.positions[1], layout.prey_count
((8, 9), ((4, 4), True), 2)
>>> four, five = LaidTile(4, ("full",), "hare"), LaidTile(5, ("full",), "hare")
>>> for found in problems(layout, [four, four, five]):
...     print(found.position, found.field, found.message)
2 tile tile 4 is already at position 1 (each tile once, W-2)
3 scoring the box holds 2 full tokens for 3 players (W-4.2): positions 1, 2 and 3 have one
3 prey the box holds 2 hare stacks for 3 players (W-4.4): positions 1, 2 and 3 have one
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from domain.hexes import Hex
from domain.wolves import components as box
from domain.wolves.components import Phase, PreyType
from domain.wolves.setup import Options, RegionTile, Setup, generate_setup, layout_for

Stack = tuple[Phase, ...]
"""A region's scoring tokens, top first (two on a two-player stack, W-4.2)."""


@dataclass(frozen=True, slots=True)
class TableLayout:
    """The tile positions of a player count (start tile centre or None, then each region
    position's centre and rotation, W-3) and the stacks the box deals onto them (W-4)."""

    players: int
    start: Hex | None
    positions: tuple[tuple[Hex, bool], ...]
    stacks: tuple[tuple[Stack, int], ...]
    """Each kind of scoring stack with how many the box deals, in phase order."""
    prey: tuple[tuple[PreyType, int], ...]
    """Each prey type with how many stacks the box deals."""
    prey_count: int
    """Tokens in one prey stack (one in two players, W-4.4)."""


@dataclass(frozen=True, slots=True)
class LaidTile:
    """One position as entered so far: tile number, scoring stack and prey type (each None
    until chosen)."""

    tile: int | None = None
    scoring: Stack | None = None
    prey: PreyType | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a position's ``field`` (``tile``, ``scoring`` or ``prey``) cannot be so; positions
    count from 1 as the page shows them."""

    position: int
    field: str
    message: str


def _stack_order(stack: Stack) -> tuple[int, ...]:
    return tuple(box.PHASES.index(p) for p in stack)


def table_layout(players: int, options: Options | None = None) -> TableLayout:
    """The layout and the box's stacks for ``players`` (2–5; ``big_map`` lays the
    three-player layout for two, W-12), as the engine's own dealer deals them."""
    options = options or Options()
    plain = dataclasses.replace(options, random_terrain=False, lone_wolves_per_region=2)
    dealt = generate_setup(players, 0, plain).tiles
    start, positions = layout_for(players, options)
    stacks = Counter(t.scoring for t in dealt)
    prey = Counter(t.prey for t in dealt if t.prey is not None)
    return TableLayout(
        players=players,
        start=start,
        positions=positions,
        stacks=tuple(sorted(stacks.items(), key=lambda kv: _stack_order(kv[0]))),
        prey=tuple(sorted(((kind, n) for (kind, _), n in prey.items()), key=_prey_order)),
        prey_count=max(count for _, count in prey),
    )


def _prey_order(entry: tuple[PreyType, int]) -> int:
    return box.PREY_TYPES.index(entry[0])


def _listed(numbers: Sequence[int]) -> str:
    """``1``, ``1 and 2``, ``1, 2 and 3``."""
    shown = [str(n) for n in numbers]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def stack_name(stack: Stack) -> str:
    """A scoring stack as people say it, top first: ``crescent on quarter``."""
    return " on ".join(stack)


def problems(layout: TableLayout, laid: Sequence[LaidTile]) -> list[Problem]:
    """What the box forbids in the positions entered so far (in position order): a tile
    number used twice (W-2), more of a scoring stack or a prey stack than the box deals for
    the player count (W-4.2, W-4.4), a stack or a prey type the box does not hold. Each
    problem is told at the position that broke the bound; unchosen fields are no problem."""
    found: list[Problem] = []
    at: dict[int, int] = {}
    stacks: dict[Stack, list[int]] = {}
    prey: dict[PreyType, list[int]] = {}
    allowed_stacks, allowed_prey = dict(layout.stacks), dict(layout.prey)
    n = layout.players
    for position, entry in enumerate(laid, start=1):
        if entry.tile is not None:
            if entry.tile not in box.TILE_TERRAINS:
                found.append(Problem(position, "tile", "a region tile is numbered 1 to 10 (W-2)"))
            elif entry.tile in at:
                message = f"tile {entry.tile} is already at position {at[entry.tile]}"
                found.append(Problem(position, "tile", f"{message} (each tile once, W-2)"))
            else:
                at[entry.tile] = position
        if entry.scoring is not None:
            held = stacks.setdefault(entry.scoring, [])
            held.append(position)
            most = allowed_stacks.get(entry.scoring, 0)
            if len(held) > most:
                name = stack_name(entry.scoring)
                what = f"{most} {name} token{'s' if most != 1 else ''}" if most else f"no {name}"
                found.append(Problem(
                    position, "scoring",
                    f"the box holds {what} for {n} players (W-4.2): "
                    f"position{'s' if len(held) > 1 else ''} {_listed(held)} "
                    f"{'have' if len(held) > 1 else 'has'} one",
                ))  # fmt: skip
        if entry.prey is not None:
            held = prey.setdefault(entry.prey, [])
            held.append(position)
            most = allowed_prey.get(entry.prey, 0)
            if len(held) > most:
                what = f"{most} {entry.prey} stack{'s' if most != 1 else ''}"
                found.append(Problem(
                    position, "prey",
                    f"the box holds {what} for {n} players (W-4.4): "
                    f"position{'s' if len(held) > 1 else ''} {_listed(held)} "
                    f"{'have' if len(held) > 1 else 'has'} one",
                ))  # fmt: skip
    return found


def laid_setup(layout: TableLayout, laid: Sequence[LaidTile], options: Options) -> Setup:
    """The setup of a fully entered layout: each position's tile at its centre and rotation
    (W-3) with its scoring stack and prey stack. ``ValueError`` naming the first position
    still incomplete or a position too many or too few."""
    if len(laid) != len(layout.positions):
        raise ValueError(f"{layout.players} players lay {len(layout.positions)} region tiles")
    tiles = []
    for position, (entry, (centre, rotated)) in enumerate(
        zip(laid, layout.positions, strict=True), start=1
    ):
        if entry.tile is None or entry.scoring is None or entry.prey is None:
            missing = [
                name
                for name, value in (("tile", entry.tile), ("scoring", entry.scoring),
                                    ("prey", entry.prey))
                if value is None
            ]  # fmt: skip
            raise ValueError(f"position {position} has no {' and no '.join(missing)} yet")
        prey = (entry.prey, layout.prey_count)
        tiles.append(RegionTile(entry.tile, centre, rotated, entry.scoring, prey))
    return Setup(options=options, start=layout.start, tiles=tuple(tiles))
