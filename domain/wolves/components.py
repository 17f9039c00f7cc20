"""What is in the box: terrains, tiles, layouts, track values and scoring numbers (W-2 … W-11).

The game's words are types: each ``Literal`` alias names the strings a record, a position
and an event may hold, and its tuple (``TERRAINS``, ``TRACKS``, …) lists them in order.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from domain.hexes import Hex

Terrain = Literal["forest", "mountain", "grassland", "tundra", "desert"]
"""A land terrain: a home terrain, a tile side, a hex wolves may stand on."""
Water = Literal["water"]
Chasm = Literal["chasm"]
Ground = Terrain | Water | Chasm
"""What a hex of the map is: land, a water source or the start tile's chasm (W-2)."""
PreyType = Literal["deer", "boar", "raccoon", "hare", "moose"]
Track = Literal["spread", "speed", "howl"]
"""An attribute track of a player board (W-5)."""
Phase = Literal["crescent", "quarter", "full"]
"""A Moonlight phase, and the region scoring token scored in it (W-7, W-8)."""
WolfKind = Literal["alpha", "pack"]
PieceKind = Literal["alpha", "pack", "den", "lair"]
"""A player piece on the map (W-6 hierarchy: den < pack < alpha < lair)."""
Dominable = Literal["pack", "den"]
"""An enemy piece a Dominate may replace (W-6.5)."""
LoneWolf = Literal["lone_wolf"]
Prey = Literal["prey"]
Marker = LoneWolf | Prey
"""A token space printed on a region tile (W-2)."""
Side = Literal["north", "south"]
"""A half of the start tile (W-4.1 draft)."""
BonusToken = Literal["action", "terrain"]
"""A bonus token a seat may gain (W-5, W-6.7)."""

TERRAINS: Final[tuple[Terrain, ...]] = get_args(Terrain)
PREY_TYPES: Final[tuple[PreyType, ...]] = get_args(PreyType)
TRACKS: Final[tuple[Track, ...]] = get_args(Track)
PHASES: Final[tuple[Phase, ...]] = get_args(Phase)
WOLF_KINDS: Final[tuple[WolfKind, ...]] = get_args(WolfKind)
PIECE_KINDS: Final[tuple[PieceKind, ...]] = get_args(PieceKind)
DOMINABLE: Final[tuple[Dominable, ...]] = get_args(Dominable)
MARKERS: Final[tuple[Marker, ...]] = (*get_args(LoneWolf), *get_args(Prey))
SIDES: Final[tuple[Side, ...]] = get_args(Side)
WATER: Final[Water] = "water"
CHASM: Final[Chasm] = "chasm"
GROUNDS: Final[tuple[Ground, ...]] = (*TERRAINS, WATER, CHASM)

LONE_WOLF: Final[LoneWolf] = "lone_wolf"
PREY: Final[Prey] = "prey"

# W-2: region tile offsets -> terrain group (0..4), "water", plus marker.
REGION_TILE: Final[tuple[tuple[Hex, int | Water, Marker | None], ...]] = (
    ((-3, -2), 0, None), ((-2, -2), 0, None), ((-1, -2), 0, LONE_WOLF),
    ((-3, -1), 1, None), ((-3, 0), 1, None), ((-2, 0), 1, None),
    ((-2, -1), 2, PREY), ((-1, -1), 2, None), ((-1, 0), 2, None),
    ((0, -1), 3, None), ((1, -1), 3, None), ((1, 0), 3, None),
    ((0, 0), WATER, None),
    ((0, 1), 4, None), ((1, 1), 4, None), ((-1, 1), 4, LONE_WOLF),
)  # fmt: skip

