"""Control, region scoring (W-8), board VP (W-5) and the final score (W-9)."""

from __future__ import annotations

from collections import Counter

from domain.wolves import components as box
from domain.wolves.events import FinalScore, RegionScored, Standing
from domain.wolves.state import PlayerBoard, State


def board_vp(board: PlayerBoard, two_player: bool) -> dict[str, int]:
    """Revealed VP per board area: the three tracks, lairs, prey and pack (W-5)."""
    track_vp = box.TRACK_VP[two_player]
    return {
        "spread": track_vp[board.dens[0]],
        "speed": track_vp[board.dens[1]],
        "howl": track_vp[board.dens[2]],
        "lairs": box.LAIR_VP[board.lairs],
        "prey": box.PREY_VP[two_player][len(board.prey)],
        "pack": box.PACK_VP[board.wolves],
    }


def control(state: State, region: int) -> dict[int | None, tuple[int, int]]:
    """Control and alphas per contender (seat, or None for the automaton) in a region."""
    out: dict[int | None, tuple[int, int]] = {}
    for h in state.table.map.region_hexes[region]:
        for piece in state.pieces.get(h, ()):
            c, a = out.get(piece.player, (0, 0))
            out[piece.player] = (c + box.CONTROL[piece.kind], a + (piece.kind == "alpha"))
    return out


def score_region(state: State, region: int, phase: str) -> RegionScored:
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
    keys = {seat: (total, b.region_tokens, w) for seat, total, b, _, w in rows}
    above = Counter()
    for seat in keys:
        above[seat] = sum(1 for other in keys.values() if other > keys[seat])
    return tuple(
        FinalScore(
            seat=seat,
            total=total,
            regions=board.region_points,
            region_tokens=board.region_tokens,
            wolves_on_map=wolves,
            place=above[seat] + 1,
            **vp,
        )
        for seat, total, board, vp, wolves in rows
    )
