"""W-6.1 … W-6.7: each action's legal and illegal sides, with the failing hex or number named."""

from __future__ import annotations

import pytest

from domain.wolves import (
    BuildDen,
    Dominate,
    Howl,
    Move,
    Options,
    Pay,
    UpgradeLair,
    WolfStep,
    play,
)
from domain.wolves import events as ev
from domain.wolves.components import Dominable
from domain.wolves.state import MoonlightPiece, Piece
from tests.rules.scenario import grid_map, illegal, of_type, run, scenario, set_board

# --- W-6.1 Move -------------------------------------------------------------------------------

#   x: 0  1  2  3  4  5
MOVE = grid_map(
    "g1 g1 g1 g1 g1 g1",  # y=0   seat 0's alpha on (2, 0)
    "g1 ~1 ~1 ~1 g1 g1",  # y=1   a lake: (2, 0) → (2, 2) is 2 straight, 5 steps by land
    "g1 g1 g1 g1 g1 g1",  # y=2
    "f1 f1 f1 f1 f1 f1",  # y=3
    lone=[(5, 0)],
)


def move(*steps: WolfStep, seat: int = 0) -> Move:
    return Move(seat, steps)


def test_w6_1_move_up_to_speed_steps_to_the_paid_terrain() -> None:
    state = scenario(MOVE, pieces={(2, 0): "A0", (1, 3): "P1"}, tokens=5)
    after, events = play(state, move(WolfStep((2, 0), (5, 2))))  # 3 steps
    assert events[0] == ev.WolvesMoved(
        0, ev.Paid((3,), 0, "grassland"), (ev.Moved((2, 0), (5, 2), "alpha"),)
    )
    assert after.at((5, 2)) == (Piece(0, "alpha"),) and not after.at((2, 0))
    illegal(
        state,
        move(WolfStep((2, 0), (5, 3))),
        "W-6.1",
        "[5, 3] is out of reach from [2, 0]: 4 steps, wolf speed is 3",
    )
    set_board(state, 0, dens=(0, 1, 0))  # speed 4
    play(state, move(WolfStep((2, 0), (5, 3))))


def test_w6_1_water_blocks_movement() -> None:
    state = scenario(MOVE, pieces={(2, 0): "A0"}, tokens=5)
    illegal(state, move(WolfStep((2, 0), (2, 2))), "W-6.1", "[2, 2] is out of reach", "5 steps")
    illegal(state, move(WolfStep((2, 0), (2, 1))), "W-6.1", "[2, 1] is not a land hex")


def test_w6_1_pieces_and_tokens_do_not_block_passing() -> None:
    state = scenario(MOVE, pieces={(2, 0): "A0", (3, 0): "A1 D2", (4, 1): "P2"}, tokens=5)
    path = ((3, 0), (4, 1), (5, 1))
    play(state, move(WolfStep((2, 0), (5, 1), path=path)))
    play(state, move(WolfStep((2, 0), (4, 0), path=((3, 0), (4, 0)))))
    via_token = scenario(MOVE, pieces={(4, 0): "A0"}, tokens=5)
    play(via_token, move(WolfStep((4, 0), (5, 1), path=((5, 0), (5, 1)))))


def test_w6_1_explicit_path() -> None:
    state = scenario(MOVE, pieces={(2, 0): "A0"}, tokens=5)
    illegal(
        state,
        move(WolfStep((2, 0), (4, 2), path=((3, 0), (4, 0), (4, 1), (4, 2)))),
        "W-6.1",
        "the path to [4, 2] takes 4 steps, speed is 3",
    )
    illegal(
        state,
        move(WolfStep((2, 0), (2, 2), path=((2, 1), (2, 2)))),
        "W-6.1",
        "the path to [2, 2] is not a chain of land hexes",
    )
    illegal(
        state,
        move(WolfStep((2, 0), (4, 1), path=((4, 0),))),
        "W-6.1",
        "the path to [4, 1] is not a chain",
    )


