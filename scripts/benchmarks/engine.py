"""Engine suite: validated replay speed and legal-action enumeration (issue: rules engine I)."""

from __future__ import annotations

import random
import time

from domain.wolves.evolve import fold
from domain.wolves.legal import legal_actions, move_destinations
from domain.wolves.players import SelfPlayGame, seats, self_play
from domain.wolves.rules import play
from domain.wolves.setup import generate_setup
from domain.wolves.state import State, initial_state
from scripts.benchmarks.common import median_time, percentile, progress, report


def _games(kind: str, count: int) -> list[SelfPlayGame]:
    out = []
    for i in range(count):
        n = 2 + i % 4
        out.append(self_play(seats(n, 1000 + i), generate_setup(n, 1000 + i), kind, 1000 + i))
    return out


def _replay(games: list[SelfPlayGame]) -> None:
    for game in games:
        state = initial_state(game.players, game.setup)
        for action in game.actions:
            state, _ = play(state, action)


def _fold(games: list[SelfPlayGame]) -> None:
    for game in games:
        fold(initial_state(game.players, game.setup), list(game.events))


def _midgame_positions(games: list[SelfPlayGame]) -> list[State]:
    positions = []
    for game in games:
        state = initial_state(game.players, game.setup)
        for i, action in enumerate(game.actions):
            state, _ = play(state, action)
            if i > len(game.actions) // 3 and not state.drafting and i % 7 == 0:
                positions.append(state)
            if i > 2 * len(game.actions) // 3:
                break
    return positions


def run() -> None:
    """Measure and report the engine metrics."""
    progress("engine: self-playing 40 random games")
    games = _games("random", 40)
    actions = sum(len(g.actions) for g in games)
    replay = median_time(lambda: _replay(games))
    baseline = median_time(lambda: _fold(games))
    report(
        "engine", "replay_actions_per_s", actions / replay, "1/s", median_of=5, target=20000,
        baseline=round(actions / baseline), ratio=round(baseline / replay, 3),
        baseline_metric="evolve_only_actions_per_s", actions=actions,
    )  # fmt: skip
    progress("engine: 5-player mid-game positions")
    five = [self_play(seats(5, s), generate_setup(5, s), "heuristic", s) for s in range(4)]
    positions = _midgame_positions(five)
    rng = random.Random(1)
    rng.shuffle(positions)
    times = []
    for state in positions[:60] * 5:
        start = time.perf_counter()
        list(legal_actions(state))
        move_destinations(state)
        times.append((time.perf_counter() - start) * 1000)
    report(
        "engine", "legal_enumeration_ms", percentile(times, 50), "ms",
        p95=round(percentile(times, 95), 3), positions=min(60, len(positions)), target=2.0,
    )  # fmt: skip
