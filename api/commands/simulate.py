"""``howl simulate``: self-play games of any registered game written as records, for demo
data, statistics and tests (the ruleset's own computer players play them)."""

from __future__ import annotations

import inspect
import os
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import orjson
from rich.console import Console

from api.commands.configured import on_pool, scheduler_option
from domain import bounds
from domain.games import FIRST, ruleset
from domain.replays import replay
from domain.ruleset import InvalidRecord, Ruleset
from services.progress import progress_bar

DEFAULT_PLAYERS = 4
"""The seats ``howl simulate`` plays unless told (or the count nearest it the game allows)."""
MAX_GAMES = 1_000_000
SEED_STRIDE = 100_003
"""Game ``i`` of a run with ``--seed S`` has the setup seed ``S * SEED_STRIDE + i``."""
ON = ("true", "yes", "on")
OFF = ("false", "no", "off")


Job = tuple[int, int, int, str, dict[str, Any], str]
"""The arguments of :func:`simulate_one`: index, players, seed, player kind, options, game."""


@dataclass(frozen=True)
class Outcome:
    """What one simulated game produced, for the summary."""

    players: int
    actions: int
    types: frozenset[str]
    finished: bool


def strongest(rules: Ruleset) -> str:
    """The ruleset's strongest computer player that does not search: the last it lists
    (they come weakest first) without a ``depth`` (a searching bot's games take minutes)."""
    plain = [name for name, make in rules.bots.items()
             if "depth" not in inspect.signature(make).parameters]  # fmt: skip
    return plain[-1]


def default_players(rules: Ruleset) -> int:
    """The player count ``howl simulate`` plays unless told: 4, or the nearest the game
    allows."""
    return min(rules.seats, key=lambda n: (abs(n - DEFAULT_PLAYERS), n))


def parse_players(text: str, rules: Ruleset) -> list[int]:
    """``4`` → [4]; ``2..5`` → [2, 3, 4, 5], each a seat count the game allows."""
    low, _, high = text.partition("..")
    if not low.isdigit() or not (high or low).isdigit():
        raise click.BadParameter(f"a player count or a range such as 2..5, not {text}")
    counts = list(range(int(low), int(high or low) + 1))
    seats = rules.seats
    if not counts or min(counts) < seats.start or max(counts) >= seats.stop:
        allowed = f"{seats.start}" + (f" to {seats[-1]}" if len(seats) > 1 else "")
        raise click.BadParameter(f"{rules.title} is played by {allowed}, not {text}")
    return counts


def parse_options(items: tuple[str, ...]) -> dict[str, Any]:
    """``random_terrain``, ``stall_limit_rounds=10``, ``big_map=off`` … → the setup options as
    a record writes them: a bare name is true, a number an integer, ``1``/``true``/``yes``/
    ``on`` true and ``0``/``false``/``no``/``off`` false; any other value is refused.

    >>> parse_options(("random_terrain,big_map=off", "stall_limit_rounds=10"))
    {'random_terrain': True, 'big_map': False, 'stall_limit_rounds': 10}
    """
    values: dict[str, Any] = {}
    for item in (part for raw in items for part in raw.split(",") if part):
        name, equals, value = item.partition("=")
        if not name or (equals and not value):
            raise click.BadParameter(f"incomplete option {item!r}", param_hint="--options")
        if value.isdigit():
            values[name] = int(value)
        elif not equals or value.lower() in ON:
            values[name] = True
        elif value.lower() in OFF:
            values[name] = False
        else:
            raise click.BadParameter(
                f"{name}={value}: a value is a number or one of {', '.join(ON + OFF)}",
                param_hint="--options",
            )
    return values


