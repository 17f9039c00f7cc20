"""The per-step timeline of one game: VP and its breakdown, region control, Moonlight, labels.

Step 0 is the position before the first action; step *n* the position after action *n*.
Every value is what folding the engine over the events gives at that step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from domain.wolves import components as box
from domain.wolves import events as ev
from domain.wolves.describe import label
from domain.wolves.evolve import apply
from domain.wolves.scoring import control, final_scores
from domain.wolves.state import State

AUTOMATON = "automaton"


def _key(who: int | None) -> str:
    return AUTOMATON if who is None else str(who)


def _control_rows(state: State) -> list[dict[str, Any]]:
    """Per region: top token, control per contender, the leader (W-8 ranking) and margin."""
    rows = []
    for region in state.table.map.regions:
        held = control(state, region)
        ranked = sorted(held.items(), key=lambda kv: kv[1], reverse=True)
        first = ranked[0] if ranked else None
        second = ranked[1] if len(ranked) > 1 else None
        clear = first is not None and (second is None or first[1] > second[1])
        rows.append({
            "region": region,
            "top": (state.scoring.get(region) or (None,))[0],
            "control": {_key(who): c for who, (c, _) in held.items()},
            "leader": _key(first[0]) if clear and first else None,
            "margin": (first[1][0] - (second[1][0] if second else 0)) if first else 0,
        })  # fmt: skip
    return rows


def _next_phase(state: State) -> dict[str, Any] | None:
    if state.phases_scored >= len(box.PHASES):
        return None
    i = state.phases_scored
    return {"phase": box.PHASES[i], "date": state.table.phase_dates[i]}


def snapshot(state: State) -> dict[str, Any]:
    """What the timeline shows of one position."""
    return {
        "turn": None if state.finished else state.player,
        "moonlight": state.date,
        "next_phase": _next_phase(state),
        "vp": [dataclasses.asdict(s) for s in final_scores(state)],
        "control": _control_rows(state),
        "finished": state.finished,
    }


def _scoring(events: Sequence[ev.Event]) -> list[dict[str, Any]]:
    return [dataclasses.asdict(e) for e in events if isinstance(e, ev.RegionScored)]


def timeline(initial: State, steps: Sequence[Sequence[ev.Event]]) -> list[dict[str, Any]]:
    """One row per step (0 … len(steps)): who acted, a label, and the snapshot after it."""
    names = [p.name for p in initial.table.players]
    state = initial.copy()
    rows = [{"step": 0, "player": None, "type": None, "label": "setup", "scoring": []}]
    rows[0].update(snapshot(state))
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
            **snapshot(state),
        })  # fmt: skip
    return rows
