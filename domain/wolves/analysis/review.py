"""Post-game review: who was winning, where the game turned, which actions cost the most.

For every action the reviewer lists the mover's alternatives (every legal non-move
action, every one-wolf Move and a few random multi-wolf Moves; spending a bonus action
token is never one alone but always with the action it buys, "spend a bonus action token,
then X", and never as the action played with the token spent first, which it can still
spend after), ranks them with the static evaluator, and scores the best ``candidates`` of
them and the action played with ``playouts`` seeded playouts each
(:mod:`~domain.wolves.analysis.playouts`; all use the same seeds). The best of those is
the position's value for the mover (*win before*); the played action's score is *win
after*; their difference is the *loss*.

Classification (like Lichess's 0.1 / 0.2 / 0.3 on its −1…1 winning-chances scale, which
in a two-outcome game are drops of 5, 10 and 15 points of win probability): with ``N``
players a fair share of the win is ``1/N``, so the thresholds are scaled by it —

=============  ===================  ========  ===========
class          loss at least        2 players 4 players
=============  ===================  ========  ===========
inaccuracy     0.1 / N              0.050     0.025
mistake        0.2 / N              0.100     0.050
blunder        0.3 / N              0.150     0.075
=============  ===================  ========  ===========

In two players this is Lichess's scale exactly; with more players it is the same share
of a fair chance (losing a tenth, fifth or three tenths of 1/N). Playouts are noisy and
the best of several noisy scores is biased upwards, so a loss counts only when it also
exceeds twice its standard error (from the paired per-playout differences): a loss the
search cannot tell from noise is no loss — no class, full accuracy. A step whose loss
lies within a standard error of a threshold (or of that noise line) is re-checked: every
line it scored is played out :data:`RECHECK` times as often, and the deeper search's
verdict is the step's, so a flag near a line stands only when more search agrees.

Accuracy of an action (Lichess's formula on the same scale):
``103.1668 · exp(−0.04354 · D) − 3.1669`` clamped to 0…100, with ``D = 100 · loss · N / 2``
(the counted loss in Lichess's win-percent points). A seat's accuracy is the mean of the
arithmetic and the harmonic mean (each action at least 1) of its actions' accuracies,
over the actions where it had a choice: over the whole game, and per stage of it (the
opening before the crescent phase is scored, the middle game up to the quarter's, the end
after it), as Lichess gives it per phase.

Turning points are the steps where the win probabilities moved most (total variation:
half the sum over seats of the change), at least by the inaccuracy threshold.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from multiprocessing.context import BaseContext
from typing import Any, Final, Literal

from domain.ruleset import Depth
from domain.wolves.actions import Action, BonusAction, Draft
from domain.wolves.analysis.evaluation import Evaluation, StaticEvaluator
from domain.wolves.analysis.playouts import combine, playout_evaluations, playout_seed
from domain.wolves.describe import label
from domain.wolves.legal import legal_actions, sample_move, single_moves
from domain.wolves.records import Record, action_to_json
from domain.wolves.replay import initial
from domain.wolves.rules import close_turn, play
from domain.wolves.state import State

ANALYSIS_VERSION = 4
"""Bump when a change to the review could change a stored result (2: each step's stage and
each seat's accuracy per stage; 3: a bonus action token spent only with the action after,
and steps near a threshold re-checked; 4: the alternatives listed independent of the
seed)."""
Stage = Literal["opening", "middle", "end"]
"""Where in the game an action falls: before the crescent phase is scored (the draft
included), between the crescent and the quarter scorings, or after the quarter's (W-7)."""
STAGES: Final[tuple[Stage, ...]] = ("opening", "middle", "end")
Classification = Literal["blunder", "mistake", "inaccuracy"]
"""How bad a move was, worst first (Lichess's words)."""
THRESHOLDS: Final[tuple[tuple[Classification, float], ...]] = (
    ("blunder", 0.3), ("mistake", 0.2), ("inaccuracy", 0.1),
)  # fmt: skip
"""Loss thresholds in shares of a fair chance (multiply by 1/N players)."""
NOISE_Z = 2.0
"""A loss is classified only above this many standard errors."""
SAMPLED_MOVES = 6
"""Random multi-wolf Moves added to the candidates of each step."""
RECHECK = 2
"""A step whose loss lies near a threshold is scored again with this many times the
playouts (its verdict is the deeper search's)."""
CLEAR_Z = 4.0
"""A loss this many standard errors above nothing is ``clear``; a smaller one (none under
:data:`NOISE_Z` is flagged) is ``likely``."""
Confidence = Literal["clear", "likely", "low"]
"""How sure the review is of a flagged action's loss: ``low`` for a draft choice (its
playouts reach past the whole draft, and such verdicts seldom hold up)."""
TURNING_POINTS = 5
PLURALS: Final[dict[Classification, str]] = {
    "blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies",
}  # fmt: skip