def test_w6_1_spread_limits_the_number_of_wolves() -> None:
    state = scenario(MOVE, pieces={(0, 0): "A0 P0", (0, 2): "P0"}, tokens=5)
    three = move(
        WolfStep((0, 0), (1, 0), "alpha"),
        WolfStep((0, 0), (0, 1), "pack"),
        WolfStep((0, 2), (1, 2)),
    )
    illegal(state, three, "W-6.1", "moves 3 wolves, pack spread is 2")
    set_board(state, 0, dens=(1, 0, 0))  # spread 3
    after, events = play(state, three)
    assert len(of_type(events, ev.WolvesMoved)[0].moves) == 3
    assert after.boards[0].flipped[3], "one tile pays for all three"
    illegal(state, move(), "W-6.1", "at least one wolf")


def test_w6_1_every_wolf_ends_on_the_paid_terrain() -> None:
    state = scenario(MOVE, pieces={(0, 2): "A0 P0"}, tokens=5)
    two = move(WolfStep((0, 2), (1, 2), "alpha"), WolfStep((0, 2), (0, 3), "pack"))
    illegal(state, two, "W-6.1", "must end on the paid terrain, not forest, grassland")
    # start and path hexes may be any land: from grassland through forest back to grassland
    play(state, move(WolfStep((0, 2), (2, 2), "alpha", path=((1, 3), (2, 3), (2, 2)))))


def test_w6_1_which_wolf_and_each_wolf_once() -> None:
    state = scenario(MOVE, pieces={(0, 0): "A0 P0", (4, 0): "A1"}, tokens=5)
    illegal(
        state,
        move(WolfStep((0, 0), (1, 0))),
        "W-6.1",
        "[0, 0] holds an alpha and a pack wolf: name the wolf",
    )
    illegal(state, move(WolfStep((0, 2), (1, 2))), "W-6.1", "seat 0 (P0) has no wolf on [0, 2]")
    illegal(state, move(WolfStep((4, 0), (5, 1))), "W-6.1", "seat 0 (P0) has no wolf on [4, 0]")
    solo = scenario(MOVE, pieces={(0, 0): "P0"}, tokens=5)
    illegal(
        solo, move(WolfStep((0, 0), (1, 0), "alpha")), "W-6.1", "seat 0 (P0) has no alpha on [0, 0]"
    )
    again = move(WolfStep((0, 0), (1, 0), "alpha"), WolfStep((1, 0), (0, 1), "alpha"))
    illegal(state, again, "W-6.1", "the alpha on [1, 0] already moved in this action")
    illegal(state, move(WolfStep((0, 0), (0, 0), "pack")), "W-6.1", "on [0, 0] does not move")


def test_w6_1_alpha_pushes_a_lone_enemy_pack_wolf_pack_wolf_may_not() -> None:
    state = scenario(MOVE, pieces={(0, 0): "A0 P0", (1, 0): "P1"}, tokens=5)
    after, events = play(state, move(WolfStep((0, 0), (1, 0), "alpha")))
    assert of_type(events, ev.WolfPushed) == [ev.WolfPushed(1, "pack", (1, 0), (2, 0))]
    assert after.at((1, 0)) == (Piece(0, "alpha"),)
    illegal(
        state,
        move(WolfStep((0, 0), (1, 0), "pack")),
        "W-6",
        "a pack may not end on [1, 0] with seat 1 (P1)'s pack",
    )


# --- W-6.2 Build den --------------------------------------------------------------------------

#   x: 0  1  2  3  4  5
LAKE = grid_map(
    "g1 g1 g1 f2 f2 f2",  # y=0
    "g1 ~1 g1 f2 ~2 f2",  # y=1   lair sites: around (1, 1) and around (4, 1)
    "g1 g1 g1 f2 f2 f2",  # y=2
    "t1 t1 t1 m2 m2 m2",  # y=3
    lone=[(0, 3), (5, 3)],
)


def test_w6_2_den_on_or_next_to_an_alpha_pays_the_den_hex() -> None:
    state = scenario(LAKE, pieces={(2, 2): "A0"}, tokens=4)
    after, events = play(state, BuildDen(0, (2, 2), "spread"))
    assert events[0] == ev.DenBuilt(0, ev.Paid((3,), 1, "grassland"), (2, 2), "spread")
    assert Piece(0, "den") in after.at((2, 2))
    assert after.boards[0].dens == (1, 0, 0) and after.boards[0].track("spread") == 3
    after, events = play(state, BuildDen(0, (2, 3), "howl"))  # adjacent, tundra
    assert isinstance(events[0], ev.DenBuilt) and events[0].paid.terrain == "tundra"
    after, events = play(state, BuildDen(0, (3, 2), "howl"))  # adjacent, forest, other region
    assert isinstance(events[0], ev.DenBuilt) and events[0].paid == ev.Paid((0, 1), 0, "forest")


