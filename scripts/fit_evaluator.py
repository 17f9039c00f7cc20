"""Fit the static evaluator on self-play games and write its ``weights.json``.

Game ``i`` (of ``--games``) is played from seed ``seed * 1_000_003 + i``: 2 to 5 players in
turn, every tenth game with random terrain. Most seats are heuristic bots, and to show the
fit more than their play:

- one game in four (``(i // 4) % 4 == 3``) has a random player in some seats (weak play);
- one in 25 (``i % 25 == 12``) has a stall limit of 2 to 5 rounds (W-12) and stalling seats,
  heuristic bots that pass while they trail: frozen boards, and what they come to;
- one in 40 (``i % 40 == 20``, two players) seats a review bot (depth 1), the engine's own
  choices.

Games with ``i % 5 == 4`` are held out: the metrics in the file are measured on every
position of those games after the draft. Training uses every other position of the rest.

Win probabilities: a conditional logit (softmax over seats), fitted by Newton's method
with a small ridge penalty on standardised features. Expected final VP: ridge least
squares of the points still to come. Pure Python; the same seed gives the same file,
whether local processes or a Dask cluster (``--scheduler``; :mod:`services.compute`) play
the games.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path

from domain.wolves.actions import Action, Pass
from domain.wolves.analysis import calibration
from domain.wolves.analysis.evaluation import StaticEvaluator, outcome
from domain.wolves.analysis.features import FEATURES, features, progress
from domain.wolves.components import RULES_VERSION
from domain.wolves.players import Bot, HeuristicBot, make_bot, seats, self_play
from domain.wolves.rules import play
from domain.wolves.scoring import final_scores
from domain.wolves.setup import Options, generate_setup
from domain.wolves.state import State, initial_state
from services.compute import ComputeError, pool
from services.config import Settings
from services.progress import progress_bar

OUT = Path(__file__).resolve().parent.parent / "domain" / "wolves" / "analysis" / "weights.json"
SEED_STRIDE = 1_000_003
RIDGE = 1.0

Position = tuple[list[list[float]], float, tuple[float, ...], tuple[float, ...]]
"""Feature rows per seat, share of the game left, win shares, points still to come."""


class StallingBot:
    """A heuristic bot that passes while it trails another seat (after the draft)."""

    def __init__(self, seed: int) -> None:
        self.bot = HeuristicBot(seed)

    def choose(self, state: State) -> Action:
        """A pass while behind, else the heuristic bot's choice."""
        if not state.drafting:
            totals = [s.total for s in final_scores(state)]
            if totals[state.player] < max(totals):
                return Pass(state.player)
        return self.bot.choose(state)


