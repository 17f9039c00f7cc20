"""The store's lean log reader gives the rows eventsourcing's own reader gives."""

from __future__ import annotations

from domain.store import GameLibrary
from domain.store.log import pager
from tests.store.conftest import record_bytes


def test_pages_are_the_notifications_of_the_log(library: GameLibrary) -> None:
    for players, seed in ((2, 1), (3, 2)):
        library.upload(record_bytes(players, seed))
    game = library.upload(record_bytes(4, 3)).game_id
    library.retitle(game, "Last night")
    stored = library.recorder.select_notifications(start=None, limit=100_000)
    fetch = pager(library.recorder)

    rows = fetch(1, 100_000)
    start, paged = stored[5].id, []
    while page := fetch(start, 7):  # pages of 7, from a row in the middle
        assert len(page) <= 7
        paged += page
        start = page[-1].id + 1

    assert len(stored) > 100
    assert [r.notification() for r in rows] == stored
    assert [tuple(r) for r in rows] == [
        (n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in stored
    ]
    assert paged == rows[5:]
    assert fetch(stored[-1].id + 1, 10) == []
