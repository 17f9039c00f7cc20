"""The runner: catching up in steps gives what a rebuild gives, each event counted once."""

from __future__ import annotations

import threading
import time

import pytest

from projections import tables
from tests.projections.conftest import Store, everything, fixture_names, upload

CORPUS = [n for n in fixture_names() if n.endswith(("-00-heuristic", "-06-random", "-08-big-map",
                                                   "-09-auto-push-stall-10"))]  # fmt: skip


def test_incremental_projection_equals_a_rebuild(store: Store) -> None:
    first, second = CORPUS[: len(CORPUS) // 2], CORPUS[len(CORPUS) // 2 :]
    with store.library() as library, store.models(batch_size=300) as models:
        ids = upload(library, first)
        assert models.catch_up(library) == library.recorder.max_notification_id()
        library.retitle(ids[first[0]], "Opening night")
        library.retag(ids[first[1]], ["club", "final"])
        more = upload(library, second)
        library.set_visibility(more[second[0]], "private")
        library.retitle(more[second[-1]], "Last one")
        assert models.catch_up(library) > 0
        assert models.catch_up(library) == 0
        incremental = everything(models)
        assert models.rebuild(library) == library.recorder.max_notification_id()
        assert everything(models) == incremental
    games = {g["game_id"]: g for g in incremental["games"]}
    assert len(games) == len(CORPUS)
    assert games[str(ids[first[0]])]["title"] == "Opening night"
    assert games[str(ids[first[1]])]["tags"] == ["club", "final"]
    assert games[str(more[second[0]])]["visibility"] == "private"
    assert games[str(more[second[-1]])]["title"] == "Last one"


def test_metadata_in_the_same_batch_as_the_upload(store: Store) -> None:
    with store.library() as library, store.models() as models:
        ids = upload(library, ["2p-00-heuristic"])
        library.retitle(ids["2p-00-heuristic"], "Renamed")
        library.set_visibility(ids["2p-00-heuristic"], "private")
        models.catch_up(library)
        summary = models.summary(ids["2p-00-heuristic"])
        assert summary is not None
        assert (summary["title"], summary["visibility"]) == ("Renamed", "private")
        assert models.list_games().total == 0
        assert models.list_games(include_private=True).total == 1


def test_concurrent_runners_count_each_event_once(store: Store) -> None:
    with store.library() as library:
        upload(library, CORPUS[:6])
        last = library.recorder.max_notification_id()
        runners = [store.models(batch_size=200) for _ in range(3)]
        done: list[int] = []
        threads = [
            threading.Thread(target=lambda m=m: done.append(m.catch_up(library))) for m in runners
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        models = runners[0]
        assert sum(done) == last
        assert models.position() == last
        assert models.stats()["games"] == 6
        with models.db.reading() as conn:
            seats = models.db.execute(conn, f"SELECT COUNT(*) FROM {tables.SEATS}").fetchone()[0]
        assert seats == sum(g["players"] for g in models.list_games().items)
        for m in runners:
            m.close()


def test_a_new_layout_version_rebuilds_on_first_use(store: Store) -> None:
    with store.library() as library, store.models() as models:
        upload(library, CORPUS[:2])
        models.catch_up(library)
        with models.db.connect() as conn:
            models.db.execute(conn, f"UPDATE {tables.TRACKING} SET version = 0")
    with store.library() as library, store.models() as fresh:
        assert fresh.list_games().total == 0  # old tables dropped
        assert fresh.catch_up(library) == library.recorder.max_notification_id()
        assert fresh.list_games().total == 2


def test_folding_in_worker_processes_gives_the_same_read_models(store: Store) -> None:
    with store.library() as library, store.models() as models:
        upload(library, CORPUS[:5])
        models.catch_up(library)
        alone = everything(models)
    with store.library() as library, store.models(workers=2, batch_size=10_000) as models:
        models.rebuild(library)
        assert everything(models) == alone


def test_tables_grown_past_their_planner_statistics_have_them_taken_anew(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "GROWN_ROWS", 0)
    with store.library() as library, store.models() as models:
        upload(library, CORPUS[:4])
        models.catch_up(library)
        if not models.db.postgres:
            assert tables.restat(models.db) == []
            return
        tuples = "SELECT reltuples FROM pg_class WHERE oid = ?::regclass"
        deadline = time.monotonic() + 30  # PostgreSQL counts a connection's writes lazily
        while models.db.fetchall(tuples, (tables.GAMES,)) != [(4,)]:
            assert time.monotonic() < deadline, "the games' table was never analysed"
            time.sleep(0.2)
            tables.restat(models.db)
        assert models.db.fetchall(tuples, (tables.SEATS,)) != [(-1,)]
        assert tables.restat(models.db) == []