def test_w6_2_den_too_far_from_any_alpha() -> None:
    state = scenario(LAKE, pieces={(2, 2): "A0", (0, 0): "P0"}, tokens=4)
    illegal(
        state,
        BuildDen(0, (0, 2), "speed"),
        "W-6.2",
        "no alpha of seat 0 (P0) within distance 1 of [0, 2] (nearest alpha at distance 2)",
    )
    illegal(state, BuildDen(0, (1, 0), "speed"), "W-6.2", "nearest alpha at distance 2")
    no_alpha = scenario(LAKE, pieces={(2, 2): "P0"}, tokens=4)
    illegal(no_alpha, BuildDen(0, (2, 2), "speed"), "W-6.2", "[2, 2] (no alpha on the map)")


def test_w6_2_den_target_restrictions() -> None:
    state = scenario(LAKE, pieces={(2, 2): "A0", (2, 1): "P1", (1, 2): "D1"}, tokens=4)
    illegal(state, BuildDen(0, (2, 1), "speed"), "W-6.2", "[2, 1] holds an enemy piece")
    illegal(state, BuildDen(0, (1, 2), "speed"), "W-6.2", "[1, 2] already holds a den or lair")
    illegal(state, BuildDen(0, (1, 1), "speed"), "W-6.2", "[1, 1] is not a land hex")
    illegal(
        state,
        BuildDen(0, (2, 2), "claws"),  # type: ignore[arg-type]  # not a track
        "W-6.2",
        "track must be one of spread, speed, howl, not claws",
    )
    set_board(state, 0, dens=(0, 4, 0))
    illegal(state, BuildDen(0, (2, 2), "speed"), "W-6.2", "no den left on the speed track")
    token = scenario(LAKE, pieces={(1, 3): "A0"}, tokens=4)
    illegal(token, BuildDen(0, (0, 3), "speed"), "W-6.2", "[0, 3] holds a lone wolf or prey token")


# --- W-6.3 Upgrade den to lair ------------------------------------------------------------------


def test_w6_3_lair_replaces_a_den_next_to_water() -> None:
    state = scenario(LAKE, pieces={(2, 1): "D0", (2, 2): "A0"}, tokens=2)
    after, events = play(state, UpgradeLair(0, (2, 1)))
    assert events[:2] == [
        ev.LairBuilt(0, ev.Paid((3,), 1, "grassland"), (2, 1)),
        ev.BonusTokenGained(0, "terrain"),
    ]
    assert after.at((2, 1)) == (Piece(0, "lair"),)
    assert after.moonlight == (MoonlightPiece("den", 0),) and after.date == 1
    assert (after.boards[0].lairs, after.boards[0].bonus_terrain) == (1, 2)


def test_w6_3_lair_pushes_the_enemy_wolf_on_the_den() -> None:
    state = scenario(LAKE, pieces={(2, 1): "D0 A1", (2, 2): "A0"}, tokens=2)
    after, events = play(state, UpgradeLair(0, (2, 1)))
    # free neighbours of (2, 1): (1, 0) and (2, 0) on row 0, (3, 1), (3, 2): lowest y, then x
    assert of_type(events, ev.WolfPushed) == [ev.WolfPushed(1, "alpha", (2, 1), (1, 0))]
    assert after.at((2, 1)) == (Piece(0, "lair"),)
    after, _ = play(state, UpgradeLair(0, (2, 1), push_to=(3, 1)))
    assert after.at((3, 1)) == (Piece(1, "alpha"),)


def test_w6_3_lair_refusals() -> None:
    state = scenario(
        LAKE, pieces={(2, 3): "D0", (2, 2): "A0", (0, 1): "D0", (1, 0): "D1"}, tokens=4
    )
    illegal(
        state, UpgradeLair(0, (2, 3)), "W-6.3", "the den on [2, 3] is not next to a water source"
    )
    illegal(state, UpgradeLair(0, (2, 1)), "W-6.3", "seat 0 (P0) has no den on [2, 1]")
    illegal(state, UpgradeLair(0, (1, 0)), "W-6.3", "seat 0 (P0) has no den on [1, 0]")
    illegal(
        state,
        UpgradeLair(0, (0, 1)),
        "W-6.3",
        "no alpha of seat 0 (P0) within distance 1 of [0, 1] (nearest alpha at distance 2)",
    )


