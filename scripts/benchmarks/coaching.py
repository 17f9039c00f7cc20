"""Coaching suite: how good the review engine's choices are when they are played out.

- ``reviewbot_2p_win_rate``: the review bot (the heuristic bot's best few actions each
  played out to the game's end by heuristic bots, the best result chosen; ``--depth``,
  default 1) against
  ``HeuristicBot`` in two-player games, each setup played twice with the seats swapped:
  the review bot's share of the wins (tied firsts share) and its mean VP edge over the
  other seat, each with a 95 % interval over the setups (a setup's games are alike), and
  the games' length in actions and in turns against the same setups played by heuristic
  bots alone (``baseline_actions``, ``baseline_turns``: a bonus action token spent is one
  action more in the same turn), with the share that ran past 300 actions and that hit the cap
  (stalling). Target 0.65 with the interval's lower bound above 0.5, and no game longer
  than the heuristic's.
- ``reviewbot_4p_win_rate``: one review bot and three heuristic bots, the review bot in
  each seat in turn; its VP edge is over the mean of the other seats. Target 0.40 and a
  positive VP edge.
- ``suggestion_realized_gain_ratio`` and ``suggestion_better_share``: for the flagged
  steps of held-out heuristic games (a standard review), the review's suggestion and the
  action played are each finished out by heuristic bots (``--finishes`` games each, on
  the same seeds); the mover's mean win-share gain of the suggestion over the claimed
  loss (summed over the steps; target 0.8), and the share of steps where the suggestion
  finished better (ties half; target 0.7), each with a 95 % bootstrap interval over the
  steps. At most ``--flags`` steps of a game are finished out (a seeded sample).
- ``flag_seed_agreement``: the same games reviewed again with another seed; the share of
  one review's flags that the other also flags, both ways (target 0.85).
- ``brier_first_third``, ``brier_middle_third``, ``brier_last_third``: the static
  evaluator's Brier score over the positions of held-out heuristic games (seeds the fit
  never saw), by the third of its game a position falls in, with the leader baseline
  (``domain.wolves.analysis.calibration``) beside each.

``scripts/bench coaching [--games2 100] [--games4 80] [--held-out 60] [--depth 1]
[--reviewed 16] [--flags 8] [--finishes 6]``; the
games are the same every run (fixed seeds), played on one process per CPU.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import TypeVar

from domain.wolves.actions import Action, Draft
from domain.wolves.analysis.calibration import Sample
from domain.wolves.analysis.calibration import report as calibrated
from domain.wolves.analysis.evaluation import StaticEvaluator, outcome
from domain.wolves.analysis.playouts import finish
from domain.wolves.analysis.review import DEPTHS, Review, position, review
from domain.wolves.events import TurnEnded
from domain.wolves.players import MAX_ACTIONS, Bot, HeuristicBot, make_bot, seats
from domain.wolves.rules import play
from domain.wolves.scoring import final_scores
from domain.wolves.setup import generate_setup
from domain.wolves.state import State, initial_state
from scripts.benchmarks.common import progress, report

SEED = 19_000
"""The first setup's seed; setup ``i`` is ``SEED + i``."""
REVIEWED_SEED = 7_100_000
"""Seeds of the reviewed held-out games (two to five players in turn)."""
HELD_OUT_SEED = 7_000_000
"""Seeds of the held-out games (``scripts/fit-evaluator`` plays seeds ``seed · 1,000,003 +
i``: 1,000,003 to 1,002,002 by default)."""
LONG = 300
"""Actions past which a game counts as long (a heuristic game of five takes about 130)."""
T = TypeVar("T")
J = TypeVar("J")


@dataclass(frozen=True)
class Played:
    """One game of a review bot among heuristic bots, from the review bot's seat."""

    win: float
    edge: float
    actions: int
    turns: int
    finished: bool


def _bots(players: int, review_seat: int | None, seed: int, depth: int) -> list[Bot]:
    """Heuristic bots, but for a review bot of ``depth`` in ``review_seat`` (None: none)."""
    return [
        make_bot("review", seed * 31 + s, depth)
        if s == review_seat
        else HeuristicBot(seed * 31 + s)
        for s in range(players)
    ]


@dataclass(frozen=True)
class Game:
    """A game played by bots: the state before each action and after the last, its actions
    and its turns."""

    states: list[State]
    actions: list[Action]
    turns: int


def _game(players: int, seed: int, bots: Sequence[Bot]) -> Game:
    """Setup ``seed`` played to its end (or the action cap) by ``bots``."""
    state = initial_state(seats(players, seed), generate_setup(players, seed))
    states, turns = [state], 0
    actions: list[Action] = []
    while not state.finished and len(actions) < MAX_ACTIONS:
        actions.append(bots[state.player].choose(state))
        state, events = play(state, actions[-1])
        states.append(state)
        turns += sum(isinstance(e, TurnEnded) for e in events)
    return Game(states, actions, turns)


