"""The Wolves step by step: the :class:`~domain.ruleset.Follower` behind its timelines.

It applies the game's own events to its state with the engine's ``apply`` and reads every
fact from the state it reaches, through the engine's scoring: no rule is applied a second
time here. To stay fast it reads again only what a step's events can have changed: the
control of the regions holding the hexes they name (and of the regions they scored), the
seats' wolves on those hexes, and the scores of the seats whose board or wolves on the map
changed.

Its chart numbers (``StepFacts.numbers``) are the timeline's Wolves columns, as
:func:`shown` shows them (``Ruleset.chart_item``; the follower keeps the first two compact):

- ``vp``: every seat's ``FinalScore`` as a dict (records.md ``howl score``), in seat order;
- ``control``: per region, ``{"region", "top" (its top scoring token, or None),
  "control" (per contender: the seat as a string, or ``automaton``), "leader" (alone
  first by W-8, or None), "margin" (control of the first over the second)}``, ranked
  when shown;
- ``moonlight``: the date; ``next_phase``: ``{"phase", "date"}`` of the next phase to
  score, None after the last;
- ``scoring``: the region scorings of the step (``RegionScored`` as the store keeps it).

>>> from domain.wolves.ruleset import WOLVES
>>> record = WOLVES.self_play(2, ["random", "random"], seed=3)
>>> follower = WOLVES.follow(["Ana", "Bo"], WOLVES.start(record))
>>> sorted(follower.first().numbers)
['control', 'moonlight', 'next_phase', 'scoring', 'vp']
>>> facts = follower.step(WOLVES.play(follower.state, record.actions[0])[1])
>>> facts.label.startswith("Ana drafts an alpha and a pack wolf"), facts.turn
(True, 1)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from domain.hexes import Hex
from domain.ruleset import Milestone, SeatScore, StepFacts
from domain.wolves import codec
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.codec import ACTION_NAMES, EVENT_TYPES, Stored
from domain.wolves.describe import stored_label
from domain.wolves.evolve import handler
from domain.wolves.scoring import (
    Unplaced,
    control,
    hex_control,
    leaders,
    rank,
    seat_places,
    seat_score,
    wolves_on_map,
)
from domain.wolves.state import Piece, State

FIELDS = tuple(f.name for f in dataclasses.fields(ev.FinalScore))
"""The fields of a seat's ``vp`` dict, in order: seat, total, the parts, place."""
BREAKDOWN = FIELDS[2:-1]
"""A seat's score parts (records.md ``howl score``), in the contract's order."""
AUTOMATON = "automaton"
"""The two-player automaton pack's key in control rows."""
WOLF_KINDS = frozenset(("alpha", "pack"))
_NONE: frozenset[int] = frozenset()
"""No seat (whose wolves changed)."""

_NAMED: dict[str, Callable[[Any], Iterable[Hex]]] = {
    "WolvesDrafted": lambda e: (e.hex,),
    "WolvesMoved": lambda e: [h for m in e.moves for h in (m.src, m.dst)],
    "WolfPushed": lambda e: (e.src, e.dst),
    "DenBuilt": lambda e: (e.hex,),
    "LairBuilt": lambda e: (e.hex,),
    "LoneWolfHowled": lambda e: (e.hex,),
    "PieceDominated": lambda e: (e.hex,),
}
"""The hexes each event names (by stored type name): the only hexes whose pieces it can
change."""
_MARKED = frozenset(("RegionScored", "PhaseScored", "GameEnded"))
"""The events a timeline marks as milestones."""
_KINDS: dict[str, tuple[Any, Callable[[Any], Iterable[Hex]] | None, bool, bool, Any]] = {
    name: (
        codec.viewer(name),
        _NAMED.get(name),
        name in ACTION_NAMES,
        name in _MARKED,
        handler(cls),
    )
    for name, cls in EVENT_TYPES.items()
}
"""Per stored type name: how its fields are viewed, the hexes its events name, whether
they are actions, whether they are milestones and how they are applied."""


def shown(key: str, item: Any) -> Any:
    """A chart number of the follower as timelines show it (``Ruleset.chart_item``): a
    control row ranked by W-8, a seat's ``vp`` as a dict, anything else as it is.

    >>> shown("control", [3, "quarter", [[0, 2, 1], [None, 2, 0], [1, 1, 0]]])["leader"]
    '0'
    >>> shown("vp", [1, 9, 4, 2, 0, 0, 0, 3, 0, 1, 4, 2])["prey"]
    3
    """
    if key == "control":
        region, top, held = item
        ranked = rank({who: (c, a) for who, c, a in held})
        first = leaders(ranked)
        margin = ranked[0][1][0] - (ranked[1][1][0] if len(ranked) > 1 else 0) if ranked else 0
        return {
            "region": region,
            "top": top,
            "control": {_key(who): c for who, c, _ in held},
            "leader": _key(first[0]) if len(first) == 1 else None,
            "margin": margin,
        }
    if key == "vp":
        return dict(zip(FIELDS, item, strict=True))
    return item


