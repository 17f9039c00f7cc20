"""The state of a game at one moment: pieces, tokens, player boards, Moonlight, turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from domain.hexes import Hex
from domain.wolves import components as box
from domain.wolves.components import (
    Dominable,
    LoneWolf,
    Phase,
    PieceKind,
    PreyType,
    Terrain,
    Track,
    WolfKind,
)
from domain.wolves.maps import GameMap, build_map
from domain.wolves.setup import Player, Setup


class Piece(NamedTuple):
    """A player piece on the map; ``player`` None is the two-player automaton pack."""

    player: int | None
    kind: PieceKind


Unknown = Literal["unknown"]
"""A piece on the Moonlight board that a position document does not name."""


class MoonlightPiece(NamedTuple):
    """A piece on the Moonlight board (W-7): a lone wolf, or the den or pack wolf that
    ``player`` lost to a lair or a Dominate; ``unknown`` when a position did not say."""

    kind: LoneWolf | Dominable | Unknown
    player: int | None = None


class PlayerBoard(NamedTuple):
    """One player's board (W-5): tiles flipped, tracks taken, prey, tokens, points won.

    A named tuple, as immutable as a frozen dataclass and made ten times faster: most
    events make a seat a new board."""

    flipped: tuple[bool, ...] = (False,) * 6
    dens: tuple[int, int, int] = (0, 0, 0)
    lairs: int = 0
    wolves: int = 0
    prey: tuple[PreyType, ...] = ()
    bonus_terrain: int = 0
    bonus_action: int = 0
    region_points: int = 0
    region_tokens: int = 0

    def track(self, name: Track) -> int:
        """Current strength of an attribute track (W-5)."""
        return box.TRACK_VALUES[name][self.dens[box.TRACKS.index(name)]]

    def dens_taken(self, name: Track) -> int:
        """Dens taken from one attribute track."""
        return self.dens[box.TRACKS.index(name)]

    def next_wolf(self) -> WolfKind | None:
        """Kind of the next pack-track wolf, or None when the track is empty."""
        return box.PACK_TRACK[self.wolves] if self.wolves < len(box.PACK_TRACK) else None


@dataclass(frozen=True, slots=True)
class Table:
    """What does not change during a game: players, setup, map and derived numbers."""

    players: tuple[Player, ...]
    setup: Setup
    map: GameMap
    phase_dates: tuple[int, int, int]
    draft_order: tuple[int, ...]

    @property
    def two_player(self) -> bool:
        """True in a two-player game (W-11 values apply)."""
        return len(self.players) == 2

    @property
    def start_tile_draft(self) -> bool:
        """Picks go on the start tile (3–5 players, or the two-player big map)."""
        return bool(self.map.side)

    @property
    def stall_limit(self) -> int | None:
        """Full rounds without a Moonlight advance that end the game (W-12); the big map
        implies ``BIG_MAP_STALL_LIMIT`` unless the record sets a limit."""
        options = self.setup.options
        if options.stall_limit_rounds is None and options.big_map and self.two_player:
            return box.BIG_MAP_STALL_LIMIT
        return options.stall_limit_rounds

    def terrain_showing(self, seat: int, slot: int, flipped: bool) -> Terrain:
        """The terrain a tile slot of a seat's board shows (slot 0 is the faction tile)."""
        if slot == 0:
            return self.players[seat].terrain
        front, back = self.setup.terrain_tiles[slot - 1]
        return back if flipped else front


