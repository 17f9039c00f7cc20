"""Ratings suite: how well the ratings (:mod:`domain.ratings`) predict who wins.

``scripts/bench ratings [--moonlight-games 600] [--wolves-games 80]``. Two leagues of self-play
(a fixed seed) where each game seats 2 to 4 (as the game allows) of six named players, three
playing a strong bot (The Wolves: ``heuristic``; Moonlight: ``greedy``) and three ``random``,
and the fixture corpora of both games (``tests/fixtures``, rated by seat name in file order). Each
league is rated in the order played; a game counts from the :data:`WARM_UP` share of its
league on, once every player has had a chance to be rated.

- ``ratings_favourite_win_rate``: how often the seat with the best pre-game ``predict_win``
  came first (seats with equal best chances share the hit; ``baseline``: the mean share of
  seats that came first, what picking a seat at random scores).
- ``ratings_log_loss``: the mean of ``-log`` of the chance ``predict_win`` gave the seats that
  came first (``baseline``: the same for the uniform 1/seats).

Each metric carries ``league`` (``wolves-bots``, ``moonlight-bots``, ``fixtures-the-wolves``,
``fixtures-moonlight``) and ``games`` (those counted).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import orjson

from domain import games as registry
from domain.players import name_key
from domain.ratings import Played, Rated, Seat, rate
from domain.replays import replay
from scripts.benchmarks.common import progress, report

SEED = 20
WARM_UP = 0.2
"""The first share of a league's games, not counted: the ratings are still unknown then."""
ROSTER = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")
STRONG = {"the-wolves": "heuristic", "moonlight": "greedy"}
"""The bot the first half of :data:`ROSTER` plays; the others play ``random``."""
FIXTURES = Path(__file__).resolve().parents[2] / "tests/fixtures"
CACHE = Path("var/bench/ratings")


@dataclass(frozen=True)
class Sizes:
    """Games self-played per league."""

    moonlight_games: int = 600
    wolves_games: int = 80


def _seated(game: str, index: int) -> list[str]:
    draw = random.Random(SEED * 1_000_003 + index)
    seats = registry.ruleset(game).seats
    return draw.sample(ROSTER, draw.randint(max(2, seats.start), min(4, seats.stop - 1)))


def _kind(name: str, game: str) -> str:
    return STRONG[game] if ROSTER.index(name) < len(ROSTER) // 2 else "random"


def _play(game: str, index: int) -> tuple[int, ...]:
    """The places of self-play game ``index`` of ``game``'s league, in seat order."""
    rules = registry.ruleset(game)
    names = _seated(game, index)
    record = rules.self_play(len(names), [_kind(n, game) for n in names], SEED * 7919 + index)
    return tuple(s.place for s in rules.scores(replay(rules, record).state))


def league(game: str, count: int) -> list[Played]:
    """``count`` games of ``game``'s bot league, played once on every CPU and then cached."""
    rules = registry.ruleset(game)
    cache = CACHE / f"{game}-{rules.rules_version}-{STRONG[game]}-{SEED}-{count}.json"
    if cache.exists():
        places = [tuple(p) for p in orjson.loads(cache.read_bytes())]
    else:
        progress(f"ratings: self-playing {count} games of {game} (cached in {cache})")
        with ProcessPoolExecutor() as pool:
            places = list(pool.map(_play, [game] * count, range(count), chunksize=4))
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(orjson.dumps(places))
    return [
        Played(f"{game}-{i}", tuple(Seat(n, p) for n, p in zip(_seated(game, i), ps, strict=True)))
        for i, ps in enumerate(places)
    ]


def fixtures(game: str) -> list[Played]:
    """The fixture games of ``game``, rated by seat name in file order."""
    rules = registry.ruleset(game)
    played = []
    for path in sorted((FIXTURES / game).glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        _, record = registry.read_record(path.read_bytes())
        end = replay(rules, record).state
        names = [name_key(seat.name) for seat in rules.players(end)]
        places = [s.place for s in rules.scores(end)]
        played.append(Played(path.stem, tuple(map(Seat, names, places))))
    return played


def quality(rated: Sequence[Rated]) -> tuple[float, float, float, float, int]:
    """The favourite's win rate and its baseline, the winners' log loss and its baseline, and
    the games counted (rated games past the warm-up)."""
    counted = [g for g in rated[int(len(rated) * WARM_UP) :] if g.changes]
    hits = chance = loss = uniform = 0.0
    for g in counted:
        seats = len(g.changes)
        winners = [c for c in g.changes if c.place == 1]
        best = max(c.win_chance for c in g.changes)
        favourites = [c for c in g.changes if c.win_chance == best]  # equal chances share
        hits += sum(c.place == 1 for c in favourites) / len(favourites)
        chance += len(winners) / seats
        loss -= math.log(max(1e-12, sum(c.win_chance for c in winners)))
        uniform -= math.log(len(winners) / seats)
    n = max(1, len(counted))
    return hits / n, chance / n, loss / n, uniform / n, len(counted)


def measure(leagues: dict[str, list[Played]]) -> None:
    """Rate each league and report how well its ratings predicted its games."""
    for name, games in leagues.items():
        _, rated = rate(games)
        win, chance, loss, uniform, counted = quality(rated)
        progress(f"ratings: {name}: favourite won {win:.3f} (random {chance:.3f})")
        report("ratings", "ratings_favourite_win_rate", win, "share", baseline=round(chance, 4),
               league=name, games=counted)  # fmt: skip
        report("ratings", "ratings_log_loss", loss, "nats", baseline=round(uniform, 4),
               league=name, games=counted)  # fmt: skip


def options(argv: list[str]) -> Sizes:
    """The suite's sizes from its command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench ratings", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--moonlight-games", type=int, default=Sizes.moonlight_games)
    parser.add_argument("--wolves-games", type=int, default=Sizes.wolves_games)
    args = parser.parse_args(argv)
    return Sizes(args.moonlight_games, args.wolves_games)


def run(argv: list[str] | None = None) -> None:
    """Measure and report the ratings metrics."""
    sizes = options(argv or [])
    measure({
        "moonlight-bots": league("moonlight", sizes.moonlight_games),
        "wolves-bots": league("the-wolves", sizes.wolves_games),
        "fixtures-the-wolves": fixtures("the-wolves"),
        "fixtures-moonlight": fixtures("moonlight"),
    })  # fmt: skip
