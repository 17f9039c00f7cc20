"""The per-step timeline of one game: VP and its breakdown, region control, Moonlight, labels.

Step 0 is the position before the first action; step *n* the position after action *n*.
:class:`Fold` reads a game's events as stored (``codec`` JSON: a type name and its fields)
and keeps only what the timeline shows: control per region and contender, the seats'
VP sources, the scoring stacks, the Moonlight date, whose turn. Each step updates what
its events touched, and every value equals what folding the engine gives at that step
(``tests/projections/test_timeline.py`` checks every fixture step by step).

The stored document is compact (:func:`expand` reads it back): a list per step that holds
only the seats' scores and the regions' control rows that changed. Rows a step left
unchanged are shared with the previous step (treat the expanded rows as read-only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.wolves import codec
from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.codec import Stored
from domain.wolves.describe import stored_label
from domain.wolves.scoring import area_vp, places
from domain.wolves.state import State

AUTOMATON = "automaton"
SCORE_FIELDS = (
    "seat", "total", "regions", "spread", "speed", "howl", "lairs", "prey", "pack",
    "region_tokens", "wolves_on_map", "place",
)  # fmt: skip
"""The fields of ``FinalScore``, in order: a seat's score in the stored document."""
ACTION_TYPES = {cls.__name__: kind for cls, kind in ev.ACTION_TYPES.items()}
"""The record action type of each action event, by stored type name."""
WOLVES = frozenset(("alpha", "pack"))


# The seat board fields a fold tracks, as indexes into a seat's list.
DENS, LAIRS, PACK, PREY, POINTS, TOKENS, ON_MAP = 0, 3, 4, 5, 6, 7, 8