def _key(who: int | None) -> str:
    return AUTOMATON if who is None else str(who)


def seat_scores(scores: Iterable[ev.FinalScore]) -> tuple[SeatScore, ...]:
    """The engine's ``FinalScore`` rows as the ruleset interface's ``SeatScore``."""
    return tuple(
        SeatScore(s.seat, s.total, s.place, {k: getattr(s, k) for k in BREAKDOWN}) for s in scores
    )


class WolvesFollower:
    """Follows one game of The Wolves from ``start``; see :class:`~domain.ruleset.Follower`.

    Besides the protocol's :meth:`step` it offers :meth:`rows`, which walks the rest of a
    game from its events as the store keeps them: it applies views of their fields
    (``codec.view``) with the engine's own handlers instead of decoding them, labels them
    as they are and gives each step's timeline row, compact, without its facts.
    """

    def __init__(self, names: Sequence[str], start: State) -> None:
        self.names = tuple(names)
        state = self._state = start.copy()
        table = state.table
        seats = range(len(state.boards))
        self._two = table.two_player
        self._regions = table.map.regions
        self._index = {region: i for i, region in enumerate(self._regions)}
        self._slot = {h: self._index[region] for h, region in table.map.region_of.items()}
        self._wolves = [wolves_on_map(state, seat) for seat in seats]
        self._held = [
            {who: (who, c, a) for who, (c, a) in control(state, region).items()}
            for region in self._regions
        ]
        self._control = [self._control_row(i) for i in range(len(self._regions))]
        self._boards = state.boards
        self._rows = [seat_score(state.boards[s], self._wolves[s], self._two) for s in seats]
        self._placed: list[tuple[Unplaced, int]] = []
        self._moved: list[int] = []
        """The seats whose score or place the last placing changed."""
        self._scores: tuple[SeatScore, ...] = ()
        self._unscored: set[int] = set()
        """The seats whose ``_scores`` are not made yet for their last placing."""
        self._vp: list[list[int]] = []
        self._place_seats()
        self._moonlight = state.moonlight
        self._date = state.date
        self._phases = state.phases_scored
        self._scored = False
        self._reread: list[int] = []
        """The indexes of the regions whose control rows the last step read again."""

    @property
    def state(self) -> State:
        return self._state

    def first(self) -> StepFacts:
        numbers = {
            "vp": self._vp, "control": self._control, "moonlight": self._date,
            "next_phase": self._next_phase(), "scoring": [],
        }  # fmt: skip
        return StepFacts(
            None,
            None,
            "setup",
            self._turn(),
            self._state.finished,
            self._seat_scores(),
            (),
            numbers,
        )

    def step(self, events: Sequence[ev.Event]) -> StepFacts:
        stored = [codec.stored(e) for e in events]
        acted, marks, numbers = self._take(stored, events)
        state = self._state
        return StepFacts(
            None if acted is None else acted["data"]["player"],
            None if acted is None else ACTION_NAMES[acted["type"]],
            stored_label(self.names, stored),
            None if state.finished else state.player,
            state.finished,
            self._seat_scores(),
            tuple(marks),
            numbers,
        )

    def rows(self, steps: Iterable[Sequence[Stored]]) -> Iterator[list[Any]]:
        """The compact timeline row of each next step, from its events as the store keeps
        them (``{"type", "data"}``): what :meth:`step` tells, kept as
        ``projections.timeline.Timeline.add`` keeps it (only what changed), without
        making the step's facts."""
        names, state = self.names, self._state
        scoring: list[dict[str, Any]] = []  # the region scorings last given
        for stored in steps:
            acted, marks, numbers = self._take(stored, None)
            changed: list[list[Any]] = []
            whole: dict[str, Any] = {}
            patches: dict[str, list[list[Any]]] = {}
            if numbers:
                if "control" in numbers:
                    control, reread = self._control, self._reread
                    if len(reread) > 1:
                        reread = sorted(set(reread))
                    patches["control"] = [[i, control[i]] for i in reread]
                if "vp" in numbers:
                    vp, placed = self._vp, self._placed
                    patches["vp"] = [[seat, vp[seat]] for seat in self._moved]
                    for seat in self._moved:
                        row, place = placed[seat]
                        changed.append([seat, row[0], place, list(row[1:])])
                if "moonlight" in numbers:
                    whole["moonlight"] = numbers["moonlight"]
                if "next_phase" in numbers:
                    whole["next_phase"] = numbers["next_phase"]
                if "scoring" in numbers:
                    now = numbers["scoring"]
                    if now and len(now) == len(scoring):  # item by item, each as its values
                        patches["scoring"] = [
                            [i, [item[key] for key in was], 1] if item.keys() == was.keys()
                            else [i, item]
                            for i, (item, was) in enumerate(zip(now, scoring, strict=True))
                        ]  # fmt: skip
                    else:
                        whole["scoring"] = now
                    scoring = now
            yield [
                None if acted is None else acted["data"]["player"],
                None if acted is None else ACTION_NAMES[acted["type"]],
                stored_label(names, stored),
                None if state.finished else state.player,
                state.finished,
                changed,
                [[m.kind, m.text, list(m.seats)] for m in marks] if marks else [],
                whole,
                patches,
            ]

    def _take(
        self, stored: Sequence[Stored], events: Sequence[ev.Event] | None
    ) -> tuple[Stored | None, list[Milestone], dict[str, Any]]:
        """Apply a step's events (``events``, or else views of the ``stored`` ones): its
        acting event as stored (None: no action), its milestones and the chart numbers it
        changed (the seats it rescored and regions it read again are kept too)."""
        state = self._state
        pieces = state.pieces
        named: dict[Hex, tuple[Piece, ...]] = {}  # the hexes the events name: their pieces
        acted: Stored | None = None
        scored: list[dict[str, Any]] = []
        regions: list[int] = []  # the indexes of the regions whose top token was scored
        marks: list[Milestone] = []
        for n, kept in enumerate(stored):
            kind = kept["type"]
            view, hexes, action, marked, apply = _KINDS[kind]
            event: Any = view(kept["data"]) if events is None else events[n]
            if hexes is not None:  # a hex's pieces before the first event naming it
                for h in hexes(event):
                    if h not in named:
                        named[h] = pieces.get(h, ())
            if action:
                if acted is None:
                    acted = kept
            elif marked:
                marks.append(self._milestone(kind, event, kept))
                if kind == "RegionScored":
                    regions.append(self._index[event.region])
                    scored.append(kept["data"])
            apply(event, state)
        numbers: dict[str, Any] = {}
        counted = self._count(named, regions) if named else _NONE
        self._reread = regions
        if regions:
            self._read_control(regions, numbers)
        if counted or state.boards is not self._boards:
            self._read_scores(numbers, counted)
        if state.moonlight is not self._moonlight:
            self._moonlight = state.moonlight
            if state.date != self._date:
                self._date = numbers["moonlight"] = state.date
        if state.phases_scored != self._phases:
            self._phases = state.phases_scored
            numbers["next_phase"] = self._next_phase()
        if scored or self._scored:
            numbers["scoring"] = scored
            self._scored = bool(scored)
        return acted, marks, numbers

    def _count(self, named: dict[Hex, tuple[Piece, ...]], regions: list[int]) -> set[int]:
        """Count the changes of the ``named`` hexes' pieces (their stacks before the step)
        into the regions' control and the seats' wolves on the map; add to ``regions``
        those whose control changed, and return the seats whose wolves did."""
        pieces = self._state.pieces
        counted: set[int] = set()
        before: dict[int, dict[int | None, tuple[int | None, int, int]]] = {}
        slot, held, wolves, changes = self._slot, self._held, self._wolves, _CHANGES
        for h, was in named.items():
            now = pieces.get(h, ())
            if now is was:  # the engine puts a new stack on every hex it changes
                continue
            control, counts = changes.get((was, now)) or _change(was, now)
            i = slot.get(h)
            if control and i is not None:
                region = held[i]
                if i not in before:
                    before[i] = region.copy()
                for who, dc, da in control:
                    _, c, a = region.get(who, (who, 0, 0))
                    if c + dc:
                        region[who] = (who, c + dc, a + da)
                    else:  # every piece has some control: none is left
                        del region[who]
            for seat, n in counts:
                wolves[seat] += n
                counted.add(seat)
        for i, earlier in before.items():
            if held[i] != earlier and i not in regions:
                regions.append(i)
        return counted

    def _turn(self) -> int | None:
        state = self._state
        return None if state.finished else state.player

    def _next_phase(self) -> dict[str, Any] | None:
        phases = self._phases
        if phases >= len(box.PHASES):
            return None
        return {"phase": box.PHASES[phases], "date": self._state.table.phase_dates[phases]}

    def _control_row(self, i: int) -> list[Any]:
        """The control row of the region at index ``i``, as :func:`shown` takes it."""
        region = self._regions[i]
        stack = self._state.scoring.get(region)
        return [region, stack[0] if stack else None, list(self._held[i].values())]

    def _read_control(self, regions: Iterable[int], numbers: dict[str, Any]) -> None:
        """Read the control rows of the regions at indexes ``regions`` again into
        ``numbers["control"]``."""
        rows = self._control = list(self._control)
        names, scoring, held = self._regions, self._state.scoring, self._held
        for i in regions:  # as _control_row reads them
            stack = scoring.get(names[i])
            rows[i] = [names[i], stack[0] if stack else None, list(held[i].values())]
        numbers["control"] = rows

    def _read_scores(self, numbers: dict[str, Any], counted: set[int] | frozenset[int]) -> None:
        """Score again the seats whose board or wolves on the map (``counted``) changed;
        ``numbers["vp"]`` (and new scores) when a seat's score or place changed."""
        boards, two, rows, wolves = self._state.boards, self._two, self._rows, self._wolves
        old = self._boards
        changed = False
        for seat, board in enumerate(boards):
            if board is old[seat] and seat not in counted:
                continue
            row = seat_score(board, wolves[seat], two)
            if row != rows[seat]:
                rows[seat] = row
                changed = True
        self._boards = boards
        if changed and self._place_seats():
            numbers["vp"] = self._vp

    def _place_seats(self) -> bool:
        """Place the seats' scores (``_rows``); whether a seat's score or place changed."""
        rows, placed = self._rows, self._placed
        now = list(zip(rows, seat_places(rows), strict=True))
        if now == placed:
            return False
        vp = list(self._vp)
        moved = self._moved = []
        for seat, item in enumerate(now):
            if seat < len(placed) and placed[seat] == item:
                continue
            row, place = item
            moved.append(seat)
            if seat < len(vp):
                vp[seat] = [seat, *row, place]
            else:
                vp.append([seat, *row, place])
        self._placed, self._vp = now, vp
        self._unscored.update(moved)
        return True

    def _seat_scores(self) -> tuple[SeatScore, ...]:
        """The seats' scores now: those placed anew since last asked are made again, the
        others kept as they were."""
        if self._unscored:
            scores, placed = list(self._scores), self._placed
            for seat in sorted(self._unscored):
                row, place = placed[seat]
                score = SeatScore(seat, row[0], place, dict(zip(BREAKDOWN, row[1:], strict=True)))
                if seat < len(scores):
                    scores[seat] = score
                else:
                    scores.append(score)
            self._scores = tuple(scores)
            self._unscored.clear()
        return self._scores

    def _milestone(self, kind: str, event: Any, kept: Stored) -> Milestone:
        """The milestone of a region scoring, a phase scored or the game's end (``event``
        one of those, or a view of its fields)."""
        if kind == "RegionScored":
            won = sorted(
                (s.place or 3, s.seat) for s in event.standings if s.seat is not None and s.points
            )
            seats = tuple(seat for _, seat in won)
            return Milestone("region_scored", stored_label(self.names, [kept]), seats)
        if kind == "GameEnded":
            winners = tuple(s.seat for s in event.scores if s.place == 1)
            return Milestone("game_ended", stored_label(self.names, [kept]), winners)
        return Milestone("phase_scored", event.phase)


