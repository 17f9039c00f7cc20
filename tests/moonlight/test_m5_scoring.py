"""M-5 Scoring a round, worked through on hand-built tables: moon majority, row majority
(a corner 1 counts 3), then a point per card not ignored and one per 3 in a won row; the
round to the most points, then the most visible cards, else replayed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.moonlight import events as ev
from domain.moonlight.actions import Place
from domain.moonlight.events import RoundPoints, RowResult
from domain.moonlight.rules import play
from domain.moonlight.scoring import round_winner, score_round
from tests.moonlight.scenario import (
    illegal,
    make_setup,
    of_type,
    playing,
    table,
    tied_round,
)

NO_MOONS = make_setup(moons={1: 0, 2: 0, 3: 0, 4: 0, 5: 0})


def test_m5_a_1_in_a_corner_counts_3_in_its_rows_sum() -> None:
    scored = score_round(playing(table("A1 B2", "B3 A3"), setup=NO_MOONS))
    assert scored.rows[0] == RowResult(0, (3, 2), 0)
    assert scored.tripled == ((0, 0),)


def test_m5_a_1_off_the_corners_counts_1() -> None:
    scored = score_round(playing(table("A2 A1 B2"), setup=NO_MOONS))
    assert scored.rows == (RowResult(0, (3, 2), 0),)
    assert scored.tripled == ()


def test_m5_the_corners_are_those_of_the_smallest_rectangle_holding_every_card() -> None:
    # (2, 0) is a corner only while no card lies further right
    assert score_round(playing(table("B3 B2 A1"), setup=NO_MOONS)).tripled == ((2, 0),)
    wider = playing(table("B3 B2 A1 .", ". . B5 A3", top=0), setup=NO_MOONS)
    assert score_round(wider).tripled == ()


def test_m5_a_corner_1_is_still_a_1_for_covering() -> None:
    state = playing(table("A1 B3 A2"), player=1)
    after, events = play(state, Place(1, 2, (0, 0)))
    assert of_type(events, ev.CardCovered) == [ev.CardCovered(1, 2, (0, 0), 1)]
    illegal(state, Place(1, 4, (0, 0)), "M-3", "the 1 on [0, 0]")


def test_m5_each_3_in_a_row_its_owner_won_scores_one_more() -> None:
    scored = score_round(playing(table("A3 A3 B4", "B1 . ."), setup=NO_MOONS))
    assert scored.rows == (RowResult(0, (6, 4), 0), RowResult(1, (0, 3), 1))
    assert scored.seats[0] == RoundPoints(4, 0, 2, 2, 0, 2)
    assert scored.seats[1] == RoundPoints(1, 0, 1, 0, 0, 2)
    assert scored.ignored == ((2, 0),)


def test_m5_a_3_in_a_lost_row_scores_nothing() -> None:
    scored = score_round(playing(table("A3 B5 B1"), setup=NO_MOONS))
    assert scored.rows == (RowResult(0, (3, 8), 1),)
    assert scored.seats[0] == RoundPoints(0, 0, 0, 0, 0, 1)
    assert scored.seats[1] == RoundPoints(2, 0, 2, 0, 0, 2)


def test_m5_the_lone_wolf_has_no_power() -> None:
    one = make_setup(moons={1: 0, 2: 0, 3: 0, 4: 0, 5: 0}, lone_wolf=(1, 0))
    scored = score_round(playing(table("AL B2"), setup=one, lone_wolf=(True, False)))
    assert scored.rows == (RowResult(0, (1, 2), 1),) and scored.tripled == ()
    three = make_setup(moons={1: 0, 2: 0, 3: 0, 4: 0, 5: 0}, lone_wolf=(3, 2))
    scored = score_round(playing(table("AL B2"), setup=three, lone_wolf=(True, False)))
    assert scored.rows == (RowResult(0, (3, 2), 0),)
    assert scored.seats[0] == RoundPoints(3, 2, 1, 0, 2, 1), "its moons count, no 3 bonus"


def test_m5_the_seat_with_more_visible_moons_scores_2() -> None:
    moons = make_setup(moons={1: 0, 2: 1, 3: 0, 4: 0, 5: 2})
    scored = score_round(playing(table("A5 B2 B2"), setup=moons))
    assert [p.moons_shown for p in scored.seats] == [2, 2]
    assert [p.moons for p in scored.seats] == [0, 0], "a moon tie scores nothing"
    scored = score_round(playing(table("A5 B2 B3"), setup=moons))
    assert [p.moons for p in scored.seats] == [2, 0]


def test_m5_moons_count_on_every_visible_card_ignored_or_not() -> None:
    # B's 2s lose their row and are ignored in step 3, but their moons count in step 1
    scored = score_round(playing(table("A5 B2 B2", "B4 A1 .")))
    assert scored.ignored == ((1, 0), (2, 0), (1, 1))
    assert scored.seats[1].moons == 2 and scored.seats[1].moons_shown == 2


def test_m5_covered_cards_count_for_nothing() -> None:
    scored = score_round(playing(table("A2/B3 A1 B1"), setup=NO_MOONS))
    assert scored.rows == (RowResult(0, (1, 6), 1),)  # B3 + corner B1 ×3; A's 2 is covered
    assert [p.visible for p in scored.seats] == [1, 2]


def test_m5_a_tied_row_ignores_every_card_in_it() -> None:
    scored = score_round(playing(table("A3 B3", "A4 B1"), setup=NO_MOONS))
    assert scored.rows == (RowResult(0, (3, 3), None), RowResult(1, (4, 3), 0))
    assert scored.ignored == ((0, 0), (1, 0), (1, 1))
    assert [p.points for p in scored.seats] == [1, 0]


def test_m5_the_round_goes_to_more_points() -> None:
    scored = score_round(playing(table("A3 A3 B4", "B1 . ."), setup=NO_MOONS))
    assert round_winner(scored.seats) == (0, "points")


def test_m5_a_tie_on_points_goes_to_more_visible_cards() -> None:
    scored = score_round(playing(table("A5 B2 B2", "B4 A1 ."), setup=NO_MOONS))
    assert [p.points for p in scored.seats] == [1, 1]
    assert [p.visible for p in scored.seats] == [2, 3]
    assert round_winner(scored.seats) == (1, "cards")


@pytest.mark.parametrize("last", [0, 1])
def test_m5_a_tie_on_points_and_cards_replays_the_round(last: int) -> None:
    cells, action = tied_round(last)
    state, events = play(playing(cells, player=last, starter=1 - last), action)
    scored = of_type(events, ev.RoundScored)[0]
    assert all(row.winner is None for row in scored.rows)
    assert scored.seats[0] == scored.seats[1] == RoundPoints(0, 0, 0, 0, 1, 6)
    assert [type(e) for e in events][-3:] == [ev.RoundEnded, ev.RoundScored, ev.RoundReplayed]
    assert state.rounds[-1].winner is None and state.alpha_due is None
    assert not state.packs[0].lone_wolf and not state.packs[1].lone_wolf


def test_m5_a_round_ended_by_play_is_scored_from_the_table_it_leaves() -> None:
    cells = table("A5 B2 B2 A1", "B4 A1 A3 B3", "B3 A3 B1 .")
    state = playing(cells, player=0, setup=NO_MOONS)
    state, events = play(state, Place(0, 4, (3, 2)))
    scored = of_type(events, ev.RoundScored)[0]
    assert replace(score_round(state), round=1) == scored, "the table stays as it was scored"
    # row 0: A 5 + corner 1 ×3 = 8 vs B 4; row 1: A 4 vs B 7; row 2: A 7 vs B 3 + 1 = 4
    assert scored.rows == (
        RowResult(0, (8, 4), 0),
        RowResult(1, (4, 7), 1),
        RowResult(2, (7, 4), 0),
    )
    assert scored.tripled == ((3, 0),)
    assert scored.seats[0] == RoundPoints(5, 0, 4, 1, 0, 6)
    assert scored.seats[1] == RoundPoints(3, 0, 2, 1, 0, 6)
    assert of_type(events, ev.RoundWon) == [ev.RoundWon(1, 0, "points")]
