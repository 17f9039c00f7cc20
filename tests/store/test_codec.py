"""Domain events survive the trip to JSON and back, whatever their type."""

from __future__ import annotations

import dataclasses
import json

import pytest

from domain.wolves import codec
from domain.wolves import events as ev
from domain.wolves.players import seats, self_play
from domain.wolves.setup import generate_setup


@pytest.mark.parametrize("players", [2, 3, 5])
def test_events_round_trip_through_json(players: int) -> None:
    game = self_play(seats(players, 7), generate_setup(players, 7), "random", seed=7)
    docs = [json.loads(json.dumps(codec.event_to_json(e))) for e in game.events]

    assert [codec.event_from_json(doc) for doc in docs] == list(game.events)
    assert {doc["type"] for doc in docs} <= set(codec.EVENT_TYPES)


def test_every_event_type_is_known() -> None:
    values = {ev.Paid, ev.Moved, ev.Standing, ev.FinalScore}  # parts of events, not events
    defined = {
        cls for cls in vars(ev).values()
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == ev.__name__
    }  # fmt: skip
    assert set(codec.EVENT_TYPES.values()) == defined - values
    assert all(codec.EVENT_TYPES[cls.__name__] is cls for cls in defined - values)


@pytest.mark.parametrize(
    "doc", [{"type": "Nope"}, {"player": 0}, {"type": "Passed", "player": 0, "extra": 1}]
)
def test_unknown_types_and_fields_are_refused(doc: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        codec.event_from_json(doc)