def test_w6_3_one_lair_per_region_and_four_in_all() -> None:
    state = scenario(
        LAKE, pieces={(0, 0): "L0", (2, 1): "D0", (3, 1): "D0", (3, 2): "A0"}, tokens=4
    )
    illegal(
        state,
        UpgradeLair(0, (2, 1)),
        "W-6.3",
        "seat 0 (P0) already has a lair in region 1 at [0, 0]",
    )
    play(state, UpgradeLair(0, (3, 1)))  # region 2
    set_board(state, 0, lairs=4)
    illegal(state, UpgradeLair(0, (3, 1)), "W-6.3", "seat 0 (P0) has no lair left")


# --- W-6.4 Howl -------------------------------------------------------------------------------


def test_w6_4_howl_within_range() -> None:
    state = scenario(LAKE, pieces={(1, 2): "A0"}, lone=[(0, 3), (3, 3), (4, 3)], tokens=2)
    after, events = play(state, Howl(0, (0, 3)))  # distance 2, tundra
    assert events[0] == ev.LoneWolfHowled(0, ev.Paid((4,), 1, "tundra"), (0, 3), "pack")
    assert after.at((0, 3)) == (Piece(0, "pack"),)
    assert (0, 3) not in after.lone_wolves and after.moonlight == (MoonlightPiece("lone_wolf"),)
    assert after.boards[0].wolves == 1
    play(state, Howl(0, (3, 3)))  # distance 2, mountain
    illegal(
        state,
        Howl(0, (4, 3)),
        "W-6.4",
        "no alpha of seat 0 (P0) within howl range 2 of [4, 3] (nearest alpha at distance 3)",
    )
    set_board(state, 0, dens=(0, 0, 1))  # howl range 3
    play(state, Howl(0, (4, 3)))


def test_w6_4_howl_range_is_straight_distance_across_water() -> None:
    """(0, 1) to (2, 1) is 2 straight over the water at (1, 1), 3 steps by land."""
    state = scenario(LAKE, pieces={(0, 1): "A0"}, lone=[(2, 1)], tokens=2)
    play(state, Howl(0, (2, 1)))


def test_w6_4_howl_refusals() -> None:
    state = scenario(LAKE, pieces={(1, 2): "P0", (5, 0): "A0"}, lone=[(0, 3)], tokens=2)
    # a pack wolf next to the lone wolf does not count: only alphas howl
    illegal(state, Howl(0, (0, 3)), "W-6.4", "howl range 2 of [0, 3] (nearest alpha at distance 8)")
    illegal(state, Howl(0, (2, 3)), "W-6.4", "no lone wolf on [2, 3]")
    set_board(state, 0, wolves=8)
    near = scenario(LAKE, pieces={(1, 2): "A0"}, lone=[(0, 3)], tokens=2)
    set_board(near, 0, wolves=8)
    illegal(near, Howl(0, (0, 3)), "W-6.4", "seat 0 (P0)'s pack track is empty")


# --- W-6.5 Dominate ---------------------------------------------------------------------------


def test_w6_5_dominate_a_pack_wolf() -> None:
    state = scenario(LAKE, pieces={(0, 2): "A0", (2, 2): "P1"}, tokens=3)
    after, events = play(state, Dominate(0, (2, 2)))
    assert events[0] == ev.PieceDominated(
        0, ev.Paid((3,), 2, "grassland"), (2, 2), 1, "pack", "pack", None
    )
    assert after.at((2, 2)) == (Piece(0, "pack"),)
    assert after.moonlight == (MoonlightPiece("pack", 1),) and after.boards[0].wolves == 1
    set_board(state, 0, wolves=2)  # the next pack-track wolf is an alpha
    after, events = play(state, Dominate(0, (2, 2)))
    assert after.at((2, 2)) == (Piece(0, "alpha"),)


