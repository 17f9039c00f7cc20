"""Domain events survive the trip to JSON and back, whatever their type."""

from __future__ import annotations

import json

import pytest

from domain.wolves import codec
from domain.wolves.players import seats, self_play
from domain.wolves.setup import generate_setup


@pytest.mark.parametrize("players", [2, 3, 5])
def test_events_round_trip_through_json(players: int) -> None:
    game = self_play(seats(players, 7), generate_setup(players, 7), "random", seed=7)
    docs = [json.loads(json.dumps(codec.event_to_json(e))) for e in game.events]

    assert [codec.event_from_json(doc) for doc in docs] == list(game.events)
    assert {doc["type"] for doc in docs} <= set(codec.EVENT_TYPES)


def test_every_event_type_is_known() -> None:
    assert len(codec.EVENT_TYPES) == 15
    assert codec.EVENT_TYPES["GameEnded"].__name__ == "GameEnded"


@pytest.mark.parametrize(
    "doc", [{"type": "Nope"}, {"player": 0}, {"type": "Passed", "player": 0, "extra": 1}]
)
def test_unknown_types_and_fields_are_refused(doc: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        codec.event_from_json(doc)
