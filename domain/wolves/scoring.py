"""Control, region scoring (W-8), board VP (W-5) and the final score (W-9)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter

from domain.wolves import components as box
from domain.wolves.events import FinalScore, RegionScored, Standing
from domain.wolves.state import Piece, PlayerBoard, State

AREAS = ("spread", "speed", "howl", "lairs", "prey", "pack")
"""The board areas that score VP (W-5), in :func:`area_vp`'s order."""


def area_vp(
    dens: Sequence[int], lairs: int, prey: int, wolves: int, two_player: bool
) -> tuple[int, int, int, int, int, int]:
    """VP of the spread, speed and howl tracks, the lairs, the prey and the pack (W-5), from
    the dens taken per track, lairs built, prey types hunted and pack-track wolves placed."""
    track_vp = box.TRACK_VP[two_player]
    return (
        track_vp[dens[0]], track_vp[dens[1]], track_vp[dens[2]], box.LAIR_VP[lairs],
        box.PREY_VP[two_player][prey], box.PACK_VP[wolves],
    )  # fmt: skip


def board_vp(board: PlayerBoard, two_player: bool) -> dict[str, int]:
    """Revealed VP per board area: the three tracks, lairs, prey and pack (W-5)."""
    vp = area_vp(board.dens, board.lairs, len(board.prey), board.wolves, two_player)
    return dict(zip(AREAS, vp, strict=True))


def places(keys: Sequence[tuple[int, int, int]]) -> list[int]:
    """Each seat's place from its (total, region tokens, wolves on map) by the W-9
    tie-breaks: 1 + how many seats rank above it (tied seats share a place).

    >>> places([(30, 1, 4), (30, 2, 0), (12, 0, 9), (30, 1, 4)])
    [2, 1, 4, 2]
    """
    ordered = sorted(keys, reverse=True)
    return [1 + ordered.index(key) for key in keys]


def control(state: State, region: int) -> dict[int | None, tuple[int, int]]:
    """Control and alphas per contender (seat, or None for the automaton) in a region: the
    sum of its hexes' (:func:`hex_control`)."""
    out: dict[int | None, tuple[int, int]] = {}
    pieces = state.pieces
    for h in state.table.map.region_hexes[region]:
        here = pieces.get(h)
        if here:
            for who, (c, a) in hex_control(here):
                held, alphas = out.get(who, (0, 0))
                out[who] = (held + c, alphas + a)
    return out


@lru_cache(maxsize=4096)
def hex_control(pieces: tuple[Piece, ...]) -> tuple[tuple[int | None, tuple[int, int]], ...]:
    """Control and alphas per contender of the pieces on one hex (W-8), as ``(contender,
    (control, alphas))`` pairs (cached: hexes hold the same few stacks)."""
    out: dict[int | None, tuple[int, int]] = {}
    for piece in pieces:
        c, a = out.get(piece.player, (0, 0))
        out[piece.player] = (c + box.CONTROL[piece.kind], a + (piece.kind == "alpha"))
    return tuple(out.items())


def rank(
    held: dict[int | None, tuple[int, int]],
) -> list[tuple[int | None, tuple[int, int]]]:
    """A region's contenders (:func:`control`) from first to last: by control, then alphas
    (W-8); contenders equal on both are tied."""
    return sorted(held.items(), key=itemgetter(1), reverse=True)


def leaders(ranked: Sequence[tuple[int | None, tuple[int, int]]]) -> list[int | None]:
    """The contenders first in a :func:`rank` (W-8): one leads alone, more are tied."""
    if not ranked:
        return []
    best = ranked[0][1]
    return [who for who, ca in ranked if ca == best]


def score_region(state: State, region: int, phase: str) -> RegionScored:
    """Who places first and second in a region for its top token (W-8)."""
    high, low = box.TOKEN_VALUES[phase]
    ranked = rank(control(state, region))
    places: dict[int | None, tuple[int | None, int, bool]] = {}
    if ranked:
        firsts = leaders(ranked)
        if len(firsts) > 1:
            places = {who: (1, low, False) for who in firsts}
        else:
            places[firsts[0]] = (1, high, True)
            rest = ranked[1:]
            if rest:
                seconds = [who for who, ca in rest if ca == rest[0][1]]
                if len(seconds) == 1:
                    places[seconds[0]] = (2, low, False)
    standings = []
    for who, (c, a) in ranked:
        place, points, token = places.get(who, (None, 0, False))
        if who is None:  # the automaton's points are discarded
            points, token = 0, False
        standings.append(Standing(who, c, a, place, points, token))
    return RegionScored(phase, region, tuple(standings))


def wolves_on_map(state: State, seat: int) -> int:
    """Alphas and pack wolves of a seat on the map."""
    return len(state.wolves_of(seat))


def final_scores(state: State) -> tuple[FinalScore, ...]:
    """Every seat's score, breakdown and place by the W-9 tie-breaks (current if unfinished)."""
    two = state.table.two_player
    return placed([
        seat_score(board, wolves_on_map(state, seat), two)
        for seat, board in enumerate(state.boards)
    ])  # fmt: skip


Unplaced = tuple[int, int, int, int, int, int, int, int, int, int]
"""A seat's score before places: ``FinalScore``'s fields from ``total`` to ``wolves_on_map``."""


def seat_score(board: PlayerBoard, wolves: int, two_player: bool) -> Unplaced:
    """A seat's total and breakdown from its board and its ``wolves`` on the map (W-5)."""
    vp = area_vp(board.dens, board.lairs, len(board.prey), board.wolves, two_player)
    return (board.region_points + sum(vp), board.region_points, *vp, board.region_tokens, wolves)


def placed(rows: Sequence[Unplaced]) -> tuple[FinalScore, ...]:
    """Every seat's score from its :func:`seat_score` (in seat order), with its place."""
    ranks = seat_places(rows)
    return tuple(FinalScore(seat, *row, ranks[seat]) for seat, row in enumerate(rows))


def seat_places(rows: Sequence[Unplaced]) -> list[int]:
    """Each seat's place from its :func:`seat_score` (in seat order) by the W-9 tie-breaks:
    total, then region tokens, then wolves on the map."""
    return places([(row[0], row[-2], row[-1]) for row in rows])
