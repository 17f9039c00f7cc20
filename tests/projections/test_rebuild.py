"""A rebuild fills tables beside the live ones and swaps them in: readers never fail, never
see an empty or half-built list, and runners writing meanwhile lose nothing."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from projections import tables
from tests.projections.conftest import Store, fixture_names, fixture_record, upload

READERS = 4
FIRST = [n for n in fixture_names() if not n.startswith("5p")]
DURING = [n for n in fixture_names() if n.startswith("5p")][:3]


def test_readers_are_served_throughout_a_rebuild(store: Store) -> None:
    with store.library() as library, store.models(batch_size=40) as models:
        upload(library, FIRST)
        models.catch_up(library)
        before = models.list_games(limit=1).items[0]["game_id"]
        stop = threading.Event()
        errors: list[BaseException] = []
        totals: list[int] = []
        stalls: list[float] = []

        def read() -> None:
            with store.models() as reader:  # connections of its own, as another process has
                last = time.perf_counter()
                while not stop.is_set():
                    try:
                        page = reader.list_games(limit=5, sort="top_vp")
                        reader.stats()
                        assert reader.summary(page.items[0]["game_id"]) is not None
                        assert reader.timeline(page.items[-1]["game_id"])
                        totals.append(page.total)
                    except BaseException as exc:  # noqa: BLE001 - every failure counts
                        errors.append(exc)
                        return
                    now = time.perf_counter()
                    stalls.append(now - last)
                    last = now

        def write() -> None:  # a server storing games and catching up during the rebuild
            with store.library() as writer, store.models() as live:
                for name in DURING:
                    writer.upload(fixture_record(name))
                    live.catch_up(writer)

        threads = [threading.Thread(target=read) for _ in range(READERS)]
        for t in threads:
            t.start()
        while len(totals) < READERS:
            time.sleep(0.01)
        writer = threading.Thread(target=write)
        writer.start()
        for _ in range(2):  # twice: the swapped tables' indexes must not clash with new ones
            assert models.rebuild(library) > 0
        writer.join()
        time.sleep(0.2)
        stop.set()
        for t in threads:
            t.join()
        assert not errors, errors[:3]
        assert min(totals) >= len(FIRST)
        models.catch_up(library)
        assert models.list_games().total == len(FIRST) + len(DURING)
        assert models.position() == library.recorder.max_notification_id()
        assert models.summary(before) is not None
        with models.db.reading() as conn:
            names = _tables(models, conn)
        assert not [n for n in names if n.endswith("_new")], names
        assert max(stalls) < 10


def _tables(models: Any, conn: Any) -> list[str]:
    if models.db.postgres:
        query = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    else:
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return [row[0] for row in models.db.execute(conn, query).fetchall()]


def test_a_rebuild_left_half_done_is_started_afresh(store: Store) -> None:
    with store.library() as library, store.models(batch_size=20) as models:
        upload(library, FIRST[:4])
        models.catch_up(library)
        tables.prepare(models.db, tables.BESIDE)  # a rebuild killed after some batches
        models.rebuilder.catch_up(library)
        assert models.list_games().total == 4
        upload(library, FIRST[4:6])
        assert models.rebuild(library) == library.recorder.max_notification_id()
        assert models.list_games().total == 6


def test_readers_do_not_fail_when_a_new_layout_replaces_the_tables(store: Store) -> None:
    with store.library() as library, store.models() as models:
        upload(library, FIRST[:3])
        models.catch_up(library)
        errors: list[BaseException] = []
        stop = threading.Event()

        def read() -> None:
            with store.models() as reader:
                reader.list_games()  # its tables are checked once, before the change
                while not stop.is_set():
                    try:
                        for game in reader.list_games().items:
                            reader.summary(game["game_id"])
                        reader.stats()
                    except BaseException as exc:  # noqa: BLE001 - every failure counts
                        errors.append(exc)
                        return

        threads = [threading.Thread(target=read) for _ in range(READERS)]
        for t in threads:
            t.start()
        for _ in range(3):
            with models.db.connect() as conn:
                models.db.execute(conn, f"UPDATE {tables.TRACKING} SET version = 0")
            with store.models() as fresh:  # a newer Howl's first use
                assert fresh.catch_up(library) == library.recorder.max_notification_id()
        stop.set()
        for t in threads:
            t.join()
        assert not errors, errors[:3]
        assert models.list_games().total == 3


def test_a_rebuild_whose_tables_were_swapped_in_by_another_stops(store: Store) -> None:
    with store.library() as library, store.models() as models, store.models() as other:
        upload(library, FIRST[:2])
        tables.prepare(models.db, tables.BESIDE)
        other.rebuild(library)  # takes the tables the first rebuild was filling
        with pytest.raises(tables.TrackingGone, match="rm_tracking|readmodels_new"):
            models.rebuilder.catch_up(library)
        assert models.list_games().total == 2
