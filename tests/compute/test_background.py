"""The background reviews on a cluster: a queued game's review, a task per step, equals the
review made in this process, and a review whose cluster is lost waits for it to come back."""

from __future__ import annotations

import json
import time
from pathlib import Path

from distributed import Client, get_task_stream

from domain.store import GameLibrary
from domain.wolves.analysis.review import Settings, review
from domain.wolves.records import read_record
from projections.analysis_worker import AnalysisWorker, analysis_status, enqueue, wait_for
from services.compute import opener
from tests.api.serving import free_port
from tests.compute.conftest import cluster_of_one, kill, short_game

STEPS = 12
SETTINGS = Settings(playouts=1, candidates=1)


def test_the_background_worker_reviews_a_queued_game_on_the_cluster(
    scheduler: str, client: Client, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'howl.sqlite3'}"
    record = short_game("2p-04-heuristic", STEPS)
    with GameLibrary.open(url) as library:
        game = library.upload(record).game_id
    worker = AnalysisWorker(url, poll=0.05, cluster=opener(scheduler))
    with get_task_stream(client) as stream:
        enqueue(url, game, SETTINGS)
        worker.start()
        try:
            status = wait_for(url, game, SETTINGS, timeout=120)
        finally:
            worker.stop(timeout=30)
    assert not worker.is_alive()
    assert status["status"] == "done", status
    assert [t["key"].partition("-")[0] for t in stream.data] == ["review_step"] * STEPS
    expected = review(read_record(record), SETTINGS, None, 1).to_json()
    assert status["result"] == json.loads(json.dumps(expected))


def test_a_review_whose_cluster_is_lost_is_queued_again_and_done_once_it_is_back(
    tmp_path: Path,
) -> None:
    """The scheduler and its worker killed mid-review: the review goes back to the queue (not
    failed), and the worker, opening the cluster again, finishes it once it is back."""
    url = f"sqlite:///{tmp_path / 'howl.sqlite3'}"
    record = short_game("2p-04-heuristic", 40)
    settings = Settings(playouts=2, candidates=2)
    with GameLibrary.open(url) as library:
        game = library.upload(record).game_id
    port = free_port()
    processes = cluster_of_one(port)
    worker = AnalysisWorker(url, poll=0.05, cluster=opener(f"tcp://127.0.0.1:{port}"), retry=0.5)
    try:
        enqueue(url, game, settings)
        worker.start()
        deadline = time.monotonic() + 60
        while analysis_status(url, game, settings)["progress"] == 0:
            assert time.monotonic() < deadline, "the review never started"
            time.sleep(0.05)
        kill(processes)
        while (status := analysis_status(url, game, settings))["status"] == "running":
            assert time.monotonic() < deadline, "the lost review stayed running"
            time.sleep(0.05)
        assert status["status"] == "queued" and status["error"] is None, status
        processes = cluster_of_one(port)
        status = wait_for(url, game, settings, timeout=60)
    finally:
        worker.stop(timeout=30)
        kill(processes)
    assert status["status"] == "done", status
    expected = review(read_record(record), settings, None, 1).to_json()
    assert status["result"] == json.loads(json.dumps(expected))


def test_a_cluster_lost_while_idle_is_opened_again_for_the_next_review(tmp_path: Path) -> None:
    """The cluster killed between two reviews: the second is not failed on the closed client,
    it waits in the queue and is done once the cluster is back."""
    url = f"sqlite:///{tmp_path / 'howl.sqlite3'}"
    first, second = short_game("2p-04-heuristic", 6), short_game("2p-03-heuristic", 6)
    with GameLibrary.open(url) as library:
        games = [library.upload(record).game_id for record in (first, second)]
    port = free_port()
    processes = cluster_of_one(port)
    worker = AnalysisWorker(url, poll=0.05, cluster=opener(f"tcp://127.0.0.1:{port}"), retry=0.5)
    try:
        enqueue(url, games[0], SETTINGS)
        worker.start()
        assert wait_for(url, games[0], SETTINGS, timeout=60)["status"] == "done"
        kill(processes)
        time.sleep(1.0)  # the worker idles on a cluster that is gone
        enqueue(url, games[1], SETTINGS)
        time.sleep(1.0)
        assert analysis_status(url, games[1], SETTINGS)["status"] in ("queued", "running")
        processes = cluster_of_one(port)
        status = wait_for(url, games[1], SETTINGS, timeout=60)
    finally:
        worker.stop(timeout=30)
        kill(processes)
    assert status["status"] == "done", status
    assert status["result"] == json.loads(
        json.dumps(review(read_record(second), SETTINGS).to_json())
    )
