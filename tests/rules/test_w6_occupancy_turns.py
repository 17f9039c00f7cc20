"""W-6 occupancy, bonus action tokens and turn sequencing."""

from __future__ import annotations

import pytest

from domain.wolves import (
    BonusAction,
    BuildDen,
    Draft,
    Howl,
    Move,
    Pass,
    WolfStep,
    legal_actions,
    play,
)
from domain.wolves import events as ev
from domain.wolves.components import WolfKind
from tests.rules.scenario import grid_map, illegal, of_type, pieces_of, run, scenario, set_board

#   x: 0  1  2  3  4  5
FIELD = grid_map(
    "g1 g1 g1 g1 g1 g1",  # y=0
    "g1 g1 g1 g1 g1 g1",  # y=1
    "g1 g1 g1 ~1 g1 g1",  # y=2
    "g1 g1 g1 g1 g1 g1",  # y=3
    "g1 g1 g1 g1 g1 g1",  # y=4
    lone=[(0, 4)],
    prey={(5, 4): ("deer", 2)},
)


def step(src: tuple[int, int], dst: tuple[int, int], wolf: WolfKind | None = None) -> Move:
    return Move(0, (WolfStep(src, dst, wolf),))


# --- occupancy -----------------------------------------------------------------------------


def test_w6_at_most_two_pieces_on_a_hex() -> None:
    state = scenario(FIELD, pieces={(1, 1): "A0 P0", (2, 1): "P0", (1, 3): "D1 A0"}, tokens=9)
    illegal(state, step((2, 1), (1, 1)), "W-6", "[1, 1] already holds 2 pieces")
    illegal(state, step((2, 1), (1, 3)), "W-6", "[1, 3] already holds 2 pieces")
    illegal(state, BuildDen(0, (1, 1), "speed"), "W-6", "[1, 1] already holds 2 pieces")


def test_w6_one_territory_piece_per_hex() -> None:
    state = scenario(FIELD, pieces={(1, 1): "A0", (2, 1): "D0", (1, 0): "L0"}, tokens=9)
    illegal(state, BuildDen(0, (2, 1), "speed"), "W-6.2", "[2, 1] already holds a den or lair")
    illegal(state, BuildDen(0, (1, 0), "speed"), "W-6.2", "[1, 0] already holds a den or lair")


@pytest.mark.parametrize(
    ("mover", "there", "legal"),
    [
        ("pack", "D1", True),
        ("pack", "P1", False),
        ("pack", "A1", False),
        ("pack", "L1", False),
        ("alpha", "D1", True),
        ("alpha", "P1", True),  # pushes it
        ("alpha", "A1", False),
        ("alpha", "L1", False),
        ("pack", "D0", True),
        ("pack", "A0", True),
        ("alpha", "P0", True),
        ("alpha", "L0", True),
    ],
)
def test_w6_hierarchy_den_pack_alpha_lair(mover: WolfKind, there: str, legal: bool) -> None:
    """A wolf may join a single enemy piece only if it ranks higher; own pieces are fine."""
    me = "A0" if mover == "alpha" else "P0 A0"
    state = scenario(FIELD, pieces={(1, 1): me, (2, 1): there}, tokens=9)
    move = step((1, 1), (2, 1), mover)
    if not legal:
        kind = pieces_of(there)[0].kind
        article = "an" if mover == "alpha" else "a"
        words = f"{article} {mover} may not end on [2, 1] with seat 1 (P1)'s {kind}"
        illegal(state, move, "W-6", words)
        return
    after, events = play(state, move)
    assert pieces_of(f"{'A' if mover == 'alpha' else 'P'}0")[0] in after.at((2, 1))
    pushed = of_type(events, ev.WolfPushed)
    if there == "P1":
        assert pushed and pushed[0].src == (2, 1)
        assert all(p.player == 0 for p in after.at((2, 1)))
    else:
        assert not pushed
        assert pieces_of(there)[0] in after.at((2, 1)), "a den is never pushed"


def test_w6_den_with_a_higher_enemy_wolf_is_full() -> None:
    state = scenario(FIELD, pieces={(1, 1): "A0", (0, 0): "A0", (2, 1): "D1 P0"}, tokens=9)
    illegal(state, step((1, 1), (2, 1)), "W-6", "[2, 1] already holds 2 pieces")