class Fold:
    """The timeline of one game, followed step by step from its start position.

    ``rows`` holds the compact row of every step so far (step 0 from the start):
    ``[player, type, label, scoring, turn, moonlight, phases scored, scores, control]``
    with the scores (``SCORE_FIELDS`` lists) and control rows (``[region index, top
    token, control per contender, leader, margin]``) that changed. ``boards`` holds each
    seat's dens per track, lairs, pack-track wolves, prey hunted (a list), region points
    and tokens, and wolves on the map (see the index constants).
    """

    def __init__(self, start: State) -> None:
        table = start.table
        self.names = [p.name for p in table.players]
        self.keys: dict[int | None, str] = {seat: str(seat) for seat in range(len(self.names))}
        self.keys[None] = AUTOMATON  # the contenders' keys in control rows
        self.two = table.two_player
        self.draft_order = table.draft_order
        self.phase_dates = list(table.phase_dates)
        self.regions = list(table.map.regions)
        self.index = {region: i for i, region in enumerate(self.regions)}
        self.slot = {h: self.index[r] for h, r in table.map.region_of.items()}
        self.tops = [start.scoring.get(r, ()) for r in self.regions]
        self.held: list[dict[str, list[int]]] = [{} for _ in self.regions]
        self.dirty: set[int] = set()
        self.boards = [
            [*b.dens, b.lairs, b.wolves, list(b.prey), b.region_points, b.region_tokens, 0]
            for b in start.boards
        ]
        for h, pieces in start.pieces.items():
            for piece in pieces:
                self._put(piece.player, piece.kind, h, 1)
        self.player = start.player
        self.picks = start.draft_picks
        self.date = start.date
        self.phases = start.phases_scored
        self.finished = start.finished
        self.scored: list[dict[str, Any]] = []  # this step's region scorings
        self.control = [self._control_row(i) for i in range(len(self.regions))]
        self.vp = self._vp()
        self.dirty.clear()
        self.scores_dirty = False
        self.rows: list[list[Any]] = [
            [None, None, "setup", [], None if self.finished else self.player, self.date,
             self.phases, self.vp, list(self.control)]
        ]  # fmt: skip

    # --- events ---------------------------------------------------------------------

    def _put(self, who: int | None, kind: str, h: Sequence[int], sign: int) -> None:
        """Add (``sign`` 1) or remove (-1) a piece of ``who`` on hex ``h``."""
        if who is not None and kind in WOLVES:
            self.boards[who][ON_MAP] += sign
        self._count(who, kind, self.slot.get((h[0], h[1])), sign)

    def _move(self, who: int, kind: str, src: Sequence[int], dst: Sequence[int]) -> None:
        """A piece moved from ``src`` to ``dst``: only a change of region shows."""
        before, after = self.slot.get((src[0], src[1])), self.slot.get((dst[0], dst[1]))
        if before != after:
            self._count(who, kind, before, -1)
            self._count(who, kind, after, 1)

    def _count(self, who: int | None, kind: str, i: int | None, sign: int) -> None:
        """Count a piece in or out of the control of region index ``i`` (None: no region)."""
        if i is None:
            return
        held = self.held[i]
        key = self.keys[who]
        cell = held.get(key)
        if cell is None:
            cell = held[key] = [0, 0, 0]
        cell[0] += sign * box.CONTROL[kind]
        cell[1] += sign * (kind == "alpha")
        cell[2] += sign
        if not cell[2]:
            del held[key]
        self.dirty.add(i)

    def _drafted(self, e: dict[str, Any]) -> None:
        self._put(e["player"], "alpha", e["hex"], 1)
        self._put(e["player"], "pack", e["hex"], 1)
        self.picks += 1
        drafting = self.picks < len(self.draft_order)
        self.player = self.draft_order[self.picks] if drafting else 0
        self.scores_dirty = True

    def _moved(self, e: dict[str, Any]) -> None:
        for m in e["moves"]:
            self._move(e["player"], m["kind"], m["src"], m["dst"])

    def _pushed(self, e: dict[str, Any]) -> None:
        self._move(e["player"], e["kind"], e["src"], e["dst"])

    def _den(self, e: dict[str, Any]) -> None:
        self._put(e["player"], "den", e["hex"], 1)
        self.boards[e["player"]][DENS + box.TRACKS.index(e["track"])] += 1
        self.scores_dirty = True

    def _lair(self, e: dict[str, Any]) -> None:
        self._put(e["player"], "den", e["hex"], -1)
        self._put(e["player"], "lair", e["hex"], 1)
        self.boards[e["player"]][LAIRS] += 1
        self.date += 1
        self.scores_dirty = True

    def _howled(self, e: dict[str, Any]) -> None:
        self._put(e["player"], e["wolf"], e["hex"], 1)
        self.boards[e["player"]][PACK] += 1
        self.date += 1
        self.scores_dirty = True

    def _dominated(self, e: dict[str, Any]) -> None:
        self._put(e["victim"], e["piece"], e["hex"], -1)
        self._put(e["player"], e["replacement"], e["hex"], 1)
        board = self.boards[e["player"]]
        if e["track"] is None:
            board[PACK] += 1
        else:
            board[DENS + box.TRACKS.index(e["track"])] += 1
        self.date += 1
        self.scores_dirty = True

    def _hunted(self, e: dict[str, Any]) -> None:
        self.boards[e["player"]][PREY].append(e["prey"])
        self.scores_dirty = True

    def _turn_ended(self, e: dict[str, Any]) -> None:
        self.player = e["next_player"]

    def _region_scored(self, e: dict[str, Any]) -> None:
        i = self.index[e["region"]]
        self.tops[i] = self.tops[i][1:]
        self.dirty.add(i)
        for s in e["standings"]:
            if s["seat"] is not None and s["points"]:
                board = self.boards[s["seat"]]
                board[POINTS] += s["points"]
                board[TOKENS] += int(s["token"])
        self.scored.append(e)
        self.scores_dirty = True

    def _phase_scored(self, e: dict[str, Any]) -> None:
        self.phases += 1

    def _ended(self, e: dict[str, Any]) -> None:
        self.finished = True

    # --- what the timeline shows --------------------------------------------------------

    def _control_row(self, i: int) -> list[Any]:
        """``[i, top token, control per contender, leader (W-8 ranking), margin]``."""
        control = {}
        leader, c1, a1, c2, a2 = None, 0, 0, 0, 0  # the best two (control, alphas)
        for key, cell in self.held[i].items():
            c = control[key] = cell[0]
            a = cell[1]
            if c > c1 or (c == c1 and a > a1):
                leader, c1, a1, c2, a2 = key, c, a, c1, a1
            elif c > c2 or (c == c2 and a > a2):
                c2, a2 = c, a
        top = self.tops[i][0] if self.tops[i] else None
        clear = c1 > c2 or (c1 == c2 and a1 > a2)
        return [i, top, control, leader if clear else None, c1 - c2]

    def _vp(self) -> list[list[int]]:
        """Every seat's score as a ``SCORE_FIELDS`` list, placed by the W-9 tie-breaks."""
        rows = []
        for seat, board in enumerate(self.boards):
            dens0, dens1, dens2, lairs, wolves, hunted, points, tokens, on_map = board
            vp = area_vp((dens0, dens1, dens2), lairs, len(hunted), wolves, self.two)
            rows.append([seat, points + sum(vp), points, *vp, tokens, on_map, 0])
        for row, place in zip(rows, places([(r[1], r[9], r[10]) for r in rows]), strict=True):
            row[11] = place
        return rows

    def step(self, events: Sequence[Stored]) -> None:
        """Take in the events of the next action and add its row."""
        for e in events:
            if (apply := _APPLY.get(e["type"])) is not None:
                apply(self, e["data"])
        scores = []
        if self.scores_dirty:
            self.scores_dirty = False
            vp = self._vp()
            scores = [new for new, old in zip(vp, self.vp, strict=True) if new != old]
            self.vp = vp
        control = []
        if self.dirty:
            for i in self.dirty:
                row = self._control_row(i)
                if row != self.control[i]:
                    self.control[i] = row
                    control.append(row)
            self.dirty.clear()
        scored, self.scored = self.scored, []
        first = next((e for e in events if e["type"] in ACTION_TYPES), {"type": "", "data": {}})
        self.rows.append([
            first["data"].get("player"), ACTION_TYPES.get(first["type"]),
            stored_label(self.names, events), scored, None if self.finished else self.player,
            self.date, self.phases, scores, control,
        ])  # fmt: skip

    def doc(self) -> dict[str, Any]:
        """The compact document of the timeline so far (JSON-able; see :func:`expand`)."""
        return {"regions": self.regions, "phase_dates": self.phase_dates, "rows": self.rows}