# W-2: terrain of groups G0..G4 for region tiles 1..10.
TILE_TERRAINS: Final[dict[int, tuple[Terrain, Terrain, Terrain, Terrain, Terrain]]] = {
    1: ("grassland", "forest", "tundra", "mountain", "desert"),
    2: ("mountain", "forest", "grassland", "tundra", "desert"),
    3: ("forest", "grassland", "desert", "mountain", "tundra"),
    4: ("grassland", "desert", "tundra", "forest", "mountain"),
    5: ("desert", "tundra", "mountain", "grassland", "forest"),
    6: ("desert", "mountain", "grassland", "tundra", "forest"),
    7: ("tundra", "mountain", "forest", "desert", "grassland"),
    8: ("forest", "tundra", "desert", "grassland", "mountain"),
    9: ("mountain", "grassland", "forest", "desert", "tundra"),
    10: ("tundra", "desert", "mountain", "forest", "grassland"),
}

# W-2: start tile offsets -> terrain, side ("north"/"south"; None for chasm).
START_TILE: Final[tuple[tuple[Hex, Ground, Side | None], ...]] = (
    ((-3, -2), "tundra", "north"), ((-2, -2), "mountain", "north"),
    ((-1, -2), "desert", "north"), ((0, -1), "grassland", "north"),
    ((1, -1), "forest", "north"),
    ((-3, -1), CHASM, None), ((-2, -1), CHASM, None), ((-1, -1), CHASM, None),
    ((-1, 0), CHASM, None), ((0, 0), CHASM, None), ((1, 0), CHASM, None),
    ((-3, 0), "desert", "south"), ((-2, 0), "grassland", "south"),
    ((-1, 1), "forest", "south"), ((0, 1), "tundra", "south"),
    ((1, 1), "mountain", "south"),
)  # fmt: skip

# W-3: (start tile centre or None, region tile positions as (centre, rotated)).
LAYOUTS: Final[dict[int, tuple[Hex | None, tuple[tuple[Hex, bool], ...]]]] = {
    2: (None, (((8, 9), False), ((6, 5), False), ((3, 7), False), ((10, 13), False),
               ((13, 11), False))),
    3: ((8, 9), (((11, 7), False), ((4, 4), True), ((1, 6), True), ((5, 11), False),
                 ((8, 12), True), ((13, 11), False))),
    4: ((10, 10), (((13, 8), False), ((6, 5), True), ((3, 4), False), ((3, 7), True),
                   ((7, 12), False), ((10, 13), True), ((17, 16), False), ((15, 12), False))),
    5: ((10, 13), (((13, 11), False), ((9, 6), True), ((6, 8), True), ((3, 7), False),
                   ((3, 10), True), ((7, 15), False), ((9, 19), False), ((10, 16), True),
                   ((17, 19), False), ((15, 15), False))),
}  # fmt: skip

# W-4.2: region scoring tokens per player count (each entry one region's stack, top first).
SCORING_STACKS: Final[dict[int, tuple[tuple[Phase, ...], ...]]] = {
    2: (("crescent",), ("full",), ("full",), ("crescent", "quarter"), ("quarter", "full")),
    3: (("crescent",),) * 2 + (("quarter",),) * 2 + (("full",),) * 2,
    4: (("crescent",),) * 2 + (("quarter",),) * 3 + (("full",),) * 3,
    5: (("crescent",),) * 3 + (("quarter",),) * 4 + (("full",),) * 3,
}

# W-4.4: prey stacks per player count as (type, count).
PREY_STACKS: Final[dict[int, tuple[tuple[PreyType, int], ...]]] = {
    2: tuple((p, 1) for p in PREY_TYPES),
    3: (("hare", 2), ("hare", 2), ("boar", 2), ("deer", 2), ("moose", 2), ("raccoon", 2)),
    4: (("hare", 2), ("hare", 2), ("boar", 2), ("boar", 2), ("raccoon", 2), ("raccoon", 2),
        ("deer", 2), ("moose", 2)),
    5: tuple((p, 2) for p in PREY_TYPES for _ in range(2)),
}  # fmt: skip

