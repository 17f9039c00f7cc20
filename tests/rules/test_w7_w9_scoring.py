"""W-7 Moonlight board, W-8 region scoring, W-9 final score."""

from __future__ import annotations

import pytest

from domain.wolves import (
    BuildDen,
    Dominate,
    Howl,
    Move,
    Options,
    Pass,
    UpgradeLair,
    WolfStep,
    final_scores,
    generate_setup,
    initial_state,
    legal_actions,
    play,
)
from domain.wolves import events as ev
from domain.wolves.components import Phase
from domain.wolves.scoring import score_region
from domain.wolves.state import MoonlightPiece, State
from tests.rules.scenario import grid_map, illegal, of_type, players, run, scenario, set_board

#   x: 0  1  2  3  4  5  6  7  8  9
MOON = grid_map(
    "g1 g1 g1 g- g2 g2 g2 g- g3 g3",  # y=0   three regions apart, a regionless column between
    "g1 ~1 g1 g- g2 ~2 g2 g- g3 ~3 g3",  # y=1
    "g1 g1 g1 g- g2 g2 g2 g- g3 g3",  # y=2
    "g1 g1 g1 g- g2 g2 g2 g- g3 g3",  # y=3
    scoring={1: ("crescent",), 2: ("quarter",), 3: ("full",)},
    lone=[(0, 3), (1, 3), (2, 3)],
)


def moon(date: int, phases_scored: int = 0, actions_left: int = 2) -> State:
    """Seat 0 in region 1 by three lone wolves, a pack wolf of seat 1 on (0, 2); date ``date``."""
    pieces = {(1, 2): "A0 P0", (2, 2): "D0", (0, 2): "P1", (5, 2): "A1", (8, 2): "A2"}
    state = scenario(MOON, pieces=pieces, tokens=9, actions_left=actions_left)
    state.moonlight = (MoonlightPiece("lone_wolf"),) * date
    state.phases_scored = phases_scored
    return state


def test_w7_dates_advance_on_howl_dominate_and_lair_only() -> None:
    state = moon(0, actions_left=9)
    dates = []
    for action in (
        Move(0, (WolfStep((1, 2), (2, 2), "pack"),)),
        BuildDen(0, (1, 2), "speed"),
        Howl(0, (0, 3)),
        Dominate(0, (0, 2)),
        UpgradeLair(0, (2, 2)),
    ):
        state, _ = play(state, action)
        dates.append(state.date)
    assert dates == [0, 0, 1, 2, 3]
    assert state.moonlight == (
        MoonlightPiece("lone_wolf"), MoonlightPiece("pack", 1), MoonlightPiece("den", 0)
    )  # fmt: skip


def test_w7_phase_scored_at_the_end_of_the_turn() -> None:
    state = moon(8)  # 3 players: crescent at 9
    state, events = play(state, Howl(0, (0, 3)))
    assert state.date == 9 and not of_type(events, ev.RegionScored)
    state, events = play(state, Pass(0))
    assert [type(e) for e in events] == [ev.Passed, ev.RegionScored, ev.PhaseScored, ev.TurnEnded]
    # seat 0: alpha + pack wolf + den + the howled wolf = 4; seat 1's pack wolf = 1
    assert events[1] == ev.RegionScored(
        "crescent", 1, (ev.Standing(0, 4, 1, 1, 4, True), ev.Standing(1, 1, 0, 2, 2, False))
    )
    assert (state.scoring[1], state.scoring[2], state.phases_scored) == ((), ("quarter",), 1)
    assert (state.boards[0].region_points, state.boards[0].region_tokens) == (4, 1)
    assert (state.boards[1].region_points, state.boards[1].region_tokens) == (2, 0)


def test_w7_two_phases_in_one_turn_are_scored_in_order() -> None:
    state = moon(15, actions_left=2)
    state, events = run(state, Howl(0, (0, 3)), Howl(0, (1, 3)))  # 15 → 17: crescent and quarter
    scored = [(e.phase, e.region) for e in of_type(events, ev.RegionScored)]
    phases = [e.phase for e in of_type(events, ev.PhaseScored)]
    assert scored == [("crescent", 1), ("quarter", 2)] and phases == ["crescent", "quarter"]
    kinds = [type(e).__name__ for e in events[-5:]]
    assert kinds == ["RegionScored", "PhaseScored", "RegionScored", "PhaseScored", "TurnEnded"]


