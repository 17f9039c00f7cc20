"""M-3 Placement: the first card on [0, 0]; later cards next to one, within 4 × 3 or 3 × 4;
or covering an opponent's visible card exactly one lower, never their only one."""

from __future__ import annotations

import pytest

from domain.moonlight import events as ev
from domain.moonlight.actions import Place
from domain.moonlight.cards import Card
from domain.moonlight.legal import legal_actions
from domain.moonlight.rules import play
from domain.moonlight.state import Placed
from tests.moonlight.scenario import illegal, of_type, playing, start, table


def test_m3_the_first_card_of_a_round_goes_on_0_0() -> None:
    state, events = play(start(), Place(0, 2, (0, 0)))
    assert of_type(events, ev.CardPlaced) == [ev.CardPlaced(0, 2, (0, 0))]
    assert state.cells == {(0, 0): (Placed(0, 2),)}


def test_m3_the_first_card_anywhere_else_is_illegal() -> None:
    illegal(start(), Place(0, 2, (1, 0)), "M-3", "a 2", "[1, 0]", "[0, 0]")


def test_m3_a_card_goes_on_an_empty_cell_next_to_a_card() -> None:
    state = playing(table("A2 B3"), player=0)
    for cell in ((2, 0), (-1, 0), (0, 1), (1, -1)):
        after, events = play(state, Place(0, 4, cell))
        assert of_type(events, ev.CardPlaced) == [ev.CardPlaced(0, 4, cell)]
        assert after.cells[cell] == (Placed(0, 4),)


def test_m3_an_empty_cell_not_next_to_a_card_is_illegal() -> None:
    state = playing(table("A2 B3"), player=0)
    illegal(state, Place(0, 4, (3, 0)), "M-3", "a 4 on [3, 0]", "not next to a card")
    illegal(state, Place(0, 4, (2, 1)), "M-3", "[2, 1]")  # diagonal only


def test_m3_the_cards_may_fill_four_columns_by_three_rows() -> None:
    state = playing(table("A1 B1 A2 B2", "A3 B3 A4 .", left=0, top=-1), player=1)
    after, _ = play(state, Place(1, 3, (3, 0)))  # the 4 × 2 block grows to 4 × 2 still
    assert (3, 0) in after.cells
    after, _ = play(state, Place(1, 3, (0, 1)))  # a third row: 4 × 3
    assert (0, 1) in after.cells


def test_m3_a_fifth_column_is_illegal() -> None:
    state = playing(table("A1 B1 A2 B2"), player=0)
    illegal(state, Place(0, 3, (4, 0)), "M-3", "a 3 on [4, 0]", "5 × 1", "4 × 3 or 3 × 4")
    illegal(state, Place(0, 3, (-1, 0)), "M-3", "a 3 on [-1, 0]")


def test_m3_three_columns_by_four_rows_is_legal_but_four_by_four_is_not() -> None:
    state = playing(table("A1 B1 A2", "B2 A3 B3", "A4 . .", top=0), player=1)
    after, _ = play(state, Place(1, 3, (0, 3)))  # 3 columns × 4 rows
    assert (0, 3) in after.cells
    tall = playing(table("A1 B1 A2", "B2 A3 B3", "A4 . .", "B4 . ."), player=0)
    illegal(tall, Place(0, 5, (3, 0)), "M-3", "a 5 on [3, 0]", "4 × 4")
    wide = playing(table("A1 B1 A2 B2", "B4 . . .", "A4 . . ."), player=1)
    illegal(wide, Place(1, 3, (0, 3)), "M-3", "[0, 3]", "4 × 4")


def test_m3_a_card_covers_an_opponents_card_exactly_one_lower() -> None:
    state = playing(table("A2 B3 A1"), player=1)
    after, events = play(state, Place(1, 3, (0, 0)))
    assert of_type(events, ev.CardCovered) == [ev.CardCovered(1, 3, (0, 0), 2)]
    assert after.cells[(0, 0)] == (Placed(0, 2), Placed(1, 3)), "the covered card stays under"
    assert after.visible(0) == 1 and after.visible(1) == 2


def test_m3_a_covered_card_is_covered_again_by_one_higher() -> None:
    state = playing(table("A2/B3 A1 B1"), player=0)
    after, _ = play(state, Place(0, 4, (0, 0)))
    assert [p.card for p in after.cells[(0, 0)]] == [2, 3, 4]


@pytest.mark.parametrize("card", [1, 2, 4, 5])
def test_m3_a_cover_by_any_other_value_is_illegal(card: Card) -> None:
    state = playing(table("A2 B3 A3"), player=1)
    illegal(state, Place(1, card, (0, 0)), "M-3", f"a {card}", "the 2 on [0, 0]", "exactly one")


def test_m3_a_3_never_covers_a_3() -> None:
    state = playing(table("A3 B1 A1"), player=1)
    illegal(state, Place(1, 3, (0, 0)), "M-3", "a 3 cannot cover the 3 on [0, 0]")


def test_m3_the_5_can_never_be_covered() -> None:
    state = playing(table("A5 B1 A1"), player=1)
    for card in (1, 2, 3, 4, 5):
        illegal(state, Place(1, card, (0, 0)), "M-3", "the 5 on [0, 0]")


def test_m3_a_card_never_covers_its_own_seats_card() -> None:
    state = playing(table("A2 B3 A1"), player=0)
    illegal(state, Place(0, 3, (0, 0)), "M-3", "a 3 cannot go on [0, 0]", "seat 0 (Ana)'s own 2")


def test_m3_the_opponents_only_visible_card_cannot_be_covered() -> None:
    state = playing(table("A2 B1"), player=1)
    illegal(
        state, Place(1, 3, (0, 0)), "M-3", "the 2 on [0, 0]", "seat 0 (Ana)'s only visible card"
    )
    covered = playing(table("A2 A3/B4 B1"), player=1)  # seat 0's 2 is its last visible card
    illegal(covered, Place(1, 3, (0, 0)), "M-3", "only visible card")


def test_m3_with_two_visible_cards_either_may_be_covered() -> None:
    state = playing(table("A2 B1 A2"), player=1)
    for cell in ((0, 0), (2, 0)):
        play(state, Place(1, 3, cell))


def test_m3_legal_actions_are_exactly_the_placements_play_accepts() -> None:
    state = playing(table("A2 B3 A1", "B1 A4 .", left=-1), player=1)
    legal = set(legal_actions(state))
    for card in (1, 2, 3, 4, 5):
        for x in range(-4, 5):
            for y in range(-4, 5):
                action = Place(1, card, (x, y))
                try:
                    play(state, action)
                except Exception:
                    assert action not in legal, action
                else:
                    assert action in legal, action
