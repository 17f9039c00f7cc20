"""The store's orjson reader gives back what eventsourcing's own JSON transcoder does."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder

from domain.store import GameLibrary
from domain.store.game import Game
from domain.store.transcoding import FastJSONTranscoder, store_mapper
from domain.store.uploads import encode, prepare_record
from tests.store.conftest import record_bytes


def _pair(library: GameLibrary) -> tuple[JSONTranscoder, JSONTranscoder]:
    plain = JSONTranscoder()
    library.register_transcodings(plain)
    assert isinstance(library.mapper.transcoder, FastJSONTranscoder)
    return library.mapper.transcoder, plain


def test_every_stored_event_reads_as_with_the_json_module(library: GameLibrary) -> None:
    for players, seed in ((2, 1), (5, 2)):
        library.upload(record_bytes(players, seed))
    moonlight = Path(__file__).parents[1] / "fixtures" / "moonlight" / "00-greedy.json"
    game = library.upload(moonlight.read_bytes()).game_id
    library.retitle(game, 'Über \u2603 "quoted" \\ title')
    fast, plain = _pair(library)
    stored = library.recorder.select_notifications(start=None, limit=100_000)

    assert len(stored) > 100
    assert [fast.decode(n.state) for n in stored] == [plain.decode(n.state) for n in stored]


def test_custom_types_decode_inside_out(library: GameLibrary) -> None:
    fast, plain = _pair(library)
    value = {
        "at": datetime(2026, 12, 4, 3, 4, 5, tzinfo=UTC),
        "ids": [UUID(int=7), {"nested": [Decimal("1.5"), UUID(int=8)]}],
        "_type_": "not a custom type: three keys",
        "empty": {},
    }
    data = plain.encode(value)

    assert fast.decode(data) == plain.decode(data) == value
    assert fast.encode(value) == data


def test_text_orjson_refuses_is_read_by_the_json_module(library: GameLibrary) -> None:
    fast, plain = _pair(library)

    assert math.isnan(fast.decode(b'{"x": NaN}')["x"])  # only the json module reads NaN
    assert fast.decode(b'{"a": 1}') == plain.decode(b'{"a": 1}')


def test_an_uploads_events_are_stored_as_the_mapper_stores_them() -> None:
    """``encode`` writes ``Happened`` states itself: byte for byte the mapper's, for every
    fixture game of each game, and the same snapshot as the aggregate with every event."""
    fixtures = Path(__file__).parents[1] / "fixtures"
    mapper = store_mapper()
    for path in [*sorted((fixtures / "the-wolves").glob("*.json")),
                 *sorted((fixtures / "moonlight").glob("*.json"))]:  # fmt: skip
        if ".expected" in path.name:
            continue
        game = prepare_record(path.read_bytes())
        encoded = encode(game)
        stream = [mapper.to_domain_event(e) for e in encoded.events]
        assert [mapper.to_stored_event(e) for e in stream] == list(encoded.events), path.name
        whole = game.aggregate()
        expected = [mapper.to_domain_event(mapper.to_stored_event(e))
                    for e in whole.collect_events()]  # fmt: skip
        assert [_fields(e) for e in stream] == [_fields(e) for e in expected], path.name
        snapshot = vars(mapper.to_domain_event(encoded.snapshot))
        again = vars(mapper.to_domain_event(mapper.to_stored_event(Game.Snapshot.take(whole))))
        assert _fields(snapshot) == _fields(again), path.name


def _fields(event: Any) -> dict[str, Any]:
    """An event's or a snapshot's fields but its times (and ``id``, the game's id)."""
    state = event if isinstance(event, dict) else vars(event)
    times = ("timestamp", "_created_on", "_modified_on", "state")
    kept = {k: v for k, v in state.items() if k not in times}
    if "state" in state:
        kept["state"] = {k: v for k, v in state["state"].items() if k not in times}
    return kept


def test_data_orjson_writes_otherwise_goes_through_the_mapper() -> None:
    game = prepare_record(record_bytes(2, 3))
    odd = [(step, kind, {**data, "ratio": 1e-7}) for step, kind, data in game.events]
    encoded = encode(replace(game, events=tuple(odd)))
    mapper = store_mapper()
    assert all(mapper.to_stored_event(mapper.to_domain_event(e)) == e for e in encoded.events)
    assert b'"ratio":1e-07' in encoded.events[1].state  # as json writes it (orjson: 1e-7)
