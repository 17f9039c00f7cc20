"""M-2 Rounds and turns: shuffled decks, hands of 3, alternating turns, who starts a round,
and the cards a seat may place (its hand when the draws are known, its counts otherwise)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.moonlight import events as ev
from domain.moonlight.actions import AlphaPower, Place, RoundStart
from domain.moonlight.cards import LONE_WOLF, Card, deck_cards
from domain.moonlight.rules import play
from domain.moonlight.state import Phase
from tests.moonlight.scenario import (
    PLAYERS,
    fill_won_by,
    illegal,
    make_setup,
    of_type,
    playing,
    run,
    start,
    table,
    tied_round,
)

ORDER_0: tuple[Card, ...] = (3, 1, 5, 2, 3, 4, 1, 3, 2, 4, 3)
ORDER_1: tuple[Card, ...] = (4, 4, 2, 3, 3, 1, 5, 2, 1, 3, 3)


def test_m2_seat_0_starts_round_1_and_turns_alternate() -> None:
    state, events = run(start(), Place(0, 2, (0, 0)), Place(1, 2, (1, 0)), Place(0, 4, (2, 0)))
    assert of_type(events, ev.RoundStarted) == [ev.RoundStarted(1, 0, named=False)]
    assert state.player == 1


def test_m2_a_seat_acting_out_of_turn_is_illegal() -> None:
    illegal(
        start(), Place(1, 2, (0, 0)), "M-2", "seat 0 (Ana)'s turn, not seat 1 (Bo)'s", "round_start"
    )
    state, _ = play(start(), Place(0, 2, (0, 0)))
    illegal(state, Place(0, 3, (1, 0)), "M-2", "seat 1 (Bo)'s turn, not seat 0 (Ana)'s")


def test_m2_a_round_start_names_the_starting_seat() -> None:
    state, events = play(start(), RoundStart(1))
    assert events == [ev.RoundStarted(1, 1, named=True)]
    assert state.phase is Phase.PLAYING and state.player == 1 and state.starter == 1
    after, _ = play(state, Place(1, 5, (0, 0)))
    assert after.player == 0


def test_m2_a_round_start_after_the_round_began_is_illegal() -> None:
    state, _ = play(start(), Place(0, 2, (0, 0)))
    illegal(state, RoundStart(1), "M-2", "round 1 has begun")
    named, _ = play(start(), RoundStart(0))
    illegal(named, RoundStart(1), "M-2", "round 1 has begun")


def test_m2_without_draws_a_seat_places_any_value_it_still_has() -> None:
    state = playing(table("A1 B2 A1"), player=1)
    assert state.packs[0].left[0] == 0  # both 1s are on the table
    after, events = play(replace(state, player=0), Place(0, 5, (3, 0)))
    assert of_type(events, ev.CardDrawn) == [], "no draws are known"
    assert after.packs[0].cards_left == 8


def test_m2_without_draws_a_value_none_of_which_is_left_is_illegal() -> None:
    state = playing(table("A1 B2 A1"), player=0)
    illegal(state, Place(0, 1, (3, 0)), "M-2", "no 1 left in hand or deck", "[3, 0]")


def draws_setup() -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...]:
    return ((ORDER_0, ORDER_1),)


def test_m2_with_draws_each_seat_draws_3_then_one_after_each_card() -> None:
    state, events = play(start(make_setup(draws=draws_setup())), Place(0, 5, (0, 0)))
    drawn = of_type(events, ev.CardDrawn)
    assert drawn[:6] == [ev.CardDrawn(0, c) for c in ORDER_0[:3]] + [
        ev.CardDrawn(1, c) for c in ORDER_1[:3]
    ]
    assert drawn[6:] == [ev.CardDrawn(0, 2)], "the placing seat refills its hand"
    assert state.packs[0].hand == (3, 1, 2) and state.packs[1].hand == (4, 4, 2)
    assert state.packs[0].deck == ORDER_0[4:]


def test_m2_with_draws_a_card_not_in_hand_is_illegal() -> None:
    state = start(make_setup(draws=draws_setup()))
    illegal(state, Place(0, 4, (0, 0)), "M-2", "no 4 in hand", "[0, 0]", "hand: 3, 1, 5")
    after, _ = play(state, Place(0, 3, (0, 0)))
    illegal(after, Place(1, 5, (1, 0)), "M-2", "no 5 in hand", "hand: 4, 4, 2")


def test_m2_draws_missing_for_a_round_are_illegal() -> None:
    illegal(start(make_setup(draws=())), Place(0, 3, (0, 0)), "M-2", "setup.draws", "round 1")


def test_m2_a_deck_order_without_the_lone_wolf_its_holder_shuffles_in_is_illegal() -> None:
    lone = (*ORDER_0, LONE_WOLF)
    state = start(make_setup(draws=((lone, ORDER_1),)))
    illegal(state, Place(0, 3, (0, 0)), "M-2", "setup.draws[0][0]", "without the Lone Wolf")
    holder = replace(state, packs=(replace(state.packs[0], lone_wolf=True), state.packs[1]))
    after, _ = play(holder, Place(0, 3, (0, 0)))
    assert after.packs[0].deck is not None and LONE_WOLF in after.packs[0].deck
    plain = start(make_setup(draws=((ORDER_0, ORDER_1),)))
    holder = replace(plain, packs=(replace(plain.packs[0], lone_wolf=True), plain.packs[1]))
    illegal(holder, Place(0, 3, (0, 0)), "M-2", "setup.draws[0][0]", "with the Lone Wolf")


def test_m2_each_round_shuffles_the_whole_deck_again() -> None:
    state = playing(table("A1"), player=1)
    assert sorted(deck_cards(False)) == [1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5]
    between = replace(state, phase=Phase.BETWEEN, starter=1, player=1)
    after, _ = play(between, Place(1, 2, (0, 0)))
    assert after.packs[0].cards_left == 11 and after.packs[1].cards_left == 10
    assert after.cells == {(0, 0): after.cells[(0, 0)]}, "the table was cleared"


@pytest.mark.parametrize("winner", [0, 1])
def test_m2_the_loser_starts_the_next_round(winner: int) -> None:
    state, events = run(start(), *fill_won_by(winner))
    assert of_type(events, ev.RoundWon) == [ev.RoundWon(1, winner, "points")]
    loser = 1 - winner
    assert state.player == loser and state.starter == loser and state.alpha_due == loser
    state, _ = play(state, AlphaPower(loser, "Moon Call"))
    illegal(
        state,
        Place(winner, 3, (0, 0)),
        "M-2",
        f"seat {loser} ({PLAYERS[loser].name}) starts round 2",
    )
    state, events = play(state, Place(loser, 3, (0, 0)))
    assert of_type(events, ev.RoundStarted) == [ev.RoundStarted(2, loser, named=False)]


@pytest.mark.parametrize("starter", [0, 1])
def test_m2_a_replayed_round_is_started_by_the_seat_that_started_it(starter: int) -> None:
    cells, last = tied_round(last=1 - starter)
    state = playing(cells, player=last.player, starter=starter)
    state, events = play(state, last)
    assert of_type(events, ev.RoundReplayed) == [ev.RoundReplayed(1)]
    assert state.player == starter and state.round == 1 and state.alpha_due is None
    illegal(
        state,
        Place(1 - starter, 3, (0, 0)),
        "M-2",
        f"seat {starter} ({PLAYERS[starter].name}) starts round 1",
    )
    _, events = play(state, Place(starter, 3, (0, 0)))
    assert of_type(events, ev.RoundStarted) == [ev.RoundStarted(1, starter, named=False)]