Progress = Callable[[int, int], None]
"""Called with (steps done, steps to do)."""


@dataclass(frozen=True)
class Settings:
    """What a review depends on besides the game; :attr:`key` names a stored result."""

    playouts: int = 6
    candidates: int = 3
    rounds: int = 1
    """The playouts' horizon in turn rounds; 0: the game's end, by heuristic bots."""
    seed: int = 0

    @property
    def key(self) -> str:
        """``a2-p6-c3-r1-s0-static-1a2b3c4d``: version, settings and evaluator weights."""
        return (
            f"a{ANALYSIS_VERSION}-p{self.playouts}-c{self.candidates}-r{self.rounds}"
            f"-s{self.seed}-{StaticEvaluator.load().version}"
        )


DEPTHS: Final[dict[Depth, Settings]] = {
    "quick": Settings(),
    "standard": Settings(playouts=12, candidates=4),
    "deep": Settings(playouts=16, candidates=5, rounds=0),
}
"""The settings of each depth: ``quick`` is the least that still ranks a step's actions
(about 14 s for a 4-player game of some 100 actions on 2 cores), ``standard`` twice the
playouts and one more alternative scored (20–27 s), ``deep`` every line played out to the
game's end by heuristic bots (the review bot's search: its results are the game's, not an
evaluator's; some 15 minutes for a 2-player game, 30 for a 4-player one, on 2 cores), for
a Dask cluster. A longer game takes longer."""


@dataclass(frozen=True)
class Scored:
    """One line of the mover's actions (an action, or a bonus action token spent and the
    action it buys) scored by playouts from the position it leads to."""

    line: tuple[Action, ...]
    label: str
    static: float
    evaluation: Evaluation
    ends: tuple[Evaluation, ...]
    """The static evaluation at the end of each playout."""

    @property
    def action(self) -> Action:
        """The line's last action: the one a bonus action token was spent for, if any."""
        return self.line[-1]

    def to_json(self, seat: int) -> dict[str, Any]:
        """The action (and the whole line, ``actions``), its label and the mover's win
        probability (search and static)."""
        return {
            "action": action_to_json(self.action),
            "actions": [action_to_json(a) for a in self.line],
            "label": self.label,
            "win": round(self.evaluation.win[seat], 4),
            "vp": round(self.evaluation.vp[seat], 2),
            "static": round(self.static, 4),
        }


