"""The search evaluator: Monte Carlo playouts from a position, scored by the static evaluator.

A playout lets a greedy heuristic player (:class:`PlayoutBot`, a cheaper cousin of
``HeuristicBot``) play every seat for a short horizon — the rest of the current turn
and the other seats' turns, up to the mover's next turn (``rounds=1``) — and then reads
the static evaluation of the position reached (or the result, if the game ended).
Averaged over seeded playouts it sees what the static features alone miss: hunts
completed, regions scored at the end of a turn, pieces dominated or pushed in reply.

Why not ``HeuristicBot`` to the end of the game: a full game of it costs about 2 s on
one core, and a review needs some 24 playouts per action. ``PlayoutBot`` chooses about
ten times faster (``scripts/bench analysis``: ``playout_choice_ms`` against
``heuristic_choice_ms``), wins 3 of 8 two-player games against ``HeuristicBot`` and all
against ``RandomBot``; with the short horizon a playout costs some 10–40 ms.

Playout ``i`` of a search uses seed ``(seed, i)`` whatever position it starts from, so two
alternatives of one step are compared on the same random numbers (lower variance).

>>> from domain.wolves.players import seats
>>> from domain.wolves.setup import generate_setup
>>> from domain.wolves.state import initial_state
>>> start = initial_state(seats(3, 2), generate_setup(3, 2))
>>> result = search(start, playouts=2, seed=1)
>>> len(result.win), result.playouts
(3, 2)
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TypeVar

from domain.hexes import Hex, distance
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.actions import (
    Action,
    BonusAction,
    BuildDen,
    Dominate,
    Howl,
    Move,
    Pass,
    Pay,
    UpgradeLair,
    WolfStep,
)
from domain.wolves.analysis.evaluation import Evaluation, StaticEvaluator, result
from domain.wolves.components import Terrain, WolfKind
from domain.wolves.legal import legal_actions
from domain.wolves.players import MAX_ACTIONS, HeuristicBot, evaluate
from domain.wolves.rules import IllegalAction, play
from domain.wolves.state import Piece, State

T = TypeVar("T")

TURN_ENDS = (ev.TurnEnded, ev.GameEnded, ev.WolvesDrafted)


class PlayoutBot:
    """Greedy one-action look-ahead on ``HeuristicBot``'s evaluation, over a few candidates.

    Candidates: pass, a bonus action, every affordable howl, lair and dominate, dens on up
    to ``dens`` hexes by its alphas (one random track each), up to ``moves`` one-wolf
    moves next to prey it has not hunted, ``moves`` random one-wolf moves and one random
    multi-wolf move. They are built without enumerating every legal action (the rules
    check each one when it is played), which makes a choice about 4 times cheaper than
    ``HeuristicBot``'s.
    """

    def __init__(self, seed: int, moves: int = 3, dens: int = 2) -> None:
        self.rng = random.Random(seed)
        self.moves = moves
        self.dens = dens

    def choose(self, state: State) -> Action:
        """The candidate whose resulting position evaluates best for the mover."""
        seat = state.player
        best: tuple[float, Action] | None = None
        for action in self.candidates(state):
            try:
                after, _ = play(state, action)
            except IllegalAction:
                continue
            value = evaluate(after, seat) + self.rng.random() * 0.3
            if best is None or value > best[0]:
                best = (value, action)
        assert best is not None, "Pass is always legal"
        return best[1]

    def candidates(self, state: State) -> list[Action]:
        """The actions :meth:`choose` compares (the rules may still refuse some)."""
        rng, seat = self.rng, state.player
        if state.drafting:
            drafts = list(legal_actions(state))
            return rng.sample(drafts, min(len(drafts), 2 * self.moves))
        if state.out_of_actions:  # a token to spend, or a pass keeping it (W-6)
            return [Pass(seat), BonusAction(seat)]
        board = state.boards[seat]
        gmap = state.table.map
        funds = Counter(state.showing(seat, s) for s in range(len(board.flipped)))

        def affords(h: Hex, cost: int) -> bool:
            return funds[gmap.land[h]] + board.bonus_terrain >= cost

        out: list[Action] = [Pass(seat)]
        if board.bonus_action:
            out.append(BonusAction(seat))
        alphas = state.alphas_of(seat)
        reach = board.track("howl")
        tracks = [t for t in box.TRACKS if board.dens_taken(t) < box.DENS_PER_TRACK]
        if board.next_wolf() is not None:
            out += [
                Howl(seat, h) for h in sorted(state.lone_wolves)
                if affords(h, 2) and any(distance(a, h) <= reach for a in alphas)
            ]  # fmt: skip
        near = sorted({n for a in alphas for n in (a, *gmap.land_neighbours.get(a, ()))})
        if tracks:
            spots = [h for h in near if affords(h, 2) and _den_spot(state, seat, h)]
            out += [BuildDen(seat, h, rng.choice(tracks)) for h in _pick(rng, spots, self.dens)]
        if board.lairs < box.LAIRS:
            out += [
                UpgradeLair(seat, h) for h in near
                if h in gmap.lair_sites and Piece(seat, "den") in state.at(h) and affords(h, 2)
            ]  # fmt: skip
        for h, here in sorted(state.pieces.items()):
            for p in here:
                if p.player in (seat, None) or p.kind not in ("pack", "den") or not affords(h, 3):
                    continue
                if any(distance(a, h) <= reach for a in alphas) and (p.kind == "pack" or tracks):
                    track = rng.choice(tracks) if p.kind == "den" else None
                    out.append(Dominate(seat, h, Pay(), p.kind, track))
        out += self._moves(state, affords)
        return out

    def _moves(self, state: State, affords: Callable[[Hex, int], bool]) -> list[Action]:
        """One-wolf moves next to prey not yet hunted, and random ones."""
        rng, seat = self.rng, state.player
        gmap = state.table.map
        speed = state.boards[seat].track("speed")
        wolves = sorted(set(state.wolves_of(seat)))
        held = state.boards[seat].prey
        targets = sorted({
            n for h, (kind, _) in state.prey.items() if kind not in held
            for n in gmap.land_neighbours.get(h, ())
        })  # fmt: skip
        hunting = [
            (w, h) for h in targets if affords(h, 1)
            for w in wolves if h != w[0] and h in gmap.steps_from(w[0], speed)
        ]  # fmt: skip
        moves: list[Action] = [_one_wolf(seat, w, h) for w, h in _pick(rng, hunting, self.moves)]
        pair = _pair(rng, hunting, gmap.land)
        if pair is not None:
            moves.append(Move(seat, tuple(WolfStep(w[0], h, w[1]) for w, h in pair)))
        for _ in range(2 * self.moves):
            if len(moves) >= 2 * self.moves or not wolves:
                break
            w = rng.choice(wolves)
            h = rng.choice(list(gmap.steps_from(w[0], speed)))
            if h != w[0] and affords(h, 1):
                moves.append(_one_wolf(seat, w, h))
        return moves


def _pick(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    return list(items) if len(items) <= k else rng.sample(items, k)


def _pair(
    rng: random.Random,
    hunting: list[tuple[tuple[Hex, WolfKind], Hex]],
    terrain: Mapping[Hex, Terrain],
) -> list[tuple[tuple[Hex, WolfKind], Hex]] | None:
    """Two wolves to different hexes of one terrain next to prey: a hunt in one Move."""
    order = rng.sample(hunting, len(hunting))
    for i, (w, h) in enumerate(order):
        for w2, h2 in order[i + 1 :]:
            if w2 != w and h2 != h and terrain[h2] == terrain[h]:
                return [(w, h), (w2, h2)]
    return None


def _one_wolf(seat: int, wolf: tuple[Hex, WolfKind], dst: Hex) -> Move:
    return Move(seat, (WolfStep(wolf[0], dst, wolf[1]),))


def _den_spot(state: State, seat: int, h: Hex) -> bool:
    here = state.at(h)
    return (
        len(here) < box.MAX_PIECES_PER_HEX
        and not state.has_token(h)
        and all(p.player == seat and p.kind not in ("den", "lair") for p in here)
    )


def playout(state: State, seed: int, rounds: int = 1) -> State:
    """Play on from ``state`` for ``rounds`` × seats turn ends (the current turn counts).

    With ``rounds=1`` the playout stops when the seat to act is about to start its next
    turn: it has seen every other seat's reply. From a draft position it first plays the
    rest of the draft, so that it ends where the static evaluator was fitted. With
    ``rounds=0`` heuristic bots play to the game's end (:func:`finish`): no evaluator
    judges where it stops.
    """
    if rounds == 0:
        return finish(state, seed)
    bots = [PlayoutBot(seed * 7 + i) for i in range(len(state.boards))]
    draft_left = len(state.table.draft_order) - state.draft_picks if state.drafting else 0
    ends = draft_left + rounds * len(state.boards)
    for _ in range(2000):
        if state.finished or ends <= 0:
            break
        state, events = play(state, bots[state.player].choose(state))
        ends -= sum(isinstance(e, TURN_ENDS) for e in events)
    return state


def finish(state: State, seed: int) -> State:
    """The game played on from ``state`` to its end by heuristic bots (``HeuristicBot``, the
    strongest policy that plays a whole game in well under a second), seeded by ``seed``."""
    bots = [HeuristicBot(seed * 31 + s) for s in range(len(state.boards))]
    for _ in range(MAX_ACTIONS):
        if state.finished:
            break
        state, _ = play(state, bots[state.player].choose(state))
    return state


@dataclass(frozen=True)
class SearchResult:
    """Mean static evaluation at the playouts' ends, per seat, with its standard errors."""

    win: tuple[float, ...]
    vp: tuple[float, ...]
    win_se: tuple[float, ...]
    playouts: int

    @property
    def evaluation(self) -> Evaluation:
        """The result as an :class:`Evaluation`."""
        return Evaluation(self.win, self.vp)


