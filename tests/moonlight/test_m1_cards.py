"""M-1 Cards: each seat's deck of 11, the moons and the Lone Wolf as the record's setup
gives them, and the assumed deck labelled as an assumption."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.moonlight.cards import (
    ASSUMPTION,
    COUNTS,
    DECK_SIZE,
    LONE_WOLF,
    Faces,
    assumed_setup,
    deck_cards,
)
from domain.moonlight.fields import read_setup, setup_to_json
from domain.moonlight.legal import placements
from domain.ruleset import InvalidRecord
from tests.moonlight.scenario import make_setup, start


def test_m1_a_deck_holds_11_wolf_cards_of_values_1_to_5() -> None:
    assert COUNTS == {1: 2, 2: 2, 3: 4, 4: 2, 5: 1} and DECK_SIZE == 11
    assert Counter(deck_cards(lone_wolf=False)) == Counter(COUNTS)
    assert Counter(deck_cards(lone_wolf=True)) - Counter(deck_cards(False)) == Counter([LONE_WOLF])
    assert start().packs[0].cards_left == start().packs[1].cards_left == 11


def test_m1_the_assumed_deck_is_labelled_and_puts_one_moon_on_the_2s_and_the_5() -> None:
    faces = Faces.of(assumed_setup())
    assert {v: faces.moons[v] for v in (1, 2, 3, 4, 5)} == {1: 0, 2: 1, 3: 0, 4: 0, 5: 1}
    assert (faces.value[LONE_WOLF], faces.moons[LONE_WOLF]) == (4, 0)
    assert "assumed" in ASSUMPTION and "moon" in ASSUMPTION and "Lone Wolf" in ASSUMPTION


def test_m1_moons_and_the_lone_wolf_are_the_records_own() -> None:
    setup = make_setup(moons={1: 2, 3: 1, 5: 0}, lone_wolf=(2, 3))
    faces = Faces.of(setup)
    assert [faces.moons[v] for v in (1, 2, 3, 4, 5)] == [2, 1, 1, 0, 0]
    assert (faces.value[LONE_WOLF], faces.moons[LONE_WOLF]) == (2, 3)
    assert read_setup(setup_to_json(setup)) == setup


def test_m1_a_deck_with_other_counts_than_the_boxs_is_invalid() -> None:
    doc = setup_to_json(assumed_setup())
    doc["deck"][2]["count"] = 5
    with pytest.raises(InvalidRecord) as caught:
        read_setup(doc)
    assert caught.value.path == "setup.deck[2].count"
    assert "M-1" in caught.value.message and "4 cards of value 3" in caught.value.message


def test_m1_every_value_is_listed_once() -> None:
    doc = setup_to_json(assumed_setup())
    doc["deck"][3] = dict(doc["deck"][1])
    with pytest.raises(InvalidRecord) as caught:
        read_setup(doc)
    assert caught.value.path == "setup.deck[3].value" and "twice" in caught.value.message


def test_m1_the_deck_may_list_its_values_in_any_order() -> None:
    doc = setup_to_json(assumed_setup())
    doc["deck"].reverse()
    assert read_setup(doc) == assumed_setup()


def test_m1_a_value_has_no_power_beyond_the_1_and_the_3_so_all_values_place_alike() -> None:
    # every value may go on the first cell: only covering and scoring read a value
    assert {p.card for p in placements(start())} == {1, 2, 3, 4, 5}
