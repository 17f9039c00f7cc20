"""Control, region scoring (W-8), board VP (W-5) and the final score (W-9)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.wolves import components as box
from domain.wolves.components import Phase
from domain.wolves.events import FinalScore, RegionScored, Standing
from domain.wolves.state import PlayerBoard, State

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
    return [1 + sum(other > key for other in keys) for key in keys]


def control(state: State, region: int) -> dict[int | None, tuple[int, int]]:
    """Control and alphas per contender (seat, or None for the automaton) in a region."""
    out: dict[int | None, tuple[int, int]] = {}
    for h in state.table.map.region_hexes[region]:
        for piece in state.pieces.get(h, ()):
            c, a = out.get(piece.player, (0, 0))
            out[piece.player] = (c + box.CONTROL[piece.kind], a + (piece.kind == "alpha"))
    return out


def score_region(state: State, region: int, phase: Phase) -> RegionScored:
    """Who places first and second in a region for its top token (W-8)."""
    high, low = box.TOKEN_VALUES[phase]
    ranked = sorted(control(state, region).items(), key=lambda kv: kv[1], reverse=True)
    places: dict[int | None, tuple[int | None, int, bool]] = {}
    if ranked:
        best = ranked[0][1]
        firsts = [who for who, ca in ranked if ca == best]
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
    rows = []
    for seat, board in enumerate(state.boards):
        vp = board_vp(board, two)
        total = board.region_points + sum(vp.values())
        rows.append((seat, total, board, vp, wolves_on_map(state, seat)))
    placed = places([(total, b.region_tokens, w) for _, total, b, _, w in rows])
    return tuple(
        FinalScore(
            seat=seat,
            total=total,
            regions=board.region_points,
            region_tokens=board.region_tokens,
            wolves_on_map=wolves,
            place=placed[seat],
            **vp,
        )
        for seat, total, board, vp, wolves in rows
    )
