"""Property tests: random legal games from random setups, invariants checked after every event."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.wolves import (
    IllegalAction,
    Move,
    Pass,
    State,
    WolfStep,
    evolve,
    final_scores,
    fold,
    generate_setup,
    initial_state,
    legal_actions,
    play,
    sample_move,
)
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.evolve import apply
from tests.games import random_players
from tests.invariants import check_boards, check_pieces, check_scores, snapshot
from tests.rules.scenario import grid_map, scenario

MAX_ACTIONS = 3000


def play_checked(n: int, seed: int) -> State:
    """Play a random legal game, checking every event and that nothing mutates its input."""
    rng = random.Random(seed)
    start = initial_state(random_players(n, rng), generate_setup(n, seed))
    state, all_events = start, []
    for _ in range(MAX_ACTIONS):
        if state.finished:
            break
        opts = list(legal_actions(state))
        mv = None if state.drafting else sample_move(state, rng)
        action = mv if mv and rng.random() < 0.6 else rng.choice(opts)
        before = snapshot(state)
        after, events = play(state, action)
        assert snapshot(state) == before, "play mutated its input"
        folded = state.copy()
        for i, event in enumerate(events):
            kept = snapshot(folded)
            evolved = evolve(folded, event)
            assert snapshot(folded) == kept, f"evolve mutated its input on {event}"
            apply(folded, event)
            assert snapshot(folded) == snapshot(evolved)
            # pushes complete the Move event before them (test_pushes_complete_the_move…)
            if not (i + 1 < len(events) and isinstance(events[i + 1], ev.WolfPushed)):
                check_pieces(folded)
            check_boards(folded)
        assert snapshot(folded) == snapshot(after)
        state = after
        all_events += events
    assert state.finished, f"no end after {MAX_ACTIONS} actions"
    assert snapshot(fold(start, all_events)) == snapshot(state)
    ended = [e for e in all_events if isinstance(e, ev.GameEnded)]
    assert len(ended) == 1 and ended[0].scores == final_scores(state)
    assert state.phases_scored == 3 and state.date >= state.table.phase_dates[2]
    check_scores(state)
    return state


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(n: int, seed: int) -> None:
    final = play_checked(n, seed)
    for action in (Pass(final.player), Pass((final.player + 1) % n)):
        with pytest.raises(IllegalAction) as caught:
            play(final, action)
        assert caught.value.rule == "W-7"


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
    boards=st.lists(
        st.tuples(
            st.integers(0, 4),
            st.integers(0, 4),
            st.integers(0, 4),
            st.integers(0, 4),
            st.integers(0, 8),
            st.integers(0, 5),
            st.integers(0, 60),
            st.integers(0, 9),
        ),
        min_size=5,
        max_size=5,
    ),
)
def test_scores_read_the_board_and_places_follow_w9(
    n: int, seed: int, boards: list[tuple[int, ...]]
) -> None:
    state = initial_state(random_players(n, random.Random(seed)), generate_setup(n, seed))
    state.boards = tuple(
        b._replace(
            dens=(sp, sd, hw),
            lairs=lr,
            wolves=wv,
            prey=box.PREY_TYPES[:pr],
            region_points=pts,
            region_tokens=tok,
        )
        for b, (sp, sd, hw, lr, wv, pr, pts, tok) in zip(state.boards, boards, strict=False)
    )
    check_scores(state)
    scores = final_scores(state)
    assert min(s.place for s in scores) == 1
    for s in scores:
        key = (s.total, s.region_tokens, s.wolves_on_map)
        for o in scores:
            other = (o.total, o.region_tokens, o.wolves_on_map)
            assert (o.place == s.place) == (other == key)  # W-9: only full ties share a place
            assert (o.place < s.place) == (other > key)


def test_pushes_complete_the_move_event_before_them() -> None:
    """Two alphas of one Move end on a hex whose enemy pack wolf the first one pushes.

    ``WolvesMoved`` carries every wolf, the ``WolfPushed`` events that follow complete it:
    the position after the pair (the step) is legal, the pack wolf sits on its nearest hex.
    """
    cmap = grid_map("g1 g1 g1 g1", "g1 g1 g1 g1")
    state = scenario(cmap, pieces={(0, 0): "A0", (0, 1): "A0", (1, 1): "P1"}, tokens=2)
    move = Move(0, (WolfStep((0, 0), (1, 1)), WolfStep((0, 1), (1, 1))))
    after, events = play(state, move)
    moved, pushed = events[:2]
    assert isinstance(moved, ev.WolvesMoved) and isinstance(pushed, ev.WolfPushed)
    assert pushed.src == (1, 1) and pushed.player == 1
    folded = fold(state, events[:2])
    check_pieces(folded)
    check_pieces(after)
    assert sorted(p.kind for p in after.at((1, 1))) == ["alpha", "alpha"]