def test_w6_5_dominate_a_den_takes_a_den_from_a_track() -> None:
    state = scenario(LAKE, pieces={(0, 2): "A0", (2, 2): "D1 A2"}, tokens=3)
    set_board(state, 0, dens=(1, 0, 0))
    after, events = play(state, Dominate(0, (2, 2), track="spread"))
    assert isinstance(events[0], ev.PieceDominated) and events[0].track == "spread"
    assert of_type(events, ev.BonusTokenGained) == [ev.BonusTokenGained(0, "action")]
    assert set(after.at((2, 2))) == {Piece(0, "den"), Piece(2, "alpha")}
    assert after.moonlight == (MoonlightPiece("den", 1),) and after.boards[0].dens == (2, 0, 0)
    illegal(
        state, Dominate(0, (2, 2)), "W-6.5", "track must be one of spread, speed, howl, not None"
    )
    set_board(state, 0, dens=(4, 0, 0))
    illegal(state, Dominate(0, (2, 2), track="spread"), "W-6.5", "no den left on the spread track")


@pytest.mark.parametrize(
    ("there", "piece", "words"),
    [
        (
            "A1",
            None,
            "no enemy pack wolf or den to dominate on [2, 2] (it holds alpha of seat 1 (P1))",
        ),
        ("L1", None, "(it holds lair of seat 1 (P1))"),
        ("P0", None, "(it holds pack of seat 0 (P0))"),
        ("D1 P1", "pack", "seat 1 (P1) has a second piece on [2, 2]: it cannot be dominated"),
        ("D1 P1", "den", "seat 1 (P1) has a second piece on [2, 2]: it cannot be dominated"),
        ("D1 P2", None, "[2, 2] holds an enemy den and pack wolf: name the piece"),
        ("D1 A1", "den", "seat 1 (P1) has a second piece on [2, 2]"),
    ],
)
def test_w6_5_dominate_targets(there: str, piece: Dominable | None, words: str) -> None:
    state = scenario(LAKE, pieces={(0, 2): "A0", (2, 2): there}, tokens=3)
    illegal(state, Dominate(0, (2, 2), piece=piece, track="howl"), "W-6.5", words)


def test_w6_5_naming_the_piece_and_range() -> None:
    state = scenario(LAKE, pieces={(0, 2): "A0", (2, 2): "D1 P2", (3, 3): "P1"}, tokens=3)
    after, _ = play(state, Dominate(0, (2, 2), piece="pack"))
    assert set(after.at((2, 2))) == {Piece(1, "den"), Piece(0, "pack")}
    after, _ = play(state, Dominate(0, (2, 2), piece="den", track="howl"))
    assert set(after.at((2, 2))) == {Piece(0, "den"), Piece(2, "pack")}
    illegal(
        state,
        Dominate(0, (3, 3)),
        "W-6.5",
        "no alpha of seat 0 (P0) within howl range 2 of [3, 3] (nearest alpha at distance 3)",
    )
    set_board(state, 0, wolves=8)
    illegal(state, Dominate(0, (2, 2), piece="pack"), "W-6.5", "seat 0 (P0)'s pack track is empty")


# --- W-6.6 Push -------------------------------------------------------------------------------

#   x: 0  1  2  3  4
RING = grid_map(
    "g1 g1 g1 g1 g1",  # y=0
    "g1 g1 g1 g1 g1",  # y=1
    "g1 g1 g1 g1 g1",  # y=2   the pushed pack wolf stands on (2, 2)
    "g1 g1 g1 g1 g1",  # y=3
    "g1 g1 g1 g1 g1",  # y=4
)
AROUND = [(2, 1), (3, 2), (3, 3), (2, 3), (1, 2), (1, 1)]


def test_w6_6_push_to_the_nearest_free_hex_lowest_y_then_x() -> None:
    # every neighbour of (2, 2) holds an enemy den (not free for seat 1): next ring at 2 steps
    state = scenario(
        RING, pieces={**{h: "D2" for h in AROUND}, (2, 2): "P1", (0, 4): "A0"}, tokens=3
    )
    set_board(state, 0, dens=(0, 2, 0))  # speed 4: (0, 4) → (2, 2) through the dens
    go = WolfStep((0, 4), (2, 2), "alpha")
    after, events = play(state, Move(0, (go,)))
    assert of_type(events, ev.WolfPushed) == [ev.WolfPushed(1, "pack", (2, 2), (0, 0))]
    assert after.at((0, 0)) == (Piece(1, "pack"),)
    nearest = (
        "([0, 0], [1, 0], [2, 0], [0, 1], [3, 1], [0, 2], [4, 2], [1, 3], [4, 3], [2, 4], "
        "[3, 4], [4, 4])"
    )
    go_far = WolfStep((0, 4), (2, 2), "alpha", push_to=(0, 4))  # the hex the alpha left
    illegal(
        state, Move(0, (go_far,)), "W-6.6", f"push_to [0, 4] is not a nearest free hex {nearest}"
    )
    chosen = WolfStep((0, 4), (2, 2), "alpha", push_to=(4, 4))
    after, _ = play(state, Move(0, (chosen,)))
    assert after.at((4, 4)) == (Piece(1, "pack"),)