@dataclass(frozen=True)
class StepReview:
    """The review of action ``index`` (0-based; the timeline's step ``index + 1``)."""

    index: int
    seat: int
    played: Scored
    alternatives: tuple[Scored, ...]
    loss: float
    loss_se: float
    classification: Classification | None
    accuracy: float | None
    """None when the mover had no choice."""
    stage: Stage

    @property
    def best(self) -> Scored:
        """The best-scored action (the played one when nothing scored better)."""
        return max((self.played, *self.alternatives), key=lambda s: s.evaluation.win[self.seat])

    @property
    def win_before(self) -> float:
        """The mover's win probability with the best action found."""
        return self.best.evaluation.win[self.seat]

    @property
    def win_after(self) -> float:
        """The mover's win probability after the action played."""
        return self.played.evaluation.win[self.seat]

    def to_json(self) -> dict[str, Any]:
        """The step as stored: action, win before/after, loss, class, best and alternatives."""
        best = self.best
        return {
            "index": self.index,
            "step": self.index + 1,
            "seat": self.seat,
            "action": action_to_json(self.played.action),
            "label": self.played.label,
            "win_before": round(self.win_before, 4),
            "win_after": round(self.win_after, 4),
            "loss": round(self.loss, 4),
            "loss_se": round(self.loss_se, 4),
            "playouts": len(self.played.ends),
            "classification": self.classification,
            "confidence": None
            if self.classification is None
            else confidence(self.loss, self.loss_se, isinstance(self.played.action, Draft)),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "stage": self.stage,
            "best": None if best is self.played else best.to_json(self.seat),
            "alternatives": [a.to_json(self.seat) for a in self.alternatives],
            "evaluation": self.played.evaluation.to_json(),
        }


@dataclass(frozen=True)
class Review:
    """A whole game reviewed: one :class:`StepReview` per action, plus summaries."""

    settings: Settings
    players: tuple[str, ...]
    start: Evaluation
    steps: tuple[StepReview, ...]
    turning_points: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)

    @property
    def graph(self) -> list[tuple[int, tuple[float, ...], tuple[float, ...] | None]]:
        """(step, win probability per seat, its standard error per seat): step 0 before the
        first action (the static evaluator's, no error known), then each one."""
        return [
            (0, self.start.win, None),
            *((s.index + 1, s.played.evaluation.win, combine(s.played.ends).win_se)
              for s in self.steps),
        ]  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The review as stored and served."""
        return {
            "settings": {**self.settings.__dict__, "key": self.settings.key},
            "players": list(self.players),
            "graph": [
                {
                    "step": step,
                    "win": [round(w, 4) for w in win],
                    "se": None if se is None else [round(e, 4) for e in se],
                }
                for step, win, se in self.graph
            ],  # fmt: skip
            "steps": [s.to_json() for s in self.steps],
            "turning_points": self.turning_points,
            "seats": self.seats,
            "thresholds": {name: round(share / len(self.players), 4) for name, share in THRESHOLDS},
        }


def thresholds(players: int) -> list[tuple[Classification, float]]:
    """(class, least loss) pairs for a game of ``players`` seats, worst class first."""
    return [(name, share / players) for name, share in THRESHOLDS]


def counted(loss: float, loss_se: float) -> float:
    """The loss, or 0 when it is within :data:`NOISE_Z` standard errors of no loss."""
    return loss if loss > NOISE_Z * loss_se else 0.0


def classify(loss: float, loss_se: float, players: int) -> Classification | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or None for a loss of win probability.

    >>> classify(0.08, 0.01, 4), classify(0.03, 0.0, 4), classify(0.03, 0.02, 4)
    ('blunder', 'inaccuracy', None)
    """
    loss = counted(loss, loss_se)
    return next((name for name, least in thresholds(players) if loss >= least), None)


def action_accuracy(loss: float, players: int) -> float:
    """Accuracy 0…100 of one action from its loss (Lichess's curve, scaled to N players).

    >>> [round(action_accuracy(loss, 4)) for loss in (0.0, 0.025, 0.05, 0.1)]
    [100, 80, 64, 40]
    """
    d = 100 * loss * players / 2
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * d) - 3.1669))


def seat_accuracy(accuracies: Sequence[float]) -> float | None:
    """Mean of the arithmetic and harmonic means (each accuracy at least 1)."""
    if not accuracies:
        return None
    arithmetic = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1 / max(1.0, a) for a in accuracies)
    return (arithmetic + harmonic) / 2


# --- one step ---------------------------------------------------------------------------------


def candidates(state: State, rng: random.Random) -> list[Action]:
    """Every legal non-move action, every one-wolf Move, and a few random multi-wolf Moves."""
    found: list[Action] = list(legal_actions(state))
    if not state.drafting:
        found += single_moves(state)
        for _ in range(SAMPLED_MOVES):
            move = sample_move(state, rng)
            if move is not None and len(move.steps) > 1:
                found.append(move)
    return found


