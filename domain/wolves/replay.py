"""Replaying a record: the rules engine over its actions, step by step.

>>> from domain.wolves.records import Record
>>> from domain.wolves.setup import Player, generate_setup
>>> from domain.wolves.actions import Draft
>>> players = (Player("Ana", "blue", "forest"), Player("Bo", "red", "tundra"),
...            Player("Cy", "yellow", "desert"))
>>> record = Record(players=players, setup=generate_setup(3, seed=1), actions=(Draft(0, (5, 7)),))
>>> replay(record).state.draft_picks
1
>>> replay(Record(players=players, setup=generate_setup(3, seed=1), actions=(Draft(1, (5, 7)),)))
Traceback (most recent call last):
...
domain.replays.RecordError: action 0 (step 1): W-6: it is seat 0 (Ana)'s turn, not seat 1 (Bo)'s
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain import replays
from domain.documents import written_header
from domain.replays import RecordError, Replay
from domain.wolves.events import FinalScore
from domain.wolves.records import Record, read_record
from domain.wolves.scoring import final_scores
from domain.wolves.setup import Player
from domain.wolves.state import State, initial_state

__all__ = ["RecordError", "Replay", "Summary", "describe", "initial", "replay"]


def initial(record: Record) -> State:
    """The state before the first action: the ``start`` position or the setup's."""
    if record.start is not None:
        return record.start
    if record.setup is None:
        raise ValueError("a record needs a setup or a start position")
    return initial_state(record.players, record.setup)


def written_start(text: str) -> State:
    """The state before the first action of a record :func:`write_record` wrote and that was
    checked before (a stored one): its actions are left unread, unparsed too."""
    return initial(read_record(written_header(text)))


def replay(
    record: Record, at: int | None = None, check: Callable[[], None] | None = None
) -> Replay:
    """:func:`domain.replays.replay` of a record of The Wolves."""
    from domain.wolves.ruleset import WOLVES

    return replays.replay(WOLVES, record, at, check)


@dataclass(frozen=True)
class Summary:
    """What a whole game came to: seats, actions, whether it ended, the scores."""

    players: tuple[Player, ...]
    actions: int
    finished: bool
    scores: tuple[FinalScore, ...]

    @property
    def leaders(self) -> list[str]:
        """Names of the seats in first place (the winners of a finished game)."""
        return [self.players[s.seat].name for s in self.scores if s.place == 1]

    def __str__(self) -> str:
        """``4 players, 187 actions, finished, winner Ana (61)``."""
        best = max((s.total for s in self.scores), default=0)
        leaders = self.leaders
        who = ("winner" if self.finished else "leader") + ("s" if len(leaders) > 1 else "")
        return (
            f"{len(self.players)} players, {self.actions} actions, "
            f"{'finished' if self.finished else 'in progress'}, {who} {', '.join(leaders)} ({best})"
        )


def describe(record: Record, result: Replay | None = None) -> Summary:
    """The :class:`Summary` of a record (replayed unless ``result`` is its replay)."""
    result = result or replay(record)
    state = result.state
    return Summary(state.table.players, len(result.steps), state.finished, final_scores(state))
