"""The explore benchmark suite runs, small: a variation opened and its legal actions read at
every measured step, reported with the replay's read of the same positions as baseline."""

from __future__ import annotations

import json

import pytest

from scripts.benchmarks import explore

SMALL = explore.Sizes(rounds=1, games=("2p-00-heuristic",))


def test_the_explore_suite_measures_a_small_run(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    explore.measure("sqlite", sqlite_url, SMALL)
    (line,) = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert line["suite"] == "explore" and line["metric"] == "explore_ready_p95_ms"
    assert line["backend"] == "sqlite" and line["count"] == len(explore.SHARES)
    assert 0 < line["p50"] <= line["value"] <= line["max"]
    assert line["baseline"] > 0 and line["target"] == explore.TARGET_MS