def combine(evaluations: Sequence[Evaluation]) -> SearchResult:
    """Means and standard errors of a set of playout evaluations."""
    n = len(evaluations)
    seats = range(len(evaluations[0].win))
    win = tuple(sum(e.win[s] for e in evaluations) / n for s in seats)
    vp = tuple(sum(e.vp[s] for e in evaluations) / n for s in seats)
    se = tuple(
        math.sqrt(sum((e.win[s] - win[s]) ** 2 for e in evaluations) / max(1, n - 1) / n)
        for s in seats
    )
    return SearchResult(win, vp, se, n)


def playout_evaluations(
    state: State, seeds: Sequence[int], rounds: int = 1, evaluator: StaticEvaluator | None = None
) -> list[Evaluation]:
    """The evaluation at the end of one playout per seed: the result of a game that ended
    there (as every playout of no ``rounds`` does), else the static evaluation."""
    ends = [playout(state, s, rounds) for s in seeds]
    if all(end.finished for end in ends):  # needs no weights
        return [result(end) for end in ends]
    evaluator = evaluator or StaticEvaluator.load()
    return [evaluator.evaluate(end) for end in ends]


def playout_seed(seed: int, i: int) -> int:
    """The seed of playout ``i`` of a search seeded ``seed``."""
    return seed * 1_000_033 + i


def search(
    state: State,
    playouts: int = 16,
    seed: int = 0,
    rounds: int = 1,
    pool: Executor | None = None,
) -> SearchResult:
    """Mean evaluation over ``playouts`` seeded playouts (spread over ``pool`` if given)."""
    seeds = [playout_seed(seed, i) for i in range(playouts)]
    if state.finished:
        return combine([StaticEvaluator.load().evaluate(state)] * playouts)
    if pool is None:
        return combine(playout_evaluations(state, seeds, rounds))
    count = min(playouts, os.cpu_count() or 1)
    chunks = [seeds[i::count] for i in range(count)]
    parts = pool.map(playout_evaluations, [state] * count, chunks, [rounds] * count)
    return combine([e for part in parts for e in part])