# W-5: attribute tracks; value index = dens taken from that track.
TRACK_VALUES: Final[dict[Track, tuple[int, ...]]] = {
    "spread": (2, 3, 3, 4, 4),
    "speed": (3, 4, 4, 5, 5),
    "howl": (2, 3, 3, 4, 4),
}
DENS_PER_TRACK: Final = 4
# Bonus token for taking the 2nd and 4th den of a track: (3-5 players, 2 players).
TRACK_BONUS: Final[dict[Track, dict[int, tuple[BonusToken, BonusToken]]]] = {
    "spread": {2: ("action", "action"), 4: ("terrain", "terrain")},
    "speed": {2: ("terrain", "action"), 4: ("action", "terrain")},
    "howl": {2: ("terrain", "action"), 4: ("action", "terrain")},
}
TRACK_VP: Final[dict[bool, tuple[int, ...]]] = {  # key: two-player game
    False: (0, 0, 0, 3, 7),
    True: (0, 0, 0, 2, 5),
}
LAIRS: Final = 4
LAIR_VP: Final = (0, 5, 10, 15, 20)
PACK_TRACK: Final[tuple[WolfKind, ...]] = (
    "pack", "pack", "alpha", "pack", "pack", "alpha", "pack", "pack",
)  # fmt: skip
PACK_VP: Final = (0, 1, 2, 3, 4, 6, 8, 10, 12)
PREY_VP: Final[dict[bool, tuple[int, ...]]] = {
    False: (0, 1, 4, 9, 16, 25),
    True: (0, 2, 5, 9, 14, 20),
}
START_WOLVES: Final[dict[WolfKind, int]] = {"alpha": 2, "pack": 2}
PIECES_PER_PLAYER: Final = 2 + 2 + 3 * DENS_PER_TRACK + LAIRS + len(PACK_TRACK)

# W-6: action costs in terrain.
COSTS: Final = {"move": 1, "den": 2, "lair": 2, "howl": 2, "dominate": 3}
ACTIONS_PER_TURN: Final = 2

# W-6 occupancy: hierarchy rank of player pieces.
RANK: Final[dict[PieceKind, int]] = {"den": 0, "pack": 1, "alpha": 2, "lair": 3}
CONTROL: Final[dict[PieceKind, int]] = {"pack": 1, "alpha": 1, "den": 1, "lair": 3}
MAX_PIECES_PER_HEX: Final = 2

# W-7: phase dates by player count (and the two-player big map).
PHASE_DATES: Final[dict[int, tuple[int, int, int]]] = {
    2: (7, 13, 18),
    3: (9, 17, 22),
    4: (11, 20, 26),
    5: (13, 23, 30),
}
BIG_MAP_PHASE_DATES: Final = (9, 17, 22)
BIG_MAP_STALL_LIMIT: Final = 10  # W-12: the big map's stall limit unless a record sets one

# W-8: (first, second) values per scoring token.
TOKEN_VALUES: Final[dict[Phase, tuple[int, int]]] = {
    "crescent": (4, 2), "quarter": (6, 3), "full": (8, 4),
}  # fmt: skip

# W-11: automaton pack by the region's token stack (hex offset from the water, kind).
AUTOMATON: Final[dict[tuple[Phase, ...], tuple[tuple[Hex, PieceKind], ...]]] = {
    ("crescent",): (((1, 0), "pack"), ((1, 0), "pack")),
    ("crescent", "quarter"): (((1, 0), "lair"),),
    ("full",): (((1, 0), "lair"), ((1, 0), "alpha")),
    ("quarter", "full"): (((1, 0), "lair"), ((1, 1), "alpha"), ((1, 1), "alpha")),
}

# W-5: default double-sided terrain tiles, slot i showing T[i-1] front, T[i] back.
DEFAULT_TERRAIN_TILES: Final[tuple[tuple[Terrain, Terrain], ...]] = tuple(
    (TERRAINS[i], TERRAINS[(i + 1) % len(TERRAINS)]) for i in range(len(TERRAINS))
)

# The engine's rules version: stored with every game; bump it whenever a change to the
# engine could change the events or result of an existing record.
RULES_VERSION: Final = "wolves-2"
