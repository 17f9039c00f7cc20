"""The per-step timeline of one game: VP and its breakdown, region control, Moonlight, labels.

Step 0 is the position before the first action; step *n* the position after action *n*.
Every value is what folding the engine over the events gives at that step. Rows of
regions and scores that an action left unchanged are shared with the previous step (treat
the rows as read-only).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.describe import label
from domain.wolves.evolve import apply
from domain.wolves.scoring import board_vp, control, final_scores
from domain.wolves.state import Piece, State

AUTOMATON = "automaton"
SCORE_FIELDS = tuple(f.name for f in dataclasses.fields(ev.FinalScore))
WOLVES = frozenset(("alpha", "pack"))


def _key(who: int | None) -> str:
    return AUTOMATON if who is None else str(who)


def _control_row(state: State, region: int) -> dict[str, Any]:
    """A region's top token, control per contender, the leader (W-8 ranking) and margin."""
    held = control(state, region)
    ranked = sorted(held.items(), key=lambda kv: kv[1], reverse=True)
    first = ranked[0] if ranked else None
    second = ranked[1] if len(ranked) > 1 else None
    clear = first is not None and (second is None or first[1] > second[1])
    return {
        "region": region,
        "top": (state.scoring.get(region) or (None,))[0],
        "control": {_key(who): c for who, (c, _) in held.items()},
        "leader": _key(first[0]) if clear and first else None,
        "margin": (first[1][0] - (second[1][0] if second else 0)) if first else 0,
    }


def _control_rows(state: State) -> list[dict[str, Any]]:
    """Every region's control row, in map order."""
    return [_control_row(state, region) for region in state.table.map.regions]


def _next_phase(state: State) -> dict[str, Any] | None:
    if state.phases_scored >= len(box.PHASES):
        return None
    i = state.phases_scored
    return {"phase": box.PHASES[i], "date": state.table.phase_dates[i]}


def _vp(state: State) -> list[dict[str, Any]]:
    return [{name: getattr(s, name) for name in SCORE_FIELDS} for s in final_scores(state)]


def snapshot(state: State) -> dict[str, Any]:
    """What the timeline shows of one position."""
    return {
        "turn": None if state.finished else state.player,
        "moonlight": state.date,
        "next_phase": _next_phase(state),
        "vp": _vp(state),
        "control": _control_rows(state),
        "finished": state.finished,
    }


def _scoring(events: Sequence[ev.Event]) -> list[dict[str, Any]]:
    return [dataclasses.asdict(e) for e in events if isinstance(e, ev.RegionScored)]