def test_w6_tokens_block_ending_and_placing_but_not_passing() -> None:
    state = scenario(FIELD, pieces={(1, 4): "A0", (4, 3): "A0"}, tokens=9)
    illegal(state, step((1, 4), (0, 4)), "W-6", "[0, 4] holds a lone wolf or prey token")
    illegal(state, step((4, 3), (5, 4)), "W-6", "[5, 4] holds a lone wolf or prey token")
    illegal(state, BuildDen(0, (0, 4), "speed"), "W-6.2", "[0, 4] holds a lone wolf or prey token")
    illegal(state, BuildDen(0, (5, 4), "speed"), "W-6.2", "[5, 4] holds a lone wolf or prey token")
    # (1, 4) → (0, 4) lone wolf → (0, 3): passing over a token is fine
    play(state, Move(0, (WolfStep((1, 4), (0, 3), path=((0, 4), (0, 3))),)))


# --- bonus action tokens --------------------------------------------------------------------


def test_w6_bonus_action_gives_one_more_action() -> None:
    state = scenario(FIELD, pieces={(1, 1): "A0 P0"}, tokens=9)
    illegal(state, BonusAction(0), "W-6", "seat 0 (P0) holds no bonus action token")
    assert BonusAction(0) not in set(legal_actions(state))
    set_board(state, 0, bonus_action=2)
    assert BonusAction(0) in set(legal_actions(state))
    state, events = run(state, BonusAction(0), BonusAction(0))
    assert events == [ev.BonusActionSpent(0), ev.BonusActionSpent(0)]
    assert (state.actions_left, state.boards[0].bonus_action) == (4, 0)
    moves = [step((1, 1), (1, 0), "pack"), step((1, 0), (1, 1)), step((1, 1), (1, 0), "pack")]
    state, events = run(state, *moves)
    assert (state.player, state.actions_left) == (0, 1)
    assert not of_type(events, ev.TurnEnded)
    state, events = play(state, step((1, 0), (1, 1)))
    assert of_type(events, ev.TurnEnded) == [ev.TurnEnded(0, 1, 0)]


def test_w6_bonus_action_may_be_spent_before_the_second_action() -> None:
    state = scenario(FIELD, pieces={(1, 1): "A0 P0"}, tokens=9)
    set_board(state, 0, bonus_action=1)
    state, _ = run(state, step((1, 1), (1, 0), "pack"), BonusAction(0))
    assert (state.player, state.actions_left) == (0, 2)


# --- turn sequencing --------------------------------------------------------------------------


def test_w6_two_actions_then_the_next_seat() -> None:
    state = scenario(FIELD, pieces={(1, 1): "A0 P0", (4, 0): "A1", (4, 4): "A2"}, tokens=9)
    state, events = run(state, step((1, 1), (1, 0), "pack"), step((1, 0), (0, 0)))
    assert events[-1] == ev.TurnEnded(0, 1, 0)
    assert (state.player, state.actions_left) == (1, 2)
    illegal(state, step((1, 1), (2, 1)), "W-6", "it is seat 1 (P1)'s turn, not seat 0 (P0)'s")
    state, _ = run(state, Move(1, (WolfStep((4, 0), (5, 0)),)), Pass(1))
    assert state.player == 2
    state, events = play(state, Pass(2))
    assert events == [ev.Passed(2), ev.TurnEnded(2, 0, 1)], "seat 3 passes: back to seat 1"
    assert (state.player, state.actions_left) == (0, 2)


def test_w6_pass_forfeits_the_actions_left() -> None:
    state = scenario(FIELD, pieces={(1, 1): "A0"}, tokens=9)
    set_board(state, 0, bonus_action=1)
    state, _ = play(state, BonusAction(0))
    state, events = play(state, Pass(0))
    assert events == [ev.Passed(0), ev.TurnEnded(0, 1, 0)]
    assert state.player == 1 and state.boards[0].bonus_action == 0


def test_w6_the_draft_is_over() -> None:
    state = scenario(FIELD, pieces={(1, 1): "A0"}, tokens=9)
    illegal(state, Draft(0, (2, 2)), "W-4.1", "the draft is over")
    illegal(
        state, Howl(0, (0, 4)), "W-6.4", "no alpha of seat 0 (P0) within howl range 2 of [0, 4]"
    )
