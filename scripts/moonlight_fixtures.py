"""Write Moonlight's fixture corpus: complete self-play games from fixed seeds.

Random and greedy players, with and without ``setup.draws``, some naming each round's
starter with ``round_start``, some with a deck of other moons, and games with a replayed
round or a round ended by a last card (the first seeds from a fixed start that give
one). Each ``<name>.json`` record gets a ``<name>.expected.json`` with what the engine
said when the corpus was made: the rules version, the number of actions and events, the
rounds played, and the ``howl score --json`` scores. ``tests/moonlight/test_fixtures.py``
replays every record and compares, so a change in engine behaviour shows up as a failing
fixture. Run it only on purpose (``scripts/make-fixtures moonlight``) and review the diff.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from domain.moonlight import events as ev
from domain.moonlight.cards import DeckEntry, LoneWolfCard, Setup, assumed_setup
from domain.moonlight.players import SelfPlayGame, self_play
from domain.moonlight.records import read_record, write_record
from domain.moonlight.ruleset import MOONLIGHT, RULES_VERSION
from domain.replays import replay

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "moonlight"
SEARCH = 500
"""Seeds tried, from a game's first seed on, for a game that must show something."""


def other_moons(seed: int) -> Setup:
    """A deck of other moons than the assumed one (as a record from another source has)."""
    moons = {1: 1, 2: 0, 3: 1, 4: 0, 5: 2}
    deck = tuple(DeckEntry(e.value, e.count, moons[e.value]) for e in assumed_setup().deck)
    return Setup(deck, LoneWolfCard(3, 1), None, seed)


def replayed(game: SelfPlayGame) -> bool:
    return any(isinstance(e, ev.RoundReplayed) for e in game.events)


def last_card(game: SelfPlayGame) -> bool:
    return any(isinstance(e, ev.RoundEnded) and e.reason == "last_card" for e in game.events)


@dataclass(frozen=True)
class Kind:
    """One kind of fixture game: how many, their players and options, what they must show."""

    name: str
    count: int
    kinds: tuple[str, str]
    draws: bool = True
    round_starts: bool = False
    other_deck: bool = False
    shows: Callable[[SelfPlayGame], bool] | None = None


KINDS = (
    Kind("greedy", 8, ("greedy", "greedy")),
    Kind("random", 6, ("random", "random")),
    Kind("greedy-random-counts", 4, ("greedy", "random"), draws=False),
    Kind("random-greedy-starts", 4, ("random", "greedy"), round_starts=True),
    Kind("random-counts-starts", 2, ("random", "random"), draws=False, round_starts=True),
    Kind("greedy-other-moons", 2, ("greedy", "greedy"), other_deck=True),
    Kind("random-replayed", 3, ("random", "random"), shows=replayed),
    Kind("greedy-replayed-counts", 1, ("greedy", "greedy"), draws=False, shows=replayed),
    Kind("greedy-last-card", 2, ("greedy", "greedy"), shows=last_card),
    Kind("greedy-last-card-counts", 1, ("greedy", "greedy"), draws=False, shows=last_card),
)


def expected(data: bytes) -> dict[str, object]:
    """What the engine says about a record: the contents of its ``.expected.json``."""
    result = replay(MOONLIGHT, read_record(data))
    events = [e for step in result.steps for e in step]
    return {
        "rules": RULES_VERSION,
        "actions": len(result.steps),
        "events": len(events),
        "rounds_played": sum(isinstance(e, ev.RoundStarted) for e in events),
        "finished": result.state.finished,
        "scores": MOONLIGHT.score_json(result.state)["scores"],
    }


def play(kind: Kind, seed: int) -> SelfPlayGame:
    setup = other_moons(seed) if kind.other_deck else None
    return self_play(kind.kinds, seed, setup, kind.draws, kind.round_starts)


def main() -> int:
    """Write every fixture record and its expected result."""
    OUT.mkdir(parents=True, exist_ok=True)
    number = 0
    for k, kind in enumerate(KINDS):
        seed = 2026 + 100 * k
        for _ in range(kind.count):
            game = play(kind, seed)
            tried = 0
            while kind.shows is not None and not kind.shows(game):
                tried += 1
                if tried > SEARCH:
                    raise SystemExit(f"no seed from {seed - tried} gives a {kind.name} game")
                seed += 1
                game = play(kind, seed)
            data = write_record(replace(game.record, rules_version=RULES_VERSION))
            stem = f"{number:02d}-{kind.name}"
            (OUT / f"{stem}.json").write_bytes(data)
            (OUT / f"{stem}.expected.json").write_text(json.dumps(expected(data), indent=1) + "\n")
            number += 1
            seed += 1
    print(f"wrote {number} fixture games to {OUT.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