def test_w7_game_ends_after_the_full_moon_turn() -> None:
    state = moon(21, phases_scored=2)
    state, events = run(state, Howl(0, (0, 3)), Move(0, (WolfStep((1, 2), (2, 2), "pack"),)))
    assert [type(e) for e in events[-3:]] == [ev.RegionScored, ev.PhaseScored, ev.GameEnded]
    end = events[-1]
    assert isinstance(end, ev.GameEnded) and end.reason == "full_moon"
    assert end.scores == final_scores(state)
    assert state.finished and not of_type(events, ev.TurnEnded)
    illegal(state, Pass(0), "W-7", "the game is over")
    illegal(state, Move(1, (WolfStep((5, 2), (5, 3)),)), "W-7", "the game is over")


@pytest.mark.parametrize(
    ("seats", "dates"), [(2, (7, 13, 18)), (3, (9, 17, 22)), (4, (11, 20, 26)), (5, (13, 23, 30))]
)
def test_w7_phase_dates(seats: int, dates: tuple[int, int, int]) -> None:
    assert scenario(MOON, seats=seats).table.phase_dates == dates


# --- W-8 region scoring -------------------------------------------------------------------------

#   x: 0  1  2  3  4
REGION = grid_map(
    "g1 g1 g1 g1 g1",  # y=0
    "g1 g1 ~1 g1 g1",  # y=1
    "g1 g1 g1 g1 g1",  # y=2
    "g- g- g- g- g-",  # y=3   not a region (like the start tile)
)


def standings(
    pieces: dict[tuple[int, int], str], phase: Phase = "quarter", seats: int = 3
) -> list[tuple[int | None, int, int, int | None, int, bool]]:
    state = scenario(REGION, seats=seats, pieces=pieces)
    result = score_region(state, 1, phase)
    return [(s.seat, s.control, s.alphas, s.place, s.points, s.token) for s in result.standings]


def test_w8_empty_region_scores_nothing() -> None:
    assert standings({(0, 3): "A0 P0"}) == [], "pieces off the regions count for nobody"


def test_w8_lone_player_takes_first() -> None:
    assert standings({(0, 0): "P1"}, "full") == [(1, 1, 0, 1, 8, True)]


@pytest.mark.parametrize(
    ("phase", "high", "low"), [("crescent", 4, 2), ("quarter", 6, 3), ("full", 8, 4)]
)
def test_w8_first_and_second_values(phase: Phase, high: int, low: int) -> None:
    got = standings({(0, 0): "L0", (1, 0): "A1 D1", (3, 0): "P2"}, phase)
    assert got == [(0, 3, 0, 1, high, True), (1, 2, 1, 2, low, False), (2, 1, 0, None, 0, False)]


def test_w8_control_values() -> None:
    got = standings({(0, 0): "L0 A0", (1, 0): "D0 P1", (3, 0): "P0", (4, 0): "L1"})
    assert got[0][:3] == (0, 3 + 1 + 1 + 1, 1) and got[1][:3] == (1, 1 + 3, 0)


def test_w8_tie_for_first_broken_by_alphas() -> None:
    got = standings({(0, 0): "A0 P0", (1, 0): "P1 D1"})
    assert got == [(0, 2, 1, 1, 6, True), (1, 2, 0, 2, 3, False)]


def test_w8_persistent_tie_for_first_all_take_low_token_discarded() -> None:
    got = standings({(0, 0): "A0 P0", (1, 0): "A1 D1", (3, 0): "P2"})
    assert got[:2] == [(0, 2, 1, 1, 3, False), (1, 2, 1, 1, 3, False)]
    assert got[2] == (2, 1, 0, None, 0, False), "nobody else scores"


def test_w8_tie_for_second_only_first_scores() -> None:
    got = standings({(0, 0): "L0", (1, 0): "P1", (3, 0): "P2"})
    assert got == [(0, 3, 0, 1, 6, True), (1, 1, 0, None, 0, False), (2, 1, 0, None, 0, False)]
    broken = standings({(0, 0): "L0", (1, 0): "P1", (3, 0): "A2"})
    assert broken[1] == (2, 1, 1, 2, 3, False), "alphas break a tie for second too"