@dataclass(slots=True)
class State:
    """A game position. Treat as immutable: ``evolve`` returns a new one."""

    table: Table
    pieces: dict[Hex, tuple[Piece, ...]]
    lone_wolves: frozenset[Hex]
    prey: dict[Hex, tuple[PreyType, int]]
    scoring: dict[int, tuple[Phase, ...]]
    boards: tuple[PlayerBoard, ...]
    moonlight: tuple[MoonlightPiece, ...] = ()
    player: int = 0
    actions_left: int = 0
    draft_picks: int = 0
    phases_scored: int = 0
    stalled_rounds: int = 0
    round_start_date: int = 0
    finished: bool = False

    def copy(self) -> State:
        """A copy whose containers can be changed without touching this state."""
        return State(
            self.table, dict(self.pieces), self.lone_wolves, dict(self.prey), dict(self.scoring),
            self.boards, self.moonlight, self.player, self.actions_left, self.draft_picks,
            self.phases_scored, self.stalled_rounds, self.round_start_date, self.finished,
        )  # fmt: skip

    @property
    def date(self) -> int:
        """The Moonlight date: pieces on the Moonlight board (W-7)."""
        return len(self.moonlight)

    @property
    def drafting(self) -> bool:
        """True until every seat has made both draft picks (W-4.1)."""
        return self.draft_picks < len(self.table.draft_order)

    @property
    def out_of_actions(self) -> bool:
        """True when the player to act has no action left in a turn not yet ended: they may
        still spend a bonus action token or pass (W-6)."""
        return not self.finished and not self.drafting and self.actions_left == 0

    def at(self, h: Hex) -> tuple[Piece, ...]:
        """Player pieces on a hex."""
        return self.pieces.get(h, ())

    def has_token(self, h: Hex) -> bool:
        """True when a lone wolf or a prey stack stands on the hex."""
        return h in self.lone_wolves or h in self.prey

    def showing(self, seat: int, slot: int) -> Terrain:
        """Terrain a tile slot of a seat currently shows."""
        return self.table.terrain_showing(seat, slot, self.boards[seat].flipped[slot])

    def wolves_of(self, seat: int) -> list[tuple[Hex, WolfKind]]:
        """Every wolf of a seat on the map as (hex, kind)."""
        return [
            (h, p.kind)
            for h, ps in self.pieces.items()
            for p in ps
            if p.player == seat and (p.kind == "alpha" or p.kind == "pack")
        ]

    def alphas_of(self, seat: int) -> list[Hex]:
        """Hexes of a seat's alphas (one entry per alpha)."""
        return [h for h, ps in self.pieces.items() for p in ps if p == (seat, "alpha")]


def new_table(players: tuple[Player, ...], setup: Setup) -> Table:
    """The static part of a game from its players and setup."""
    n = len(players)
    big = setup.options.big_map and n == 2
    dates = box.BIG_MAP_PHASE_DATES if big else box.PHASE_DATES[n]
    order = tuple(range(n)) + tuple(reversed(range(n)))
    return Table(players, setup, build_map(setup), dates, order)


def initial_state(players: tuple[Player, ...], setup: Setup) -> State:
    """The state before the draft (W-4): tokens placed, boards at start, automaton set."""
    table = new_table(players, setup)
    gmap = table.map
    lone = frozenset(h for h, m in gmap.markers.items() if m == box.LONE_WOLF)
    prey_of_region = _region_prey(setup)
    prey = {
        h: prey_of_region[gmap.region_of[h]]
        for h, m in gmap.markers.items()
        if m == box.PREY and prey_of_region.get(gmap.region_of.get(h, -1))
    }
    scoring = _region_scoring(setup)
    pieces: dict[Hex, tuple[Piece, ...]] = {}
    if table.two_player:
        for region, stack in scoring.items():
            water = gmap.water_of(region)
            for (ox, oy), kind in box.AUTOMATON.get(stack, ()):
                if water is not None:
                    h = (water[0] + ox, water[1] + oy)
                    pieces[h] = (*pieces.get(h, ()), Piece(None, kind))
    boards = tuple(
        PlayerBoard(bonus_action=1 if table.two_player and seat == 1 else 0)
        for seat in range(len(players))
    )
    return State(table, pieces, lone, prey, scoring, boards, player=table.draft_order[0])


def _region_prey(setup: Setup) -> dict[int, tuple[PreyType, int]]:
    if setup.custom_map is not None:
        return {r.id: r.prey for r in setup.custom_map.regions if r.prey}
    return {i: t.prey for i, t in enumerate(setup.tiles, start=1) if t.prey}


def _region_scoring(setup: Setup) -> dict[int, tuple[Phase, ...]]:
    if setup.custom_map is not None:
        return {r.id: r.scoring for r in setup.custom_map.regions}
    return {i: t.scoring for i, t in enumerate(setup.tiles, start=1)}
