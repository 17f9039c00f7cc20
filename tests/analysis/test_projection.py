"""The ``analyses`` table and its background worker, on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from domain.store import GameLibrary
from domain.wolves.records import write_record
from projections.analysis import IDS_PER_QUERY, Analyses
from projections.analysis_worker import (
    analysis_status,
    enqueue,
    run_one,
    start_worker,
    wait_for,
)
from tests.analysis.conftest import QUICK, fixture_record


def short_game(actions: int) -> bytes:
    """A fixture game cut after its first ``actions`` actions (a game still running)."""
    record = fixture_record("2p-00-heuristic")
    return write_record(dataclasses.replace(record, actions=record.actions[:actions]))


def test_a_review_goes_from_queued_to_running_to_done(store_url):
    game = str(uuid.uuid4())
    table = Analyses(store_url)
    assert analysis_status(store_url, game, QUICK) == {
        "status": "none", "progress": 0.0, "result": None, "error": None,
        "settings_key": QUICK.key,
    }  # fmt: skip
    assert enqueue(store_url, game, QUICK)["status"] == "queued"
    assert enqueue(store_url, game, QUICK)["status"] == "queued"  # asked twice: one row
    claimed = [table.claim(), table.claim()]
    assert claimed.count(None) >= 1 and (game, QUICK, 1) in claimed
    assert analysis_status(store_url, game, QUICK)["status"] == "running"
    table.progress(game, QUICK.key, 0.5)
    assert analysis_status(store_url, game, QUICK)["progress"] == 0.5
    table.finish(game, QUICK.key, {"steps": []})
    done = analysis_status(store_url, game, QUICK)
    assert (done["status"], done["progress"], done["result"]) == ("done", 1.0, {"steps": []})
    assert enqueue(store_url, game, QUICK)["status"] == "done"  # kept, not redone
    assert analysis_status(store_url, game)["status"] == "none"  # other settings: other key
    assert enqueue(store_url, game, QUICK, force=True)["status"] == "queued"
    assert table.claim() == (game, QUICK, 2)
    table.fail(game, QUICK.key, "RuntimeError: boom")
    failed = analysis_status(store_url, game, QUICK)
    assert (failed["status"], failed["error"]) == ("failed", "RuntimeError: boom")


def test_the_worker_reviews_a_stored_game(store_url):
    with GameLibrary.open(store_url) as library:
        game = library.upload(short_game(14)).game_id
        enqueue(store_url, game, QUICK)
        seen = []
        analyses = Analyses(store_url)
        real_progress = analyses.progress
        analyses.progress = lambda *args: (seen.append(args[2]), real_progress(*args))[1]
        assert run_one(analyses, library, workers=1) == str(game)
        assert run_one(analyses, library, workers=1) is None
    status = analysis_status(store_url, game, QUICK)
    assert status["status"] == "done" and status["progress"] == 1.0
    assert [s["step"] for s in status["result"]["steps"]] == list(range(1, 15))
    assert seen and seen == sorted(seen) and all(0 < p < 1 for p in seen)


def test_a_review_of_an_unknown_game_fails_with_its_reason(sqlite_url):
    with GameLibrary.open(sqlite_url) as library:
        missing = uuid.uuid4()
        enqueue(sqlite_url, missing, QUICK)
        run_one(Analyses(sqlite_url), library, workers=1)
    status = analysis_status(sqlite_url, missing, QUICK)
    assert status["status"] == "failed" and "UnknownGame" in status["error"]


def test_the_worker_thread_reviews_games_enqueued_after_upload(sqlite_url):
    with GameLibrary.open(sqlite_url) as library:
        game = library.upload(short_game(10)).game_id
    worker = start_worker(sqlite_url, workers=1)
    try:
        enqueue(sqlite_url, game, QUICK)
        status = wait_for(sqlite_url, game, QUICK, timeout=60)
    finally:
        worker.stop(timeout=30)
    assert not worker.is_alive()
    assert status["status"] == "done", status
    assert len(status["result"]["steps"]) == 10


@pytest.mark.parametrize("stale", [False, True])
def test_a_review_whose_worker_died_is_taken_up_again(sqlite_url, monkeypatch, stale):
    table = Analyses(sqlite_url)
    game = str(uuid.uuid4())
    enqueue(sqlite_url, game, QUICK)
    first = table.claim()
    assert first == (game, QUICK, 1)
    if stale:
        monkeypatch.setattr("projections.analysis.STALE_SECONDS", -1.0)
    assert table.claim() == ((game, QUICK, 2) if stale else None)
    table.release(first)  # its worker's claim, taken over or not, goes back only if it holds
    assert analysis_status(sqlite_url, game, QUICK)["status"] == ("running" if stale else "queued")


def test_a_review_saved_from_elsewhere_is_one_done_row_whatever_was_there(store_url):
    """Saved over nothing, over a queued review and over a done one: done with the newest
    result; ``done`` answers for the ids asked, at most a page of them at once."""
    table = Analyses(store_url)
    fresh, queued, other = (str(uuid.uuid4()) for _ in range(3))
    enqueue(store_url, queued, QUICK)
    table.save(fresh, QUICK, {"steps": [1]})
    table.save(queued, QUICK, {"steps": [2]})
    table.save(queued, QUICK, {"steps": [3]})
    for game, steps in ((fresh, [1]), (queued, [3])):
        status = analysis_status(store_url, game, QUICK)
        assert (status["status"], status["progress"], status["result"]) == (
            "done",
            1.0,
            {"steps": steps},
        )
    assert table.done(QUICK.key, [fresh, queued, other]) == {fresh, queued}
    assert table.done("another-key", [fresh, queued]) == set()
    assert table.claim() is None  # nothing left queued
    with pytest.raises(ValueError, match=f"at most {IDS_PER_QUERY} game ids"):
        table.done(QUICK.key, [other] * (IDS_PER_QUERY + 1))
