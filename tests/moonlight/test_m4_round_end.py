"""M-4 End of a round: the 12 cells of the rectangle filled, or a seat's last card placed
and the opponent's one more turn taken."""

from __future__ import annotations

from dataclasses import replace

from domain.moonlight import events as ev
from domain.moonlight.actions import Place
from domain.moonlight.cards import Card
from domain.moonlight.rules import play
from domain.moonlight.state import Phase
from tests.moonlight.scenario import fill_won_by, make_setup, of_type, playing, run, start, table


def test_m4_filling_the_twelfth_cell_ends_the_round() -> None:
    actions = fill_won_by(0)
    state, events = run(start(), *actions[:11])
    assert state.phase is Phase.PLAYING and of_type(events, ev.RoundEnded) == []
    state, events = play(state, actions[11])
    assert of_type(events, ev.RoundEnded) == [ev.RoundEnded(1, "rectangle_full")]
    assert [type(e) for e in events] == [
        ev.CardPlaced, ev.RoundEnded, ev.RoundScored, ev.RoundWon, ev.LoneWolfGained,
    ]  # fmt: skip
    assert state.phase is Phase.BETWEEN and len(state.cells) == 12, "the table stays to be seen"


def test_m4_three_by_four_filled_ends_the_round_too() -> None:
    cells = table("A1 B1 A2", "B2 A3 B3", "A4 B4 A3", "B3 A3 .")
    state = playing(cells, player=1)
    _, events = play(state, Place(1, 5, (2, 3)))
    assert of_type(events, ev.RoundEnded) == [ev.RoundEnded(1, "rectangle_full")]


def test_m4_eleven_cells_and_a_cover_do_not_end_the_round() -> None:
    cells = table("A1 B1 A2 B2", "B2 A3 B3 A4", "A4 B4 A3 .")
    state = playing(cells, player=1)
    after, events = play(state, Place(1, 4, (1, 1)))  # covers seat 0's 3
    assert of_type(events, ev.RoundEnded) == [] and after.phase is Phase.PLAYING


def test_m4_the_starters_last_card_gives_the_opponent_one_more_turn() -> None:
    state = playing(table("A2 B1"), player=0, left=({5: 1}, {3: 2, 4: 1}))
    state, events = play(state, Place(0, 5, (2, 0)))
    assert of_type(events, ev.LastCardPlaced) == [ev.LastCardPlaced(0)]
    assert of_type(events, ev.RoundEnded) == [] and state.last_turn == 1 and state.player == 1
    state, events = play(state, Place(1, 3, (0, 0)))
    assert of_type(events, ev.RoundEnded) == [ev.RoundEnded(1, "last_card")]
    assert state.packs[1].cards_left == 2, "the round ends with cards still in hand"


def test_m4_the_second_seats_last_card_gives_the_starter_one_more_turn() -> None:
    state = playing(table("A2 B1 A1"), player=1, starter=0, left=({3: 2}, {4: 1}))
    state, events = play(state, Place(1, 4, (3, 0)))
    assert of_type(events, ev.LastCardPlaced) == [ev.LastCardPlaced(1)]
    assert state.phase is Phase.PLAYING and state.player == 0
    state, events = play(state, Place(0, 3, (0, 1)))
    assert of_type(events, ev.RoundEnded) == [ev.RoundEnded(1, "last_card")]


def test_m4_the_one_more_turn_may_be_the_opponents_last_card_too() -> None:
    state = playing(table("A2 B1"), player=0, left=({5: 1}, {4: 1}))
    state, _ = play(state, Place(0, 5, (2, 0)))
    state, events = play(state, Place(1, 4, (3, 0)))
    assert of_type(events, ev.LastCardPlaced) == [], "no third turn follows"
    assert of_type(events, ev.RoundEnded) == [ev.RoundEnded(1, "last_card")]


def test_m4_a_seat_with_cards_left_does_not_end_the_round() -> None:
    state = playing(table("A2 B1"), player=0, left=({5: 1, 1: 1}, {3: 2}))
    state, events = play(state, Place(0, 5, (2, 0)))
    assert of_type(events, ev.LastCardPlaced) == [] and state.last_turn is None


def test_m4_with_draws_the_last_card_is_placed_when_hand_and_deck_are_empty() -> None:
    order: tuple[Card, ...] = (5, 5, 4, 4, 3, 3, 3, 3, 2, 2, 1)
    setup = make_setup(draws=((order, order),))
    state = playing(table("A2 B1"), player=0, setup=setup, left=({5: 1, 4: 1}, {3: 2}))
    one, two = state.packs
    state = replace(
        state, packs=(replace(one, hand=(5,), deck=(4,)), replace(two, hand=(3, 3), deck=()))
    )
    state, events = play(state, Place(0, 5, (2, 0)))
    assert of_type(events, ev.CardDrawn) == [ev.CardDrawn(0, 4)]
    assert of_type(events, ev.LastCardPlaced) == [], "the deck still had a card"
    state, _ = play(state, Place(1, 3, (-1, 0)))
    state, events = play(state, Place(0, 4, (0, 1)))
    assert of_type(events, ev.CardDrawn) == [] and of_type(events, ev.LastCardPlaced) == [
        ev.LastCardPlaced(0)
    ]