def test_w6_6_own_single_piece_counts_as_free_tokens_do_not() -> None:
    state = scenario(
        RING,
        pieces={(2, 1): "A2", (3, 2): "D1 A2", (1, 1): "D1", (2, 2): "P1", (0, 3): "A0"},
        lone=[(1, 2)],
        tokens=3,
    )
    after, events = play(state, Move(0, (WolfStep((0, 3), (2, 2), "alpha"),)))
    # (2, 1) enemy, (3, 2) full, (1, 2) a token; (1, 1) holds seat 1's own den: lowest y wins
    assert of_type(events, ev.WolfPushed)[0].dst == (1, 1)
    assert set(after.at((1, 1))) == {Piece(1, "den"), Piece(1, "pack")}


def test_w6_6_nearest_is_counted_through_land() -> None:
    """(2, 2) → (1, 0) or (2, 0) is 2 straight but 4–5 by land around the lake; (0, 1) is 2."""
    state = scenario(
        MOVE,
        pieces={(2, 2): "P1", (4, 3): "A0", (3, 2): "D0", (3, 3): "D0", (2, 3): "D0", (1, 2): "D0"},
        tokens=3,
    )
    _, events = play(state, Move(0, (WolfStep((4, 3), (2, 2), "alpha"),)))
    assert of_type(events, ev.WolfPushed)[0].dst == (0, 1)
    illegal(
        state,
        Move(0, (WolfStep((4, 3), (2, 2), "alpha", push_to=(2, 0)),)),
        "W-6.6",
        "push_to [2, 0] is not a nearest free hex",
    )


def test_w6_6_no_hex_to_push_to_makes_the_move_illegal() -> None:
    tiny = grid_map("g1 g1 g1")
    state = scenario(tiny, pieces={(0, 0): "A0 P0", (1, 0): "P1", (2, 0): "D2"}, tokens=3)
    illegal(
        state,
        Move(0, (WolfStep((0, 0), (1, 0), "alpha"),)),
        "W-6.6",
        "no hex to push seat 1 (P1)'s pack to",
    )


def test_w6_6_auto_push_takes_the_engines_choice() -> None:
    """With the W-12 ``auto_push`` option only the fixed first choice may be named."""
    pieces = {**{h: "D2" for h in AROUND}, (2, 2): "P1", (0, 4): "A0"}
    state = scenario(RING, pieces=pieces, tokens=3, options=Options(auto_push=True))
    set_board(state, 0, dens=(0, 2, 0))
    play(state, Move(0, (WolfStep((0, 4), (2, 2), "alpha", push_to=(0, 0)),)))
    illegal(
        state,
        Move(0, (WolfStep((0, 4), (2, 2), "alpha", push_to=(4, 4)),)),
        "W-12",
        "auto_push sends the wolf to [0, 0], not [4, 4]",
    )


# --- W-6.7 Hunt -------------------------------------------------------------------------------

#   x: 0  1  2  3  4
DEN = grid_map(
    "g1 g1 g1 g1 g1",  # y=0
    "g1 g1 g1 g1 g1",  # y=1
    "g1 g1 g1 g1 g1",  # y=2   a deer stack on (2, 2)
    "g1 g1 g1 g1 g1",  # y=3
    "g1 g1 g1 g1 g1",  # y=4
    prey={(2, 2): ("deer", 2)},
)