_APPLY = {
    "WolvesDrafted": Fold._drafted, "WolvesMoved": Fold._moved, "WolfPushed": Fold._pushed,
    "DenBuilt": Fold._den, "LairBuilt": Fold._lair, "LoneWolfHowled": Fold._howled,
    "PieceDominated": Fold._dominated, "PreyHunted": Fold._hunted,
    "TurnEnded": Fold._turn_ended, "RegionScored": Fold._region_scored,
    "PhaseScored": Fold._phase_scored, "GameEnded": Fold._ended,
}  # fmt: skip
"""How each stored event type changes a :class:`Fold` (the others change nothing shown)."""


def expand(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The timeline rows of a stored document: one dict per step."""
    regions = doc["regions"]
    phases = [
        {"phase": phase, "date": date}
        for phase, date in zip(box.PHASES, doc["phase_dates"], strict=True)
    ]
    out = []
    vp: list[dict[str, Any]] = [{}] * len(doc["rows"][0][7])
    control: list[dict[str, Any]] = [{}] * len(regions)
    for step, (player, kind, text, scoring, turn, date, phase, scores, changed) in enumerate(
        doc["rows"]
    ):
        if scores:
            vp = list(vp)
            for score in scores:
                vp[score[0]] = dict(zip(SCORE_FIELDS, score, strict=True))
        if changed:
            control = list(control)
            for i, top, held, leader, margin in changed:
                control[i] = {"region": regions[i], "top": top, "control": held,
                              "leader": leader, "margin": margin}  # fmt: skip
        out.append({
            "step": step, "player": player, "type": kind, "label": text, "scoring": scoring,
            "turn": turn, "moonlight": date,
            "next_phase": phases[phase] if phase < len(phases) else None,
            "vp": vp, "control": control, "finished": turn is None,
        })  # fmt: skip
    return out


def timeline(initial: State, steps: Sequence[Sequence[ev.Event]]) -> list[dict[str, Any]]:
    """One row per step (0 … len(steps)): who acted, a label, and the position after it."""
    fold = Fold(initial)
    for events in steps:
        fold.step([codec.stored(e) for e in events])
    return expand(fold.doc())