def game_kinds(i: int, n: int, seed: int) -> list[str]:
    """The player kind of each seat of game ``i``: ``heuristic``, ``random``, ``stalling``
    or ``review``."""
    rng = random.Random(seed)
    if i % 40 == 20:
        return ["review", "heuristic"] if rng.random() < 0.5 else ["heuristic", "review"]
    if i % 25 == 12:
        kinds = ["stalling" if rng.random() < 0.5 else "heuristic" for _ in range(n)]
        return kinds if "stalling" in kinds else ["stalling"] + ["heuristic"] * (n - 1)
    if (i // 4) % 4 != 3:
        return ["heuristic"] * n
    kinds = ["random" if rng.random() < 0.4 else "heuristic" for _ in range(n)]
    return kinds if "heuristic" in kinds else ["random"] + ["heuristic"] * (n - 1)


def bot(kind: str, seed: int) -> Bot:
    """The bot of a seat of kind ``kind``."""
    return StallingBot(seed) if kind == "stalling" else make_bot(kind, seed)


def positions(i: int, base_seed: int) -> tuple[int, int, list[Position]]:
    """Self-play game ``i`` and its positions after the draft, with the game's result."""
    seed = base_seed * SEED_STRIDE + i
    n = 2 + i % 4
    stall = 2 + i % 4 if i % 25 == 12 else None
    setup = generate_setup(n, seed, Options(random_terrain=i % 10 == 7, stall_limit_rounds=stall))
    game = self_play(seats(n, seed), setup, game_kinds(i, n, seed), seed, bot)
    win = outcome(game.state)
    finals = [s.total for s in final_scores(game.state)]
    state = initial_state(game.players, setup)
    out: list[Position] = []
    for action in game.actions:
        state, _ = play(state, action)
        if state.drafting or state.finished:
            continue
        rows = features(state)
        gain = tuple(float(f - row[0]) for f, row in zip(finals, rows, strict=True))
        out.append((rows, 1 - progress(state), win, gain))
    return i, n, out


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def scales(groups: list[list[list[float]]]) -> list[float]:
    """Standard deviation of each feature over all rows (1 where it is constant)."""
    rows = [r for g in groups for r in g]
    d = len(rows[0])
    out = []
    for j in range(d):
        mean = sum(r[j] for r in rows) / len(rows)
        var = sum((r[j] - mean) ** 2 for r in rows) / len(rows)
        out.append(math.sqrt(var) or 1.0)
    return out


def logit_loss(w: list[float], data: list[tuple[list[list[float]], tuple[float, ...]]]) -> float:
    """Mean cross-entropy of the conditional logit plus the ridge penalty."""
    total = 0.0
    for rows, y in data:
        s = [sum(a * b for a, b in zip(w, r, strict=True)) for r in rows]
        top = max(s)
        log_z = top + math.log(sum(math.exp(v - top) for v in s))
        total -= sum(yi * (si - log_z) for yi, si in zip(y, s, strict=True) if yi)
    return total / len(data) + RIDGE / 2 * sum(v * v for v in w) / len(data)


def fit_logit(data: list[tuple[list[list[float]], tuple[float, ...]]], d: int) -> list[float]:
    """Conditional-logit weights by damped Newton steps (features already standardised)."""
    w = [0.0] * d
    loss = logit_loss(w, data)
    for _ in range(30):
        g = [RIDGE * v for v in w]
        h = [[RIDGE if j == k else 0.0 for k in range(d)] for j in range(d)]
        for rows, y in data:
            s = [sum(a * b for a, b in zip(w, r, strict=True)) for r in rows]
            top = max(s)
            e = [math.exp(v - top) for v in s]
            z = sum(e)
            p = [v / z for v in e]
            mean = [sum(pi * r[j] for pi, r in zip(p, rows, strict=True)) for j in range(d)]
            for pi, yi, r in zip(p, y, rows, strict=True):
                c = pi - yi
                dev = [r[j] - mean[j] for j in range(d)]
                for j in range(d):
                    g[j] += c * r[j]
                    a = pi * dev[j]
                    if a:
                        hj = h[j]
                        for k in range(j, d):
                            hj[k] += a * dev[k]
        for j in range(d):
            for k in range(j):
                h[j][k] = h[k][j]
        step = solve(h, g)
        scale = 1.0
        while True:
            trial = [v - scale * s for v, s in zip(w, step, strict=True)]
            new = logit_loss(trial, data)
            if new <= loss or scale < 1e-3:
                break
            scale /= 2
        done = loss - new < 1e-7
        w, loss = trial, new
        print(f"  newton: loss {loss:.5f}", file=sys.stderr, flush=True)
        if done:
            break
    return w


def fit_vp(data: list[Position]) -> list[float]:
    """Ridge least squares of the points still to come on [1, share left, features]."""
    xs = [[1.0, left, *row] for rows, left, _, gain in data for row in rows]
    ys = [g for _, _, _, gain in data for g in gain]
    d = len(xs[0])
    a = [[0.0] * d for _ in range(d)]
    b = [0.0] * d
    for x, y in zip(xs, ys, strict=True):
        for j in range(d):
            b[j] += x[j] * y
            aj, xj = a[j], x[j]
            for k in range(d):
                aj[k] += xj * x[k]
    for j in range(1, d):
        a[j][j] += RIDGE
    return solve(a, b)


def main(argv: list[str]) -> int:
    """Generate games, fit, measure on held-out games and write the weights file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="local processes, or a local cluster's workers")  # fmt: skip
    parser.add_argument("--scheduler", default=Settings.from_env().dask_scheduler,
                        help="a Dask scheduler's address, or 'local', to self-play on "
                        "[default: HOWL_DASK_SCHEDULER; unset: local processes]")  # fmt: skip
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    train: list[Position] = []
    held: list[Position] = []
    counts = {"train": 0, "held_out": 0}
    progress = progress_bar("self-play")
    try:
        with pool(args.workers, args.scheduler) as ready, progress:
            print(f"… self-play on {ready.where}", file=sys.stderr, flush=True)
            task = progress.add_task("games", total=args.games)
            jobs = ((i, args.seed) for i in range(args.games))
            played: dict[int, list[Position]] = {}
            for _, job in ready.finished(positions, jobs):  # a slow game holds up no other
                i, _, played[i] = job.result()
                progress.advance(task)
    except ComputeError as exc:  # no cluster answers, or Dask is missing
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for i, found in sorted(played.items()):  # in the games' order: the same sums every run
        if i % 5 == 4:
            held += found
            counts["held_out"] += 1
        else:
            train += found[::2]
            counts["train"] += 1
    print(f"… {len(train)} training positions; fitting", file=sys.stderr, flush=True)
    sd = scales([rows for rows, *_ in train])
    scaled = [([[v / s for v, s in zip(r, sd, strict=True)] for r in rows], win)
              for rows, _, win, _ in train]  # fmt: skip
    w = [v / s for v, s in zip(fit_logit(scaled, len(FEATURES)), sd, strict=True)]
    vp = fit_vp(train)
    model = {
        "format": "howl.evaluator",
        "version": 1,
        "features": list(FEATURES),
        "win": {"weights": [round(v, 6) for v in w]},
        "vp": {"terms": ["intercept", "left", *FEATURES], "weights": [round(v, 6) for v in vp]},
    }
    evaluator = StaticEvaluator(model)
    samples = [
        calibration.Sample(tuple(evaluator.win(rows)), tuple(r[0] for r in rows), win)
        for rows, _, win, _ in held
    ]
    metrics = calibration.report(samples)
    errors = [
        abs(p - (r[0] + g))
        for rows, left, _, gain in held
        for p, r, g in zip(evaluator.final_vp(rows, left), rows, gain, strict=True)
    ]
    now_errors = [abs(g) for _, _, _, gain in held for g in gain]
    metrics["final_vp_mae"] = {
        "static": sum(errors) / len(errors),
        "vp_so_far": sum(now_errors) / len(now_errors),
    }
    model["provenance"] = {
        "script": "scripts/fit-evaluator",
        "seed": args.seed,
        "games": args.games,
        "game_seeds": f"seed * {SEED_STRIDE} + i for i in 0..games-1",
        "players": "2 + i % 4",
        "held_out": "games with i % 5 == 4, every position after the draft",
        "training": "the other games, every other position after the draft",
        "bots": "heuristic; (i // 4) % 4 == 3: some seats random; i % 25 == 12: stall limit "
        "2 + i % 4 and some seats stalling (pass while behind); i % 40 == 20: one review "
        "bot (depth 1); i % 10 == 7: random terrain",
        "games_train": counts["train"],
        "games_held_out": counts["held_out"],
        "positions_train": len(train),
        "rules_version": RULES_VERSION,
        "ridge": RIDGE,
    }
    model["metrics"] = {k: {m: round(v, 4) for m, v in vs.items()} for k, vs in metrics.items()}
    args.out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(model["metrics"], indent=1))
    print(f"wrote {args.out} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
