"""Moonlight step by step: the :class:`~domain.ruleset.Follower` behind its timelines.

It folds the game's own events with the engine's ``evolve`` and reads every fact from the
state it reaches and from the events (a round's scoring is the engine's ``RoundScored``):
no rule is applied a second time here.

Each step's :attr:`~domain.ruleset.StepFacts.numbers` (the board view's) holds what
changed at that step (step 0 holds everything):

- ``round``: the round number (in play, or next between rounds); ``rounds_won``: per seat;
- ``cells``: the cells whose stack changed, each ``{"cell": [x, y], "stack": [{"player",
  "card", "value", "moons"}, …]}`` bottom first; ``cleared``: true when the table was
  emptied first (a round began; at step 0 ``cells`` is the whole table);
- ``scoring`` (at a round's end): ``{"round", "rows": [{"y", "sums", "winner"}],
  "ignored": [[x, y], …], "tripled": [[x, y], …], "seats": [{"points", "moons", "cards",
  "threes", "moons_shown", "visible"}, …], "winner"}`` — the row winners (``winner`` None
  on a tie), the cards step 3 ignored, the corner 1s that counted 3, and the round's
  winner (None: replayed).

Every seat's :class:`~domain.ruleset.SeatScore` has the rounds won as its total, and the
parts ``rounds_won`` and ``points``: the points the table would score now (between rounds,
the last round's).

>>> from domain.ruleset import Seat
>>> from domain.moonlight.cards import assumed_setup
>>> from domain.moonlight.rules import play
>>> from domain.moonlight.actions import Place
>>> from domain.moonlight.state import initial_state
>>> start = initial_state((Seat("Ana", "green"), Seat("Bo", "blue")), assumed_setup())
>>> follower = MoonlightFollower(("Ana", "Bo"), start)
>>> follower.first().numbers["cleared"]
True
>>> facts = follower.step(play(start, Place(0, 2, (0, 0)))[1])
>>> facts.label
'round 1 begins, Ana starts; Ana places a 2 on [0, 0]'
>>> facts.numbers["cells"]
[{'cell': [0, 0], 'stack': [{'player': 0, 'card': 2, 'value': 2, 'moons': 1}]}]
>>> facts.scores[0].parts
{'rounds_won': 0, 'points': 3}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from domain.moonlight import events as ev
from domain.moonlight.cells import Cell
from domain.moonlight.describe import describe, label
from domain.moonlight.evolve import evolve
from domain.moonlight.scoring import score_round, standings
from domain.moonlight.state import State
from domain.ruleset import Milestone, SeatScore, StepFacts

MILESTONES: dict[type, str] = {
    ev.RoundWon: "round_won", ev.RoundReplayed: "round_replayed", ev.GameEnded: "game_ended",
}  # fmt: skip
"""The events a timeline marks, by the milestone kind they make."""


def seat_scores(state: State) -> tuple[SeatScore, ...]:
    """Both seats' rounds won (the total, with places) and the points the table would
    score now."""
    points = score_round(state).seats
    return tuple(
        SeatScore(
            s.seat, s.total, s.place, {"rounds_won": s.total, "points": points[s.seat].points}
        )
        for s in standings(state)
    )


class MoonlightFollower:
    """Follows one game of Moonlight from ``start``; see :class:`~domain.ruleset.Follower`."""

    def __init__(self, names: Sequence[str], start: State) -> None:
        self.names = tuple(names)
        self._state = start

    @property
    def state(self) -> State:
        return self._state

    def first(self) -> StepFacts:
        state = self._state
        numbers: dict[str, Any] = {
            "round": state.round,
            "rounds_won": [p.rounds_won for p in state.packs],
            "cells": [self._cell(c) for c in sorted(state.cells)],
            "cleared": True,
        }
        return self._facts(None, None, "setup", (), numbers)

    def step(self, events: Sequence[ev.Event]) -> StepFacts:
        before = self._state
        state = before
        changed: set[Cell] = set()
        numbers: dict[str, Any] = {}
        player: int | None = None
        action: str | None = None
        for event in events:
            state = evolve(state, event)
            match event:
                case ev.RoundStarted(starter=seat, named=named):
                    changed.clear()
                    numbers["cleared"] = True
                    if named:
                        player, action = seat, "round_start"
                case ev.CardPlaced(player=seat, cell=cell) | ev.CardCovered(player=seat, cell=cell):
                    changed.add(cell)
                    player, action = seat, "place"
                case ev.AlphaPowerChosen(player=seat):
                    player, action = seat, "alpha_power"
                case ev.RoundScored():
                    numbers["scoring"] = self._scoring(event)
                case ev.RoundWon(player=seat):
                    numbers["scoring"]["winner"] = seat
        self._state = state
        if state.round != before.round:
            numbers["round"] = state.round
        wins = [p.rounds_won for p in state.packs]
        if wins != [p.rounds_won for p in before.packs]:
            numbers["rounds_won"] = wins
        if changed or "cleared" in numbers:
            numbers["cells"] = [self._cell(c) for c in sorted(changed)]
        marks = tuple(
            Milestone(MILESTONES[type(e)], describe(self.names, e), _favoured(e))
            for e in events
            if type(e) in MILESTONES
        )
        return self._facts(player, action, label(self.names, events), marks, numbers)

    def _facts(
        self,
        player: int | None,
        action: str | None,
        text: str,
        marks: tuple[Milestone, ...],
        numbers: dict[str, Any],
    ) -> StepFacts:
        state = self._state
        turn = None if state.finished else state.player
        return StepFacts(
            player, action, text, turn, state.finished, seat_scores(state), marks, numbers
        )

    def _cell(self, cell: Cell) -> dict[str, Any]:
        faces = self._state.table.faces
        return {
            "cell": [cell[0], cell[1]],
            "stack": [
                {
                    "player": p.player,
                    "card": p.card,
                    "value": faces.value[p.card],
                    "moons": faces.moons[p.card],
                }
                for p in self._state.cells[cell]
            ],
        }

    @staticmethod
    def _scoring(event: ev.RoundScored) -> dict[str, Any]:
        return {
            "round": event.round,
            "rows": [{"y": r.y, "sums": list(r.sums), "winner": r.winner} for r in event.rows],
            "ignored": [list(c) for c in event.ignored],
            "tripled": [list(c) for c in event.tripled],
            "seats": [dataclasses.asdict(points) for points in event.seats],
            "winner": None,
        }


def _favoured(event: ev.Event) -> tuple[int, ...]:
    match event:
        case ev.RoundWon(player=seat) | ev.GameEnded(winner=seat):
            return (seat,)
    return ()
