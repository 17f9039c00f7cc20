"""Scenario builders for the rule tests: tiny custom maps, pieces and boards set directly.

A map is drawn row by row (``y`` = 0, 1, …), one cell per ``x``: a terrain letter and a
region digit, ``.`` for no hex. Terrain letters: ``f`` forest, ``m`` mountain,
``g`` grassland, ``t`` tundra, ``d`` desert, ``~`` water, ``#`` chasm; region ``-`` means
no region (like the start tile)::

    grid_map("g1 g1 g1",
             "g1 ~1 g1")   # (0, 0) (1, 0) (2, 0) / (0, 1) (1, 1)=water (2, 1)

Pieces are written ``"A0 P1"``: kind letter (``A`` alpha, ``P`` pack wolf, ``D`` den,
``L`` lair) and seat digit, or ``X`` for the two-player automaton pack.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any, TypeVar

from domain.hexes import Hex
from domain.wolves import (
    Options,
    Player,
    Setup,
    State,
    initial_state,
    play,
)
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.components import Ground, Phase, PieceKind, PreyType, Terrain
from domain.wolves.setup import CustomMap, MapHex, MapRegion
from domain.wolves.state import Piece
from tests.plays import played, refused

TERRAIN: dict[str, Ground] = {
    "f": "forest",
    "m": "mountain",
    "g": "grassland",
    "t": "tundra",
    "d": "desert",
    "~": box.WATER,
    "#": box.CHASM,
}
KIND: dict[str, PieceKind] = {"A": "alpha", "P": "pack", "D": "den", "L": "lair"}
COLOURS = ("blue", "red", "yellow", "green", "purple")
HOMES: tuple[Terrain, ...] = ("forest", "tundra", "desert", "mountain", "grassland")
E = TypeVar("E")


def grid_map(
    *rows: str,
    scoring: Mapping[int, tuple[Phase, ...]] | None = None,
    lone: Iterable[Hex] = (),
    prey: Mapping[Hex, tuple[PreyType, int]] | None = None,
) -> CustomMap:
    """A custom map drawn as rows of cells (see the module docstring).

    ``scoring`` gives region stacks (default: one ``quarter`` each), ``lone`` the
    lone-wolf spaces, ``prey`` the prey space of a region and its stack.
    """
    prey = dict(prey or {})
    cells: dict[Hex, tuple[Ground, int | None]] = {}
    for y, row in enumerate(rows):
        for x, cell in enumerate(row.split()):
            if cell != ".":
                cells[(x, y)] = (TERRAIN[cell[0]], None if cell[1] == "-" else int(cell[1]))
    lone = set(lone)
    marker = {h: box.LONE_WOLF for h in lone} | {h: box.PREY for h in prey}
    hexes = tuple(MapHex(h, t, r, marker.get(h)) for h, (t, r) in cells.items())
    region_ids = sorted({r for _, r in cells.values() if r is not None})
    prey_of = {cells[h][1]: stack for h, stack in prey.items()}
    stacks = dict(scoring or {})
    regions = tuple(MapRegion(r, stacks.get(r, ("quarter",)), prey_of.get(r)) for r in region_ids)
    return CustomMap(hexes, regions)


def players(n: int, homes: tuple[Terrain, ...] = HOMES) -> tuple[Player, ...]:
    """Seats P0 … P(n-1); seat 0 is at home in forest, seat 1 in tundra, seat 2 in desert…"""
    return tuple(Player(f"P{i}", COLOURS[i], homes[i]) for i in range(n))


def pieces_of(text: str) -> tuple[Piece, ...]:
    """``"A0 P1"`` → (alpha of seat 0, pack wolf of seat 1); ``X`` is the automaton."""
    return tuple(Piece(None if w[1] == "X" else int(w[1]), KIND[w[0]]) for w in text.split())


def scenario(
    cmap: CustomMap,
    *,
    seats: int = 3,
    pieces: Mapping[Hex, str] | None = None,
    lone: Iterable[Hex] | None = None,
    player: int = 0,
    actions_left: int = 2,
    tokens: int = 0,
    homes: tuple[Terrain, ...] = HOMES,
    options: Options | None = None,
) -> State:
    """A state after the draft on ``cmap``: exactly ``pieces`` on the map, seat ``player`` to act.

    Lone wolves stand on the map's lone-wolf spaces unless ``lone`` is given; every seat
    holds ``tokens`` bonus terrain tokens.
    """
    setup = Setup(custom_map=cmap, options=options or Options())
    state = initial_state(players(seats, homes), setup)
    state.pieces = {h: pieces_of(text) for h, text in (pieces or {}).items()}
    if lone is not None:
        state.lone_wolves = frozenset(lone)
    state.draft_picks = len(state.table.draft_order)
    state.player = player
    state.actions_left = actions_left
    state.boards = tuple(b._replace(bonus_terrain=tokens, bonus_action=0) for b in state.boards)
    return state


def set_board(state: State, seat: int, **changes: Any) -> State:
    """Change fields of one seat's board in place (``PlayerBoard._replace``); return the state."""
    boards = list(state.boards)
    boards[seat] = boards[seat]._replace(**changes)
    state.boards = tuple(boards)
    return state


def flipped(*slots: int) -> tuple[bool, ...]:
    """A ``flipped`` row with the given tile slots turned to their back."""
    return tuple(i in slots for i in range(6))


illegal = partial(refused, play)
"""``illegal(state, action, rule, *words)``: assert the rules refuse ``action`` under ``rule``."""
run = partial(played, play)
"""``run(state, *actions)``: the state after ``actions`` and every event they caused."""


def of_type(events: Iterable[ev.Event], kind: type[E]) -> list[E]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]