def test_w6_7_three_adjacent_hexes_hunt() -> None:
    state = scenario(DEN, pieces={(2, 1): "A0", (3, 2): "P0", (0, 0): "P0"}, tokens=3)
    after, events = play(state, Move(0, (WolfStep((0, 0), (1, 1)),)))
    assert events[1:3] == [ev.PreyHunted(0, (2, 2), "deer"), ev.BonusTokenGained(0, "action")]
    assert after.prey[(2, 2)] == ("deer", 1), "the other token stays for the others"
    assert after.boards[0].prey == ("deer",) and after.boards[0].bonus_action == 1
    again, events = play(after, Move(0, (WolfStep((1, 1), (1, 2)),)))
    assert not of_type(events, ev.PreyHunted), "never two prey of one type"


def test_w6_7_two_wolves_on_one_hex_count_once() -> None:
    state = scenario(DEN, pieces={(2, 1): "A0 P0", (0, 0): "P0"}, tokens=3)
    _, events = play(state, Move(0, (WolfStep((0, 0), (1, 1)),)))
    assert not of_type(events, ev.PreyHunted)


def test_w6_7_only_the_acting_player_hunts_after_any_action() -> None:
    state = scenario(DEN, pieces={(2, 1): "A1", (3, 2): "P1", (1, 1): "P1", (4, 4): "A0"}, tokens=3)
    _, events = play(state, BuildDen(0, (4, 4), "speed"))
    assert not of_type(events, ev.PreyHunted), "seat 1 surrounds it but seat 0 acted"
    state.player = 1
    set_board(state, 1, prey=())
    _, events = play(state, BuildDen(1, (2, 1), "speed", Pay((), 2)))
    assert of_type(events, ev.PreyHunted) == [ev.PreyHunted(1, (2, 2), "deer")]


def test_w6_7_last_token_leaves_the_map() -> None:
    state = scenario(DEN, pieces={(2, 1): "A0", (3, 2): "P0", (0, 0): "P0"}, tokens=3)
    state.prey[(2, 2)] = ("deer", 1)
    after, _ = run(state, Move(0, (WolfStep((0, 0), (1, 1)),)))
    assert (2, 2) not in after.prey
    play(after, Move(0, (WolfStep((1, 1), (2, 2)),)))  # the hex is free now


def test_w6_7_two_stacks_hunted_by_one_action() -> None:
    cmap = grid_map(
        "g1 g1 g1 g1 g1",  # y=0
        "g1 g1 g1 g1 g1",  # y=1   hare on (1, 1)
        "g1 g1 g1 g1 g1",  # y=2   boar on (3, 2); (2, 1) and (2, 2) touch both stacks
        "g1 g1 g1 g1 g1",  # y=3
        prey={(1, 1): ("hare", 2)},
    )
    state = scenario(cmap, pieces={(2, 1): "A0", (1, 2): "P0", (3, 3): "P0", (0, 3): "P0"})
    state.prey[(3, 2)] = ("boar", 2)
    set_board(state, 0, bonus_terrain=1)
    _, events = play(state, Move(0, (WolfStep((0, 3), (2, 2)),)))
    assert of_type(events, ev.PreyHunted) == [
        ev.PreyHunted(0, (1, 1), "hare"),
        ev.PreyHunted(0, (3, 2), "boar"),
    ]
    assert len(of_type(events, ev.BonusTokenGained)) == 2


def test_w12_auto_push_goes_to_the_nearest_empty_hex_never_to_its_own_piece() -> None:
    """Seed 001 (digital edition): "automatikusan a legközelebbi üres mezőre kerül". Without
    the option seat 1's own den on (1, 1) is the nearest free hex (W-6.6); with it the wolf
    goes to the nearest *empty* hex, two steps away, first in W-6.6's fixed order."""
    dens = {h: "D2" for h in AROUND if h != (1, 1)}
    pieces = {**dens, (1, 1): "D1", (2, 2): "P1", (0, 4): "A0"}
    go = Move(0, (WolfStep((0, 4), (2, 2), "alpha"),))
    for auto, dst in ((False, (1, 1)), (True, (0, 0))):
        state = scenario(RING, pieces=pieces, tokens=3, options=Options(auto_push=auto))
        set_board(state, 0, dens=(0, 2, 0))
        _, events = play(state, go)
        assert of_type(events, ev.WolfPushed) == [ev.WolfPushed(1, "pack", (2, 2), dst)]
    illegal(
        state,
        Move(0, (WolfStep((0, 4), (2, 2), "alpha", push_to=(1, 1)),)),
        "W-12",
        "auto_push sends the wolf to [0, 0], not [1, 1]",
    )
