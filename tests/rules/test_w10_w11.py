"""W-10 rulebook worked examples and W-11 two-player specifics."""

from __future__ import annotations

import pytest

from domain.wolves import (
    Dominate,
    Move,
    Pass,
    WolfStep,
    control,
    final_scores,
    generate_setup,
    initial_state,
    legal_actions,
    play,
)
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.scoring import score_region
from domain.wolves.state import MoonlightPiece, Piece
from tests.rules.scenario import grid_map, illegal, of_type, players, scenario, set_board

# --- W-10 worked examples -----------------------------------------------------------------------

#   x: 0  1  2  3  4  5
REGION = grid_map(
    "g1 g1 g1 g1 g1 g1",  # y=0
    "g1 g1 ~1 g1 g1 g1",  # y=1
    "g1 g1 g1 g1 g1 g1",  # y=2
    scoring={1: ("crescent",)},
)


def test_w10_control_5_3_6_in_a_crescent_region() -> None:
    state = scenario(
        REGION,
        pieces={
            (0, 0): "A0 A0",
            (1, 0): "P0 P0",
            (3, 0): "D0",  # 2 alphas + 2 pack wolves + 1 den = 5
            (4, 0): "P1 D1",
            (5, 0): "P1",  # 2 pack wolves + 1 den = 3
            (2, 2): "L2 P2",
            (0, 2): "D2",
            (1, 2): "D2",  # 1 lair + 1 pack wolf + 2 dens = 6
        },
    )
    assert {s: c for s, (c, _) in control(state, 1).items()} == {0: 5, 1: 3, 2: 6}
    points = {s.seat: s.points for s in score_region(state, 1, "crescent").standings}
    assert points == {2: 4, 0: 2, 1: 0}


def test_w10_tie_broken_by_the_alpha() -> None:
    state = scenario(
        REGION,
        pieces={
            (0, 0): "D0 P0",
            (1, 0): "D0",  # 3, no alpha
            (4, 0): "P1 A1",
            (5, 0): "P1",
        },
    )  # 3, one alpha
    first = score_region(state, 1, "crescent").standings[0]
    assert (first.seat, first.place, first.token) == (1, 1, True)


#   x: 0  1  2  3  4  5
MEADOWS = grid_map(
    "f1 f1 g1 f1 f1 f1",  # y=0   (2, 0): 4 steps away
    "f1 g1 f1 f1 f1 f1",  # y=1
    "g1 f1 f1 f1 f1 f1",  # y=2
    "f1 f1 f1 f1 g1 f1",  # y=3   both wolves start on (1, 3); (4, 3) is 3 steps away
    "g1 f1 f1 f1 f1 f1",  # y=4
)


@pytest.mark.parametrize(
    "ends",
    [((1, 1), (1, 1)), ((4, 3), (4, 3)), ((1, 1), (0, 2)), ((4, 3), (0, 4)), ((0, 4), (1, 1))],
)
def test_w10_move_speed_3_spread_2_one_grassland(ends: tuple[tuple[int, int], ...]) -> None:
    """Both wolves may end on the same grassland hex or two grassland hexes within 3 steps."""
    state = scenario(MEADOWS, pieces={(1, 3): "P0 P0"})
    board = state.boards[0]
    assert (board.track("speed"), board.track("spread")) == (3, 2)
    move = Move(0, tuple(WolfStep((1, 3), h) for h in ends))
    after, events = play(state, move)
    assert isinstance(events[0], ev.WolvesMoved) and events[0].paid == ev.Paid((3,), 0, "grassland")
    for h in ends:
        assert Piece(0, "pack") in after.at(h)


def test_w10_move_example_limits() -> None:
    state = scenario(MEADOWS, pieces={(1, 3): "P0 P0"})
    illegal(
        state,
        Move(0, (WolfStep((1, 3), (2, 0)),)),
        "W-6.1",
        "[2, 0] is out of reach",
        "4 steps, wolf speed is 3",
    )
    illegal(
        state,
        Move(0, (WolfStep((1, 3), (1, 1)), WolfStep((1, 3), (2, 3)))),
        "W-6.1",
        "must end on the paid terrain, not forest, grassland",
    )


# --- W-11 two players ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_w11_automaton_by_token_stack(seed: int) -> None:
    state = initial_state(players(2), generate_setup(2, seed=seed))
    gmap = state.table.map
    expected = {
        ("crescent",): ({(1, 0): ["pack", "pack"]}, 2),
        ("crescent", "quarter"): ({(1, 0): ["lair"]}, 3),
        ("full",): ({(1, 0): ["alpha", "lair"]}, 4),
        ("quarter", "full"): ({(1, 0): ["lair"], (1, 1): ["alpha", "alpha"]}, 5),
    }
    automaton = {h for h, ps in state.pieces.items() if any(p.player is None for p in ps)}
    seen = set()
    for region in gmap.regions:
        water = gmap.water_of(region)
        assert water is not None
        wx, wy = water
        where, strength = expected[state.scoring[region]]
        for (ox, oy), kinds in where.items():
            h = (wx + ox, wy + oy)
            assert sorted(p.kind for p in state.at(h)) == kinds
            assert all(p.player is None for p in state.at(h))
            seen.add(h)
        assert control(state, region)[None][0] == strength
    assert automaton == seen


