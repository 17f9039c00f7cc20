"""W-5 player board: tracks, bonus tokens, VP rows, lairs, pack track, prey."""

from __future__ import annotations

import pytest

from domain.wolves import BuildDen, Howl, PlayerBoard, board_vp, final_scores
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.components import BonusToken, Track
from tests.rules.scenario import grid_map, illegal, of_type, run, scenario, set_board

#   x: 0  1  2  3  4
OPEN = grid_map(
    "g1 g1 g1 g1 g1",  # y=0
    "g1 g1 g1 g1 g1",  # y=1   seat 0's alpha on (2, 1)
    "g1 g1 g1 g1 g1",  # y=2
    "g1 g1 g1 g1 g1",  # y=3
)
ALPHA = (2, 1)
AROUND = [(2, 1), (2, 0), (3, 1), (3, 2), (2, 2), (1, 1), (1, 0)]  # the alpha's hex and its ring


def build_four_dens(track: Track, seats: int) -> tuple[list[int], list[BonusToken | None]]:
    """Track value after each den and the bonus token each den gave."""
    state = scenario(OPEN, seats=seats, pieces={ALPHA: "A0"}, tokens=8, actions_left=9)
    values, bonuses = [state.boards[0].track(track)], []
    for h in AROUND[1:5]:
        state, events = run(state, BuildDen(0, h, track))
        gained = of_type(events, ev.BonusTokenGained)
        bonuses.append(gained[0].token if gained else None)
        values.append(state.boards[0].track(track))
    illegal(state, BuildDen(0, AROUND[5], track), "W-6.2", f"no den left on the {track} track")
    return values, bonuses


@pytest.mark.parametrize(
    ("track", "values", "bonus_3_5p", "bonus_2p"),
    [
        ("spread", [2, 3, 3, 4, 4], ["action", "terrain"], ["action", "terrain"]),
        ("speed", [3, 4, 4, 5, 5], ["terrain", "action"], ["action", "terrain"]),
        ("howl", [2, 3, 3, 4, 4], ["terrain", "action"], ["action", "terrain"]),
    ],
)
def test_w5_attribute_track_values_and_bonus_tokens(
    track: Track, values: list[int], bonus_3_5p: list[str], bonus_2p: list[str]
) -> None:
    for seats, second_fourth in ((3, bonus_3_5p), (5, bonus_3_5p), (2, bonus_2p)):
        got_values, bonuses = build_four_dens(track, seats)
        assert got_values == values
        assert bonuses == [None, second_fourth[0], None, second_fourth[1]], seats


def test_w5_bonus_tokens_land_on_the_board() -> None:
    state = scenario(OPEN, pieces={ALPHA: "A0"}, tokens=4, actions_left=9)
    state, _ = run(state, *(BuildDen(0, h, "speed") for h in AROUND[:2]))
    # 1st den: the grassland tile (slot 3) + 1 token; 2nd: 2 tokens; the 2nd speed den gives 1
    assert state.boards[0].flipped == (False, False, False, True, False, False)
    assert (state.boards[0].bonus_terrain, state.boards[0].bonus_action) == (4 - 3 + 1, 0)
    set_board(state, 0, bonus_terrain=4)
    state, _ = run(state, *(BuildDen(0, h, "spread") for h in AROUND[2:4]))
    assert state.boards[0].bonus_action == 1


@pytest.mark.parametrize(("two", "row"), [(False, [0, 0, 0, 3, 7]), (True, [0, 0, 0, 2, 5])])
def test_w5_attribute_track_vp(two: bool, row: list[int]) -> None:
    for i, track in enumerate(box.TRACKS):
        got = []
        for taken in range(5):
            spread, speed, howl = (taken if j == i else 0 for j in range(3))
            got.append(board_vp(PlayerBoard(dens=(spread, speed, howl)), two)[track])
        assert got == row, track


def test_w5_lair_pack_and_prey_vp_rows() -> None:
    assert [board_vp(PlayerBoard(lairs=k), False)["lairs"] for k in range(5)] == [0, 5, 10, 15, 20]
    pack = [board_vp(PlayerBoard(wolves=k), False)["pack"] for k in range(9)]
    assert pack == [0, 1, 2, 3, 4, 6, 8, 10, 12]
    prey = box.PREY_TYPES
    assert [board_vp(PlayerBoard(prey=prey[:k]), False)["prey"] for k in range(6)] == [
        0,
        1,
        4,
        9,
        16,
        25,
    ]
    assert [board_vp(PlayerBoard(prey=prey[:k]), True)["prey"] for k in range(6)] == [
        0,
        2,
        5,
        9,
        14,
        20,
    ]


@pytest.mark.parametrize(("two", "best"), [(False, 78), (True, 67)])
def test_w5_board_maximum(two: bool, best: int) -> None:
    full = PlayerBoard(dens=(4, 4, 4), lairs=4, wolves=8, prey=box.PREY_TYPES)
    assert sum(board_vp(full, two).values()) == best


def test_w5_board_vp_is_the_sum_of_the_highest_revealed_values() -> None:
    state = scenario(OPEN, pieces={ALPHA: "A0"})
    set_board(state, 0, dens=(3, 4, 1), lairs=2, wolves=5, prey=("deer", "hare"), region_points=6)
    score = final_scores(state)[0]
    assert (score.spread, score.speed, score.howl, score.lairs, score.pack, score.prey) == (
        3,
        7,
        0,
        10,
        6,
        4,
    )
    assert score.total == 6 + 3 + 7 + 10 + 6 + 4


def test_w5_pack_track_order_alphas_third_and_sixth() -> None:
    ring2 = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 1), (4, 2), (3, 3), (2, 3), (1, 2)]
    state = scenario(OPEN, pieces={ALPHA: "A0"}, lone=ring2, tokens=20, actions_left=12)
    kinds = []
    for h in ring2[:8]:
        state, events = run(state, Howl(0, h))
        kinds.append(of_type(events, ev.LoneWolfHowled)[0].wolf)
    assert kinds == ["pack", "pack", "alpha", "pack", "pack", "alpha", "pack", "pack"]
    assert state.boards[0].wolves == 8
    illegal(state, Howl(0, ring2[8]), "W-6.4", "seat 0 (P0)'s pack track is empty")


def test_w5_supply_at_start() -> None:
    assert box.PIECES_PER_PLAYER == 2 + 2 + 12 + 4 + 8
    board = PlayerBoard()
    assert (board.dens, board.lairs, board.wolves, board.prey) == ((0, 0, 0), 0, 0, ())
    assert (board.bonus_terrain, board.bonus_action) == (0, 0)
    assert board.next_wolf() == "pack"