def _score(
    before: State, line: tuple[Action, ...], names: Sequence[str], static: float,
    seeds: Sequence[int], settings: Settings, evaluator: StaticEvaluator,
) -> Scored:  # fmt: skip
    after, texts = before, []
    for action in line:
        after, events = play(after, action)
        texts.append(label(names, events))
    ends = tuple(playout_evaluations(after, seeds, settings.rounds, evaluator))
    said = texts[0] if len(texts) == 1 else _then(names[before.player], texts)
    return Scored(line, said, static, combine(ends).evaluation, ends)


def _deepened(
    before: State, scored: Scored, seeds: Sequence[int], settings: Settings,
    evaluator: StaticEvaluator,
) -> Scored:  # fmt: skip
    """``scored`` with playouts from ``seeds`` (more, other seeds) added to its own."""
    after = before
    for action in scored.line:
        after, _ = play(after, action)
    ends = (*scored.ends, *playout_evaluations(after, seeds, settings.rounds, evaluator))
    return replace(scored, evaluation=combine(ends).evaluation, ends=ends)


def _loss(seat: int, played: Scored, lines: Sequence[Scored]) -> tuple[float, float]:
    """The played line's loss against the best of ``lines`` (itself among them) for the
    mover, and its standard error (from the paired playout differences)."""
    best = max(lines, key=lambda s: s.evaluation.win[seat])
    if best is played:
        return 0.0, 0.0
    diffs = [b.win[seat] - p.win[seat] for b, p in zip(best.ends, played.ends, strict=True)]
    loss = max(0.0, sum(diffs) / len(diffs))
    spread = sum((d - loss) ** 2 for d in diffs) / max(1, len(diffs) - 1)
    return loss, math.sqrt(spread / len(diffs))


def confidence(loss: float, loss_se: float, draft: bool) -> Confidence:
    """How sure the review is of a loss (:data:`Confidence`).

    >>> confidence(0.12, 0.02, False), confidence(0.06, 0.025, False), confidence(0.2, 0, True)
    ('clear', 'likely', 'low')
    """
    if draft:
        return "low"
    return "clear" if loss_se <= 0 or loss >= CLEAR_Z * loss_se else "likely"


def unsure(loss: float, loss_se: float, players: int) -> bool:
    """Whether a loss lies near a class's threshold (or the noise line): one standard error
    either way would classify it otherwise.

    >>> unsure(0.052, 0.01, 4), unsure(0.09, 0.005, 4), unsure(0.0, 0.0, 4)
    (True, False, False)
    """
    return classify(loss - loss_se, loss_se, players) != classify(loss + loss_se, loss_se, players)


def _then(name: str, texts: Sequence[str]) -> str:
    """One label for a line of one seat's actions: ``Ana spends a bonus action token, then
    moves …`` (the name said once)."""
    return f"{texts[0]}, then " + ", then ".join(t.removeprefix(f"{name} ") for t in texts[1:])


def _lines(
    before: State, played: Action, rng: random.Random
) -> Iterator[tuple[tuple[Action, ...], State, tuple[Any, ...]]]:
    """The lines of actions the mover could have played instead of ``played`` (see the
    module), each with the position it reaches and a key telling lines apart (the events
    caused): those whose key is the played action's are left out."""
    played_key = tuple(play(before, played)[1])
    bonus: BonusAction | None = None
    for action in candidates(before, rng):
        if isinstance(action, BonusAction):
            bonus = action
            continue
        after, events = play(before, action)
        if (key := tuple(events)) != played_key:
            yield (action,), after, key
    if bonus is None or isinstance(played, BonusAction):
        return
    spent, spending = play(before, bonus)
    for action in candidates(spent, rng):
        if isinstance(action, BonusAction):
            continue
        after, events = play(spent, action)
        if (key := tuple(events)) != played_key:  # else: the played action, token spent after
            yield (bonus, action), after, (*spending, *key)


