"""The per-step timeline of one game, of any game: what its ruleset's follower says of
each step, kept compact.

Step 0 is the position before the first action; step *n* the position after action *n*.
A :class:`Timeline` follows a game with its ruleset's :class:`~domain.ruleset.Follower`
(``Ruleset.follow``) over the events as the store keeps them, and keeps of each step's
:class:`~domain.ruleset.StepFacts` only what changed (a follower that keeps its rows so
itself walks the game on its own: :meth:`Timeline.walk`); :func:`expand` gives the rows
back. Nothing here knows a game's rules: every value is the follower's, which reads it
from the ruleset's own states (``tests/projections/test_timeline.py`` checks every
fixture, step by step, against the engine).

The row contract (what the API's ``/api/games/{id}/timeline`` serves and every board view
reads), one dict per step::

    {"step": 3, "player": 1, "type": "move", "label": "Bo moves …", "turn": 2,
     "finished": False,
     "scores": [{"seat": 0, "total": 12, "place": 1, "parts": {"regions": 4, …}}, …],
     "milestones": [{"kind": "region_scored", "text": "…", "seats": [1]}],
     **numbers}

- ``player`` and ``type``: the seat that acted and the record's action type (None at
  step 0); ``label``: what happened, in the game's words; ``turn``: the seat to act
  after the step (None once ``finished``).
- ``scores``: every seat's score after the step, in seat order (``Ruleset.scores``).
- ``milestones``: what the step reached (``kind`` a stable key such as
  ``region_scored``, ``round_won`` or ``game_ended``; ``seats`` those it favours); only
  the step's own.
- ``numbers``: the game's own chart numbers, as its follower names them, each as of that
  step (a follower gives a value when it changes, step 0 gives them all) and as its
  ruleset shows it (``Ruleset.chart_item``, item by item for a list). The Wolves':
  ``vp``, ``control``, ``moonlight``, ``next_phase``, ``scoring``
  (:mod:`domain.wolves.timeline`).

The stored document is ``{"game": name, "seats": n, "rows": [row, …]}`` where each row
is ``[player, type, label, turn, finished, scores, milestones, numbers, patches]``:
``scores`` the seats' ``[seat, total, place, parts]`` that changed, ``milestones``
``[kind, text, seats]``, ``numbers`` the numbers given whole and ``patches`` the list
numbers of the same length as before, as ``[index, item]`` of each item that changed,
all as the follower gave them. A dict with the same keys as the one it follows (a seat's
``parts``, a list's item) is kept as the list of its values in that one's key order (an
item so kept is ``[index, values, 1]``). Values a step left unchanged are shared with the
previous row (treat expanded rows as read-only).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import compress
from operator import is_not
from typing import Any

from domain.games import ruleset
from domain.ruleset import Follower, Ruleset, SeatScore, StepFacts, Stored

_UNSET = object()


def follow(rules: Ruleset, start: Any) -> Follower:
    """The ruleset's follower of a game from ``start``, its seats named as in the game."""
    return rules.follow([seat.name for seat in rules.players(start)], start)