def test_w8_scored_token_is_removed_and_points_land_on_boards() -> None:
    state = scenario(REGION, pieces={(0, 0): "L0", (1, 0): "A1"})
    state.moonlight, state.phases_scored = (MoonlightPiece("lone_wolf"),) * 17, 1  # quarter is due
    state, events = play(state, Pass(0))
    assert of_type(events, ev.PhaseScored) == [ev.PhaseScored("quarter")]
    assert state.scoring[1] == ()
    assert [(b.region_points, b.region_tokens) for b in state.boards] == [(6, 1), (3, 0), (0, 0)]


# --- W-9 final score ----------------------------------------------------------------------------


def test_w9_total_is_region_points_plus_board_vp() -> None:
    state = scenario(REGION, pieces={(0, 0): "A0 P0", (4, 0): "P1"})
    set_board(state, 0, region_points=14, region_tokens=2, dens=(3, 0, 0), wolves=2)
    s = final_scores(state)[0]
    assert (s.total, s.regions, s.spread, s.pack, s.region_tokens, s.wolves_on_map) == (
        14 + 3 + 2,
        14,
        3,
        2,
        2,
        2,
    )


def test_w9_ties_region_tokens_then_wolves_then_shared() -> None:
    state = scenario(
        REGION, seats=5, pieces={(0, 0): "A0 P0", (1, 0): "A1", (4, 0): "A2", (3, 0): "A3"}
    )
    for seat, (points, tokens) in enumerate([(20, 2), (20, 2), (20, 2), (20, 3), (25, 0)]):
        set_board(state, seat, region_points=points, region_tokens=tokens)
    places = [s.place for s in final_scores(state)]
    # 25 first; 20 with 3 tokens second; 20 with 2 tokens: 2 wolves on the map beat 1;
    # seats 1 and 2 (0-based) are still tied and share 4th place
    assert places == [3, 4, 4, 2, 1]


def test_w12_stall_limit_scores_every_remaining_phase_and_ends_the_game() -> None:
    """``stall_limit_rounds``: rounds without a Moonlight step are counted; at the limit every
    remaining phase is scored in order and the game ends."""
    pieces = {(1, 2): "A0 P0", (2, 2): "D0", (0, 2): "P1", (5, 2): "A1", (8, 2): "A2"}
    state = scenario(MOON, pieces=pieces, tokens=9, options=Options(stall_limit_rounds=2))
    quiet = (Pass(0), Pass(1), Pass(2))
    state, _ = run(state, Howl(0, (0, 3)), Pass(0), Pass(1), Pass(2))  # the Moonlight moved
    assert (state.stalled_rounds, state.finished) == (0, False)
    state, events = run(state, *quiet)
    assert (state.stalled_rounds, state.finished) == (1, False)
    assert not of_type(events, ev.RegionScored)
    state, events = run(state, *quiet)
    scored = [(e.phase, e.region) for e in of_type(events, ev.RegionScored)]
    assert scored == [("crescent", 1), ("quarter", 2), ("full", 3)]
    assert [e.phase for e in of_type(events, ev.PhaseScored)] == ["crescent", "quarter", "full"]
    end = events[-1]
    assert isinstance(end, ev.GameEnded) and end.reason == "stall"
    assert end.scores == final_scores(state) and state.finished
    assert len(of_type(events, ev.TurnEnded)) == 2  # the last seat's turn ended the game
    illegal(state, Pass(0), "W-7", "the game is over")


def test_w12_without_the_option_quiet_rounds_go_on() -> None:
    state = moon(0)
    for _ in range(5):
        state, _ = run(state, Pass(0), Pass(1), Pass(2))
    assert state.stalled_rounds == 5 and not state.finished


def test_w12_big_map_implies_a_stall_limit_of_10_rounds() -> None:
    """W-12 (seed 001: the digital edition's safety rule, 10 full rounds): the big map ends
    a game whose Moonlight board stops, unless the record sets another limit."""

    def start(options: Options) -> State:
        return initial_state(players(2), generate_setup(2, 4, options))

    assert start(Options(big_map=True)).table.stall_limit == 10
    assert start(Options(big_map=True, stall_limit_rounds=3)).table.stall_limit == 3
    assert start(Options()).table.stall_limit is None
    state = start(Options(big_map=True))
    while state.drafting:
        state, _ = play(state, next(legal_actions(state)))
    rounds = 0
    while not state.finished and rounds < 20:  # without the limit quiet rounds go on for ever
        state, events = run(state, Pass(0), Pass(1))
        rounds += 1
    ended = events[-1]
    assert rounds == 10 and isinstance(ended, ev.GameEnded) and ended.reason == "stall"
