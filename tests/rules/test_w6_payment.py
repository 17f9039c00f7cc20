"""W-6 payment: tiles showing the target's terrain, bonus terrain tokens, engine completion.

Seat 0 is at home in forest. With the default tiles it starts showing
slot 0 forest (faction), 1 forest, 2 mountain, 3 grassland, 4 tundra, 5 desert;
backs: 1 mountain, 2 grassland, 3 tundra, 4 desert, 5 forest.
"""

from __future__ import annotations

from domain.wolves import BuildDen, Dominate, Move, Pay, WolfStep, play
from domain.wolves import events as ev
from tests.rules.scenario import flipped, grid_map, illegal, of_type, scenario, set_board

#   x: 0  1  2  3
PAY = grid_map(
    "f1 f1 g1 m1",  # y=0
    "f1 f1 g1 m1",  # y=1   seat 0's alpha on (1, 1)
    "t1 t1 d1 d1",  # y=2
)
FOREST, GRASS, MOUNTAIN, TUNDRA = (0, 1), (2, 1), (3, 1), (1, 2)


def paid(events: list[ev.Event]) -> ev.Paid:
    return next(e.paid for e in events if hasattr(e, "paid"))


def test_w6_exact_cost_with_named_tiles_flips_them() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0"})
    after, events = play(state, BuildDen(0, FOREST, "speed", Pay((0, 1))))
    assert paid(events) == ev.Paid((0, 1), 0, "forest")
    assert after.boards[0].flipped == flipped(1), "W-5: the faction tile is never shown flipped"
    assert after.showing(0, 0) == "forest", "the faction tile shows home on both faces"
    assert after.showing(0, 1) == "mountain"


def test_w6_tile_showing_another_terrain_is_refused() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0"})
    illegal(
        state,
        BuildDen(0, FOREST, "speed", Pay((0, 2))),
        "W-6.2",
        "tile slot 2 shows mountain, not forest",
    )
    illegal(
        state,
        Move(0, (WolfStep((1, 1), GRASS, "alpha"),), Pay((0,))),
        "W-6.1",
        "tile slot 0 shows forest, not grassland",
    )


def test_w6_more_or_fewer_than_the_cost() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0"}, tokens=2)
    illegal(
        state,
        BuildDen(0, FOREST, "speed", Pay((0, 1), 1)),
        "W-6.2",
        "pays 3 for an action costing 2",
    )
    illegal(
        state,
        Move(0, (WolfStep((1, 1), FOREST, "alpha"),), Pay((0, 1))),
        "W-6.1",
        "pays 2 for an action costing 1",
    )
    # fewer: grassland shows on one tile only and no token is left to complete it
    set_board(state, 0, bonus_terrain=0)
    illegal(
        state,
        BuildDen(0, GRASS, "speed", Pay((3,))),
        "W-6.2",
        "cannot pay 2 grassland",
        "shows grassland on 1 tiles",
        "holds 0 bonus terrain",
    )


def test_w6_bonus_terrain_token_stands_in_for_a_tile() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0"}, tokens=1)
    after, events = play(state, BuildDen(0, GRASS, "howl", Pay((3,), 1)))
    assert paid(events) == ev.Paid((3,), 1, "grassland")
    assert after.boards[0].bonus_terrain == 0
    assert after.boards[0].flipped == flipped(3)


def test_w6_bonus_terrain_tokens_alone() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0"}, tokens=3)
    after, events = play(state, BuildDen(0, TUNDRA, "howl", Pay((), 2)))
    assert paid(events) == ev.Paid((), 2, "tundra")
    assert after.boards[0].flipped == flipped()
    assert after.boards[0].bonus_terrain == 1


def test_w6_token_accounting_is_checked() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0"}, tokens=1)
    illegal(
        state,
        BuildDen(0, TUNDRA, "howl", Pay((), 2)),
        "W-6",
        "pays 2 bonus terrain tokens, seat 0 (P0) holds 1",
    )
    illegal(state, BuildDen(0, FOREST, "howl", Pay((0, 0))), "W-6", "flip one tile twice")
    illegal(state, BuildDen(0, FOREST, "howl", Pay((0, 6))), "W-6", "tile slot 6 does not exist")
    illegal(state, BuildDen(0, FOREST, "howl", Pay((-1, 0))), "W-6", "tile slot -1 does not exist")


