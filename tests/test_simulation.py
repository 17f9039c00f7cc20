"""W-12: every game ends, for every combination of the options (a bounded version of the
acceptance simulation, ``scripts/simulation``): self-play games by ``howl simulate``'s own
path, one per combination, alternating the player kind and the player count."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from api.commands.simulate import simulate_one, summary
from domain.wolves.players import MAX_ACTIONS
from domain.wolves.records import read_record
from domain.wolves.replay import replay
from domain.wolves.setup import Options

COMBINATIONS = [
    Options(random_terrain=t, lone_wolves_per_region=3 if lone else 2, big_map=big,
            auto_push=push, stall_limit_rounds=10 if stall else None)
    for big, t, lone, push, stall in itertools.product((False, True), repeat=5)
]  # fmt: skip


@pytest.mark.parametrize("i", range(len(COMBINATIONS)))
def test_w12_every_game_ends(i: int) -> None:
    options = COMBINATIONS[i]
    players = 2 if options.big_map else 2 + i % 4
    kind = ("random", "heuristic")[i % 2]
    data, outcome = simulate_one(i, players, 12, kind, dataclasses.asdict(options))
    assert outcome.finished and outcome.actions < MAX_ACTIONS, (options, kind)
    assert replay(read_record(data)).state.finished
    assert f"longest game: {outcome.actions} actions" in summary([outcome], 1.0)