def simulate_one(
    index: int,
    players: int,
    seed: int,
    kind: str,
    options: Mapping[str, Any] | None = None,
    game: str = FIRST,
) -> tuple[bytes, Outcome]:
    """The canonical record of self-play game number ``index`` of ``game`` (``kind`` plays
    every seat) and what it produced."""
    rules = ruleset(game)
    game_seed = seed * SEED_STRIDE + index
    played = rules.self_play(players, [kind] * players, game_seed, options)
    doc = orjson.loads(rules.write_record(played))
    doc["meta"] = {"title": f"Self-play #{index + 1}", "source": f"howl simulate --player {kind}"}
    record = rules.read_record(doc)
    end = replay(rules, record).state
    types = frozenset(rules.write_action(a)["type"] for a in record.actions)
    outcome = Outcome(players, len(record.actions), types, rules.finished(end))
    return rules.write_record(record), outcome


def _write(out: Path, job: Job, data: bytes) -> None:
    index, players, seed, *_ = job
    (out / f"game-{seed}-{index + 1:05d}-{players}p.json").write_bytes(data)


@click.command("simulate")
@click.option("--game", default=FIRST, show_default=True, help="The game, by its record's name.")
@click.option(
    "--players",
    "players_text",
    help="Player count, or a range such as 2..5 (games cycle through it). Default: 4, or the "
    "count nearest it that the game allows (Moonlight: 2).",
)
@click.option("--games", default=10, show_default=True, type=click.IntRange(1, MAX_GAMES))
@click.option(
    "--seed",
    default=1,
    show_default=True,
    type=click.IntRange(0, bounds.INT64_MAX // SEED_STRIDE - MAX_GAMES),
    help="Seed of the first game's setup and players; every record's seed fits records.md's.",
)
@click.option(
    "--player",
    "kind",
    help="The computer player in every seat (default: the game's strongest that does not "
    "search; The Wolves' review bot searches at depth 1).",
)
@click.option(
    "--options",
    "option_items",
    multiple=True,
    help="The game's setup options, e.g. random_terrain,stall_limit_rounds=10.",
)
@click.option(
    "--workers", default=os.cpu_count() or 1, show_default=True, type=click.IntRange(1, 64),
    help="Local processes, or a local cluster's workers.",
)  # fmt: skip
@scheduler_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
def simulate(
    game: str, players_text: str | None, games: int, seed: int, kind: str | None,
    option_items: tuple[str, ...], workers: int, scheduler: str | None, out: Path,
) -> None:  # fmt: skip
    """Self-play GAMES games and write one record per game into OUT (by this process: the
    workers, local or on a cluster, send the records back)."""
    try:
        rules = ruleset(game)
    except InvalidRecord as exc:
        raise click.BadParameter(exc.message, param_hint="--game") from None
    if kind is None:
        kind = strongest(rules)
    elif kind not in rules.bots:
        known = ", ".join(rules.bots)
        raise click.BadParameter(f"{rules.title} has the players {known}", param_hint="--player")
    counts = parse_players(players_text or str(default_players(rules)), rules)
    options = parse_options(option_items)
    out.mkdir(parents=True, exist_ok=True)
    jobs: list[Job] = [
        (i, counts[i % len(counts)], seed, kind, options, game) for i in range(games)
    ]
    console = Console(stderr=True)
    start = time.perf_counter()
    with progress_bar("simulating", console) as bar:
        task = bar.add_task("games", total=games)
        try:  # the first game here: the options are the game's to judge
            data, outcome = simulate_one(*jobs[0])
        except InvalidRecord as exc:
            raise click.BadParameter(f"{exc.path}: {exc.message}", param_hint="--options") from None
        _write(out, jobs[0], data)
        outcomes = [outcome]
        bar.advance(task)
        if len(jobs) > 1:
            with on_pool(workers, scheduler) as ready:
                for job, done in ready.finished(simulate_one, jobs[1:]):
                    data, outcome = done.result()
                    _write(out, job, data)
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
    lines.append(f"  longest game: {max(o.actions for o in outcomes)} actions")
    types = Counter(t for o in outcomes for t in o.types)
    shares = ", ".join(f"{t} {100 * c / len(outcomes):.0f}%" for t, c in sorted(types.items()))
    lines.append(f"  games with each action type: {shares}")
    return "\n".join(lines)
