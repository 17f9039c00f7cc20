"""Self-play players: a random legal player and a greedy heuristic one, deterministic per seed
(and, by name, the review bot of :mod:`domain.wolves.analysis.reviewbot`).

>>> from domain.wolves.setup import generate_setup
>>> game = self_play(seats(3, seed=5), generate_setup(3, seed=5), "heuristic", seed=5)
>>> game.state.finished
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from domain.hexes import Hex, distance
from domain.wolves import components as box
from domain.wolves.actions import Action, BonusAction, Move, Pass, Pay, WolfStep
from domain.wolves.events import Event
from domain.wolves.legal import legal_actions, move_destinations, payment, sample_move
from domain.wolves.rules import play
from domain.wolves.scoring import board_vp, control
from domain.wolves.setup import Player, Setup
from domain.wolves.state import State, initial_state

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli")
COLORS = ("blue", "red", "yellow", "green", "purple")
MAX_ACTIONS = 2000


class Bot(Protocol):
    """Anything that picks the next action for the player to act."""

    def choose(self, state: State) -> Action:
        """The action to play in ``state``."""
        ...


class RandomBot:
    """Plays uniformly among legal non-move actions, or a random Move most of the time."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        """A random legal action."""
        options = list(legal_actions(state))
        move = None if state.drafting else sample_move(state, self.rng)
        if move is not None and self.rng.random() < 0.6:
            return move
        acting = [a for a in options if not isinstance(a, Pass)]
        if acting and self.rng.random() < 0.95:
            return self.rng.choice(acting)
        return options[-1]


class HeuristicBot:
    """Greedy one-action look-ahead on a hand-weighted evaluation of the position.

    It values points in hand, leads in the regions scored next (more as their phase
    nears), wolves closing on prey it has not hunted, bonus tokens and flexible tiles.
    """

    def __init__(self, seed: int, moves_considered: int = 16) -> None:
        self.rng = random.Random(seed)
        self.moves_considered = moves_considered

    def choose(self, state: State) -> Action:
        """The candidate action whose resulting position evaluates best (ties: random)."""
        if state.out_of_actions:
            return self._spend_or_pass(state)
        seat = state.player
        best: tuple[float, Action] | None = None
        for action in self.candidates(state):
            after, _ = play(state, action)
            value = evaluate(after, seat) + self.rng.random() * 0.3
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None
        return best[1]

    def _spend_or_pass(self, state: State) -> Action:
        """With no action left but a bonus action token (such as one won by the turn's last
        hunt or den, W-6): spend it when the best action it buys beats keeping it."""
        seat = state.player
        kept = evaluate(play(state, Pass(seat))[0], seat)
        spent, _ = play(state, BonusAction(seat))
        bought = max(
            (
                evaluate(play(spent, action)[0], seat)
                for action in self.candidates(spent)
                if not isinstance(action, BonusAction | Pass)
            ),
            default=kept,
        )
        return BonusAction(seat) if bought > kept else Pass(seat)

    def candidates(self, state: State) -> list[Action]:
        """The actions it compares: every legal non-move action (with no action left, a
        pass or a bonus action token), one-wolf moves next to prey it has not hunted and
        random ones (up to ``moves_considered`` each), and a few random multi-wolf moves."""
        if state.out_of_actions:
            return [Pass(state.player), BonusAction(state.player)]
        options: list[Action] = list(legal_actions(state))
        if state.drafting:
            return options
        seat = state.player
        dests = move_destinations(state)
        singles = [
            Move(seat, (WolfStep(src, dst, kind),), _pay(state, dst))
            for (src, kind), hexes in dests.items()
            for dst in hexes
        ]
        hunting = [m for m in singles if _near_prey(state, m.steps[0].dst, seat)]
        self.rng.shuffle(singles)
        options += hunting[: self.moves_considered] + singles[: self.moves_considered]
        for _ in range(4):
            move = sample_move(state, self.rng)
            if move is not None:
                options.append(move)
        return options


def _pay(state: State, dst: Hex) -> Pay:
    return payment(state, state.player, 1, state.table.map.land[dst]) or Pay()


def _near_prey(state: State, h: Hex, seat: int) -> bool:
    held = state.boards[seat].prey
    return any(distance(h, p) == 1 and kind not in held for p, (kind, _) in state.prey.items())


def evaluate(state: State, seat: int) -> float:
    """A heuristic value of ``state`` for ``seat`` in VP-like units."""
    board = state.boards[seat]
    two = state.table.two_player
    value = float(board.region_points + sum(board_vp(board, two).values()))
    if state.finished:
        return value  # tokens and tiles left are worth nothing once the game is over
    value += 1.2 * board.bonus_action + 1.0 * board.bonus_terrain
    showing = {state.showing(seat, s) for s in range(len(board.flipped))}
    value += 0.3 * len(showing)
    if state.player == seat:
        value += 1.3 * state.actions_left  # an action in hand is worth more than a token
    value += 0.6 * state.date  # moving the moon on keeps the game going
    value += _region_outlook(state, seat)
    value += _prey_outlook(state, seat)
    value += _lair_outlook(state, seat)
    return value


def _lair_outlook(state: State, seat: int) -> float:
    """Dens that could become lairs (W-6.3): more when an alpha already stands by."""
    if state.boards[seat].lairs >= box.LAIRS:
        return 0.0
    gmap = state.table.map
    alphas = state.alphas_of(seat)
    with_lair = {gmap.region_of.get(h) for h, ps in state.pieces.items() if (seat, "lair") in ps}
    best = 0.0
    for h, here in state.pieces.items():
        if (seat, "den") not in here or h not in gmap.lair_sites:
            continue
        if gmap.region_of.get(h) not in with_lair:
            best = max(best, 1.5 if any(distance(a, h) <= 1 for a in alphas) else 0.4)
    return best


def _region_outlook(state: State, seat: int) -> float:
    """Expected region points from current leads, weighted by how close each phase is."""
    if state.phases_scored >= len(box.PHASES):
        return 0.0
    phase = box.PHASES[state.phases_scored]
    date = state.table.phase_dates[state.phases_scored]
    urgency = 1.0 / (1.0 + max(0, date - state.date) / 4)
    total = 0.0
    for region in state.table.map.regions:
        stack = state.scoring.get(region, ())
        if not stack:
            continue
        weight = urgency if stack[0] == phase else 0.35 * urgency
        high, low = box.TOKEN_VALUES[stack[0]]
        ranking = sorted(control(state, region).items(), key=lambda kv: kv[1], reverse=True)
        for place, (who, (c, _)) in enumerate(ranking[:2]):
            if who == seat:
                margin = c - (ranking[place + 1][1][0] if place + 1 < len(ranking) else 0)
                share = (high if place == 0 else low) * min(1.0, 0.5 + 0.25 * margin)
                total += weight * share
    return total


def _prey_outlook(state: State, seat: int) -> float:
    """Progress towards hunts: wolf hexes already around each prey not yet held."""
    held = state.boards[seat].prey
    if len(held) >= len(box.PREY_TYPES):
        return 0.0
    wolf_hexes = {h for h, _ in state.wolves_of(seat)}
    best = 0.0
    for h, (kind, _) in state.prey.items():
        if kind in held:
            continue
        around = sum(1 for n in state.table.map.land_neighbours.get(h, ()) if n in wolf_hexes)
        best = max(best, (0.0, 1.6, 2.6)[min(around, 2)])
    return best


def make_bot(kind: str, seed: int, depth: int | None = None) -> Bot:
    """A bot by name: ``random``, ``heuristic`` or ``review`` (``depth`` 1 … 4, default 1)."""
    # The review bot searches with the analysis, whose playouts use this module's evaluation.
    from domain.wolves.analysis.reviewbot import ReviewBot

    if kind == "review":
        return ReviewBot(seed) if depth is None else ReviewBot(seed, depth)
    bots: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
    if kind not in bots:
        raise ValueError(f"unknown player kind {kind!r}: use random, heuristic or review")
    if depth is not None:
        raise ValueError(f"the {kind} bot does not search: it takes no depth")
    return bots[kind](seed)


def seats(n: int, seed: int) -> tuple[Player, ...]:
    """``n`` seats with distinct home terrains drawn from ``seed``."""
    terrains = random.Random(seed).sample(box.TERRAINS, n)
    return tuple(Player(NAMES[i], COLORS[i], terrains[i]) for i in range(n))


@dataclass(frozen=True)
class SelfPlayGame:
    """A finished self-play game: its players, setup, actions and final state."""

    players: tuple[Player, ...]
    setup: Setup
    actions: tuple[Action, ...]
    events: tuple[Event, ...]
    state: State


def self_play(
    players: tuple[Player, ...], setup: Setup, kind: str | Sequence[str], seed: int,
    make: Callable[[str, int], Bot] = make_bot,
) -> SelfPlayGame:  # fmt: skip
    """Play a whole game with one bot per seat (one kind for all, or one kind per seat),
    each made by ``make`` from its kind and seed."""
    kinds = [kind] * len(players) if isinstance(kind, str) else list(kind)
    bots = [make(k, seed * 31 + i) for i, k in enumerate(kinds)]
    state = initial_state(players, setup)
    actions: list[Action] = []
    events: list[Event] = []
    while not state.finished and len(actions) < MAX_ACTIONS:
        action = bots[state.player].choose(state)
        state, caused = play(state, action)
        actions.append(action)
        events.extend(caused)
    return SelfPlayGame(players, setup, tuple(actions), tuple(events), state)