def test_w11_seat_two_bonus_action_and_dates() -> None:
    state = initial_state(players(2), generate_setup(2, seed=1))
    assert [b.bonus_action for b in state.boards] == [0, 1]
    assert state.table.phase_dates == (7, 13, 18)
    assert state.table.draft_order == (0, 1, 1, 0)


#   x: 0  1  2  3  4
DEN = grid_map(
    "g1 g1 g1 g1 g1",  # y=0
    "g1 g1 g1 g1 g1",  # y=1
    "g1 g1 g1 g1 g1",  # y=2   a single boar on (2, 2)
    "g1 g1 g1 g1 g1",  # y=3
    prey={(2, 2): ("boar", 1)},
)


def test_w11_no_bonus_action_for_prey_and_two_player_prey_vp() -> None:
    state = scenario(DEN, seats=2, pieces={(2, 1): "A0", (3, 2): "P0", (0, 0): "P0"}, tokens=3)
    after, events = play(state, Move(0, (WolfStep((0, 0), (1, 1)),)))
    assert of_type(events, ev.PreyHunted) == [ev.PreyHunted(0, (2, 2), "boar")]
    assert not of_type(events, ev.BonusTokenGained)
    assert (2, 2) not in after.prey
    assert final_scores(after)[0].prey == 2


def test_w11_two_player_track_vp_in_the_final_score() -> None:
    state = scenario(DEN, seats=2)
    set_board(state, 0, dens=(3, 4, 0), prey=("deer", "boar", "hare"))
    s = final_scores(state)[0]
    assert (s.spread, s.speed, s.howl, s.prey) == (2, 5, 0, 9)


def test_w11_automaton_is_never_dominated_pushed_or_joined() -> None:
    state = scenario(
        DEN, seats=2, pieces={(1, 1): "A0", (2, 1): "PX PX", (1, 0): "LX", (0, 1): "PX"}, tokens=5
    )
    illegal(
        state, Dominate(0, (2, 1)), "W-11", "the automaton's pack on [2, 1] can never be dominated"
    )
    illegal(state, Dominate(0, (1, 0)), "W-11", "the automaton's lair on [1, 0]")
    assert not [a for a in legal_actions(state) if isinstance(a, Dominate)]
    illegal(state, Move(0, (WolfStep((1, 1), (2, 1)),)), "W-6", "[2, 1] already holds 2 pieces")
    illegal(
        state,
        Move(0, (WolfStep((1, 1), (1, 0)),)),
        "W-6",
        "an alpha may not end on [1, 0] with the automaton's lair",
    )
    # a position may show a lone automaton pack wolf: an alpha still may not push it
    illegal(
        state,
        Move(0, (WolfStep((1, 1), (0, 1)),)),
        "W-11",
        "the automaton's pack on [0, 1] is never pushed",
    )


@pytest.mark.parametrize(
    ("pieces", "expected"),
    [
        # automaton first (lair + alpha = 4): seat 1 second takes the low value, nobody the token
        (
            {(0, 0): "LX AX", (3, 0): "P1 A1", (5, 0): "P0"},
            [(None, 4, 1, 1, 0, False), (1, 2, 1, 2, 2, False), (0, 1, 0, None, 0, False)],
        ),
        # automaton second (2 pack wolves): its points are discarded
        ({(0, 0): "PX PX", (3, 0): "L0"}, [(0, 3, 0, 1, 4, True), (None, 2, 0, 2, 0, False)]),
        # tie for first with the automaton: the seat takes the low value, the token is discarded
        ({(0, 0): "PX PX", (3, 0): "P1 D1"}, [(None, 2, 0, 1, 0, False), (1, 2, 0, 1, 2, False)]),
    ],
)
def test_w11_automaton_takes_first_or_second(
    pieces: dict[tuple[int, int], str],
    expected: list[tuple[int | None, int, int, int | None, int, bool]],
) -> None:
    state = scenario(REGION, seats=2, pieces=pieces)
    got = [
        (s.seat, s.control, s.alphas, s.place, s.points, s.token)
        for s in score_region(state, 1, "crescent").standings
    ]
    assert sorted(got, key=lambda r: (-r[1], -r[2], str(r[0]))) == sorted(
        expected,
        key=lambda r: (-r[1], -r[2], str(r[0])),
    )


def test_w11_stacked_token_scored_twice_lower_becomes_top() -> None:
    cmap = grid_map("g1 g1 g1", "g1 ~1 g1", scoring={1: ("crescent", "quarter")})
    state = scenario(cmap, seats=2, pieces={(0, 0): "A0", (2, 1): "P1"})
    state.moonlight = (MoonlightPiece("lone_wolf"),) * 13  # crescent (7) and quarter (13) both due
    state, events = play(state, Pass(0))
    assert [(e.phase, e.region) for e in of_type(events, ev.RegionScored)] == [
        ("crescent", 1),
        ("quarter", 1),
    ]
    assert state.scoring[1] == ()
    # seat 0 wins both on the alpha tie-break: 4 + 6; seat 1 second twice: 2 + 3
    assert [(b.region_points, b.region_tokens) for b in state.boards] == [(10, 2), (5, 0)]
    assert box.SCORING_STACKS[2][3] == ("crescent", "quarter")
