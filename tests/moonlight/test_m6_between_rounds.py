"""M-6 Between rounds: the winner adds the Lone Wolf to its deck (once), the loser chooses
an Alpha Power — recorded, with no effect."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.moonlight import events as ev
from domain.moonlight.actions import AlphaPower, Place, RoundStart
from domain.moonlight.cards import INDEX, LONE_WOLF
from domain.moonlight.legal import legal_actions
from domain.moonlight.rules import play
from domain.moonlight.state import Phase
from tests.moonlight.scenario import fill_won_by, illegal, of_type, playing, run, start, table


@pytest.mark.parametrize("winner", [0, 1])
def test_m6_the_rounds_winner_gains_the_lone_wolf(winner: int) -> None:
    state, events = run(start(), *fill_won_by(winner))
    assert of_type(events, ev.LoneWolfGained) == [ev.LoneWolfGained(winner)]
    assert state.packs[winner].lone_wolf and not state.packs[1 - winner].lone_wolf
    state, _ = run(state, AlphaPower(1 - winner, "Moon Call"), Place(1 - winner, 3, (0, 0)))
    assert state.packs[winner].left[INDEX[LONE_WOLF]] == 1, "shuffled into its deck"
    assert state.packs[winner].cards_left == 12
    state, events = play(state, Place(winner, LONE_WOLF, (1, 0)))
    assert of_type(events, ev.CardPlaced) == [ev.CardPlaced(winner, LONE_WOLF, (1, 0))]


def test_m6_a_seat_holds_the_lone_wolf_once() -> None:
    cells = table("A5 B1 A4 B1", "A4 B2 A3 B2", "A3 B3 A3 .")
    state = playing(cells, player=1, lone_wolf=(True, False))
    state = replace(state, packs=(replace(state.packs[0], rounds_won=0), state.packs[1]))
    _, events = play(state, Place(1, 3, (3, 2)))
    assert of_type(events, ev.RoundWon) == [ev.RoundWon(1, 0, "points")]
    assert of_type(events, ev.LoneWolfGained) == [], "seat 0 holds it already"


def test_m6_a_seat_without_the_lone_wolf_cannot_place_it() -> None:
    illegal(
        start(), Place(0, LONE_WOLF, (0, 0)), "M-6", "seat 0 (Ana) holds no Lone Wolf", "[0, 0]"
    )


def test_m6_the_lone_wolf_shows_the_setups_value() -> None:
    state = playing(table("B3 B1 A2"), player=0, lone_wolf=(True, False))  # Lone Wolf value 4
    after, events = play(state, Place(0, LONE_WOLF, (0, 0)))
    assert of_type(events, ev.CardCovered) == [ev.CardCovered(0, LONE_WOLF, (0, 0), 3)]
    illegal(after, Place(1, 4, (0, 0)), "M-3", "the Lone Wolf on [0, 0]")
    covered, _ = play(after, Place(1, 5, (0, 0)))  # a 5 covers it, as any 4
    assert covered.cells[(0, 0)][-1].card == 5


def test_m6_the_loser_chooses_an_alpha_power_before_the_next_round() -> None:
    state, _ = run(start(), *fill_won_by(0))
    assert state.alpha_due == 1 and state.player == 1
    assert legal_actions(state) == [AlphaPower(1, "unnamed Alpha Power")]
    illegal(state, Place(1, 3, (0, 0)), "M-6", "seat 1 (Bo) lost round 1", "Alpha Power")
    illegal(state, RoundStart(0), "M-6", "seat 1 (Bo) lost round 1")
    illegal(state, AlphaPower(0, "Moon Call"), "M-6", "only seat 1 (Bo) chooses")
    after, events = play(state, AlphaPower(1, "Moon Call"))
    assert events == [ev.AlphaPowerChosen(1, "Moon Call")]
    assert after.packs[1].power == "Moon Call" and after.alpha_due is None
    assert after.phase is Phase.BETWEEN and after.player == 1
    illegal(after, AlphaPower(1, "Again"), "M-6", "no Alpha Power is chosen now")


def test_m6_an_alpha_power_has_no_effect() -> None:
    state, _ = run(start(), *fill_won_by(0))
    with_power, _ = play(state, AlphaPower(1, "Moon Call"))
    named = replace(
        with_power, packs=(with_power.packs[0], replace(with_power.packs[1], power="X"))
    )
    assert legal_actions(with_power) == legal_actions(named)
    for action in legal_actions(with_power)[2:]:
        assert play(with_power, action)[1] == play(named, action)[1]


def test_m6_no_alpha_power_is_chosen_in_a_round() -> None:
    state, _ = play(start(), Place(0, 3, (0, 0)))
    illegal(state, AlphaPower(1, "Moon Call"), "M-6", "no Alpha Power is chosen now")
    illegal(start(), AlphaPower(0, "Moon Call"), "M-6", "no Alpha Power is chosen now")
