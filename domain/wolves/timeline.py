"""The Wolves step by step: the :class:`~domain.ruleset.Follower` behind its timelines.

It folds the game's own events with the engine's ``apply`` and reads every fact from the
state it reaches, through the engine's scoring: no rule is applied a second time here.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.ruleset import Milestone, SeatScore, StepFacts
from domain.wolves import events as ev
from domain.wolves.describe import label
from domain.wolves.evolve import apply
from domain.wolves.scoring import final_scores
from domain.wolves.state import State

MILESTONES: dict[type, str] = {
    ev.RegionScored: "region_scored", ev.PhaseScored: "phase_scored", ev.GameEnded: "game_ended",
}  # fmt: skip
"""The events a timeline marks, by the milestone kind they make."""


class WolvesFollower:
    """Follows one game of The Wolves from ``start``; see :class:`~domain.ruleset.Follower`."""

    def __init__(self, names: Sequence[str], start: State) -> None:
        self.names = tuple(names)
        self._state = start.copy()

    @property
    def state(self) -> State:
        return self._state

    def first(self) -> StepFacts:
        return self._facts(None, None, "setup", ())

    def step(self, events: Sequence[ev.Event]) -> StepFacts:
        for event in events:
            apply(self._state, event)
        acted = next((e for e in events if isinstance(e, ev.ActionEvent)), None)
        return self._facts(
            None if acted is None else acted.player,
            None if acted is None else ev.ACTION_TYPES[type(acted)],
            label(self.names, events),
            tuple(
                Milestone(MILESTONES[type(e)], label(self.names, [e]))
                for e in events
                if type(e) in MILESTONES
            ),
        )

    def _facts(
        self, player: int | None, action: str | None, text: str, marks: tuple[Milestone, ...]
    ) -> StepFacts:
        state = self._state
        scores = tuple(
            SeatScore(s.seat, s.total, s.place, {"regions": s.regions}) for s in final_scores(state)
        )
        turn = None if state.finished else state.player
        return StepFacts(player, action, text, turn, state.finished, scores, marks)
