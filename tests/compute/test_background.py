"""The background reviews on the test cluster: a queued game's review, a task per step,
equals the review made in this process."""

from __future__ import annotations

import json
from pathlib import Path

from distributed import Client, get_task_stream

from domain.store import GameLibrary
from domain.wolves.analysis.review import Settings, review
from domain.wolves.records import read_record
from projections.analysis_worker import AnalysisWorker, enqueue, wait_for
from services.compute import cluster
from tests.compute.conftest import short_game

STEPS = 12
SETTINGS = Settings(playouts=1, candidates=1)


def test_the_background_worker_reviews_a_queued_game_on_the_cluster(
    scheduler: str, client: Client, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'howl.sqlite3'}"
    record = short_game("2p-04-heuristic", STEPS)
    with GameLibrary.open(url) as library:
        game = library.upload(record).game_id
    worker = AnalysisWorker(url, poll=0.05, cluster=cluster(scheduler))
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
