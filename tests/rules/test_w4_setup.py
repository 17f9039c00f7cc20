"""W-4 setup and W-4.1 draft."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.wolves import (
    Draft,
    PlayerBoard,
    State,
    generate_setup,
    initial_state,
    legal_actions,
    play,
)
from domain.wolves import components as box
from domain.wolves import events as ev
from tests.rules.scenario import illegal, players, run


@pytest.mark.parametrize(
    ("n", "stacks"),
    [
        (3, {("crescent",): 2, ("quarter",): 2, ("full",): 2}),
        (4, {("crescent",): 2, ("quarter",): 3, ("full",): 3}),
        (5, {("crescent",): 3, ("quarter",): 4, ("full",): 3}),
        (2, {("crescent",): 1, ("full",): 2, ("crescent", "quarter"): 1, ("quarter", "full"): 1}),
    ],
)
def test_w4_2_scoring_tokens(n: int, stacks: dict[tuple[str, ...], int]) -> None:
    state = initial_state(players(n), generate_setup(n, seed=11))
    assert Counter(state.scoring.values()) == stacks


@pytest.mark.parametrize(
    ("n", "prey"),
    [
        (2, {("deer", 1): 1, ("boar", 1): 1, ("raccoon", 1): 1, ("hare", 1): 1, ("moose", 1): 1}),
        (3, {("hare", 2): 2, ("boar", 2): 1, ("deer", 2): 1, ("moose", 2): 1, ("raccoon", 2): 1}),
        (4, {("hare", 2): 2, ("boar", 2): 2, ("raccoon", 2): 2, ("deer", 2): 1, ("moose", 2): 1}),
        (5, {(p, 2): 2 for p in box.PREY_TYPES}),
    ],
)
def test_w4_3_4_lone_wolves_and_prey(n: int, prey: dict[tuple[str, int], int]) -> None:
    state = initial_state(players(n), generate_setup(n, seed=5))
    gmap = state.table.map
    assert Counter(state.prey.values()) == prey
    assert all(gmap.markers[h] == "prey" for h in state.prey)
    assert len(state.lone_wolves) == 2 * len(gmap.regions)
    per_region = Counter(gmap.region_of[h] for h in state.lone_wolves)
    assert set(per_region.values()) == {2}


def test_w4_5_6_boards_at_start() -> None:
    state = initial_state(players(4), generate_setup(4, seed=2))
    assert state.boards == (PlayerBoard(),) * 4
    assert not state.pieces, "no piece on the map before the draft"
    assert state.drafting and state.player == 0


def test_w4_5_seats_keep_their_home_terrain() -> None:
    state = initial_state(players(3), generate_setup(3, seed=2))
    assert [p.terrain for p in state.table.players] == ["forest", "tundra", "desert"]
    assert state.showing(1, 0) == "tundra"


# --- W-4.1 draft --------------------------------------------------------------------------


def start_hexes(state: State, side: str) -> list[tuple[int, int]]:
    return sorted(h for h, s in state.table.map.side.items() if s == side)


def draft_hexes(state: State) -> set[tuple[int, int]]:
    """The hexes of the legal actions, every one of them a draft."""
    hexes = set()
    for action in legal_actions(state):
        assert isinstance(action, Draft), action
        hexes.add(action.hex)
    return hexes


@pytest.mark.parametrize("n", [3, 4, 5])
def test_w4_1_snake_order(n: int) -> None:
    state = initial_state(players(n), generate_setup(n, seed=n))
    north, south = start_hexes(state, "north"), start_hexes(state, "south")
    order = []
    for _ in range(2 * n):
        seat = state.player
        order.append(seat)
        mine = [h for h, _ in state.wolves_of(seat)]
        free = south if mine else north
        h = next(h for h in free if not state.at(h))
        state, events = play(state, Draft(seat, h))
        assert events == [ev.WolvesDrafted(seat, h)]
        assert sorted(p.kind for p in state.at(h)) == ["alpha", "pack"]
        assert all(p.player == seat for p in state.at(h))
    assert order == list(range(n)) + list(reversed(range(n)))
    assert not state.drafting
    assert (state.player, state.actions_left) == (0, 2), "seat 1 plays first, two actions"


def test_w4_1_draft_must_be_on_the_start_tile() -> None:
    state = initial_state(players(3), generate_setup(3, seed=1))
    region_hex = next(h for h in state.table.map.region_of if state.table.map.is_land(h))
    illegal(state, Draft(0, region_hex), "W-4.1", "not on the start tile", f"[{region_hex[0]}, ")
    chasm = (8, 9)
    illegal(state, Draft(0, chasm), "W-4.1", "[8, 9] is not a land hex")


def test_w4_1_second_pick_on_the_opposite_side() -> None:
    state = initial_state(players(3), generate_setup(3, seed=1))
    north, south = start_hexes(state, "north"), start_hexes(state, "south")
    state, _ = run(state, Draft(0, north[0]), Draft(1, north[1]), Draft(2, south[0]))
    # seat 2 picks again at once (the snake turns): same side is refused, the other is fine
    illegal(state, Draft(2, south[1]), "W-4.1", "other side", f"[{south[1][0]}, {south[1][1]}]")
    state, _ = play(state, Draft(2, north[2]))
    illegal(state, Draft(1, north[3]), "W-4.1", "other side")
    state, _ = play(state, Draft(1, south[1]))
    assert state.player == 0


def test_w4_1_draft_hex_must_be_empty_and_it_is_the_draft_first() -> None:
    state = initial_state(players(3), generate_setup(3, seed=1))
    north = start_hexes(state, "north")
    state, _ = play(state, Draft(0, north[0]))
    illegal(state, Draft(1, north[0]), "W-4.1", "is not empty")
    illegal(state, Draft(0, north[1]), "W-6", "seat 1 (P1)'s turn")
    legal = draft_hexes(state)
    assert legal == set(start_hexes(state, "north") + start_hexes(state, "south")) - {north[0]}


def test_w4_1_two_player_draft_only_outside_crescent_regions() -> None:
    state = initial_state(players(2), generate_setup(2, seed=3))
    gmap = state.table.map
    allowed = {
        h
        for h in gmap.land_neighbours
        if state.scoring[gmap.region_of[h]][0] != "crescent"
        and not state.at(h)
        and not state.has_token(h)
    }
    assert draft_hexes(state) == allowed
    crescent = next(
        h
        for h in gmap.land_neighbours
        if state.scoring[gmap.region_of[h]] == ("crescent", "quarter")
        and not state.has_token(h)
        and not state.at(h)
    )
    illegal(state, Draft(0, crescent), "W-4.1", "top token is a crescent", f"[{crescent[0]}, ")
    automaton = next(iter(state.pieces))
    illegal(state, Draft(0, automaton), "W-4.1", "is not empty")
    lone = min(state.lone_wolves)
    illegal(state, Draft(0, lone), "W-4.1", "is not empty")
    # seat 1, seat 2, seat 2, seat 1; no side rule: all four picks may share a region
    picks = sorted(allowed)[:4]
    order = []
    for h in picks:
        order.append(state.player)
        state, _ = play(state, Draft(state.player, h))
    assert order == [0, 1, 1, 0]
    assert (state.player, state.actions_left, state.drafting) == (0, 2, False)