def duel(job: tuple[int, int, int, int]) -> Played:
    """Setup ``seed`` of ``players`` seats with the review bot (``depth``) in ``seat``."""
    players, seed, seat, depth = job
    game = _game(players, seed, _bots(players, seat, seed, depth))
    state = game.states[-1]
    totals = {s.seat: s.total for s in final_scores(state)}
    others = [v for s, v in totals.items() if s != seat]
    edge = totals[seat] - sum(others) / len(others)
    return Played(outcome(state)[seat], edge, len(game.actions), game.turns, state.finished)


def heuristic_length(job: tuple[int, int]) -> tuple[int, int]:
    """The actions and turns of setup ``seed`` of ``players`` seats played by heuristic
    bots alone."""
    players, seed = job
    game = _game(players, seed, _bots(players, None, seed, 1))
    return len(game.actions), game.turns


def held_out(job: tuple[int, int]) -> list[tuple[int, Sample]]:
    """Each position of a held-out heuristic game as ``(third, sample)``."""
    players, seed = job
    bots = _bots(players, None, seed, 1)
    state = initial_state(seats(players, seed), generate_setup(players, seed))
    evaluator = StaticEvaluator.load()
    seen: list[tuple[tuple[float, ...], tuple[float, ...]]] = []
    while not state.finished and len(seen) < MAX_ACTIONS:
        if not state.drafting:
            e = evaluator.evaluate(state)
            seen.append((e.win, tuple(float(s.total) for s in final_scores(state))))
        state, _ = play(state, bots[state.player].choose(state))
    won = outcome(state)
    return [(3 * i // len(seen), Sample(win, vp, won)) for i, (win, vp) in enumerate(seen)]


def finished_share(job: tuple[State, tuple[Action, ...], int, int]) -> float:
    """The mover's win share when ``line`` is played from ``before`` and heuristic bots
    (seeded by ``seed``) finish the game."""
    before, line, seat, seed = job
    for action in line:
        before, _ = play(before, action)
    return outcome(finish(before, seed))[seat]


def _flags(reviewed: Review) -> set[int]:
    """The indexes of a review's flagged steps."""
    return {s.index for s in reviewed.steps if s.classification is not None}


def _bootstrap(
    pairs: Sequence[tuple[float, float]], stat: Callable[[Sequence[tuple[float, float]]], float]
) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of ``stat`` over ``pairs`` (fixed seed)."""
    rng = random.Random(0)
    found = sorted(stat(rng.choices(pairs, k=len(pairs))) for _ in range(2000))
    return round(found[50], 3), round(found[1949], 3)


def _ratio(pairs: Sequence[tuple[float, float]]) -> float:
    """Summed gain over summed claimed loss of ``(gain, claimed)`` pairs."""
    return sum(g for g, _ in pairs) / max(1e-9, sum(c for _, c in pairs))


def _better(pairs: Sequence[tuple[float, float]]) -> float:
    """The share of ``(gain, _)`` pairs whose gain is positive (none: half)."""
    return statistics.fmean(1.0 if g > 0 else 0.5 if g == 0 else 0.0 for g, _ in pairs)


def measure_suggestions(games: int, flags: int, finishes: int) -> None:
    """Report ``suggestion_realized_gain_ratio``, ``suggestion_better_share`` and
    ``flag_seed_agreement`` over ``games`` reviewed held-out heuristic games."""
    if not games:
        return
    settings = DEPTHS["standard"]
    jobs: list[tuple[State, tuple[Action, ...], int, int]] = []
    claimed: list[tuple[float, bool]] = []
    agreed = flagged = 0
    for i in range(games):
        players = 2 + i % 4
        seed = REVIEWED_SEED + i
        game = _game(players, seed, _bots(players, None, seed, 1))
        moves = (game.states[0], game.actions)
        progress(f"coaching: reviewing held-out game {i + 1}/{games} ({players} players), twice")
        first = review(moves, settings)
        second = review(moves, replace(settings, seed=1))
        a, b = _flags(first), _flags(second)
        agreed += len(a & b) * 2
        flagged += len(a) + len(b)
        chosen = random.Random(i).sample(sorted(a), min(flags, len(a)))
        for step in (first.steps[k] for k in sorted(chosen)):
            before = position(game.states[step.index], step.played.action)
            for line in (step.best.line, (step.played.action,)):
                jobs += [(before, line, step.seat, 1_000 * i + j) for j in range(finishes)]
            claimed.append((step.loss, isinstance(step.played.action, Draft)))
    ends = _run(finished_share, jobs, "flagged steps finished out both ways by heuristic bots")
    pairs, drafts = [], 0
    for k, (loss, draft) in enumerate(claimed):
        start_at = 2 * k * finishes
        suggested = statistics.fmean(ends[start_at : start_at + finishes])
        played = statistics.fmean(ends[start_at + finishes : start_at + 2 * finishes])
        pairs.append((suggested - played, loss))
        drafts += draft
    common = {"games": games, "steps": len(pairs), "draft_steps": drafts, "finishes": finishes,
              "depth": "standard", "policy": "heuristic"}  # fmt: skip
    if pairs:
        report(
            "coaching", "suggestion_realized_gain_ratio", _ratio(pairs), "ratio",
            interval=_bootstrap(pairs, _ratio), target=0.8,
            gain=round(statistics.fmean(g for g, _ in pairs), 4),
            claimed=round(statistics.fmean(c for _, c in pairs), 4), **common,
        )  # fmt: skip
        report(
            "coaching", "suggestion_better_share", _better(pairs), "share",
            interval=_bootstrap(pairs, _better), target=0.7, **common,
        )  # fmt: skip
    report(
        "coaching", "flag_seed_agreement", agreed / max(1, flagged), "share", target=0.85,
        flags=flagged, games=games, seeds=[0, 1], depth="standard",
    )  # fmt: skip


def _run(fn: Callable[[J], T], jobs: list[J], what: str) -> list[T]:
    """``fn`` over ``jobs`` on one process per CPU, in order, saying how far it got."""
    progress(f"coaching: {what} ({len(jobs)} games)")
    out: list[T] = []
    step = max(1, len(jobs) // 10)
    with ProcessPoolExecutor(os.cpu_count() or 1) as pool:
        for done, result in enumerate(pool.map(fn, jobs), 1):
            out.append(result)
            if done % step == 0 and done < len(jobs):
                progress(f"coaching: {what}: {done}/{len(jobs)}")
    return out


def _interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95 % interval of the mean of ``values`` (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return round(mean - half, 3), round(mean + half, 3)


def measure_duels(players: int, games: int, depth: int, target: float) -> None:
    """Report ``reviewbot_<players>p_win_rate`` over ``games`` games (a whole number of
    setups, the review bot in each seat of each; none under ``players``)."""
    setups = games // players
    if not setups:
        return
    jobs = [(players, SEED + i, seat, depth) for i in range(setups) for seat in range(players)]
    played = _run(duel, jobs, f"review bot among heuristic bots, {players} players")
    lengths = _run(heuristic_length, [(players, SEED + i) for i in range(setups)],
                   f"heuristic bots alone, {players} players")  # fmt: skip
    # the games of one setup are alike: the intervals are over the setups' means
    per_setup = [played[i * players : (i + 1) * players] for i in range(setups)]
    wins = [statistics.fmean(p.win for p in games) for games in per_setup]
    edges = [statistics.fmean(p.edge for p in games) for games in per_setup]
    low, high = _interval(wins)
    report(
        "coaching", f"reviewbot_{players}p_win_rate", statistics.fmean(wins), "share",
        interval=[max(0.0, low), min(1.0, high)], target=target, games=len(played),
        setups=setups, depth=depth, vp_edge=round(statistics.fmean(edges), 3),
        vp_edge_interval=_interval(edges),
        actions=round(statistics.fmean(p.actions for p in played), 1),
        baseline_actions=round(statistics.fmean(n for n, _ in lengths), 1),
        turns=round(statistics.fmean(p.turns for p in played), 1),
        baseline_turns=round(statistics.fmean(t for _, t in lengths), 1),
        baseline_metric="heuristic_actions_per_game",
        long_share=round(sum(p.actions > LONG for p in played) / len(played), 3),
        capped_share=round(sum(not p.finished for p in played) / len(played), 3),
    )  # fmt: skip


def measure_brier(games: int) -> None:
    """Report the evaluator's Brier score per third of the game over held-out games."""
    if not games:
        return
    jobs = [(2 + i % 4, HELD_OUT_SEED + i) for i in range(games)]
    thirds: list[list[Sample]] = [[], [], []]
    for positions in _run(held_out, jobs, "held-out heuristic games, 2–5 players"):
        for third, sample in positions:
            thirds[third].append(sample)
    for name, samples in zip(("first", "middle", "last"), thirds, strict=True):
        scores = calibrated(samples)["brier"]
        report(
            "coaching", f"brier_{name}_third", scores["static"], "brier",
            baseline=round(scores["leader"], 4), baseline_metric="leader_brier",
            leader_eps=scores["leader_eps"], uniform=round(scores["uniform"], 4),
            positions=len(samples), games=games,
        )  # fmt: skip


def run(argv: Iterable[str] = ()) -> None:
    """Measure and report the coaching metrics."""
    parser = argparse.ArgumentParser(prog="scripts/bench coaching")
    parser.add_argument("--games2", type=int, default=100, help="two-player games (0: none)")
    parser.add_argument("--games4", type=int, default=80, help="four-player games (0: none)")
    parser.add_argument("--held-out", type=int, default=60, help="held-out games (0: none)")
    parser.add_argument("--depth", type=int, default=1, help="the review bot's depth (1–4)")
    parser.add_argument("--reviewed", type=int, default=16, help="reviewed games (0: none)")
    parser.add_argument("--flags", type=int, default=8, help="flagged steps finished per game")
    parser.add_argument("--finishes", type=int, default=6, help="finishes of each side")
    args = parser.parse_args(list(argv))
    measure_brier(args.held_out)
    measure_suggestions(args.reviewed, args.flags, args.finishes)
    measure_duels(2, args.games2, args.depth, 0.65)
    measure_duels(4, args.games4, args.depth, 0.40)