def review_step(
    before: State, played: Action, index: int, settings: Settings,
    evaluator: StaticEvaluator | None = None,
) -> StepReview:  # fmt: skip
    """Review the action played at ``index`` from the position ``before`` it."""
    evaluator = evaluator or StaticEvaluator.load()
    before = position(before, played)
    seat = before.player
    names = [p.name for p in before.table.players]
    n = len(before.boards)
    rng = random.Random(index)  # the alternatives listed depend on the position, not the seed
    ranked: dict[tuple[Any, ...], tuple[float, tuple[Action, ...]]] = {}
    for line, after, key in _lines(before, played, rng):
        if key not in ranked:
            ranked[key] = (evaluator.evaluate(after).win[seat], line)
    top = sorted(ranked.values(), key=lambda va: -va[0])[: settings.candidates]
    seeds = step_seeds(settings, index)
    static_played = evaluator.evaluate(play(before, played)[0]).win[seat]
    scored = _score(before, (played,), names, static_played, seeds, settings, evaluator)
    alternatives = tuple(_score(before, a, names, v, seeds, settings, evaluator) for v, a in top)
    loss, loss_se = _loss(seat, scored, (scored, *alternatives))
    if alternatives and unsure(loss, loss_se, n):  # re-checked: every line played out more
        more = step_seeds(settings, index, RECHECK * len(seeds))[len(seeds) :]
        scored = _deepened(before, scored, more, settings, evaluator)
        alternatives = tuple(_deepened(before, a, more, settings, evaluator) for a in alternatives)
        loss, loss_se = _loss(seat, scored, (scored, *alternatives))
    choice = bool(alternatives)
    return StepReview(
        index, seat, scored, alternatives, loss, loss_se,
        classify(loss, loss_se, n) if choice else None,
        action_accuracy(counted(loss, loss_se), n) if choice else None,
        stage(before),
    )  # fmt: skip


def position(before: State, played: Action) -> State:
    """The position the mover chose ``played`` from: ``before``, or, when the action ends a
    turn kept open by bonus action tokens, the next seat's turn (W-6), as the review sees it."""
    return close_turn(before) if played.player != before.player else before


def step_seeds(settings: Settings, index: int, playouts: int | None = None) -> list[int]:
    """The playout seeds of every line scored at step ``index``: the settings' playouts, or
    the first ``playouts`` (more, as a re-check plays)."""
    step_seed = settings.seed * 100_003 + index
    return [playout_seed(step_seed, i) for i in range(playouts or settings.playouts)]


def stage(state: State) -> Stage:
    """The stage of the game at ``state`` (:data:`Stage`)."""
    return STAGES[min(state.phases_scored, len(STAGES) - 1)]


# --- a whole game -----------------------------------------------------------------------------

_game: tuple[list[State], tuple[Action, ...]] | None = None


def _states(start: State, actions: Sequence[Action]) -> list[State]:
    states = [start]
    for action in actions:
        states.append(play(states[-1], action)[0])
    return states


def _init_worker(start: State, actions: tuple[Action, ...]) -> None:
    global _game
    _game = (_states(start, actions), actions)


def _review_in_worker(index: int, settings: Settings) -> StepReview:
    assert _game is not None
    states, actions = _game
    return review_step(states[index], actions[index], index, settings)


def _context() -> BaseContext:
    """Fork from a single-threaded process (cheap); spawn from a threaded one (a server)."""
    methods = multiprocessing.get_all_start_methods()
    fork = threading.active_count() == 1 and "fork" in methods
    return multiprocessing.get_context("fork" if fork else "spawn")


