"""Moonlight's events ↔ the JSON the event store keeps: a type name (the class name) and
the event's fields, cells as ``[x, y]`` lists.

>>> from domain.moonlight.events import CardCovered
>>> encode(CardCovered(1, 4, (1, 0), 3))
('CardCovered', {'player': 1, 'card': 4, 'cell': [1, 0], 'covered': 3})
>>> decode(*encode(CardCovered(1, 4, (1, 0), 3)))
CardCovered(player=1, card=4, cell=(1, 0), covered=3)
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

from domain.moonlight import events as ev
from domain.moonlight.cells import Cell

EVENT_TYPES: Mapping[str, type[ev.Event]] = {cls.__name__: cls for cls in typing.get_args(ev.Event)}
"""Every event class by its stored type name."""
FIELDS: Mapping[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in EVENT_TYPES.values()
}


def encode(event: ev.Event) -> tuple[str, dict[str, Any]]:
    """An event as the store keeps it: its type name and its JSON fields."""
    if isinstance(event, ev.RoundScored):
        return "RoundScored", {
            "round": event.round,
            "seats": [dataclasses.asdict(points) for points in event.seats],
            "rows": [{"y": r.y, "sums": list(r.sums), "winner": r.winner} for r in event.rows],
            "ignored": [list(c) for c in event.ignored],
            "tripled": [list(c) for c in event.tripled],
        }
    data = {name: getattr(event, name) for name in FIELDS[type(event)]}
    if "cell" in data:
        data["cell"] = list(data["cell"])
    return type(event).__name__, data


def decode(kind: str, data: Mapping[str, Any]) -> ev.Event:
    """The event the store keeps as type ``kind`` with fields ``data``; ValueError when
    it is no Moonlight event."""
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        raise ValueError(f"unknown Moonlight event type {kind!r}")
    if set(data) != set(FIELDS[cls]):
        raise ValueError(f"{kind} has the fields {', '.join(FIELDS[cls])}, not {sorted(data)}")
    if cls is ev.RoundScored:
        seats = [ev.RoundPoints(**points) for points in data["seats"]]
        return ev.RoundScored(
            data["round"],
            (seats[0], seats[1]),
            tuple(
                ev.RowResult(r["y"], (r["sums"][0], r["sums"][1]), r["winner"])
                for r in data["rows"]
            ),
            tuple(_cell(c) for c in data["ignored"]),
            tuple(_cell(c) for c in data["tripled"]),
        )
    fields = dict(data)
    if "cell" in fields:
        fields["cell"] = _cell(fields["cell"])
    return cls(**fields)


def _cell(value: Any) -> Cell:
    return (value[0], value[1])
