"""``howl simulate``: self-play games written as records, for demo data, statistics and tests."""

from __future__ import annotations

import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from domain.wolves.components import RULES_VERSION
from domain.wolves.events import TurnEnded
from domain.wolves.players import seats, self_play
from domain.wolves.records import MAX_SEED, Record, write_record
from domain.wolves.setup import Options, generate_setup

MAX_GAMES = 1_000_000
SEED_STRIDE = 100_003
"""Game ``i`` of a run with ``--seed S`` has the setup seed ``S * SEED_STRIDE + i``."""


@dataclass(frozen=True)
class Outcome:
    """What one simulated game produced, for the summary."""

    players: int
    actions: int
    rounds: int
    types: frozenset[str]
    finished: bool


def parse_players(text: str) -> list[int]:
    """``4`` → [4]; ``2..5`` → [2, 3, 4, 5]."""
    low, _, high = text.partition("..")
    counts = list(range(int(low), int(high or low) + 1))
    if not counts or min(counts) < 2 or max(counts) > 5:
        raise click.BadParameter(f"player counts must lie in 2..5, not {text}")
    return counts


def parse_options(items: tuple[str, ...]) -> Options:
    """``random_terrain``, ``stall_limit_rounds=10`` … → W-12 options."""
    values: dict[str, object] = {}
    for item in (part for raw in items for part in raw.split(",") if part):
        name, _, value = item.partition("=")
        if name in ("random_terrain", "big_map", "auto_push"):
            values[name] = value.lower() not in ("0", "false", "no", "off")
        elif name in ("lone_wolves_per_region", "stall_limit_rounds") and value.isdigit():
            values[name] = int(value)
        else:
            raise click.BadParameter(f"unknown or incomplete option {item!r}")
    return Options(**values)  # type: ignore[arg-type]


def simulate_one(
    index: int, players: int, seed: int, kind: str, options: Options
) -> tuple[bytes, Outcome]:
    """The canonical record of self-play game number ``index`` and what it produced."""
    game_seed = seed * SEED_STRIDE + index
    setup = generate_setup(players, game_seed, options)
    game = self_play(seats(players, game_seed), setup, kind, game_seed)
    meta = {"title": f"Self-play #{index + 1}", "source": f"howl simulate --player {kind}"}
    data = write_record(Record(meta, game.players, setup, None, game.actions, RULES_VERSION))
    types = frozenset(a.type for a in game.actions)
    rounds = 1 + sum(isinstance(e, TurnEnded) and e.next_player == 0 for e in game.events)
    return data, Outcome(players, len(game.actions), rounds, types, game.state.finished)


def _job(args: tuple[int, int, int, str, Options, Path]) -> Outcome:
    index, players, seed, kind, options, out = args
    data, outcome = simulate_one(index, players, seed, kind, options)
    (out / f"game-{seed}-{index + 1:05d}-{players}p.json").write_bytes(data)
    return outcome


@click.command("simulate")
@click.option(
    "--players",
    "players_text",
    default="4",
    show_default=True,
    help="Player count, or a range such as 2..5 (games cycle through it).",
)
@click.option("--games", default=10, show_default=True, type=click.IntRange(1, MAX_GAMES))
@click.option(
    "--seed",
    default=1,
    show_default=True,
    type=click.IntRange(0, MAX_SEED // SEED_STRIDE - MAX_GAMES),
    help="Seed of the first game's setup and players; every record's seed fits records.md's.",
)
@click.option(
    "--player",
    "kind",
    type=click.Choice(["heuristic", "random"]),
    default="heuristic",
    show_default=True,
)
@click.option(
    "--options",
    "option_items",
    multiple=True,
    help="W-12 options, e.g. random_terrain,stall_limit_rounds=10.",
)
@click.option(
    "--workers", default=os.cpu_count() or 1, show_default=True, type=click.IntRange(1, 64)
)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
def simulate(
    players_text: str, games: int, seed: int, kind: str, option_items: tuple[str, ...],
    workers: int, out: Path,
) -> None:  # fmt: skip
    """Self-play GAMES games and write one record per game into OUT."""
    counts = parse_players(players_text)
    options = parse_options(option_items)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(i, counts[i % len(counts)], seed, kind, options, out) for i in range(games)]
    console = Console(stderr=True)
    outcomes: list[Outcome] = []
    start = time.perf_counter()
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as bar, ProcessPoolExecutor(workers) as pool:
        task = bar.add_task("games", total=games)
        for outcome in pool.map(_job, jobs, chunksize=max(1, games // (workers * 8))):
            outcomes.append(outcome)
            bar.advance(task)
    elapsed = time.perf_counter() - start
    click.echo(summary(outcomes, elapsed))


def summary(outcomes: list[Outcome], elapsed: float) -> str:
    """Games per second, mean actions per player count, the longest game, and the share of
    games per action type."""
    lines = [f"{len(outcomes)} games in {elapsed:.1f} s ({len(outcomes) / elapsed:.2f} games/s)"]
    by_count: dict[int, list[int]] = {}
    for o in outcomes:
        by_count.setdefault(o.players, []).append(o.actions)
    for n, actions in sorted(by_count.items()):
        mean = sum(actions) / len(actions)
        lines.append(f"  {n} players: {len(actions)} games, {mean:.1f} actions per game")
    unfinished = sum(not o.finished for o in outcomes)
    lines.append(f"  finished: {len(outcomes) - unfinished}, unfinished: {unfinished}")
    longest, most = max(o.actions for o in outcomes), max(o.rounds for o in outcomes)
    lines.append(f"  longest game: {longest} actions; most rounds: {most}")
    types = Counter(t for o in outcomes for t in o.types)
    shares = ", ".join(f"{t} {100 * c / len(outcomes):.0f}%" for t, c in sorted(types.items()))
    lines.append(f"  games with each action type: {shares}")
    return "\n".join(lines)