def turning_points(steps: Sequence[StepReview], start: Evaluation, n: int) -> list[dict[str, Any]]:
    """The steps where the win probabilities moved most (at most :data:`TURNING_POINTS`)."""
    least = THRESHOLDS[-1][1] / n
    swings: list[dict[str, Any]] = []
    previous = start.win
    for s in steps:
        now = s.played.evaluation.win
        change = [a - b for a, b in zip(now, previous, strict=True)]
        previous = now
        swing = sum(abs(c) for c in change) / 2
        if swing >= least:
            swings.append({
                "step": s.index + 1, "swing": round(swing, 4), "seat": s.seat,
                "gainer": max(range(n), key=lambda k: change[k]),
                "loser": min(range(n), key=lambda k: change[k]),
                "change": [round(c, 4) for c in change],
            })  # fmt: skip
    swings.sort(key=lambda t: -t["swing"])
    return sorted(swings[:TURNING_POINTS], key=lambda t: t["step"])


def seat_summaries(steps: Sequence[StepReview], names: Sequence[str]) -> list[dict[str, Any]]:
    """Per seat: accuracy (also per stage of the game: ``stages``), mean counted loss, and
    counts of inaccuracies, mistakes, blunders."""
    out = []
    for seat, name in enumerate(names):
        mine = [s for s in steps if s.seat == seat and s.accuracy is not None]
        accuracy = _accuracy(mine)
        counts = {c: sum(s.classification == c for s in mine) for c, _ in THRESHOLDS}
        stages = [
            {"stage": part, "actions": len(these), "accuracy": _accuracy(these)}
            for part in STAGES
            for these in [[s for s in mine if s.stage == part]]
        ]
        out.append({
            "seat": seat, "name": name, "actions": len(mine), "accuracy": accuracy,
            "stages": stages,
            "mean_loss": (
                round(sum(counted(s.loss, s.loss_se) for s in mine) / len(mine), 4)
                if mine else None
            ),
            **{PLURALS[c]: k for c, k in counts.items()},
        })  # fmt: skip
    return out


def _accuracy(steps: Sequence[StepReview]) -> float | None:
    """The accuracy of a seat's ``steps`` where it had a choice, rounded; None: no such step."""
    found = seat_accuracy([s.accuracy for s in steps if s.accuracy is not None])
    return None if found is None else round(found, 1)


def review(
    game: Record | tuple[State, Sequence[Action]],
    settings: Settings | None = None,
    progress: Progress | None = None,
    workers: int | Executor | None = None,
    indexes: Sequence[int] | None = None,
) -> Review:
    """Review a game: a record, or a start position and its actions.

    ``workers`` processes share the steps (default: one per CPU; 1 reviews in this
    process), or ``workers`` is an executor (a cluster's) that takes one task per step, each
    given the position it reviews. ``indexes`` limits the review to some actions (0-based;
    default all). The result depends only on the game and ``settings``.
    """
    settings = settings or Settings()
    if isinstance(game, Record):
        start, actions = initial(game), tuple(game.actions)
    else:
        start, actions = game[0], tuple(game[1])
    todo = list(range(len(actions)) if indexes is None else indexes)
    workers = workers or os.cpu_count() or 1
    done: dict[int, StepReview] = {}

    def collect(futures: Sequence[Future[StepReview]]) -> None:
        for future in as_completed(futures):
            reviewed = future.result()
            done[reviewed.index] = reviewed
            if progress:
                progress(len(done), len(todo))

    if progress:
        progress(0, len(todo))
    if isinstance(workers, Executor):
        states = _states(start, actions)
        collect([workers.submit(review_step, states[i], actions[i], i, settings) for i in todo])
    elif workers == 1 or len(todo) < 2:
        states = _states(start, actions)
        for i in todo:
            done[i] = review_step(states[i], actions[i], i, settings)
            if progress:
                progress(len(done), len(todo))
    else:
        init = (start, actions)
        with ProcessPoolExecutor(workers, _context(), _init_worker, init) as pool:
            collect([pool.submit(_review_in_worker, i, settings) for i in todo])
    steps = tuple(done[i] for i in sorted(done))
    names = tuple(p.name for p in start.table.players)
    start_eval = StaticEvaluator.load().evaluate(start)
    result = Review(settings, names, start_eval, steps)
    result.turning_points.extend(turning_points(steps, start_eval, len(names)))
    result.seats.extend(seat_summaries(steps, names))
    return result