class Timeline:
    """The compact timeline of one game, followed step by step from ``start``.

    :meth:`step` gives the follower the events decoded by ``Ruleset.decode_event``;
    :meth:`walk` lets a follower with a ``rows`` method walk the rest of the game itself.
    """

    def __init__(self, rules: Ruleset, start: Any) -> None:
        self.rules = rules
        self.follower = follow(rules, start)
        self._scores: Sequence[SeatScore] = ()
        self._numbers: dict[str, Any] = {}
        self.rows: list[list[Any]] = []
        self.add(self.follower.first())

    def step(self, events: Sequence[Stored]) -> StepFacts:
        """Take in the stored events of the next action; the facts of its step."""
        decode = self.rules.decode_event
        facts = self.follower.step([decode(e["type"], e["data"]) for e in events])
        self.add(facts)
        return facts

    def walk(self, steps: Iterable[Sequence[Stored]]) -> None:
        """Take in the stored events of each remaining action of the game, in order. A
        follower with a ``rows`` method (taking them as the store keeps them and giving
        each step's row as :meth:`add` keeps it) walks them itself; any other is given
        them :meth:`step` by step. No step can be taken after."""
        rows = getattr(self.follower, "rows", None)
        if rows is None:
            for events in steps:
                self.step(events)
        else:
            self.rows += rows(steps)

    def add(self, facts: StepFacts) -> None:
        """Keep the next step's facts (what changed of them)."""
        scores = facts.scores
        changed = [] if scores is self._scores else self._rescored(scores)
        numbers, patches = {}, {}
        current = self._numbers
        for key, value in facts.numbers.items():
            before = current.get(key, _UNSET)
            if value is before:
                continue
            current[key] = value
            if type(value) is list and type(before) is list and len(value) == len(before):
                patch = []  # a follower gives the items it did not change as they were
                for i in compress(range(len(value)), map(is_not, value, before)):
                    item = value[i]
                    values = _values(item, before[i]) if type(item) is dict else item
                    patch.append([i, item] if values is item else [i, values, 1])
                if patch:
                    patches[key] = patch
            elif value != before:
                numbers[key] = value
        marks = facts.milestones
        self.rows.append([
            facts.player, facts.action, facts.label, facts.turn, facts.finished, changed,
            [[m.kind, m.text, list(m.seats)] for m in marks] if marks else [], numbers, patches,
        ])  # fmt: skip

    def _rescored(self, scores: Sequence[SeatScore]) -> list[list[Any]]:
        """The seats' scores that are not those of the step before, as stored; ``scores``
        are the step's from now on."""
        old, out = self._scores, []
        for score in scores if len(old) != len(scores) else _changed(scores, old):
            was = old[score.seat] if score.seat < len(old) else None
            if score != was:
                parts = _values(score.parts, None if was is None else was.parts)
                out.append([score.seat, score.total, score.place, parts])
        self._scores = scores
        return out

    def doc(self) -> dict[str, Any]:
        """The compact document of the timeline so far (JSON-able; see :func:`expand`)."""
        return {"game": self.rules.name, "seats": len(self._scores), "rows": self.rows}


def expand(doc: Mapping[str, Any], rules: Ruleset | None = None) -> list[dict[str, Any]]:
    """The timeline rows of a stored document: one dict per step (the row contract), its
    numbers shown by its ruleset's ``chart_item`` (``rules``, or the one the document
    names)."""
    show = (rules or ruleset(doc["game"])).chart_item
    out = []
    scores: list[dict[str, Any]] = [{}] * doc["seats"]
    given: dict[str, Any] = {}  # the numbers as the follower gave them
    numbers: dict[str, Any] = {}  # as they are shown
    for step, row in enumerate(doc["rows"]):
        player, kind, label, turn, finished, changed, marks, whole, patches = row
        if changed:
            scores = list(scores)
            for seat, total, place, parts in changed:
                if type(parts) is list:
                    parts = dict(zip(scores[seat]["parts"], parts, strict=True))
                scores[seat] = {"seat": seat, "total": total, "place": place, "parts": parts}
        if whole or patches:
            numbers = dict(numbers)
            for key, value in whole.items():
                given[key] = value
                numbers[key] = (
                    [show(key, item) for item in value] if type(value) is list else show(key, value)
                )
            for key, patch in patches.items():
                items = given[key] = list(given[key])
                shown = numbers[key] = list(numbers[key])
                for i, item, *packed in patch:
                    items[i] = dict(zip(items[i], item, strict=True)) if packed else item
                    shown[i] = show(key, items[i])
        out.append({
            "step": step, "player": player, "type": kind, "label": label, "turn": turn,
            "finished": finished, "scores": scores,
            "milestones": [{"kind": k, "text": t, "seats": s} for k, t, s in marks],
            **numbers,
        })  # fmt: skip
    return out


def _changed(items: Sequence[Any], before: Sequence[Any]) -> list[Any]:
    """The items that are not the ones before them (as many of each)."""
    return list(compress(items, map(is_not, items, before)))


def _values(item: Any, was: Any) -> Any:
    """``item`` as stored after ``was``: a dict with the same keys as ``was`` as the list of
    its values in ``was``'s order, anything else as it is."""
    if type(item) is dict and type(was) is dict and item.keys() == was.keys():
        return [item[key] for key in was]
    return item


def timeline(rules: Ruleset, start: Any, steps: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """The rows (:func:`expand`) of a game from ``start`` whose actions caused ``steps``
    (the ruleset's events of each action)."""
    line = Timeline(rules, start)
    for events in steps:
        line.add(line.follower.step(events))
    return expand(line.doc(), rules)
