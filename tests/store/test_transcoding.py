"""The store's orjson reader gives back what eventsourcing's own JSON transcoder does."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder

from domain.store import GameLibrary
from domain.store.transcoding import FastJSONTranscoder
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