def test_w6_negative_token_count_is_refused() -> None:
    """A payment may not "spend" a negative number of tokens to flip extra tiles and gain one."""
    state = scenario(PAY, pieces={(1, 1): "A0"})
    set_board(state, 0, flipped=flipped(5))  # slot 5 now shows forest too
    illegal(state, BuildDen(0, FOREST, "howl", Pay((0, 1, 5), -1)), "W-6", "-1")
    illegal(state, Move(0, (WolfStep((1, 1), FOREST, "alpha"),), Pay((), -1)), "W-6", "-1")


def test_w6_completion_faction_tile_first_then_lowest_slots_then_tokens() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0", (0, 0): "P1"}, tokens=1)
    set_board(state, 0, flipped=flipped(5))  # forest on slots 0, 1 and 5
    _, events = play(state, BuildDen(0, FOREST, "howl"))
    assert paid(events) == ev.Paid((0, 1), 0, "forest")
    _, events = play(state, BuildDen(0, FOREST, "howl", Pay((5,))))
    assert paid(events) == ev.Paid((5, 0), 0, "forest"), "asked tiles kept, then slot 0"
    _, events = play(state, Dominate(0, (0, 0), piece="pack"))
    assert paid(events) == ev.Paid((0, 1, 5), 0, "forest")
    _, events = play(state, BuildDen(0, GRASS, "howl"))
    assert paid(events) == ev.Paid((3,), 1, "grassland"), "tiles before tokens"
    _, events = play(state, BuildDen(0, GRASS, "howl", Pay(bonus_terrain=1)))
    assert paid(events) == ev.Paid((3,), 1, "grassland")
    _, events = play(state, Move(0, (WolfStep((1, 1), FOREST, "alpha"),)))
    assert paid(events) == ev.Paid((0,), 0, "forest")


def test_w6_flipping_decides_what_later_actions_can_pay() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0 P0"}, actions_left=4)
    to_grass = Move(0, (WolfStep((1, 1), GRASS, "pack"),))
    state, events = play(state, to_grass)
    assert paid(events).tiles == (3,)  # grassland → tundra
    back = Move(0, (WolfStep(GRASS, (2, 0)),))
    illegal(state, back, "W-6.1", "cannot pay 1 grassland")
    # paying mountain with slot 2 turns it to grassland: grassland is payable again
    state, _ = play(state, Move(0, (WolfStep((1, 1), MOUNTAIN, "alpha"),)))
    assert state.showing(0, 2) == "grassland"
    state, events = play(state, back)
    assert paid(events) == ev.Paid((2,), 0, "grassland")
    # the faction tile pays home terrain every time
    assert state.showing(0, 0) == "forest"


def test_w6_an_illegal_action_pays_nothing() -> None:
    state = scenario(PAY, pieces={(1, 1): "A0"}, tokens=2)
    before = (state.boards, dict(state.pieces), state.actions_left)
    illegal(state, BuildDen(0, (3, 0), "speed"), "W-6.2", "distance 1")
    assert (state.boards, state.pieces, state.actions_left) == before


def test_w6_dominating_off_home_terrain_needs_a_token() -> None:
    """A non-home terrain shows on at most 2 tiles, so cost 3 needs a bonus terrain token."""
    state = scenario(PAY, pieces={(1, 1): "A0", (2, 1): "P1"})
    set_board(state, 0, flipped=flipped(2))  # grassland on slots 2 and 3
    illegal(state, Dominate(0, (2, 1)), "W-6.5", "cannot pay 3 grassland", "on 2 tiles")
    set_board(state, 0, bonus_terrain=1)
    _, events = play(state, Dominate(0, (2, 1)))
    assert paid(events) == ev.Paid((2, 3), 1, "grassland")
    assert of_type(events, ev.PieceDominated)[0].replacement == "pack"