Change = tuple[tuple[tuple[int | None, int, int], ...], tuple[tuple[int, int], ...]]
"""What a hex's new stack of pieces changes: per contender its control and alphas there
(W-8) and per seat its wolves on the map, as ``(who, control, alphas)`` and ``(seat,
wolves)`` differences (none of them zero)."""

_CHANGES: dict[tuple[tuple[Piece, ...], tuple[Piece, ...]], Change] = {}
"""Every change of a hex's stack seen so far: a few thousand at most (two pieces to a hex)."""


def _change(was: tuple[Piece, ...], now: tuple[Piece, ...]) -> Change:
    """What a hex's stack going from ``was`` to ``now`` changes, kept in ``_CHANGES``."""
    held = Counter[int | None]()
    alphas = Counter[int | None]()
    for sign, pieces in ((-1, was), (1, now)):
        for who, (c, a) in hex_control(pieces):
            held[who] += sign * c
            alphas[who] += sign * a
    wolves = Counter(p.player for p in now if p.player is not None and p.kind in WOLF_KINDS)
    wolves.subtract(p.player for p in was if p.player is not None and p.kind in WOLF_KINDS)
    control = tuple((who, c, alphas[who]) for who, c in held.items() if c or alphas[who])
    found = _CHANGES[was, now] = (control, tuple((s, n) for s, n in wolves.items() if n))
    return found
