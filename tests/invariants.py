"""Invariants every position of The Wolves keeps (W-5, W-6): checked after every event."""

from __future__ import annotations

from collections import Counter

from domain.wolves import State, final_scores
from domain.wolves import components as box


def snapshot(state: State) -> tuple[object, ...]:
    """Everything a state holds (its containers hold only immutable values)."""
    return (
        dict(state.pieces),
        state.lone_wolves,
        dict(state.prey),
        dict(state.scoring),
        state.boards,
        state.moonlight,
        state.player,
        state.actions_left,
        state.draft_picks,
        state.phases_scored,
        state.stalled_rounds,
        state.round_start_date,
        state.finished,
    )


def check_pieces(state: State) -> None:
    """Occupancy (W-6): ≤ 2 player pieces, ≤ 1 den/lair, no enemy pack/alpha pair, no token."""
    for h, here in state.pieces.items():
        assert state.table.map.is_land(h), h
        assert len(here) <= box.MAX_PIECES_PER_HEX, (h, here)
        assert sum(p.kind in ("den", "lair") for p in here) <= 1, (h, here)
        for kind in ("pack", "alpha"):
            assert len({p.player for p in here if p.kind == kind}) <= 1, (h, here)
        assert not state.has_token(h), (h, here)


def check_boards(state: State) -> None:
    """Piece conservation per seat and at most 2 tiles showing a non-home terrain (W-5)."""
    table = state.table
    on_moonlight = Counter(m.player for m in state.moonlight if m.player is not None)
    for seat, board in enumerate(state.boards):
        on_map = sum(p.player == seat for here in state.pieces.values() for p in here)
        drafted = table.draft_order[: state.draft_picks].count(seat)
        supply = (
            3 * box.DENS_PER_TRACK
            - sum(board.dens)
            + box.LAIRS
            - board.lairs
            + len(box.PACK_TRACK)
            - board.wolves
            + sum(box.START_WOLVES.values())
            - 2 * drafted
        )
        assert on_map + supply + on_moonlight[seat] == box.PIECES_PER_PLAYER, seat
        showing = Counter(state.showing(seat, slot) for slot in range(6))
        home = table.players[seat].terrain
        assert all(n <= 2 for t, n in showing.items() if t != home), showing
        assert min(board.bonus_terrain, board.bonus_action) >= 0
        assert len(set(board.prey)) == len(board.prey)
    assert state.date == len(state.moonlight)


def check_scores(state: State) -> None:
    """Each part of a score is read from its own place on the board and the W-5 tables."""
    two = state.table.two_player
    for s, board in zip(final_scores(state), state.boards, strict=True):
        tracks = [box.TRACK_VP[two][dens] for dens in board.dens]
        assert [s.spread, s.speed, s.howl] == tracks
        assert (s.lairs, s.pack) == (box.LAIR_VP[board.lairs], box.PACK_VP[board.wolves])
        assert s.prey == box.PREY_VP[two][len(board.prey)]
        assert (s.regions, s.region_tokens) == (board.region_points, board.region_tokens)
        assert s.total == s.regions + sum(tracks) + s.lairs + s.pack + s.prey
