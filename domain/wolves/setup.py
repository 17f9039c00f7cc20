"""The explicit setup of a game (W-3, W-4) and its generation from a seed."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from domain.hexes import Hex, distance
from domain.wolves import components as box
from domain.wolves.components import Ground, Marker, Phase, PreyType, Side, Terrain


@dataclass(frozen=True, slots=True)
class Options:
    """Digital-edition options (W-12); all off by default."""

    random_terrain: bool = False
    lone_wolves_per_region: int = 2
    big_map: bool = False
    stall_limit_rounds: int | None = None
    auto_push: bool = False


@dataclass(frozen=True, slots=True)
class Player:
    """A seat: display name, colour and home terrain (faction); ``bot`` and ``bot_depth``
    as :class:`~domain.ruleset.Seat`'s."""

    name: str
    color: str
    terrain: Terrain
    bot: str | None = None
    bot_depth: int | None = None


@dataclass(frozen=True, slots=True)
class RegionTile:
    """A region tile as dealt: number, centre, rotation, scoring stack (top first), prey."""

    tile: int
    center: Hex
    rotated: bool = False
    scoring: tuple[Phase, ...] = ()
    prey: tuple[PreyType, int] | None = None


@dataclass(frozen=True, slots=True)
class MapHex:
    """One hex of a custom map."""

    hex: Hex
    terrain: Ground
    region: int | None = None
    marker: Marker | None = None
    side: Side | None = None  # a half of a start tile (W-4.1 draft)


@dataclass(frozen=True, slots=True)
class MapRegion:
    """One region of a custom map: id, scoring stack (top first), prey stack."""

    id: int
    scoring: tuple[Phase, ...] = ()
    prey: tuple[PreyType, int] | None = None


@dataclass(frozen=True, slots=True)
class CustomMap:
    """An explicit map: any set of hexes with terrain, region and markers."""

    hexes: tuple[MapHex, ...]
    regions: tuple[MapRegion, ...]


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything a game starts from; a record's ``setup`` is authoritative over its seed."""

    seed: int | None = None
    options: Options = field(default_factory=Options)
    start: Hex | None = None
    tiles: tuple[RegionTile, ...] = ()
    custom_map: CustomMap | None = None
    terrain_tiles: tuple[tuple[Terrain, Terrain], ...] = box.DEFAULT_TERRAIN_TILES


def layout_for(players: int, options: Options) -> tuple[Hex | None, tuple[tuple[Hex, bool], ...]]:
    """Start tile centre and region positions for a player count (W-3, W-12 big map)."""
    if players == 2 and options.big_map:
        return box.LAYOUTS[3]
    return box.LAYOUTS[players]


def generate_setup(players: int, seed: int, options: Options | None = None) -> Setup:
    """Deal a random setup for 2–5 players, reproducible from ``seed`` (W-4).

    >>> generate_setup(3, seed=1).start
    (8, 9)
    """
    if not 2 <= players <= 5:
        raise ValueError(f"The Wolves is for 2 to 5 players, not {players}")
    options = options or Options()
    if options.big_map and players != 2:
        raise ValueError("big_map is a two-player option (W-12)")
    rng = random.Random(seed)
    start, positions = layout_for(players, options)
    count = len(positions)
    numbers = rng.sample(range(1, 11), count)
    stacks = _scoring_stacks(players, options, count)
    rng.shuffle(stacks)
    prey = list(_prey_stacks(players, options, count))
    rng.shuffle(prey)
    tiles = tuple(
        RegionTile(n, centre, rotated, stack, p)
        for n, (centre, rotated), stack, p in zip(numbers, positions, stacks, prey, strict=True)
    )
    if options.random_terrain or options.lone_wolves_per_region != 2:
        custom = _explicit_map(start, tiles, options, rng)
        return Setup(seed=seed, options=options, custom_map=custom)
    return Setup(seed=seed, options=options, start=start, tiles=tiles)


def _explicit_map(
    start: Hex | None, tiles: tuple[RegionTile, ...], options: Options, rng: random.Random
) -> CustomMap:
    """Write the dealt tiles out as a custom map, applying W-12's map options.

    ``random_terrain`` deals 3 hexes of each terrain per region; markers move to random
    hexes not next to the water source (so lair sites stay free). Extra lone wolves of
    ``lone_wolves_per_region`` go on random hexes of that kind too.
    """
    from domain.wolves.maps import tile_hexes  # maps imports this module

    hexes: list[MapHex] = []
    if start is not None:
        for (ox, oy), terrain, side in box.START_TILE:
            hexes.append(MapHex((start[0] + ox, start[1] + oy), terrain, side=side))
    regions = []
    for region, placed in enumerate(tiles, start=1):
        cells = tile_hexes(placed.tile, placed.center, placed.rotated)
        water = next(h for h, t, _ in cells if t == box.WATER)
        land = [(h, t, m) for h, t, m in cells if t != box.WATER]
        if options.random_terrain:
            terrains = [t for t in box.TERRAINS for _ in range(3)]
            rng.shuffle(terrains)
            land = [(h, t, None) for (h, _, _), t in zip(land, terrains, strict=True)]
        markers = {h: m for h, _, m in land if m}
        if options.random_terrain:
            markers = {}
        lone = [h for h, m in markers.items() if m == box.LONE_WOLF]
        for h in lone[options.lone_wolves_per_region :]:
            del markers[h]
        free = [h for h, _, _ in land if h not in markers and distance(h, water) > 1]
        rng.shuffle(free)
        wanted: list[Marker] = [box.LONE_WOLF] * (
            options.lone_wolves_per_region - min(len(lone), options.lone_wolves_per_region)
        )
        if box.PREY not in markers.values():
            wanted.append(box.PREY)
        for kind in wanted:
            markers[free.pop()] = kind
        hexes.append(MapHex(water, box.WATER, region))
        hexes.extend(MapHex(h, t, region, markers.get(h)) for h, t, _ in land)
        regions.append(MapRegion(region, placed.scoring, placed.prey))
    return CustomMap(tuple(hexes), tuple(regions))


def _scoring_stacks(players: int, options: Options, regions: int) -> list[tuple[Phase, ...]]:
    if players == 2 and options.big_map:
        # Decision: the big map adds one single quarter token to the two-player stacks.
        return [*box.SCORING_STACKS[2], ("quarter",)]
    stacks = list(box.SCORING_STACKS[players])
    assert len(stacks) == regions
    return stacks


def _prey_stacks(players: int, options: Options, regions: int) -> list[tuple[PreyType, int]]:
    if players == 2:
        singles = list(box.PREY_STACKS[2])
        return (singles * 2)[:regions]
    return list(box.PREY_STACKS[players])
