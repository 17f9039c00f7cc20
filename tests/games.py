"""Random self-played games for tests: legal by construction, reproducible from a seed.

>>> game = random_game(3, seed=1, max_actions=10)
>>> len(game.record.actions), len(game.states)
(10, 11)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from domain.wolves import components as box
from domain.wolves.actions import Action
from domain.wolves.legal import legal_actions, sample_move
from domain.wolves.positions import to_position
from domain.wolves.records import Record, read_record, record_to_json
from domain.wolves.replay import replay
from domain.wolves.rules import play
from domain.wolves.setup import Player, Setup, generate_setup
from domain.wolves.state import State, initial_state

COLORS = ("blue", "red", "yellow", "green", "purple")


@dataclass(frozen=True)
class Game:
    """A played game: its record and the state after each action (``states[0]``: before)."""

    record: Record
    states: tuple[State, ...]

    @property
    def final(self) -> State:
        """The state after the last action."""
        return self.states[-1]


def random_players(n: int, rng: random.Random) -> tuple[Player, ...]:
    """``n`` seats named P0… with distinct random home terrains."""
    terrains = rng.sample(box.TERRAINS, n)
    return tuple(Player(f"P{i}", COLORS[i], terrains[i]) for i in range(n))


def play_out(
    players: tuple[Player, ...],
    setup: Setup | None,
    seed: int,
    max_actions: int | None = None,
    start: State | None = None,
) -> Game:
    """Play random legal actions (moves 60% of the time) until the end or ``max_actions``."""
    rng = random.Random(seed)
    if start is not None:
        state = start
    else:
        assert setup is not None, "a game from the beginning needs its setup"
        state = initial_state(players, setup)
    states = [state]
    actions: list[Action] = []
    while not state.finished and (max_actions is None or len(actions) < max_actions):
        move = None if state.drafting else sample_move(state, rng)
        action = move if move and rng.random() < 0.6 else rng.choice(list(legal_actions(state)))
        state, _ = play(state, action)
        actions.append(action)
        states.append(state)
    record = Record(
        meta={"title": f"random game {seed}"},
        players=players,
        setup=None if start is not None else setup,
        start=start,
        actions=tuple(actions),
        rules_version=box.RULES_VERSION,
    )
    return Game(record, tuple(states))


@cache
def random_game(n: int, seed: int, max_actions: int | None = None) -> Game:
    """A random ``n``-player game on a generated setup (cached: treat it as read-only)."""
    rng = random.Random(seed)
    return play_out(random_players(n, rng), generate_setup(n, seed), seed, max_actions)


FIXTURES = Path(__file__).parent / "fixtures" / "the-wolves"
"""The fixture corpus of complete games."""


@cache
def started_record(name: str = "3p-00-heuristic", at: int = 40) -> str:
    """The fixture game ``name`` as a record that starts from its position after ``at``
    actions (a ``start`` position instead of a setup) and plays the rest."""
    record = read_record((FIXTURES / f"{name}.json").read_bytes())
    doc = record_to_json(record)
    del doc["setup"]
    doc["start"] = to_position(replay(record, at=at).state)
    doc["actions"] = doc["actions"][at:]
    return json.dumps(doc)
