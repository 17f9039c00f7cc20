"""The playout player and the search evaluator."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from domain.wolves.analysis.evaluation import result
from domain.wolves.analysis.playouts import (
    PlayoutBot,
    finish,
    playout,
    playout_evaluations,
    search,
)
from domain.wolves.players import seats
from domain.wolves.replay import replay
from domain.wolves.rules import play
from domain.wolves.setup import generate_setup
from domain.wolves.state import initial_state
from tests.analysis.conftest import fixture_record


def test_the_playout_player_plays_whole_legal_games():
    for n in (2, 5):
        state = initial_state(seats(n, 7), generate_setup(n, 7))
        bots = [PlayoutBot(i) for i in range(n)]
        for _ in range(2000):
            if state.finished:
                break
            state, _ = play(state, bots[state.player].choose(state))  # illegal: raises
        assert state.finished


def test_a_playout_stops_when_the_mover_is_to_start_its_next_turn():
    state = replay(fixture_record("4p-00-heuristic"), at=40).state
    end = playout(state, seed=1)
    assert end.finished or (end.player == state.player and end.actions_left == 2)
    assert playout(state, seed=1).moonlight == end.moonlight  # seeded: the same playout


def test_search_is_the_same_in_processes():
    state = replay(fixture_record("3p-02-heuristic"), at=35).state
    alone = search(state, playouts=4, seed=9)
    with ProcessPoolExecutor(2) as pool:
        shared = search(state, playouts=4, seed=9, pool=pool)
    assert shared.win == pytest.approx(alone.win) and shared.vp == pytest.approx(alone.vp)
    assert sum(alone.win) == pytest.approx(1) and alone.playouts == 4


def test_a_playout_of_no_rounds_is_the_game_finished_by_heuristic_bots():
    state = replay(fixture_record("2p-00-heuristic"), at=30).state
    end = playout(state, seed=4, rounds=0)
    assert end.finished and end.moonlight == finish(state, 4).moonlight
    for seed, ended in zip((4, 5), playout_evaluations(state, [4, 5], rounds=0), strict=True):
        assert ended == result(finish(state, seed))  # the game's result, no evaluator's guess
        assert sorted(ended.win) in ([0.0, 1.0], [0.5, 0.5])
