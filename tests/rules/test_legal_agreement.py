"""``legal_actions``, ``single_moves`` and ``sample_move`` agree with ``decide``.

Positions come from random self-play (2–5 players). Every generated action is accepted;
mutated ones are rejected under the right rule; for dens, lairs, howls, dominates and
one-wolf moves a brute force over every hex equals what the generators yield.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from domain.hexes import Hex, distance, fmt
from domain.wolves import (
    Action,
    BuildDen,
    Dominate,
    Howl,
    IllegalAction,
    Move,
    Pay,
    State,
    UpgradeLair,
    WolfStep,
    decide,
    legal_actions,
    play,
    sample_move,
    single_moves,
)
from domain.wolves import components as box
from domain.wolves.actions import Pass
from domain.wolves.rules import close_turn
from tests.games import random_game
from tests.rules.scenario import grid_map, scenario

GAMES = [(n, seed) for n in (2, 3, 4, 5) for seed in (1, 2)]
CLAWS: Any = "claws"
"""Not a track: ``decide`` refuses it (W-6.2, W-6.5)."""


@cache
def games() -> tuple[tuple[State, ...], ...]:
    """The positions before each action of the random games."""
    return tuple(random_game(n, seed).states[:-1] for n, seed in GAMES)


def positions(every: int) -> list[State]:
    """Every ``every``-th position after the draft."""
    return [s for before in games() for s in [s for s in before if not s.drafting][::every]]


def rejected(state: State, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        decide(state, action)
    return caught.value


def key(action: Action) -> tuple[object, ...]:
    """An action without its payment (``legal_actions`` fills in the canonical one)."""
    return (type(action).__name__, *(v for k, v in vars_of(action).items() if k != "pay"))


def vars_of(action: Action) -> dict[str, object]:
    return {f: getattr(action, f) for f in action.__dataclass_fields__}


# --- everything generated is accepted ---------------------------------------------------------


def test_generated_actions_are_accepted() -> None:
    rng = random.Random(7)
    checked = 0
    for state in positions(12):
        for action in [*legal_actions(state), *single_moves(state)]:
            decide(state, action)
            checked += 1
        for _ in range(3):
            move = sample_move(state, rng)
            if move is not None:
                decide(state, move)
    assert checked > 5000


def test_draft_picks_are_accepted() -> None:
    for before in games():
        for state in before[: len(before[0].table.draft_order)]:
            picks = list(legal_actions(state))
            assert picks
            for pick in picks:
                decide(state, pick)


# --- completeness by brute force -------------------------------------------------------------


def accepted(state: State, action: Action) -> bool:
    try:
        decide(state, action)
    except IllegalAction:
        return False
    return True


def brute_targets(state: State) -> set[tuple[object, ...]]:
    """Every den, lair, howl and dominate ``decide`` accepts, over all hexes and tracks."""
    seat, hexes, tracks = state.player, sorted(state.table.map.terrain), (*box.TRACKS, CLAWS)

    def candidates(h: Hex) -> tuple[Action, ...]:
        return (
            *(BuildDen(seat, h, t) for t in tracks),
            UpgradeLair(seat, h),
            Howl(seat, h),
            Dominate(seat, h, piece="pack"),
            *(Dominate(seat, h, piece="den", track=t) for t in tracks),
        )

    return {key(a) for h in hexes for a in candidates(h) if accepted(state, a)}


def legal_targets(state: State) -> set[tuple[object, ...]]:
    kinds = BuildDen | UpgradeLair | Howl | Dominate
    return {key(a) for a in legal_actions(state) if isinstance(a, kinds)}


def brute_moves(state: State) -> set[tuple[Hex, str, Hex]]:
    """Every one-wolf Move ``decide`` accepts, over all wolves and land hexes."""
    seat, land = state.player, sorted(state.table.map.land_neighbours)
    return {
        (src, kind, dst)
        for src, kind in set(state.wolves_of(seat))
        for dst in land
        if accepted(state, Move(seat, (WolfStep(src, dst, kind),)))
    }


def generated_moves(state: State) -> set[tuple[Hex, str | None, Hex]]:
    return {(m.steps[0].src, m.steps[0].wolf, m.steps[0].dst) for m in single_moves(state)}


def test_brute_force_equals_legal_actions() -> None:
    for state in positions(17):
        assert brute_targets(state) == legal_targets(state)


def test_brute_force_equals_single_moves() -> None:
    for state in positions(19):
        assert brute_moves(state) == generated_moves(state)


#   x: 0  1  2  3  4  5
TRICKY = grid_map(
    "g1 f1 g1 m1 g2 t2",  # y=0
    "g1 ~1 g1 f2 ~2 t2",  # y=1
    "d1 g1 g1 f2 f2 t2",  # y=2   a deer stack on (2, 2)
    "d1 d1 m1 m2 t2 t2",  # y=3
    lone=[(0, 3), (5, 0)],
    prey={(2, 2): ("deer", 2)},
)


@pytest.mark.parametrize("tokens", [0, 3])
@pytest.mark.parametrize(
    ("seats", "pieces"),
    [
        (3, {(1, 2): "A0 P0", (2, 1): "D1 A0", (3, 1): "P1", (1, 0): "D2 P1", (0, 0): "A2",
             (4, 2): "L1", (3, 2): "D0"}),
        (2, {(1, 2): "A0", (2, 1): "PX PX", (3, 1): "LX", (0, 1): "PX", (4, 2): "P1",
             (3, 3): "D1 A0"}),
        (3, {(0, 1): "A0", (1, 2): "A0 D0", (2, 1): "D1", (2, 0): "P1 D2", (3, 2): "A1 D0"}),
    ],
)  # fmt: skip
def test_brute_force_on_hand_made_positions(
    seats: int, pieces: dict[Hex, str], tokens: int
) -> None:
    """Mixed hexes, the automaton, tokens and lair sites, with and without bonus terrain."""
    state = scenario(TRICKY, seats=seats, pieces=pieces, tokens=tokens)
    assert brute_targets(state) == legal_targets(state)
    assert brute_moves(state) == generated_moves(state)


# --- mutations are rejected under the right rule --------------------------------------------------

RULE = {BuildDen: "W-6.2", UpgradeLair: "W-6.3", Howl: "W-6.4", Dominate: "W-6.5", Move: "W-6.1"}


def test_wrong_player_is_refused() -> None:
    for state in positions(9):
        if state.out_of_actions:  # the next seat's action ends a turn kept open by tokens (W-6)
            continue
        other = (state.player + 1) % len(state.table.players)
        for action in list(legal_actions(state))[:10]:
            err = rejected(state, replace(action, player=other))
            mover = state.player
            assert err.rule == "W-6" and f"seat {mover} (P{mover})'s turn" in err.message


def test_next_seat_ends_a_turn_kept_open_by_tokens() -> None:
    """W-6, records.md "Actions": a player with no action left but a bonus action token may
    only spend it or pass, and the next seat's action ends that turn as a pass would. Every
    action generated for the next seat is accepted, with the pass's turn end first; a seat
    that is neither of the two is refused."""
    checked = 0
    for state in positions(1):
        if not state.out_of_actions:
            continue
        seats, seat = len(state.table.players), state.player
        nxt = (seat + 1) % seats
        passed, ended = play(state, Pass(seat))
        assert close_turn(state) == passed
        if passed.finished:
            assert rejected(state, Pass(nxt)).rule == "W-7"
            continue
        assert passed.player == nxt
        for action in [*legal_actions(passed), *list(single_moves(passed))[:10]]:
            assert decide(state, action) == ended[1:] + decide(passed, action)
            checked += 1
        if seats > 2:
            err = rejected(state, Pass((seat + 2) % seats))
            assert err.rule == "W-6" and f"seat {nxt} (P{nxt})'s turn" in err.message
    assert checked > 500


def test_shifted_hex_is_refused_unless_legal() -> None:
    rng = random.Random(3)
    seen = 0
    for state in positions(5):
        legal = {key(a) for a in legal_actions(state)}
        alphas = state.alphas_of(state.player)
        for action in legal_actions(state):
            if not isinstance(action, BuildDen | UpgradeLair | Howl | Dominate):
                continue
            dx, dy = rng.choice([(0, 1), (1, 1), (-1, 0), (2, -1), (0, -3)])
            h: Hex = (action.hex[0] + dx, action.hex[1] + dy)
            shifted = replace(action, hex=h, pay=Pay())
            if key(shifted) in legal:
                continue
            err = rejected(state, shifted)
            seen += 1
            allowed = {RULE[type(action)], "W-6", "W-11"}
            assert err.rule in allowed, err
            assert fmt(h) in err.message or "cannot pay" in err.message, err
            if isinstance(action, BuildDen) and all(distance(a, h) > 1 for a in alphas):
                assert err.rule == "W-6.2", err
                assert "within distance 1" in err.message or "not a land hex" in err.message
    assert seen > 100


def test_wrong_track_is_refused() -> None:
    for state in positions(5):
        for action in legal_actions(state):
            if isinstance(action, BuildDen) or (isinstance(action, Dominate) and action.track):
                err = rejected(state, replace(action, track=CLAWS))
                assert err.rule == RULE[type(action)] and "not claws" in err.message


def test_wrong_payment_is_refused() -> None:
    checked = 0
    for state in positions(8):
        seat = state.player
        for action in [*legal_actions(state), *list(single_moves(state))[:20]]:
            if not isinstance(action, BuildDen | UpgradeLair | Howl | Dominate | Move):
                continue
            terrain = _paid_terrain(state, action)
            wrong = [s for s in range(6) if state.showing(seat, s) != terrain]
            err = rejected(state, replace(action, pay=Pay((wrong[0],))))
            assert err.rule == RULE[type(action)]
            assert f"tile slot {wrong[0]} shows" in err.message and f"not {terrain}" in err.message
            cost = box.COSTS[action.type]
            too_many = Pay(bonus_terrain=cost + 1)
            err = rejected(state, replace(action, pay=too_many))
            assert err.rule in ("W-6", RULE[type(action)])
            checked += 1
    assert checked > 500


def _paid_terrain(state: State, action: BuildDen | UpgradeLair | Howl | Dominate | Move) -> str:
    h = action.steps[0].dst if isinstance(action, Move) else action.hex
    return state.table.map.terrain[h]


def test_too_many_wolves_are_refused() -> None:
    checked = 0
    for state in positions(3):
        seat = state.player
        spread = state.boards[seat].track("spread")
        wolves = state.wolves_of(seat)
        if len(wolves) <= spread or state.out_of_actions:
            continue
        steps = tuple(WolfStep(h, h, kind) for h, kind in wolves[: spread + 1])
        err = rejected(state, Move(seat, steps))
        assert err.rule == "W-6.1"
        assert f"moves {spread + 1} wolves, pack spread is {spread}" in err.message
        checked += 1
    assert checked > 10