class _Touched(dict):  # type: ignore[type-arg]
    """A dict that notes, for each key set or deleted since :meth:`clear_notes`, its old value.

    Any other kind of change (``update``, ``pop`` …) marks everything as changed.
    """

    def __init__(self, items: dict[Any, Any]) -> None:
        super().__init__(items)
        self.old: dict[Any, Any] = {}
        self.everything = False

    def __setitem__(self, key: Any, value: Any) -> None:
        if key not in self.old:
            self.old[key] = self.get(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        if key not in self.old:
            self.old[key] = self.get(key)
        super().__delitem__(key)

    def _any(name: str) -> Any:  # type: ignore[misc]
        def changed(self: _Touched, *args: Any, **kwargs: Any) -> Any:
            self.everything = True
            return getattr(dict, name)(self, *args, **kwargs)

        return changed

    pop, popitem, setdefault, update, clear = map(
        _any, ("pop", "popitem", "setdefault", "update", "clear")
    )

    def clear_notes(self) -> None:
        """Forget the changes noted so far."""
        self.old = {}
        self.everything = False


def _wolves(pieces: Sequence[Piece] | None, sign: int, into: list[int]) -> None:
    for piece in pieces or ():
        if piece.kind in WOLVES and piece.player is not None:
            into[piece.player] += sign


class _Snapshots:
    """Snapshots of successive positions of one game, recomputing only what changed.

    The state's pieces and scoring stacks note which hexes and regions each step
    touched, so only those regions get a new control row, and scores are recomputed
    only when what they are made of (board VP, region points and tokens, wolves on the
    map) changed.
    """

    def __init__(self, state: State) -> None:
        self.region_of = state.table.map.region_of
        state.pieces = self.pieces = _Touched(state.pieces)
        state.scoring = self.scoring = _Touched(state.scoring)
        self.rows = _control_rows(state)
        self.index = {row["region"]: i for i, row in enumerate(self.rows)}
        self.wolves = [0] * len(state.boards)
        for pieces in state.pieces.values():
            _wolves(pieces, 1, self.wolves)
        self.boards = state.boards
        self.vp_key = self._vp_key(state)
        self.vp = _vp(state)

    def _vp_key(self, state: State) -> tuple[Any, ...]:
        """What the final scores are made of: board VP, region points and tokens, wolves."""
        two = state.table.two_player
        boards = tuple(
            (*board_vp(b, two).values(), b.region_points, b.region_tokens) for b in state.boards
        )
        return boards, tuple(self.wolves)

    def take(self, state: State) -> dict[str, Any]:
        """The snapshot of ``state``, the position after the previous one's."""
        pieces, scoring = self.pieces, self.scoring
        touched = bool(pieces.old)
        if state.pieces is not pieces or state.scoring is not scoring:
            raise RuntimeError("the state's pieces or scoring were replaced")
        if pieces.everything or scoring.everything:
            self.__init__(state)  # type: ignore[misc]
        elif pieces.old or scoring.old:
            dirty = {self.region_of.get(h, -1) for h in pieces.old} | scoring.old.keys()
            self.rows = list(self.rows)
            for region in dirty & self.index.keys():
                i = self.index[region]
                row = _control_row(state, region)
                if row != self.rows[i]:
                    self.rows[i] = row
            for h, old in pieces.old.items():
                _wolves(old, -1, self.wolves)
                _wolves(pieces.get(h), 1, self.wolves)
        pieces.clear_notes()
        scoring.clear_notes()
        if state.boards is not self.boards or touched:
            self.boards = state.boards
            key = self._vp_key(state)
            if key != self.vp_key:
                self.vp_key = key
                vp = _vp(state)
                if vp != self.vp:
                    self.vp = vp
        return {
            "turn": None if state.finished else state.player,
            "moonlight": state.date,
            "next_phase": _next_phase(state),
            "vp": self.vp,
            "control": self.rows,
            "finished": state.finished,
        }


def timeline(initial: State, steps: Sequence[Sequence[ev.Event]]) -> list[dict[str, Any]]:
    """One row per step (0 … len(steps)): who acted, a label, and the snapshot after it."""
    return fold_timeline(initial, steps)[0]


def fold_timeline(
    initial: State, steps: Sequence[Sequence[ev.Event]]
) -> tuple[list[dict[str, Any]], State]:
    """The :func:`timeline` and the position after the last step."""
    names = [p.name for p in initial.table.players]
    state = initial.copy()
    snapshots = _Snapshots(state)
    rows = [{"step": 0, "player": None, "type": None, "label": "setup", "scoring": []}]
    rows[0].update(snapshots.take(state))
    for n, events in enumerate(steps, start=1):
        for event in events:
            apply(state, event)
        first = events[0] if events else None
        rows.append({
            "step": n,
            "player": getattr(first, "player", None),
            "type": ev.ACTION_TYPES.get(type(first)) if first else None,
            "label": label(names, events),
            "scoring": _scoring(events),
            **snapshots.take(state),
        })  # fmt: skip
    return rows, state


def compact(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The timeline with each step's ``vp`` and ``control`` rows kept only where they changed.

    A row's ``vp`` is left out when it is the previous step's, and ``control`` becomes
    ``changed``: ``[region index, row]`` pairs of the rows that changed. :func:`expand`
    restores the timeline.
    """
    out = []
    vp: Any = None
    control: Sequence[Any] = ()
    for row in rows:
        short = {k: v for k, v in row.items() if k not in ("vp", "control")}
        if row["vp"] is not vp:
            vp = short["vp"] = row["vp"]
        changed = [
            [i, region]
            for i, region in enumerate(row["control"])
            if i >= len(control) or region is not control[i]
        ]
        if changed:
            short["changed"] = changed
        control = row["control"]
        out.append(short)
    return out


def expand(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The timeline :func:`compact` made these rows from."""
    out = []
    vp: Any = None
    control: list[Any] = []
    for short in rows:
        vp = short.get("vp", vp)
        if "changed" in short:
            control = list(control)
            for i, region in short["changed"]:
                if i == len(control):
                    control.append(region)
                else:
                    control[i] = region
        row = {k: v for k, v in short.items() if k not in ("vp", "changed", "finished")}
        row.update(vp=vp, control=control, finished=short["finished"])
        out.append(row)
    return out
